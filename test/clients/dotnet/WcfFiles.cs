// A .NET WCF client of the demo's Files service (Mono's System.ServiceModel),
// through a ChannelFactory over a hand-written contract and a CustomBinding
// of MtomMessageEncoding and HttpTransport. Usage:
//   mono WcfFiles.exe <1.1|1.2> <service URL> [random bytes, 200000 by default]
// Uploads that many random bytes and every byte value, downloads them, and
// prints one JSON object: what each call returned, or the exception it raised.
using System;
using System.Collections;
using System.Collections.Generic;
using System.Security.Cryptography;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Text;

[ServiceContract(Namespace = "urn:example:files")]
[XmlSerializerFormat]
public interface IFiles {
  [OperationContract(Action = "urn:example:files/Upload", ReplyAction = "urn:example:files/UploadResponse")]
  void Upload (string name, byte[] content, out long size, out string sha256);

  [OperationContract(Action = "urn:example:files/Download", ReplyAction = "urn:example:files/DownloadResponse")]
  [return: MessageParameter(Name = "content")]
  byte[] Download (string name);
}

public static class WcfFiles {
  static string Sha256 (byte[] bytes) {
    var hex = new StringBuilder();
    foreach (var b in SHA256.Create().ComputeHash(bytes)) hex.Append(b.ToString("x2"));
    return hex.ToString();
  }

  static SortedDictionary<string, object> Summary (long size, string sha256) {
    var m = new SortedDictionary<string, object>(StringComparer.Ordinal);
    m["size"] = size;
    m["sha256"] = sha256;
    return m;
  }

  public static int Main (string[] args) {
    var output = new SortedDictionary<string, object>(StringComparer.Ordinal);
    try {
      var version = args[0] == "1.1" ? MessageVersion.Soap11 : MessageVersion.Soap12;
      var mtom = new MtomMessageEncodingBindingElement(version, Encoding.UTF8);
      // A byte[] of more than 16384 bytes is over the reader's default quota.
      mtom.ReaderQuotas.MaxArrayLength = 8 * 1024 * 1024;
      var binding = new CustomBinding(mtom, new HttpTransportBindingElement { MaxReceivedMessageSize = 8 * 1024 * 1024 });
      var factory = new ChannelFactory<IFiles>(binding, new EndpointAddress(args[1]));
      var files = factory.CreateChannel();
      int random = args.Length > 2 ? int.Parse(args[2]) : 200000;
      var bytes = new byte[random + 256];
      new Random().NextBytes(bytes);
      for (int i = 0; i < 256; i++) bytes[random + i] = (byte)i;
      var name = "wcf-" + args[0] + ".bin";
      output["sent"] = Summary(bytes.Length, Sha256(bytes));
      try {
        long size;
        string sha256;
        files.Upload(name, bytes, out size, out sha256);
        output["upload"] = Summary(size, sha256);
      } catch (Exception e) {
        output["upload"] = e.GetType().Name + ": " + e.Message;
      }
      try {
        var back = files.Download(name);
        var d = Summary(back.Length, Sha256(back));
        d["same"] = ((IStructuralEquatable)bytes).Equals(back, StructuralComparisons.StructuralEqualityComparer);
        output["download"] = d;
      } catch (Exception e) {
        output["download"] = e.GetType().Name + ": " + e.Message;
      }
      ((IClientChannel)files).Abort();
    } catch (Exception e) {
      output["error"] = e.GetType().Name + ": " + e.Message;
    }
    Console.WriteLine(Json.Write(output));
    return 0;
  }
}
