/**
 * docs/binary.md "MTOM", docs/protocol.md "MTOM/XOP" (replies): when a reply
 * is an MTOM package (the request was one, or the service or operation says
 * `mtom: 'always'`), its binary values from `mtomThreshold` bytes go as
 * parts; each package is read back with the plugin's own multipart reader.
 * Through fastify.inject and real loopback HTTP.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import Fastify, { type FastifyInstance } from 'fastify'
import soap, { defineOperation, errorCodes, readContract, WSA_NS, type SoapServiceDefinition, type SoapVersion } from '../lib/index'
import { parseContentType } from '../lib/soap/content-type'
import { readMultipart } from '../lib/soap/multipart'
import { readXopPackage } from '../lib/soap/xop'
import { contractWsdl, CONTRACT_NS, envelope, listen, MEDIA, sharedFixture } from './helper'
import { CLIENTS, requireClient, runClient } from './interop'
import { partner } from './ws/addressing/replies-support'
import { mtomMessage } from './mtom-message'

const NS = 'urn:test:mtom-out'
const blob = { type: 'string', contentEncoding: 'base64' } as const

const Fetch = defineOperation({
  input: { type: 'object', properties: { size: { type: 'integer' } }, required: ['size'], additionalProperties: false },
  output: {
    type: 'object',
    properties: { name: { type: 'string' }, data: blob, more: { type: 'array', items: blob } },
    additionalProperties: false,
    xml: { name: 'FetchResponse' }
  },
  handler: (input) => ({ name: 'n', data: bytesOf(input.size), more: [] })
})

/** `size` bytes, none the same as its neighbour's position would make it: 0..250 repeating. */
function bytesOf (size: number): Buffer {
  return Buffer.from(Array.from({ length: size }, (_, i) => i % 251))
}

async function service (t: TestContext, extra: Partial<SoapServiceDefinition> = {}): Promise<FastifyInstance> {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.service({ path: '/files', namespace: NS, name: 'Files', operations: { Fetch }, ...extra })
  await app.ready()
  return app
}

test('docs/binary.md "MTOM" (options): mtom is \'always\', \'request\' or \'never\' and mtomThreshold a non-negative integer, on a service or an operation; anything else fails ready() with SOAP_ERR_SERVICE_INVALID naming the key', async (t: TestContext) => {
  for (const mtom of ['always', 'request', 'never'] as const) {
    const app = await service(t, { mtom, mtomThreshold: 0, operations: { Fetch: { ...Fetch, mtom, mtomThreshold: 10 } } })
    t.assert.ok(app.soap !== undefined, mtom)
  }
  const bad: Array<[Partial<SoapServiceDefinition>, RegExp]> = [
    [{ mtom: 'yes' as never }, /"mtom" must be one of always, request, never/],
    [{ mtom: true as never }, /"mtom" must be one of always, request, never/],
    [{ mtomThreshold: -1 }, /"mtomThreshold" must be a non-negative integer of bytes/],
    [{ mtomThreshold: 1.5 }, /"mtomThreshold" must be a non-negative integer of bytes/],
    [{ mtomThreshold: '768' as never }, /"mtomThreshold" must be a non-negative integer of bytes/],
    [{ operations: { Fetch: { ...Fetch, mtom: 'sometimes' as never } } }, /operation Fetch: "mtom" must be one of/],
    [{ operations: { Fetch: { ...Fetch, mtomThreshold: -5 } } }, /operation Fetch: "mtomThreshold" must be a non-negative/]
  ]
  for (const [extra, message] of bad) {
    const app = Fastify()
    await app.register(soap)
    app.soap.service({ path: '/files', namespace: NS, name: 'Files', operations: { Fetch }, ...extra })
    await t.assert.rejects(async () => { await app.ready() }, (err: Error) => {
      t.assert.ok(err instanceof errorCodes.SOAP_ERR_SERVICE_INVALID, err.message)
      t.assert.match(err.message, message)
      return true
    }, JSON.stringify(extra))
    await app.close()
  }
})

const LIMITS = { maxParts: 1000, maxPartHeaders: 16, maxPartHeaderBytes: 4096 }
const SOAP_TYPE: Record<SoapVersion, string> = { 1.1: 'text/xml', 1.2: 'application/soap+xml' }
const XOP_INCLUDE = /<xop:Include xmlns:xop="http:\/\/www\.w3\.org\/2004\/08\/xop\/include" href="cid:([^"]+)"\/>/g

