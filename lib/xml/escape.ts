/** Escaping for XML text and attribute values (XML 1.0 §2.4, §3.3.3). */
import { FLAT_RUN, flattened } from './chars'

const TEXT_SPECIAL = /[&<>\r]/
const ATTRIBUTE_SPECIAL = /[&<>"\t\n\r]/

/**
 * The attribute escaping loop: one pass that copies the runs between special
 * characters, which is several times faster than `replace` with a callback.
 */
function escapeValue (text: string): string {
  let out = ''
  let last = 0
  for (let i = 0; i < text.length; i++) {
    let entity: string
    switch (text.charCodeAt(i)) {
      case 0x26: entity = '&amp;'; break
      case 0x3C: entity = '&lt;'; break
      case 0x3E: entity = '&gt;'; break
      case 0x0D: entity = '&#xD;'; break
      case 0x22: entity = '&quot;'; break
      case 0x09: entity = '&#x9;'; break
      case 0x0A: entity = '&#xA;'; break
      default: continue
    }
    out += text.slice(last, i) + entity
    last = i + 1
  }
  return out + text.slice(last)
}

/** Where `needle` next is in `text` at or after `from`; `text.length` when nowhere. */
function nextAt (text: string, needle: string, from: number): number {
  const at = text.indexOf(needle, from)
  return at === -1 ? text.length : at
}

/**
 * The text escaping loop: the next of each of its four special characters is
 * found with `indexOf` (native, and searched once per stretch of text), and
 * the runs between them copied as they are. Long text holds many runs and no
 * character is looked at in JavaScript: twice as fast as a loop over the characters.
 */
function escapeText (text: string): string {
  const length = text.length
  let amp = nextAt(text, '&', 0)
  let lt = nextAt(text, '<', 0)
  let gt = nextAt(text, '>', 0)
  let cr = nextAt(text, '\r', 0)
  let done = ''
  let out = ''
  let last = 0
  for (;;) {
    const at = Math.min(amp, lt, gt, cr)
    if (at === length) return done + out + text.slice(last)
    let entity: string
    if (at === amp) {
      entity = '&amp;'
      amp = nextAt(text, '&', at + 1)
    } else if (at === lt) {
      entity = '&lt;'
      lt = nextAt(text, '<', at + 1)
    } else if (at === gt) {
      entity = '&gt;'
      gt = nextAt(text, '>', at + 1)
    } else {
      entity = '&#xD;'
      cr = nextAt(text, '\r', at + 1)
    }
    out += text.slice(last, at) + entity
    last = at + 1
    if (out.length > FLAT_RUN) {
      done += flattened(out)
      out = ''
    }
  }
}

/** Escapes character data (`&`, `<`, `>`, and CR so that it survives end-of-line handling). */
export function escapeXml (text: string): string {
  return TEXT_SPECIAL.test(text) ? escapeText(text) : text
}

/** Escapes an attribute value for double quotes; whitespace is kept from normalisation. */
export function escapeAttribute (text: string): string {
  return ATTRIBUTE_SPECIAL.test(text) ? escapeValue(text) : text
}
