/*
 * A JAX-WS (Metro) client of the demo, from the classes wsimport generated
 * from its live WSDL (packages calc, orders, addressed and files). Usage:
 *   java DemoClient <calc|orders|tenantless|addressing|wsse|files> <service URL> <1.1|1.2>
 * Prints one JSON object: what each call returned, or the fault it raised.
 */
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.datatype.DatatypeFactory;
import javax.xml.namespace.QName;
import javax.xml.ws.BindingProvider;
import javax.xml.ws.Holder;
import javax.xml.ws.handler.Handler;
import javax.xml.ws.handler.MessageContext;
import javax.xml.ws.handler.soap.SOAPHandler;
import javax.xml.ws.handler.soap.SOAPMessageContext;
import javax.xml.ws.soap.AddressingFeature;
import javax.xml.ws.soap.MTOMFeature;
import org.apache.ws.security.WSConstants;
import org.apache.ws.security.message.WSSecHeader;
import org.apache.ws.security.message.WSSecTimestamp;
import org.apache.ws.security.message.WSSecUsernameToken;
import org.w3c.dom.Document;
import javax.xml.ws.soap.SOAPFaultException;

public final class DemoClient {
  static final Map<String, Object> out = new LinkedHashMap<>();

  public static void main (String[] args) {
    String scenario = args[0];
    String url = args[1];
    boolean v12 = "1.2".equals(args[2]);
    try {
      if (scenario.equals("orders")) orders(url, v12);
      else if (scenario.equals("tenantless")) tenantless(url, v12);
      else if (scenario.equals("addressing")) addressed(url, v12);
      else if (scenario.equals("wsse")) wsse(url, v12);
      else if (scenario.equals("files")) files(url, v12);
      else calc(url, v12);
    } catch (Throwable e) {
      out.put("error", e.toString());
    }
    System.out.println(Report.json(out));
  }

  static <T> T at (T port, String url) {
    ((BindingProvider) port).getRequestContext().put(BindingProvider.ENDPOINT_ADDRESS_PROPERTY, url);
    return port;
  }

  static final String ECHO = "h\u00e9llo \u2713 <&> \ud834\udd1e";

  static void calc (String url, boolean v12) {
    calc.Calculator_Service service = new calc.Calculator_Service();
    calc.Calculator port = at(v12 ? service.getCalculatorSoap12() : service.getCalculatorSoap11(), url);
    out.put("add", port.add(2, 3));
    Holder<String> text = new Holder<>(ECHO);
    port.echo(text);
    out.put("echo", text.value);
    try {
      out.put("divide", port.divide(1, 0));
    } catch (SOAPFaultException e) {
      out.put("divide", Report.fault(e.getFault()));
    }
  }

  /* The same calls, with WS-Addressing required by the client (AddressingFeature). */
  static void addressed (String url, boolean v12) {
    addressed.Calculator_Service service = new addressed.Calculator_Service();
    AddressingFeature feature = new AddressingFeature(true, true);
    addressed.Calculator port = at(v12 ? service.getCalculatorSoap12(feature) : service.getCalculatorSoap11(feature), url);
    out.put("add", port.add(2, 3));
    Holder<String> text = new Holder<>(ECHO);
    port.echo(text);
    out.put("echo", text.value);
    try {
      out.put("divide", port.divide(1, 0));
    } catch (SOAPFaultException e) {
      out.put("divide", Report.fault(e.getFault()));
    }
  }

  static orders.Orders ordersPort (String url, boolean v12) {
    orders.Orders_Service service = new orders.Orders_Service();
    return at(v12 ? service.getOrdersSoap12() : service.getOrdersSoap11(), url);
  }

  /* GetOrder without the optional Tenant header: Metro sends it as <Tenant xsi:nil="true"/>. */
  static void tenantless (String url, boolean v12) {
    try {
      out.put("tenantless", ordersPort(url, v12).getOrder("nope-0", null).getId());
    } catch (orders.OrderNotFoundFault e) {
      out.put("tenantless", e.getMessage());
    } catch (SOAPFaultException e) {
      out.put("tenantless", Report.fault(e.getFault()));
    }
  }

  /* WSS4J 1.6 writes a UsernameToken (digest or text) and a Timestamp into each request, as a JAX-WS handler. */
  static final class Wsse implements SOAPHandler<SOAPMessageContext> {
    final String type;
    final String password;

    Wsse (String type, String password) {
      this.type = type;
      this.password = password;
    }

    public boolean handleMessage (SOAPMessageContext context) {
      if (!(Boolean) context.get(MessageContext.MESSAGE_OUTBOUND_PROPERTY)) return true;
      try {
        // On a plain DOM copy (SAAJ's own DOM refuses nodes WSS4J creates), then put back.
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        context.getMessage().writeTo(bytes);
        javax.xml.parsers.DocumentBuilderFactory factory = javax.xml.parsers.DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        Document doc = factory.newDocumentBuilder().parse(new java.io.ByteArrayInputStream(bytes.toByteArray()));
        WSSecHeader header = new WSSecHeader();
        header.setMustUnderstand(true);
        header.insertSecurityHeader(doc);
        WSSecUsernameToken token = new WSSecUsernameToken();
        token.setPasswordType(type);
        token.setUserInfo("demo", password);
        token.build(doc, header);
        WSSecTimestamp timestamp = new WSSecTimestamp();
        timestamp.setTimeToLive(300);
        timestamp.build(doc, header);
        context.getMessage().getSOAPPart().setContent(new javax.xml.transform.dom.DOMSource(doc));
        context.getMessage().saveChanges();
      } catch (Exception e) {
        throw new RuntimeException(e);
      }
      return true;
    }

