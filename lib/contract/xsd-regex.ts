/**
 * XML Schema regular expressions (XML Schema Part 2 Appendix F) as
 * ECMAScript ones (with the `u` flag Ajv uses) of the same meaning, which
 * run in linear time (lib/codec/patterns.ts). XML Schema has no anchors
 * (a `^` or `$` outside a class is itself); its `.` is all but the line
 * ends; its multi-character escapes are its own (`\s` four characters, `\d`
 * Unicode's decimal digits, `\w` all but punctuation, separators and
 * others, `\i` and `\c` the name characters of XML 1.0's Appendix B, as
 * §F.1.1 says); a class may subtract another (`[a-z-[aeiou]]`), which
 * becomes the explicit ranges left. Block escapes (`\p{IsBasicLatin}`) are
 * refused.
 */
import { SOAP_ERR_CONTRACT_UNSUPPORTED } from '../errors'
import { linearRegExp } from '../codec/patterns'

type Ranges = Array<[number, number]>

const MAX = 0x10ffff

/** Ranges written `41-5a 5f` (hexadecimal code points), merged. */
function parseRanges (text: string): Ranges {
  return text.trim().split(/\s+/).map((r) => {
    const [from, to] = r.split('-').map((n) => parseInt(n, 16))
    return [from, to ?? from]
  })
}

// XML 1.0 (Second Edition) Appendix B: Letter | '_' | ':' (\i), and NameChar (\c).
const NAME_START = parseRanges(
  '3a 41-5a 5f 61-7a c0-d6 d8-f6 f8-131 134-13e 141-148 14a-17e 180-1c3 1cd-1f0 1f4-1f5 1fa-217 250-2a8 ' +
  '2bb-2c1 386 388-38a 38c 38e-3a1 3a3-3ce 3d0-3d6 3da 3dc 3de 3e0 3e2-3f3 401-40c 40e-44f 451-45c ' +
  '45e-481 490-4c4 4c7-4c8 4cb-4cc 4d0-4eb 4ee-4f5 4f8-4f9 531-556 559 561-586 5d0-5ea 5f0-5f2 621-63a ' +
  '641-64a 671-6b7 6ba-6be 6c0-6ce 6d0-6d3 6d5 6e5-6e6 905-939 93d 958-961 985-98c 98f-990 993-9a8 ' +
  '9aa-9b0 9b2 9b6-9b9 9dc-9dd 9df-9e1 9f0-9f1 a05-a0a a0f-a10 a13-a28 a2a-a30 a32-a33 a35-a36 a38-a39 ' +
  'a59-a5c a5e a72-a74 a85-a8b a8d a8f-a91 a93-aa8 aaa-ab0 ab2-ab3 ab5-ab9 abd ae0 b05-b0c b0f-b10 ' +
  'b13-b28 b2a-b30 b32-b33 b36-b39 b3d b5c-b5d b5f-b61 b85-b8a b8e-b90 b92-b95 b99-b9a b9c b9e-b9f ' +
  'ba3-ba4 ba8-baa bae-bb5 bb7-bb9 c05-c0c c0e-c10 c12-c28 c2a-c33 c35-c39 c60-c61 c85-c8c c8e-c90 ' +
  'c92-ca8 caa-cb3 cb5-cb9 cde ce0-ce1 d05-d0c d0e-d10 d12-d28 d2a-d39 d60-d61 e01-e2e e30 e32-e33 ' +
  'e40-e45 e81-e82 e84 e87-e88 e8a e8d e94-e97 e99-e9f ea1-ea3 ea5 ea7 eaa-eab ead-eae eb0 eb2-eb3 ebd ' +
  'ec0-ec4 f40-f47 f49-f69 10a0-10c5 10d0-10f6 1100 1102-1103 1105-1107 1109 110b-110c 110e-1112 113c ' +
  '113e 1140 114c 114e 1150 1154-1155 1159 115f-1161 1163 1165 1167 1169 116d-116e 1172-1173 1175 119e ' +
  '11a8 11ab 11ae-11af 11b7-11b8 11ba 11bc-11c2 11eb 11f0 11f9 1e00-1e9b 1ea0-1ef9 1f00-1f15 1f18-1f1d ' +
  '1f20-1f45 1f48-1f4d 1f50-1f57 1f59 1f5b 1f5d 1f5f-1f7d 1f80-1fb4 1fb6-1fbc 1fbe 1fc2-1fc4 1fc6-1fcc ' +
  '1fd0-1fd3 1fd6-1fdb 1fe0-1fec 1ff2-1ff4 1ff6-1ffc 2126 212a-212b 212e 2180-2182 3007 3021-3029 ' +
  '3041-3094 30a1-30fa 3105-312c 4e00-9fa5 ac00-d7a3 ')
