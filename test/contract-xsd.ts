/**
 * A contract's XML Schemas as xmllint reads them, for tests that validate
 * messages against a contract's own XSD (test/samples.test.ts,
 * test/mock.test.ts), and requests for a mock's operations.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestContext } from 'node:test'
import { DOMParser, XMLSerializer, type Element as DomElement } from '@xmldom/xmldom'
import type { Contract } from '../lib/index'
import { sampleEnvelope } from '../lib/codec/sample'
import { requireXmllint } from './helper'

const XS = 'http://www.w3.org/2001/XMLSchema'
const WSDL = 'http://schemas.xmlsoap.org/wsdl/'
const SOAP_BINDINGS = new Set(['http://schemas.xmlsoap.org/wsdl/soap/', 'http://schemas.xmlsoap.org/wsdl/soap12/'])

const elements = (parent: DomElement, namespace: string, localName: string): DomElement[] =>
  Array.from(parent.childNodes).filter((c): c is DomElement => c.nodeType === 1 &&
    (c as DomElement).namespaceURI === namespace && (c as DomElement).localName === localName)
const qname = (node: DomElement, value: string): string => {
  const [prefix, local] = value.includes(':') ? value.split(':') : [null, value]
  return `{${node.lookupNamespaceURI(prefix) ?? ''}}${local}`
}

/**
 * A pattern written with an escape XML Schema has not (`\:`, `\/`: OCHP's), which xmllint refuses to compile, as
 * the contract reader reads it (docs/contract-first.md "The mapping", `pattern`): the character itself.
 */
function xsdEscapes (text: string): string {
  return text.replace(/(:pattern\s+value=")([^"]*)"/g, (_, start: string, value: string) =>
    `${start}${value.replace(/\\(.)/g, (escape, c: string) => /[nrt\\|.\-^?*+{}()[\]sSiIcCdDwWpP]/.test(c) ? escape : c)}"`)
}

/**
 * A sequence that breaks Unique Particle Attribution (XML Schema 1.0 Part 1 §3.8.6), which xmllint refuses to
 * compile, written as the one of the same language that does not: Exchange's ArrayOfTransitionsType repeats three
 * elements and then the head of their substitution group (A* B* C* T*, each of A, B, C able to stand for T), which
 * is T* alone. Runs of repeated optional references to members of the group of the repeated optional reference
 * that follows them are dropped.
 */
function unambiguous (text: string): string {
  const doc = new DOMParser().parseFromString(text, 'text/xml')
  const schema = doc.documentElement as DomElement
  if (schema.namespaceURI !== XS) return text
  const target = schema.getAttribute('targetNamespace') ?? ''
  const members = new Map<string, Set<string>>()
  for (const element of elements(schema, XS, 'element')) {
    const head = element.getAttribute('substitutionGroup')
    if (head === null || head === '') continue
    const key = qname(element, head)
    members.set(key, new Set([...members.get(key) ?? [], `{${target}}${element.getAttribute('name') ?? ''}`]))
  }
  const repeated = (particle: DomElement): boolean => particle.localName === 'element' &&
    particle.hasAttribute('ref') && particle.getAttribute('minOccurs') === '0' &&
    particle.getAttribute('maxOccurs') === 'unbounded'
  let changed = false
  for (const sequence of Array.from(doc.getElementsByTagNameNS(XS, 'sequence'))) {
    const particles = Array.from(sequence.childNodes).filter((c): c is DomElement => c.nodeType === 1)
    for (let i = particles.length - 1; i > 0; i--) {
      if (!repeated(particles[i])) continue
      const group = members.get(qname(particles[i], particles[i].getAttribute('ref') as string)) ?? new Set()
      for (let j = i - 1; j >= 0 && repeated(particles[j]) && group.has(qname(particles[j], particles[j].getAttribute('ref') as string)); j--) {
        sequence.removeChild(particles[j])
        changed = true
      }
    }
  }
  return changed ? new XMLSerializer().serializeToString(doc) : text
}

/**
 * The wrappers of rpc/literal operations (WSDL 1.1 §3.5, WS-I Basic Profile R2729, R2735), which no schema
 * declares, as schemas of their own namespaces: an element named by the operation (its output: + "Response") in
 * soap:body's namespace, holding one unqualified element per part, named by the part and of its type. The
 * namespaces of those types are added to `uses`.
 */
