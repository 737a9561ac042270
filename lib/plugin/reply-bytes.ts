/**
 * A service route's last onSend hook: a reply of `BYTES_FROM` characters or
 * more leaves as one Buffer of its UTF-8 bytes, encoded once. Given a
 * string, Fastify counts its bytes for the Content-Length (one pass over the
 * text) and the socket then encodes it (a second); for a 100 KB answer of
 * non-ASCII text the count alone was about a tenth of the server's time
 * (docs/benchmarks.md "Where the time goes"). Every hook before this one (the
 * application's, a protocol's, the span's) sees the reply as it was written;
 * a shorter reply stays a string, whose count costs less than a Buffer of its own.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { takePieces } from '../xml/pieces'

/** From this many characters (about 16 KB), a reply is sent as bytes. */
export const BYTES_FROM = 16384

const encoder = new TextEncoder()

/**
 * The UTF-8 bytes of `text`, encoded from `pieces` (the strings it was
 * joined from: xml/pieces.ts) when given. Room for one and a half bytes a
 * character holds markup and most text; what does not fit (text mostly of
 * three-byte characters) is encoded after it, and the two joined.
 */
export function utf8Bytes (text: string, pieces: readonly string[] = [text]): Buffer {
  const bytes = Buffer.allocUnsafeSlow(text.length + (text.length >>> 1))
  let at = 0
  let done = 0
  for (let k = 0; k < pieces.length; k++) {
    const piece = pieces[k]
    // A pair of surrogates split between two pieces is one character: encoded whole.
    if (k < pieces.length - 1 && isHighSurrogate(piece.charCodeAt(piece.length - 1))) return utf8Bytes(text)
    const { read, written } = encoder.encodeInto(piece, at === 0 ? bytes : bytes.subarray(at))
    at += written
    done += read
    if (read !== piece.length) return Buffer.concat([bytes.subarray(0, at), Buffer.from(text.slice(done), 'utf8')])
  }
  return bytes.subarray(0, at)
}

function isHighSurrogate (c: number): boolean {
  return c >= 0xD800 && c <= 0xDBFF
}

type Done = (err: Error | null, payload?: unknown) => void

export function replyBytes (_request: FastifyRequest, _reply: FastifyReply, payload: unknown, done: Done): void {
  // Taken whatever the payload: nothing recorded outlives the reply.
  const pieces = takePieces(typeof payload === 'string' ? payload : undefined)
  done(null, typeof payload === 'string' && payload.length >= BYTES_FROM ? utf8Bytes(payload, pieces) : payload)
}
