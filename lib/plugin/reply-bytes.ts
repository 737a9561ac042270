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

/** From this many characters (about 16 KB), a reply is sent as bytes. */
export const BYTES_FROM = 16384

const encoder = new TextEncoder()

/**
 * The UTF-8 bytes of `text`. Room for one and a half bytes a character holds
 * markup and most text; what does not fit (text mostly of three-byte
 * characters) is encoded after it, and the two joined.
 */
export function utf8Bytes (text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(text.length + (text.length >>> 1))
  const { read, written } = encoder.encodeInto(text, bytes)
  const done = bytes.subarray(0, written)
  return read === text.length ? done : Buffer.concat([done, Buffer.from(text.slice(read), 'utf8')])
}

type Done = (err: Error | null, payload?: unknown) => void

export function replyBytes (_request: FastifyRequest, _reply: FastifyReply, payload: unknown, done: Done): void {
  done(null, typeof payload === 'string' && payload.length >= BYTES_FROM ? utf8Bytes(payload) : payload)
}
