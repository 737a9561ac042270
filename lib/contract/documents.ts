/**
 * Contract first, part 1: the documents of a contract. A WSDL (a file, or a
 * string) and every WSDL and schema it imports or includes, each read once,
 * relative to the document that names it, unless the user's catalog maps the
 * location elsewhere. Nothing is fetched over the network: an absolute URL
 * goes to the user's resolver, or is an error.
 */
import { readFile } from 'node:fs/promises'
import { basename, dirname, resolve as resolvePath } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DOMParser, XMLSerializer, type Document as DomDocument, type Element as DomElement } from '@xmldom/xmldom'
import { SOAP_ERR_CONTRACT_INVALID, SOAP_ERR_CONTRACT_LOAD } from '../errors'
import { attr, childElements } from './dom'
import type { SchemaContext, SchemaModel } from './xsd'
import { SOAP11_ENV, SOAP_ENCODING_NAMESPACES, WSDL_NS, XML_NS, XSD_NS, SOAP12_ENV } from '../namespaces'
import { SOAP11_ENVELOPE_SCHEMA, XML_NAMESPACE_SCHEMA } from './well-known'
import { ADDRESS } from '../wsdl/xsd'

/** Gives the bytes or text of a document named by an absolute URL (docs/contract-first.md, "Resolver"). */
export type ContractResolver = (url: string) => string | Uint8Array | Promise<string | Uint8Array>

/**
 * Where documents named by other locations are read from (docs/contract-first.md,
 * "Catalog"): a location as a document writes it, or the absolute URL (or a
 * file's absolute path) it resolves to, mapped to a file path (relative to the
 * root WSDL's folder, or absolute), a `file:` URL, or a URL for the resolver.
 */
export type ContractCatalog = Readonly<Record<string, string | URL>>

/** Checks a catalog option: a plain object of non-empty locations to non-empty paths or URLs. */
export function checkCatalog (catalog: unknown, where: string): void {
  const plain = typeof catalog === 'object' && catalog !== null && (Object.getPrototypeOf(catalog) === Object.prototype || Object.getPrototypeOf(catalog) === null)
  if (!plain || Object.entries(catalog).some(([k, v]) => k === '' || !((typeof v === 'string' && v !== '') || v instanceof URL))) {
    throw new SOAP_ERR_CONTRACT_INVALID(where, '"catalog" must map locations (as written, or the absolute URLs they resolve to) to file paths or URLs')
  }
}

/** Namespaces a schema may import with no location: their few declarations are the codec's own business, or refused when used. */
const WELL_KNOWN: ReadonlySet<string> = new Set([
  XML_NS,
  XSD_NS,
  SOAP11_ENV,
  SOAP12_ENV,
  WSDL_NS,
  'http://www.w3.org/1999/xlink',
  ...SOAP_ENCODING_NAMESPACES
])

export interface ContractDocument {
  /** A file path, a URL, or `(document)` for a WSDL given as a string. */
  readonly location: string
  readonly dom: DomDocument
  /** The name it is served under at `?xsd=`; the root WSDL has none. */
  readonly name: string | undefined
}

/** The text of a document: a byte order mark, or else the XML declaration's encoding, decides how its bytes are read. */
export function decodeDocument (bytes: string | Uint8Array, location: string): string {
  if (typeof bytes === 'string') return bytes.charCodeAt(0) === 0xfeff ? bytes.slice(1) : bytes
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return b.subarray(3).toString('utf8')
  if (b[0] === 0xfe && b[1] === 0xff) return new TextDecoder('utf-16be').decode(b.subarray(2))
  if (b[0] === 0xff && b[1] === 0xfe) return new TextDecoder('utf-16le').decode(b.subarray(2))
  const declaration = /^<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(b.subarray(0, 200).toString('latin1'))
  const label = declaration === null ? 'utf-8' : declaration[1].toLowerCase()
  let decoder: TextDecoder
  try {
    decoder = new TextDecoder(label, { fatal: true })
  } catch {
    throw new SOAP_ERR_CONTRACT_LOAD(location, `the encoding "${label}" is not supported`)
  }
  try {
    return decoder.decode(b)
  } catch {
    throw new SOAP_ERR_CONTRACT_LOAD(location, `the bytes are not ${label}`)
  }
}

