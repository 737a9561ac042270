// A .NET WCF client (Mono's System.ServiceModel) of two contracts of the
// corpus served by app.soap.contract(), through a ChannelFactory over
// hand-written message contracts that match their WSDLs ([XmlSerializerFormat]
// for OCPP, WCF's data contracts for the Reporting API)
// (Mono's svcutil cannot import either: see docs/wsdl.md "Client notes").
// Usage:
//   mono ContractClient.exe <ocpp|bing> <service URL>
// ocpp: OCPP 1.6's central system over a CustomBinding of TextMessageEncoding
// (Soap12WSAddressing10) and HttpTransport; bing: Microsoft Advertising's
// Reporting API over BasicHttpBinding (SOAP 1.1). Prints one JSON object:
// what each call returned, or the fault it raised.
using System;
using System.Collections.Generic;
using System.Runtime.Serialization;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Text;
using System.Xml.Serialization;

namespace Ocpp {
  public static class Ns { public const string Cs = "urn://Ocpp/Cs/2015/10/"; }

  [XmlType(Namespace = Ns.Cs)]
  public class BootNotificationRequest {
    public string chargePointVendor;
    public string chargePointModel;
  }

  [XmlType(Namespace = Ns.Cs)]
  public class BootNotificationResponse {
    public string status;
    public DateTime currentTime;
    public int interval;
  }

  [XmlType(Namespace = Ns.Cs)]
  public class HeartbeatRequest {
  }

  [XmlType(Namespace = Ns.Cs)]
  public class HeartbeatResponse {
    public DateTime currentTime;
  }

  [XmlType(Namespace = Ns.Cs)]
  public class AuthorizeRequest {
    public string idTag;
  }

  [XmlType(Namespace = Ns.Cs)]
  public class IdTagInfo {
    public string status;
    public DateTime expiryDate;
    public string parentIdTag;
  }

  [XmlType(Namespace = Ns.Cs)]
  public class AuthorizeResponse {
    public IdTagInfo idTagInfo;
  }

  // document/literal bare: each message is the chargeBoxIdentity header part and one Body element
  [MessageContract(IsWrapped = false)]
  public class BootNotificationInput {
    [MessageHeader(Namespace = Ns.Cs)] public string chargeBoxIdentity;
    [MessageBodyMember(Namespace = Ns.Cs), XmlElement(Namespace = Ns.Cs)] public BootNotificationRequest bootNotificationRequest;
  }

  [MessageContract(IsWrapped = false)]
  public class BootNotificationOutput {
    [MessageBodyMember(Namespace = Ns.Cs), XmlElement(Namespace = Ns.Cs)] public BootNotificationResponse bootNotificationResponse;
  }

  [MessageContract(IsWrapped = false)]
  public class HeartbeatInput {
    [MessageHeader(Namespace = Ns.Cs)] public string chargeBoxIdentity;
    [MessageBodyMember(Namespace = Ns.Cs), XmlElement(Namespace = Ns.Cs)] public HeartbeatRequest heartbeatRequest;
  }

  [MessageContract(IsWrapped = false)]
  public class HeartbeatOutput {
    [MessageBodyMember(Namespace = Ns.Cs), XmlElement(Namespace = Ns.Cs)] public HeartbeatResponse heartbeatResponse;
  }

  [MessageContract(IsWrapped = false)]
  public class AuthorizeInput {
    [MessageHeader(Namespace = Ns.Cs)] public string chargeBoxIdentity;
    [MessageBodyMember(Namespace = Ns.Cs), XmlElement(Namespace = Ns.Cs)] public AuthorizeRequest authorizeRequest;
  }

  [MessageContract(IsWrapped = false)]
  public class AuthorizeOutput {
    [MessageBodyMember(Namespace = Ns.Cs), XmlElement(Namespace = Ns.Cs)] public AuthorizeResponse authorizeResponse;
  }