    public boolean handleFault (SOAPMessageContext context) {
      return true;
    }

    public void close (MessageContext context) {
    }

    public java.util.Set<QName> getHeaders () {
      return null;
    }
  }

  static void wsse (String url, boolean v12) {
    String[][] cases = { { "digest", WSConstants.PASSWORD_DIGEST, "demo" }, { "text", WSConstants.PASSWORD_TEXT, "demo" }, { "wrong", WSConstants.PASSWORD_DIGEST, "nope" } };
    for (String[] c : cases) {
      calc.Calculator_Service service = new calc.Calculator_Service();
      calc.Calculator port = at(v12 ? service.getCalculatorSoap12() : service.getCalculatorSoap11(), url);
      List<Handler> chain = new ArrayList<>();
      chain.add(new Wsse(c[1], c[2]));
      ((BindingProvider) port).getBinding().setHandlerChain(chain);
      try {
        out.put(c[0], port.add(2, 3));
      } catch (SOAPFaultException e) {
        out.put(c[0], Report.fault(e.getFault()));
      }
    }
  }

  static void orders (String url, boolean v12) throws Exception {
    orders.Orders port = ordersPort(url, v12);
    orders.ObjectFactory f = new orders.ObjectFactory();
    orders.PlaceOrder place = new orders.PlaceOrder();
    orders.PlaceOrder.Customer customer = new orders.PlaceOrder.Customer();
    customer.setName("Ada L\u00f6velace");
    customer.setEmail("ada@example.org");
    customer.setVip(true);
    place.setCustomer(customer);
    orders.PlaceOrder.Line line = new orders.PlaceOrder.Line();
    line.setSku("AB-12");
    line.setQuantity(2);
    line.setUnitPrice(9.5);
    line.setNote(f.createPlaceOrderLineNote("gift wrap"));
    place.getLine().add(line);
    place.setPriority("high");
    place.setDeliveryDate(DatatypeFactory.newInstance().newXMLGregorianCalendar("2030-01-15"));
    orders.Tenant tenant = new orders.Tenant();
    tenant.setId("acme");
    orders.PlaceOrderResponse placed = port.placeOrder(place, tenant);
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("orderId", placed.getOrderId());
    p.put("status", placed.getStatus());
    p.put("total", placed.getTotal());
    out.put("placeOrder", p);
    orders.GetOrderResponse.Order order = port.getOrder(placed.getOrderId(), tenant);
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("id", order.getId());
    o.put("name", order.getCustomer().getName());
    o.put("vip", order.getCustomer().isVip());
    o.put("sku", order.getLine().get(0).getSku());
    o.put("note", order.getLine().get(0).getNote().getValue());
    o.put("priority", order.getPriority());
    o.put("deliveryDate", order.getDeliveryDate().toXMLFormat());
    o.put("total", order.getTotal());
    out.put("getOrder", o);
    try {
      port.getOrder("nope-0", tenant);
      out.put("unknown", "no fault");
    } catch (orders.OrderNotFoundFault e) {
      Map<String, Object> u = new LinkedHashMap<>();
      u.put("reason", e.getMessage());
      u.put("orderId", e.getFaultInfo().getOrderId());
      out.put("unknown", u);
    }
  }

  static String sha256 (byte[] bytes) throws Exception {
    StringBuilder hex = new StringBuilder();
    for (byte b : MessageDigest.getInstance("SHA-256").digest(bytes)) hex.append(String.format("%02x", b & 0xff));
    return hex.toString();
  }

  static Map<String, Object> summary (long size, String sha256) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("size", size);
    m.put("sha256", sha256);
    return m;
  }

  /* Files with MTOMFeature (threshold 0): 200 KB of random bytes and every byte value, uploaded and downloaded. */
  static void files (String url, boolean v12) throws Exception {
    files.Files_Service service = new files.Files_Service();
    MTOMFeature mtom = new MTOMFeature(true, 0);
    files.Files port = at(v12 ? service.getFilesSoap12(mtom) : service.getFilesSoap11(mtom), url);
    byte[] bytes = new byte[200_000 + 256];
    new SecureRandom().nextBytes(bytes);
    for (int i = 0; i < 256; i++) bytes[200_000 + i] = (byte) i;
    String name = "jaxws-" + (v12 ? "1.2" : "1.1") + ".bin";
    out.put("sent", summary(bytes.length, sha256(bytes)));
    Holder<Long> size = new Holder<>();
    Holder<String> sha = new Holder<>();
    port.upload(name, bytes, size, sha);
    out.put("upload", summary(size.value, sha.value));
    byte[] back = port.download(name);
    Map<String, Object> d = summary(back.length, sha256(back));
    d.put("same", Arrays.equals(bytes, back));
    out.put("download", d);
    try {
      port.download("never.bin");
      out.put("unknown", "no fault");
    } catch (files.FileNotFoundFault e) {
      Map<String, Object> u = new LinkedHashMap<>();
      u.put("reason", e.getMessage());
      u.put("name", e.getFaultInfo().getName());
      out.put("unknown", u);
    }
  }
}
