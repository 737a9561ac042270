/**
 * Stage 6c's scalars: a value's text as the compiled writer (write-compiled.ts)
 * writes it, either as a string or into a WriteBuffer: one kept buffer of
 * Latin-1 characters, into which an element that holds an array is written.
 *
 * Why a buffer: an array's items written as strings are pairs of strings
 * (V8 keeps `a + b` as a pair until the text is made one string), about a
 * dozen for a small record, plus the text of its numbers and escaped
 * strings. For a reply of 10,000 records that was 8 MB of short strings,
 * some of which a scavenge copies while the request's own objects are in
 * use (docs/benchmarks.md "Where the time goes", an array's items as bytes).
 * Written as bytes, the items make no string until FLAT_RUN characters are
 * made one (Buffer#toString('latin1'), one copy in C++): a third of the
 * garbage. A character past U+00FF, which Latin-1 cannot hold, ends the
 * bytes: it and the rest of its string are appended as text, as are strings
 * and literals over BYTES_UP_TO characters.
 */
import { disallowedAt } from '../xml/chars'
import { escapeAttribute, escapeXml } from '../xml/escape'
import { recordPieces } from '../xml/pieces'

// Anything a string may need looked at: escaping, a forbidden character, or a surrogate (paired or not).
// Most strings hold none, and are written as they are after this one scan.
// eslint-disable-next-line no-control-regex -- matching those characters is the point
export const SPECIAL = /[&<>"\t\n\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/

/** What the generated code throws when it does not write a value: the interpreter writes it instead. */
const NOT_WRITTEN = new Error('not written by the compiled writer')

export function notWritten (): never {
  throw NOT_WRITTEN
}

/** Strings up to this long that need looking at are escaped in one pass over their characters (escapeShort()). */
const SHORT = 32

/**
 * A short string's text (`attribute`: as an attribute value), escaped as escape.ts escapes it; not written when it
 * holds a character XML 1.0 cannot carry (a C0 control but tab, LF and CR, U+FFFE, U+FFFF, a surrogate alone).
 */
function escapeShort (value: string, attribute: boolean): string {
  let out = ''
  let last = 0
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i)
    // Past '>' and below the surrogates: nothing to look at.
    if (c > 0x3E && c < 0xD800) continue
    let entity: string
    if (c === 0x26) entity = '&amp;'
    else if (c === 0x3C) entity = '&lt;'
    else if (c === 0x3E) entity = '&gt;'
    else if (c === 0x0D) entity = '&#xD;'
    else if (c === 0x22) {
      if (!attribute) continue
      entity = '&quot;'
    } else if (c === 0x09 || c === 0x0A) {
      if (!attribute) continue
      entity = c === 0x09 ? '&#x9;' : '&#xA;'
    } else if (c < 0x20) {
      return notWritten()
    } else if (c < 0xD800 || (c >= 0xE000 && c < 0xFFFE)) {
      continue
    } else {
      const low = value.charCodeAt(i + 1)
      if (c >= 0xDC00 || !(low >= 0xDC00 && low <= 0xDFFF)) return notWritten()
      i++
      continue
    }
    out += value.slice(last, i) + entity
    last = i + 1
  }
  return last === 0 ? value : out + value.slice(last)
}

/**
 * A string that needs escaping (`attribute`: as an attribute value), or holds a character XML 1.0 cannot carry:
 * escaped, or not written.
 */
export function escaped (value: string, attribute: boolean): string {
  if (value.length <= SHORT) return escapeShort(value, attribute)
  if (disallowedAt(value) !== -1) notWritten()
  return attribute ? escapeAttribute(value) : escapeXml(value)
}

/** A string's text (`attribute`: as an attribute value), or not written. */
function textOf (value: string, attribute: boolean): string {
  return SPECIAL.test(value) ? escaped(value, attribute) : value
}

/** Whether a number is one of at most two decimals under 10^13, written from its hundredths (see decimal()). */
function hundredthsOf (value: number): number | undefined {
  const hundredths = Math.round(value * 100)
  return hundredths / 100 !== value || hundredths >= 1e15 || hundredths <= -1e15 ? undefined : hundredths
}

