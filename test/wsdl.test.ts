/**
 * The WSDL and XSD generated from a service (docs/wsdl.md; docs/protocol.md "GET"):
 * the route and its answers, the document's shape (WS-I Basic Profile 1.1),
 * validation with xmllint against the WSDL 1.1, SOAP binding and XML Schema
 * schemas, and the XSD's agreement with the codec: what the codec writes
 * validates, and what the codec refuses the XSD refuses too.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import { DOMParser } from '@xmldom/xmldom'
import fc from 'fast-check'
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import soap, { type SoapServiceDefinition, type SoapVersion } from '../lib/index'
import { buildDemo, calculator, orders, secureCalculator } from './demo/app'
import { MEDIA, SOAP11_ENV, SOAP12_ENV, assertEmpty, envelope, listen, post, rawExchange, serviceApp, sharedFixture } from './helper'
import { requireClient } from './interop'

const WSDL_NS = 'http://schemas.xmlsoap.org/wsdl/'
const XS_NS = 'http://www.w3.org/2001/XMLSchema'
const HOST = 'soap.example.test:8443'

async function build (t: TestContext, definition: SoapServiceDefinition, options: FastifyServerOptions = {}): Promise<FastifyInstance> {
  return await serviceApp(t, definition, options)
}

async function get (app: FastifyInstance, url: string, headers: Record<string, string> = {}): Promise<Awaited<ReturnType<FastifyInstance['inject']>>> {
  return await app.inject({ method: 'GET', url, headers: { host: HOST, ...headers } })
}

function parse (xml: string): Document {
  return new DOMParser().parseFromString(xml, 'text/xml') as unknown as Document
}

function all (doc: Document | Element, ns: string, local: string): Element[] {
  return Array.from(doc.getElementsByTagNameNS(ns, local))
}

/**
 * xmllint and the W3C / xmlsoap schemas (../shared/fixtures/schemas): the
 * schemas' folder, or undefined with the test skipped (failed under CI).
 */
function xmllint (t: TestContext): string | undefined {
  if (!requireClient(t, 'xmllint (libxml2-utils)', 'xmllint', ['--version'])) return undefined
  return sharedFixture(t, 'schemas')
}

/**
 * The WSDL 1.1 schema, both SOAP binding schemas and the schema for schemas
 * in one grammar (wsdl.xsd first: the binding schemas import its namespace
 * without a location), so that one xmllint run checks a WSDL's structure, its
 * binding elements and each xs:schema inside wsdl:types.
 */
function wsdlDriver (schemas: string): string {
  return join(schemas, 'recipes', 'driver-wsdl11.xsd')
}

/** Runs xmllint --nonet --noout on files; the exit status and what it printed. */
function lint (args: readonly string[]): { status: number | null, output: string } {
  const result = spawnSync('xmllint', ['--noout', '--nonet', ...args], { encoding: 'utf8', timeout: 30_000 })
  return { status: result.status, output: result.stderr }
}

/**
 * Asserts that a WSDL validates against WSDL 1.1, both SOAP binding schemas
 * and the schema for schemas (xmllint). Returns the schemas' folder and a
 * temporary folder for the messages to validate next; undefined when xmllint
 * or the schemas are not there (the test skipped, failed under CI).
 */
function assertValidWsdl (t: TestContext, wsdl: string): { schemas: string, dir: string } | undefined {
  const schemas = xmllint(t)
  if (schemas === undefined) return undefined
  const dir = tempDir(t)
  const file = join(dir, 'service.wsdl')
  writeFileSync(file, wsdl)
  const result = lint(['--schema', wsdlDriver(schemas), file])
  t.assert.strictEqual(result.status, 0, result.output)
  return { schemas, dir }
}

function tempDir (t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'fastify-soap-wsdl-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/**
 * Writes a service's schemas (as `?xsd=` serves them, with their imports
 * pointed at the files) and a driver schema importing the envelope schema of
 * `version` (from `schemas`) and all of them, so that xmllint validates a
 * whole message, Body payload and fault detail included.
 */
async function messageSchema (t: TestContext, app: FastifyInstance, path: string, version: SoapVersion, dir: string, schemas: string): Promise<string> {
  const wsdl = parse((await get(app, `${path}?wsdl`)).body)
  // Inline, each xs:schema names its namespace; split out, one xs:schema imports them all.
  const named = [...all(wsdl, XS_NS, 'schema').map((s) => s.getAttribute('targetNamespace')), ...all(wsdl, XS_NS, 'import').map((i) => i.getAttribute('namespace'))]
  const namespaces = [...new Set(named.filter((n) => n !== null && n !== ''))] as string[]
  const prefixes = all(wsdl, WSDL_NS, 'definitions')[0]
  const imports: string[] = []
  for (const namespace of namespaces) {
    const name = Array.from(prefixes.attributes).find((a) => a.value === namespace && a.name.startsWith('xmlns:'))?.name.slice(6) as string
    const response = await get(app, `${path}?xsd=${name}`)
    t.assert.strictEqual(response.statusCode, 200, `?xsd=${name}`)
    const text = response.body.replaceAll(`http://${HOST}${path}?xsd=`, join(dir, 'xsd-')).replace(/(schemaLocation="[^"]*xsd-[A-Za-z0-9]+)"/g, '$1.xsd"')
    writeFileSync(join(dir, `xsd-${name}.xsd`), text)
    imports.push(`<xs:import namespace="${namespace}" schemaLocation="${join(dir, `xsd-${name}.xsd`)}"/>`)
  }
  const envelopeSchema = join(schemas, version === '1.1' ? 'soap-envelope-1.1.xsd' : 'soap-envelope-1.2.xsd')
  const driver = join(dir, `driver-${version}.xsd`)
  writeFileSync(driver, `<xs:schema xmlns:xs="${XS_NS}" targetNamespace="urn:local:driver"><xs:import namespace="${version === '1.1' ? SOAP11_ENV : SOAP12_ENV}" schemaLocation="${envelopeSchema}"/>${imports.join('')}</xs:schema>`)
  return driver
}

function validateMessage (driver: string, dir: string, xml: string, name: string): { status: number | null, output: string } {
  const file = join(dir, `${name}.xml`)
  writeFileSync(file, xml)
  return lint(['--schema', driver, file])
}

// ----------------------------------------------------------------- route ---

test('docs/protocol.md "GET": GET <path>?wsdl answers 200 text/xml; charset=utf-8 with the WSDL 1.1 of the service, its ports at the request\'s address', async (t: TestContext) => {
  const app = await build(t, calculator)
  const response = await get(app, '/calculator?wsdl')
  t.assert.strictEqual(response.statusCode, 200)
  t.assert.strictEqual(response.headers['content-type'], 'text/xml; charset=utf-8')
  t.assert.strictEqual(Number(response.headers['content-length']), Buffer.byteLength(response.body))
  const doc = parse(response.body)
  t.assert.strictEqual(doc.documentElement.namespaceURI, WSDL_NS)
  t.assert.strictEqual(doc.documentElement.localName, 'definitions')
  t.assert.strictEqual(doc.documentElement.getAttribute('targetNamespace'), 'urn:example:calc')
  const locations = [...all(doc, 'http://schemas.xmlsoap.org/wsdl/soap/', 'address'), ...all(doc, 'http://schemas.xmlsoap.org/wsdl/soap12/', 'address')].map((a) => a.getAttribute('location'))
  t.assert.deepStrictEqual(locations, [`http://${HOST}/calculator`, `http://${HOST}/calculator`])
})

test('docs/protocol.md "GET": ?WSDL in any case and with other parameters is the WSDL; HEAD answers its headers', async (t: TestContext) => {
  const app = await build(t, calculator)
  const wsdl = (await get(app, '/calculator?wsdl')).body
  for (const url of ['/calculator?WSDL', '/calculator?Wsdl=', '/calculator?wsdl&x=1']) {
    const response = await get(app, url)
    t.assert.strictEqual(response.statusCode, 200, url)
    t.assert.strictEqual(response.body, wsdl, url)
  }
  const head = await app.inject({ method: 'HEAD', url: '/calculator?wsdl', headers: { host: HOST } })
  t.assert.strictEqual(head.statusCode, 200)
  t.assert.strictEqual(head.body, '')
  t.assert.strictEqual(head.headers['content-type'], 'text/xml; charset=utf-8')
})

test('RFC 9110 §13.1.2: the WSDL carries an ETag; If-None-Match with it (or *, or a list holding it, or its weak form) gives 304 with no body', async (t: TestContext) => {
  const app = await build(t, calculator)
  const first = await get(app, '/calculator?wsdl')
  const etag = first.headers.etag as string
  t.assert.match(etag, /^"[A-Za-z0-9_-]+"$/)
  t.assert.strictEqual((await get(app, '/calculator?wsdl')).headers.etag, etag, 'the same document has the same tag')
  for (const ifNoneMatch of [etag, '*', `"other", ${etag}`, `W/${etag}`]) {
    const response = await get(app, '/calculator?wsdl', { 'if-none-match': ifNoneMatch })
    t.assert.strictEqual(response.statusCode, 304, ifNoneMatch)
    t.assert.strictEqual(response.body, '')
    t.assert.strictEqual(response.headers.etag, etag)
  }
  t.assert.strictEqual((await get(app, '/calculator?wsdl', { 'if-none-match': '"other"' })).statusCode, 200)
  // Another address is another document, with another tag.
  const other = await get(app, '/calculator?wsdl', { host: 'other.test' })
  t.assert.notStrictEqual(other.headers.etag, etag)
  t.assert.strictEqual((await get(app, '/calculator?wsdl', { host: 'other.test', 'if-none-match': etag })).statusCode, 200)
})

test('docs/protocol.md "GET": the address follows Host; X-Forwarded-Proto and -Host only when Fastify\'s trustProxy is on', async (t: TestContext) => {
  const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'public.example.com' }
  const plain = await build(t, calculator)
  t.assert.match((await get(plain, '/calculator?wsdl', forwarded)).body, new RegExp(`location="http://${HOST}/calculator"`))
  const proxied = await build(t, calculator, { trustProxy: true })
  const body = (await get(proxied, '/calculator?wsdl', forwarded)).body
  t.assert.match(body, /<soap:address location="https:\/\/public\.example\.com\/calculator"\/>/)
  t.assert.match(body, /<soap12:address location="https:\/\/public\.example\.com\/calculator"\/>/)
})

test('docs/protocol.md "GET": the `address` option fixes the address, whatever the request says; the prefix is part of the path', async (t: TestContext) => {
  const fixed = await build(t, { ...calculator, wsdl: { address: 'https://api.example.com/soap/calc' } })
  const body = (await get(fixed, '/calculator?wsdl', { host: 'ignored.test' })).body
  t.assert.strictEqual(body.match(/location="https:\/\/api\.example\.com\/soap\/calc"/g)?.length, 2)

  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  await app.register(async (scope) => { scope.soap.service(calculator) }, { prefix: '/v1' })
  t.assert.match((await get(app, '/v1/calculator?wsdl')).body, new RegExp(`location="http://${HOST}/v1/calculator"`))
})

test('docs/protocol.md "GET": a Host that is no host (or none, with no `address`) cannot make an address: 400 with no body', async (t: TestContext) => {
  const app = await build(t, calculator)
  for (const host of ['bad host', 'a"b', 'x<y>', 'h:99999x']) {
    assertEmpty(t, await get(app, '/calculator?wsdl', { host }), 400)
  }
  // HTTP/1.0 may leave Host out.
  const [raw] = await rawExchange(await listen(app), 'GET /calculator?wsdl HTTP/1.0\r\n\r\n', 1)
  t.assert.strictEqual(raw.status, 400)
  t.assert.strictEqual(raw.headers['content-length'], '0')
  // [::1] and a port are a host
  t.assert.strictEqual((await get(app, '/calculator?wsdl', { host: '[::1]:8080' })).statusCode, 200)
})

test('docs/protocol.md "GET": GET <path> without ?wsdl or ?xsd=, or ?xsd= naming no schema, is 404 with no body', async (t: TestContext) => {
  const app = await build(t, calculator)
  for (const url of ['/calculator', '/calculator?x=1', '/calculator?xsd=nope', '/calculator?xsd=', '/calculator?xsd=tns&xsd=tns', '/calculator?xsd=__proto__', '/calculator?xsd=constructor']) {
    assertEmpty(t, await get(app, url), 404)
  }
})

test('docs/protocol.md "Other answers": with the WSDL served, the path allows GET, HEAD and POST (405 lists them); wsdl: false keeps POST only', async (t: TestContext) => {
  const app = await build(t, calculator)
  const put = await app.inject({ method: 'PUT', url: '/calculator', headers: { host: HOST } })
  t.assert.strictEqual(put.statusCode, 405)
  t.assert.strictEqual(put.headers.allow, 'GET, HEAD, POST')
  const none = await build(t, { ...calculator, wsdl: false })
  const answer = await get(none, '/calculator?wsdl')
  t.assert.strictEqual(answer.statusCode, 405)
  t.assert.strictEqual(answer.headers.allow, 'POST')
})

test('Declaration: a bad `wsdl` key fails ready() with SOAP_ERR_SERVICE_INVALID naming it', async (t: TestContext) => {
  for (const [wsdl, message] of [
    ['yes', /"wsdl" must be false, true or an object/],
    [{ adress: 'x' }, /unknown key "adress"/],
    [{ address: 'ftp://x/y' }, /\.address must be an absolute http or https URL/],
    [{ address: '/relative' }, /\.address must be an absolute/],
    [{ splitSchemas: 'yes' }, /\.splitSchemas must be a boolean/],
    [{ document: '' }, /\.document must be a non-empty string/],
    [{ schemas: { a: '<x/>' } }, /\.schemas goes with \.document/],
    [{ document: '<x/>', schemas: 'types.xsd' }, /\.schemas must map names to XML Schema documents/],
    [{ document: '<x/>', schemas: { '../a': '<x/>' } }, /\.schemas: "\.\.\/a" must be a name/]
  ] as const) {
    const app = Fastify()
    t.after(() => app.close())
    await app.register(soap)
    app.soap.service({ ...calculator, wsdl: wsdl as never })
    const err = await app.ready().then(() => undefined, (e: Error & { code?: string }) => e)
    t.assert.strictEqual(err?.code, 'SOAP_ERR_SERVICE_INVALID', JSON.stringify(wsdl))
    t.assert.match(err.message, message)
  }
})

