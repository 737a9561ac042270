/**
 * Stage 7a: writing XML. Escaping for text and attribute values, and the
 * response envelope in the request's version (PROTOCOL.md "Versions").
 */
import { SOAP12_ENV, type VersionInfo } from './namespaces'

// Characters XML 1.0 cannot carry (§2.2): C0 controls but tab, LF and CR;
// U+FFFE and U+FFFF; surrogates that are not in a pair (with the u flag a
// pair is one code point, so the class matches lone halves only).
// eslint-disable-next-line no-control-regex -- matching those characters is the point
const INVALID_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/gu
const TEXT_SPECIAL = /[&<>\r]/g
const ATTRIBUTE_SPECIAL = /[&<>"\t\n\r]/g
const ENTITY: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\t': '&#x9;',
  '\n': '&#xA;',
  '\r': '&#xD;'
}
const entity = (c: string): string => ENTITY[c]

/** Replaces characters XML 1.0 cannot carry by U+FFFD: for text that must never fail to serialise, such as a fault's reason. */
export function replaceInvalidXmlChars (text: string): string {
  INVALID_CHAR.lastIndex = 0
  return INVALID_CHAR.test(text) ? text.replace(INVALID_CHAR, '\uFFFD') : text
}

/** Escapes character data (`&`, `<`, `>`, and CR so that it survives end-of-line handling). */
export function escapeXml (text: string): string {
  TEXT_SPECIAL.lastIndex = 0
  return TEXT_SPECIAL.test(text) ? text.replace(TEXT_SPECIAL, entity) : text
}

/** Escapes an attribute value for double quotes; whitespace is kept from normalisation. */
export function escapeAttribute (text: string): string {
  ATTRIBUTE_SPECIAL.lastIndex = 0
  return ATTRIBUTE_SPECIAL.test(text) ? text.replace(ATTRIBUTE_SPECIAL, entity) : text
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
