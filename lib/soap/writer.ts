/**
 * Stage 7a: writing XML. Escaping for text and attribute values, and the
 * response envelope in the request's version (PROTOCOL.md "Versions").
 */
import { SOAP12_ENV, type VersionInfo } from '../namespaces'

// Characters XML 1.0 cannot carry (§2.2): C0 controls but tab, LF and CR;
// U+FFFE and U+FFFF; surrogates that are not in a pair (with the u flag a
// pair is one code point, so the class matches lone halves only).
// eslint-disable-next-line no-control-regex -- matching those characters is the point
const INVALID_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/gu
const TEXT_SPECIAL = /[&<>\r]/
const ATTRIBUTE_SPECIAL = /[&<>"\t\n\r]/

/** Whether XML 1.0 can carry every character of the text. */
export function isXmlText (text: string): boolean {
  INVALID_CHAR.lastIndex = 0
  return !INVALID_CHAR.test(text)
}

/** Replaces characters XML 1.0 cannot carry by U+FFFD: for text that must never fail to serialise, such as a fault's reason. */
export function replaceInvalidXmlChars (text: string): string {
  INVALID_CHAR.lastIndex = 0
  return INVALID_CHAR.test(text) ? text.replace(INVALID_CHAR, '\uFFFD') : text
}

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

const PREFIX = 'soap'

/** Writes a whole envelope around already serialised Header and Body content. */
export function writeEnvelope (version: VersionInfo, body: string, header?: string): string {
  const head = header === undefined || header === ''
    ? ''
    : `<${PREFIX}:Header>${header}</${PREFIX}:Header>`
  return `<?xml version="1.0" encoding="utf-8"?><${PREFIX}:Envelope xmlns:${PREFIX}="${version.envelope}">${head}<${PREFIX}:Body>${body}</${PREFIX}:Body></${PREFIX}:Envelope>`
}

/** The prefix the envelope writer binds to the envelope namespace, for content that names env QNames. */
export const ENVELOPE_PREFIX = PREFIX

/** The SOAP 1.2 Upgrade header block (Part 1 §5.4.7) naming both envelopes this server speaks, 1.2 first. */
export const UPGRADE_BLOCK =
  `<upg:Upgrade xmlns:upg="${SOAP12_ENV}">` +
  `<upg:SupportedEnvelope qname="e12:Envelope" xmlns:e12="${SOAP12_ENV}"/>` +
  '<upg:SupportedEnvelope qname="e11:Envelope" xmlns:e11="http://schemas.xmlsoap.org/soap/envelope/"/>' +
  '</upg:Upgrade>'