const NAME_CHAR = parseRanges(
  '2d-2e 30-3a 41-5a 5f 61-7a b7 c0-d6 d8-f6 f8-131 134-13e 141-148 14a-17e 180-1c3 1cd-1f0 1f4-1f5 ' +
  '1fa-217 250-2a8 2bb-2c1 2d0-2d1 300-345 360-361 386-38a 38c 38e-3a1 3a3-3ce 3d0-3d6 3da 3dc 3de 3e0 ' +
  '3e2-3f3 401-40c 40e-44f 451-45c 45e-481 483-486 490-4c4 4c7-4c8 4cb-4cc 4d0-4eb 4ee-4f5 4f8-4f9 ' +
  '531-556 559 561-586 591-5a1 5a3-5b9 5bb-5bd 5bf 5c1-5c2 5c4 5d0-5ea 5f0-5f2 621-63a 640-652 660-669 ' +
  '670-6b7 6ba-6be 6c0-6ce 6d0-6d3 6d5-6e8 6ea-6ed 6f0-6f9 901-903 905-939 93c-94d 951-954 958-963 ' +
  '966-96f 981-983 985-98c 98f-990 993-9a8 9aa-9b0 9b2 9b6-9b9 9bc 9be-9c4 9c7-9c8 9cb-9cd 9d7 9dc-9dd ' +
  '9df-9e3 9e6-9f1 a02 a05-a0a a0f-a10 a13-a28 a2a-a30 a32-a33 a35-a36 a38-a39 a3c a3e-a42 a47-a48 ' +
  'a4b-a4d a59-a5c a5e a66-a74 a81-a83 a85-a8b a8d a8f-a91 a93-aa8 aaa-ab0 ab2-ab3 ab5-ab9 abc-ac5 ' +
  'ac7-ac9 acb-acd ae0 ae6-aef b01-b03 b05-b0c b0f-b10 b13-b28 b2a-b30 b32-b33 b36-b39 b3c-b43 b47-b48 ' +
  'b4b-b4d b56-b57 b5c-b5d b5f-b61 b66-b6f b82-b83 b85-b8a b8e-b90 b92-b95 b99-b9a b9c b9e-b9f ba3-ba4 ' +
  'ba8-baa bae-bb5 bb7-bb9 bbe-bc2 bc6-bc8 bca-bcd bd7 be7-bef c01-c03 c05-c0c c0e-c10 c12-c28 c2a-c33 ' +
  'c35-c39 c3e-c44 c46-c48 c4a-c4d c55-c56 c60-c61 c66-c6f c82-c83 c85-c8c c8e-c90 c92-ca8 caa-cb3 ' +
  'cb5-cb9 cbe-cc4 cc6-cc8 cca-ccd cd5-cd6 cde ce0-ce1 ce6-cef d02-d03 d05-d0c d0e-d10 d12-d28 d2a-d39 ' +
  'd3e-d43 d46-d48 d4a-d4d d57 d60-d61 d66-d6f e01-e2e e30-e3a e40-e4e e50-e59 e81-e82 e84 e87-e88 e8a ' +
  'e8d e94-e97 e99-e9f ea1-ea3 ea5 ea7 eaa-eab ead-eae eb0-eb9 ebb-ebd ec0-ec4 ec6 ec8-ecd ed0-ed9 ' +
  'f18-f19 f20-f29 f35 f37 f39 f3e-f47 f49-f69 f71-f84 f86-f8b f90-f95 f97 f99-fad fb1-fb7 fb9 ' +
  '10a0-10c5 10d0-10f6 1100 1102-1103 1105-1107 1109 110b-110c 110e-1112 113c 113e 1140 114c 114e 1150 ' +
  '1154-1155 1159 115f-1161 1163 1165 1167 1169 116d-116e 1172-1173 1175 119e 11a8 11ab 11ae-11af ' +
  '11b7-11b8 11ba 11bc-11c2 11eb 11f0 11f9 1e00-1e9b 1ea0-1ef9 1f00-1f15 1f18-1f1d 1f20-1f45 1f48-1f4d ' +
  '1f50-1f57 1f59 1f5b 1f5d 1f5f-1f7d 1f80-1fb4 1fb6-1fbc 1fbe 1fc2-1fc4 1fc6-1fcc 1fd0-1fd3 1fd6-1fdb ' +
  '1fe0-1fec 1ff2-1ff4 1ff6-1ffc 20d0-20dc 20e1 2126 212a-212b 212e 2180-2182 3005 3007 3021-302f ' +
  '3031-3035 3041-3094 3099-309a 309d-309e 30a1-30fa 30fc-30fe 3105-312c 4e00-9fa5 ac00-d7a3 ')
