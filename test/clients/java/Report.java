/*
 * What the JAX-WS clients print (test/interop.ts runClient): one JSON object
 * on one line, and a SOAP fault as its code, subcodes, reason and detail.
 */
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.namespace.QName;
import javax.xml.soap.Detail;
import javax.xml.soap.SOAPFault;
import org.w3c.dom.Node;

public final class Report {
  private Report () {
  }

  static Map<String, Object> fault (SOAPFault f) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("code", qname(f.getFaultCodeAsQName()));
    if (f.getNamespaceURI().equals("http://www.w3.org/2003/05/soap-envelope")) {
      List<Object> subcodes = new ArrayList<>();
      f.getFaultSubcodes().forEachRemaining((q) -> subcodes.add(qname((QName) q)));
      m.put("subcodes", subcodes);
    }
    m.put("reason", f.getFaultString());
    List<Object> detail = new ArrayList<>();
    Detail d = f.getDetail();
    if (d != null) {
      for (Node n = d.getFirstChild(); n != null; n = n.getNextSibling()) {
        if (n.getNodeType() == Node.ELEMENT_NODE) detail.add("{" + n.getNamespaceURI() + "}" + n.getLocalName() + "=" + n.getTextContent());
      }
    }
    m.put("detail", detail);
    return m;
  }

  static String qname (QName q) {
    return "{" + q.getNamespaceURI() + "}" + q.getLocalPart();
  }

  static String json (Object v) {
    if (v == null) return "null";
    if (v instanceof Number || v instanceof Boolean) return v.toString();
    if (v instanceof Map) {
      StringBuilder b = new StringBuilder("{");
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        if (b.length() > 1) b.append(',');
        b.append(json(e.getKey().toString())).append(':').append(json(e.getValue()));
      }
      return b.append('}').toString();
    }
    if (v instanceof List) {
      StringBuilder b = new StringBuilder("[");
      for (Object e : (List<?>) v) b.append(b.length() > 1 ? "," : "").append(json(e));
      return b.append(']').toString();
    }
    StringBuilder b = new StringBuilder("\"");
    for (char c : v.toString().toCharArray()) {
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20 || c > 0x7e) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    return b.append('"').toString();
  }
}