  // The central system's own fault detail, not in the WSDL: Mono reads a fault's detail only through a
  // [FaultContract] whose DataContractSerializer takes it (any other detail, it reads as ExceptionDetail and
  // throws a SerializationException)
  [DataContract(Name = "unknownChargeBox", Namespace = "urn:example:central-system")]
  public class UnknownChargeBox {
    [DataMember] public string chargeBoxIdentity;
  }

  // Mono applies [XmlSerializerFormat] to a message contract only on the operation (on the interface, it
  // takes the DataContractSerializer), and names a body member's element by its XmlElement attribute
  [ServiceContract(Namespace = Ns.Cs)]
  public interface CentralSystemService {
    [XmlSerializerFormat]
    [OperationContract(Action = "/BootNotification", ReplyAction = "/BootNotificationResponse")]
    BootNotificationOutput BootNotification (BootNotificationInput input);

    [XmlSerializerFormat]
    [OperationContract(Action = "/Heartbeat", ReplyAction = "/HeartbeatResponse")]
    HeartbeatOutput Heartbeat (HeartbeatInput input);

    [XmlSerializerFormat]
    [OperationContract(Action = "/Authorize", ReplyAction = "/AuthorizeResponse")]
    [FaultContract(typeof(UnknownChargeBox))]
    AuthorizeOutput Authorize (AuthorizeInput input);
  }
}

namespace Bing {
  public static class Ns {
    public const string Reporting = "https://bingads.microsoft.com/Reporting/v13";
    public const string Arrays = "http://schemas.microsoft.com/2003/10/Serialization/Arrays";
    public const string AdApi = "https://adapi.microsoft.com";
  }

  // A WCF service's data contracts, read and written with WCF's DataContractSerializer: Mono's
  // XmlSerializer formatter reads no reply header block (TrackingId)
  [DataContract(Namespace = Ns.Reporting)]
  [KnownType(typeof(AccountPerformanceReportRequest))]
  public class ReportRequest {
    [DataMember(EmitDefaultValue = false)] public string Format;
    [DataMember(EmitDefaultValue = false)] public string ReportName;
  }

  [DataContract(Namespace = Ns.Reporting)]
  public class AccountPerformanceReportRequest : ReportRequest {
    [DataMember] public string Aggregation;
    [DataMember] public ArrayOfAccountPerformanceReportColumn Columns;
    [DataMember] public AccountReportScope Scope;
    [DataMember] public ReportTime Time;
  }

  [CollectionDataContract(ItemName = "AccountPerformanceReportColumn", Namespace = Ns.Reporting)]
  public class ArrayOfAccountPerformanceReportColumn : List<string> {
  }

  [DataContract(Namespace = Ns.Reporting)]
  public class AccountReportScope {
    [DataMember] public long[] AccountIds;
  }

  [DataContract(Namespace = Ns.Reporting)]
  public class ReportTime {
    [DataMember(EmitDefaultValue = false)] public string PredefinedTime;
  }

  [DataContract(Namespace = Ns.Reporting)]
  public class ReportRequestStatus {
    [DataMember] public string ReportDownloadUrl;
    [DataMember] public string Status;
  }

  // The declared fault's detail, as WCF's DataContractSerializer writes it (Mono reads fault details with it)
  [DataContract(Namespace = Ns.AdApi)]
  public class AdApiError {
    [DataMember] public int Code;
    [DataMember] public string Detail;
    [DataMember] public string ErrorCode;
    [DataMember] public string Message;
  }

  [CollectionDataContract(Name = "ArrayOfAdApiError", ItemName = "AdApiError", Namespace = Ns.AdApi)]
  public class ArrayOfAdApiError : List<AdApiError> {
  }

  [DataContract(Namespace = Ns.AdApi)]
  public class ApplicationFault {
    [DataMember] public string TrackingId;
  }

  [DataContract(Namespace = Ns.AdApi)]
  public class AdApiFaultDetail : ApplicationFault {
    [DataMember] public ArrayOfAdApiError Errors;
  }

