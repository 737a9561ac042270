/**
 * MTOM/XOP (docs/protocol.md "MTOM/XOP"): a `multipart/related` request's
 * root part found and its media type read (XOP 1.0 §4; SOAP 1.2 MTOM §4.3,
 * the SOAP 1.1 Binding for MTOM 1.0), and, once the root is decoded, each
 * `xop:Include` checked and matched with the part its `cid:` URL names
 * (XOP 1.0 §2, §3.2; RFC 2392). Nothing but a part of the message is ever
 * resolved: an href of any other scheme is refused, never fetched.
 */
import { SOAP_ERR_CT_MEDIA_TYPE, SOAP_ERR_MTOM_ROOT } from '../errors'
import { XOP_NS } from '../namespaces'
import type { XmlTree } from '../xml/tree'
import { parseContentType, soapMediaType, type RequestMediaType } from './content-type'
import { boundaryOf, embeddedHeader, readMultipart, type SoapMultipartLimits } from './multipart'

/** The media type of an MTOM request (RFC 2387) and of its root part (XOP 1.0 §4.1, §5). */
export const MULTIPART_RELATED = 'multipart/related'
const XOP_MEDIA_TYPE = 'application/xop+xml'

export interface XopPackage {
  /**
   * The SOAP media type the root part's `type` parameter names, with its
   * charset and action; SOAP 1.2's when that parameter is empty (`type=""`).
   */
  readonly media: RequestMediaType
  /** The root part's `type` parameter is empty: its Envelope's namespace names the version. */
  readonly versionless: boolean
  /** The root part's bytes: the XOP document, an envelope decoded as any other body. */
  readonly root: Buffer
  /** The other parts' bytes, by Content-ID (without angle brackets); views of the body. */
  readonly parts: ReadonlyMap<string, Buffer>
}

function unbracketed (id: string): string {
  return id.length >= 2 && id[0] === '<' && id[id.length - 1] === '>' ? id.slice(1, -1) : id
}

/**
 * The parameters of the request's Content-Type, and the body's multipart
 * bytes. With no boundary there, a MIME header at the start of the body
 * that names `multipart/related` with a boundary stands for it (Mono's WCF:
 * docs/protocol.md "Be liberal"), and the body after it is the multipart.
 */
function framingOf (
  header: string, body: Buffer, limits: SoapMultipartLimits
): { params: ReadonlyMap<string, string>, multipart: Buffer } {
  const { params } = parseContentType(header)
  if (params.has('boundary')) return { params, multipart: body }
  const embedded = embeddedHeader(body, limits)
  if (embedded === undefined) return { params, multipart: body }
  const own = parseContentType(embedded.type)
  if (own.mediaType !== MULTIPART_RELATED || !own.params.has('boundary')) return { params, multipart: body }
  return { params: own.params, multipart: body.subarray(embedded.offset) }
}

/**
 * An XOP package: its parts (multipart.ts), its root part (the one the
 * `start` parameter names, else the first: RFC 2387 §3.2), and the SOAP
 * media type of the root's `application/xop+xml` `type` parameter, with the
 * root's charset and an `action` parameter given with that type, on the root
 * part, on the request's Content-Type or in its `start-info` parameter, in
 * that order. Throws the 400 and 415 errors.
 */
export function readXopPackage (header: string, body: Buffer, limits: SoapMultipartLimits): XopPackage {
  const { params, multipart } = framingOf(header, body, limits)
  const all = readMultipart(multipart, boundaryOf(params.get('boundary')), limits)
  const start = params.get('start')
  const root = start === undefined ? all[0] : all.find((part) => part.contentId === unbracketed(start.trim()))
  if (root === undefined) {
    throw new SOAP_ERR_MTOM_ROOT(start === undefined ? 'the body has no part' : 'no part has the start Content-ID')
  }
  const own = parseContentType(root.contentType ?? '')
  if (own.mediaType !== XOP_MEDIA_TYPE) throw new SOAP_ERR_CT_MEDIA_TYPE(JSON.stringify(own.mediaType))
  const type = own.params.get('type')
  // An empty type names no version (Mono's WCF): the parser reads it from the Envelope, SOAP 1.2's first.
  const versionless = type === ''
  const soap = parseContentType(versionless ? 'application/soap+xml' : type ?? '')
  const startInfo = params.get('start-info')
  const action = soap.params.get('action') ?? own.params.get('action') ?? params.get('action') ??
    (startInfo === undefined ? undefined : parseContentType(startInfo).params.get('action'))
  const media = soapMediaType(soap.mediaType, own.params.get('charset') ?? soap.params.get('charset'), action)
  const parts = new Map<string, Buffer>()
  for (const part of all) {
    if (part !== root && part.contentId !== undefined) parts.set(part.contentId, part.content)
  }
  return { media, versionless, root: root.content, parts }
}