/**
 * A finite number's text, as String() writes it. One of at most two decimals under 10^13 (a price, a quantity) is
 * written from its integer number of hundredths: the double nearest a decimal of 15 digits or fewer is nearest no
 * other such decimal, so that decimal is the shortest that reads back as the number, the one String() writes.
 * Any other is written by String().
 */
export function decimal (value: number): string {
  if (Number.isInteger(value)) return value === 0 && 1 / value < 0 ? '-0' : '' + value
  const hundredths = hundredthsOf(value)
  if (hundredths === undefined) return '' + value
  const size = hundredths < 0 ? -hundredths : hundredths
  const whole = Math.floor(size / 100)
  const rest = size - whole * 100
  const fraction = rest % 10 === 0 ? '.' + String(rest / 10) : rest < 10 ? '.0' + String(rest) : '.' + String(rest)
  return (hundredths < 0 ? '-' : '') + String(whole) + fraction
}

/** The buffer's size: FLAT_RUN characters of items, and room for the longest write past them. */
const SIZE = 65536

/** Strings and literals up to this many characters are written as bytes; longer ones are appended as text. */
export const BYTES_UP_TO = 1024

/** The most bytes a character of a string takes once escaped (`&quot;`). */
const WIDEST = 6

/** The bytes of a literal of Latin-1 characters no longer than BYTES_UP_TO; the literal itself otherwise. */
export function latin1 (literal: string): Uint8Array | string {
  if (literal.length > BYTES_UP_TO || /[\u0100-\uFFFF]/.test(literal)) return literal
  return Uint8Array.from(literal, (c) => c.charCodeAt(0))
}

const TRUE = latin1('true') as Uint8Array
const FALSE = latin1('false') as Uint8Array

/**
 * Text written as Latin-1 bytes, made a string every FLAT_RUN characters (chars.ts; at an item's end: flush()) and
 * when text is appended. The generated code writes an element that holds an array into it, then takes the text
 * (done()).
 */
export class WriteBuffer {
  private readonly bytes = Buffer.allocUnsafeSlow(SIZE)
  /** Bytes written since the last flush. */
  length = 0
  /** Whether it is being written: a write within a write (a getter's) takes a buffer of its own. */
  busy = false
  /** What was written before the bytes, as text, and the flat pieces it is joined from. */
  private text = ''
  private pieces: string[] = []

  /** How many characters have been written in all. */
  get written (): number {
    return this.text.length + this.length
  }

  /** Room for `n` more bytes: the bytes made text when they do not fit. */
  private room (n: number): void {
    if (this.length + n > SIZE) this.flush()
  }

  /** The bytes written so far made text, and the buffer empty. */
  flush (): void {
    if (this.length === 0) return
    const piece = this.bytes.toString('latin1', 0, this.length)
    this.text += piece
    this.pieces.push(piece)
    this.length = 0
  }

  /** Text written as it is, after the bytes. */
  append (text: string): void {
    if (text === '') return
    this.flush()
    this.text += text
    this.pieces.push(text)
  }

  /** A literal: bytes from latin1(), or text. */
  literal (literal: Uint8Array | string): void {
    if (typeof literal === 'string') this.append(literal)
    else this.put(literal)
  }

  /** Bytes of latin1(). */
  put (bytes: Uint8Array): void {
    const n = bytes.length
    this.room(n)
    const out = this.bytes
    let p = this.length
    for (let i = 0; i < n; i++) out[p++] = bytes[i]
    this.length = p
  }

  /** One byte: '>' or '"'. */
  byte (c: number): void {
    this.room(1)
    this.bytes[this.length++] = c
  }

  /** An element with nothing written after its start tag's '>' (the last byte): the '>' made '/>'. */
  closeEmpty (): void {
    this.room(1)
    this.bytes[this.length - 1] = 0x2F
    this.bytes[this.length++] = 0x3E
  }

  /** A boolean's text. */
  boolean (value: boolean): void {
    this.put(value ? TRUE : FALSE)
  }