const fetchCall = (size: number): string => `<t:Fetch xmlns:t="${NS}"><t:size>${size}</t:size></t:Fetch>`

/** A request for `size` bytes: a plain envelope, or an MTOM package with the envelope as its only part. */
async function ask (app: FastifyInstance, version: SoapVersion, size: number, mtom: boolean, url = '/files', call = fetchCall(size)) {
  const xml = envelope(version, call)
  const headers: Record<string, string> = version === '1.1' ? { soapaction: '""' } : {}
  if (!mtom) return await app.inject({ method: 'POST', url, headers: { 'content-type': MEDIA[version], ...headers }, payload: xml })
  const { contentType, body } = mtomMessage(version, xml, [])
  return await app.inject({ method: 'POST', url, headers: { 'content-type': contentType, ...headers }, payload: body })
}

interface Unpacked {
  /** The root part's envelope, as text. */
  envelope: string
  /** Every xop:Include's part, in the envelope's order, with the element it is the sole child of. */
  included: Array<{ element: string, bytes: Buffer }>
  /** The parts that are not the root. */
  parts: number
}

/**
 * An MTOM reply read back by the plugin's own reader (readXopPackage, readMultipart) and checked as
 * SOAP MTOM 1.0 §4, XOP 1.0 §3 and RFC 2387 say: its Content-Type parameters, the root part's type,
 * Content-IDs, Content-Transfer-Encoding, an exact Content-Length, each include the sole child of its element.
 */
