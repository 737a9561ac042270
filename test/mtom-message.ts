/**
 * MTOM/XOP request bodies for the tests (docs/protocol.md "MTOM/XOP"): a
 * multipart/related body from its parts, byte for byte as given.
 */
import type { SoapVersion } from '../lib/index'
import { envelope } from './helper'

export const XOP = 'http://www.w3.org/2004/08/xop/include'
export const BOUNDARY = 'uuid:6b2c0b1e-3a5f-4d8e-9c11-0f2a7d8e5b31'

export interface RawPart {
  /** The header block: field lines, each ending with CRLF ('' for a part with no fields). */
  readonly head: string
  readonly content: Buffer | string
}

export interface Framing {
  readonly preamble?: string
  readonly epilogue?: string
  /** Transport padding after each delimiter's boundary. */
  readonly padding?: string
  /** Leave off the close delimiter (a truncated body). */
  readonly unclosed?: boolean
}

/** A multipart body (RFC 2046 §5.1.1): each part after CRLF `--boundary`, then the close delimiter. */
export function multipartBody (boundary: string, parts: readonly RawPart[], framing: Framing = {}): Buffer {
  const chunks: Buffer[] = []
  const padding = framing.padding ?? ''
  if (framing.preamble !== undefined) chunks.push(Buffer.from(framing.preamble + '\r\n', 'latin1'))
  parts.forEach((part, i) => {
    // The first delimiter's CRLF is the preamble's, or none at the body's start.
    const lead = i === 0 ? '' : '\r\n'
    chunks.push(Buffer.from(`${lead}--${boundary}${padding}\r\n${part.head}\r\n`, 'latin1'))
    chunks.push(Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content, 'utf8'))
  })
  if (framing.unclosed !== true) chunks.push(Buffer.from(`\r\n--${boundary}--${framing.epilogue ?? ''}`, 'latin1'))
  return Buffer.concat(chunks)
}

/** The SOAP media type the root part's `type` parameter names. */
export function soapType (version: SoapVersion): string {
  return version === '1.1' ? 'text/xml' : 'application/soap+xml'
}

/** The root part's header block: application/xop+xml of the version's SOAP type. */
export function rootHead (version: SoapVersion, id = 'root.message@example.org', extra = ''): string {
  return `Content-Type: application/xop+xml; charset=UTF-8; type="${soapType(version)}"${extra}\r\n` +
    `Content-Transfer-Encoding: binary\r\nContent-ID: <${id}>\r\n`
}

/** An attachment's header block. */
export function partHead (id: string, type = 'application/octet-stream'): string {
  return `Content-Type: ${type}\r\nContent-Transfer-Encoding: binary\r\nContent-ID: <${id}>\r\n`
}

/** The request's Content-Type. */
export function mtomType (version: SoapVersion, boundary = BOUNDARY, start = '<root.message@example.org>'): string {
  return `multipart/related; type="application/xop+xml"; boundary="${boundary}"; start="${start}"; ` +
    `start-info="${soapType(version)}"`
}

/** `<m:Data>` holding an xop:Include of `cid:id`, in an `m:Upload` payload. */
export function uploadEnvelope (version: SoapVersion, ids: readonly string[], include = ''): string {
  const data = ids.map((id) => `<m:Data><xop:Include xmlns:xop="${XOP}" href="cid:${encodeURIComponent(id)}"${include}/></m:Data>`)
  return envelope(version, `<m:Upload xmlns:m="urn:example:files">${data.join('')}</m:Upload>`)
}

/** A whole MTOM message: the envelope as root, then each attachment. */
export function mtomMessage (
  version: SoapVersion, xml: string, attachments: ReadonlyArray<{ id: string, bytes: Buffer }>,
  boundary = BOUNDARY, framing: Framing = {}
): { contentType: string, body: Buffer } {
  const parts: RawPart[] = [{ head: rootHead(version), content: xml }]
  for (const { id, bytes } of attachments) parts.push({ head: partHead(id), content: bytes })
  return { contentType: mtomType(version, boundary), body: multipartBody(boundary, parts, framing) }
}

/** The boundary Mono's WCF (MtomMessageEncodingBindingElement) writes, and its root part's Content-ID. */
export const MONO_BOUNDARY = '2260f08f-d9d6-41d7-9fde-334176ca656d+id=1'
export const MONO_START = 'http://tempuri.org/0/639313476741670800'

/**
 * An MTOM message framed as Mono's WCF sends it (captured from Mono 6.8):
 * a Content-Type of `multipart/related; type=application/xop+xml` with no
 * boundary, and the body starting with its own MIME header (MIME-Version,
 * then the Content-Type with the boundary and start), an empty line, then
 * the parts; the root part's type parameter is empty (`type=""`).
 */
export function monoMessage (
  xml: string, attachments: ReadonlyArray<{ id: string, bytes: Buffer }>, head = monoHead()
): { contentType: string, body: Buffer } {
  const parts: RawPart[] = [{
    head: `Content-ID: <${MONO_START}>\r\nContent-Transfer-Encoding: 8bit\r\nContent-Type: application/xop+xml;charset=utf-8;type=""\r\n`,
    content: xml
  }]
  for (const { id, bytes } of attachments) {
    parts.push({ head: `Content-ID: <${id}>\r\nContent-Transfer-Encoding: binary\r\nContent-Type: application/octet-stream\r\n`, content: bytes })
  }
  return {
    contentType: 'multipart/related; type=application/xop+xml',
    body: Buffer.concat([Buffer.from(head + '\r\n', 'latin1'), multipartBody(MONO_BOUNDARY, parts), Buffer.from('\r\n', 'latin1')])
  }
}

/** The MIME header Mono writes at the start of the body. */
export function monoHead (boundary = MONO_BOUNDARY, start = MONO_START): string {
  return `MIME-Version: 1.0\r\nContent-Type: multipart/related;type="application/xop+xml";boundary="${boundary}";start="<${start}>"\r\n`
}
