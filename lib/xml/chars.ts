/**
 * XML 1.0 (fifth edition) characters, names and white space: the one place
 * each of these rules is written (Char §2.2, Name §2.3, S §2.3), and the small
 * string helpers the reader is built from. Nothing here keeps any state.
 */

// Char (§2.2): anything else anywhere in the document is an error.
// The one definition of the characters XML 1.0 does not allow, but surrogates.
const DISALLOWED = '\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\uFFFE\\uFFFF'
const SURROGATES = '\\uD800-\\uDFFF'
// One search finds both disallowed characters and surrogates; a text with
// surrogates is then checked for lone halves natively (isWellFormed), and
// searched on for disallowed characters without them.
const INVALID_OR_SURROGATE = new RegExp(`[${DISALLOWED}${SURROGATES}]`)
const NEXT_INVALID_BMP = new RegExp(`[${DISALLOWED}]`, 'g')
// With the u flag a pair is one code point, so the class matches lone halves only.
const INVALID_CHAR = new RegExp(`[${DISALLOWED}${SURROGATES}]`, 'gu')

/** ES2024's String.prototype.isWellFormed (Node 20 has it): no surrogate half alone. */
interface WellFormed { isWellFormed: () => boolean }

/** Whether XML 1.0 can carry every character of the text. */
export function isXmlText (text: string): boolean {
  return disallowedAt(text) === -1
}

/**
 * Replaces characters XML 1.0 cannot carry by U+FFFD: for text that must never fail to serialise,
 * such as a fault's reason.
 */
export function replaceInvalidXmlChars (text: string): string {
  INVALID_CHAR.lastIndex = 0
  return INVALID_CHAR.test(text) ? text.replace(INVALID_CHAR, '\uFFFD') : text
}

/** Whether `source` holds a surrogate pair at `at`: a high half, then a low one. */
function isPairAt (source: string, at: number): boolean {
  const high = source.charCodeAt(at)
  const low = source.charCodeAt(at + 1)
  return high >= 0xd800 && high < 0xdc00 && low >= 0xdc00 && low <= 0xdfff
}

/**
 * Where the first character XML does not allow (Char, §2.2) is in `source`, or -1: a disallowed character or a
 * surrogate half alone. A text with surrogates is checked by native scans, none with the u flag (which reads a
 * code point at a time); it is read a character at a time only when it holds a half alone. `paired`: the text is
 * known to hold no half alone (decoded from valid UTF-8: lib/soap/charset.ts), and is searched for the others only.
 */
export function disallowedAt (source: string, paired = false): number {
  // Where to search on from for the disallowed characters but surrogates: a text with no half alone.
  let from = 0
  if (!paired) {
    const bad = INVALID_OR_SURROGATE.exec(source)
    if (bad === null) return -1
    from = bad.index
    if ((source.charCodeAt(from) & 0xf800) !== 0xd800) return from
    if (!(source as unknown as WellFormed).isWellFormed()) return disallowedFrom(source, from)
  }
  NEXT_INVALID_BMP.lastIndex = from
  const next = NEXT_INVALID_BMP.exec(source)
  return next === null ? -1 : next.index
}

/**
 * `disallowedAt` from `from` on, a character at a time: for a text with a surrogate half alone, which it finds
 * (-1 past the end is for completeness).
 */
function disallowedFrom (source: string, from: number): number {
  let i = from
  while (i < source.length && (isPairAt(source, i) || isChar(source.charCodeAt(i)))) i += isPairAt(source, i) ? 2 : 1
  return i < source.length ? i : -1
}

// Name (§2.3), colons included: namespace rules are checked after.
const NAME_START = ':A-Z_a-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF' +
  '\\u200C-\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}'