function unpack (t: TestContext, version: SoapVersion, res: { headers: Record<string, unknown>, rawPayload: Buffer }): Unpacked {
  const header = String(res.headers['content-type'])
  const { mediaType, params } = parseContentType(header)
  t.assert.strictEqual(mediaType, 'multipart/related', header)
  t.assert.strictEqual(params.get('type'), 'application/xop+xml')
  t.assert.strictEqual(params.get('start-info'), SOAP_TYPE[version])
  t.assert.match(params.get('boundary') ?? '', /^uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  t.assert.match(params.get('start') ?? '', /^<[^<>]+>$/)
  t.assert.strictEqual(res.headers['content-length'], String(res.rawPayload.length), 'an exact Content-Length')
  t.assert.strictEqual(res.headers['transfer-encoding'], undefined, 'never chunked')
  const xop = readXopPackage(header, res.rawPayload, LIMITS)
  t.assert.strictEqual(xop.media.version.version, version)
  const all = readMultipart(res.rawPayload, params.get('boundary') as string, LIMITS)
  const root = all.find((part) => `<${part.contentId ?? ''}>` === params.get('start'))
  t.assert.ok(root !== undefined, 'the start parameter names the root part')
  t.assert.strictEqual(root.contentType, `application/xop+xml; charset=UTF-8; type="${SOAP_TYPE[version]}"`)
  const encodings = res.rawPayload.toString('latin1').match(/\r\nContent-Transfer-Encoding: binary\r\n/g) ?? []
  t.assert.strictEqual(encodings.length, all.length, 'each part is Content-Transfer-Encoding: binary')
  const text = xop.root.toString('utf8')
  const included: Unpacked['included'] = []
  for (const match of text.matchAll(XOP_INCLUDE)) {
    const before = text.slice(0, match.index)
    const element = /<([\w:]+)(?: [^<>]*)?>$/.exec(before)?.[1]
    t.assert.ok(element !== undefined && text.startsWith(`</${element}>`, (match.index) + match[0].length), 'an xop:Include is its element\'s sole child')
    const bytes = xop.parts.get(decodeURIComponent(match[1]))
    t.assert.ok(bytes !== undefined, `the part of ${match[1]}`)
    included.push({ element, bytes })
  }
  t.assert.strictEqual(included.length, xop.parts.size, 'every part is included once')
  return { envelope: text, included, parts: xop.parts.size }
}

/** The base64 text of the element `name` (any prefix). */
function inline (body: string, name: string): string | undefined {
  return new RegExp(`<(?:\\w+:)?${name}>([A-Za-z0-9+/=]*)</(?:\\w+:)?${name}>`).exec(body)?.[1]
}

for (const version of ['1.1', '1.2'] as const) {
  test(`docs/binary.md "MTOM", SOAP MTOM 1.0 §3-4, XOP 1.0 §3 (SOAP ${version}): an MTOM request is answered with an MTOM package: the envelope as its application/xop+xml root part, a binary value of mtomThreshold bytes or more as a part its xop:Include names, byte for byte, with an exact Content-Length`, async (t: TestContext) => {
    const app = await service(t)
    const res = await ask(app, version, 5000, true)
    t.assert.strictEqual(res.statusCode, 200, res.body)
    const { envelope: xml, included } = unpack(t, version, res)
    t.assert.match(xml, new RegExp(`^<\\?xml version="1.0" encoding="utf-8"\\?><soap:Envelope xmlns:soap="${version === '1.1' ? 'http://schemas.xmlsoap.org/soap/envelope/' : 'http://www.w3.org/2003/05/soap-envelope'}">`))
    t.assert.strictEqual(included.length, 1)
    t.assert.match(included[0].element, /:data$/)
    t.assert.deepStrictEqual(included[0].bytes, bytesOf(5000))
  })

  test(`docs/binary.md "MTOM" (threshold, SOAP ${version}): with the default mtomThreshold, 768, a value of 767 bytes is written inline as base64 and one of 768 goes as a part; an operation's own threshold wins over the service's`, async (t: TestContext) => {
    const app = await service(t)
    const under = unpack(t, version, await ask(app, version, 767, true))
    t.assert.strictEqual(under.parts, 0)
    t.assert.strictEqual(inline(under.envelope, 'data'), bytesOf(767).toString('base64'))
    const at = unpack(t, version, await ask(app, version, 768, true))
    t.assert.deepStrictEqual(at.included.map((i) => i.bytes), [bytesOf(768)])
    const own = await service(t, { mtomThreshold: 100, operations: { Fetch: { ...Fetch, mtomThreshold: 10 } } })
    t.assert.strictEqual(unpack(t, version, await ask(own, version, 9, true)).parts, 0)
    t.assert.deepStrictEqual(unpack(t, version, await ask(own, version, 10, true)).included.map((i) => i.bytes), [bytesOf(10)])
    const zero = await service(t, { mtomThreshold: 0 })
    t.assert.deepStrictEqual(unpack(t, version, await ask(zero, version, 0, true)).included.map((i) => i.bytes), [Buffer.alloc(0)])
  })

  test(`docs/binary.md "MTOM" (mtom: 'never', SOAP ${version}): an MTOM request to a service or operation that says 'never' is answered with a plain envelope, its binary values inline as base64`, async (t: TestContext) => {
    for (const extra of [{ mtom: 'never' }, { operations: { Fetch: { ...Fetch, mtom: 'never' } } }] as const) {
      const app = await service(t, extra)
      const res = await ask(app, version, 5000, true)
      t.assert.strictEqual(res.statusCode, 200, res.body)
      t.assert.strictEqual(res.headers['content-type'], version === '1.1' ? 'text/xml; charset=utf-8' : 'application/soap+xml; charset=utf-8')
      t.assert.strictEqual(inline(res.body, 'data'), bytesOf(5000).toString('base64'))
    }
  })

  test(`docs/binary.md "MTOM" (mtom: 'always', SOAP ${version}): a plain request to a service or operation that says 'always' is answered with an MTOM package; with the default 'request', with a plain envelope`, async (t: TestContext) => {
    for (const extra of [{ mtom: 'always' }, { operations: { Fetch: { ...Fetch, mtom: 'always' } } }] as const) {
      const app = await service(t, extra)
      const res = await ask(app, version, 1000, false)
      t.assert.strictEqual(res.statusCode, 200, res.body)
      t.assert.deepStrictEqual(unpack(t, version, res).included.map((i) => i.bytes), [bytesOf(1000)])
    }
    const plain = await ask(await service(t), version, 1000, false)
    t.assert.strictEqual(plain.headers['content-type'], version === '1.1' ? 'text/xml; charset=utf-8' : 'application/soap+xml; charset=utf-8')
    t.assert.strictEqual(inline(plain.body, 'data'), bytesOf(1000).toString('base64'))
  })

  test(`docs/binary.md "MTOM" (faults, SOAP ${version}): a fault answering an MTOM request is an MTOM package whose only part is the fault's envelope, with the fault's status; before dispatch too (MustUnderstand); with mtom: 'never', a plain fault`, async (t: TestContext) => {
    const app = await service(t)
    const status = version === '1.1' ? 500 : 400
    const bad = await ask(app, version, 0, true, '/files', `<t:Fetch xmlns:t="${NS}"><t:size>many</t:size></t:Fetch>`)
    t.assert.strictEqual(bad.statusCode, status, bad.body)
    const fault = unpack(t, version, bad)
    t.assert.strictEqual(fault.parts, 0)
    t.assert.match(fault.envelope, version === '1.1' ? /<faultcode>soap:Client<\/faultcode>/ : /<soap:Value>soap:Sender<\/soap:Value>/)
    const xml = envelope(version, fetchCall(1), '<h:Must xmlns:h="urn:h" s:mustUnderstand="1">x</h:Must>')
    const { contentType, body } = mtomMessage(version, xml, [])
    const must = await app.inject({ method: 'POST', url: '/files', headers: { 'content-type': contentType, ...(version === '1.1' ? { soapaction: '""' } : {}) }, payload: body })
    t.assert.strictEqual(must.statusCode, 500, must.body)
    t.assert.match(unpack(t, version, must).envelope, /MustUnderstand/)
    const never = await service(t, { mtom: 'never' })
    const plain = await ask(never, version, 0, true, '/files', `<t:Fetch xmlns:t="${NS}"><t:size>many</t:size></t:Fetch>`)
    t.assert.strictEqual(plain.statusCode, status)
    t.assert.strictEqual(plain.headers['content-type'], version === '1.1' ? 'text/xml; charset=utf-8' : 'application/soap+xml; charset=utf-8')
  })
}

test('docs/binary.md "MTOM" (real loopback HTTP): an MTOM reply of several parts comes with an exact Content-Length, never chunked, and reads back byte for byte; an array\'s items are parts each', async (t: TestContext) => {
  const Many = defineOperation({
    input: Fetch.input,
    output: Fetch.output,
    handler: (input) => ({ name: 'n', data: bytesOf(input.size), more: [bytesOf(input.size + 1), new Uint8Array(bytesOf(2000)), bytesOf(3)] })
  })
  const app = await service(t, { mtom: 'always', operations: { Fetch: Many } })
  const port = await listen(app)
  const xml = envelope('1.2', fetchCall(300000))
  const res = await new Promise<{ headers: Record<string, unknown>, rawPayload: Buffer, statusCode: number }>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/files', headers: { 'content-type': MEDIA['1.2'], 'content-length': Buffer.byteLength(xml) } }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ headers: response.headers, rawPayload: Buffer.concat(chunks), statusCode: response.statusCode as number }))
      response.on('error', reject)
    })
    req.on('error', reject)
    req.end(xml)
  })
  t.assert.strictEqual(res.statusCode, 200)
  const { included } = unpack(t, '1.2', res)
  t.assert.deepStrictEqual(included.map((i) => i.bytes), [bytesOf(300000), bytesOf(300001), bytesOf(2000)])
  t.assert.match(included[1].element, /:more$/)
  t.assert.match(unpack(t, '1.2', res).envelope, /<tns:more>AAEC<\/tns:more>/)
})

