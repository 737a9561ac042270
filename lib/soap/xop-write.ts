/**
 * An MTOM reply (docs/binary.md "MTOM"; SOAP 1.2 MTOM §3–4, the SOAP 1.1
 * Binding for MTOM 1.0, XOP 1.0 §3): the binary values a reply's writer
 * hands over as parts, each named in the envelope by an `xop:Include`, and
 * the `multipart/related` package of the envelope (the root part) and them.
 */
import { randomUUID } from 'node:crypto'
import { XOP_NS, type VersionInfo } from '../namespaces'

/**
 * When a reply is an MTOM package (docs/binary.md "MTOM"): `'request'` when
 * the request was one (answered in kind), `'always'`, or `'never'` (binary
 * values inline, whatever the request).
 */
export type SoapMtomMode = 'always' | 'request' | 'never'

/**
 * The MTOM keys of a service, an operation (the service's unless set) and a
 * contract (by default what its binding's MTOM policy assertion says:
 * optional, `'request'`; required, `'always'`).
 */
export interface SoapMtomOptions {
  /** When a reply is an MTOM package; default `'request'`. */
  readonly mtom?: SoapMtomMode
  /** The size in bytes from which a base64 value of an MTOM reply goes as a part; default 768. */
  readonly mtomThreshold?: number
}

/**
 * The parts of one MTOM reply as its envelope is written: the binary values
 * of `threshold` bytes or more, in the order their `xop:Include`s come.
 */
export class XopParts {
  readonly threshold: number
  readonly #id = randomUUID()
  readonly #parts: Uint8Array[] = []

  constructor (threshold: number) {
    this.threshold = threshold
  }

  /** The Content-ID of part `index` (the root's is `root`), without angle brackets: RFC 2392 characters only. */
  contentId (index: number | 'root'): string {
    return `${index}.${this.#id}@fastify-soap`
  }

  /** Keeps `bytes` as the next part; the `xop:Include` that stands for them, the element's sole child. */
  include (bytes: Uint8Array): string {
    this.#parts.push(bytes)
    return `<xop:Include xmlns:xop="${XOP_NS}" href="cid:${this.contentId(this.#parts.length - 1)}"/>`
  }

  get parts (): readonly Uint8Array[] {
    return this.#parts
  }
}

/** An MTOM reply's Content-Type and body. */
export interface XopPackageOut {
  readonly contentType: string
  /** The whole package, each part's bytes copied into it once, never through a string. */
  readonly body: Buffer
}

/**
 * The package of `envelope` (the root part, `application/xop+xml` of the
 * SOAP media type of `version`) and the parts of `parts`, every part's
 * content `binary`. Its boundary is `uuid:` and a random UUID made after the
 * parts' bytes are known: 122 random bits no part can have been made to
 * hold, so the parts are not searched for it (docs/binary.md "MTOM").
 */
export function writeXopPackage (version: VersionInfo, envelope: string, parts: XopParts): XopPackageOut {
  const boundary = `uuid:${randomUUID()}`
  const root = parts.contentId('root')
  const type = version.mediaType
  const chunks: Uint8Array[] = [Buffer.from(
    `--${boundary}\r\n` +
    `Content-Type: application/xop+xml; charset=UTF-8; type="${type}"\r\n` +
    'Content-Transfer-Encoding: binary\r\n' +
    `Content-ID: <${root}>\r\n\r\n` +
    envelope
  )]
  parts.parts.forEach((bytes, index) => {
    chunks.push(Buffer.from(
      `\r\n--${boundary}\r\n` +
      'Content-Type: application/octet-stream\r\n' +
      'Content-Transfer-Encoding: binary\r\n' +
      `Content-ID: <${parts.contentId(index)}>\r\n\r\n`
    ), bytes)
  })
  chunks.push(Buffer.from(`\r\n--${boundary}--\r\n`))
  return {
    contentType: `multipart/related; type="application/xop+xml"; boundary="${boundary}"; ` +
      `start="<${root}>"; start-info="${type}"`,
    body: Buffer.concat(chunks)
  }
}
