/** Escaping for XML text and attribute values (XML 1.0 §2.4, §3.3.3). */

const TEXT_SPECIAL = /[&<>\r]/
const ATTRIBUTE_SPECIAL = /[&<>"\t\n\r]/

/**
 * The escaping loop: one pass that copies the runs between special
 * characters, which is several times faster than `replace` with a callback.
 */
function escape (text: string, attribute: boolean): string {
  let out = ''
  let last = 0
  for (let i = 0; i < text.length; i++) {
    let entity: string
    switch (text.charCodeAt(i)) {
      case 0x26: entity = '&amp;'; break
      case 0x3C: entity = '&lt;'; break
      case 0x3E: entity = '&gt;'; break
      case 0x0D: entity = '&#xD;'; break
      case 0x22: if (!attribute) continue; entity = '&quot;'; break
      case 0x09: if (!attribute) continue; entity = '&#x9;'; break
      case 0x0A: if (!attribute) continue; entity = '&#xA;'; break
      default: continue
    }
    out += text.slice(last, i) + entity
    last = i + 1
  }
  return out + text.slice(last)
}

/** Escapes character data (`&`, `<`, `>`, and CR so that it survives end-of-line handling). */
export function escapeXml (text: string): string {
  return TEXT_SPECIAL.test(text) ? escape(text, false) : text
}

/** Escapes an attribute value for double quotes; whitespace is kept from normalisation. */
export function escapeAttribute (text: string): string {
  return ATTRIBUTE_SPECIAL.test(text) ? escape(text, true) : text
}