test('docs/binary.md "MTOM" (GET, SOAP 1.2 Web Method): an operation invoked by GET, which has no request package, answers an MTOM package with mtom: \'always\', a plain envelope by default', async (t: TestContext) => {
  const always = await service(t, { operations: { Fetch: { ...Fetch, get: true, mtom: 'always' } } })
  const res = await always.inject({ method: 'GET', url: '/files/Fetch?size=800' })
  t.assert.strictEqual(res.statusCode, 200, res.body)
  t.assert.deepStrictEqual(unpack(t, '1.2', res).included.map((i) => i.bytes), [bytesOf(800)])
  const plain = await (await service(t, { operations: { Fetch: { ...Fetch, get: true } } })).inject({ method: 'GET', url: '/files/Fetch?size=800' })
  t.assert.strictEqual(plain.headers['content-type'], 'application/soap+xml; charset=utf-8')
  t.assert.strictEqual(inline(plain.body, 'data'), bytesOf(800).toString('base64'))
})

test('docs/binary.md "MTOM" (onSend): an onSend hook of the service\'s scope gets an MTOM reply as one Buffer, the whole package, which it may pass on', async (t: TestContext) => {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  const seen: unknown[] = []
  app.addHook('onSend', async (_request, _reply, payload) => { seen.push(payload); return payload })
  app.soap.service({ path: '/files', namespace: NS, name: 'Files', operations: { Fetch }, mtom: 'always' })
  await app.ready()
  const res = await ask(app, '1.2', 900, false)
  t.assert.strictEqual(seen.length, 1)
  t.assert.ok(Buffer.isBuffer(seen[0]), 'a Buffer')
  t.assert.deepStrictEqual(seen[0], res.rawPayload)
  t.assert.deepStrictEqual(unpack(t, '1.2', res).included.map((i) => i.bytes), [bytesOf(900)])
})