const NAME_CHAR = NAME_START + '\\-.0-9\\u00B7\\u0300-\\u036F\\u203F-\\u2040'
// eslint-disable-next-line no-misleading-character-class -- U+0300–U+036F are NameChars on their own (§2.3)
export const NAME = new RegExp(`[${NAME_START}][${NAME_CHAR}]*`, 'uy')
export const NCNAME_START = new RegExp(`^[${NAME_START.slice(1)}]`, 'u')
// eslint-disable-next-line no-misleading-character-class -- NameChar holds combining marks (U+0300-U+036F) by design
const NCNAME = new RegExp(`^[${NAME_START.slice(1)}][${NAME_CHAR.slice(1)}]*$`, 'u')

/** Whether a string is an XML NCName (Namespaces in XML 1.0 §3; XML 1.0 §2.3, fifth edition). */
export function isNCName (name: string): boolean {
  return NCNAME.test(name)
}

/** Whether a character code is an ASCII NameStartChar (§2.3). */
function isAsciiNameStart (code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code === 0x5f || code === 0x3a
}

/** Whether a character code is an ASCII NameChar (§2.3). */
function isAsciiNameChar (code: number): boolean {
  return isAsciiNameStart(code) || (code >= 0x30 && code <= 0x39) || code === 0x2d || code === 0x2e
}

/**
 * Where the name at `i` in `s` ends, when it is all ASCII (most are), scanned
 * by char code; -1 when it is not, for NAME to read.
 */
export function asciiNameEnd (s: string, i: number): number {
  if (!isAsciiNameStart(s.charCodeAt(i))) return -1
  let code = s.charCodeAt(++i)
  while (isAsciiNameChar(code)) code = s.charCodeAt(++i)
  return code < 0x80 || Number.isNaN(code) ? i : -1
}

/**
 * Whether the character after a name's characters ends the name: an ASCII
 * character that is no NameChar, or the text's end (NaN). False for any
 * other character, which may be a NameChar.
 */
export function endsAsciiName (code: number): boolean {
  return !(code >= 0x80 || isAsciiNameChar(code))
}

const NOT_SPACE = /[^ \t\r\n]/

const EDGE_SPACE = /^[ \t\r\n]+|[ \t\r\n]+$/g

/**
 * `value` without XML white space at either end: the edges of XML Schema's whiteSpace collapse
 * (space, tab, CR and LF only).
 */
export function trimXmlSpace (value: string): string {
  return value.replace(EDGE_SPACE, '')
}

/**
 * XML Schema's whiteSpace facet (Part 2 §4.3.6): how a value's white space is normalised before its
 * other facets apply.
 */
export type WhiteSpace = 'preserve' | 'replace' | 'collapse'

const TAB_LF_CR = /[\t\n\r]/
const TAB_LF_CR_ALL = /[\t\n\r]/g
// A value collapse changes: white space at an edge, a tab, LF or CR, or two spaces together.
const UNCOLLAPSED = /^[ \t\n\r]|[ \t\n\r]$|[\t\n\r]| {2}/
const SPACE_RUNS = /[ \t\n\r]+/g
const EDGE = /^ | $/g

/**
 * A value normalised as XML Schema's whiteSpace facet says (Part 2 §4.3.6):
 * `replace` makes each tab, LF and CR a space; `collapse` then makes each run
 * of spaces one, and removes those at either end. A value already normalised
 * (most) is returned as it is, after one test.
 */
export function normalizeSpace (value: string, rule: 'replace' | 'collapse'): string {
  if (rule === 'replace') return TAB_LF_CR.test(value) ? value.replace(TAB_LF_CR_ALL, ' ') : value
  return UNCOLLAPSED.test(value) ? value.replace(SPACE_RUNS, ' ').replace(EDGE, '') : value
}

/** Whether `text` is all XML white space (S, §2.3). */
export function isWhitespace (text: string): boolean {
  return !NOT_SPACE.test(text)
}

/** Whether a character code is XML white space (S, §2.3). */
export function isSpace (code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d
}

/** Character codes of markup, by name. */
export const MARKUP = { AMP: 0x26, EQUALS: 0x3d, GT: 0x3e, LT: 0x3c, QUOTE: 0x22, SLASH: 0x2f } as const

/** Whether a code point is a Char (§2.2). */
export function isChar (code: number): boolean {
  return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff)
}

