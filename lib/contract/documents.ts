/**
 * Contract first, part 1: the documents of a contract. A WSDL (a file, or a
 * string) and every WSDL and schema it imports or includes, each read once,
 * relative to the document that names it, unless the user's catalog maps the
 * location elsewhere. Nothing is read from outside the contract: a path stays
 * in the root WSDL's folder (or `root`), an absolute URL (`file:` too) goes to
 * the user's resolver, and the schemas of well-known namespaces are the
 * plugin's own copies; anything else is an error.
 */
import { readFile } from 'node:fs/promises'
import { basename, dirname, isAbsolute, relative, resolve as resolvePath, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DOMParser, XMLSerializer, type Document as DomDocument, type Element as DomElement } from '@xmldom/xmldom'
import { SOAP_ERR_CONTRACT_INVALID, SOAP_ERR_CONTRACT_LOAD } from '../errors'
import { Catalog, URL_LOCATION } from './catalog'
import { attr, childElements } from './dom'
import type { SchemaContext, SchemaModel } from './xsd-read'
import {
  ADDRESS, DS_NS, SOAP11_ENV, SOAP_ENCODING_NAMESPACES, WSDL_NS, XML_NS, XSD_NS, SOAP12_ENV, WSA_NS, WSSE_NS, WSU_NS
} from '../namespaces'
import {
  SOAP11_ENVELOPE_SCHEMA, SOAP12_ENVELOPE_SCHEMA, WS_ADDRESSING_SCHEMA, XML_NAMESPACE_SCHEMA
} from './well-known'
import { WSSE_SCHEMA, WSU_SCHEMA } from './well-known-security'
import { XMLDSIG_SCHEMA } from './well-known-signature'

/** Gives the bytes or text of a document named by an absolute URL (docs/contract-first.md, "Resolver"). */
export type ContractResolver = (url: string) => string | Uint8Array | Promise<string | Uint8Array>

/**
 * Where documents named by other locations are read from (docs/contract-first.md,
 * "Catalog"): a location as a document writes it, or the absolute URL (or a
 * file's absolute path) it resolves to, mapped to a file path (relative to the
 * root WSDL's folder, or absolute), a `file:` URL, or a URL for the resolver.
 * Or an XML catalog file: its path (from the working directory) or `file:` URL.
 */
export type ContractCatalog = Readonly<Record<string, string | URL>> | string | URL

/**
 * Checks a catalog option: a catalog file, or a plain object of non-empty
 * locations to non-empty paths or URLs.
 */
export function checkCatalog (catalog: unknown, where: string): void {
  if ((typeof catalog === 'string' && catalog !== '') || catalog instanceof URL) return
  const plain = typeof catalog === 'object' && catalog !== null &&
    (Object.getPrototypeOf(catalog) === Object.prototype || Object.getPrototypeOf(catalog) === null)
  const badEntry = ([k, v]: [string, unknown]): boolean =>
    k === '' || !((typeof v === 'string' && v !== '') || v instanceof URL)
  if (!plain || Object.entries(catalog).some(badEntry)) {
    throw new SOAP_ERR_CONTRACT_INVALID(where, '"catalog" must be a catalog file, or map locations ' +
      '(as written, or the absolute URLs they resolve to) to file paths or URLs')
  }
}

/**
 * Namespaces a schema may import with no location: their few declarations are
 * the codec's own business, or refused when used.
 */
const WELL_KNOWN: ReadonlySet<string> = new Set([
  XML_NS,
  XSD_NS,
  SOAP11_ENV,
  SOAP12_ENV,
  WSDL_NS,
  'http://www.w3.org/1999/xlink',
  ...SOAP_ENCODING_NAMESPACES
])

/**
 * The schemas the plugin ships, by namespace: what an import of the namespace
 * by URL reads, and serves, in place of the URL.
 */