test('docs/wsdl.md: a hand-written WSDL and its schemas are served as given, with ETags', async (t: TestContext) => {
  const document = '<?xml version="1.0"?><wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" targetNamespace="urn:hand"/>'
  const types = '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:hand"/>'
  const app = await build(t, { ...calculator, wsdl: { document, schemas: { 'types.xsd': types } } })
  const wsdl = await get(app, '/calculator?wsdl')
  t.assert.strictEqual(wsdl.body, document)
  t.assert.strictEqual(wsdl.headers['content-type'], 'text/xml; charset=utf-8')
  t.assert.strictEqual((await get(app, '/calculator?xsd=types.xsd')).body, types)
  t.assert.strictEqual((await get(app, '/calculator?wsdl', { 'if-none-match': wsdl.headers.etag as string })).statusCode, 304)
  assertEmpty(t, await get(app, '/calculator?xsd=tns'), 404)
})

// -------------------------------------------------------- the document ---

test('WS-I BP 1.1: document/literal only; one part per message naming an element; each soapAction is the action dispatch accepts, in both bindings', async (t: TestContext) => {
  const app = await build(t, { ...calculator, strictAction: true })
  const doc = parse((await get(app, '/calculator?wsdl')).body)
  for (const body of [...all(doc, 'http://schemas.xmlsoap.org/wsdl/soap/', 'body'), ...all(doc, 'http://schemas.xmlsoap.org/wsdl/soap12/', 'body')]) {
    t.assert.strictEqual(body.getAttribute('use'), 'literal')
  }
  for (const binding of [...all(doc, 'http://schemas.xmlsoap.org/wsdl/soap/', 'binding'), ...all(doc, 'http://schemas.xmlsoap.org/wsdl/soap12/', 'binding')]) {
    t.assert.strictEqual(binding.getAttribute('style'), 'document')
    t.assert.strictEqual(binding.getAttribute('transport'), 'http://schemas.xmlsoap.org/soap/http')
  }
  const messages = all(doc, WSDL_NS, 'message')
  const elements = messages.map((m) => all(m, WSDL_NS, 'part').map((p) => p.getAttribute('element')))
  for (const parts of elements) t.assert.ok(parts.length === 1 && parts[0] !== null, 'R2201/R2204: one part, by element')
  t.assert.strictEqual(new Set(elements.flat()).size, elements.length, 'R2710: no two messages share a Body element')
  // Each operation's soapAction, sent as the action with strictAction on, is accepted.
  for (const version of ['1.1', '1.2'] as const) {
    const ns = version === '1.1' ? 'http://schemas.xmlsoap.org/wsdl/soap/' : 'http://schemas.xmlsoap.org/wsdl/soap12/'
    const actions = all(doc, ns, 'operation').map((o) => [(o.parentNode as Element).getAttribute('name') as string, o.getAttribute('soapAction') as string])
    t.assert.deepStrictEqual(actions.map(([op]) => op), ['Add', 'Echo', 'Divide'])
    for (const [op, action] of actions) {
      const body = op === 'Echo' ? '<c:Echo xmlns:c="urn:example:calc"><c:text>x</c:text></c:Echo>' : `<c:${op} xmlns:c="urn:example:calc"><c:a>6</c:a><c:b>3</c:b></c:${op}>`
      const headers: Record<string, string> = version === '1.1' ? { soapaction: `"${action}"` } : {}
      const contentType = version === '1.2' ? `${MEDIA[version]}; action="${action}"` : MEDIA[version]
      const response = await post(app, version, envelope(version, body), { url: '/calculator', contentType, headers })
      t.assert.strictEqual(response.statusCode, 200, `${version} ${op}: ${response.body}`)
    }
  }
})

test('WSDL: a one-way operation has an input only; declared faults appear in the portType and both bindings; header blocks are soap:header parts', async (t: TestContext) => {
  const app = await buildDemo()
  t.after(() => app.close())
  const doc = parse((await get(app, '/orders?wsdl')).body)
  const portType = all(doc, WSDL_NS, 'portType')[0]
  const ops = new Map(all(portType, WSDL_NS, 'operation').map((o) => [o.getAttribute('name'), o]))
  const cancel = ops.get('CancelOrder') as Element
  t.assert.strictEqual(all(cancel, WSDL_NS, 'input').length, 1)
  t.assert.strictEqual(all(cancel, WSDL_NS, 'output').length, 0, 'BP R2714: one-way, answered 202')
  const fault = all(ops.get('GetOrder') as Element, WSDL_NS, 'fault')
  t.assert.deepStrictEqual(fault.map((f) => [f.getAttribute('name'), f.getAttribute('message')]), [['OrderNotFound', 'tns:OrderNotFoundFault']])
  t.assert.strictEqual(all(doc, 'http://schemas.xmlsoap.org/wsdl/soap/', 'fault').length, 1)
  t.assert.strictEqual(all(doc, 'http://schemas.xmlsoap.org/wsdl/soap12/', 'fault').length, 1)
  const headers = all(doc, 'http://schemas.xmlsoap.org/wsdl/soap/', 'header').map((h) => [h.getAttribute('message'), h.getAttribute('part'), h.getAttribute('use')])
  t.assert.deepStrictEqual(headers, [['tns:PlaceOrderHeaders', 'Tenant', 'literal'], ['tns:GetOrderHeaders', 'Tenant', 'literal']])
})

// ------------------------------------------------------------- xmllint ---

test('docs/wsdl.md "The document", xmllint: the demo\'s WSDLs (schemas inline, and split out) validate against WSDL 1.1, both SOAP binding schemas and the schema for schemas', async (t: TestContext) => {
  const schemas = xmllint(t)
  if (schemas === undefined) return
  const dir = tempDir(t)
  for (const split of [false, true]) {
    const app = Fastify()
    t.after(() => app.close())
    await app.register(soap)
    app.soap.service({ ...calculator, wsdl: { splitSchemas: split } })
    app.soap.service({ ...orders(), wsdl: { splitSchemas: split } })
    app.soap.service({ ...secureCalculator, wsdl: { splitSchemas: split } })
    await app.ready()
    for (const path of ['/calculator', '/orders', '/secure/calculator']) {
      const file = join(dir, `${path.slice(1).replaceAll('/', '-')}-${split}.wsdl`)
      writeFileSync(file, (await get(app, `${path}?wsdl`)).body)
      const result = lint(['--schema', wsdlDriver(schemas), file])
      t.assert.strictEqual(result.status, 0, result.output)
      // Each schema served apart compiles on its own (xmllint exits 3, not 5, for a root it does not declare).
      const driver = await messageSchema(t, app, path, '1.2', dir, schemas)
      const compiled = validateMessage(driver, dir, '<x/>', 'dummy')
      t.assert.strictEqual(compiled.status, 3, compiled.output)
    }
  }
})

test('docs/wsdl.md "The mapping", xmllint: every answer the demo writes (results, nil, attributes, wrapped arrays, a declared fault\'s detail) validates against its generated XSD, in both versions', async (t: TestContext) => {
  const schemas = xmllint(t)
  if (schemas === undefined) return
  const dir = tempDir(t)
  const app = await buildDemo()
  t.after(() => app.close())
  await app.ready()
  const calc = (op: string, body: string): string => `<c:${op} xmlns:c="urn:example:calc">${body}</c:${op}>`
  const order = (op: string, body: string): string => `<o:${op} xmlns:o="urn:example:orders">${body}</o:${op}>`
  for (const version of ['1.1', '1.2'] as const) {
    const driver = { calc: await messageSchema(t, app, '/calculator', version, dir, schemas), orders: await messageSchema(t, app, '/orders', version, dir, schemas) }
    const placed = await post(app, version, envelope(version, order('PlaceOrder', '<o:customer><o:name>Ann</o:name><o:vip>true</o:vip></o:customer><o:line sku="A-1"><o:quantity>2</o:quantity><o:unitPrice>1.25</o:unitPrice><o:note xsi:nil="true" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"/></o:line><o:line sku="B-2"><o:quantity>1</o:quantity><o:unitPrice>0.5</o:unitPrice><o:note>gift &amp; wrap</o:note></o:line><o:priority>high</o:priority><o:deliveryDate>2026-12-24</o:deliveryDate><o:tags><o:tags>x</o:tags><o:tags>𝄞</o:tags></o:tags>')), { url: '/orders' })
    const id = /orderId="([^"]+)"/.exec(placed.body)?.[1] as string
    const exchanges: Array<[string, string, Awaited<ReturnType<typeof post>>]> = [
      ['calc', 'Add', await post(app, version, envelope(version, calc('Add', '<c:a>-9007199254740991</c:a><c:b>0</c:b>')), { url: '/calculator' })],
      ['calc', 'Echo', await post(app, version, envelope(version, calc('Echo', '<c:text>héllo ✓ &lt;&amp;&gt; 𝄞</c:text>')), { url: '/calculator' })],
      ['calc', 'Divide', await post(app, version, envelope(version, calc('Divide', '<c:a>1</c:a><c:b>0</c:b>')), { url: '/calculator' })],
      ['orders', 'PlaceOrder', placed],
      ['orders', 'GetOrder', await post(app, version, envelope(version, order('GetOrder', `<o:orderId>${id}</o:orderId>`)), { url: '/orders' })],
      ['orders', 'OrderNotFound', await post(app, version, envelope(version, order('GetOrder', '<o:orderId>nope</o:orderId>')), { url: '/orders' })]
    ]
    for (const [service, name, response] of exchanges) {
      t.assert.ok(response.statusCode === 200 || (name !== 'Add' && name !== 'Echo' && name !== 'PlaceOrder' && name !== 'GetOrder'), `${name}: ${response.body}`)
      const result = validateMessage(driver[service as 'calc' | 'orders'], dir, response.body, `${name}-${version}`)
      t.assert.strictEqual(result.status, 0, `${version} ${name}: ${result.output}\n${response.body}`)
    }
    // The detail is there to be validated: the fault names its element.
    t.assert.match(exchanges[5][2].body, /<tns:OrderNotFound xmlns:tns="urn:example:orders"><tns:orderId>nope<\/tns:orderId><\/tns:OrderNotFound>/)
    t.assert.match(exchanges[4][2].body, /xsi:nil="true"/)
  }
})

/** A service whose replies carry header blocks: one beside a Body element, one with an empty Body. */
const quotes: SoapServiceDefinition = {
  path: '/quotes',
  namespace: 'urn:test:quotes',
  name: 'Quotes',
  operations: {
    GetQuote: {
      input: { type: 'object', properties: { symbol: { type: 'string' } }, required: ['symbol'], additionalProperties: false },
      output: { type: 'object', properties: { price: { type: 'number' } }, required: ['price'], additionalProperties: false },
      outputHeaders: {
        type: 'object',
        properties: {
          Quota: { type: 'object', properties: { left: { type: 'integer' } }, required: ['left'], additionalProperties: false },
          Trace: { type: 'array', items: { type: 'string' }, xml: { namespace: 'urn:test:trace' } },
          Stale: { type: 'boolean', nullable: true }
        },
        additionalProperties: false
      },
      handler (input, call) {
        call.replyHeaders({ Quota: { left: 9 }, Trace: ['a', 'b'], Stale: (input as { symbol: string }).symbol === 'NIL' ? null : false })
        return { price: 1.5 }
      }
    },
    Touch: {
      input: { type: 'object', properties: {}, additionalProperties: false },
      outputHeaders: { type: 'object', properties: { Quota: { type: 'object', properties: { left: { type: 'integer' } }, required: ['left'], additionalProperties: false } }, additionalProperties: false },
      handler (_input, call) {
        call.replyHeaders({ Quota: { left: 0 } })
      }
    },
    Plain: {
      input: { type: 'object', properties: {}, additionalProperties: false },
      output: { type: 'object', properties: {}, additionalProperties: false },
      handler (_input, call) {
        call.replyHeaders({} as never)
        return {}
      }
    }
  }
}

test('docs/services.md "Header blocks", xmllint: outputHeaders are soap:header parts of the output in both bindings; an output without Body element is a message with no part; the WSDL validates and so do the replies', async (t: TestContext) => {
  const app = await build(t, quotes)
  const text = (await get(app, '/quotes?wsdl')).body
  const doc = parse(text)
  const messages = new Map(all(doc, WSDL_NS, 'message').map((m) => [m.getAttribute('name'), all(m, WSDL_NS, 'part').map((p) => p.getAttribute('name'))]))
  t.assert.deepStrictEqual(messages.get('GetQuoteResponse'), ['parameters'])
  t.assert.deepStrictEqual(messages.get('GetQuoteResponseHeader'), ['Quota', 'Trace', 'Stale'])
  t.assert.deepStrictEqual(messages.get('TouchResponse'), [])
  t.assert.deepStrictEqual(messages.get('TouchResponseHeader'), ['Quota'])
  t.assert.strictEqual(messages.has('PlainResponseHeader'), false)
  for (const soapNs of ['http://schemas.xmlsoap.org/wsdl/soap/', 'http://schemas.xmlsoap.org/wsdl/soap12/']) {
    const outputs = all(doc, WSDL_NS, 'binding').flatMap((b) => all(b, WSDL_NS, 'output'))
    const headers = outputs.flatMap((o) => all(o, soapNs, 'header')).map((h) => `${h.getAttribute('message') as string} ${h.getAttribute('part') as string}`)
    t.assert.deepStrictEqual(headers, ['tns:GetQuoteResponseHeader Quota', 'tns:GetQuoteResponseHeader Trace', 'tns:GetQuoteResponseHeader Stale', 'tns:TouchResponseHeader Quota'])
  }
  t.assert.strictEqual(all(all(doc, WSDL_NS, 'portType')[0], WSDL_NS, 'output').length, 3)
  for (const version of ['1.1', '1.2'] as const) {
    const quote = await post(app, version, envelope(version, '<q:GetQuote xmlns:q="urn:test:quotes"><q:symbol>X</q:symbol></q:GetQuote>'), { url: '/quotes' })
    t.assert.strictEqual(quote.statusCode, 200, quote.body)
    t.assert.match(quote.body, /<soap:Header><tns:Quota xmlns:tns="urn:test:quotes"><tns:left>9<\/tns:left><\/tns:Quota><tns:Trace xmlns:tns="urn:test:trace">a<\/tns:Trace><tns:Trace xmlns:tns="urn:test:trace">b<\/tns:Trace><tns:Stale xmlns:tns="urn:test:quotes">false<\/tns:Stale><\/soap:Header><soap:Body><tns:GetQuoteResponse/)
    const nil = await post(app, version, envelope(version, '<q:GetQuote xmlns:q="urn:test:quotes"><q:symbol>NIL</q:symbol></q:GetQuote>'), { url: '/quotes' })
    t.assert.match(nil.body, /<tns:Stale xmlns:tns="urn:test:quotes" xmlns:xsi="http:\/\/www\.w3\.org\/2001\/XMLSchema-instance" xsi:nil="true"\/>/)
    const touch = await post(app, version, envelope(version, '<q:Touch xmlns:q="urn:test:quotes"/>'), { url: '/quotes' })
    t.assert.strictEqual(touch.statusCode, 200, touch.body)
    t.assert.match(touch.body, /<soap:Header><tns:Quota xmlns:tns="urn:test:quotes"><tns:left>0<\/tns:left><\/tns:Quota><\/soap:Header><soap:Body><\/soap:Body>/)
  }
  // An operation with no outputHeaders refuses call.replyHeaders(): a Receiver fault.
  const plain = await post(app, '1.1', envelope('1.1', '<q:Plain xmlns:q="urn:test:quotes"/>'), { url: '/quotes' })
  t.assert.strictEqual(plain.statusCode, 500)
  t.assert.match(plain.body, /<faultcode>soap:Server<\/faultcode>/)
  const schemas = xmllint(t)
  if (schemas === undefined) return
  const dir = tempDir(t)
  const file = join(dir, 'quotes.wsdl')
  writeFileSync(file, text)
  const result = lint(['--schema', wsdlDriver(schemas), file])
  t.assert.strictEqual(result.status, 0, result.output)
  for (const version of ['1.1', '1.2'] as const) {
    const driver = await messageSchema(t, app, '/quotes', version, dir, schemas)
    for (const [name, body] of [['GetQuote', '<q:GetQuote xmlns:q="urn:test:quotes"><q:symbol>NIL</q:symbol></q:GetQuote>'], ['Touch', '<q:Touch xmlns:q="urn:test:quotes"/>']]) {
      const reply = await post(app, version, envelope(version, body), { url: '/quotes' })
      const valid = validateMessage(driver, dir, reply.body, `${name}-${version}`)
      t.assert.strictEqual(valid.status, 0, `${version} ${name}: ${valid.output}\n${reply.body}`)
    }
  }
})

