/**
 * docs/contract-first.md "The contract's folder", "Catalog", "Catalog file"
 * and "The WSDL served": where a contract's documents are read from (its
 * folder, the catalog, the resolver, the plugin's own copies of well-known
 * schemas), what is refused and how it is reported, and that what is served
 * names nothing outside the service.
 */
import { writeFileSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { spawnSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { test, type TestContext } from 'node:test'
import { DOMParser, type Element as DomElement } from '@xmldom/xmldom'
import Fastify from 'fastify'
import soap, { readContract, type ContractSource } from '../lib/index'
import { main } from '../lib/contract/cli'
import { CONTRACT_NS, CONTRACT_NS_U, contractWsdl, envelope, MEDIA, OP_TYPES, sharedFixture } from './helper'
import { CLIENTS, requireClient, runClient } from './interop'

const K = CONTRACT_NS
const U = CONTRACT_NS_U
const L = 'SOAP_ERR_CONTRACT_LOAD'
const C = 'SOAP_ERR_CONTRACT_INVALID'

/** A schema of the `urn:u` namespace, with one element. */
const U_XSD = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="${U}"><xs:element name="note" type="xs:string"/></xs:schema>`

/** A WSDL whose types import each location (the `urn:u` namespace), beside the default operation's types. */
function importing (...locations: string[]): string {
  return contractWsdl({ types: OP_TYPES + `<xs:schema targetNamespace="urn:imp">${locations.map((l) => `<xs:import namespace="${U}" schemaLocation="${l}"/>`).join('')}</xs:schema>` })
}

/** A fresh folder, removed when the test ends. */
async function folder (t: TestContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'fastify-soap-documents-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  return dir
}

/** The contract, refused at readContract() with `code` and a message matching `message`. */
async function refused (t: TestContext, source: ContractSource, code: string, message: RegExp): Promise<string> {
  let text = ''
  await t.assert.rejects(readContract(source), (err: Error & { code?: string }) => {
    t.assert.strictEqual(err.code, code, err.message)
    t.assert.match(err.message, message)
    text = err.message
    return true
  })
  return text
}

/** The CLI run in process. */
async function run (args: string[]): Promise<{ status: number, out: string, err: string }> {
  let out = ''
  let err = ''
  const status = await main(args, (text) => { out += text }, (text) => { err += text })
  return { status, out, err }
}

// ------------------------------------------------------- the contract's folder ---

test('docs/contract-first.md "The contract\'s folder": a file: URL in a document goes to the resolver or the catalog like any URL, never read from disk nor served; file://host/ and unparsable URLs are SOAP_ERR_CONTRACT_LOAD', async (t: TestContext) => {
  const dir = await folder(t)
  await mkdir(join(dir, 'private'))
  const secret = join(dir, 'private', 'private.xsd')
  await writeFile(secret, U_XSD.replace('name="note"', 'name="secret"'))
  await mkdir(join(dir, 'site'))
  const url = pathToFileURL(secret).href
  await writeFile(join(dir, 'site', 'c.wsdl'), importing(url))
  const wsdl = join(dir, 'site', 'c.wsdl')
  // Not read, and no resolver: refused, naming the URL.
  await refused(t, { wsdl }, L, new RegExp(`${url.replace(/[.]/g, '\\.')} cannot be loaded: .*c\\.wsdl names it by URL, and nothing is fetched over the network`))
  // The resolver gets the URL as it is, and what it gives is what is read and served.
  const asked: string[] = []
  const viaResolver = await readContract({ wsdl, resolver: (u: string) => { asked.push(u); return U_XSD } })
  t.assert.deepStrictEqual(asked, [url])
  t.assert.doesNotMatch(Object.values(viaResolver.wsdl.schemas).join(''), /secret/)
  // The catalog may map it to a file: the user's choice.
  const mapped = await readContract({ wsdl, catalog: { [url]: secret } })
  t.assert.match(Object.values(mapped.wsdl.schemas).join(''), /name="secret"/)
  // A file: URL with a host, and a URL that cannot be parsed: coded errors, not a TypeError.
  await refused(t, { document: importing('file://server.example/share/u.xsd') }, L, /file:\/\/server\.example\/share\/u\.xsd cannot be loaded: \(document\) names it by URL/)
  await refused(t, { document: importing('http://[::1/u.xsd') }, L, /http:\/\/\[::1\/u\.xsd cannot be loaded: \(document\) names it, and it is no URL that can be read/)
  // A relative location in a document read by a non-hierarchical URL resolves to nothing.
  const urn = contractWsdl({ types: OP_TYPES + `<xs:schema targetNamespace="urn:imp"><xs:import namespace="${U}" schemaLocation="urn:example:u"/></xs:schema>` })
  await refused(t, { document: urn, resolver: () => `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="${U}"><xs:include schemaLocation="more.xsd"/></xs:schema>` }, L, /more\.xsd cannot be loaded: urn:example:u names it, and it is no URL that can be read/)
  // The root WSDL's own file: URL must name a file of this machine.
  await refused(t, { wsdl: 'file://server.example/share/c.wsdl' }, L, /file:\/\/server\.example\/share\/c\.wsdl cannot be loaded: it is no file: URL of this machine/)
  // Served: the file's content never appears.
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.contract({ path: '/c', wsdl, resolver: () => U_XSD, operations: { Op: async () => ({ b: 'x' }) } })
  await app.ready()
  const served = (await app.inject({ method: 'GET', url: '/c?xsd=private.xsd' })).body
  t.assert.doesNotMatch(served, /secret/)
})

test('docs/contract-first.md "The contract\'s folder": relative and absolute paths outside the root WSDL\'s folder are SOAP_ERR_CONTRACT_LOAD unless the catalog maps them; "root" names a wider folder', async (t: TestContext) => {
  const dir = await folder(t)
  await mkdir(join(dir, 'wsdl', 'sub'), { recursive: true })
  await mkdir(join(dir, 'schema'))
  await writeFile(join(dir, 'schema', 'u.xsd'), U_XSD)
  await writeFile(join(dir, 'wsdl', 'sub', 'u.xsd'), U_XSD)
  const up = join(dir, 'wsdl', 'up.wsdl')
  await writeFile(up, importing('../schema/u.xsd'))
  const absolute = join(dir, 'wsdl', 'absolute.wsdl')
  await writeFile(absolute, importing(join(dir, 'schema', 'u.xsd')))
  const escaped = join(dir, 'wsdl', 'escaped.wsdl')
  await writeFile(escaped, importing('sub/../../schema/u.xsd'))
  for (const wsdl of [up, absolute, escaped]) {
    await refused(t, { wsdl }, L, new RegExp(`${join(dir, 'schema', 'u.xsd')} cannot be loaded: .* names it ".*u\\.xsd",( a path on the server the contract was published at,)? outside ${join(dir, 'wsdl')} \\(the folder the contract is read from; "root" widens it\\)`))
  }
  // Below the folder: read.
  const below = join(dir, 'wsdl', 'below.wsdl')
  await writeFile(below, importing('sub/u.xsd'))
  t.assert.deepStrictEqual(Object.keys((await readContract({ wsdl: below })).wsdl.schemas), ['u.xsd'])
  // "root", relative to the WSDL's folder, a path or a file: URL: read.
  for (const root of ['..', dir, pathToFileURL(dir)]) {
    t.assert.deepStrictEqual(Object.keys((await readContract({ wsdl: up, root })).wsdl.schemas), ['u.xsd'], String(root))
  }
  // A file the catalog maps to may be anywhere; what it names relative to itself stays in its own folder.
  t.assert.deepStrictEqual(Object.keys((await readContract({ wsdl: up, catalog: { '../schema/u.xsd': join(dir, 'schema', 'u.xsd') } })).wsdl.schemas), ['u.xsd'])
  await writeFile(join(dir, 'schema', 'outer.xsd'), `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="${U}"><xs:include schemaLocation="../wsdl/sub/u.xsd"/></xs:schema>`)
  await refused(t, { wsdl: up, catalog: { '../schema/u.xsd': join(dir, 'schema', 'outer.xsd') } }, L, /names it "\.\.\/wsdl\/sub\/u\.xsd", outside .*schema \(the folder the contract is read from/)
  // A wsdl:import is confined as well, and so is a document given as text: to its base.
  await writeFile(join(dir, 'wsdl', 'imports.wsdl'), contractWsdl({ extra: '<wsdl:import namespace="urn:x" location="../other.wsdl"/>' }))
  await refused(t, { wsdl: join(dir, 'wsdl', 'imports.wsdl') }, L, /other\.wsdl cannot be loaded: .*imports\.wsdl names it "\.\.\/other\.wsdl", outside/)
  await refused(t, { document: importing('../schema/u.xsd'), base: join(dir, 'wsdl') }, L, /names it "\.\.\/schema\/u\.xsd", outside/)
  t.assert.deepStrictEqual(Object.keys((await readContract({ document: importing('../schema/u.xsd'), base: join(dir, 'wsdl'), root: '..' })).wsdl.schemas), ['u.xsd'])
  // "root" is a folder: a path or a URL.
  for (const root of ['', 42]) await refused(t, { wsdl: up, root } as never, C, /"root" must be a folder: a path or a file: URL/)
  // fastify-soap types --root, the same.
  const cli = await run(['types', up])
  t.assert.strictEqual(cli.status, 1)
  t.assert.match(cli.err, /u\.xsd cannot be loaded: .* names it "\.\.\/schema\/u\.xsd", outside/)
  const widened = await run(['types', up, '--root', '..'])
  t.assert.strictEqual(widened.status, 0, widened.err)
  t.assert.match(widened.out, /^export type OpInput = /m)
  t.assert.match((await run(['--help'])).out, /--root <folder>/)
  // And the same through app.soap.contract().
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.contract({ path: '/up', wsdl: up, root: '..', operations: { Op: async () => ({ b: 'x' }) } })
  await app.ready()
  t.assert.strictEqual((await app.inject({ method: 'GET', url: '/up?xsd=u.xsd' })).statusCode, 200)
})

// ------------------------------------------------------------------- catalog ---

test('docs/contract-first.md "Catalog": several documents that cannot be read are one SOAP_ERR_CONTRACT_LOAD listing each, with the catalog line that maps it, and no resolver suggested', async (t: TestContext) => {
  const dir = await folder(t)
  const wsdl = join(dir, 'c.wsdl')
  await writeFile(wsdl, contractWsdl({
    types: OP_TYPES + `<xs:schema targetNamespace="urn:imp">
      <xs:import namespace="${U}" schemaLocation="http://schemas.example.test/u.xsd"/>
      <xs:import namespace="urn:v" schemaLocation="/cpl/v-1.2.xsd"/>
      <xs:import namespace="urn:w" schemaLocation="w.xsd"/>
      <xs:import namespace="urn:w" schemaLocation="w.xsd"/>
      <xs:import namespace="urn:x" schemaLocation="../x.xsd"/></xs:schema>`,
    extra: '<wsdl:import namespace="urn:y" location="https://h.example/y.wsdl?wsdl"/>'
  }))
  const message = await refused(t, { wsdl }, L, /c\.wsdl cannot be loaded: 5 documents it names cannot be read:\n/)
  const lines = message.split('\n').slice(1)
  t.assert.deepStrictEqual(lines.map((l) => /<system systemId="([^"]*)" uri="([^"]*)"\/>$/.exec(l)?.slice(1)), [
    ['https://h.example/y.wsdl?wsdl', './y.wsdl'],
    ['http://schemas.example.test/u.xsd', './u.xsd'],
    ['/cpl/v-1.2.xsd', './v-1.2.xsd'],
    ['w.xsd', './w.xsd'],
    ['../x.xsd', './x.xsd']
  ])
  t.assert.doesNotMatch(message, /resolver/)
  // The command says the same.
  const cli = await run(['types', wsdl])
  t.assert.strictEqual(cli.status, 1)
  t.assert.strictEqual(cli.err, message)
  // The lines, with their uri made real, are a catalog file that loads the contract.
  const catalog = `<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">${lines.map((l) => (/<system[^>]*>$/.exec(l) as RegExpExecArray)[0]).join('\n')}</catalog>`
  await writeFile(join(dir, 'catalog.xml'), catalog)
  await writeFile(join(dir, 'y.wsdl'), '<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" targetNamespace="urn:y"/>')
  for (const [name, ns] of [['u.xsd', U], ['v-1.2.xsd', 'urn:v'], ['w.xsd', 'urn:w'], ['x.xsd', 'urn:x']]) {
    await writeFile(join(dir, name), `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="${ns}"/>`)
  }
  const loaded = await readContract({ wsdl, catalog: join(dir, 'catalog.xml') })
  t.assert.deepStrictEqual(Object.keys(loaded.wsdl.schemas).sort(), ['u.xsd', 'v-1.2.xsd', 'w.xsd', 'x.xsd', 'y.wsdl'])
  // The command takes the same file.
  const typed = await run(['types', wsdl, '--catalog', join(dir, 'catalog.xml')])
  t.assert.strictEqual(typed.status, 0, typed.err)
  t.assert.match(typed.out, /^export type OpInput = /m)
})