const BUILT_IN: ReadonlyMap<string, readonly [name: string, text: string]> = new Map([
  [XML_NS, ['xml.xsd', XML_NAMESPACE_SCHEMA]],
  [SOAP11_ENV, ['soap-envelope.xsd', SOAP11_ENVELOPE_SCHEMA]],
  [SOAP12_ENV, ['soap12-envelope.xsd', SOAP12_ENVELOPE_SCHEMA]],
  [WSA_NS, ['ws-addr.xsd', WS_ADDRESSING_SCHEMA]],
  [WSSE_NS, ['oasis-200401-wss-wssecurity-secext-1.0.xsd', WSSE_SCHEMA]],
  [WSU_NS, ['oasis-200401-wss-wssecurity-utility-1.0.xsd', WSU_SCHEMA]],
  [DS_NS, ['xmldsig-core-schema.xsd', XMLDSIG_SCHEMA]]
])

export interface ContractDocument {
  /** A file path, a URL, or `(document)` for a WSDL given as a string. */
  readonly location: string
  readonly dom: DomDocument
  /** The name it is served under at `?xsd=`; the root WSDL has none. */
  readonly name: string | undefined
}

/**
 * The text of a document: a byte order mark, or else the XML declaration's
 * encoding, decides how its bytes are read.
 */
export function decodeDocument (bytes: string | Uint8Array, location: string): string {
  if (typeof bytes === 'string') return bytes.charCodeAt(0) === 0xfeff ? bytes.slice(1) : bytes
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return b.subarray(3).toString('utf8')
  if (b[0] === 0xfe && b[1] === 0xff) return new TextDecoder('utf-16be').decode(b.subarray(2))
  if (b[0] === 0xff && b[1] === 0xfe) return new TextDecoder('utf-16le').decode(b.subarray(2))
  const head = b.subarray(0, 200).toString('latin1')
  const declaration = /^<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)
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
  if (dom.doctype !== null) {
    throw new SOAP_ERR_CONTRACT_LOAD(location, 'it has a DOCTYPE: contracts with a DTD are refused')
  }
  return dom
}

/** What an xs:import directly under wsdl:types is read in: no including schema. */
const TYPES_CONTEXT = { targetNamespace: '' }

/**
 * An xs:import or xs:include written directly under wsdl:types, put inside an
 * xs:schema of its own, as it is read (WS-I BP R2003): a schema with no target
 * namespace around an import, one of the included schema's namespace around
 * an include (XML Schema 1.0 Part 1 §4.2.1).
 */
function wrapInSchema (reference: DomElement, target: ContractDocument | undefined): void {
  const dom = reference.ownerDocument as DomDocument
  const prefix = reference.prefix === null ? '' : `${reference.prefix}:`
  const schema = dom.createElementNS(XSD_NS, `${prefix}schema`)
  const namespace = target === undefined ? undefined : attr(target.dom.documentElement as DomElement, 'targetNamespace')
  if (reference.localName === 'include' && namespace !== undefined) schema.setAttribute('targetNamespace', namespace)
  const parent = reference.parentNode as DomElement
  parent.replaceChild(schema, reference)
  schema.appendChild(reference)
}

/**
 * The root of a contract: its WSDL's file, or its text (and the folder it is
 * read from), and the folder its files stay in.
 */
export interface ContractRoot {
  readonly file?: string
  readonly text?: string | Uint8Array
  readonly base?: string
  readonly root?: string | URL
}

/** A document that could not be read: reported with the others once the whole contract is walked. */
interface Failure {
  readonly target: string
  readonly why: string
  /** The location as written, for the catalog line that would map it; none when the catalog already does. */
  readonly written: string | undefined
}

/** A value for an XML attribute. */
function xmlAttribute (value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;')
}

/** Whether `path` is `folder` or inside it. */
function inside (folder: string, path: string): boolean {
  const rest = relative(folder, path)
  return rest === '' || !(rest === '..' || rest.startsWith('..' + sep) || isAbsolute(rest))
}

/** Every document of a contract, loaded from its root WSDL. */
export class ContractDocuments {
  readonly documents: ContractDocument[] = []
  /** Every `wsdl:definitions`, the root's first. */
  readonly definitions: DomElement[] = []
  private readonly seen = new Map<string, ContractDocument>()
  /**
   * Schema files by location and the namespace they are read in (a chameleon
   * include is read once per includer's namespace).
   */
  private readonly schemaSeen = new Set<string>()
  private readonly names = new Set<string>()
  /** Attributes that name a loaded document, rewritten to `?xsd=` when the contract is served. */
  private readonly links: Array<{ node: DomElement, attribute: string, target: ContractDocument }> = []
  /** Imports of well-known namespaces the plugin has no copy of: served with no location. */
  private readonly unlinked: DomElement[] = []
  /** Namespaces imported without a location, to be found among the loaded schemas. */
  private readonly unlocated: Array<{ namespace: string, where: string }> = []
  /**
   * The folder the paths a document names must stay in: the contract's root
   * folder, or for a file the catalog maps to, that file's folder. A document
   * read by URL has none (what it names are URLs too).
   */
  private readonly folders = new Map<ContractDocument, string>()
  private readonly failures: Failure[] = []
  private catalog = new Catalog('.', '')