/** Parses a contract document: well-formed, with no DTD (a contract needs no entities, and they are a way in). */
export function parseDocument (text: string, location: string): DomDocument {
  let dom: DomDocument
  try {
    dom = new DOMParser({
      onError (level, message) {
        if (level !== 'warning') throw new Error(message)
      }
    }).parseFromString(text, 'text/xml')
  } catch (err) {
    throw new SOAP_ERR_CONTRACT_LOAD(location, `it is not well-formed XML (${(err as Error).message.split('\n')[0]})`)
  }
  if (dom.doctype !== null) throw new SOAP_ERR_CONTRACT_LOAD(location, 'it has a DOCTYPE: contracts with a DTD are refused')
  return dom
}

const ABSOLUTE_URL = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//

/** What an xs:import directly under wsdl:types is read in: no including schema. */
const TYPES_CONTEXT = { targetNamespace: '' }

/** Every document of a contract, loaded from its root WSDL. */
export class ContractDocuments {
  readonly documents: ContractDocument[] = []
  /** Every `wsdl:definitions`, the root's first. */
  readonly definitions: DomElement[] = []
  private readonly seen = new Map<string, ContractDocument>()
  /** Schema files by location and the namespace they are read in (a chameleon include is read once per includer's namespace). */
  private readonly schemaSeen = new Set<string>()
  private readonly names = new Set<string>()
  /** Attributes that name a loaded document, rewritten to `?xsd=` when the contract is served. */
  private readonly links: Array<{ node: DomElement, attribute: string, target: ContractDocument }> = []
  /** Namespaces imported without a location, to be found among the loaded schemas. */
  private readonly unlocated: Array<{ namespace: string, where: string }> = []

  /** The catalog's entries, each target an absolute path or an absolute URL. */
  private readonly catalog = new Map<string, string>()

  constructor (private readonly model: SchemaModel, private readonly resolver: ContractResolver | undefined, private readonly entries: ContractCatalog = {}) {}

  /** Loads the root WSDL and everything it reaches. */
  async load (root: { file?: string, text?: string, base?: string }): Promise<void> {
    // The catalog's relative paths are read from the root WSDL's folder (a document's base, else the working directory).
    const folder = root.file !== undefined ? dirname(resolvePath(root.file)) : resolvePath(root.base ?? '.')
    for (const [location, target] of Object.entries(this.entries)) {
      const href = target instanceof URL ? target.href : target
      this.catalog.set(location, ABSOLUTE_URL.test(href) || href.startsWith('file:') ? href : resolvePath(folder, href))
    }
    let doc: ContractDocument
    if (root.text !== undefined) {
      const location = root.base === undefined ? '(document)' : resolvePath(root.base, '(document)')
      doc = { location, dom: parseDocument(decodeDocument(root.text, '(document)'), '(document)'), name: undefined }
      this.seen.set(location, doc)
      this.documents.push(doc)
    } else {
      doc = await this.fetch(root.file as string, undefined, true)
    }
    await this.wsdl(doc)
    for (const { namespace, where } of this.unlocated) {
      if (!this.model.namespaces.has(namespace) && !WELL_KNOWN.has(namespace)) {
        throw new SOAP_ERR_CONTRACT_LOAD(where, `it imports the namespace ${namespace} with no schemaLocation, and no schema of the contract has that target namespace`)
      }
    }
  }

  /** Where a location points, from the document that names it. */
  private where (location: string, from: string | undefined): string {
    if (ABSOLUTE_URL.test(location)) return location
    if (from !== undefined && ABSOLUTE_URL.test(from)) return new URL(location, from).href
    return resolvePath(from === undefined ? '.' : dirname(from), location)
  }