test('docs/services.md "Header blocks", "Writing": with validateOutput false, a repeated block given no array is SOAP_ERR_OUTPUT_INVALID, a Receiver fault', async (t: TestContext) => {
  const logs: Array<{ err?: { code?: string, message?: string } }> = []
  const app = await build(t, {
    ...quotes,
    validateOutput: false,
    operations: {
      GetQuote: {
        ...quotes.operations.GetQuote,
        handler (_input, call) {
          call.replyHeaders({ Trace: 'ab' as never })
          return { price: 1.5 }
        }
      }
    }
  }, { logger: { level: 'error', stream: { write: (line: string) => logs.push(JSON.parse(line)) } } })
  for (const version of ['1.1', '1.2'] as const) {
    const body = '<q:GetQuote xmlns:q="urn:test:quotes"><q:symbol>X</q:symbol></q:GetQuote>'
    const reply = await post(app, version, envelope(version, body), { url: '/quotes' })
    t.assert.strictEqual(reply.statusCode, 500, reply.body)
    t.assert.match(reply.body, version === '1.1' ? /<faultcode>soap:Server<\/faultcode>/ : /<soap:Value>soap:Receiver<\/soap:Value>/)
    t.assert.doesNotMatch(reply.body, /Trace/)
  }
  t.assert.deepStrictEqual(logs.filter((l) => l.err?.code === 'SOAP_ERR_OUTPUT_INVALID').map((l) => l.err?.message),
    Array(2).fill('fastify-soap: the result at "(reply headers)/Trace" must be an array'))
})

test('docs/wsdl.md "The mapping", xmllint: the types of an element that may carry xsi:type are declared as extensions of one another, abstract as declared, and every answer naming them validates, in both versions', async (t: TestContext) => {
  const Z = 'urn:test:zoo'
  const animal = (tag: string, extra: Record<string, unknown>, required: string[], xml: Record<string, unknown> = {}): Record<string, unknown> => ({
    type: 'object',
    xml,
    properties: { $type: { const: tag }, id: { type: 'string', xml: { attribute: true } }, name: { type: 'string' }, ...extra },
    required: ['$type', 'name', ...required],
    additionalProperties: false
  })
  const $defs = {
    Animal: animal('Animal', {}, [], { abstract: true }),
    Dog: animal('Dog', { breed: { type: 'string' } }, ['breed']),
    Puppy: animal('Puppy', { breed: { type: 'string' }, weeks: { type: 'integer' }, chip: { type: 'string', xml: { attribute: true } } }, ['breed', 'weeks']),
    Cat: animal('Cat', { lives: { type: 'integer' } }, [])
  }
  const ANIMAL = { oneOf: ['Animal', 'Dog', 'Puppy', 'Cat'].map((name) => ({ $ref: `#/$defs/${name}` })) }
  const zoo = { type: 'object', properties: { star: ANIMAL, pen: { type: 'array', items: ANIMAL, xml: { wrapped: true } } }, required: ['star'], additionalProperties: false, $defs }
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.service({ path: '/zoo', namespace: Z, name: 'Zoo', operations: { Visit: { input: { type: 'object', properties: {}, additionalProperties: false }, output: zoo, handler: () => ({ star: { $type: 'Puppy', id: 'p1', chip: 'c9', name: 'Rex', breed: 'beagle', weeks: 9 }, pen: [{ $type: 'Dog', name: 'Ada', breed: 'collie' }, { $type: 'Cat', name: 'Tom' }, { $type: 'Cat', id: 'c', name: 'Kit', lives: 9 }] }) } } } as never)
  await app.ready()
  const text = (await get(app, '/zoo?wsdl')).body
  const types = Object.fromEntries(all(parse(text), XS_NS, 'complexType').filter((c) => c.hasAttribute('name')).map((c) => [c.getAttribute('name'), all(c, XS_NS, 'extension')[0]?.getAttribute('base') ?? (c.getAttribute('abstract') === 'true' ? 'abstract' : 'none')]))
  t.assert.deepStrictEqual(types, { Animal: 'abstract', Dog: 'tns:Animal', Puppy: 'tns:Dog', Cat: 'tns:Animal' })
  const checked = assertValidWsdl(t, text)
  if (checked === undefined) return
  for (const version of ['1.1', '1.2'] as const) {
    const driver = await messageSchema(t, app, '/zoo', version, checked.dir, checked.schemas)
    const reply = await post(app, version, envelope(version, `<z:Visit xmlns:z="${Z}"/>`), { url: '/zoo' })
    t.assert.match(reply.body, /<tns:star xsi:type="tns:Puppy" id="p1" chip="c9">/)
    const valid = validateMessage(driver, checked.dir, reply.body, `zoo-${version}`)
    t.assert.strictEqual(valid.status, 0, `${valid.output}\n${reply.body}`)
  }
})

test('docs/wsdl.md "The mapping", xmllint: a type that may carry xsi:type takes other attributes (xs:anyAttribute) where its base does not, inherits them where it does, and a request using them validates', async (t: TestContext) => {
  const K = 'urn:test:kennel'
  const pet = (tag: string, extra: Record<string, unknown>, xml: Record<string, unknown> = {}): Record<string, unknown> => ({
    type: 'object',
    xml,
    properties: { $type: { const: tag }, name: { type: 'string' }, ...extra },
    required: ['$type', 'name'],
    additionalProperties: false
  })
  const $defs = {
    Pet: pet('Pet', {}),
    Dog: pet('Dog', { breed: { type: 'string' } }, { anyAttribute: true }),
    Puppy: pet('Puppy', { breed: { type: 'string' }, weeks: { type: 'integer' } }, { anyAttribute: true })
  }
  const PET = { oneOf: ['Pet', 'Dog', 'Puppy'].map((name) => ({ $ref: `#/$defs/${name}` })) }
  const kennel = { type: 'object', properties: { pet: PET }, required: ['pet'], additionalProperties: false, $defs }
  const app = await build(t, { path: '/kennel', namespace: K, name: 'Kennel', operations: { Board: { input: kennel, output: kennel, handler: (input: unknown) => input } } } as never)
  const text = (await get(app, '/kennel?wsdl')).body
  const wildcards = Object.fromEntries(all(parse(text), XS_NS, 'complexType').filter((c) => c.hasAttribute('name')).map((c) => [c.getAttribute('name'), all(c, XS_NS, 'anyAttribute').length]))
  t.assert.deepStrictEqual(wildcards, { Pet: 0, Dog: 1, Puppy: 0 })
  const request = (version: SoapVersion): string => envelope(version, `<k:Board xmlns:k="${K}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><k:pet xsi:type="k:Puppy" collar="red"><k:name>Rex</k:name><k:breed>beagle</k:breed><k:weeks>9</k:weeks></k:pet></k:Board>`)
  for (const version of ['1.1', '1.2'] as const) {
    const reply = await post(app, version, request(version), { url: '/kennel' })
    t.assert.strictEqual(reply.statusCode, 200, reply.body)
    t.assert.match(reply.body, /<tns:pet xsi:type="tns:Puppy">/)
  }
  const checked = assertValidWsdl(t, text)
  if (checked === undefined) return
  for (const version of ['1.1', '1.2'] as const) {
    const driver = await messageSchema(t, app, '/kennel', version, checked.dir, checked.schemas)
    const valid = validateMessage(driver, checked.dir, request(version), `kennel-${version}`)
    t.assert.strictEqual(valid.status, 0, valid.output)
  }
})

test('docs/services.md "Derived types": a type that extends none of the element\'s others, or has text, cannot be written in the WSDL (SOAP_ERR_WSDL_CONFLICT); a header block of derived types is SOAP_ERR_SERVICE_SCHEMA', async (t: TestContext) => {
  const typed = (tag: string, properties: Record<string, unknown>): Record<string, unknown> => ({ type: 'object', properties: { $type: { const: tag }, ...properties }, required: ['$type'], additionalProperties: false })
  const cases: Array<[unknown[], RegExp]> = [
    [[typed('A', { a: { type: 'string' } }), typed('B', { b: { type: 'string' } })], /the type B at Y\.Op\.output\/properties\/p\/oneOf\/1 extends none of the element's other types/],
    [[typed('A', { v: { type: 'string', xml: { text: true } } })], /the type A at .* has text or raw elements/]
  ]
  for (const [oneOf, message] of cases) {
    const logs: string[] = []
    const app = Fastify({ logger: { level: 'error', stream: { write: (line: string) => { logs.push(line) } } } })
    t.after(() => app.close())
    await app.register(soap)
    app.soap.service({ path: '/y', namespace: 'urn:y', name: 'Y', operations: { Op: { input: { type: 'object', properties: {}, additionalProperties: false }, output: { type: 'object', properties: { p: { oneOf } }, additionalProperties: false }, handler () {} } } } as never)
    await app.ready()
    assertEmpty(t, await get(app, '/y?wsdl'), 500)
    const errors = logs.map((l) => JSON.parse(l) as { err?: { code?: string, message?: string } }).filter((l) => l.err?.code === 'SOAP_ERR_WSDL_CONFLICT')
    t.assert.strictEqual(errors.length, 1, logs.join('\n'))
    t.assert.match(errors[0].err?.message as string, message)
  }
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.service({ path: '/h', namespace: 'urn:h', name: 'H', operations: { Op: { input: { type: 'object', properties: {}, additionalProperties: false }, outputHeaders: { type: 'object', properties: { h: { oneOf: [typed('A', {})] } }, additionalProperties: false }, handler () {} } } } as never)
  await t.assert.rejects(async () => { await app.ready() }, (err: { code: string, message: string }) => err.code === 'SOAP_ERR_SERVICE_SCHEMA' && /a header block written in a reply has one type/.test(err.message))
})

test('docs/services.md "Header blocks": an outputHeaders property that is an attribute, text, a list or a wrapped array is SOAP_ERR_SERVICE_SCHEMA at ready()', async (t: TestContext) => {
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ at: { type: 'string', xml: { attribute: true } } }, /no property may be an attribute, text or raw elements/],
    [{ v: { type: 'string', xml: { text: true } } }, /no property may be an attribute, text or raw elements/],
    [{ l: { type: 'array', items: { type: 'string' }, xml: { list: true } } }, /cannot be an xs:list or a wrapped array/],
    [{ w: { type: 'array', items: { type: 'string' }, xml: { wrapped: true } } }, /cannot be an xs:list or a wrapped array/]
  ]
  for (const [properties, message] of cases) {
    const app = Fastify()
    t.after(() => app.close())
    await app.register(soap)
    app.soap.service({ path: '/x', namespace: 'urn:x', name: 'X', operations: { Op: { input: { type: 'object', properties: {}, additionalProperties: false }, outputHeaders: { type: 'object', properties, additionalProperties: false }, handler () {} } } })
    await t.assert.rejects(async () => { await app.ready() }, (err: { code: string, message: string }) => err.code === 'SOAP_ERR_SERVICE_SCHEMA' && message.test(err.message))
  }
})

// ------------------------------------------------- every mapped construct ---

const K = 'urn:test:kitchen'
const O = 'urn:test:other'
const A = 'urn:test:attr'
const XSI = 'http://www.w3.org/2001/XMLSchema-instance'

/** One schema holding every construct of docs/services.md "The mapping". */
const everything = {
  type: 'object',
  properties: {
    s: { type: 'string', minLength: 1, maxLength: 5, description: 'a short string' },
    i: { type: 'integer', minimum: -5, exclusiveMaximum: 10 },
    big: { type: 'integer' },
    n: { type: 'number', exclusiveMinimum: 0 },
    d: { type: 'number' },
    b: { type: 'boolean' },
    color: { type: 'string', enum: ['red', 'green'] },
    level: { type: 'integer', enum: [1, 2, 3] },
    fixed: { type: 'string', const: 'v1' },
    day: { type: 'string', format: 'date' },
    at: { type: 'string', format: 'date-time' },
    email: { type: 'string', format: 'email' },
    maybe: { type: ['string', 'null'] },
    child: { type: ['object', 'null'], properties: { x: { type: 'integer' } }, additionalProperties: false },
    list: { type: 'array', items: { type: 'integer' }, minItems: 1, maxItems: 3 },
    wrapped: { type: 'array', items: { type: 'string', xml: { name: 'entry', namespace: O } }, xml: { wrapped: true } },
    other: {
      type: 'object',
      xml: { namespace: O },
      properties: { inner: { type: 'string' }, tag: { type: 'string', xml: { attribute: true } } },
      required: ['inner'],
      additionalProperties: false
    },
    id: { type: 'string', xml: { attribute: true } },
    lang: { type: 'string', xml: { attribute: true, namespace: A } },
    q: { type: 'integer', xml: { attribute: true, namespace: K } }
  },
  required: ['s', 'i', 'big', 'n', 'd', 'b', 'color', 'level', 'fixed', 'day', 'at', 'maybe', 'list', 'id'],
  additionalProperties: false
} as const