  constructor (
    private readonly model: SchemaModel,
    private readonly resolver: ContractResolver | undefined,
    private readonly entries: ContractCatalog = {}
  ) {}

  /** Loads the root WSDL and everything it reaches. */
  async load (root: ContractRoot): Promise<void> {
    const file = root.file === undefined ? undefined : resolvePath(this.path(root.file))
    // The catalog's relative paths, and `root`, are read from the root WSDL's
    // folder (a document's base, else the working directory).
    const folder = file !== undefined ? dirname(file) : resolvePath(root.base ?? '.')
    const where = file ?? '(document)'
    this.catalog = await this.readCatalog(folder, where)
    let doc: ContractDocument
    if (file === undefined) {
      const location = root.base === undefined ? '(document)' : resolvePath(folder, '(document)')
      const text = decodeDocument(root.text as string | Uint8Array, '(document)')
      doc = { location, dom: parseDocument(text, '(document)'), name: undefined }
    } else {
      doc = { location: file, dom: parseDocument(decodeDocument(await this.read(file), file), file), name: undefined }
    }
    this.seen.set(doc.location, doc)
    this.documents.push(doc)
    this.folders.set(doc, root.root === undefined ? folder : resolvePath(folder, this.path(root.root)))
    await this.wsdl(doc)
    this.report(where)
    for (const { namespace, where } of this.unlocated) {
      if (!this.model.namespaces.has(namespace) && !WELL_KNOWN.has(namespace)) {
        throw new SOAP_ERR_CONTRACT_LOAD(where, `it imports the namespace ${namespace} with no schemaLocation, ` +
          'and no schema of the contract has that target namespace')
      }
    }
  }

  /** A path the user gave: as it is, or the path a `file:` URL names. */
  private path (value: string | URL): string {
    const href = value instanceof URL ? value.href : value
    if (!href.startsWith('file:')) return href
    try {
      return fileURLToPath(href)
    } catch {
      throw new SOAP_ERR_CONTRACT_LOAD(href, 'it is no file: URL of this machine')
    }
  }

  /** The catalog: the option's object, or the XML catalog file it names. */
  private async readCatalog (folder: string, where: string): Promise<Catalog> {
    if (typeof this.entries !== 'string' && !(this.entries instanceof URL)) {
      return new Catalog(folder, where).addObject(this.entries)
    }
    const file = resolvePath(this.path(this.entries))
    return new Catalog(dirname(file), file).addFile(parseDocument(decodeDocument(await this.read(file), file), file))
  }

  /**
   * Where a location points, from the document that names it: a URL, or an
   * absolute path; undefined for a URL that cannot be parsed.
   */
  private where (location: string, from: string): string | undefined {
    if (URL_LOCATION.test(location)) return URL.canParse(location) ? location : undefined
    if (URL_LOCATION.test(from)) return URL.canParse(location, from) ? new URL(location, from).href : undefined
    return resolvePath(dirname(from), location)
  }

  /**
   * A document an import names: mapped by the catalog, else by URL to the
   * resolver, else a file inside the contract's folder.
   */
  private async fetch (location: string, from: ContractDocument): Promise<ContractDocument | undefined> {
    const resolved = this.where(location, from.location)
    const mapped = this.catalog.lookup(location, resolved ?? location)
    if (mapped === undefined && resolved === undefined) {
      return this.fail(location, `${from.location} names it, and it is no URL that can be read`, location)
    }
    if (mapped !== undefined) {
      return await this.open(mapped, from, ` (the catalog maps ${location} to it)`, undefined)
    }
    if (URL_LOCATION.test(resolved as string)) return await this.open(resolved as string, from, '', location)
    const folder = this.folders.get(from) as string
    // A location starting with / in a document read from a file is most likely
    // a path on the site it was saved from.
    const server = location.startsWith('/')
      ? `: ${from.location} names it "${location}", a path on the server the contract was published at`
      : ''
    if (!inside(folder, resolved as string)) {
      const outside = `outside ${folder} (the folder the contract is read from; "root" widens it)`
      const why = server === ''
        ? `${from.location} names it "${location}", ${outside}`
        : `${server.slice(2)}, ${outside}`
      return this.fail(resolved as string, why, location)
    }
    return await this.open(resolved as string, from, server, location)
  }

