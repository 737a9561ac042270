/**
 * Compressed request bodies (docs/protocol.md "Content codings"): the SOAP
 * scope's preParsing hook. A body in a coding the registration accepts is
 * handed to the content-type parser inflated, as it arrives, held to the body
 * limit and to the compression ratio while it inflates; a coding it does not
 * accept is answered 415 before any of the body is read. A body with no
 * `Content-Encoding` is handed on as it is, with no stream around it.
 */
import { Readable } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw, type Gunzip } from 'node:zlib'
import type { preParsingHookHandler } from 'fastify'
import { SOAP_ERR_CODING_DATA, SOAP_ERR_CODING_RATIO, SOAP_ERR_CODING_SIZE, SOAP_ERR_CT_ENCODING } from '../errors'
import type { ResolvedOptions, SoapContentCoding } from '../options'

/** A zlib stream: what each coding is inflated with (`bytesWritten`: the encoded bytes it has consumed). */
type Inflater = Pick<Gunzip, 'write' | 'end' | 'destroy' | 'on' | 'bytesWritten'>

/** A zlib header (RFC 1950 §2.2): method 8, a window of at most 32 KiB, the check bits. */
function isZlibHeader (head: Buffer): boolean {
  return (head[0] & 0x0f) === 8 && head[0] >> 4 <= 7 && ((head[0] << 8) | head[1]) % 31 === 0
}

/** Each coding's inflater, made once the body's first two bytes are in. */
const INFLATERS: Readonly<Record<SoapContentCoding, (head: Buffer) => Inflater>> = {
  gzip: () => createGunzip(),
  // RFC 9110 §8.4.1.2 names the zlib format; the raw deflate some clients send is read too.
  deflate: (head) => isZlibHeader(head) ? createInflate() : createInflateRaw(),
  br: () => createBrotliDecompress()
}

const EMPTY = Buffer.alloc(0)

function ignore (): void {}

/**
 * A request body inflated. It reads nothing until the parser reads it (a
 * request refused first, by its media type, leaves its body to Node to
 * discard), counts both sides as it goes, and stops at the first excess: the
 * inflater is destroyed, the rest of the body left unread.
 */
class InflatedBody extends Readable {
  /** The encoded bytes received so far, which Fastify matches with Content-Length. */
  receivedEncodedLength = 0
  readonly #raw: Readable
  readonly #coding: SoapContentCoding
  readonly #limit: number
  readonly #ratio: number
  #inflater: Inflater | undefined
  #head: Buffer = EMPTY
  #decoded = 0
  #reading = false

  constructor (raw: Readable, coding: SoapContentCoding, limit: number, ratio: number) {
    super()
    this.#raw = raw
    this.#coding = coding
    this.#limit = limit
    this.#ratio = ratio
    // Fastify stops listening once it refuses a body itself; an error after that is no crash.
    this.on('error', ignore)
  }

  override _read (): void {
    if (this.#reading) return
    this.#reading = true
    this.#raw.on('data', this.#onEncoded).on('end', this.#onEncodedEnd).on('error', this.#onRawError)
  }

  override _destroy (err: Error | null, callback: (err?: Error | null) => void): void {
    this.#raw.off('data', this.#onEncoded).off('end', this.#onEncodedEnd).off('error', this.#onRawError)
    this.#inflater?.destroy()
    callback(err)
  }

  /** The inflater, made for the first bytes and given them. */
  #start (): Inflater {
    const inflater = INFLATERS[this.#coding](this.#head)
    inflater.on('data', this.#onDecoded).on('end', this.#onDecodedEnd).on('error', this.#onCorrupt)
    inflater.on('drain', () => this.#raw.resume())
    this.#inflater = inflater
    return inflater
  }

  readonly #onEncoded = (chunk: Buffer): void => {
    this.receivedEncodedLength += chunk.length
    if (this.receivedEncodedLength > this.#limit) {
      this.destroy(new SOAP_ERR_CODING_SIZE(this.#limit))
      return
    }
    let inflater = this.#inflater
    if (inflater === undefined) {
      this.#head = this.#head.length === 0 ? chunk : Buffer.concat([this.#head, chunk])
      if (this.#head.length < 2) return
      inflater = this.#start()
      chunk = this.#head
    }
    if (!inflater.write(chunk)) this.#raw.pause()
  }

  readonly #onEncodedEnd = (): void => {
    let inflater = this.#inflater
    if (inflater === undefined) {
      // A body of fewer than two bytes: no coded data, which the inflater says.
      inflater = this.#start()
      inflater.write(this.#head)
    }
    inflater.end()
  }

  readonly #onDecoded = (chunk: Buffer): void => {
    this.#decoded += chunk.length
    if (this.#decoded > this.#limit) {
      this.destroy(new SOAP_ERR_CODING_SIZE(this.#limit))
    } else if (this.#decoded > this.#ratio * this.receivedEncodedLength) {
      this.destroy(new SOAP_ERR_CODING_RATIO(this.#ratio))
    } else {
      this.push(chunk)
    }
  }

  /** The coded data has ended: bytes after its end are no part of it, and refused. */
  readonly #onDecodedEnd = (): void => {
    if ((this.#inflater as Inflater).bytesWritten === this.receivedEncodedLength) this.push(null)
    else this.destroy(new SOAP_ERR_CODING_DATA(this.#coding))
  }

  readonly #onCorrupt = (): void => {
    this.destroy(new SOAP_ERR_CODING_DATA(this.#coding))
  }

  readonly #onRawError = (err: Error): void => {
    this.destroy(err)
  }
}

/**
 * The codings a `Content-Encoding` value lists, in the order applied, in
 * lower case, without `identity` and empty list elements (RFC 9110 §8.4, §5.6.1).
 */
function codingsOf (value: string): string[] {
  const codings: string[] = []
  for (const item of value.split(',')) {
    const coding = item.trim().toLowerCase()
    if (coding !== '' && coding !== 'identity') codings.push(coding === 'x-gzip' ? 'gzip' : coding)
  }
  return codings
}

/**
 * The preParsing hook of a registration's SOAP scopes. Once a body is taken
 * to be inflated, its `content-encoding` header is removed: what the parser
 * reads is no longer coded, and a later hook (@fastify/compress's) does not
 * inflate it again.
 */
export function buildInflate (options: ResolvedOptions): preParsingHookHandler {
  const { bodyLimit, maxCompressionRatio } = options
  const accepted: ReadonlySet<string> = new Set(options.contentCodings)
  return function inflateBody (request, _reply, payload, done) {
    const header = request.headers['content-encoding']
    if (header === undefined || request.method === 'GET' || request.method === 'HEAD') {
      done(null, payload)
      return
    }
    const codings = codingsOf(header)
    if (codings.length === 0) {
      done(null, payload)
      return
    }
    // One coding at most: a body compressed twice gains nothing and multiplies the ratio.
    if (codings.length > 1 || !accepted.has(codings[0])) {
      done(new SOAP_ERR_CT_ENCODING(JSON.stringify(header)))
      return
    }
    delete request.headers['content-encoding']
    done(null, new InflatedBody(payload, codings[0] as SoapContentCoding, bodyLimit, maxCompressionRatio))
  }
}