const kitchen: SoapServiceDefinition = {
  path: '/kitchen',
  namespace: K,
  name: 'Kitchen',
  operations: {
    Everything: { input: everything, output: everything, async handler (input: unknown) { return input } } as never
  }
}

const FULL = `<k:Everything xmlns:k="${K}" xmlns:o="${O}" xmlns:a="${A}" xmlns:xsi="${XSI}" id="x1" a:lang="en" k:q="7">` +
  '<k:s>abc</k:s><k:i>-5</k:i><k:big>9007199254740991</k:big><k:n>0.5</k:n><k:d>-1.5e300</k:d><k:b>true</k:b>' +
  '<k:color>red</k:color><k:level>2</k:level><k:fixed>v1</k:fixed><k:day>2026-11-21</k:day><k:at>2026-11-21T10:00:00Z</k:at>' +
  '<k:email>a@b.example</k:email><k:maybe xsi:nil="true"/><k:child><k:x>1</k:x></k:child><k:list>1</k:list><k:list>2</k:list>' +
  '<k:wrapped><o:entry>p</o:entry><o:entry>&lt;q&gt;</o:entry></k:wrapped><o:other tag="t"><o:inner>in</o:inner></o:other></k:Everything>'
const MINIMAL = `<k:Everything xmlns:k="${K}" id="">` +
  '<k:s>𝄞</k:s><k:i>9</k:i><k:big>-9007199254740991</k:big><k:n>1e-300</k:n><k:d>0</k:d><k:b>false</k:b>' +
  '<k:color>green</k:color><k:level>3</k:level><k:fixed>v1</k:fixed><k:day>0001-01-01</k:day><k:at>2026-11-21T10:00:00+05:30</k:at>' +
  `<k:maybe>x</k:maybe><k:child xsi:nil="1" xmlns:xsi="${XSI}"/><k:list>-1</k:list><k:wrapped/></k:Everything>`

test('docs/wsdl.md "The mapping", xmllint: a schema holding every mapped construct gives a WSDL that validates; the requests and the answers the codec writes validate against its XSD', async (t: TestContext) => {
  const schemas = xmllint(t)
  if (schemas === undefined) return
  const dir = tempDir(t)
  const app = await build(t, kitchen)
  const file = join(dir, 'kitchen.wsdl')
  writeFileSync(file, (await get(app, '/kitchen?wsdl')).body)
  const structure = lint(['--schema', wsdlDriver(schemas), file])
  t.assert.strictEqual(structure.status, 0, structure.output)
  const driver = await messageSchema(t, app, '/kitchen', '1.2', dir, schemas)
  for (const [name, payload] of [['full', FULL], ['minimal', MINIMAL]]) {
    const request = envelope('1.2', payload)
    const asked = validateMessage(driver, dir, request, `${name}-request`)
    t.assert.strictEqual(asked.status, 0, `${name} request: ${asked.output}`)
    const response = await post(app, '1.2', request, { url: '/kitchen' })
    t.assert.strictEqual(response.statusCode, 200, response.body)
    const answered = validateMessage(driver, dir, response.body, `${name}-response`)
    t.assert.strictEqual(answered.status, 0, `${name} response: ${answered.output}\n${response.body}`)
  }
})

test('docs/wsdl.md "The mapping", xmllint: what the codec or Ajv refuses, the generated XSD refuses too (bounds, lengths, enums, const, dates, occurrences, nil, attributes), but for the codec\'s own limits on an unbounded integer or number (xs:long, xs:double)', async (t: TestContext) => {
  const schemas = xmllint(t)
  if (schemas === undefined) return
  const dir = tempDir(t)
  const app = await build(t, kitchen)
  const driver = await messageSchema(t, app, '/kitchen', '1.2', dir, schemas)
  const cases: Array<[string, string, string]> = [
    ['exclusiveMaximum', '<k:i>-5</k:i>', '<k:i>10</k:i>'],
    ['minimum', '<k:i>-5</k:i>', '<k:i>-6</k:i>'],
    ['integer lexical form', '<k:big>9007199254740991</k:big>', '<k:big>1.0</k:big>'],
    ['exclusiveMinimum', '<k:n>0.5</k:n>', '<k:n>0</k:n>'],
    ['boolean lexical form', '<k:b>true</k:b>', '<k:b>yes</k:b>'],
    ['minLength', '<k:s>abc</k:s>', '<k:s></k:s>'],
    ['maxLength (code points)', '<k:s>abc</k:s>', '<k:s>𝄞𝄞𝄞𝄞𝄞𝄞</k:s>'],
    ['enum', '<k:color>red</k:color>', '<k:color>blue</k:color>'],
    ['integer enum', '<k:level>2</k:level>', '<k:level>4</k:level>'],
    ['const', '<k:fixed>v1</k:fixed>', '<k:fixed>v2</k:fixed>'],
    ['date without a time zone', '<k:day>2026-11-21</k:day>', '<k:day>2026-11-21Z</k:day>'],
    ['date-time with a time zone', '<k:at>2026-11-21T10:00:00Z</k:at>', '<k:at>2026-11-21T10:00:00</k:at>'],
    ['maxItems', '<k:list>1</k:list><k:list>2</k:list>', '<k:list>1</k:list><k:list>2</k:list><k:list>3</k:list><k:list>4</k:list>'],
    ['minItems', '<k:list>1</k:list><k:list>2</k:list>', ''],
    ['required element', '<k:color>red</k:color>', ''],
    ['required nillable element', '<k:maybe xsi:nil="true"/>', ''],
    ['nil where not nillable', '<k:s>abc</k:s>', '<k:s xsi:nil="true"/>'],
    ['required attribute', ' id="x1"', ''],
    ['unknown attribute', ' id="x1"', ' id="x1" other="1"'],
    ['unknown element', '<k:s>abc</k:s>', '<k:s>abc</k:s><k:extra/>'],
    ['element in the wrong namespace', '<o:inner>in</o:inner>', '<k:inner>in</k:inner>'],
    ['attribute integer lexical form', ' k:q="7"', ' k:q="seven"']
  ]
  for (const [rule, from, to] of cases) {
    t.assert.ok(FULL.includes(from), rule)
    const request = envelope('1.2', FULL.replace(from, to))
    const response = await post(app, '1.2', request, { url: '/kitchen' })
    t.assert.strictEqual(response.statusCode, 400, `${rule}: the server accepts it: ${response.body}`)
    t.assert.match(response.body, /<soap:Value>soap:Sender<\/soap:Value>/, rule)
    const result = validateMessage(driver, dir, request, `refused-${cases.findIndex((c) => c[0] === rule)}`)
    t.assert.strictEqual(result.status, 3, `${rule}: the XSD accepts it`)
  }
  // An unbounded integer or number is the built-in type every importer maps: what is past the codec's limits is valid XSD.
  const limits: Array<[string, string, string]> = [
    ['safe integer range', '<k:big>9007199254740991</k:big>', '<k:big>9007199254740992</k:big>'],
    ['INF', '<k:d>-1.5e300</k:d>', '<k:d>INF</k:d>'],
    ['NaN', '<k:d>-1.5e300</k:d>', '<k:d>NaN</k:d>'],
    ['double overflow', '<k:d>-1.5e300</k:d>', '<k:d>1e400</k:d>']
  ]
  for (const [rule, from, to] of limits) {
    const request = envelope('1.2', FULL.replace(from, to))
    const response = await post(app, '1.2', request, { url: '/kitchen' })
    t.assert.strictEqual(response.statusCode, 400, `${rule}: the server accepts it: ${response.body}`)
    const result = validateMessage(driver, dir, request, `limit-${rule}`)
    t.assert.strictEqual(result.status, 0, `${rule}: the XSD refuses it: ${result.output}`)
  }
})

test('docs/wsdl.md: each construct\'s XSD form (facets, occurrences, nillable, refs into other namespaces, qualified attributes, documentation)', async (t: TestContext) => {
  const app = await build(t, kitchen)
  const xsd = (await get(app, '/kitchen?wsdl')).body.replace(/\n\s*/g, '')
  const forms: Array<[string, string]> = [
    ['string facets and documentation', '<xs:element name="s"><xs:annotation><xs:documentation>a short string</xs:documentation></xs:annotation><xs:simpleType><xs:restriction base="xs:string"><xs:minLength value="1"/><xs:maxLength value="5"/></xs:restriction></xs:simpleType></xs:element>'],
    ['integer bounds, exclusive made inclusive', '<xs:element name="i"><xs:simpleType><xs:restriction base="xs:long"><xs:minInclusive value="-5"/><xs:maxInclusive value="9"/></xs:restriction></xs:simpleType></xs:element>'],
    ['integer, unbounded: the built-in type', '<xs:element name="big" type="xs:long"/>'],
    ['number, unbounded: the built-in type', '<xs:element name="d" type="xs:double"/>'],
    ['integer enum: the safe range', '<xs:restriction base="xs:long"><xs:enumeration value="1"/><xs:enumeration value="2"/><xs:enumeration value="3"/><xs:minInclusive value="-9007199254740991"/><xs:maxInclusive value="9007199254740991"/></xs:restriction>'],
    ['number: exclusive bound, and finite', '<xs:restriction base="xs:double"><xs:minExclusive value="0"/><xs:maxInclusive value="1.7976931348623157E308"/></xs:restriction>'],
    ['boolean', '<xs:element name="b" type="xs:boolean"/>'],
    ['enum', '<xs:restriction base="xs:string"><xs:enumeration value="red"/><xs:enumeration value="green"/></xs:restriction>'],
    ['const', '<xs:element name="fixed"><xs:simpleType><xs:restriction base="xs:string"><xs:enumeration value="v1"/></xs:restriction></xs:simpleType></xs:element>'],
    ['date', '<xs:restriction base="xs:date"><xs:pattern value="[0-9]{4}-[0-9]{2}-[0-9]{2}"/></xs:restriction>'],
    ['other formats are strings', '<xs:element name="email" minOccurs="0" type="xs:string"/>'],
    ['nullable', '<xs:element name="maybe" nillable="true" type="xs:string"/>'],
    ['nullable object', '<xs:element name="child" minOccurs="0" nillable="true"><xs:complexType><xs:sequence><xs:element name="x" minOccurs="0" type="xs:long"/>'],
    ['repeated', '<xs:element name="list" maxOccurs="3" type="xs:long"/>'],
    ['wrapped, items in another namespace', '<xs:element name="wrapped" minOccurs="0"><xs:complexType><xs:sequence><xs:element ref="ns1:entry" minOccurs="0" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>'],
    ['an element in another namespace', '<xs:element ref="ns1:other" minOccurs="0"/>'],
    ['its global declaration, children in its namespace', '<xs:element name="other"><xs:complexType><xs:sequence><xs:element name="inner" type="xs:string"/></xs:sequence><xs:attribute name="tag" type="xs:string"/></xs:complexType></xs:element>'],
    ['attributes: unqualified, in another namespace, in the target namespace', '<xs:attribute name="id" use="required" type="xs:string"/><xs:attribute ref="ns2:lang"/><xs:attribute name="q" form="qualified" type="xs:long"/>'],
    ['imports', '<xs:import namespace="urn:test:other"/><xs:import namespace="urn:test:attr"/>']
  ]
  for (const [what, form] of forms) t.assert.ok(xsd.includes(form), `${what}: ${form}`)
})

test('docs/wsdl.md: two different declarations of one global element cannot be written: the WSDL answers 500 with no body, SOAP_ERR_WSDL_CONFLICT is logged once', async (t: TestContext) => {
  const logs: string[] = []
  const app = Fastify({ logger: { level: 'error', stream: { write: (line: string) => { logs.push(line) } } } })
  t.after(() => app.close())
  await app.register(soap)
  const detail = (type: string): object => ({ type: 'object', properties: { code: { type } }, required: ['code'], additionalProperties: false })
  app.soap.service({
    path: '/c',
    namespace: K,
    name: 'C',
    operations: {
      One: { input: { type: 'object', properties: {} }, output: { type: 'object', properties: {} }, faults: { Problem: detail('string') }, handler: () => ({}) } as never,
      Two: { input: { type: 'object', properties: {} }, output: { type: 'object', properties: {} }, faults: { Problem: detail('integer') }, handler: () => ({}) } as never
    }
  })
  await app.ready()
  assertEmpty(t, await get(app, '/c?wsdl'), 500)
  assertEmpty(t, await get(app, '/c?xsd=tns'), 500)
  const errors = logs.map((l) => JSON.parse(l) as { err?: { code?: string, message?: string } }).filter((l) => l.err?.code === 'SOAP_ERR_WSDL_CONFLICT')
  t.assert.strictEqual(errors.length, 1)
  t.assert.match(errors[0].err?.message as string, /the element \{urn:test:kitchen\}Problem is declared two different ways, at C\.One\.faults\.Problem and at C\.Two\.faults\.Problem/)
  // The service itself still answers.
  t.assert.strictEqual((await post(app, '1.2', envelope('1.2', `<k:One xmlns:k="${K}"/>`), { url: '/c' })).statusCode, 200)
})

test('docs/wsdl.md: a fault declared by two operations with one schema is one element and one message; a one-way operation states no fault', async (t: TestContext) => {
  const detail = { type: 'object', properties: { code: { type: 'string' } }, required: ['code'], additionalProperties: false }
  const app = await build(t, {
    path: '/c',
    namespace: K,
    name: 'C',
    operations: {
      One: { input: { type: 'object', properties: {} }, output: { type: 'object', properties: {} }, faults: { Problem: detail }, handler: () => ({}) } as never,
      Two: { input: { type: 'object', properties: {} }, output: { type: 'object', properties: {} }, faults: { Problem: detail }, handler: () => ({}) } as never,
      // WSDL 1.1 §2.4.1: a one-way operation has an input only, so its faults are not stated.
      Three: { input: { type: 'object', properties: {} }, faults: { Problem: detail }, handler: () => undefined } as never
    }
  })
  const wsdl = (await get(app, '/c?wsdl')).body
  const doc = parse(wsdl)
  t.assert.strictEqual(all(doc, WSDL_NS, 'message').filter((m) => m.getAttribute('name') === 'ProblemFault').length, 1)
  t.assert.strictEqual(all(doc, XS_NS, 'element').filter((e) => e.getAttribute('name') === 'Problem').length, 1)
  const ops = all(all(doc, WSDL_NS, 'portType')[0], WSDL_NS, 'operation')
  t.assert.deepStrictEqual(ops.map((o) => all(o, WSDL_NS, 'fault').length), [1, 1, 0])
  assertValidWsdl(t, wsdl)
})

