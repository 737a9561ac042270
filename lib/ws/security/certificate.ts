/**
 * What the trust store reads of an X.509 certificate that node:crypto's
 * X509Certificate does not give on every Node version (RFC 5280 §4.1): the
 * issuer's name as attribute type/value pairs, the subject key identifier,
 * and the key usage bits. A small DER reader, bounded by the bytes it is
 * given: every length is checked against its enclosing value, and anything
 * it cannot read makes the whole certificate unreadable (undefined). Also
 * the distinguished names a message writes (RFC 4514), as the same pairs.
 */
import { createHash } from 'node:crypto'

/** One attribute of a name: its type as a dotted OID, its value compared as RFC 4518 prepares it (roughly). */
export type NameAttribute = readonly [oid: string, value: string]
/** A distinguished name, most significant RDN first (as encoded), each RDN's attributes in a fixed order. */
export type Name = ReadonlyArray<readonly NameAttribute[]>

export interface CertificateFacts {
  readonly issuer: Name
  /** The subjectKeyIdentifier extension's value, or, without one, the SHA-1 of the subjectPublicKey bits. */
  readonly subjectKeyIdentifier: Buffer
  /** The keyUsage extension's first two bytes of bits (bit 0, digitalSignature, is 0x8000); undefined without one. */
  readonly keyUsage: number | undefined
}

/** RFC 5280 §4.2.1.3: the keyUsage bits read here. */
export const DIGITAL_SIGNATURE = 0x8000
export const KEY_CERT_SIGN = 0x0400

const OID_SUBJECT_KEY_IDENTIFIER = '2.5.29.14'
const OID_KEY_USAGE = '2.5.29.15'

const SEQUENCE = 0x30
const SET = 0x31
const OID = 0x06
const OCTET_STRING = 0x04
const BIT_STRING = 0x03
const BOOLEAN = 0x01
const EXTENSIONS = 0xa3

function malformed (): never {
  throw new RangeError('malformed DER')
}

/** One DER value: its tag, and where its content starts and ends. */
export interface Tlv {
  readonly tag: number
  readonly start: number
  readonly end: number
}

/** The value at `at`, which must end by `limit`; low tag numbers and definite lengths up to 2^32 only. */
export function tlvAt (der: Buffer, at: number, limit: number): Tlv {
  if (at + 2 > limit || (der[at] & 0x1f) === 0x1f) malformed()
  let length = der[at + 1]
  let start = at + 2
  if (length > 0x7f) {
    const bytes = length & 0x7f
    if (bytes === 0 || bytes > 4 || start + bytes > limit) malformed()
    length = der.readUIntBE(start, bytes)
    start += bytes
  }
  if (start + length > limit) malformed()
  return { tag: der[at], start, end: start + length }
}

/** The values inside a constructed one. */
function childrenOf (der: Buffer, parent: Tlv): Tlv[] {
  const children: Tlv[] = []
  for (let at = parent.start; at < parent.end;) {
    const child = tlvAt(der, at, parent.end)
    children.push(child)
    at = child.end
  }
  return children
}

function expect (value: Tlv | undefined, tag: number): Tlv {
  if (value?.tag !== tag) malformed()
  return value
}

/** An OBJECT IDENTIFIER's dotted form. */
function oidOf (der: Buffer, value: Tlv): string {
  const arcs: number[] = []
  let arc = 0
  for (let at = value.start; at < value.end; at++) {
    arc = arc * 128 + (der[at] & 0x7f)
    if (arc > Number.MAX_SAFE_INTEGER / 128) malformed()
    if ((der[at] & 0x80) === 0) {
      arcs.push(arc)
      arc = 0
    }
  }
  if (arcs.length === 0 || (der[value.end - 1] & 0x80) !== 0) malformed()
  const first = arcs[0] < 80 ? Math.floor(arcs[0] / 40) : 2
  return [first, arcs[0] - first * 40, ...arcs.slice(1)].join('.')
}

