// A .NET WCF client of the demo's Calculator (Mono's System.ServiceModel),
// through a ChannelFactory over a hand-written contract. Usage:
//   mono WcfClient.exe <basic|soap12|soap12wsa> <service URL>
// basic: BasicHttpBinding (SOAP 1.1); soap12: a CustomBinding of
// TextMessageEncoding (Soap12) and HttpTransport; soap12wsa: the same with
// Soap12WSAddressing10. Prints one JSON object: what each call returned, or
// the fault it raised.
using System;
using System.Collections.Generic;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Text;
using System.Xml;

[ServiceContract(Namespace = "urn:example:calc")]
[XmlSerializerFormat]
public interface ICalculator {
  [OperationContract(Action = "urn:example:calc/Add", ReplyAction = "urn:example:calc/AddResponse")]
  [return: MessageParameter(Name = "result")]
  long Add (long a, long b);

  [OperationContract(Action = "urn:example:calc/Echo", ReplyAction = "urn:example:calc/EchoResponse")]
  [return: MessageParameter(Name = "text")]
  string Echo (string text);

  [OperationContract(Action = "urn:example:calc/Divide", ReplyAction = "urn:example:calc/DivideResponse")]
  [return: MessageParameter(Name = "result")]
  long Divide (long a, long b);
}

public static class WcfClient {
  public static int Main (string[] args) {
    var output = new SortedDictionary<string, object>(StringComparer.Ordinal);
    try {
      Binding binding = args[0] == "basic"
        ? (Binding)new BasicHttpBinding()
        : new CustomBinding(
            new TextMessageEncodingBindingElement(args[0] == "soap12wsa" ? MessageVersion.Soap12WSAddressing10 : MessageVersion.Soap12, Encoding.UTF8),
            new HttpTransportBindingElement());
      var factory = new ChannelFactory<ICalculator>(binding, new EndpointAddress(args[1]));
      var calc = factory.CreateChannel();
      output["add"] = calc.Add(2, 3);
      output["echo"] = calc.Echo("h\u00e9llo \u2713 <&> \U0001D11E");
      try {
        output["divide"] = calc.Divide(1, 0);
      } catch (FaultException e) {
        var fault = new SortedDictionary<string, object>(StringComparer.Ordinal);
        fault["type"] = e.GetType().Name;
        fault["code"] = "{" + e.Code.Namespace + "}" + e.Code.Name;
        fault["reason"] = e.Reason.ToString();
        output["divide"] = fault;
      } catch (Exception e) {
        output["divide"] = e.GetType().Name + ": " + e.Message;
      }
      ((IClientChannel)calc).Close();
    } catch (Exception e) {
      output["error"] = e.GetType().Name + ": " + e.Message;
    }
    Console.WriteLine(Json.Write(output));
    return 0;
  }
}