test('docs/wsdl.md: splitSchemas serves each namespace\'s schema at ?xsd=<prefix>, imported by the WSDL at the live address', async (t: TestContext) => {
  const app = await build(t, { ...kitchen, wsdl: { splitSchemas: true } })
  const doc = parse((await get(app, '/kitchen?wsdl')).body)
  const imports = all(doc, XS_NS, 'import').map((i) => [i.getAttribute('namespace'), i.getAttribute('schemaLocation')])
  t.assert.deepStrictEqual(imports, [[K, `http://${HOST}/kitchen?xsd=tns`], [O, `http://${HOST}/kitchen?xsd=ns1`], [A, `http://${HOST}/kitchen?xsd=ns2`]])
  t.assert.strictEqual(all(doc, XS_NS, 'element').length, 0)
  const tns = parse((await get(app, '/kitchen?xsd=tns')).body)
  t.assert.strictEqual(tns.documentElement.getAttribute('targetNamespace'), K)
  t.assert.deepStrictEqual(all(tns, XS_NS, 'import').map((i) => i.getAttribute('schemaLocation')), [`http://${HOST}/kitchen?xsd=ns1`, `http://${HOST}/kitchen?xsd=ns2`])
  const other = await get(app, '/kitchen?xsd=ns1')
  t.assert.strictEqual(other.headers['content-type'], 'text/xml; charset=utf-8')
  t.assert.strictEqual(parse(other.body).documentElement.getAttribute('targetNamespace'), O)
})

test('docs/wsdl.md: header blocks, repeated or in another namespace, are global elements and parts of <Op>Headers; titles document; an empty object is an empty sequence', async (t: TestContext) => {
  const app = await build(t, {
    path: '/h',
    namespace: K,
    name: 'H',
    operations: {
      Ping: {
        input: { type: 'object', title: 'a ping' },
        output: { type: 'object', properties: { ratio: { type: 'number', exclusiveMaximum: 1 } }, additionalProperties: false },
        headers: {
          type: 'object',
          properties: {
            Trace: { type: 'array', items: { type: 'string' }, xml: { namespace: O } },
            Session: { type: 'object', properties: { id: { type: 'string' } }, additionalProperties: false }
          },
          additionalProperties: false
        },
        handler: () => ({ ratio: 0.5 })
      } as never
    }
  })
  const wsdl = (await get(app, '/h?wsdl')).body
  const flat = wsdl.replace(/\n\s*/g, '')
  t.assert.ok(flat.includes('<wsdl:message name="PingHeaders"><wsdl:part name="Trace" element="ns1:Trace"/><wsdl:part name="Session" element="tns:Session"/></wsdl:message>'), flat)
  t.assert.ok(flat.includes('<soap12:header message="tns:PingHeaders" part="Trace" use="literal"/><soap12:header message="tns:PingHeaders" part="Session" use="literal"/>'))
  t.assert.ok(flat.includes(`<xs:schema xmlns:xs="${XS_NS}" xmlns:tns="${K}" xmlns:ns1="${O}" targetNamespace="${O}" elementFormDefault="qualified" attributeFormDefault="unqualified"><xs:element name="Trace" type="xs:string"/></xs:schema>`))
  t.assert.ok(flat.includes('<xs:element name="Ping"><xs:annotation><xs:documentation>a ping</xs:documentation></xs:annotation><xs:complexType><xs:sequence/></xs:complexType></xs:element>'))
  t.assert.ok(flat.includes('<xs:minInclusive value="-1.7976931348623157E308"/><xs:maxExclusive value="1"/>'))
  assertValidWsdl(t, wsdl)
})

test('docs/wsdl.md: a parametric path\'s address is the path asked for; a namespace or action XML cannot carry is refused at ready(); header parts are NCNames; documentation never makes a conflict; a nullable object\'s attributes are optional', async (t: TestContext) => {
  const app = await build(t, { ...calculator, path: '/t/:tenant' })
  const body = (await get(app, '/t/acme?wsdl')).body
  t.assert.strictEqual(body.match(new RegExp(`location="http://${HOST}/t/acme"`, 'g'))?.length, 2)
  t.assert.doesNotMatch(body, /:tenant/)

  for (const [definition, message] of [
    [{ ...calculator, namespace: 'urn:a\u0000b' }, /"namespace" must be a non-empty URI/],
    [{ ...calculator, operations: { Add: { ...calculator.operations.Add, action: 'urn:x\u0001' } } }, /"action" must be a non-empty string of characters XML can carry/]
  ] as const) {
    const bad = Fastify()
    t.after(() => bad.close())
    await bad.register(soap)
    bad.soap.service(definition as SoapServiceDefinition)
    const err = await bad.ready().then(() => undefined, (e: Error) => e)
    t.assert.match(String(err?.message), message)
  }

  const note = (description?: string): object => ({ type: 'object', properties: { note: { type: 'string', xml: { namespace: O }, ...(description === undefined ? {} : { description }) } }, additionalProperties: false })
  const child = { type: ['object', 'null'], properties: { id: { type: 'string', xml: { attribute: true } } }, required: ['id'], additionalProperties: false }
  const mixed = await build(t, {
    path: '/m',
    namespace: K,
    name: 'M',
    operations: {
      A: { input: note('the note of A'), output: { type: 'object', properties: { child }, required: ['child'], additionalProperties: false }, headers: { type: 'object', properties: { 'my header': { type: 'string', xml: { name: 'H' } } }, additionalProperties: false }, handler: () => ({ child: null }) } as never,
      B: { input: note(), output: { type: 'object', properties: {} }, handler: () => ({}) } as never
    }
  })
  const wsdl = await get(mixed, '/m?wsdl')
  t.assert.strictEqual(wsdl.statusCode, 200, 'the same declaration with and without documentation is one')
  t.assert.match(wsdl.body, /<wsdl:part name="H" element="tns:H"\/>/)
  t.assert.match(wsdl.body, /<soap:header message="tns:AHeaders" part="H" use="literal"\/>/)
  t.assert.match(wsdl.body, /<xs:element name="child" nillable="true">/)
  t.assert.match(wsdl.body, /<xs:attribute name="id" type="xs:string"\/>/)
  const schemas = xmllint(t)
  if (schemas === undefined) return
  const dir = tempDir(t)
  const file = join(dir, 'm.wsdl')
  writeFileSync(file, wsdl.body)
  const structure = lint(['--schema', wsdlDriver(schemas), file])
  t.assert.strictEqual(structure.status, 0, structure.output)
  const driver = await messageSchema(t, mixed, '/m', '1.2', dir, schemas)
  const response = await post(mixed, '1.2', envelope('1.2', `<k:A xmlns:k="${K}" xmlns:o="${O}"><o:note>x</o:note></k:A>`), { url: '/m' })
  t.assert.match(response.body, /xsi:nil="true"/)
  const answer = validateMessage(driver, dir, response.body, 'nil-child')
  t.assert.strictEqual(answer.status, 0, answer.output)
})

test('docs/wsdl.md: a wrapped array among the header blocks is declared as its wrapper; a fault name two operations give different elements gets a message per operation', async (t: TestContext) => {
  const detail = (namespace: string): object => ({ type: 'object', properties: { code: { type: 'string' } }, required: ['code'], additionalProperties: false, xml: { namespace } })
  const app = await build(t, {
    path: '/w',
    namespace: K,
    name: 'W',
    operations: {
      A: {
        input: { type: 'object', properties: {} },
        output: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } }, additionalProperties: false },
        headers: { type: 'object', properties: { Tags: { type: 'array', xml: { wrapped: true }, items: { type: 'string', xml: { name: 'Tag' } } } }, additionalProperties: false },
        faults: { E: detail(O) },
        handler: (_input: unknown, call: { headers: { Tags?: string[] } }) => ({ tags: call.headers.Tags ?? [] })
      } as never,
      B: { input: { type: 'object', properties: { b: { type: 'string' } } }, output: { type: 'object', properties: {} }, faults: { E: detail(A) }, handler: () => ({}) } as never
    }
  })
  const wsdl = (await get(app, '/w?wsdl')).body
  const doc = parse(wsdl)
  const messages = all(doc, WSDL_NS, 'message').map((m) => [m.getAttribute('name'), all(m, WSDL_NS, 'part')[0]?.getAttribute('element')])
  t.assert.deepStrictEqual(messages.filter(([name]) => String(name).endsWith('EFault')), [['AEFault', 'ns1:E'], ['BEFault', 'ns2:E']])
  t.assert.deepStrictEqual(all(all(doc, WSDL_NS, 'portType')[0], WSDL_NS, 'fault').map((f) => f.getAttribute('message')), ['tns:AEFault', 'tns:BEFault'])
  t.assert.match(wsdl.replace(/\n\s*/g, ''), /<xs:element name="Tags"><xs:complexType><xs:sequence><xs:element name="Tag" minOccurs="0" maxOccurs="unbounded" type="xs:string"\/><\/xs:sequence><\/xs:complexType><\/xs:element>/)
  const linted = assertValidWsdl(t, wsdl)
  if (linted === undefined) return
  const { schemas, dir } = linted
  const driver = await messageSchema(t, app, '/w', '1.2', dir, schemas)
  const request = envelope('1.2', `<k:A xmlns:k="${K}"/>`, `<k:Tags xmlns:k="${K}"><k:Tag>a</k:Tag><k:Tag>b</k:Tag></k:Tags>`)
  t.assert.strictEqual((await post(app, '1.2', request, { url: '/w' })).statusCode, 200)
  const asked = validateMessage(driver, dir, request, 'wrapped-header')
  t.assert.strictEqual(asked.status, 0, asked.output)
})

/** A tree of labelled nodes, each with an optional note about another node (or nil). */
const TREE_DEFS = {
  Node: { type: 'object', properties: { label: { $ref: '#/$defs/Label' }, kids: { type: 'array', items: { $ref: '#/$defs/Node' } }, note: { $ref: '#/$defs/Note' } }, required: ['label'], additionalProperties: false },
  Note: { type: 'object', properties: { text: { type: 'string' }, about: { $ref: '#/$defs/Node.nil' } }, required: ['text'], additionalProperties: false },
  'Node.nil': { type: 'object', nullable: true, properties: { label: { $ref: '#/$defs/Label' }, kids: { type: 'array', items: { $ref: '#/$defs/Node' } } }, additionalProperties: false },
  Label: { type: 'string', maxLength: 8 }
}

test('docs/wsdl.md "The mapping", xmllint: the XML Schema keywords contracts need (unqualified elements, simple content, xs:any, xs:anyAttribute, xs:list, repeated xs:list) give a WSDL that validates, and the answers validate against it', async (t: TestContext) => {
  const schemas = xmllint(t)
  if (schemas === undefined) return
  const dir = tempDir(t)
  const raw = { type: 'array', items: { type: 'object' }, xml: { any: true } } as const
  const schema = {
    type: 'object',
    properties: {
      plain: { type: 'string', xml: { namespace: '' } },
      price: { type: 'object', properties: { $value: { type: 'number', xml: { text: true } }, cur: { type: 'string', xml: { attribute: true } } }, required: ['$value'], xml: { anyAttribute: true } },
      tags: { type: 'array', items: { type: 'integer' }, xml: { list: true } },
      codes: { type: 'array', items: { type: 'string' }, xml: { list: true, attribute: true } },
      runs: { type: 'array', items: { type: ['array', 'null'], items: { type: 'boolean' }, xml: { list: true } } },
      open: { type: 'object', properties: { $any: raw } },
      $any: raw
    },
    required: ['plain'],
    additionalProperties: false
  } as const
  const app = await build(t, {
    path: '/xsd',
    namespace: 'urn:xsd',
    name: 'Xsd',
    operations: { Echo: { input: schema, output: schema, handler: async (input: unknown) => input as never } }
  })
  const file = join(dir, 'xsd.wsdl')
  const wsdl = (await get(app, '/xsd?wsdl')).body
  writeFileSync(file, wsdl)
  const structure = lint(['--schema', wsdlDriver(schemas), file])
  t.assert.strictEqual(structure.status, 0, structure.output)
  const compact = wsdl.replace(/>\s+</g, '><')
  t.assert.match(compact, /<xs:element name="plain" form="unqualified" type="xs:string"\/>/)
  t.assert.match(compact, /<xs:simpleContent><xs:extension base="xs:double"><xs:attribute name="cur" type="xs:string"\/><xs:anyAttribute processContents="lax"\/><\/xs:extension><\/xs:simpleContent>/)
  t.assert.match(compact, /<xs:list itemType="xs:long"\/>/)
  t.assert.match(compact, /<xs:element name="runs" minOccurs="0" maxOccurs="unbounded" nillable="true"><xs:simpleType><xs:list itemType="xs:boolean"\/><\/xs:simpleType><\/xs:element>/)
  t.assert.match(compact, /<xs:any namespace="##any" processContents="lax" minOccurs="0" maxOccurs="unbounded"\/>/)
  t.assert.match(compact, /<xs:any namespace="##other" processContents="lax" minOccurs="0" maxOccurs="unbounded"\/>/)
  const driver = await messageSchema(t, app, '/xsd', '1.1', dir, schemas)
  const request = envelope('1.1', '<x:Echo xmlns:x="urn:xsd" codes="a b"><plain>p</plain><x:price cur="EUR" note="n">1.5</x:price><x:tags>1 2</x:tags><x:runs>true 0</x:runs><x:runs xmlns:i="http://www.w3.org/2001/XMLSchema-instance" i:nil="true"/><x:open><y:any xmlns:y="urn:y"/></x:open><z:extra xmlns:z="urn:z">t</z:extra></x:Echo>')
  const response = await post(app, '1.1', request, { url: '/xsd' })
  t.assert.strictEqual(response.statusCode, 200, response.body)
  const answered = validateMessage(driver, dir, response.body, 'xsd-response')
  t.assert.strictEqual(answered.status, 0, `${answered.output}\n${response.body}`)
  // A top-level element in no namespace has no place in a schema with a target namespace.
  const top = await build(t, { path: '/top', namespace: 'urn:top', name: 'Top', operations: { Op: { input: { type: 'object', xml: { namespace: '' } }, handler: async () => undefined } } })
  t.assert.strictEqual((await get(top, '/top?wsdl')).statusCode, 500)
  const header = await build(t, { path: '/hdr', namespace: 'urn:hdr', name: 'Hdr', operations: { Op: { headers: { type: 'object', properties: { h: { type: 'string', xml: { namespace: '' } } } }, handler: async () => undefined } } })
  t.assert.strictEqual((await get(header, '/hdr?wsdl')).statusCode, 500)
})

// -------------------------------------------------------- named schemas ---

