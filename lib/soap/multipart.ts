/**
 * Stage 1b: a `multipart/related` body (RFC 2046 §5.1.1, RFC 2387) cut into
 * its parts (docs/protocol.md "MTOM/XOP"). The body is the one Buffer Fastify
 * collected under `bodyLimit`; each part's content is a view of it, never a
 * copy, never a string. One scan from start to end with `Buffer.indexOf`; the
 * part headers are read as latin1 within a bounded header block only.
 */
import {
  SOAP_ERR_MTOM_BOUNDARY,
  SOAP_ERR_MTOM_CONTENT_ID,
  SOAP_ERR_MTOM_ENCODING,
  SOAP_ERR_MTOM_FRAMING,
  SOAP_ERR_MTOM_LIMIT
} from '../errors'

/** The bounds of a multipart body (docs/protocol.md "MTOM/XOP"): exceeding one makes the request undecodable. */
export interface SoapMultipartLimits {
  /** Parts in one message, the root included (CXF's default: 50). */
  maxParts: number
  /** Header fields in one part. */
  maxPartHeaders: number
  /** Bytes of one part's header block, its closing empty line aside. */
  maxPartHeaderBytes: number
}

/** One body part: the header fields this reader knows, and its content, a view of the body. */
export interface MimePart {
  /** The `Content-Type` field, as sent; undefined when absent (RFC 2046 §5.1: then text/plain). */
  readonly contentType: string | undefined
  /** The `Content-ID` without its angle brackets (RFC 2392), undefined when absent. */
  readonly contentId: string | undefined
  readonly content: Buffer
}

const CR = 0x0d
const LF = 0x0a
const DASH = 0x2d

/** bcharsnospace of RFC 2046 §5.1.1; a space is a bchar too, but never the last. */
const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/

/** The boundary parameter, checked: 1 to 70 bchars, not ending with a space (RFC 2046 §5.1.1). */
export function boundaryOf (value: string | undefined): string {
  if (value === undefined) throw new SOAP_ERR_MTOM_BOUNDARY('is missing')
  if (!BOUNDARY.test(value)) throw new SOAP_ERR_MTOM_BOUNDARY('is not 1 to 70 of the characters RFC 2046 allows')
  return value
}

/** Content transfer encodings that leave the bytes as they are (RFC 2045 §6.2); base64 and the rest are refused. */
const IDENTITY_ENCODINGS: ReadonlySet<string> = new Set(['binary', '8bit', '7bit'])

const FIELD_NAME = /^[!-9;-~]+$/
/** An RFC 2392 content-id between angle brackets: printable ASCII, none of them brackets. */
const CONTENT_ID = /^<([!-;=?-~]+)>$/

function isPadding (byte: number): boolean {
  return byte === 0x20 || byte === 0x09
}

/** Where the part after a delimiter's boundary starts, or -1 after the close delimiter; -2: neither. */
function afterDelimiter (body: Buffer, at: number): number {
  const length = body.length
  const close = body[at] === DASH && body[at + 1] === DASH
  let i = close ? at + 2 : at
  while (i < length && isPadding(body[i])) i++
  if (close) return -1
  return body[i] === CR && body[i + 1] === LF ? i + 2 : -2
}

/**
 * A part's header fields, from its header block (without the empty line that
 * ends it), as latin1; folded lines are joined (RFC 5322 §2.2.3).
 */
function readHeaders (block: string, limits: SoapMultipartLimits): Map<string, string> {
  const fields = new Map<string, string>()
  let count = 0
  let name = ''
  for (const line of block.split('\r\n')) {
    if (line.length !== 0 && isPadding(line.charCodeAt(0)) && name !== '') {
      fields.set(name, (fields.get(name) as string) + line)
      continue
    }
    if (++count > limits.maxPartHeaders) throw new SOAP_ERR_MTOM_LIMIT('maxPartHeaders', limits.maxPartHeaders)
    const colon = line.indexOf(':')
    name = colon <= 0 ? '' : line.slice(0, colon).trimEnd().toLowerCase()
    if (!FIELD_NAME.test(name)) throw new SOAP_ERR_MTOM_FRAMING('a part header line is not a field')
    if (fields.has(name)) {
      if (name === 'content-type' || name === 'content-id' || name === 'content-transfer-encoding') {
        throw new SOAP_ERR_MTOM_FRAMING(`a part has two ${name} fields`)
      }
      name = ''
      continue
    }
    fields.set(name, line.slice(colon + 1))
  }
  return fields
}