/** Whether `s` holds `name` at `at`: a loop the compiler inlines, cheaper than `startsWith` for short names. */
export function holdsAt (s: string, at: number, name: string): boolean {
  for (let k = 0; k < name.length; k++) {
    if (s.charCodeAt(at + k) !== name.charCodeAt(k)) return false
  }
  return true
}

/** A name's character codes, compared with the text in place. */
export function codesOf (name: string): number[] {
  const codes: number[] = []
  for (let k = 0; k < name.length; k++) codes.push(name.charCodeAt(k))
  return codes
}

/** Whether `s` holds the characters `codes` at `at`. */
export function holdsCodesAt (s: string, at: number, codes: readonly number[]): boolean {
  for (let k = 0; k < codes.length; k++) {
    if (s.charCodeAt(at + k) !== codes[k]) return false
  }
  return true
}

/**
 * The string V8 keeps as a property key with these characters: one per
 * distinct text, so that equal ones are the same string, compared and hashed
 * at the cost of a pointer (string literals are such keys too). A copy: V8
 * keeps a slice of 13 characters or more as a view of its parent, and a
 * string kept from one message to the next must not keep that message alive.
 * For what is kept from one document to the next only.
 */
export function interned (s: string): string {
  return Object.keys({ [s]: 0 })[0]
}

/**
 * How long a string built by many concatenations grows before it is made
 * one string (`flattened`): about a page of text.
 */
export const FLAT_RUN = 16384

/**
 * `s` made one string in memory, if it was many. V8 keeps `a + b` as a pair
 * pointing at both; a long text built piece by piece (a reply's records, a
 * text with many references) is then a tree of as many pairs as pieces, all
 * alive until the text is used, which the garbage collector copies again and
 * again as the text grows. Made one string every FLAT_RUN characters, the
 * pairs die young: a 1 MB reply of 10,000 records is written a third faster.
 * Reading a character makes a string one (V8's String::Flatten).
 */
export function flattened (s: string): string {
  s.charCodeAt(0)
  return s
}

/**
 * The character of `amp;`, `lt;`, `gt;`, `quot;` or `apos;` at `i` of `s` (after a '&'), read in place;
 * undefined for any other reference.
 */
export function predefinedAt (s: string, i: number): string | undefined {
  switch (s.charCodeAt(i)) {
    case 0x61: // a
      if (holdsAt(s, i, 'amp;')) return '&'
      if (holdsAt(s, i, 'apos;')) return "'"
      return undefined
    case 0x6c: // l
      return holdsAt(s, i, 'lt;') ? '<' : undefined
    case 0x67: // g
      return holdsAt(s, i, 'gt;') ? '>' : undefined
    case 0x71: // q
      return holdsAt(s, i, 'quot;') ? '"' : undefined
    default:
      return undefined
  }
}

/** The length of the reference to a predefined entity: `&amp;` 5, `&lt;` and `&gt;` 4, `&quot;` and `&apos;` 6. */
export function referenceLength (predefined: string): number {
  return predefined === '&' ? 5 : predefined === '<' || predefined === '>' ? 4 : 6
}

/** Whether an attribute declares a namespace (`xmlns`, or `xmlns:` and a prefix): Namespaces in XML §3. */
export function declaresNamespace (attribute: { readonly prefix: string, readonly name: string }): boolean {
  return attribute.prefix === 'xmlns' || attribute.name === 'xmlns'
}

/**
 * Where a string next occurs in a document, at or after the last place looked
 * for: positions only move forward, so each part of the document is searched
 * once, however many text runs ask.
 */
export class NextOf {
  #at = -1

  constructor (readonly needle: string) {}

  reset (): void {
    this.#at = -1
  }

  /** The first occurrence in `s` at or after `i`, or `s.length`. */
  from (s: string, i: number): number {
    if (this.#at < i) {
      const at = s.indexOf(this.needle, i)
      this.#at = at === -1 ? s.length : at
    }
    return this.#at
  }
}