/** A tree whose nodes hold nodes, a note that points back at a tree (nillable), and a named scalar. */
const NAMED: SoapServiceDefinition = {
  path: '/tree',
  name: 'Tree',
  namespace: 'urn:example:tree',
  operations: {
    Mirror: {
      input: {
        type: 'object',
        properties: { root: { $ref: '#/$defs/Node' } },
        required: ['root'],
        $defs: TREE_DEFS
      },
      output: {
        type: 'object',
        properties: { root: { $ref: '#/$defs/Node', xml: { name: 'mirrored' } } },
        required: ['root'],
        $defs: TREE_DEFS
      },
      handler: (input: unknown) => input
    }
  }
} as unknown as SoapServiceDefinition

test('docs/wsdl.md "The mapping", xmllint: named schemas that contain themselves are global complex types; the WSDL validates, and so do deep requests and the answers written for them', async (t: TestContext) => {
  const app = await build(t, NAMED)
  const wsdl = (await get(app, '/tree?wsdl')).body
  t.assert.match(wsdl, /<xs:complexType name="Node">/)
  t.assert.match(wsdl, /<xs:complexType name="Node\.nil">/)
  t.assert.match(wsdl, /<xs:element name="kids" minOccurs="0" maxOccurs="unbounded" type="tns:Node"\/>/)
  t.assert.match(wsdl, /<xs:element name="about" minOccurs="0" nillable="true" type="tns:Node\.nil"\/>/)
  t.assert.match(wsdl, /<xs:element name="mirrored" type="tns:Node"\/>/)
  const linted = assertValidWsdl(t, wsdl)
  if (linted === undefined) return
  const { schemas, dir } = linted
  const driver = await messageSchema(t, app, '/tree', '1.1', dir, schemas)
  const deep = (depth: number): string => depth === 0 ? '<t:label>leaf</t:label>' : `<t:label>d${depth}</t:label><t:kids>${deep(depth - 1)}</t:kids><t:note><t:text>n</t:text><t:about${depth % 2 === 0 ? ' xsi:nil="true"/>' : `><t:label>a</t:label><t:kids>${deep(0)}</t:kids></t:about>`}</t:note>`
  const request = envelope('1.1', `<t:Mirror xmlns:t="urn:example:tree" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><t:root>${deep(30)}</t:root></t:Mirror>`)
  const asked = validateMessage(driver, dir, request, 'tree-request')
  t.assert.strictEqual(asked.status, 0, asked.output)
  const response = await post(app, '1.1', request, { url: '/tree' })
  t.assert.strictEqual(response.statusCode, 200, response.body)
  t.assert.strictEqual(response.body.split('<tns:kids>').length - 1, 45, 'thirty levels of kids, and one under each of the fifteen notes that are not nil')
  const answered = validateMessage(driver, dir, response.body, 'tree-response')
  t.assert.strictEqual(answered.status, 0, answered.output)
  // What Ajv refuses deep down, the XSD refuses too.
  const long = request.replace('<t:label>leaf</t:label>', '<t:label>toolonglabel</t:label>')
  t.assert.strictEqual((await post(app, '1.1', long, { url: '/tree' })).statusCode, 500)
  t.assert.notStrictEqual(validateMessage(driver, dir, long, 'tree-long').status, 0)
  // A message deeper than maxDepth stops at the decoder.
  const tooDeep = envelope('1.1', `<t:Mirror xmlns:t="urn:example:tree"><t:root>${deep(120).replace(/<t:note>.*?<\/t:note>/g, '')}</t:root></t:Mirror>`)
  t.assert.strictEqual((await post(app, '1.1', tooDeep, { url: '/tree' })).statusCode, 400)
})

/**
 * decode(encode(v)) = v: the Body of `response`, an answer of `definition`'s
 * Echo, read back by the same codec (as the input of an operation named
 * EchoResponse of `schema`).
 */
async function readBack (definition: SoapServiceDefinition, schema: Record<string, unknown>, response: string): Promise<unknown> {
  let echoed: unknown
  const answer = /<soap:Body>(.*)<\/soap:Body>/s.exec(response)?.[1] as string
  const reader = Fastify()
  try {
    await reader.register(soap)
    reader.soap.service({ ...definition, path: '/back', operations: { EchoResponse: { input: { ...schema, xml: { name: 'EchoResponse' } }, handler: (input: unknown) => { echoed = input } } } } as unknown as SoapServiceDefinition)
    const back = await reader.inject({ method: 'POST', url: '/back', headers: { 'content-type': MEDIA['1.2'] }, payload: envelope('1.2', answer) })
    if (back.statusCode !== 202) throw new Error(`read back: ${back.statusCode} ${back.body}`)
  } finally {
    await reader.close()
  }
  return echoed
}

/** A service whose Echo takes and answers one schema, in urn:example:p, with what it logs. */
interface Echo {
  readonly app: FastifyInstance
  readonly definition: SoapServiceDefinition
  readonly schema: Record<string, unknown>
  readonly logs: Array<{ err?: { code?: string } }>
  /** What the handler answers instead of its input, when set. */
  answer?: unknown
}

/** Serves an Echo of `schema` at `path` for `run`, then closes it. */
async function withEcho (path: string, schema: Record<string, unknown>, run: (echo: Echo) => Promise<void>): Promise<void> {
  const logs: Echo['logs'] = []
  const app = Fastify({ logger: { level: 'error', stream: { write: (line: string) => logs.push(JSON.parse(line)) } } })
  const operations = { Echo: { input: schema, output: schema, handler: (input: unknown) => echo.answer ?? input } }
  const echo: Echo = { app, definition: { path, name: 'P', namespace: 'urn:example:p', operations } as unknown as SoapServiceDefinition, schema, logs }
  try {
    await app.register(soap)
    app.soap.service(echo.definition)
    await app.ready()
    await run(echo)
  } finally {
    await app.close()
  }
}

/** Posts a SOAP 1.2 request to the Echo. */
async function postEcho (echo: Echo, request: string): Promise<Awaited<ReturnType<FastifyInstance['inject']>>> {
  return await echo.app.inject({ method: 'POST', url: echo.definition.path, headers: { 'content-type': MEDIA['1.2'] }, payload: request })
}

/** xmllint's schemas and a folder for the messages; undefined without xmllint (the messages are then not validated). */
function lintFolder (t: TestContext): { schemas: string, dir: string } | undefined {
  const schemas = xmllint(t)
  return schemas === undefined ? undefined : { schemas, dir: tempDir(t) }
}

/**
 * The Echo answers `request` 200 with `expected`, read back by the same codec
 * (decode(encode(v)) = v); with xmllint, the request and the answer validate
 * against the generated XSD. Returns the message schema's driver, if any.
 */
async function assertEchoed (t: TestContext, echo: Echo, request: string, expected: unknown, lint: { schemas: string, dir: string } | undefined): Promise<string | undefined> {
  const response = await postEcho(echo, request)
  if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}\n${request}`)
  t.assert.deepStrictEqual(await readBack(echo.definition, echo.schema, response.body), expected)
  if (lint === undefined) return undefined
  const driver = await messageSchema(t, echo.app, echo.definition.path, '1.2', lint.dir, lint.schemas)
  for (const [name, xml] of [['request', request], ['response', response.body]]) {
    const valid = validateMessage(driver, lint.dir, xml, `${echo.definition.path.slice(1)}-${name}`)
    if (valid.status !== 0) throw new Error(`${name}: ${valid.output}\n${xml}`)
  }
  return driver
}

/** A random service whose named schemas refer to one another, cycles included, and a value of it. */
const namedServices = fc.integer({ min: 1, max: 4 }).chain((count) => {
  const names = Array.from({ length: count }, (_v, i) => `T${i}`)
  const field = fc.record({ target: fc.integer({ min: 0, max: count - 1 }), array: fc.boolean(), required: fc.boolean() })
  const def = fc.record({ fields: fc.array(field, { maxLength: 3 }), scalar: fc.constantFrom('string', 'integer', 'boolean') })
  return fc.tuple(fc.constant(names), fc.array(def, { minLength: count, maxLength: count }))
}).map(([names, defs]) => {
  const $defs: Record<string, unknown> = {}
  defs.forEach((d, i) => {
    const properties: Record<string, unknown> = { v: { type: d.scalar } }
    const required = ['v']
    d.fields.forEach((f, j) => {
      // A required reference in every named schema on a cycle would make every value infinite: only optional ones refer back.
      const ref = { $ref: `#/$defs/${names[f.target]}` }
      properties[`f${j}`] = f.array ? { type: 'array', items: ref } : ref
      if (f.required && f.target > i && !f.array) required.push(`f${j}`)
    })
    $defs[names[i]] = { type: 'object', properties, required, additionalProperties: false }
  })
  return { $defs, names, defs }
})

function valueOf (defs: Record<string, { properties: Record<string, { type?: string, items?: unknown, $ref?: string }>, required: string[] }>, name: string, depth: number, seed: { n: number }): Record<string, unknown> {
  const def = defs[name]
  const out: Record<string, unknown> = {}
  for (const [property, schema] of Object.entries(def.properties)) {
    seed.n = (seed.n * 1103515245 + 12345) % 2147483648
    if (property === 'v') {
      out.v = schema.type === 'string' ? `s${seed.n % 97}` : schema.type === 'integer' ? seed.n % 1000 - 500 : seed.n % 2 === 0
      continue
    }
    const target = ((schema.$ref ?? (schema.items as { $ref: string }).$ref) as string).slice('#/$defs/'.length)
    // An array is always read back, [] when no element came: so it is always given.
    if (schema.type === 'array') {
      out[property] = Array.from({ length: depth <= 0 ? 0 : seed.n % 3 }, () => valueOf(defs, target, depth - 1, seed))
      continue
    }
    if (!def.required.includes(property) && (depth <= 0 || seed.n % 3 === 0)) continue
    out[property] = valueOf(defs, target, depth - 1, seed)
  }
  return out
}

test('docs/services.md "Named schemas", property: random named schemas that refer to one another round-trip through the codec, and every request and answer validates against the generated XSD (xmllint)', async (t: TestContext) => {
  const lint = lintFolder(t)
  let run = 0
  await fc.assert(fc.asyncProperty(namedServices, fc.integer({ min: 0, max: 2 ** 31 - 1 }), async ({ $defs, names }, seed) => {
    run++
    const root = { type: 'object', properties: { item: { $ref: `#/$defs/${names[0]}` } }, required: ['item'], $defs }
    await withEcho(`/p${run}`, root, async (echo) => {
      const value = { item: valueOf($defs as never, names[0], 4, { n: seed }) }
      const xml = (v: unknown, tag: string): string => {
        if (typeof v !== 'object' || v === null) return String(v)
        return Object.entries(v as Record<string, unknown>).map(([k, c]) => Array.isArray(c) ? c.map((i) => `<p:${k}>${xml(i, k)}</p:${k}>`).join('') : `<p:${k}>${xml(c, k)}</p:${k}>`).join('')
      }
      await assertEchoed(t, echo, envelope('1.2', `<p:Echo xmlns:p="urn:example:p">${xml(value, 'Echo')}</p:Echo>`), JSON.parse(JSON.stringify(value)), lint)
    })
  }), { numRuns: 25 })
})

/**
 * What a branch of a presence rule may require: a string (of a built-in
 * type), an integer (of an anonymous one), a list, an array whose branch asks
 * for an item, one whose branch asks only for the property ("loose": it is
 * there, [], when no element came), a wrapped array, a named type.
 */
const BRANCH_KINDS = ['string', 'integer', 'list', 'array', 'loose', 'wrapped', 'ref'] as const
type BranchKind = typeof BRANCH_KINDS[number]

/** A presence rule of a random type, over properties o0, o1... (`oneOf`) or a0, a1... (`anyOf`); `apart`: the first comes before v, away from the others. */
interface Rule {
  readonly keyword: 'oneOf' | 'anyOf'
  readonly branches: ReadonlyArray<{ readonly kind: BranchKind, readonly target: number }>
  readonly apart: boolean
}

/** A named type of a random service: its references, its derived type, its presence rules. */
interface TypeDef {
  readonly fields: ReadonlyArray<{ readonly target: number, readonly array: boolean, readonly required: boolean }>
  readonly derived: boolean
  readonly abstract: boolean
  /** Whether it has a `$type`: every type of the derived-types services, only those with a derived type in the others. */
  readonly typed: boolean
  readonly rules: readonly Rule[]
}

/** The property of a rule's branch. */
function branchProperty (rule: Rule, k: number): string {
  return `${rule.keyword === 'oneOf' ? 'o' : 'a'}${k}`
}

/** A type's properties in order, but `$type` and `w`: the first of each rule apart, v, the references, the rules' others. */
function propertyOrder (d: TypeDef): string[] {
  const apart = d.rules.filter((rule) => rule.apart).map((rule) => branchProperty(rule, 0))
  const branches = d.rules.flatMap((rule) => rule.branches.map((_b, k) => branchProperty(rule, k)))
  return [...apart, 'v', ...d.fields.map((_f, j) => `f${j}`), ...branches.filter((p) => !apart.includes(p))]
}

/** The schema of a property a presence rule names. */
function branchSchema (kind: BranchKind, use: Record<string, unknown>): Record<string, unknown> {
  switch (kind) {
    case 'string': return { type: 'string' }
    case 'integer': return { type: 'integer' }
    case 'list': return { type: 'array', items: { type: 'integer' }, xml: { list: true } }
    case 'wrapped': return { type: 'array', items: { type: 'string', xml: { name: 'i' } }, xml: { wrapped: true } }
    case 'ref': return use
    default: return { type: 'array', items: { type: 'string' } }
  }
}

/** A rule's branches as values can take them: the first refers to no type (it can always be taken), and one loose array at most (two would both be always there). */
function takeable (rule: Rule): Rule {
  const branches = rule.branches.map((b, k) => ({ ...b, kind: k === 0 && b.kind === 'ref' ? 'string' : b.kind === 'loose' && rule.branches.slice(0, k).some((o) => o.kind === 'loose') ? 'array' : b.kind }))
  return { ...rule, branches }
}

/**
 * A random service of named types that refer to one another, some with a
 * type derived from them (one more element), abstract or not: every use of
 * such a type takes either (a "oneOf" of types). With `choices`, types have
 * presence rules (a "oneOf", an "anyOf", of single "required"), the first
 * type always an exclusive one of two branches at least; only types with a
 * derived type have a "$type".
 */