  /**
   * A string's text (`attribute`: as an attribute value), escaped as escapeShort() escapes it; not written when it
   * holds a character XML 1.0 cannot carry. From a character past U+00FF, the rest is appended as text.
   */
  string (value: string, attribute: boolean): void {
    const n = value.length
    if (n > BYTES_UP_TO) {
      this.append(textOf(value, attribute))
      return
    }
    this.room(WIDEST * n)
    const out = this.bytes
    let p = this.length
    for (let i = 0; i < n; i++) {
      const c = value.charCodeAt(i)
      if (c > 0x3E && c < 0x100) {
        out[p++] = c
      } else if (c >= 0x100) {
        this.length = p
        this.append(textOf(value.slice(i), attribute))
        return
      } else if (c === 0x26) {
        out[p] = 0x26; out[p + 1] = 0x61; out[p + 2] = 0x6D; out[p + 3] = 0x70; out[p + 4] = 0x3B; p += 5
      } else if (c === 0x3C || c === 0x3E) {
        out[p] = 0x26; out[p + 1] = c === 0x3C ? 0x6C : 0x67; out[p + 2] = 0x74; out[p + 3] = 0x3B; p += 4
      } else if (c === 0x22 && attribute) {
        out[p] = 0x26; out[p + 1] = 0x71; out[p + 2] = 0x75; out[p + 3] = 0x6F; out[p + 4] = 0x74; out[p + 5] = 0x3B
        p += 6
      } else if (c >= 0x20 || ((c === 0x09 || c === 0x0A) && !attribute)) {
        out[p++] = c
      } else if (c === 0x09 || c === 0x0A || c === 0x0D) {
        // &#x9; &#xA; &#xD;
        out[p] = 0x26; out[p + 1] = 0x23; out[p + 2] = 0x78; out[p + 3] = c === 0x09 ? 0x39 : c === 0x0A ? 0x41 : 0x44
        out[p + 4] = 0x3B; p += 5
      } else {
        this.length = p
        notWritten()
      }
    }
    this.length = p
  }

  /** A safe integer's text, as String() writes it. */
  integer (value: number): void {
    this.room(17)
    if (value < 0) {
      this.bytes[this.length++] = 0x2D
      value = -value
    }
    this.digits(value)
  }

  /** A finite number's text, as decimal() writes it. */
  number (value: number): void {
    if (Number.isSafeInteger(value) && !(value === 0 && 1 / value < 0)) {
      this.integer(value)
      return
    }
    const hundredths = Number.isInteger(value) ? undefined : hundredthsOf(value)
    if (hundredths === undefined) {
      this.ascii(decimal(value))
      return
    }
    this.room(18)
    const size = hundredths < 0 ? -hundredths : hundredths
    const whole = Math.floor(size / 100)
    const rest = size - whole * 100
    const tens = Math.floor(rest / 10)
    if (hundredths < 0) this.bytes[this.length++] = 0x2D
    this.digits(whole)
    const out = this.bytes
    out[this.length++] = 0x2E
    out[this.length++] = 0x30 + tens
    if (rest !== tens * 10) out[this.length++] = 0x30 + (rest - tens * 10)
  }

  /** The digits of a safe integer not below zero (room made). */
  private digits (value: number): void {
    let count = 1
    for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) count++
    const out = this.bytes
    let p = this.length + count
    this.length = p
    let rest = value
    while (rest >= 10) {
      const next = Math.floor(rest / 10)
      out[--p] = 0x30 + (rest - next * 10)
      rest = next
    }
    out[p - 1] = 0x30 + rest
  }

  /** A text of ASCII characters (a number's). */
  private ascii (text: string): void {
    const n = text.length
    this.room(n)
    const out = this.bytes
    let p = this.length
    for (let i = 0; i < n; i++) out[p++] = text.charCodeAt(i)
    this.length = p
  }

  /** The text written, and the buffer free. A text of several pieces is recorded with them (xml/pieces.ts). */
  done (): string {
    this.flush()
    const text = this.text
    if (this.pieces.length > 1) recordPieces(text, this.pieces)
    this.drop()
    return text
  }

  /** What was written dropped, and the buffer free. */
  drop (): void {
    this.text = ''
    if (this.pieces.length !== 0) this.pieces = []
    this.length = 0
    this.busy = false
  }
}

const shared = new WriteBuffer()

/** A free buffer: the one kept, or one of its own for a write within a write. */
export function writeBuffer (): WriteBuffer {
  const buffer = shared.busy ? new WriteBuffer() : shared
  buffer.busy = true
  return buffer
}