function rpcWrappers (definitions: readonly DomElement[], uses: Set<string>): Map<string, string[]> {
  const byName = (kind: string): Map<string, DomElement> => new Map(definitions.flatMap((d) => elements(d, WSDL, kind)
    .map((e) => [`{${d.getAttribute('targetNamespace') ?? ''}}${e.getAttribute('name') ?? ''}`, e] as const)))
  const messages = byName('message')
  const portTypes = byName('portType')
  const wrappers = new Map<string, Map<string, string>>()
  for (const binding of definitions.flatMap((d) => elements(d, WSDL, 'binding'))) {
    const soapBinding = Array.from(binding.childNodes).find((c): c is DomElement => c.nodeType === 1 && SOAP_BINDINGS.has((c as DomElement).namespaceURI ?? ''))
    if (soapBinding === undefined) continue
    const portType = portTypes.get(qname(binding, binding.getAttribute('type') ?? ''))
    for (const operation of elements(binding, WSDL, 'operation')) {
      const soapOperation = Array.from(operation.childNodes).find((c): c is DomElement => c.nodeType === 1 && (c as DomElement).localName === 'operation')
      const style = soapOperation?.getAttribute('style') || soapBinding.getAttribute('style') || 'document'
      if (style !== 'rpc') continue
      const name = operation.getAttribute('name') as string
      const abstract = elements(portType as DomElement, WSDL, 'operation').find((o) => o.getAttribute('name') === name) as DomElement
      for (const direction of ['input', 'output']) {
        const body = elements(operation, WSDL, direction).flatMap((d) => Array.from(d.childNodes))
          .find((c): c is DomElement => c.nodeType === 1 && (c as DomElement).localName === 'body')
        const io = elements(abstract, WSDL, direction)[0]
        if (body === undefined || io === undefined) continue
        const message = messages.get(qname(io, io.getAttribute('message') as string)) as DomElement
        const listed = body.getAttribute('parts')
        const parts = elements(message, WSDL, 'part').filter((p) => listed === null || listed === '' || listed.split(/\s+/).includes(p.getAttribute('name') as string))
        const namespace = body.getAttribute('namespace') ?? ''
        const prefixes = new Map<string, string>()
        const children = parts.map((part) => {
          const [, ns, local] = /^\{(.*)\}(.*)$/.exec(qname(part, part.getAttribute('type') as string)) as RegExpExecArray
          if (!prefixes.has(ns)) prefixes.set(ns, `p${prefixes.size}`)
          return `<xs:element name="${part.getAttribute('name') as string}" type="${prefixes.get(ns) as string}:${local}"/>`
        })
        const declarations = [...prefixes].map(([ns, prefix]) => ` xmlns:${prefix}="${ns}"`).join('')
        for (const ns of prefixes.keys()) if (ns !== XS && ns !== namespace) uses.add(ns)
        const wrapper = `${direction === 'output' ? `${name}Response` : name}`
        const own = wrappers.get(namespace) ?? new Map<string, string>()
        if (!own.has(wrapper)) own.set(wrapper, `<xs:element name="${wrapper}"${declarations}><xs:complexType><xs:sequence>${children.join('')}</xs:sequence></xs:complexType></xs:element>`)
        wrappers.set(namespace, own)
      }
    }
  }
  return new Map([...wrappers].map(([namespace, own]) => [namespace, [...own.values()]]))
}

/**
 * The contract's XML Schemas as files xmllint reads: each document it serves
 * (`?xsd=`) and each schema inline in its WSDL (with the namespaces declared
 * around it), their imports pointing at one another; the wrappers of its
 * rpc/literal operations (rpcWrappers()); and a driver that imports them (one per namespace, including the others of the
 * same namespace). What xmllint refuses to compile in a valid reading of the
 * schemas is written as the reader reads it (xsdEscapes(), unambiguous()).
 * Returns the driver's path.
 */