/** The string types of a DirectoryString and its kin, by tag, as text. */
function textOf (der: Buffer, value: Tlv): string | undefined {
  const bytes = der.subarray(value.start, value.end)
  switch (value.tag) {
    case 0x0c: return bytes.toString('utf8') // UTF8String
    // Numeric, Printable, Teletex (read as Latin-1, as OpenSSL does), IA5, Visible
    case 0x12: case 0x13: case 0x14: case 0x16: case 0x1a: return bytes.toString('latin1')
    case 0x1e: return Buffer.from(bytes).swap16().toString('utf16le') // BMPString (UCS-2, big-endian)
    default: return undefined
  }
}

/**
 * An attribute value as compared: a string's text with its outer spaces let go, inner runs of spaces made one,
 * in compatibility form and lower case (RFC 4518's caseIgnoreMatch, closely enough for names); any other
 * value as the `#` hex of its whole encoding (RFC 4514 §2.4).
 */
function comparedValue (der: Buffer, value: Tlv, at: number): string {
  const text = textOf(der, value)
  return text === undefined ? '#' + der.toString('hex', at, value.end) : compared(text)
}

/** A Name (RFC 5280 §4.1.2.4) as attribute pairs, each RDN's sorted so that their order does not count. */
export function nameOf (der: Buffer, name: Tlv): Name {
  return childrenOf(der, expect(name, SEQUENCE)).map((rdn) => childrenOf(der, expect(rdn, SET)).map((pair) => {
    const [type, value] = childrenOf(der, expect(pair, SEQUENCE))
    if (value === undefined) malformed()
    return [oidOf(der, expect(type, OID)), comparedValue(der, value, type.end)] as const
  }).sort(byPair))
}

function byPair (a: NameAttribute, b: NameAttribute): number {
  return a[0] === b[0] ? (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) : a[0] < b[0] ? -1 : 1
}

/** The facts of a certificate's DER; undefined when it cannot be read. */
export function certificateFacts (der: Buffer): CertificateFacts | undefined {
  try {
    const certificate = expect(tlvAt(der, 0, der.length), SEQUENCE)
    const fields = childrenOf(der, expect(childrenOf(der, certificate)[0], SEQUENCE))
    // version [0] is there for v2 and v3; then serial, signature, issuer, validity, subject, subjectPublicKeyInfo.
    const at = fields[0]?.tag === 0xa0 ? 1 : 0
    const issuer = nameOf(der, fields[at + 2])
    const spki = childrenOf(der, expect(fields[at + 5], SEQUENCE))
    const key = expect(spki[1], BIT_STRING)
    let subjectKeyIdentifier: Buffer = createHash('sha1').update(der.subarray(key.start + 1, key.end)).digest()
    let keyUsage: number | undefined
    const extensions = fields.find((field) => field.tag === EXTENSIONS)
    const list = extensions === undefined ? [] : childrenOf(der, expect(childrenOf(der, extensions)[0], SEQUENCE))
    for (const extension of list) {
      const parts = childrenOf(der, expect(extension, SEQUENCE))
      const oid = oidOf(der, expect(parts[0], OID))
      const inner = expect(parts[parts[1]?.tag === BOOLEAN ? 2 : 1], OCTET_STRING)
      if (oid === OID_SUBJECT_KEY_IDENTIFIER) {
        const value = expect(tlvAt(der, inner.start, inner.end), OCTET_STRING)
        subjectKeyIdentifier = der.subarray(value.start, value.end)
      } else if (oid === OID_KEY_USAGE) {
        const bits = expect(tlvAt(der, inner.start, inner.end), BIT_STRING)
        const byte = (i: number): number => bits.start + i < bits.end ? der[bits.start + i] : 0
        keyUsage = byte(1) << 8 | byte(2)
      }
    }
    return { issuer, subjectKeyIdentifier: Buffer.from(subjectKeyIdentifier), keyUsage }
  } catch {
    return undefined
  }
}

