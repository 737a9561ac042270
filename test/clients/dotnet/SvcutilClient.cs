// A program on the client Mono's svcutil generates from a live ?wsdl of a
// Calculator (CalculatorClient, over BasicHttpBinding), compiled with it.
// Usage:
//   mono SvcutilClient.exe <service URL>
// Calls Add(2, 3), Echo and Divide(1, 0); prints one JSON object: what each
// call returned, the fault it raised, or the error that stopped the client
// (docs/wsdl.md "Client notes": Mono's svcutil writes no return element
// name, so its client reads a result only when it is named <Operation>Result).
using System;
using System.Collections.Generic;
using System.ServiceModel;

public static class SvcutilClient {
  public static int Main (string[] args) {
    var output = new SortedDictionary<string, object>(StringComparer.Ordinal);
    try {
      var client = new CalculatorClient(new BasicHttpBinding(), new EndpointAddress(args[0]));
      output["add"] = client.Add(2, 3);
      output["echo"] = client.Echo("h\u00e9llo \u2713 <&> \U0001D11E");
      try {
        output["divide"] = client.Divide(1, 0);
      } catch (FaultException e) {
        var fault = new SortedDictionary<string, object>(StringComparer.Ordinal);
        fault["type"] = e.GetType().Name;
        fault["code"] = "{" + e.Code.Namespace + "}" + e.Code.Name;
        fault["reason"] = e.Reason.ToString();
        output["divide"] = fault;
      }
      client.Close();
    } catch (Exception e) {
      output["error"] = e.GetType().Name + ": " + e.Message;
    }
    Console.WriteLine(Json.Write(output));
    return 0;
  }
}