  private async fetch (location: string, from: string | undefined, root = false): Promise<ContractDocument> {
    const resolved = this.where(location, from)
    // The catalog first: the location as written, then what it resolves to.
    const mapped = root ? undefined : this.catalog.get(location) ?? this.catalog.get(resolved)
    const target = mapped === undefined ? resolved : mapped.startsWith('file:') ? fileURLToPath(mapped) : mapped
    const known = this.seen.get(target)
    if (known !== undefined) return known
    // Why a file is missing, when the catalog or the location says more than the error code.
    const hint = mapped !== undefined
      ? ` (the catalog maps ${location} to it)`
      : from !== undefined && location.startsWith('/') && !ABSOLUTE_URL.test(from)
        ? `: ${from} names it "${location}", a path on the server the contract was published at: map it to a local copy with the "catalog" option`
        : ''
    let bytes: string | Uint8Array
    if (target.startsWith('file://')) {
      bytes = await this.read(fileURLToPath(target), target, hint)
    } else if (ABSOLUTE_URL.test(target)) {
      if (this.resolver === undefined) throw new SOAP_ERR_CONTRACT_LOAD(target, `${from ?? 'the contract'} names it by URL, and nothing is fetched over the network: give a resolver, or a local copy`)
      try {
        bytes = await this.resolver(target)
      } catch (err) {
        throw new SOAP_ERR_CONTRACT_LOAD(target, `the resolver failed (${(err as Error).message})`)
      }
      if (typeof bytes !== 'string' && !(bytes instanceof Uint8Array)) throw new SOAP_ERR_CONTRACT_LOAD(target, 'the resolver must return a string or bytes')
    } else {
      bytes = await this.read(target, target, hint)
    }
    const doc: ContractDocument = { location: target, dom: parseDocument(decodeDocument(bytes, target), target), name: root ? undefined : this.nameFor(target) }
    this.seen.set(target, doc)
    this.documents.push(doc)
    return doc
  }

  /** A schema shipped with the plugin, loaded once under its own name. */
  private builtIn (name: string, text: string): ContractDocument {
    const location = `fastify-soap:${name}`
    let doc = this.seen.get(location)
    if (doc === undefined) {
      doc = { location, dom: parseDocument(text, location), name: this.nameFor(name) }
      this.seen.set(location, doc)
      this.documents.push(doc)
    }
    return doc
  }

  private async read (path: string, location: string, hint = ''): Promise<Uint8Array> {
    try {
      return await readFile(path)
    } catch (err) {
      throw new SOAP_ERR_CONTRACT_LOAD(location, ((err as NodeJS.ErrnoException).code ?? 'it cannot be read') + hint)
    }
  }