test('docs/contract-first.md "Catalog file": an OASIS XML catalog (system, uri, rewriteSystem, rewriteURI, systemSuffix, uriSuffix, group), its paths relative to its own folder, is read by contract() and by fastify-soap types --catalog', async (t: TestContext) => {
  const dir = await folder(t)
  await mkdir(join(dir, 'wsdl'))
  await mkdir(join(dir, 'catalog', 'copies', 'mirror'), { recursive: true })
  const schema = (ns: string, element: string): string => `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="${ns}"><xs:element name="${element}" type="xs:string"/></xs:schema>`
  await writeFile(join(dir, 'catalog', 'copies', 'a.xsd'), schema('urn:a', 'a'))
  await writeFile(join(dir, 'catalog', 'copies', 'b.xsd'), schema('urn:b', 'b'))
  await writeFile(join(dir, 'catalog', 'copies', 'mirror', 'c.xsd'), schema('urn:c', 'c'))
  await writeFile(join(dir, 'catalog', 'copies', 'mirror', 'd.xsd'), schema('urn:d', 'd'))
  await writeFile(join(dir, 'catalog', 'copies', 'e.xsd'), schema('urn:e', 'e'))
  await writeFile(join(dir, 'catalog', 'copies', 'f.xsd'), schema('urn:f', 'f'))
  await writeFile(join(dir, 'catalog', 'catalog.xml'), `<?xml version="1.0"?>
<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog" prefer="system">
  <!-- as written, and as resolved -->
  <system systemId="/cpl/a-1.2.xsd" uri="copies/a.xsd"/>
  <uri name="http://schemas.example.test/b.xsd" uri="${pathToFileURL(join(dir, 'catalog', 'copies', 'b.xsd')).href}"/>
  <group>
    <rewriteSystem systemIdStartString="http://mirror.example/" rewritePrefix="copies/mirror/"/>
    <rewriteSystem systemIdStartString="http://mirror.example/deep/" rewritePrefix="copies/mirror/"/>
    <rewriteURI uriStartString="https://m.example/" rewritePrefix="${pathToFileURL(join(dir, 'catalog', 'copies', 'mirror')).href}/"/>
  </group>
  <systemSuffix systemIdSuffix="/e.xsd" uri="copies/e.xsd"/>
  <uriSuffix uriSuffix="f.xsd" uri="copies/f.xsd"/>
  <uriSuffix uriSuffix="/x/f.xsd" uri="copies/f.xsd"/>
  <other:entry xmlns:other="urn:other"/>
</catalog>`)
  const wsdl = join(dir, 'wsdl', 'c.wsdl')
  const imports: Array<[string, string]> = [['urn:a', '/cpl/a-1.2.xsd'], ['urn:b', 'http://schemas.example.test/b.xsd'], ['urn:c', 'http://mirror.example/deep/c.xsd'], ['urn:d', 'https://m.example/d.xsd'], ['urn:e', 'http://site.example/x/e.xsd'], ['urn:f', 'http://other.example/x/f.xsd']]
  await writeFile(wsdl, contractWsdl({
    types: `<xs:schema targetNamespace="${K}" elementFormDefault="qualified" xmlns:a="urn:a" xmlns:b="urn:b" xmlns:c="urn:c" xmlns:d="urn:d" xmlns:e="urn:e" xmlns:f="urn:f">
      ${imports.map(([ns, location]) => `<xs:import namespace="${ns}" schemaLocation="${location}"/>`).join('')}
      <xs:element name="Op"><xs:complexType><xs:sequence><xs:element ref="a:a"/><xs:element ref="b:b"/><xs:element ref="c:c"/><xs:element ref="d:d"/><xs:element ref="e:e"/><xs:element ref="f:f"/></xs:sequence></xs:complexType></xs:element>
      <xs:element name="OpResponse"><xs:complexType><xs:sequence/></xs:complexType></xs:element></xs:schema>`
  }))
  const catalog = join(dir, 'catalog', 'catalog.xml')
  const asFile = await readContract({ wsdl, catalog })
  const asUrl = await readContract({ wsdl, catalog: pathToFileURL(catalog) })
  t.assert.deepStrictEqual(Object.keys((asFile.operations.Op.input as { properties: object }).properties), ['a', 'b', 'c', 'd', 'e', 'f'])
  t.assert.deepStrictEqual(asUrl.operations, asFile.operations)
  // Served by app.soap.contract(), the imports rewritten to the copies.
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.contract({ path: '/cat', wsdl, catalog, operations: { Op: async () => ({}) } })
  await app.ready()
  const served = (await app.inject({ method: 'GET', url: '/cat?wsdl' })).body
  t.assert.deepStrictEqual([...served.matchAll(/schemaLocation="([^"]*)"/g)].map((m) => m[1].replace(/^.*\?xsd=/, '')), ['a.xsd', 'b.xsd', 'c.xsd', 'd.xsd', 'e.xsd', 'f.xsd'])
  // And by the command.
  const typed = await run(['types', wsdl, '--catalog', catalog])
  t.assert.strictEqual(typed.status, 0, typed.err)
  t.assert.match(typed.out, /"f": \{/)
  // A catalog file and entries together are refused; so is a second file.
  for (const args of [['--catalog', catalog, '--catalog', 'a=b'], ['--catalog', 'a=b', '--catalog', catalog], ['--catalog', catalog, '--catalog', catalog], ['--catalog', '']]) {
    const bad = await run(['types', wsdl, ...args])
    t.assert.strictEqual(bad.status, 2, args.join(' '))
    t.assert.match(bad.err, /--catalog takes one catalog file, or <location>=<file or URL> entries/)
  }
})

test('docs/contract-first.md "Catalog file": a catalog file that cannot be read, is not well-formed, has a DTD, or holds an entry the loader does not apply is refused, naming the file', async (t: TestContext) => {
  const dir = await folder(t)
  const file = join(dir, 'catalog.xml')
  const document = importing('/cpl/u.xsd')
  await refused(t, { document, catalog: join(dir, 'missing.xml') }, L, /missing\.xml cannot be loaded: ENOENT/)
  await refused(t, { document, catalog: 'file://server.example/catalog.xml' }, L, /file:\/\/server\.example\/catalog\.xml cannot be loaded: it is no file: URL of this machine/)
  const cases: Array<[string, string, RegExp]> = [
    ['<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">', L, /catalog\.xml cannot be loaded: it is not well-formed XML/],
    ['<!DOCTYPE catalog [<!ENTITY e "x">]><catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog"/>', L, /catalog\.xml cannot be loaded: it has a DOCTYPE/],
    ['<catalog/>', C, /catalog\.xml: the catalog's root is \{\}catalog, not \{urn:oasis:names:tc:entity:xmlns:xml:catalog\}catalog/],
    ['<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog"><nextCatalog catalog="more.xml"/></catalog>', C, /the catalog entry <nextCatalog> is not supported \(system, uri, rewriteSystem, rewriteURI, systemSuffix, uriSuffix and group are\)/],
    ['<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog"><toString/></catalog>', C, /the catalog entry <toString> is not supported/],
    ['<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog"><system systemId="/cpl/u.xsd"/></catalog>', C, /the catalog entry <system> needs systemId and uri/],
    ['<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog"><rewriteSystem systemIdStartString="" rewritePrefix="x/"/></catalog>', C, /the catalog entry <rewriteSystem> needs systemIdStartString and rewritePrefix/],
    ['<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog"><system systemId="/cpl/u.xsd" uri="file://server.example/u.xsd"/></catalog>', C, /the catalog maps to file:\/\/server\.example\/u\.xsd, which is no file: URL of this machine/],
    ['<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog"><rewriteSystem systemIdStartString="/cpl/" rewritePrefix="file://server.example/"/></catalog>', C, /the catalog maps to file:\/\/server\.example\/u\.xsd, which is no file: URL/]
  ]
  for (const [text, code, message] of cases) {
    await writeFile(file, text)
    await refused(t, { document, catalog: file }, code, message)
  }
  // The option's object is checked the same way.
  await refused(t, { document, catalog: { '/cpl/u.xsd': 'file://server.example/u.xsd' } }, C, /the catalog maps to file:\/\/server\.example\/u\.xsd, which is no file: URL of this machine/)
})

// ----------------------------------------------------------- what is served ---

const WSA = 'http://www.w3.org/2005/08/addressing'
const WSSE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd'
const WSU = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd'
const DS = 'http://www.w3.org/2000/09/xmldsig#'

/**
 * An ONVIF-style contract: a SOAP 1.2 binding whose schema imports the SOAP
 * 1.2 envelope by its URL (as ONVIF's onvif.xsd does), WS-Addressing,
 * WS-Security and the SOAP encoding by theirs, and uses a WS-Addressing type.
 */
const ONVIF_STYLE = `<?xml version="1.0" encoding="UTF-8"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/"
  xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tds="urn:device" targetNamespace="urn:device">
  <wsdl:types>
    <xs:schema targetNamespace="urn:device" elementFormDefault="qualified" xmlns:env="http://www.w3.org/2003/05/soap-envelope" xmlns:wsa="${WSA}" xmlns:wsse="${WSSE}">
      <xs:import namespace="http://www.w3.org/2003/05/soap-envelope" schemaLocation="https://www.w3.org/2003/05/soap-envelope"/>
      <xs:import namespace="${WSA}" schemaLocation="http://www.w3.org/2006/03/addressing/ws-addr.xsd"/>
      <xs:import namespace="${WSSE}" schemaLocation="${WSSE}"/>
      <xs:import namespace="http://schemas.xmlsoap.org/soap/encoding/" schemaLocation="http://schemas.xmlsoap.org/soap/encoding/"/>
      <xs:element name="GetDeviceInformation"><xs:complexType><xs:sequence>
        <xs:element name="Reply" type="wsa:AttributedURIType" minOccurs="0"/>
      </xs:sequence></xs:complexType></xs:element>
      <xs:element name="GetDeviceInformationResponse"><xs:complexType><xs:sequence>
        <xs:element name="Model" type="xs:string"/>
        <xs:element name="Relationship" type="wsa:RelationshipTypeOpenEnum" minOccurs="0"/>
      </xs:sequence></xs:complexType></xs:element>
    </xs:schema>
  </wsdl:types>
  <wsdl:message name="In"><wsdl:part name="parameters" element="tds:GetDeviceInformation"/></wsdl:message>
  <wsdl:message name="Out"><wsdl:part name="parameters" element="tds:GetDeviceInformationResponse"/></wsdl:message>
  <wsdl:portType name="Device"><wsdl:operation name="GetDeviceInformation"><wsdl:input message="tds:In"/><wsdl:output message="tds:Out"/></wsdl:operation></wsdl:portType>
  <wsdl:binding name="DeviceBinding" type="tds:Device"><soap12:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <wsdl:operation name="GetDeviceInformation"><soap12:operation soapAction="urn:device/GetDeviceInformation"/><wsdl:input><soap12:body use="literal"/></wsdl:input><wsdl:output><soap12:body use="literal"/></wsdl:output></wsdl:operation>
  </wsdl:binding>
  <wsdl:service name="DeviceService"><wsdl:port name="DevicePort" binding="tds:DeviceBinding"><soap12:address location="http://192.168.0.51/onvif/device_service"/></wsdl:port></wsdl:service>
</wsdl:definitions>`

const DEVICE_REPLY = { Model: 'C-1', Relationship: 'http://www.w3.org/2005/08/addressing/reply' }

/** Every document a contract at `path` serves (its WSDL, and each `?xsd=` it names, followed), by URL. */
async function servedDocuments (t: TestContext, app: ReturnType<typeof Fastify>, path: string, address: string): Promise<Map<string, string>> {
  const documents = new Map<string, string>()
  const queue = [`${address}?wsdl`]
  for (let n = 0; queue.length > 0 && n < 50; n++) {
    const url = queue.shift() as string
    if (documents.has(url)) continue
    const res = await app.inject({ method: 'GET', url: url.slice(url.indexOf(path)) })
    t.assert.strictEqual(res.statusCode, 200, url)
    documents.set(url, res.body)
    const dom = new DOMParser().parseFromString(res.body, 'text/xml')
    const elements = dom.getElementsByTagNameNS('*', '*')
    for (let i = 0; i < elements.length; i++) {
      const e = elements[i] as DomElement
      for (const name of ['location', 'schemaLocation']) {
        const value = e.getAttribute(name)
        if (value === null) continue
        t.assert.ok(value === address || value.startsWith(`${address}?xsd=`), `${url}: <${e.tagName} ${name}="${value}"> names a location outside the service`)
        if (value !== address) queue.push(value)
      }
    }
  }
  return documents
}

test('docs/contract-first.md "The WSDL served": no document served names a location outside the service: the SOAP 1.2 envelope, WS-Addressing, WS-Security, wsu and XML Signature schemas imported by URL are the plugin\'s copies, served; a well-known namespace it has no copy of is imported with no location', async (t: TestContext) => {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.contract({ path: '/device', document: ONVIF_STYLE, operations: { GetDeviceInformation: async () => DEVICE_REPLY } })
  await app.ready()
  const documents = await servedDocuments(t, app, '/device', 'http://localhost:80/device')
  t.assert.deepStrictEqual([...documents.keys()].map((u) => u.replace(/^.*\?/, '')).sort(), [
    'wsdl',
    'xsd=oasis-200401-wss-wssecurity-secext-1.0.xsd',
    'xsd=oasis-200401-wss-wssecurity-utility-1.0.xsd',
    'xsd=soap12-envelope.xsd',
    'xsd=ws-addr.xsd',
    'xsd=xml.xsd',
    'xsd=xmldsig-core-schema.xsd'
  ])
  // Each copy is the schema of its namespace, its licence notice kept.
  const byName = (name: string): string => documents.get(`http://localhost:80/device?xsd=${name}`) as string
  t.assert.match(byName('soap12-envelope.xsd'), /targetNamespace="http:\/\/www\.w3\.org\/2003\/05\/soap-envelope"[\s\S]*W3C Software License|W3C Software License[\s\S]*targetNamespace="http:\/\/www\.w3\.org\/2003\/05\/soap-envelope"/)
  t.assert.match(byName('ws-addr.xsd'), new RegExp(`W3C® Software License[\\s\\S]*targetNamespace="${WSA}"`))
  t.assert.match(byName('oasis-200401-wss-wssecurity-secext-1.0.xsd'), /Copyright © OASIS Open 2002-2004[\s\S]*targetNamespace="http:\/\/docs\.oasis-open\.org\/wss\/2004\/01\/oasis-200401-wss-wssecurity-secext-1\.0\.xsd"/)
  t.assert.match(byName('oasis-200401-wss-wssecurity-utility-1.0.xsd'), new RegExp(`Copyright © OASIS Open 2002-2004[\\s\\S]*targetNamespace="${WSU.replace(/\./g, '\\.')}"`))
  t.assert.match(byName('xmldsig-core-schema.xsd'), new RegExp(`W3C Software License[\\s\\S]*targetNamespace="${DS}"`))
  // The SOAP encoding import keeps its namespace and loses its location.
  t.assert.match(documents.get('http://localhost:80/device?wsdl') as string, /<xs:import namespace="http:\/\/schemas\.xmlsoap\.org\/soap\/encoding\/"\/>/)
  // The copies' types are the contract's: a reply that uses them is written.
  const call = async (): Promise<string> => (await app.inject({ method: 'POST', url: '/device', headers: { 'content-type': MEDIA['1.2'] }, payload: envelope('1.2', '<d:GetDeviceInformation xmlns:d="urn:device"/>') })).body
  t.assert.match(await call(), /<tns:Model>C-1<\/tns:Model><tns:Relationship>http:\/\/www\.w3\.org\/2005\/08\/addressing\/reply<\/tns:Relationship>/)
})

test('docs/contract-first.md "Catalog": the catalog is honoured for well-known namespaces too: an entry for the SOAP 1.2 envelope\'s URL is read and served in place of the plugin\'s copy', async (t: TestContext) => {
  const dir = await folder(t)
  const local = join(dir, 'env.xsd')
  await writeFile(local, `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="http://www.w3.org/2003/05/soap-envelope">
    <!-- the user's own copy -->
    <xs:simpleType name="faultcodeEnum"><xs:restriction base="xs:QName"/></xs:simpleType></xs:schema>`)
  await mkdir(join(dir, 'copies'))
  await writeFile(join(dir, 'copies', 'ws-addr.xsd'), `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="${WSA}">
    <!-- the user's WS-Addressing -->
    <xs:simpleType name="AttributedURIType"><xs:restriction base="xs:anyURI"/></xs:simpleType><xs:simpleType name="RelationshipTypeOpenEnum"><xs:restriction base="xs:anyURI"/></xs:simpleType></xs:schema>`)
  await writeFile(join(dir, 'catalog.xml'), `<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">
    <system systemId="https://www.w3.org/2003/05/soap-envelope" uri="env.xsd"/>
    <rewriteSystem systemIdStartString="http://www.w3.org/2006/03/addressing/" rewritePrefix="copies/"/>
  </catalog>`)
  const contract = await readContract({ document: ONVIF_STYLE, catalog: join(dir, 'catalog.xml') })
  t.assert.match(contract.wsdl.schemas['env.xsd'], /the user's own copy/)
  t.assert.match(contract.wsdl.schemas['ws-addr.xsd'], /the user's WS-Addressing/)
  t.assert.strictEqual(contract.wsdl.schemas['soap12-envelope.xsd'], undefined)
  t.assert.match(contract.wsdl.schemas['oasis-200401-wss-wssecurity-secext-1.0.xsd'], /OASIS/)
})

test('docs/contract-first.md "The WSDL served": zeep, reaching nothing but the service (a transport that refuses every other URL), loads an ONVIF-style contract that imports the SOAP 1.2 envelope, WS-Addressing and WS-Security by URL, and calls it', async (t: TestContext) => {
  if (!requireClient(t, 'zeep (python3-zeep)', '/usr/bin/python3', ['-c', 'import zeep'])) return
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.contract({ path: '/device', document: ONVIF_STYLE, operations: { GetDeviceInformation: async () => DEVICE_REPLY } })
  const url = await app.listen({ host: '127.0.0.1', port: 0 })
  const out = await runClient('/usr/bin/python3', [join(CLIENTS, 'contract_zeep.py'), JSON.stringify({ wsdl: `${url}/device?wsdl`, service: 'DeviceService', port: 'DevicePort', operation: 'GetDeviceInformation', args: {} })])
  t.assert.strictEqual(out.error, undefined, String(out.error))
  t.assert.deepStrictEqual(out.result, DEVICE_REPLY)
  t.assert.deepStrictEqual((out.loaded as string[]).map((u) => u.replace(url, '')).sort(), [
    '/device?wsdl',
    '/device?xsd=oasis-200401-wss-wssecurity-secext-1.0.xsd',
    '/device?xsd=oasis-200401-wss-wssecurity-utility-1.0.xsd',
    '/device?xsd=soap12-envelope.xsd',
    '/device?xsd=ws-addr.xsd',
    '/device?xsd=xml.xsd',
    '/device?xsd=xmldsig-core-schema.xsd'
  ])
})

/**
 * Asserts with xmllint that a served WSDL is valid WSDL 1.1, its inline schemas
 * included, and that each schema served at `?xsd=` is a valid schema document
 * (the schema for schemas). False when xmllint or the schemas are missing (the
 * test skipped, failed under CI).
 */
function assertValidServed (t: TestContext, dir: string, documents: ReadonlyMap<string, string>): boolean {
  if (!requireClient(t, 'xmllint (libxml2-utils)', 'xmllint', ['--version'])) return false
  const schemas = sharedFixture(t, 'schemas')
  if (schemas === undefined) return false
  let n = 0
  for (const [url, text] of documents) {
    const file = join(dir, `served-${n++}.xml`)
    writeFileSync(file, text)
    const grammar: string = url.endsWith('?wsdl') ? join(schemas, 'recipes', 'driver-wsdl11.xsd') : join(schemas, 'XMLSchema.xsd')
    const lint = spawnSync('xmllint', ['--noout', '--nonet', '--schema', grammar, file], { encoding: 'utf8', timeout: 30_000 })
    t.assert.strictEqual(lint.status, 0, `${url}: ${lint.stderr}`)
  }
  return true
}

test('docs/contract-first.md "Be liberal: what the reader repairs": an xs:import or xs:include written directly under wsdl:types (against WS-I BP R2003) is served inside an xs:schema, as it is read: the WSDL and its schemas are valid (xmllint), and zeep and node-soap load them and call', async (t: TestContext) => {
  const dir = await folder(t)
  await writeFile(join(dir, 'k.xsd'), `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:u="${U}" targetNamespace="${K}" elementFormDefault="qualified">
    <xs:import namespace="${U}"/>
    <xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="a" type="xs:string"/><xs:element ref="u:note"/></xs:sequence></xs:complexType></xs:element>
    <xs:element name="OpResponse"><xs:complexType><xs:sequence><xs:element name="b" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
  </xs:schema>`)
  await writeFile(join(dir, 'u.xsd'), U_XSD)
  await writeFile(join(dir, 'c.wsdl'), contractWsdl({ types: `<xs:import namespace="${K}" schemaLocation="k.xsd"/><xs:include schemaLocation="u.xsd"/>` }))
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  const got: unknown[] = []
  app.soap.contract({ path: '/bare', wsdl: join(dir, 'c.wsdl'), operations: { Op: async (input: { a: string, note: string }) => { got.push(input); return { b: input.a + input.note } } } })
  const address = await app.listen({ host: '127.0.0.1', port: 0 })
  const documents = await servedDocuments(t, app, '/bare', 'http://localhost:80/bare')
  t.assert.strictEqual(documents.size, 3)
  const wsdl = documents.get('http://localhost:80/bare?wsdl') as string
  t.assert.match(wsdl, new RegExp(`<xs:schema( [^>]*)?><xs:import namespace="${K}" schemaLocation="[^"]+\\?xsd=k\\.xsd"/></xs:schema>`))
  t.assert.match(wsdl, new RegExp(`<xs:schema targetNamespace="${U}"( [^>]*)?><xs:include schemaLocation="[^"]+\\?xsd=u\\.xsd"/></xs:schema>`))
  assertValidServed(t, dir, documents)
  if (requireClient(t, 'zeep (python3-zeep)', '/usr/bin/python3', ['-c', 'import zeep'])) {
    const out = await runClient('/usr/bin/python3', [join(CLIENTS, 'contract_zeep.py'), JSON.stringify({ wsdl: `${address}/bare?wsdl`, service: 'S', port: 'P', operation: 'Op', args: { a: 'x', note: 'y' } })])
    t.assert.strictEqual(out.error, undefined, String(out.error))
    t.assert.deepStrictEqual(out.result, 'xy')
  }
  const nodeSoap = await runClient(process.execPath, [join(__dirname, 'clients', 'contract-node-soap.js'), JSON.stringify({ wsdl: `${address}/bare?wsdl`, service: 'S', port: 'P', operation: 'Op', args: { a: 'x', note: 'z' } })])
  t.assert.strictEqual(nodeSoap.error, undefined, String(nodeSoap.error))
  t.assert.deepStrictEqual(nodeSoap.result, { b: 'xz' })
  t.assert.deepStrictEqual(got.slice(-1), [{ a: 'x', note: 'z' }])
})

// ----------------------------------------------------------------- the command ---

test('docs/contract-first.md "Types": fastify-soap types --help prints the usage and exits 0; --out creates the file\'s folder', async (t: TestContext) => {
  for (const args of [['types', '--help'], ['types', 'a.wsdl', '-h']]) {
    const help = await run(args)
    t.assert.strictEqual(help.status, 0, args.join(' '))
    t.assert.match(help.out, /^usage: fastify-soap types <contract\.wsdl>/)
    t.assert.strictEqual(help.err, '')
  }
  const dir = await folder(t)
  await writeFile(join(dir, 'u.xsd'), U_XSD)
  await writeFile(join(dir, 'c.wsdl'), importing('u.xsd'))
  const out = join(dir, 'new', 'deeper', 'types.ts')
  const written = await run(['types', join(dir, 'c.wsdl'), '--out', out])
  t.assert.strictEqual(written.status, 0, written.err)
  t.assert.match(await readFile(out, 'utf8'), /^export type OpInput = /m)
})