function typedServices (choices: boolean): fc.Arbitrary<{ $defs: Record<string, unknown>, defs: TypeDef[], root: Record<string, unknown> }> {
  return fc.integer({ min: 1, max: 3 }).chain((count) => {
    const field = fc.record({ target: fc.integer({ min: 0, max: count - 1 }), array: fc.boolean(), required: fc.boolean() })
    const branch = fc.record({ kind: fc.constantFrom(...BRANCH_KINDS), target: fc.integer({ min: 0, max: count - 1 }) })
    const rule = (keyword: Rule['keyword']): fc.Arbitrary<Rule | undefined> => choices
      ? fc.option(fc.record({ keyword: fc.constant(keyword), branches: fc.array(branch, { minLength: 1, maxLength: 3 }), apart: fc.integer({ min: 0, max: 3 }).map((n) => n === 0) }), { nil: undefined })
      : fc.constant(undefined)
    const def = fc.record({ fields: fc.array(field, { maxLength: 2 }), derived: fc.boolean(), abstract: fc.boolean(), oneOf: rule('oneOf'), anyOf: rule('anyOf') })
    return fc.array(def, { minLength: count, maxLength: count })
  }).map((drawn) => {
    const defs: TypeDef[] = drawn.map(({ oneOf, anyOf, ...d }, i) => {
      // The first type states an exclusive choice of two branches at least.
      const first = choices && i === 0
      const drawnBranches = oneOf?.branches ?? []
      const exclusive = first ? { keyword: 'oneOf' as const, apart: false, branches: [...drawnBranches, { kind: 'string' as const, target: 0 }, { kind: 'integer' as const, target: 0 }].slice(0, Math.max(2, drawnBranches.length)) } : oneOf
      return { ...d, derived: d.derived && !first, typed: !choices || (d.derived && !first), rules: [exclusive, anyOf].flatMap((r) => r === undefined ? [] : [takeable(r)]) }
    })
    const $defs: Record<string, unknown> = {}
    const use = (j: number): Record<string, unknown> => defs[j].derived ? { oneOf: [{ $ref: `#/$defs/T${j}` }, { $ref: `#/$defs/T${j}x` }] } : { $ref: `#/$defs/T${j}` }
    defs.forEach((d, i) => {
      const schemas: Record<string, unknown> = { v: { type: 'string' } }
      const required = [...(d.typed ? ['$type'] : []), 'v']
      d.fields.forEach((f, j) => {
        schemas[`f${j}`] = f.array ? { type: 'array', items: use(f.target) } : use(f.target)
        if (f.required && f.target > i && !f.array) required.push(`f${j}`)
      })
      const rules: Record<string, unknown> = {}
      for (const rule of d.rules) {
        rule.branches.forEach((b, k) => { schemas[branchProperty(rule, k)] = branchSchema(b.kind, use(b.target)) })
        rules[rule.keyword] = rule.branches.map((b, k) => ({ required: [branchProperty(rule, k)], properties: { [branchProperty(rule, k)]: b.kind === 'array' ? { type: 'array', minItems: 1 } : true } }))
      }
      const properties = { ...(d.typed ? { $type: { const: `T${i}` } } : {}), ...Object.fromEntries(propertyOrder(d).map((p) => [p, schemas[p]])) }
      $defs[`T${i}`] = { type: 'object', properties, required, ...rules, additionalProperties: false, ...(d.derived && d.abstract ? { xml: { abstract: true } } : {}) }
      if (d.derived) $defs[`T${i}x`] = { type: 'object', properties: { ...properties, $type: { const: `T${i}x` }, w: { type: 'integer' } }, required: [...required, 'w'], ...rules, additionalProperties: false }
    })
    return { $defs, defs, root: use(0) }
  })
}

/** The branches of a presence rule a value takes: one (the loose array, if any, for it is always there), or some; the first two when `both`. */
function branchesTaken (rule: Rule, depth: number, both: boolean, next: () => number): Set<number> {
  if (both) return new Set([0, 1])
  const open = rule.branches.flatMap((b, k) => b.kind !== 'ref' || depth > 0 ? [k] : [])
  const loose = rule.branches.findIndex((b) => b.kind === 'loose')
  if (rule.keyword === 'oneOf') return new Set([loose >= 0 ? loose : open[next() % open.length]])
  const some = open.filter(() => next() % 2 === 0)
  return new Set(some.length > 0 ? some : [open[next() % open.length]])
}

/**
 * A value of type `T<i>` or, when it has one, the type derived from it; and
 * the XML of its content, in property order. Its presence rules are kept,
 * unless `both`: then the first two branches of its "oneOf" are taken, each
 * element there.
 */
function derivedValue (defs: readonly TypeDef[], i: number, depth: number, seed: { n: number }, both = false): { value: Record<string, unknown>, xml: string, xsiType: string | undefined } {
  const next = (): number => (seed.n = (seed.n * 1103515245 + 12345) % 2147483648)
  const d = defs[i]
  const derived = d.derived && (d.abstract || next() % 2 === 0)
  const value: Record<string, unknown> = d.typed ? { $type: derived ? `T${i}x` : `T${i}` } : {}
  const xml: Record<string, string> = {}
  const element = (property: string, item: { xml: string, xsiType?: string | undefined }): string => `<p:${property}${item.xsiType === undefined ? '' : ` xsi:type="p:${item.xsiType}"`}>${item.xml}</p:${property}>`
  const typed = (target: number): { value: unknown, xml: string, xsiType: string | undefined } => derivedValue(defs, target, depth - 1, seed)
  value.v = `s${next() % 97}`
  xml.v = `<p:v>${value.v as string}</p:v>`
  d.fields.forEach((f, j) => {
    const count = f.array ? (depth <= 0 ? 0 : next() % 3) : (f.required && f.target > i) || (depth > 0 && next() % 2 === 0) ? 1 : 0
    const items = Array.from({ length: count }, () => typed(f.target))
    xml[`f${j}`] = items.map((item) => element(`f${j}`, item)).join('')
    if (f.array) value[`f${j}`] = items.map((item) => item.value); else if (count === 1) value[`f${j}`] = items[0].value
  })
  for (const rule of d.rules) {
    const broken = both && rule.keyword === 'oneOf'
    const taken = branchesTaken(rule, depth, broken, next)
    rule.branches.forEach(({ kind, target }, k) => {
      const property = branchProperty(rule, k)
      const strings = (min: number): string[] => Array.from({ length: Math.max(min, next() % 3) }, () => `s${next() % 97}`)
      if (kind === 'array' || kind === 'loose') {
        // An array that is not wrapped is read back as [] when no element came: it is always given.
        value[property] = taken.has(k) ? strings(kind === 'array' || broken ? 1 : 0) : []
        xml[property] = (value[property] as string[]).map((s) => element(property, { xml: s })).join('')
        return
      }
      if (!taken.has(k)) return
      let item: { value: unknown, xml: string, xsiType?: string | undefined }
      if (kind === 'string' || kind === 'integer') {
        const scalar = kind === 'string' ? `c${next() % 97}` : next() % 1000 - 500
        item = { value: scalar, xml: String(scalar) }
      } else if (kind === 'list') {
        const numbers = strings(0).map(() => next() % 100)
        item = { value: numbers, xml: numbers.join(' ') }
      } else if (kind === 'wrapped') {
        const wrapped = strings(0)
        item = { value: wrapped, xml: wrapped.map((s) => `<p:i>${s}</p:i>`).join('') }
      } else {
        item = typed(target)
      }
      value[property] = item.value
      xml[property] = element(property, item)
    })
  }
  if (derived) {
    value.w = next() % 1000 - 500
    xml.w = `<p:w>${value.w as number}</p:w>`
  }
  return { value, xml: [...propertyOrder(d), 'w'].map((p) => xml[p] ?? '').join(''), xsiType: derived ? `T${i}x` : undefined }
}

/** A request to the Echo of the random types' services, holding the item given. */
function typedRequest (item: { xml: string, xsiType: string | undefined }): string {
  return envelope('1.2', `<p:Echo xmlns:p="urn:example:p" xmlns:xsi="${XSI}"><p:item${item.xsiType === undefined ? '' : ` xsi:type="p:${item.xsiType}"`}>${item.xml}</p:item></p:Echo>`)
}

test('docs/services.md "Derived types", property: random named types, some with a derived type (abstract or not) and referring to one another, round-trip through the codec with xsi:type, and every request and answer validates against the generated XSD (xmllint)', async (t: TestContext) => {
  const lint = lintFolder(t)
  let run = 0
  await fc.assert(fc.asyncProperty(typedServices(false), fc.integer({ min: 0, max: 2 ** 31 - 1 }), async ({ $defs, defs, root }, seed) => {
    run++
    await withEcho(`/d${run}`, { type: 'object', properties: { item: root }, required: ['item'], $defs }, async (echo) => {
      const item = derivedValue(defs, 0, 3, { n: seed })
      await assertEchoed(t, echo, typedRequest(item), { item: item.value }, lint)
    })
  }), { numRuns: 25 })
})

test('docs/wsdl.md "Presence rules", property: random named types mixing cycles, derived types and presence rules (stated by the XSD or not) round-trip through the codec, every request and answer validates against the generated XSD (xmllint); two branches of a stated exclusive choice are refused by the XSD, on input (Sender) and on output (Receiver, SOAP_ERR_OUTPUT_INVALID)', async (t: TestContext) => {
  const lint = lintFolder(t)
  let run = 0
  await fc.assert(fc.asyncProperty(typedServices(true), fc.integer({ min: 0, max: 2 ** 31 - 1 }), async ({ $defs, defs, root }, seed) => {
    run++
    await withEcho(`/c${run}`, { type: 'object', properties: { item: root }, required: ['item'], $defs }, async (echo) => {
      const item = derivedValue(defs, 0, 3, { n: seed })
      const request = typedRequest(item)
      const driver = await assertEchoed(t, echo, request, { item: item.value }, lint)
      // The first type's exclusive choice, two of its branches taken.
      const both = derivedValue(defs, 0, 3, { n: seed }, true)
      const refused = await postEcho(echo, typedRequest(both))
      t.assert.match(refused.body, /<soap:Value>soap:Sender<\/soap:Value>[^]*the elements present do not fit the content model/)
      if (driver !== undefined && lint !== undefined) t.assert.notStrictEqual(validateMessage(driver, lint.dir, typedRequest(both), `c${run}-both`).status, 0)
      echo.answer = { item: both.value }
      const wrong = await postEcho(echo, request)
      t.assert.strictEqual(wrong.statusCode, 500)
      t.assert.match(wrong.body, /<soap:Value>soap:Receiver<\/soap:Value>/)
      t.assert.ok(echo.logs.some((l) => l.err?.code === 'SOAP_ERR_OUTPUT_INVALID'))
    })
  }), { numRuns: 25 })
})

/** One branch of a presence rule: `property` present (an array: with an item, when `item`). */
function branch (property: string, item = false): Record<string, unknown> {
  return { required: [property], properties: { [property]: item ? { type: 'array', minItems: 1 } : true } }
}

const STRING = { type: 'string' } as const

/** A contact reached one way exactly (email, phone, tags with one at least), and by fax or post (one at least). */
const CONTACT = {
  type: 'object',
  properties: {
    id: STRING,
    email: STRING,
    phone: { type: 'integer' },
    tags: { type: 'array', items: STRING },
    fax: STRING,
    post: { $ref: '#/$defs/Address' },
    note: STRING
  },
  required: ['id'],
  oneOf: [branch('email'), branch('phone'), branch('tags', true)],
  anyOf: [branch('fax'), branch('post')],
  additionalProperties: false,
  $defs: { Address: { type: 'object', properties: { city: STRING }, required: ['city'], additionalProperties: false } }
}

test('docs/wsdl.md "Presence rules", xmllint: a oneOf of single required elements is an xs:choice of them (exactly one), an anyOf one at least (a choice of sequences); the XSD and the plugin accept and refuse the same messages; an answer breaking the choice is a Receiver fault', async (t: TestContext) => {
  await withEcho('/contact', CONTACT, async (echo) => {
    const wsdl = (await get(echo.app, '/contact?wsdl')).body.replace(/>\s+</g, '><')
    t.assert.match(wsdl, /<xs:element name="id" type="xs:string"\/><xs:choice><xs:element name="email" type="xs:string"\/><xs:element name="phone" type="xs:long"\/><xs:element name="tags" maxOccurs="unbounded" type="xs:string"\/><\/xs:choice>/)
    t.assert.match(wsdl, /<\/xs:choice><xs:choice><xs:sequence><xs:element name="fax" type="xs:string"\/><xs:element name="post" minOccurs="0" type="tns:Address"\/><\/xs:sequence><xs:sequence><xs:element name="post" type="tns:Address"\/><\/xs:sequence><\/xs:choice><xs:element name="note" minOccurs="0" type="xs:string"\/>/)
    const lint = assertValidWsdl(t, wsdl)
    const driver = lint === undefined ? undefined : await messageSchema(t, echo.app, '/contact', '1.2', lint.dir, lint.schemas)
    const post = '<p:post><p:city>c</p:city></p:post>'
    for (const [content, accepted] of [
      ['<p:id>1</p:id><p:email>a@b</p:email><p:fax>1</p:fax>', true],
      [`<p:id>1</p:id><p:tags>a</p:tags><p:tags>b</p:tags>${post}`, true],
      [`<p:id>1</p:id><p:phone>5</p:phone><p:fax>1</p:fax>${post}<p:note>n</p:note>`, true],
      ['<p:id>1</p:id><p:email>a@b</p:email><p:phone>5</p:phone><p:fax>1</p:fax>', false],
      ['<p:id>1</p:id><p:email>a@b</p:email><p:tags>a</p:tags><p:fax>1</p:fax>', false],
      ['<p:id>1</p:id><p:fax>1</p:fax>', false],
      ['<p:id>1</p:id><p:email>a@b</p:email><p:note>n</p:note>', false]
    ] as const) {
      const request = envelope('1.2', `<p:Echo xmlns:p="urn:example:p">${content}</p:Echo>`)
      const response = await postEcho(echo, request)
      if (accepted) t.assert.strictEqual(response.statusCode, 200, `${content}: ${response.body}`)
      else t.assert.match(response.body, /<soap:Value>soap:Sender<\/soap:Value>[^]*the elements present do not fit the content model/, content)
      if (driver !== undefined && lint !== undefined) t.assert.strictEqual(validateMessage(driver, lint.dir, request, 'contact').status === 0, accepted, content)
      if (driver !== undefined && lint !== undefined && accepted) t.assert.strictEqual(validateMessage(driver, lint.dir, response.body, 'contact-answer').status, 0, response.body)
    }
    echo.answer = { id: '1', email: 'a@b', phone: 5, tags: [], fax: '1' }
    const wrong = await postEcho(echo, envelope('1.2', '<p:Echo xmlns:p="urn:example:p"><p:id>1</p:id><p:email>a@b</p:email><p:fax>1</p:fax></p:Echo>'))
    t.assert.strictEqual(wrong.statusCode, 500)
    t.assert.match(wrong.body, /<soap:Value>soap:Receiver<\/soap:Value>/)
    t.assert.ok(echo.logs.some((l) => l.err?.code === 'SOAP_ERR_OUTPUT_INVALID'))
  })
})