function partOf (fields: Map<string, string>, content: Buffer): MimePart {
  const encoding = fields.get('content-transfer-encoding')?.trim().toLowerCase()
  if (encoding !== undefined && !IDENTITY_ENCODINGS.has(encoding)) throw new SOAP_ERR_MTOM_ENCODING(encoding)
  const id = fields.get('content-id')
  let contentId: string | undefined
  if (id !== undefined) {
    const match = CONTENT_ID.exec(id.trim())
    if (match === null) throw new SOAP_ERR_MTOM_CONTENT_ID(JSON.stringify(id.trim()), 'is not <id>')
    contentId = match[1]
  }
  const type = fields.get('content-type')
  return { contentType: type?.trim(), contentId, content }
}

/**
 * Where the header block starting at `start` ends (before its empty line), looked for within `maxPartHeaderBytes`:
 * -1 when it does not end there; `cut` when the body goes on past that window.
 */
function headerBlockEnd (body: Buffer, start: number, limits: SoapMultipartLimits): { end: number, cut: boolean } {
  const window = Math.min(body.length, start + limits.maxPartHeaderBytes + 4)
  return { end: body.subarray(0, window).indexOf('\r\n\r\n', start, 'latin1'), cut: window < body.length }
}

/** A header block's first line is a field: a name, then a colon. */
const FIELD_LINE = /^[!-9;-~]+[ \t]*:/

/**
 * The Content-Type of a MIME header written at the start of the body, and
 * where the body after it starts: Mono's WCF sends `multipart/related` with
 * no boundary and writes the message's own header (MIME-Version, the
 * Content-Type with the boundary), then an empty line, before the first
 * delimiter (docs/protocol.md "Be liberal"). The header block is read as a
 * part's is, within `maxPartHeaderBytes`; undefined when the body does not
 * start with a field (a body starting with `--` starts with a delimiter),
 * or has no Content-Type there.
 */
export function embeddedHeader (
  body: Buffer, limits: SoapMultipartLimits
): { type: string, offset: number } | undefined {
  const { end } = headerBlockEnd(body, 0, limits)
  if (end === -1) return undefined
  const block = body.toString('latin1', 0, end)
  // A body that starts with `--` starts with a delimiter.
  if (block.startsWith('--') || !FIELD_LINE.test(block)) return undefined
  const type = readHeaders(block, limits).get('content-type')
  return type === undefined ? undefined : { type, offset: end + 4 }
}

/**
 * The parts of a multipart body (RFC 2046 §5.1.1): after an optional
 * preamble, `--boundary` at the start or CRLF `--boundary`, transport padding
 * and CRLF before each part, the close delimiter `--boundary--` after the
 * last; what follows it (the epilogue) is passed over. A delimiter followed by
 * anything else, a body without the close delimiter, a part without the empty
 * line after its header fields, and every limit exceeded are refused.
 */
export function readMultipart (body: Buffer, boundary: string, limits: SoapMultipartLimits): MimePart[] {
  const delimiter = Buffer.from('\r\n--' + boundary, 'latin1')
  // The first delimiter may start the body, with no CRLF before it (dash-boundary); else a preamble comes first.
  const dashBoundary = delimiter.subarray(2)
  // At the start, `at` is where the CRLF would have stood.
  let at = body.subarray(0, dashBoundary.length).equals(dashBoundary) ? -2 : body.indexOf(delimiter)
  if (at === -1) throw new SOAP_ERR_MTOM_FRAMING('no delimiter line')
  let start = afterDelimiter(body, at + delimiter.length)
  const parts: MimePart[] = []
  const ids = new Set<string>()
  while (start >= 0) {
    if (parts.length === limits.maxParts) throw new SOAP_ERR_MTOM_LIMIT('maxParts', limits.maxParts)
    // The header block ends at an empty line; a part with no fields starts with it.
    let separator = start
    let fields = new Map<string, string>()
    if (body[start] !== CR || body[start + 1] !== LF) {
      const { end, cut } = headerBlockEnd(body, start, limits)
      if (end === -1) {
        if (cut) throw new SOAP_ERR_MTOM_LIMIT('maxPartHeaderBytes', limits.maxPartHeaderBytes)
        throw new SOAP_ERR_MTOM_FRAMING('a part\'s header block does not end')
      }
      fields = readHeaders(body.toString('latin1', start, end), limits)
      separator = end + 2
    }
    at = body.indexOf(delimiter, separator)
    if (at === -1) throw new SOAP_ERR_MTOM_FRAMING('no close delimiter')
    const content = at === separator ? body.subarray(at, at) : body.subarray(separator + 2, at)
    const part = partOf(fields, content)
    if (part.contentId !== undefined) {
      if (ids.has(part.contentId)) {
        throw new SOAP_ERR_MTOM_CONTENT_ID(JSON.stringify(`<${part.contentId}>`), 'names two parts')
      }
      ids.add(part.contentId)
    }
    parts.push(part)
    start = afterDelimiter(body, at + delimiter.length)
  }
  if (start === -2) throw new SOAP_ERR_MTOM_FRAMING('a delimiter is followed by something other than CRLF')
  return parts
}