/** What the Includes of a decoded XOP document stand for. */
export interface XopIncludes {
  /** The bytes of each element whose content an xop:Include stands for, by its offset in the tree. */
  readonly included: ReadonlyMap<number, Buffer>
  /** The first Include that breaks a rule: a Sender fault's reason. */
  readonly fault: string | undefined
}

const NONE: ReadonlyMap<number, Buffer> = new Map()
const CID = /^cid:/i

/** The name of an element, or where it stands when it is a header block or a Body child. */
function nameOf (tree: XmlTree, parent: number): string {
  return parent === -1 ? 'the Header or the Body' : `element ${tree.name(parent).name}`
}

/** Whether the element at `p` is an xop:Include. */
function isInclude (tree: XmlTree, p: number): boolean {
  const name = tree.name(p)
  return name.localName === 'Include' && name.namespace === XOP_NS
}

/**
 * Checks one xop:Include, the sole child of `parent` (XOP 1.0 §2.1, §2.2):
 * empty, with the `href` attribute alone (namespace declarations aside; the
 * extension attributes and children XOP's schema allows are refused, as
 * nothing here understands them), a `cid:` URL (RFC 2392: percent-decoded,
 * the Content-ID without its brackets) that names a part not named before.
 * Returns the part's bytes, or the fault's reason.
 */
function included (
  tree: XmlTree, p: number, parent: string, parts: ReadonlyMap<string, Buffer>, used: Set<string>
): Buffer | string {
  if (tree.end(p) !== p + 4) return `The xop:Include in ${parent} has content`
  const from = tree.attributesOf(p)
  const to = tree.attributesEnd(p)
  const name = to - from === 2 ? tree.attributeName(from) : undefined
  if (name?.localName !== 'href' || name.namespace !== '') {
    return `The xop:Include in ${parent} must have the href attribute and no other`
  }
  const href = tree.attributeValue(from)
  if (!CID.test(href)) return `The xop:Include in ${parent} has an href that is not a cid: URL`
  let id: string
  try {
    id = decodeURIComponent(href.slice(4))
  } catch {
    return `The xop:Include in ${parent} has an href that is not a cid: URL`
  }
  const bytes = parts.get(id)
  if (bytes === undefined) return `The xop:Include in ${parent} names no part of the message`
  if (used.has(id)) return `The xop:Include in ${parent} names a part another Include named`
  used.add(id)
  return bytes
}

/**
 * The xop:Includes of a decoded XOP document, under the header blocks and
 * Body children at `roots`: each must be the sole child of its element
 * (XOP 1.0 §2.1); an element of XOP's namespace other than Include is
 * refused. One pass over the tree's nodes, and none when the message names
 * XOP's namespace nowhere. A part no Include names is passed over.
 */
export function resolveIncludes (
  tree: XmlTree, roots: readonly number[], parts: ReadonlyMap<string, Buffer>
): XopIncludes {
  if (!tree.names.some((name) => name.namespace === XOP_NS)) return { included: NONE, fault: undefined }
  const result = new Map<number, Buffer>()
  const used = new Set<string>()
  const open: number[] = []
  let expected = -1
  for (const root of roots) {
    const end = tree.end(root)
    open.length = 0
    for (let p = root; p < end; p += 4) {
      if (tree.isText(p)) continue
      while (open.length !== 0 && tree.end(open[open.length - 1]) <= p) open.pop()
      const parent = open.length === 0 ? -1 : open[open.length - 1]
      open.push(p)
      if (tree.name(p).namespace === XOP_NS) {
        if (!isInclude(tree, p)) return { included: NONE, fault: `${tree.name(p).name} is not an element of XOP` }
        if (p !== expected) {
          return { included: NONE, fault: `${nameOf(tree, parent)} holds an xop:Include beside other content` }
        }
        const bytes = included(tree, p, nameOf(tree, parent), parts, used)
        if (typeof bytes === 'string') return { included: NONE, fault: bytes }
        result.set(parent, bytes)
        continue
      }
      const child = p + 4
      if (child < tree.end(p) && !tree.isText(child) && tree.next(child) === tree.end(p) && isInclude(tree, child)) {
        expected = child
      }
    }
  }
  return { included: result, fault: undefined }
}