export function contractXsd (contract: Contract, dir: string): string {
  const files = new Map(Object.keys(contract.wsdl.schemas).map((name, i) => [name, `served${i}.xsd`]))
  // eslint-disable-next-line no-control-regex -- the served documents' address placeholder is U+0000
  const local = (text: string): string => text.replace(/\u0000\?xsd=([^"']*)/g, (_, name: string) => files.get(decodeURIComponent(name)) ?? name)
  for (const [name, text] of Object.entries(contract.wsdl.schemas)) writeFileSync(join(dir, files.get(name) as string), unambiguous(xsdEscapes(local(text))))
  const byNamespace = new Map<string, string[]>()
  const documents = [contract.wsdl.document, ...Object.values(contract.wsdl.schemas)]
  const definitions: DomElement[] = []
  let n = 0
  for (const text of documents) {
    const doc = new DOMParser().parseFromString(local(text), 'text/xml')
    const root = doc.documentElement as DomElement
    if (root.namespaceURI !== WSDL) continue
    definitions.push(root)
    for (const types of Array.from(root.getElementsByTagNameNS(WSDL, 'types'))) {
      for (const schema of Array.from(types.childNodes).filter((c): c is DomElement => c.nodeType === 1 && (c as DomElement).namespaceURI === XS)) {
        const own = new XMLSerializer().serializeToString(schema)
        const start = own.slice(0, own.indexOf('>'))
        const declared = Array.from(root.attributes).filter((a) => a.name.startsWith('xmlns') && !start.includes(` ${a.name}=`))
        const opening = /^<[^\s>/]+/.exec(own)?.[0] as string
        const file = `inline${n++}.xsd`
        writeFileSync(join(dir, file), unambiguous(xsdEscapes(opening + declared.map((a) => ` ${a.name}="${a.value}"`).join('') + own.slice(opening.length))))
        const namespace = schema.getAttribute('targetNamespace') ?? ''
        byNamespace.set(namespace, [...byNamespace.get(namespace) ?? [], file])
      }
    }
  }
  const uses = new Set<string>(byNamespace.keys())
  const extra = rpcWrappers(definitions, uses)
  for (const [namespace, declarations] of extra) {
    const file = `extra${n++}.xsd`
    const imports = [...uses].filter((ns) => ns !== namespace).map((ns) => `<xs:import namespace="${ns}"/>`).join('')
    writeFileSync(join(dir, file), `<xs:schema xmlns:xs="${XS}" targetNamespace="${namespace}">${imports}${declarations.join('')}</xs:schema>`)
    byNamespace.set(namespace, [...byNamespace.get(namespace) ?? [], file])
  }
  const imports = [...byNamespace].map(([namespace, list], i) => {
    let location = list[0]
    if (list.length > 1) {
      location = `namespace${i}.xsd`
      writeFileSync(join(dir, location), `<xs:schema xmlns:xs="${XS}" targetNamespace="${namespace}">${list.map((f) => `<xs:include schemaLocation="${f}"/>`).join('')}</xs:schema>`)
    }
    return `<xs:import namespace="${namespace}" schemaLocation="${location}"/>`
  })
  writeFileSync(join(dir, 'driver.xsd'), `<xs:schema xmlns:xs="${XS}" targetNamespace="urn:fastify-soap:driver">${imports.join('')}</xs:schema>`)
  return join(dir, 'driver.xsd')
}

/** The Body's element of an answer, as a document of its own. */
export function bodyElement (xml: string): string {
  const doc = new DOMParser().parseFromString(xml, 'text/xml')
  const body = Array.from(doc.documentElement?.childNodes ?? []).find((n) => (n as DomElement).localName === 'Body') as DomElement
  const element = Array.from(body.childNodes).find((n) => n.nodeType === 1) as DomElement
  return new XMLSerializer().serializeToString(element)
}

/** A request for an operation of the contract: a sample of its input, with the action its binding states. */
export function mockRequest (contract: Contract, operation: string, headers: Record<string, string> = {}, body?: string): { method: 'POST', url: string, headers: Record<string, string>, payload: string } {
  const op = contract.operations[operation]
  const version = contract.bindings[0].version
  const payload = body ?? sampleEnvelope(op.input, version, { rich: true })
  const type: Record<string, string> = version === '1.1' ? { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${op.action}"` } : { 'content-type': `application/soap+xml; charset=utf-8; action="${op.action}"` }
  return { method: 'POST', url: '/mock', headers: { ...type, ...headers }, payload }
}

/** Validates answers' Body elements against the contract's XSD in one xmllint run; the names of those that fail. */
export function invalidAgainstXsd (t: TestContext, contract: Contract, answers: ReadonlyArray<[string, string]>): string[] | undefined {
  if (!requireXmllint(t)) return undefined
  const dir = mkdtempSync(join(tmpdir(), 'mock-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const driver = contractXsd(contract, dir)
  const files = answers.map(([, xml], i) => {
    writeFileSync(join(dir, `${i}.xml`), bodyElement(xml))
    return join(dir, `${i}.xml`)
  })
  const result = spawnSync('xmllint', ['--noout', '--nonet', '--schema', driver, ...files], { encoding: 'utf8', timeout: 60_000 })
  t.assert.ok(result.status === 0 || / fails to validate/.test(result.stderr), result.stderr.slice(0, 2000))
  return result.stderr.split('\n').filter((l) => / fails to validate$/.test(l)).map((l) => answers[Number(/(\d+)\.xml fails/.exec(l)?.[1])][0])
}