/** The attribute types RFC 4514 §3 names, and those RFC 2253 writers (Java, .NET, OpenSSL) commonly use. */
const ATTRIBUTE_TYPES: Readonly<Record<string, string>> = {
  CN: '2.5.4.3',
  SN: '2.5.4.4',
  SURNAME: '2.5.4.4',
  SERIALNUMBER: '2.5.4.5',
  C: '2.5.4.6',
  L: '2.5.4.7',
  ST: '2.5.4.8',
  S: '2.5.4.8',
  STREET: '2.5.4.9',
  O: '2.5.4.10',
  OU: '2.5.4.11',
  T: '2.5.4.12',
  TITLE: '2.5.4.12',
  POSTALCODE: '2.5.4.17',
  G: '2.5.4.42',
  GN: '2.5.4.42',
  GIVENNAME: '2.5.4.42',
  INITIALS: '2.5.4.43',
  GENERATIONQUALIFIER: '2.5.4.44',
  DNQUALIFIER: '2.5.4.46',
  PSEUDONYM: '2.5.4.65',
  ORGANIZATIONIDENTIFIER: '2.5.4.97',
  UID: '0.9.2342.19200300.100.1.1',
  DC: '0.9.2342.19200300.100.1.25',
  E: '1.2.840.113549.1.9.1',
  EMAILADDRESS: '1.2.840.113549.1.9.1'
}

/** The longest distinguished name read, in characters. */
const MAX_NAME = 4096

/** A value's text as compared (see comparedValue). */
function compared (text: string): string {
  return text.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase()
}

/**
 * A distinguished name as RFC 4514 (or RFC 2253: ds:X509IssuerName) writes it, as the pairs nameOf gives for
 * the same name encoded; undefined when it is not one. Also read: `;` between RDNs, spaces around the
 * separators, quoted values and `OID.` before a numeric type (RFC 1779), as older writers send them.
 */
export function parseName (text: string): Name | undefined {
  if (text.length > MAX_NAME) return undefined
  const rdns: NameAttribute[][] = []
  let rdn: NameAttribute[] = []
  let i = 0
  const spaces = (): void => { while (text[i] === ' ') i++ }
  try {
    while (i < text.length) {
      const equals = text.indexOf('=', i)
      if (equals < 0) return undefined
      const type = text.slice(i, equals).trim().toUpperCase().replace(/^OID\./, '')
      const oid = /^\d+(\.\d+)+$/.test(type) ? type : ATTRIBUTE_TYPES[type]
      if (oid === undefined) return undefined
      i = equals + 1
      spaces()
      let value: string
      if (text[i] === '#') {
        const hex = /^#([0-9a-fA-F]{2})*/.exec(text.slice(i))![0]
        const der = Buffer.from(hex.slice(1), 'hex')
        const tlv = tlvAt(der, 0, der.length)
        if (tlv.end !== der.length) return undefined
        value = comparedValue(der, tlv, 0)
        i += hex.length
      } else {
        const quoted = text[i] === '"'
        if (quoted) i++
        const bytes: number[] = []
        for (; i < text.length; i++) {
          const c = String.fromCodePoint(text.codePointAt(i) as number)
          if (quoted ? c === '"' : c === ',' || c === '+' || c === ';') break
          if (c === '\\') {
            const pair = /^[0-9a-fA-F]{2}/.exec(text.slice(i + 1, i + 3))
            if (pair === null && i + 1 >= text.length) return undefined
            bytes.push(...(pair === null ? Buffer.from(text[i + 1]) : Buffer.from(pair[0], 'hex')))
            i += pair === null ? 1 : 2
          } else {
            bytes.push(...Buffer.from(c))
            i += c.length - 1
          }
        }
        if (quoted && text[i++] !== '"') return undefined
        value = compared(Buffer.from(bytes).toString('utf8'))
      }
      rdn.push([oid, value])
      spaces()
      if (i < text.length) {
        const separator = text[i++]
        if (i === text.length) return undefined
        if (separator !== '+') {
          if (separator !== ',' && separator !== ';') return undefined
          rdns.push(rdn.sort(byPair))
          rdn = []
        }
      }
    }
  } catch {
    return undefined
  }
  if (rdn.length > 0) rdns.push(rdn.sort(byPair))
  return rdns.reverse()
}
