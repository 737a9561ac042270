/**
 * Stage 2a: bytes to characters. UTF-8 or UTF-16 only (BP R1012), a BOM
 * detected and stripped (BP R4001), invalid bytes rejected, never replaced
 * by U+FFFD (docs/protocol.md "Decoding").
 */
import { isAscii, isUtf8, transcode } from 'node:buffer'
import { TextDecoder } from 'node:util'
import type { Charset } from './content-type'
import { SOAP_ERR_DECODE_CHARSET, SOAP_ERR_DECODE_EMPTY } from '../errors'

export type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be'

export interface DecodedText {
  readonly text: string
  readonly encoding: Encoding
  /**
   * Whether the text is known to hold no surrogate half alone: UTF-8 that isUtf8 accepts encodes none (RFC 3629
   * §3), so its text needs no search for one.
   */
  readonly paired: boolean
}

const utf16le = new TextDecoder('utf-16le', { fatal: true, ignoreBOM: true })
const utf16be = new TextDecoder('utf-16be', { fatal: true, ignoreBOM: true })

function bomOf (bytes: Uint8Array): Encoding | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8'
  if (bytes.length >= 2) {
    if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le'
    if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be'
  }
  return undefined
}

/** Without a BOM, `<` as UTF-16 tells the byte order (XML 1.0 Appendix F.1). */
function sniffUtf16 (bytes: Uint8Array): Encoding | undefined {
  if (bytes.length >= 2) {
    if (bytes[0] === 0x3c && bytes[1] === 0x00) return 'utf-16le'
    if (bytes[0] === 0x00 && bytes[1] === 0x3c) return 'utf-16be'
  }
  return undefined
}

function agrees (declared: Charset | undefined, found: Encoding): boolean {
  if (declared === undefined || declared === found) return true
  return declared === 'utf-16' && found !== 'utf-8'
}

export function decodeText (bytes: Buffer, declared: Charset | undefined): DecodedText {
  if (bytes.length === 0) throw new SOAP_ERR_DECODE_EMPTY()
  const bom = bomOf(bytes)
  let encoding: Encoding
  if (bom !== undefined) {
    if (!agrees(declared, bom)) throw new SOAP_ERR_DECODE_CHARSET(`${declared}: the byte order mark says ${bom}`)
    encoding = bom
  } else if (declared === 'utf-16le' || declared === 'utf-16be') {
    encoding = declared
  } else if (declared === 'utf-16') {
    encoding = sniffUtf16(bytes) ?? 'utf-16be' // RFC 2781 §4.3: big-endian without a BOM
  } else if (declared === undefined) {
    encoding = sniffUtf16(bytes) ?? 'utf-8'
  } else {
    encoding = 'utf-8'
  }
  const body = bom === undefined ? bytes : bytes.subarray(encoding === 'utf-8' ? 3 : 2)
  let text: string
  if (encoding === 'utf-8') {
    if (!isUtf8(body)) throw new SOAP_ERR_DECODE_CHARSET('UTF-8')
    // Valid by now; ICU's UTF-16 conversion of non-ASCII text is faster than V8's UTF-8 decoder.
    text = isAscii(body) ? body.toString('latin1') : transcode(body, 'utf8', 'ucs2').toString('ucs2')
  } else {
    try {
      text = (encoding === 'utf-16le' ? utf16le : utf16be).decode(body)
    } catch {
      throw new SOAP_ERR_DECODE_CHARSET(encoding === 'utf-16le' ? 'UTF-16LE' : 'UTF-16BE')
    }
  }
  if (text.length === 0) throw new SOAP_ERR_DECODE_EMPTY()
  return { text, encoding, paired: encoding === 'utf-8' }
}
