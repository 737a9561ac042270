/** `reply.soap()`: a response envelope in the request's version. */
import { XMLSerializer, type Document, type Node } from '@xmldom/xmldom'
import type { FastifyReply } from 'fastify'
import { SOAP_ERR_REPLY_CONTENT } from '../errors'
import { versionInfo, type SoapVersion } from '../namespaces'
import { writeEnvelope } from '../soap/writer'

/** What a Header or Body may hold: serialised XML, xmldom nodes, or a list of them. */
export type SoapContent = string | Node | ReadonlyArray<string | Node> | null | undefined

export interface SoapReplyOptions {
  /** Header blocks for the response's Header. */
  readonly header?: SoapContent
  /** The version to answer in when the request has none (a GET); default `'1.2'`. */
  readonly version?: SoapVersion
}

/** Stateless: one serves every reply. */
const serializer = new XMLSerializer()

function isNode (value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as { nodeType?: unknown }).nodeType === 'number'
}

function serialize (content: SoapContent): string {
  if (content === undefined || content === null) return ''
  if (typeof content === 'string') return content
  if (isNode(content)) {
    // A Document is written as its element: a declaration or DOCTYPE inside Body would break the envelope.
    const node = content.nodeType === 9 ? (content as Document).documentElement : content
    if (node === null || node.nodeType === 7 || node.nodeType === 10) {
      throw new SOAP_ERR_REPLY_CONTENT(`an xmldom node of type ${node === null ? 'empty Document' : node.nodeType}`)
    }
    return serializer.serializeToString(node)
  }
  if (Array.isArray(content)) {
    let out = ''
    for (const item of content as ReadonlyArray<string | Node>) {
      if (typeof item !== 'string' && !isNode(item)) throw new SOAP_ERR_REPLY_CONTENT(typeof item)
      out += serialize(item)
    }
    return out
  }
  throw new SOAP_ERR_REPLY_CONTENT(typeof content)
}

/**
 * Sends `body` as the content of a SOAP Body, in the request's SOAP version,
 * with its media type and an exact Content-Length. Text content is written as
 * given: escape values with `escapeXml()`.
 */
export function sendSoap (this: FastifyReply, body?: SoapContent, options?: SoapReplyOptions): FastifyReply {
  const version = versionInfo(this.request.soap?.version ?? options?.version ?? '1.2')
  const header = options?.header === undefined ? undefined : serialize(options.header)
  return this
    .header('content-type', version.contentType)
    .send(writeEnvelope(version, serialize(body), header))
}
