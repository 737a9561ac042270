/**
 * A request's body, collected into one Buffer under the body limit, as
 * Fastify's own `parseAs: 'buffer'` does, with its answers (413 over the
 * limit, 400 when fewer or more bytes come than Content-Length says).
 *
 * An MTOM body (docs/protocol.md "MTOM/XOP"), whose parts are kept as views
 * of it, is not held twice: Fastify keeps every chunk until the end, then
 * copies them all into one Buffer. Here, once a quarter of the declared
 * length has come, one Buffer of that length is made and the rest is copied
 * into it as it comes: the body costs about one and a quarter times its size
 * (the chunks before, until they are collected), and a client that declares
 * a length has sent a quarter of it before that length is allocated (at most
 * `bodyLimit`). Without a Content-Length (chunked), or from a preParsing
 * hook's stream, the chunks are kept and joined at the end, as Fastify does.
 *
 * An envelope, read into characters at once and not kept as bytes, is joined
 * into a `Scratch` instead: one Buffer kept from one request to the next, so
 * that a large body costs no fresh memory of its size (whose pages the
 * system maps anew each time: for a 1 MB body, half the time of reading its
 * bytes into characters).
 */
import type { Readable } from 'node:stream'
import { errorCodes, type FastifyRequest } from 'fastify'

const { FST_ERR_CTP_BODY_TOO_LARGE, FST_ERR_CTP_INVALID_CONTENT_LENGTH } = errorCodes

type Payload = Readable & { receivedEncodedLength?: number }

/** Bodies up to this long are joined into a scratch buffer; a longer one gets a Buffer of its own. */
export const SCRATCH_BYTES = 4 * 1024 * 1024

/**
 * One Buffer that bodies are joined into, each in turn: whoever is given a
 * view of it (`join`) reads it before returning, and keeps nothing of it.
 * It grows to the longest body joined, up to `max`.
 */
export class Scratch {
  #buffer = Buffer.alloc(0)

  constructor (readonly max: number) {}

  /** `chunks`, `length` bytes in all, joined: a view of the scratch when they fit, else a Buffer of their own. */
  join (chunks: readonly Buffer[], length: number): Buffer {
    if (chunks.length === 1) return chunks[0]
    if (length > this.max) return Buffer.concat(chunks as Buffer[], length)
    if (this.#buffer.length < length) this.#buffer = Buffer.allocUnsafeSlow(Math.min(this.max, 2 * length))
    let at = 0
    for (const chunk of chunks) at += chunk.copy(this.#buffer, at)
    return this.#buffer.subarray(0, length)
  }
}

/**
 * Collects the body of `request` and calls `done` with it. With `scratch`,
 * the body is the scratch's until `done` returns (`Scratch.join`); without,
 * it is the caller's.
 */
export function collectBody (
  request: FastifyRequest, payload: Payload, limit: number, done: (err: Error | null, body?: Buffer) => void,
  scratch?: Scratch
): void {
  const declared = Number(request.headers['content-length'])
  if (declared > limit) {
    done(new FST_ERR_CTP_BODY_TOO_LARGE())
    return
  }
  // A preParsing hook's stream may give more or fewer bytes than the request's Content-Length.
  const sized = payload === request.raw && Number.isSafeInteger(declared)
  let chunks: Buffer[] = []
  let body: Buffer | undefined
  let received = 0

  function stop (): void {
    payload.removeListener('data', onData)
    payload.removeListener('end', onEnd)
    payload.removeListener('error', onEnd)
  }

  function onData (data: Buffer | string): void {
    const chunk = typeof data === 'string' ? Buffer.from(data) : data
    const at = received
    received += chunk.length
    if (received > limit || (payload.receivedEncodedLength ?? 0) > limit) {
      stop()
      done(new FST_ERR_CTP_BODY_TOO_LARGE())
    } else if (body !== undefined) {
      // Node's parser gives the request's stream no more than Content-Length bytes; were it to, the count says so.
      chunk.copy(body, at)
    } else {
      chunks.push(chunk)
      if (scratch === undefined && sized && received * 4 >= declared) {
        body = Buffer.allocUnsafeSlow(declared)
        let offset = 0
        for (const piece of chunks) offset += piece.copy(body, offset)
        chunks = []
      }
    }
  }

  function onEnd (err?: Error & { statusCode?: number }): void {
    stop()
    if (err !== undefined) {
      if (!(typeof err.statusCode === 'number' && err.statusCode >= 400)) err.statusCode = 400
      done(err)
    } else if (!Number.isNaN(declared) && (payload.receivedEncodedLength ?? received) !== declared) {
      done(new FST_ERR_CTP_INVALID_CONTENT_LENGTH())
    } else {
      done(null, body ?? (scratch === undefined ? Buffer.concat(chunks, received) : scratch.join(chunks, received)))
    }
  }

  payload.on('data', onData)
  payload.on('end', onEnd)
  payload.on('error', onEnd)
  payload.resume()
}
