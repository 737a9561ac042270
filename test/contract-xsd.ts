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

/**
 * The contract's XML Schemas as files xmllint reads: each document it serves
 * (`?xsd=`) and each schema inline in its WSDL (with the namespaces declared
 * around it), their imports pointing at one another; and a driver that
 * imports the inline ones (one per namespace, including the others of the same
 * namespace). Returns the driver's path.
 */
export function contractXsd (contract: Contract, dir: string): string {
  const files = new Map(Object.keys(contract.wsdl.schemas).map((name, i) => [name, `served${i}.xsd`]))
  // eslint-disable-next-line no-control-regex -- the served documents' address placeholder is U+0000
  const local = (text: string): string => text.replace(/\u0000\?xsd=([^"']*)/g, (_, name: string) => files.get(decodeURIComponent(name)) ?? name)
  for (const [name, text] of Object.entries(contract.wsdl.schemas)) writeFileSync(join(dir, files.get(name) as string), local(text))
  const byNamespace = new Map<string, string[]>()
  const documents = [contract.wsdl.document, ...Object.values(contract.wsdl.schemas)]
  let n = 0
  for (const text of documents) {
    const doc = new DOMParser().parseFromString(local(text), 'text/xml')
    const definitions = doc.documentElement as DomElement
    if (definitions.namespaceURI !== WSDL) continue
    for (const types of Array.from(definitions.getElementsByTagNameNS(WSDL, 'types'))) {
      for (const schema of Array.from(types.childNodes).filter((c): c is DomElement => c.nodeType === 1 && (c as DomElement).namespaceURI === XS)) {
        const own = new XMLSerializer().serializeToString(schema)
        const start = own.slice(0, own.indexOf('>'))
        const declared = Array.from(definitions.attributes).filter((a) => a.name.startsWith('xmlns') && !start.includes(` ${a.name}=`))
        const opening = /^<[^\s>/]+/.exec(own)?.[0] as string
        const file = `inline${n++}.xsd`
        writeFileSync(join(dir, file), opening + declared.map((a) => ` ${a.name}="${a.value}"`).join('') + own.slice(opening.length))
        const namespace = schema.getAttribute('targetNamespace') ?? ''
        byNamespace.set(namespace, [...byNamespace.get(namespace) ?? [], file])
      }
    }
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