  // WCF's message contracts: the request's header blocks, TrackingId back
  public abstract class Headers {
    [MessageHeader(Namespace = Ns.Reporting)] public string AuthenticationToken;
    [MessageHeader(Namespace = Ns.Reporting)] public string CustomerId;
    [MessageHeader(Namespace = Ns.Reporting)] public string DeveloperToken;
  }

  [MessageContract(WrapperName = "SubmitGenerateReportRequest", WrapperNamespace = Ns.Reporting, IsWrapped = true)]
  public class SubmitGenerateReportRequest : Headers {
    [MessageBodyMember(Namespace = Ns.Reporting)] public ReportRequest ReportRequest;
  }

  [MessageContract(WrapperName = "SubmitGenerateReportResponse", WrapperNamespace = Ns.Reporting, IsWrapped = true)]
  public class SubmitGenerateReportResponse {
    [MessageHeader(Namespace = Ns.Reporting)] public string TrackingId;
    [MessageBodyMember(Namespace = Ns.Reporting)] public string ReportRequestId;
  }

  [MessageContract(WrapperName = "PollGenerateReportRequest", WrapperNamespace = Ns.Reporting, IsWrapped = true)]
  public class PollGenerateReportRequest : Headers {
    [MessageBodyMember(Namespace = Ns.Reporting)] public string ReportRequestId;
  }

  [MessageContract(WrapperName = "PollGenerateReportResponse", WrapperNamespace = Ns.Reporting, IsWrapped = true)]
  public class PollGenerateReportResponse {
    [MessageHeader(Namespace = Ns.Reporting)] public string TrackingId;
    [MessageBodyMember(Namespace = Ns.Reporting)] public ReportRequestStatus ReportRequestStatus;
  }

  [ServiceContract(Namespace = Ns.Reporting)]
  public interface IReportingService {
    [OperationContract(Action = "SubmitGenerateReport", ReplyAction = Ns.Reporting + "/IReportingService/SubmitGenerateReportResponse")]
    SubmitGenerateReportResponse SubmitGenerateReport (SubmitGenerateReportRequest request);

    [OperationContract(Action = "PollGenerateReport", ReplyAction = Ns.Reporting + "/IReportingService/PollGenerateReportResponse")]
    [FaultContract(typeof(AdApiFaultDetail))]
    PollGenerateReportResponse PollGenerateReport (PollGenerateReportRequest request);
  }
}

public static class ContractClient {
  static readonly SortedDictionary<string, object> output = new SortedDictionary<string, object>(StringComparer.Ordinal);

  public static int Main (string[] args) {
    try {
      if (args[0] == "ocpp") Ocpp(args[1]);
      else Bing(args[1]);
    } catch (Exception e) {
      output["error"] = e.GetType().Name + ": " + e.Message;
    }
    Console.WriteLine(Json.Write(output));
    return 0;
  }

  static SortedDictionary<string, object> Map () {
    return new SortedDictionary<string, object>(StringComparer.Ordinal);
  }

  static string Time (DateTime t) {
    return t.ToUniversalTime().ToString("yyyy-MM-dd'T'HH:mm:ss'Z'");
  }

  /* A FaultException: its type, code, subcode and reason. */
  static SortedDictionary<string, object> Fault (FaultException e) {
    var fault = Map();
    fault["type"] = e.GetType().Name;
    fault["code"] = "{" + e.Code.Namespace + "}" + e.Code.Name;
    if (e.Code.SubCode != null) fault["subcode"] = "{" + e.Code.SubCode.Namespace + "}" + e.Code.SubCode.Name;
    fault["reason"] = e.Reason.ToString();
    return fault;
  }