test('docs/wsdl.md "Presence rules": a rule no xs:choice says exactly (several properties in a branch, a required or attribute property, elements apart, not, an item of a wrapped array, one at least over a loose array or a later element of a type of its own, an object with a $type, an item of an array of none, a count of items other than one at least) is left out; a loose array is optional in an exclusive choice; of two rules on one element, the oneOf is stated', async (t: TestContext) => {
  const strings = { type: 'array', items: STRING }
  const object = (properties: Record<string, unknown>, rules: Record<string, unknown>): Record<string, unknown> => ({ type: 'object', properties, ...rules, additionalProperties: false })
  const unstated = {
    several: object({ a: STRING, b: STRING, c: STRING }, { oneOf: [{ required: ['a', 'b'], properties: { a: true, b: true } }, branch('c')] }),
    required: object({ a: STRING, b: STRING }, { required: ['a'], oneOf: [branch('a'), branch('b')] }),
    attribute: object({ a: { type: 'string', xml: { attribute: true } }, b: STRING }, { oneOf: [branch('a'), branch('b')] }),
    apart: object({ a: STRING, m: STRING, b: STRING }, { oneOf: [branch('a'), branch('b')] }),
    negation: object({ a: STRING, b: STRING }, { not: { required: ['a', 'b'], properties: { a: true, b: true } } }),
    wrapped: object({ a: { ...strings, xml: { wrapped: true } }, b: STRING }, { oneOf: [branch('a', true), branch('b')] }),
    loose: object({ a: strings, b: STRING }, { anyOf: [branch('a'), branch('b')] }),
    anonymous: object({ a: STRING, b: { type: 'integer', minimum: 0 } }, { anyOf: [branch('a'), branch('b')] }),
    typed: object({ $type: { const: 'Typed' }, a: STRING, b: STRING }, { required: ['$type'], oneOf: [branch('a'), branch('b')] }),
    never: object({ a: { ...strings, maxItems: 0 }, b: STRING }, { oneOf: [branch('a', true), branch('b')] }),
    counted: object({ a: strings, b: STRING }, { oneOf: [{ required: ['a'], properties: { a: { type: 'array', minItems: 1, maxItems: 1 } } }, branch('b')] })
  }
  const stated = {
    optional: object({ a: strings, b: STRING }, { oneOf: [branch('a'), branch('b')] }),
    both: object({ a: STRING, b: STRING, c: STRING }, { oneOf: [branch('a'), branch('b')], anyOf: [branch('b'), branch('c')] }),
    // An unbounded integer is of a built-in type, so it may be declared in several branches.
    integer: object({ a: STRING, b: { type: 'integer' } }, { anyOf: [branch('a'), branch('b')] })
  }
  await withEcho('/rules', { type: 'object', properties: { ...unstated, ...stated }, additionalProperties: false }, async (echo) => {
    const text = (await get(echo.app, '/rules?wsdl')).body
    const elements = all(parse(text), XS_NS, 'element')
    const choices = (name: string): Element[] => all(elements.find((e) => e.getAttribute('name') === name) as Element, XS_NS, 'choice')
    for (const name of Object.keys(unstated)) t.assert.strictEqual(choices(name).length, 0, name)
    const flat = text.replace(/>\s+</g, '><')
    t.assert.match(flat, /<xs:element name="optional" minOccurs="0"><xs:complexType><xs:sequence><xs:choice><xs:element name="a" minOccurs="0" maxOccurs="unbounded" type="xs:string"\/><xs:element name="b" type="xs:string"\/><\/xs:choice>/)
    t.assert.match(flat, /<xs:element name="integer" minOccurs="0"><xs:complexType><xs:sequence><xs:choice><xs:sequence><xs:element name="a" type="xs:string"\/><xs:element name="b" minOccurs="0" type="xs:long"\/><\/xs:sequence><xs:sequence><xs:element name="b" type="xs:long"\/><\/xs:sequence><\/xs:choice>/)
    t.assert.match(flat, /<xs:element name="both" minOccurs="0"><xs:complexType><xs:sequence><xs:choice><xs:element name="a" type="xs:string"\/><xs:element name="b" type="xs:string"\/><\/xs:choice><xs:element name="c" minOccurs="0" type="xs:string"\/><\/xs:sequence>/)
    assertValidWsdl(t, text)
  })
  // A type derived from one with an exclusive choice, without it: both elements in the derived type are valid, to Ajv and to the XSD.
  const typed = (tag: string, properties: Record<string, unknown>, rules: Record<string, unknown> = {}): Record<string, unknown> => object({ $type: { const: tag }, a: STRING, b: STRING, ...properties }, { required: ['$type'], ...rules })
  const $defs = { Base: typed('Base', {}, { oneOf: [branch('a'), branch('b')] }), Wide: typed('Wide', { c: STRING }) }
  await withEcho('/wide', { type: 'object', properties: { shape: { oneOf: [{ $ref: '#/$defs/Base' }, { $ref: '#/$defs/Wide' }] } }, required: ['shape'], $defs }, async (echo) => {
    const request = envelope('1.2', `<p:Echo xmlns:p="urn:example:p" xmlns:xsi="${XSI}"><p:shape xsi:type="p:Wide"><p:a>1</p:a><p:b>2</p:b><p:c>3</p:c></p:shape></p:Echo>`)
    await assertEchoed(t, echo, request, { shape: { $type: 'Wide', a: '1', b: '2', c: '3' } }, lintFolder(t))
  })
})

test('docs/addressing.md "Description", xmllint: a service with WS-Addressing and WS-Security states both in one policy, wsam:Action on each message, and its WSDL validates', async (t: TestContext) => {
  const app = await build(t, { ...calculator, path: '/policy', addressing: { required: true }, security: { usernameToken: { lookup: () => 'secret' } } } as SoapServiceDefinition)
  const wsdl = (await get(app, '/policy?wsdl')).body
  t.assert.strictEqual(wsdl.match(/<wsp:Policy wsu:Id="/g)?.length, 1, 'one policy')
  t.assert.match(wsdl, /<sp:SupportingTokens[^]*<wsam:Addressing xmlns:wsam="http:\/\/www\.w3\.org\/2007\/05\/addressing\/metadata"><wsp:Policy\/><\/wsam:Addressing>/)
  t.assert.match(wsdl, /<wsdl:input message="tns:AddRequest" wsam:Action="[^"]+\/Add"\/>/)
  assertValidWsdl(t, wsdl)
})

test('docs/wsdl.md "The mapping", xmllint: an object with xml.mixed is a mixed="true" complex type; the text and elements the codec writes validate', async (t: TestContext) => {
  const note = { type: 'object', properties: { $value: { type: 'string', xml: { text: true } }, b: { type: 'array', items: { type: 'string' } }, lang: { type: 'string', xml: { attribute: true } } }, xml: { mixed: true }, additionalProperties: false }
  const app = await build(t, {
    path: '/mixed',
    name: 'Mixed',
    namespace: 'urn:example:mixed',
    operations: { Echo: { input: { type: 'object', properties: { note }, required: ['note'] }, output: { type: 'object', properties: { note }, required: ['note'] }, handler: (input: unknown) => input } }
  } as unknown as SoapServiceDefinition)
  const wsdl = (await get(app, '/mixed?wsdl')).body
  t.assert.match(wsdl, /<xs:element name="note">\s*<xs:complexType mixed="true">/)
  const schemas = xmllint(t)
  if (schemas === undefined) return
  const dir = tempDir(t)
  const driver = await messageSchema(t, app, '/mixed', '1.2', dir, schemas)
  const request = envelope('1.2', '<m:Echo xmlns:m="urn:example:mixed"><m:note lang="en">Hello <m:b>bold</m:b> world</m:note></m:Echo>')
  t.assert.strictEqual(validateMessage(driver, dir, request, 'mixed-request').status, 0)
  const response = await post(app, '1.2', request, { url: '/mixed' })
  t.assert.strictEqual(response.statusCode, 200, response.body)
  t.assert.match(response.body, /<tns:note lang="en">Hello {2}world<tns:b>bold<\/tns:b><\/tns:note>/)
  const answered = validateMessage(driver, dir, response.body, 'mixed-response')
  t.assert.strictEqual(answered.status, 0, answered.output)
})

test('docs/wsdl.md "The mapping": xml.anyNamespaces is the xs:any\'s namespace list (##local for none), xml.anyExcept ##other; the WSDL validates', async (t: TestContext) => {
  const any = (xml: Record<string, unknown>): Record<string, unknown> => ({ type: 'object', properties: { $any: { type: 'array', items: { type: 'object' }, xml: { any: true, ...xml } } }, additionalProperties: false })
  const app = await build(t, {
    path: '/wild',
    name: 'Wild',
    namespace: 'urn:example:wild',
    operations: { Put: { input: { type: 'object', properties: { listed: any({ anyNamespaces: ['urn:a', ''] }), except: any({ anyExcept: ['urn:example:wild', ''] }) } }, handler: () => undefined } }
  } as unknown as SoapServiceDefinition)
  const wsdl = (await get(app, '/wild?wsdl')).body
  t.assert.match(wsdl, /<xs:element name="listed"[^]*?<xs:any namespace="urn:a ##local" processContents="lax"/)
  t.assert.match(wsdl, /<xs:element name="except"[^]*?<xs:any namespace="##other" processContents="lax"/)
  assertValidWsdl(t, wsdl)
})

test('docs/wsdl.md "The mapping", xmllint, XML Schema Part 2 §4.3.6 and §4.3.1.3: xml.whiteSpace is xs:token (collapse) or xs:normalizedString (replace); contentEncoding base64 and base16 are xs:base64Binary and xs:hexBinary, xml.minOctets and xml.maxOctets their lengths; the codec and the XSD agree', async (t: TestContext) => {
  const P = 'urn:example:plain'
  const schema = {
    type: 'object',
    properties: {
      code: { type: 'string', enum: ['A B', 'C'], xml: { whiteSpace: 'collapse' } },
      name: { type: 'string', maxLength: 5, xml: { whiteSpace: 'collapse' } },
      line: { type: 'string', xml: { whiteSpace: 'replace' } },
      blob: { type: 'string', contentEncoding: 'base64', xml: { minOctets: 1, maxOctets: 4 } },
      hex: { type: 'string', contentEncoding: 'base16', xml: { maxOctets: 2 } },
      tagged: { type: 'object', properties: { $value: { type: 'string', xml: { text: true, whiteSpace: 'collapse' } }, n: { type: 'integer', xml: { attribute: true } } }, required: ['$value'], additionalProperties: false }
    },
    required: ['code', 'name', 'line', 'blob'],
    additionalProperties: false
  }
  const app = await build(t, { path: '/plain', name: 'Plain', namespace: P, operations: { Echo: { input: schema, output: schema, handler: (input: unknown) => input } } } as unknown as SoapServiceDefinition)
  const wsdl = (await get(app, '/plain?wsdl')).body
  const compact = wsdl.replace(/>\s+</g, '><')
  t.assert.ok(compact.includes('<xs:element name="code"><xs:simpleType><xs:restriction base="xs:token"><xs:enumeration value="A B"/><xs:enumeration value="C"/></xs:restriction></xs:simpleType></xs:element>'), compact)
  t.assert.ok(compact.includes('<xs:element name="line" type="xs:normalizedString"/>'))
  t.assert.ok(compact.includes('<xs:element name="blob"><xs:simpleType><xs:restriction base="xs:base64Binary"><xs:minLength value="1"/><xs:maxLength value="4"/></xs:restriction></xs:simpleType></xs:element>'), 'octets, not characters')
  t.assert.ok(compact.includes('<xs:element name="hex" minOccurs="0"><xs:simpleType><xs:restriction base="xs:hexBinary"><xs:maxLength value="2"/></xs:restriction></xs:simpleType></xs:element>'))
  t.assert.ok(compact.includes('<xs:simpleContent><xs:extension base="xs:token"><xs:attribute name="n"'), 'simple content of a collapsed string')
  const linted = assertValidWsdl(t, wsdl)
  if (linted === undefined) return
  const { schemas, dir } = linted
  const driver = await messageSchema(t, app, '/plain', '1.1', dir, schemas)
  const pretty = `<p:Echo xmlns:p="${P}">\n  <p:code>\n    A \t B\n  </p:code>\n  <p:name> abc  </p:name>\n  <p:line>a\tb</p:line>\n  <p:blob>\n    AAAA\n    AA==\n  </p:blob>\n  <p:hex> 0a0b </p:hex>\n  <p:tagged n="1"> x  y </p:tagged>\n</p:Echo>`
  const request = envelope('1.1', pretty)
  const asked = validateMessage(driver, dir, request, 'pretty-request')
  t.assert.strictEqual(asked.status, 0, asked.output)
  const response = await post(app, '1.1', request, { url: '/plain' })
  t.assert.strictEqual(response.statusCode, 200, response.body)
  t.assert.match(response.body, /<tns:code>A B<\/tns:code><tns:name>abc<\/tns:name><tns:line>a b<\/tns:line><tns:blob>AAAAAA==<\/tns:blob><tns:hex>0A0B<\/tns:hex><tns:tagged n="1">x y<\/tns:tagged>/)
  const answered = validateMessage(driver, dir, response.body, 'pretty-response')
  t.assert.strictEqual(answered.status, 0, `${answered.output}\n${response.body}`)
  for (const [rule, from, to] of [
    ['a token enumeration', '<p:code>\n    A \t B\n  </p:code>', '<p:code>AB</p:code>'],
    ['maxLength after collapse', '<p:name> abc  </p:name>', '<p:name> abc def </p:name>'],
    ['maxOctets', '<p:blob>\n    AAAA\n    AA==\n  </p:blob>', '<p:blob>AAAAAAA=</p:blob>'],
    ['minOctets', '<p:blob>\n    AAAA\n    AA==\n  </p:blob>', '<p:blob></p:blob>'],
    ['maxOctets of hex', '<p:hex> 0a0b </p:hex>', '<p:hex>0a0b0c</p:hex>']
  ] as const) {
    t.assert.ok(pretty.includes(from), rule)
    const refused = envelope('1.1', pretty.replace(from, to))
    const res = await post(app, '1.1', refused, { url: '/plain' })
    t.assert.strictEqual(res.statusCode, 500, `${rule}: the server accepts it: ${res.body}`)
    t.assert.match(res.body, /<faultcode>soap:Client<\/faultcode>/, rule)
    t.assert.strictEqual(validateMessage(driver, dir, refused, `refused-${rule.replace(/\W+/g, '-')}`).status, 3, `${rule}: the XSD accepts it`)
  }
})