  /**
   * A document read, once, from a file or the resolver; undefined, and the
   * failure kept, when it cannot be.
   */
  private async open (
    target: string,
    from: ContractDocument,
    hint: string,
    written: string | undefined
  ): Promise<ContractDocument | undefined> {
    const known = this.seen.get(target)
    if (known !== undefined) return known
    let bytes: string | Uint8Array
    if (URL_LOCATION.test(target)) {
      if (this.resolver === undefined) {
        return this.fail(target, `${from.location} names it by URL, and nothing is fetched over the network`, written)
      }
      try {
        bytes = await this.resolver(target)
      } catch (err) {
        return this.fail(target, `the resolver failed (${(err as Error).message})`, written)
      }
      if (typeof bytes !== 'string' && !(bytes instanceof Uint8Array)) {
        throw new SOAP_ERR_CONTRACT_LOAD(target, 'the resolver must return a string or bytes')
      }
    } else {
      try {
        bytes = await readFile(target)
      } catch (err) {
        return this.fail(target, ((err as NodeJS.ErrnoException).code ?? 'it cannot be read') + hint, written)
      }
    }
    const dom = parseDocument(decodeDocument(bytes, target), target)
    const doc: ContractDocument = { location: target, dom, name: this.nameFor(target) }
    this.seen.set(target, doc)
    this.documents.push(doc)
    // A file keeps its includer's folder; a file the catalog maps to opens its own.
    if (!URL_LOCATION.test(target)) {
      this.folders.set(doc, written === undefined ? dirname(target) : this.folders.get(from) as string)
    }
    return doc
  }

  private fail (target: string, why: string, written: string | undefined): undefined {
    if (!this.failures.some((f) => f.target === target)) this.failures.push({ target, why, written })
    return undefined
  }