const SPACE: Ranges = [[0x9, 0xa], [0xd, 0xd], [0x20, 0x20]]

/** Sorted, overlapping and touching ranges joined. */
function normalise (ranges: Ranges): Ranges {
  const out: Ranges = []
  for (const [from, to] of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = out[out.length - 1]
    if (last !== undefined && from <= last[1] + 1) last[1] = Math.max(last[1], to)
    else out.push([from, to])
  }
  return out
}

function complement (ranges: Ranges): Ranges {
  const out: Ranges = []
  let next = 0
  for (const [from, to] of normalise(ranges)) {
    if (from > next) out.push([next, from - 1])
    next = to + 1
  }
  if (next <= MAX) out.push([next, MAX])
  return out
}

/** The code points of `a` not in `b`. */
function subtract (a: Ranges, b: Ranges): Ranges {
  return complement([...complement(a), ...b])
}

/**
 * A code point as ECMAScript (`u` flag) writes it in a class, or outside one:
 * printable ASCII as itself, its syntax characters escaped; any other as `\\u{...}`.
 */
function point (code: number, inClass = true): string {
  const c = String.fromCodePoint(code)
  if (code < 0x20 || code > 0x7e) return `\\u{${code.toString(16)}}`
  return (inClass ? '\\[]^-' : '\\^$.*+?()[]{}|/').includes(c) ? '\\' + c : c
}
const written = (ranges: Ranges): string =>
  ranges.map(([from, to]) => from === to ? point(from) : `${point(from)}-${point(to)}`).join('')
const codeOf = (c: string): number => c.codePointAt(0) as number

/** The code points an ECMAScript class body (of properties) holds, found by trying each one. */
function scanned (body: string): Ranges {
  const re = new RegExp(`[${body}]`, 'u')
  const out: Ranges = []
  for (let code = 0; code <= MAX; code++) {
    if (re.test(String.fromCodePoint(code))) out.push([code, code])
  }
  return normalise(out)
}

/** A class item: its ECMAScript form within a class, and its code points. */
interface Item {
  readonly text: string
  readonly ranges: () => Ranges
}

const explicit = (ranges: Ranges): Item => ({ text: written(ranges), ranges: () => ranges })
const property = (text: string): Item => ({ text, ranges: () => scanned(text) })

// The multi-character escapes (§F.1.1); `\w` is all but P, Z and C: the other general categories, L, M, N and S.
const MULTI: Readonly<Record<string, Item>> = {
  s: explicit(SPACE),
  S: explicit(complement(SPACE)),
  i: explicit(NAME_START),
  I: explicit(complement(NAME_START)),
  c: explicit(NAME_CHAR),
  C: explicit(complement(NAME_CHAR)),
  d: property('\\p{Nd}'),
  D: property('\\P{Nd}'),
  w: property('\\p{L}\\p{M}\\p{N}\\p{S}'),
  W: property('\\p{P}\\p{Z}\\p{C}')
}
const CONTROLS: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t' }

