/*
 * A JAX-WS (Metro) client of two contracts of the corpus served by
 * app.soap.contract(), from the classes wsimport generated from their live
 * WSDLs: OCPP 1.6's central system (package ocpp: SOAP 1.2, WS-Addressing,
 * the chargeBoxIdentity header) and Microsoft Advertising's Reporting API
 * (package bing: made by WCF, SOAP 1.1, message contract headers, declared
 * faults). Usage:
 *   java ContractClient <ocpp|bing> <service URL>
 * Prints one JSON object: what each call returned, or the fault it raised.
 */
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.ws.BindingProvider;
import javax.xml.ws.Holder;
import javax.xml.ws.soap.AddressingFeature;
import javax.xml.ws.soap.SOAPFaultException;

public final class ContractClient {
  static final Map<String, Object> out = new LinkedHashMap<>();

  public static void main (String[] args) {
    try {
      if (args[0].equals("ocpp")) ocpp(args[1]);
      else bing(args[1]);
    } catch (Throwable e) {
      out.put("error", e.toString());
    }
    System.out.println(Report.json(out));
  }

  static <T> T at (T port, String url) {
    ((BindingProvider) port).getRequestContext().put(BindingProvider.ENDPOINT_ADDRESS_PROPERTY, url);
    return port;
  }

  /* BootNotification, Heartbeat and Authorize with WS-Addressing required (the binding's wsaw:UsingAddressing); Authorize from an unknown charge box gets a Sender fault. */
  static void ocpp (String url) {
    ocpp.CentralSystemService port = at(new ocpp.CentralSystemService_Service().getCentralSystemServiceSoap12(new AddressingFeature(true, true)), url);
    ocpp.BootNotificationRequest boot = new ocpp.BootNotificationRequest();
    boot.setChargePointVendor("VendorX");
    boot.setChargePointModel("Model-1");
    ocpp.BootNotificationResponse booted = port.bootNotification(boot, "CB-0001");
    Map<String, Object> b = new LinkedHashMap<>();
    b.put("status", booted.getStatus().value());
    b.put("currentTime", booted.getCurrentTime().toXMLFormat());
    b.put("interval", booted.getInterval());
    out.put("bootNotification", b);
    out.put("heartbeat", port.heartbeat(new ocpp.HeartbeatRequest(), "CB-0001").getCurrentTime().toXMLFormat());
    ocpp.AuthorizeRequest authorize = new ocpp.AuthorizeRequest();
    authorize.setIdTag("TAG-0042");
    ocpp.IdTagInfo info = port.authorize(authorize, "CB-0001").getIdTagInfo();
    Map<String, Object> a = new LinkedHashMap<>();
    a.put("status", info.getStatus().value());
    a.put("expiryDate", info.getExpiryDate().toXMLFormat());
    a.put("parentIdTag", info.getParentIdTag());
    out.put("authorize", a);
    try {
      port.authorize(authorize, "CB-9999");
      out.put("unknown", "no fault");
    } catch (SOAPFaultException e) {
      out.put("unknown", Report.fault(e.getFault()));
    }
  }

  static final String BING = "https://bingads.microsoft.com/Reporting/v13";

  /* SubmitGenerateReport with a derived report request (xsi:type), PollGenerateReport, and its declared AdApiFaultDetail fault; every call with the header blocks, TrackingId read back. */
  static void bing (String url) throws Exception {
    bing.IReportingService port = at(new bing.ReportingService().getBasicHttpBindingIReportingService(), url);
    bing.ObjectFactory f = new bing.ObjectFactory();
    bing.AccountPerformanceReportRequest report = new bing.AccountPerformanceReportRequest();
    report.setFormat(f.createReportRequestFormat(bing.ReportFormat.CSV));
    report.setReportName(f.createReportRequestReportName("daily"));
    report.setAggregation(bing.ReportAggregation.DAILY);
    bing.ArrayOfAccountPerformanceReportColumn columns = new bing.ArrayOfAccountPerformanceReportColumn();
    columns.getAccountPerformanceReportColumn().add(bing.AccountPerformanceReportColumn.ACCOUNT_NAME);
    columns.getAccountPerformanceReportColumn().add(bing.AccountPerformanceReportColumn.TIME_PERIOD);
    report.setColumns(columns);
    bing.ArrayOflong ids = new bing.ArrayOflong();
    ids.getLong().add(123L);
    bing.AccountReportScope scope = new bing.AccountReportScope();
    scope.setAccountIds(f.createAccountReportScopeAccountIds(ids));
    report.setScope(scope);
    bing.ReportTime time = new bing.ReportTime();
    time.setPredefinedTime(f.createReportTimePredefinedTime(bing.ReportTimePeriod.YESTERDAY));
    report.setTime(time);
    bing.SubmitGenerateReportRequest submit = new bing.SubmitGenerateReportRequest();
    submit.setReportRequest(f.createSubmitGenerateReportRequestReportRequest(report));
    Holder<String> tracking = new Holder<>();
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("reportRequestId", port.submitGenerateReport(submit, null, "token-1", null, "42", "dev-1", null, null, tracking).getReportRequestId().getValue());
    s.put("trackingId", tracking.value);
    out.put("submit", s);
    bing.PollGenerateReportRequest poll = new bing.PollGenerateReportRequest();
    poll.setReportRequestId(f.createPollGenerateReportRequestReportRequestId("rq-9"));
    bing.ReportRequestStatus status = port.pollGenerateReport(poll, null, "token-1", null, "42", "dev-1", null, null, tracking).getReportRequestStatus().getValue();
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("status", status.getStatus().value());
    p.put("reportDownloadUrl", status.getReportDownloadUrl().getValue());
    out.put("poll", p);
    poll.setReportRequestId(f.createPollGenerateReportRequestReportRequestId("rq-0"));
    try {
      port.pollGenerateReport(poll, null, "token-1", null, "42", "dev-1", null, null, tracking);
      out.put("unknown", "no fault");
    } catch (bing.IReportingServicePollGenerateReportAdApiFaultDetailFaultFaultMessage e) {
      Map<String, Object> u = new LinkedHashMap<>();
      u.put("reason", e.getMessage());
      u.put("trackingId", e.getFaultInfo().getTrackingId().getValue());
      List<Object> errors = new ArrayList<>();
      for (bing.AdApiError error : e.getFaultInfo().getErrors().getValue().getAdApiError()) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("code", error.getCode());
        m.put("errorCode", error.getErrorCode().getValue());
        m.put("message", error.getMessage().getValue());
        errors.add(m);
      }
      u.put("errors", errors);
      out.put("unknown", u);
    }
  }
}