  /**
   * Every document that could not be read, in one error, each with the catalog
   * line that would map it to a local copy.
   */
  private report (where: string): void {
    if (this.failures.length === 0) return
    const entry = (written: string): string => {
      const uri = `./${basename(written.replace(/[?#].*$/, ''))}`
      return `<system systemId="${xmlAttribute(written)}" uri="${xmlAttribute(uri)}"/>`
    }
    const line = (f: Failure): string => f.written === undefined
      ? f.why
      : `${f.why}; map it to a local copy in the catalog: ${entry(f.written)}`
    if (this.failures.length === 1) throw new SOAP_ERR_CONTRACT_LOAD(this.failures[0].target, line(this.failures[0]))
    const list = this.failures.map((f) => `- ${f.target}: ${line(f)}`).join('\n')
    throw new SOAP_ERR_CONTRACT_LOAD(where, `${this.failures.length} documents it names cannot be read:\n${list}`)
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

  /** The root WSDL's or the catalog's file: one that cannot be read stops the load there. */
  private async read (path: string): Promise<Uint8Array> {
    try {
      return await readFile(path)
    } catch (err) {
      throw new SOAP_ERR_CONTRACT_LOAD(path, (err as NodeJS.ErrnoException).code ?? 'it cannot be read')
    }
  }

  /**
   * A name for `?xsd=`: the file's name, made of the characters a query value
   * keeps as they are, numbered when taken.
   */
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
      const found = `{${definitions.namespaceURI ?? ''}}${definitions.localName as string}`
      throw new SOAP_ERR_CONTRACT_LOAD(doc.location,
        `its root is ${found}, not a WSDL 1.1 wsdl:definitions (WSDL 2.0 is not supported)`)
    }
    if (this.definitions.includes(definitions)) return
    this.definitions.push(definitions)
    for (const child of childElements(definitions)) {
      if (child.namespaceURI !== WSDL_NS) continue
      if (child.localName === 'import') {
        const location = attr(child, 'location')
        if (location === undefined) throw new SOAP_ERR_CONTRACT_LOAD(doc.location, 'a wsdl:import has no location')
        const imported = await this.fetch(location, doc)
        if (imported === undefined) continue
        this.links.push({ node: child, attribute: 'location', target: imported })
        const root = imported.dom.documentElement as DomElement
        if (root.namespaceURI === XSD_NS && root.localName === 'schema') await this.schema(root, imported, undefined)
        else await this.wsdl(imported)
      } else if (child.localName === 'types') {
        for (const schema of childElements(child)) {
          if (schema.namespaceURI !== XSD_NS) continue
          if (schema.localName === 'schema') await this.schema(schema, doc, undefined)
          // BP R2003 puts xs:import inside xs:schema; some generators write it
          // directly under wsdl:types: it is read, and served, inside one.
          else if (schema.localName === 'import' || schema.localName === 'include') {
            wrapInSchema(schema, await this.reference(schema, doc, TYPES_CONTEXT))
          }
        }
      }
    }
  }

  /**
   * One xs:schema element, then what it imports and includes. `chameleon` is
   * the includer's namespace for a schema that has none.
   */
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
      const isReference = child.localName === 'import' || child.localName === 'include'
      if (child.namespaceURI === XSD_NS && isReference) await this.reference(child, doc, context)
    }
  }

  /**
   * An xs:import or xs:include: the schema it names, loaded once, its location
   * rewritten when served.
   */
  private async reference (
    child: DomElement,
    doc: ContractDocument,
    context: Pick<SchemaContext, 'targetNamespace'>
  ): Promise<ContractDocument | undefined> {
    const location = attr(child, 'schemaLocation')
    const namespace = child.localName === 'import' ? attr(child, 'namespace') ?? '' : context.targetNamespace
    // The xml namespace's schema, imported with no location, is served all the
    // same: clients that would fetch it from www.w3.org get ours.
    if (location === undefined && !(namespace === XML_NS && child.localName === 'import')) {
      this.unlocated.push({ namespace, where: doc.location })
      return undefined
    }
    // An import of a well-known namespace by URL is never fetched: unless the
    // catalog maps it, the plugin's own copy of the namespace's schema is read,
    // and served (so that clients need not fetch it either); a namespace it has
    // no copy of is only known, and served with no location.
    let target: ContractDocument | undefined
    const unmappedUrl = location !== undefined &&
      URL_LOCATION.test(location) && this.catalog.lookup(location, location) === undefined
    if (child.localName === 'import' && (location === undefined || unmappedUrl)) {
      const copy = BUILT_IN.get(namespace)
      if (copy !== undefined) {
        target = this.builtIn(...copy)
      } else if (WELL_KNOWN.has(namespace)) {
        this.unlinked.push(child)
        return undefined
      }
    }
    target ??= await this.fetch(location as string, doc)
    if (target === undefined) return undefined
    this.links.push({ node: child, attribute: 'schemaLocation', target })
    const root = target.dom.documentElement as DomElement
    if (root.namespaceURI !== XSD_NS || root.localName !== 'schema') {
      throw new SOAP_ERR_CONTRACT_LOAD(target.location, 'it is imported as a schema and is no xs:schema')
    }
    const readAs = child.localName === 'include' ? context.targetNamespace : undefined
    const id = `${target.location} ${readAs ?? ''}`
    if (this.schemaSeen.has(id)) return target
    this.schemaSeen.add(id)
    await this.schema(root, target, readAs)
    return target
  }

  /**
   * The documents as served: each link to a loaded document rewritten to
   * `<address>?xsd=<name>`, and the given attributes (the served ports'
   * addresses) to `<address>`, the address left as the placeholder the
   * WSDL route fills in per request.
   */
  serve (
    addresses: ReadonlyArray<{ node: DomElement, attribute: string }>
  ): { document: string, schemas: Record<string, string> } {
    for (const node of this.unlinked) node.removeAttribute('schemaLocation')
    for (const link of this.links) {
      link.node.setAttribute(link.attribute, `${ADDRESS}?xsd=${link.target.name as string}`)
    }
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
