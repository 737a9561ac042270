// One JSON object on one line, for the tests to read (test/interop.ts runClient).
using System.Collections.Generic;
using System.Text;

public static class Json {
  public static string Write (object value) {
    if (value == null) return "null";
    if (value is bool) return (bool)value ? "true" : "false";
    if (value is long || value is int) return value.ToString();
    var map = value as IDictionary<string, object>;
    if (map != null) {
      var parts = new List<string>();
      foreach (var entry in map) parts.Add(Write(entry.Key) + ":" + Write(entry.Value));
      return "{" + string.Join(",", parts) + "}";
    }
    var list = value as System.Collections.IList;
    if (list != null) {
      var items = new List<string>();
      foreach (var item in list) items.Add(Write(item));
      return "[" + string.Join(",", items) + "]";
    }
    var b = new StringBuilder("\"");
    foreach (char c in value.ToString()) {
      if (c == '"' || c == '\\') b.Append('\\').Append(c);
      else if (c < 0x20 || c > 0x7e) b.AppendFormat("\\u{0:x4}", (int)c);
      else b.Append(c);
    }
    return b.Append('"').ToString();
  }
}
