// A program on the client Mono's svcutil generates from the Calculator's
// live ?wsdl (CalculatorClient), compiled with it to prove the generated
// contract is typed and complete. It is compiled, not run: Mono's svcutil
// writes no return element name ([return: MessageParameter(Name = "result")])
// and the action "*", so its DataContract serializer reads no result
// (a NullReferenceException), a fault of the tool; the hand-written contract
// of WcfClient.cs is what the tests call with. Usage:
//   mono SvcutilClient.exe <service URL>
using System;
using System.Collections.Generic;
using System.ServiceModel;

public static class SvcutilClient {
  public static int Main (string[] args) {
    var output = new SortedDictionary<string, object>(StringComparer.Ordinal);
    var client = new CalculatorClient(new BasicHttpBinding(), new EndpointAddress(args[0]));
    long sum = client.Add(2, 3);
    string echo = client.Echo("text");
    long quotient = client.Divide(6, 3);
    output["add"] = sum;
    output["echo"] = echo;
    output["divide"] = quotient;
    client.Close();
    Console.WriteLine(Json.Write(output));
    return 0;
  }
}