  static void Ocpp (string url) {
    var binding = new CustomBinding(new TextMessageEncodingBindingElement(MessageVersion.Soap12WSAddressing10, Encoding.UTF8), new HttpTransportBindingElement());
    var factory = new ChannelFactory<Ocpp.CentralSystemService>(binding, new EndpointAddress(url));
    var cs = factory.CreateChannel();
    var boot = cs.BootNotification(new Ocpp.BootNotificationInput {
      chargeBoxIdentity = "CB-0001",
      bootNotificationRequest = new Ocpp.BootNotificationRequest { chargePointVendor = "VendorX", chargePointModel = "Model-1" }
    }).bootNotificationResponse;
    var b = Map();
    b["status"] = boot.status;
    b["currentTime"] = Time(boot.currentTime);
    b["interval"] = boot.interval;
    output["bootNotification"] = b;
    output["heartbeat"] = Time(cs.Heartbeat(new Ocpp.HeartbeatInput { chargeBoxIdentity = "CB-0001", heartbeatRequest = new Ocpp.HeartbeatRequest() }).heartbeatResponse.currentTime);
    var info = cs.Authorize(new Ocpp.AuthorizeInput { chargeBoxIdentity = "CB-0001", authorizeRequest = new Ocpp.AuthorizeRequest { idTag = "TAG-0042" } }).authorizeResponse.idTagInfo;
    var a = Map();
    a["status"] = info.status;
    a["expiryDate"] = Time(info.expiryDate);
    a["parentIdTag"] = info.parentIdTag;
    output["authorize"] = a;
    try {
      cs.Authorize(new Ocpp.AuthorizeInput { chargeBoxIdentity = "CB-9999", authorizeRequest = new Ocpp.AuthorizeRequest { idTag = "TAG-0042" } });
      output["unknown"] = "no fault";
    } catch (FaultException<Ocpp.UnknownChargeBox> e) {
      var fault = Fault(e);
      fault["detail"] = e.Detail.chargeBoxIdentity;
      output["unknown"] = fault;
    }
    ((IClientChannel)cs).Close();
  }

  static void Bing (string url) {
    var factory = new ChannelFactory<Bing.IReportingService>(new BasicHttpBinding(), new EndpointAddress(url));
    var reporting = factory.CreateChannel();
    var report = new Bing.AccountPerformanceReportRequest {
      Format = "Csv",
      ReportName = "daily",
      Aggregation = "Daily",
      Columns = new Bing.ArrayOfAccountPerformanceReportColumn { "AccountName", "TimePeriod" },
      Scope = new Bing.AccountReportScope { AccountIds = new long[] { 123 } },
      Time = new Bing.ReportTime { PredefinedTime = "Yesterday" }
    };
    var submitted = reporting.SubmitGenerateReport(new Bing.SubmitGenerateReportRequest { AuthenticationToken = "token-1", CustomerId = "42", DeveloperToken = "dev-1", ReportRequest = report });
    var s = Map();
    s["reportRequestId"] = submitted.ReportRequestId;
    s["trackingId"] = submitted.TrackingId;
    output["submit"] = s;
    var polled = reporting.PollGenerateReport(new Bing.PollGenerateReportRequest { AuthenticationToken = "token-1", CustomerId = "42", DeveloperToken = "dev-1", ReportRequestId = "rq-9" });
    var p = Map();
    p["status"] = polled.ReportRequestStatus.Status;
    p["reportDownloadUrl"] = polled.ReportRequestStatus.ReportDownloadUrl;
    p["trackingId"] = polled.TrackingId;
    output["poll"] = p;
    try {
      reporting.PollGenerateReport(new Bing.PollGenerateReportRequest { AuthenticationToken = "token-1", CustomerId = "42", DeveloperToken = "dev-1", ReportRequestId = "rq-0" });
      output["unknown"] = "no fault";
    } catch (FaultException<Bing.AdApiFaultDetail> e) {
      var fault = Fault(e);
      fault["trackingId"] = e.Detail.TrackingId;
      var errors = new List<object>();
      foreach (var error in e.Detail.Errors) {
        var m = Map();
        m["code"] = error.Code;
        m["errorCode"] = error.ErrorCode;
        m["message"] = error.Message;
        errors.Add(m);
      }
      fault["errors"] = errors;
      output["unknown"] = fault;
    }
    ((IClientChannel)reporting).Close();
  }
}