// ---------------------------------------------------------------- the WSDL ---

const WSOMA = 'http://schemas.xmlsoap.org/ws/2004/09/policy/optimizedmimeserialization'

/** The MTOM assertion of a generated WSDL's policy, and whether each binding references that policy. */
function mtomAssertion (wsdl: string): string | undefined {
  const assertion = /<wsoma:OptimizedMimeSerialization [^>]*\/>/.exec(wsdl)?.[0]
  if (assertion !== undefined) {
    const id = /<wsp:Policy wsu:Id="([^"]+)">/.exec(wsdl)?.[1]
    const references = wsdl.match(new RegExp(`<wsdl:binding [^>]*>\\s*<wsp:PolicyReference URI="#${id ?? ''}"/>`, 'g')) ?? []
    if (references.length !== 2) throw new Error('the policy is not referenced by both bindings: ' + wsdl)
  }
  return assertion
}

/** xmllint (libxml2-utils) validates `wsdl` against WSDL 1.1, both SOAP bindings and the schema for schemas; false when it or the schemas are missing (skipped). */
function validates (t: TestContext, wsdl: string): boolean {
  if (!requireClient(t, 'xmllint (libxml2-utils)', 'xmllint', ['--version'])) return false
  const schemas = sharedFixture(t, 'schemas')
  if (schemas === undefined) return false
  const dir = mkdtempSync(join(tmpdir(), 'fastify-soap-mtom-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(join(dir, 'service.wsdl'), wsdl)
  const result = spawnSync('xmllint', ['--noout', '--nonet', '--schema', join(schemas, 'recipes', 'driver-wsdl11.xsd'), join(dir, 'service.wsdl')], { encoding: 'utf8', timeout: 30_000 })
  t.assert.strictEqual(result.status, 0, result.stderr)
  return true
}

test('docs/wsdl.md "MTOM", WS-MTOMPolicy (wsoma:OptimizedMimeSerialization), xmllint: a service whose messages hold a base64 value states MTOM in its binding policy, wsp:Optional="true" when replies answer in kind, required with mtom: \'always\', none with \'never\' or without a base64 value; the WSDL validates', async (t: TestContext) => {
  const wsdlOf = async (extra: Partial<SoapServiceDefinition>): Promise<string> => (await (await service(t, extra)).inject({ method: 'GET', url: '/files?wsdl' })).body
  const optional = await wsdlOf({})
  t.assert.strictEqual(mtomAssertion(optional), `<wsoma:OptimizedMimeSerialization xmlns:wsoma="${WSOMA}" wsp:Optional="true"/>`)
  const always = await wsdlOf({ mtom: 'always' })
  t.assert.strictEqual(mtomAssertion(always), `<wsoma:OptimizedMimeSerialization xmlns:wsoma="${WSOMA}"/>`)
  t.assert.strictEqual(mtomAssertion(await wsdlOf({ operations: { Fetch: { ...Fetch, mtom: 'always' } } })), `<wsoma:OptimizedMimeSerialization xmlns:wsoma="${WSOMA}" wsp:Optional="true"/>`, 'one operation\'s \'always\' is optional for the binding')
  t.assert.strictEqual(mtomAssertion(await wsdlOf({ mtom: 'never' })), undefined)
  const Plain = defineOperation({ input: Fetch.input, output: { type: 'object', properties: { hex: { type: 'string', contentEncoding: 'base16' } }, xml: { name: 'PlainResponse' } }, handler: () => ({}) })
  const plain = await wsdlOf({ operations: { Fetch: Plain } })
  t.assert.strictEqual(mtomAssertion(plain), undefined, 'no base64 value: no assertion')
  t.assert.doesNotMatch(plain, /wsp:Policy/)
  t.assert.strictEqual(mtomAssertion(await wsdlOf({ mtom: 'always', operations: { Fetch: Plain } })), `<wsoma:OptimizedMimeSerialization xmlns:wsoma="${WSOMA}"/>`)
  for (const wsdl of [optional, always]) if (!validates(t, wsdl)) return
})

test('docs/wsdl.md "MTOM", XML Media Types §2.1 (xmime:expectedContentTypes), xmllint: a binary element whose schema gives contentMediaType declares it as xmime:expectedContentTypes; one without, none; the WSDL validates', async (t: TestContext) => {
  const Typed = defineOperation({
    input: Fetch.input,
    output: {
      type: 'object',
      properties: {
        photo: { type: 'string', contentEncoding: 'base64', contentMediaType: 'image/png' },
        pages: { type: 'array', items: { type: 'string', contentEncoding: 'base64', contentMediaType: 'application/pdf' } },
        raw: blob
      },
      xml: { name: 'TypedResponse' }
    },
    handler: (input) => ({ photo: bytesOf(input.size) })
  })
  const app = await service(t, { operations: { Fetch: Typed } })
  const wsdl = (await app.inject({ method: 'GET', url: '/files?wsdl' })).body
  t.assert.match(wsdl, /<xs:element name="photo" minOccurs="0" type="xs:base64Binary" xmlns:xmime="http:\/\/www\.w3\.org\/2005\/05\/xmlmime" xmime:expectedContentTypes="image\/png"\/>/)
  t.assert.match(wsdl, /<xs:element name="pages" [^>]*type="xs:base64Binary" xmlns:xmime="http:\/\/www\.w3\.org\/2005\/05\/xmlmime" xmime:expectedContentTypes="application\/pdf"\/>/)
  t.assert.match(wsdl, /<xs:element name="raw" minOccurs="0" type="xs:base64Binary"\/>/)
  validates(t, wsdl)
})

test('docs/wsdl.md "MTOM", docs/binary.md "MTOM", zeep and node-soap: both load the WSDL of a service stating MTOM and xmime:expectedContentTypes; node-soap reads the base64 value answered inline to its plain request (optional MTOM), zeep the part of the MTOM package answering its plain request (required MTOM)', async (t: TestContext) => {
  const python = '/usr/bin/python3'
  const zeep = requireClient(t, 'zeep (python3-zeep)', python, ['-c', 'import zeep'])
  const Typed = defineOperation({
    input: Fetch.input,
    output: { type: 'object', properties: { photo: { type: 'string', contentEncoding: 'base64', contentMediaType: 'image/png' } }, xml: { name: 'FetchResponse' } },
    handler: (input) => ({ photo: Buffer.from('x'.repeat(input.size)) })
  })
  const specOf = async (mtom: 'request' | 'always', assertion: string): Promise<Record<string, unknown>> => {
    const app = await service(t, { mtom, operations: { Fetch: Typed } })
    const wsdl = (await app.inject({ method: 'GET', url: '/files?wsdl' })).body
    t.assert.strictEqual(mtomAssertion(wsdl), assertion)
    t.assert.match(wsdl, /xmime:expectedContentTypes="image\/png"/)
    const port = await listen(app)
    return { wsdl: `http://127.0.0.1:${port}/files?wsdl`, service: 'Files', port: 'FilesSoap11', operation: 'Fetch', args: { size: 1000 } }
  }
  const optional = await specOf('request', `<wsoma:OptimizedMimeSerialization xmlns:wsoma="${WSOMA}" wsp:Optional="true"/>`)
  const nodeSoap = await runClient(process.execPath, [join(__dirname, 'clients', 'contract-node-soap.js'), JSON.stringify(optional)])
  t.assert.strictEqual(nodeSoap.error, undefined, JSON.stringify(nodeSoap))
  t.assert.strictEqual(nodeSoap.responseType, 'text/xml; charset=utf-8')
  t.assert.strictEqual(Buffer.from((nodeSoap.result as { photo: string }).photo, 'base64').toString(), 'x'.repeat(1000))
  if (!zeep) return
  const required = await specOf('always', `<wsoma:OptimizedMimeSerialization xmlns:wsoma="${WSOMA}"/>`)
  const outcome = await runClient(python, [join(CLIENTS, 'contract_zeep.py'), JSON.stringify(required)])
  t.assert.strictEqual(outcome.error, undefined, JSON.stringify(outcome))
  // zeep gives a response of one element as its value.
  t.assert.deepStrictEqual(outcome.result, { $bytes: 'x'.repeat(1000) })
})

// ------------------------------------------------------------- contracts ---

/** A contract of one operation, Op, whose answer holds a base64 value (`blob`) and an xmime-style one (`doc`: its text and a contentType attribute); `policy` is put in the binding. */
function binaryContract (policy: string): string {
  const values = '<xs:sequence><xs:element name="blob" type="xs:base64Binary" minOccurs="0"/><xs:element name="doc" type="k:Doc" minOccurs="0"/></xs:sequence>'
  return contractWsdl({
    extra: policy === '' ? '' : `<wsp:Policy xmlns:wsp="http://www.w3.org/ns/ws-policy" xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd" wsu:Id="mtom">${policy}</wsp:Policy>`,
    types: `<xs:schema targetNamespace="${CONTRACT_NS}" xmlns:k="${CONTRACT_NS}" elementFormDefault="qualified">
      <xs:complexType name="Doc"><xs:simpleContent><xs:extension base="xs:base64Binary"><xs:attribute name="contentType" type="xs:string"/></xs:extension></xs:simpleContent></xs:complexType>
      <xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="a" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
      <xs:element name="OpResponse"><xs:complexType>${values}</xs:complexType></xs:element>
    </xs:schema>`,
    binding: `<wsdl:binding name="B" type="tns:PT">${policy === '' ? '' : '<wsp:PolicyReference xmlns:wsp="http://www.w3.org/ns/ws-policy" URI="#mtom"/>'}<soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
      <wsdl:operation name="Op"><soap:operation soapAction="urn:svc/Op"/><wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation>
    </wsdl:binding>`
  })
}

async function contract (t: TestContext, policy: string, extra: Record<string, unknown> = {}): Promise<FastifyInstance> {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.contract({
    path: '/k',
    document: binaryContract(policy),
    operations: { Op: async (input: { a: number }) => ({ blob: bytesOf(input.a), doc: { $value: bytesOf(input.a + 1), contentType: 'image/png' } }) },
    ...extra
  })
  await app.ready()
  return app
}

const opCall = (a: number): string => `<k:Op xmlns:k="${CONTRACT_NS}"><k:a>${a}</k:a></k:Op>`

test('docs/binary.md "MTOM", docs/contract-first.md "Options", WS-MTOMPolicy: a contract whose binding policy requires MTOM (wsoma:OptimizedMimeSerialization, or W3C wsoma:MTOM) answers MTOM even to a plain request; optional, in kind; the definition\'s mtom wins; an element\'s base64 text beside its attributes goes as a part too', async (t: TestContext) => {
  for (const required of [`<wsoma:OptimizedMimeSerialization xmlns:wsoma="${WSOMA}"/>`, '<wsoma:MTOM xmlns:wsoma="http://www.w3.org/2007/08/soap12-mtom-policy"/>']) {
    const app = await contract(t, required)
    const res = await ask(app, '1.1', 1000, false, '/k', opCall(1000))
    t.assert.strictEqual(res.statusCode, 200, res.body)
    const { included, envelope: xml } = unpack(t, '1.1', res)
    t.assert.deepStrictEqual(included.map((i) => [i.element.replace(/^\w+:/, ''), i.bytes]), [['blob', bytesOf(1000)], ['doc', bytesOf(1001)]])
    t.assert.match(xml, /<tns:doc contentType="image\/png"><xop:Include /)
  }
  const optional = `<wsoma:OptimizedMimeSerialization xmlns:wsoma="${WSOMA}" wsp:Optional="true" xmlns:wsp="http://www.w3.org/ns/ws-policy"/>`
  const app = await contract(t, optional)
  const plain = await ask(app, '1.1', 1000, false, '/k', opCall(1000))
  t.assert.strictEqual(plain.headers['content-type'], 'text/xml; charset=utf-8')
  t.assert.strictEqual(unpack(t, '1.1', await ask(app, '1.1', 1000, true, '/k', opCall(1000))).parts, 2)
  const never = await contract(t, `<wsoma:OptimizedMimeSerialization xmlns:wsoma="${WSOMA}"/>`, { mtom: 'never' })
  const inlineReply = await ask(never, '1.1', 1000, true, '/k', opCall(1000))
  t.assert.strictEqual(inlineReply.headers['content-type'], 'text/xml; charset=utf-8')
  t.assert.strictEqual(inline(inlineReply.body, 'blob'), bytesOf(1000).toString('base64'))
  const threshold = await contract(t, '', { mtomThreshold: 1001 })
  t.assert.deepStrictEqual(unpack(t, '1.1', await ask(threshold, '1.1', 1000, true, '/k', opCall(1000))).included.map((i) => i.bytes), [bytesOf(1001)])
})

// ------------------------------------------------------------ addressing ---

test('docs/protocol.md "MTOM replies", docs/addressing.md: the reply to an MTOM request whose wsa:ReplyTo is not anonymous (asyncReplies) goes there as one envelope, its base64 value inline; the client gets 202; a fault that stays on the connection is answered in kind', async (t: TestContext) => {
  const listener = await partner(t)
  const app = await service(t, { addressing: { asyncReplies: { allow: [listener.url] } } })
  const header = `<wsa:Action xmlns:wsa="${WSA_NS}">${NS}/Fetch</wsa:Action><wsa:MessageID xmlns:wsa="${WSA_NS}">urn:uuid:1</wsa:MessageID>` +
    `<wsa:ReplyTo xmlns:wsa="${WSA_NS}"><wsa:Address>${listener.url}</wsa:Address></wsa:ReplyTo>`
  const { contentType, body } = mtomMessage('1.2', envelope('1.2', fetchCall(1000), header), [])
  const arrived = listener.next()
  const res = await app.inject({ method: 'POST', url: '/files', headers: { 'content-type': contentType }, payload: body })
  t.assert.strictEqual(res.statusCode, 202, res.body)
  const delivered = await arrived
  t.assert.strictEqual(inline(delivered.body, 'data'), bytesOf(1000).toString('base64'))
  // The same request with an anonymous ReplyTo is answered on the connection, in kind.
  const anonymous = mtomMessage('1.2', envelope('1.2', fetchCall(1000), header.replace(listener.url, `${WSA_NS}/anonymous`)), [])
  const direct = await app.inject({ method: 'POST', url: '/files', headers: { 'content-type': anonymous.contentType }, payload: anonymous.body })
  t.assert.deepStrictEqual(unpack(t, '1.2', direct).included.map((i) => i.bytes), [bytesOf(1000)])
  // A security fault of an unauthenticated request stays on the connection (docs/addressing.md): in kind, a package.
  const secured = await service(t, {
    addressing: { asyncReplies: { allow: [listener.url] } },
    security: { usernameToken: { lookup: async () => undefined } }
  })
  const fault = await secured.inject({ method: 'POST', url: '/files', headers: { 'content-type': contentType }, payload: body })
  t.assert.strictEqual(fault.statusCode, 400, fault.body)
  t.assert.match(String(fault.headers['content-type']), /^multipart\/related;/)
  t.assert.match(unpack(t, '1.2', fault).envelope, /<soap:Value>soap:Sender<\/soap:Value>/)
})

test('docs/contract-first.md "Options" (mtom), WS-MTOMPolicy: the VECOZO WSDL, whose bindings hold a nested policy referencing an optional wsoma:OptimizedMimeSerialization, is read as mtom \'request\'; a WSDL without the assertion states none', async (t: TestContext) => {
  const wsdl = sharedFixture(t, 'wsdl', 'vecozo-berichtuitwisseling', 'soap.wsdl')
  if (wsdl === undefined) return
  t.assert.strictEqual((await readContract({ wsdl })).mtom, 'request')
  t.assert.strictEqual((await readContract({ document: binaryContract('') })).mtom, undefined)
})
