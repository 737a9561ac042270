/**
 * docs/binary.md "MTOM", docs/protocol.md "MTOM/XOP" (replies): when a reply
 * is an MTOM package (the request was one, or the service or operation says
 * `mtom: 'always'`), its binary values from `mtomThreshold` bytes go as
 * parts; each package is read back with the plugin's own multipart reader.
 * Through fastify.inject and real loopback HTTP.
 */
import { request as httpRequest } from 'node:http'
import { test, type TestContext } from 'node:test'
import Fastify, { type FastifyInstance } from 'fastify'
import soap, { defineOperation, errorCodes, type SoapServiceDefinition, type SoapVersion } from '../lib/index'
import { parseContentType } from '../lib/soap/content-type'
import { readMultipart } from '../lib/soap/multipart'
import { readXopPackage } from '../lib/soap/xop'
import { envelope, listen, MEDIA } from './helper'
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
    const element = /<([\w:]+)>$/.exec(before)?.[1]
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