class Translation {
  private i = 0
  constructor (private readonly pattern: string) {}

  /** The whole pattern as ECMAScript. */
  regex (): string {
    let out = ''
    const { pattern } = this
    while (this.i < pattern.length) {
      const c = pattern[this.i]
      if (c === '[') {
        out += this.classExpr().text
      } else if (c === '\\') {
        const item = this.escape()
        // A single character is written as one, a set as a class of its own.
        out += typeof item === 'string' ? point(codeOf(item), false) : `[${item.text}]`
      } else {
        out += c === '.' ? '[^\\n\\r]' : c === '^' || c === '$' ? '\\' + c : c
        this.i++
      }
    }
    return out
  }

  /** The escape at the cursor: a character, or a set of them. */
  private escape (): string | Item {
    const next = this.pattern[this.i + 1]
    if (next === undefined) throw new Error('it ends in a lone \\')
    this.i += 2
    if (next === 'p' || next === 'P') {
      const end = this.pattern.indexOf('}', this.i)
      if (this.pattern[this.i] !== '{' || end < 0) throw new Error(`a \\${next} names no {category}`)
      const name = this.pattern.slice(this.i + 1, end)
      if (name.startsWith('Is')) throw new Error('Unicode block escapes are not supported')
      this.i = end + 1
      return property(`\\${next}{${name}}`)
    }
    // Other characters escaped are themselves: the single-character escapes, and (leniently) any other punctuation.
    return MULTI[next] ?? CONTROLS[next] ?? next
  }

  /** A character class at the cursor (`[`), its subtraction included. */
  private classExpr (): { text: string, ranges: () => Ranges } {
    const { pattern } = this
    this.i++
    const negated = pattern[this.i] === '^'
    if (negated) this.i++
    const items: Item[] = []
    let subtracted: { ranges: () => Ranges } | undefined
    while (this.i < pattern.length && pattern[this.i] !== ']') {
      if (pattern.startsWith('-[', this.i)) {
        this.i++
        subtracted = this.classExpr()
        break
      }
      const from = this.classChar()
      // A `-` makes a range between two characters, unless a subtraction or the class's end follows it.
      if (typeof from !== 'string' || pattern[this.i] !== '-' || ['[', ']'].includes(pattern[this.i + 1])) {
        items.push(typeof from === 'string' ? explicit([[codeOf(from), codeOf(from)]]) : from)
        continue
      }
      this.i++
      const to = this.classChar()
      if (typeof to !== 'string') throw new Error('a range ends in a multi-character escape')
      items.push(explicit([[codeOf(from), codeOf(to)]]))
    }
    if (pattern[this.i] !== ']') throw new Error('a class is not closed')
    this.i++
    const all = (): Ranges => normalise(items.flatMap((item) => item.ranges()))
    if (subtracted === undefined) {
      const text = `[${negated ? '^' : ''}${items.map((item) => item.text).join('')}]`
      return { text, ranges: () => negated ? complement(all()) : all() }
    }
    const sub = subtracted
    const ranges = subtract(negated ? complement(all()) : all(), sub.ranges())
    return { text: `[${written(ranges)}]`, ranges: () => ranges }
  }

  /** A character of a class, or a set (a multi-character escape). */
  private classChar (): string | Item {
    if (this.pattern[this.i] === '\\') return this.escape()
    const c = String.fromCodePoint(this.pattern.codePointAt(this.i) as number)
    this.i += c.length
    return c
  }
}

/** An XML Schema pattern as an ECMAScript one that runs in linear time; or SOAP_ERR_CONTRACT_UNSUPPORTED saying why. */
export function xsdRegex (pattern: string, where: string): string {
  try {
    const out = new Translation(pattern).regex()
    linearRegExp(out)
    return out
  } catch (err) {
    throw new SOAP_ERR_CONTRACT_UNSUPPORTED(`the pattern "${pattern}" (${(err as Error).message})`, where)
  }
}
