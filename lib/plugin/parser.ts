/**
 * The content-type parser: media type, charset, envelope and header blocks, in
 * that order. Throws the errors that mean 400 (cannot decode) or 415, then the
 * fault a decoded envelope has earned (VersionMismatch, Sender, MustUnderstand),
 * so that it is answered before any hook or handler runs; returns `request.soap`.
 */
import type { FastifyRequest } from 'fastify'
import * as xpath from 'xpath'
import { decodeText } from '../soap/charset'
import { requestAction, soapMediaType } from '../soap/content-type'
import { SoapContext, type DecodedTree } from '../service/context'
import { DecoderMemory, EnvelopeDecoder } from '../soap/envelope'
import { SoapFault } from '../soap/fault'
import { notUnderstood, processHeaders } from '../soap/headers'
import { SOAP_ERR_CT_DUPLICATE } from '../errors'
import { SOAP11, SOAP11_ENV, SOAP12_ENV, xpathNamespaces, type SoapVersion } from '../namespaces'
import type { ResolvedOptions } from '../options'
import { ENVELOPE_PREFIX, UPGRADE_BLOCK } from '../soap/writer'
import { escapeAttribute } from '../xml/escape'
import { XmlTree } from '../xml/tree'
import { readXopPackage, resolveIncludes } from '../soap/xop'

function versionMismatchFault (found: string): SoapFault {
  return new SoapFault({
    code: 'VersionMismatch',
    reason: `The envelope namespace ${found === '' ? '(none)' : found} is not the one the media type names`,
    headers: UPGRADE_BLOCK
  })
}

function mustUnderstandFault (
  version: SoapVersion, missing: ReadonlyArray<{ namespace: string, localName: string }>
): SoapFault {
  let headers: string | undefined
  if (version === '1.2') {
    headers = ''
    for (const block of missing) {
      headers += `<${ENVELOPE_PREFIX}:NotUnderstood qname="nu:${escapeAttribute(block.localName)}" ` +
        `xmlns:nu="${escapeAttribute(block.namespace)}"/>`
    }
  }
  return new SoapFault({
    code: 'MustUnderstand',
    reason: 'One or more mandatory SOAP header blocks not understood',
    headers
  })
}

const NO_PARTS: ReadonlyMap<string, Buffer> = new Map()

/**
 * An MTOM request's SOAP version, known from its root part before `request.soap` is: the version of a
 * fault its envelope earns before then (VersionMismatch), which its own Content-Type cannot tell.
 */
export const kPackageVersion: unique symbol = Symbol('fastify-soap.package-version')

declare module 'fastify' {
  interface FastifyRequest {
    [kPackageVersion]: SoapVersion | null
  }
}

function contentTypeLines (raw: string[]): number {
  let count = 0
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]
    if (name.length === 12 && name.toLowerCase() === 'content-type') count++
  }
  return count
}

/**
 * `understood` is the set of header blocks the endpoint understands: the
 * option's for plain routes; a service's own, filled in at `ready()`. The
 * parser is told whether the body is an MTOM package (`packaged`): Fastify
 * chose the content-type parser by the media type already.
 */
export function buildParser (
  options: ResolvedOptions, understood: ReadonlySet<string> = options.understoodHeaders
): (request: FastifyRequest, body: Buffer, packaged: boolean) => SoapContext {
  const { roles, maxXPathElements, multipart } = options
  // All the parser keeps from one request to the next (DecoderMemory).
  const memory = new DecoderMemory()
  const decoder = new EnvelopeDecoder(options.limits, {}, memory)
  const mediaTypes = memory.mediaTypes
  const select11 = xpath.useNamespaces({ ...xpathNamespaces('1.1'), ...options.namespaces })
  const select12 = xpath.useNamespaces({ ...xpathNamespaces('1.2'), ...options.namespaces })

  return function parseSoap (request, body, packaged) {
    // Node keeps the first of several Content-Type lines and drops the rest; a
    // message that says two things about its own type is refused (RFC 9110 §5.3).
    if (contentTypeLines(request.raw.rawHeaders) > 1) throw new SOAP_ERR_CT_DUPLICATE()
    const contentType = request.headers['content-type']
    // docs/protocol.md "MTOM/XOP": the root part is read as any other body, its parts kept aside.
    const xopPackage = packaged ? readXopPackage(contentType as string, body, multipart) : undefined
    let media = xopPackage === undefined ? mediaTypes.read(contentType) : xopPackage.media
    const parts = xopPackage?.parts
    const { text, encoding, paired } = decodeText(xopPackage === undefined ? body : xopPackage.root, media.charset)
    let decoded = decoder.decode(text, media.version.envelope, encoding, media.charset !== undefined, paired)
    // docs/protocol.md "Be liberal": a root part of type="" is SOAP 1.1 when its Envelope says so.
    if (xopPackage?.versionless === true && decoded.mismatch && decoded.namespace === SOAP11_ENV) {
      media = soapMediaType(SOAP11.mediaType, media.charset, undefined)
      decoded = decoder.decode(text, SOAP11_ENV, encoding, media.charset !== undefined, paired)
    }
    if (xopPackage !== undefined) request[kPackageVersion] = media.version.version
    const envelope = media.version.envelope
    if (decoded.mismatch) throw versionMismatchFault(decoded.namespace)

    const version = media.version.version
    const headers = processHeaders(decoded.tree, decoded.headerNodes, version, envelope, roles)
    const xop = parts === undefined
      ? undefined
      : resolveIncludes(decoded.tree, [...decoded.headerNodes, ...decoded.bodyNodes], parts)
    // The codec reads a binary value's bytes from the part its xop:Include names (codec/read.ts).
    const tree = xop === undefined || xop.included.size === 0 ? decoded.tree : decoded.tree.including(xop.included)
    const context = new SoapContext({
      version,
      namespace: envelope,
      action: requestAction(media.action, request.headers),
      hasHeader: decoded.hasHeader,
      decoded: { tree, headers: headers.blocks, bodyNodes: decoded.bodyNodes },
      parts: parts ?? NO_PARTS,
      mtom: parts !== undefined,
      source: text,
      elements: decoded.elements,
      select: envelope === SOAP12_ENV ? select12 : select11,
      maxXPathElements
    })
    request.soap = context
    const sender = decoded.senderFault ?? headers.senderFault ?? xop?.fault
    if (sender !== undefined) throw new SoapFault({ code: 'Sender', reason: sender })
    const missing = notUnderstood(headers.blocks, understood)
    if (missing.length !== 0) throw mustUnderstandFault(version, missing)
    return context
  }
}

const EMPTY_12 = `<env:Envelope xmlns:env="${SOAP12_ENV}"><env:Body/></env:Envelope>`
const EMPTY_TREE: DecodedTree = {
  tree: new XmlTree(EMPTY_12, new Int32Array(0), new Int32Array(0), [], []), headers: [], bodyNodes: []
}

/**
 * `request.soap` for an operation invoked by GET (SOAP 1.2 Part 2 §6.4, the
 * SOAP Response MEP): a SOAP 1.2 exchange with no request envelope.
 */
export function buildGetContext (options: ResolvedOptions): () => SoapContext {
  const select = xpath.useNamespaces({ ...xpathNamespaces('1.2'), ...options.namespaces })
  return () => new SoapContext({
    version: '1.2',
    namespace: SOAP12_ENV,
    action: undefined,
    hasHeader: false,
    decoded: EMPTY_TREE,
    parts: NO_PARTS,
    mtom: false,
    source: EMPTY_12,
    elements: 2,
    select,
    maxXPathElements: options.maxXPathElements
  })
}