  /** A name for `?xsd=`: the file's name, made of the characters a query value keeps as they are, numbered when taken. */
  private nameFor (location: string): string {
    const stem = (basename(location.replace(/[?#].*$/, '')).replace(/[^A-Za-z0-9._-]/g, '_') || 'schema').slice(0, 56)
    let name = stem
    for (let n = 2; this.names.has(name); n++) name = `${stem}-${n}`
    this.names.add(name)
    return name
  }

  private async wsdl (doc: ContractDocument): Promise<void> {
    const definitions = doc.dom.documentElement as DomElement
    if (definitions.namespaceURI !== WSDL_NS || definitions.localName !== 'definitions') {
      throw new SOAP_ERR_CONTRACT_LOAD(doc.location, `its root is {${definitions.namespaceURI ?? ''}}${definitions.localName as string}, not a WSDL 1.1 wsdl:definitions (WSDL 2.0 is not supported)`)
    }
    if (this.definitions.includes(definitions)) return
    this.definitions.push(definitions)
    for (const child of childElements(definitions)) {
      if (child.namespaceURI !== WSDL_NS) continue
      if (child.localName === 'import') {
        const location = attr(child, 'location')
        if (location === undefined) throw new SOAP_ERR_CONTRACT_LOAD(doc.location, 'a wsdl:import has no location')
        const imported = await this.fetch(location, doc.location)
        this.links.push({ node: child, attribute: 'location', target: imported })
        const root = imported.dom.documentElement as DomElement
        if (root.namespaceURI === XSD_NS && root.localName === 'schema') await this.schema(root, imported, undefined)
        else await this.wsdl(imported)
      } else if (child.localName === 'types') {
        for (const schema of childElements(child)) {
          if (schema.namespaceURI !== XSD_NS) continue
          if (schema.localName === 'schema') await this.schema(schema, doc, undefined)
          // BP R2003 puts xs:import inside xs:schema; some generators write it directly under wsdl:types, and it is read all the same.
          else if (schema.localName === 'import' || schema.localName === 'include') await this.reference(schema, doc, TYPES_CONTEXT)
        }
      }
    }
  }

  /** One xs:schema element, then what it imports and includes. `chameleon` is the includer's namespace for a schema that has none. */
  private async schema (schema: DomElement, doc: ContractDocument, chameleon: string | undefined): Promise<void> {
    const own = attr(schema, 'targetNamespace')
    const context: SchemaContext = {
      targetNamespace: own ?? chameleon ?? '',
      elementQualified: attr(schema, 'elementFormDefault') === 'qualified',
      attributeQualified: attr(schema, 'attributeFormDefault') === 'qualified',
      chameleon: own === undefined && chameleon !== undefined,
      file: doc.location
    }
    this.model.add(schema, context)
    for (const child of childElements(schema)) {
      if (child.namespaceURI === XSD_NS && (child.localName === 'import' || child.localName === 'include')) await this.reference(child, doc, context)
    }
  }

  /** An xs:import or xs:include: the schema it names, loaded once, its location rewritten when served. */
  private async reference (child: DomElement, doc: ContractDocument, context: Pick<SchemaContext, 'targetNamespace'>): Promise<void> {
    const location = attr(child, 'schemaLocation')
    const namespace = child.localName === 'import' ? attr(child, 'namespace') ?? '' : context.targetNamespace
    // The xml namespace's schema, imported with no location, is served all the same: clients that would fetch it from www.w3.org get ours.
    if (location === undefined && !(namespace === XML_NS && child.localName === 'import')) {
      this.unlocated.push({ namespace, where: doc.location })
      return
    }
    // The well-known namespaces' schemas are never fetched: the SOAP 1.1 envelope's and the xml namespace's are
    // served from copies of our own (so that clients need not fetch them either), the others are only known.
    let target: ContractDocument
    if (location === undefined || (ABSOLUTE_URL.test(location) && WELL_KNOWN.has(namespace) && child.localName === 'import')) {
      if (namespace !== SOAP11_ENV && namespace !== XML_NS) return
      target = namespace === XML_NS ? this.builtIn('xml.xsd', XML_NAMESPACE_SCHEMA) : this.builtIn('soap-envelope.xsd', SOAP11_ENVELOPE_SCHEMA)
    } else {
      target = await this.fetch(location, doc.location)
    }
    this.links.push({ node: child, attribute: 'schemaLocation', target })
    const root = target.dom.documentElement as DomElement
    if (root.namespaceURI !== XSD_NS || root.localName !== 'schema') throw new SOAP_ERR_CONTRACT_LOAD(target.location, 'it is imported as a schema and is no xs:schema')
    const readAs = child.localName === 'include' ? context.targetNamespace : undefined
    const id = `${target.location} ${readAs ?? ''}`
    if (this.schemaSeen.has(id)) return
    this.schemaSeen.add(id)
    await this.schema(root, target, readAs)
  }

  /**
   * The documents as served: each link to a loaded document rewritten to
   * `<address>?xsd=<name>`, and the given attributes (the served ports'
   * addresses) to `<address>`, the address left as the placeholder the
   * WSDL route fills in per request.
   */
  serve (addresses: ReadonlyArray<{ node: DomElement, attribute: string }>): { document: string, schemas: Record<string, string> } {
    for (const link of this.links) link.node.setAttribute(link.attribute, `${ADDRESS}?xsd=${link.target.name as string}`)
    for (const a of addresses) a.node.setAttribute(a.attribute, ADDRESS)
    const text = (doc: ContractDocument): string => {
      const serialized = new XMLSerializer().serializeToString(doc.dom)
      // The text is sent as UTF-8, whatever the file's declaration said.
      return serialized.replace(/^<\?xml[^?]*\?>/, '<?xml version="1.0" encoding="UTF-8"?>')
    }
    const schemas: Record<string, string> = {}
    for (const doc of this.documents) if (doc.name !== undefined) schemas[doc.name] = text(doc)
    return { document: text(this.documents[0]), schemas }
  }
}
