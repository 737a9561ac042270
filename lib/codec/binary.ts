/**
 * The lexical forms of the binary types (XML Schema Part 2 §3.2.16
 * xs:base64Binary, §3.2.15 xs:hexBinary): a text checked in linear time
 * and decoded to its bytes, or what is wrong with it. The codec reads a
 * binary value through readBinary() (read.ts), the one place that calls it.
 */
import { isSpace } from '../xml/chars'
import type { BinaryEncoding } from './shape-types'

/** The bytes a binary text encodes, or, when it is not of its type, what is wrong with it (a reason to quote). */
export function bytesOf (encoding: BinaryEncoding, text: string): Buffer | string {
  return encoding === 'base64' ? readBase64(text) : readHex(text)
}

function base64Problem (why: string): string {
  return `not xs:base64Binary: ${why}`
}

function hexProblem (why: string): string {
  return `not xs:hexBinary: ${why}`
}

/** Each base64 character's value plus one, by its code; 0 for the others (RFC 4648 §4). */
const BASE64_VALUES = new Uint8Array(128)
for (const [i, c] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].entries()) {
  BASE64_VALUES[c.charCodeAt(0)] = i + 1
}

/** Hex with no white space around it. */
const COMPACT_HEX = /^[0-9A-Fa-f]*$/

/**
 * xs:base64Binary (XML Schema Part 2 §3.2.16): base64 (RFC 2045), white
 * space anywhere (its whiteSpace is collapse, and its lexical space allows
 * a space between any two characters), a length that is a multiple of 4
 * once white space is left aside, at most two `=` at its end, after a
 * character whose bits the padding leaves unused are zero.
 */
function readBase64 (text: string): Buffer | string {
  const length = text.length
  // Base64 on one line, as most clients send it: valid exactly when its bytes, encoded again, are the same text (the
  // encoder writes the alphabet, the padding and the unused bits as the rules ask). Native, and much faster than a
  // scan or a regular expression; any other text is scanned, to say what is wrong or to pass its white space over.
  if (length % 4 === 0 && text.indexOf('\n') === -1) {
    const bytes = Buffer.from(text, 'base64')
    if (bytes.toString('base64') === text) return bytes
  }
  let count = 0
  let padding = 0
  let last = 0
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i)
    if (code <= 0x20 && isSpace(code)) continue
    count++
    if (code === 0x3d) {
      padding++
      continue
    }
    const value = code < 128 ? BASE64_VALUES[code] : 0
    if (value === 0) return base64Problem(`character ${i + 1} is not one of base64's`)
    if (padding !== 0) return base64Problem('"=" pads its end only')
    last = value - 1
  }
  if (padding > 2) return base64Problem('"=" pads its end only, at most twice')
  return decodeBase64(text, count, padding, last)
}

/** Base64 text of `count` characters besides white space, `padding` of them `=`, after a character of value `last`. */
function decodeBase64 (text: string, count: number, padding: number, last: number): Buffer | string {
  if (count % 4 !== 0) {
    return base64Problem(`its ${count} characters (white space aside) are not a multiple of 4`)
  }
  if ((padding === 2 && (last & 0x0f) !== 0) || (padding === 1 && (last & 0x03) !== 0)) {
    return base64Problem('its last character before "=" has bits set that the padding leaves unused')
  }
  return Buffer.from(text, 'base64')
}

/**
 * xs:hexBinary (XML Schema Part 2 §3.2.15): an even number of hexadecimal
 * digits, either case; white space around them only (collapse).
 */
function readHex (text: string): Buffer | string {
  let from = 0
  let to = text.length
  if (!COMPACT_HEX.test(text)) {
    while (from < to && isSpace(text.charCodeAt(from))) from++
    while (to > from && isSpace(text.charCodeAt(to - 1))) to--
    for (let i = from; i < to; i++) {
      const code = text.charCodeAt(i)
      if (!((code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66))) {
        return hexProblem(`character ${i + 1} is not a hexadecimal digit`)
      }
    }
  }
  if ((to - from) % 2 !== 0) return hexProblem(`it has an odd number of digits (${to - from})`)
  return Buffer.from(from === 0 && to === text.length ? text : text.slice(from, to), 'hex')
}
