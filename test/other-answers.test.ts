import { test, type TestContext } from 'node:test'
import { gzipSync } from 'node:zlib'
import Fastify from 'fastify'
import soap from '../lib/index'
import { assertEmpty, buildApp, echoRoutes, envelope, listen, post, rawExchange } from './helper'

const CALL = '<m:Add xmlns:m="urn:example:calc"/>'

test('docs/protocol.md "Other answers": a media type other than the two SOAP ones → 415 empty (BP R1115)', async (t: TestContext) => {
  const app = await buildApp(t)
  for (const contentType of ['application/xml', 'application/json', 'text/plain', 'multipart/mixed; boundary=b', 'multipart/form-data; boundary=b', 'application/soap+xml2', 'text/xml-ish', 'garbage', ';;;']) {
    assertEmpty(t, await post(app, '1.2', envelope('1.2', CALL), { contentType }), 415)
  }
  const missing = await app.inject({ method: 'POST', url: '/echo', payload: envelope('1.2', CALL), headers: { 'content-type': undefined } })
  assertEmpty(t, missing, 415)
})

test('docs/protocol.md "Other answers": a charset other than UTF-8 / UTF-16 → 415 empty', async (t: TestContext) => {
  const app = await buildApp(t)
  for (const charset of ['iso-8859-1', 'us-ascii', 'utf-32', 'shift_jis', '""', 'utf-7']) {
    assertEmpty(t, await post(app, '1.2', envelope('1.2', CALL), { contentType: `application/soap+xml; charset=${charset}` }), 415)
    assertEmpty(t, await post(app, '1.1', envelope('1.1', CALL), { contentType: `text/xml; charset=${charset}` }), 415)
  }
})

test('docs/protocol.md "Versions": media types and parameters are read case-insensitively, with odd spacing and garbage parameters ignored', async (t: TestContext) => {
  const app = await buildApp(t)
  for (const contentType of ['Application/SOAP+XML; Charset="UTF-8"', 'application/soap+xml;charset=utf-8;foo', 'application/soap+xml ; charset = utf-8', 'application/soap+xml; x=y; charset=utf-8']) {
    t.assert.strictEqual((await post(app, '1.2', envelope('1.2', CALL), { contentType })).statusCode, 200, contentType)
  }
  t.assert.strictEqual((await post(app, '1.1', envelope('1.1', CALL), { contentType: 'TEXT/XML;CHARSET=utf-8' })).statusCode, 200)
})

test('docs/protocol.md "Other answers": a body over the size limit → 413 empty (RFC 9110 §15.5.14), by Content-Length or as it streams', async (t: TestContext) => {
  const app = await buildApp(t, { bodyLimit: 1000 })
  const big = envelope('1.2', `<m:Echo xmlns:m="urn:x"><m:text>${'x'.repeat(2000)}</m:text></m:Echo>`)
  assertEmpty(t, await post(app, '1.2', big), 413)
  t.assert.strictEqual((await post(app, '1.2', envelope('1.2', CALL))).statusCode, 200)
})

test('docs/protocol.md "Other answers": the default body limit is 1 MiB', async (t: TestContext) => {
  const app = await buildApp(t)
  const text = (n: number): string => envelope('1.2', `<m:Echo xmlns:m="urn:x"><m:text>${'x'.repeat(n)}</m:text></m:Echo>`)
  const overhead = text(0).length
  t.assert.strictEqual((await post(app, '1.2', text(1024 * 1024 - overhead))).statusCode, 200)
  assertEmpty(t, await post(app, '1.2', text(1024 * 1024 - overhead + 1)), 413)
})

test('docs/protocol.md "Other answers": a method other than POST → 405 with Allow (BP R1114, RFC 9110 §15.5.6)', async (t: TestContext) => {
  const app = await buildApp(t)
  for (const method of ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'] as const) {
    const response = await app.inject({ method, url: '/echo', headers: { 'content-type': 'text/xml' }, payload: method === 'GET' || method === 'HEAD' ? undefined : 'not even xml' })
    t.assert.strictEqual(response.statusCode, 405, method)
    t.assert.strictEqual(response.headers.allow, 'POST')
    t.assert.strictEqual(response.headers['content-length'], '0')
    t.assert.strictEqual(response.body, '')
  }
})

test('docs/protocol.md "Other answers": Allow lists GET and HEAD when the path serves GET', async (t: TestContext) => {
  const app = await buildApp(t, {
    routes: async (scope) => {
      scope.post('/svc', async (_request, reply) => reply.soap())
      scope.get('/svc', async (_request, reply) => reply.soap())
    }
  })
  const response = await app.inject({ method: 'PUT', url: '/svc' })
  t.assert.strictEqual(response.statusCode, 405)
  t.assert.strictEqual(response.headers.allow, 'GET, HEAD, POST')
  t.assert.strictEqual((await app.inject({ method: 'HEAD', url: '/svc' })).statusCode, 200)
})

test('docs/protocol.md "Other answers": a content coding the plugin does not inflate → 415 empty with Accept-Encoding (RFC 9110 §15.5.16)', async (t: TestContext) => {
  const app = await buildApp(t)
  for (const coding of ['compress', 'zstd', 'x-whatever', 'gzip, gzip']) {
    const response = await post(app, '1.2', envelope('1.2', CALL), { headers: { 'content-encoding': coding } })
    assertEmpty(t, response, 415)
    t.assert.strictEqual(response.headers['accept-encoding'], 'gzip, deflate, br, identity')
  }
  t.assert.strictEqual((await post(app, '1.2', envelope('1.2', CALL), { headers: { 'content-encoding': 'Identity' } })).statusCode, 200)
  t.assert.strictEqual((await post(app, '1.2', gzipSync(envelope('1.2', CALL)), { headers: { 'content-encoding': 'gzip' } })).statusCode, 200)
})

test('docs/protocol.md "Other answers": the body limit defaults to Fastify\'s own bodyLimit', async (t: TestContext) => {
  const app = await buildApp(t, {}, { bodyLimit: 1000 })
  t.assert.strictEqual(app.soap.options.bodyLimit, 1000)
  assertEmpty(t, await post(app, '1.2', envelope('1.2', `<m:E xmlns:m="urn:x">${'x'.repeat(1000)}</m:E>`)), 413)
})

test('docs/protocol.md "Other answers": 405 follows the routes Fastify really serves: no HEAD without exposeHeadRoutes; the prefix\'s trailing slash', async (t: TestContext) => {
  const noHead = await buildApp(t, {
    routes: async (scope) => {
      scope.get('/svc', async (_request, reply) => reply.soap())
      scope.post('/svc', async (_request, reply) => reply.soap())
    }
  }, { exposeHeadRoutes: false })
  const head = await noHead.inject({ method: 'HEAD', url: '/svc' })
  t.assert.strictEqual(head.statusCode, 405)
  t.assert.strictEqual(head.headers.allow, 'GET, POST')

  const prefixed = await buildApp(t, {
    prefix: '/soap',
    routes: async (scope) => { scope.post('/', async (_request, reply) => reply.soap()) }
  })
  for (const url of ['/soap', '/soap/']) {
    t.assert.strictEqual((await post(prefixed, '1.2', envelope('1.2', CALL), { url })).statusCode, 200, url)
    const get = await prefixed.inject({ method: 'GET', url })
    t.assert.strictEqual(get.statusCode, 405, url)
    t.assert.strictEqual(get.headers.allow, 'POST')
  }
})

test('docs/protocol.md "Other answers": undecodable requests keep the connection open; a too-large one closes it', async (t: TestContext) => {
  const app = await buildApp(t, { bodyLimit: 2000 })
  const port = await listen(app)
  const ok = envelope('1.2', CALL)
  const request = (body: string, type = 'application/soap+xml'): string =>
    `POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  const answers = await rawExchange(port, request('<broken') + request(ok, 'application/json') + request(ok), 3)
  t.assert.deepStrictEqual(answers.map((a) => a.status), [400, 415, 200], 'three answers on one connection')
  t.assert.ok(answers.every((a) => a.headers.connection !== 'close'))
  const big = await rawExchange(port, request('x'.repeat(3000)) + request(ok), 2)
  t.assert.deepStrictEqual(big.map((a) => [a.status, a.headers.connection]), [[413, 'close']])
})

test('docs/protocol.md "Other answers": a path that serves every method has no 405 route', async (t: TestContext) => {
  const app = await buildApp(t, { routes: async (scope) => { scope.all('/any', async (_request, reply) => reply.soap()) } })
  t.assert.strictEqual((await app.inject({ method: 'PUT', url: '/any', headers: { 'content-type': 'text/xml' }, payload: envelope('1.1', CALL) })).statusCode, 200)
  t.assert.strictEqual((await app.inject({ method: 'DELETE', url: '/any' })).statusCode, 200)
})

test('docs/protocol.md "Other answers": methods Fastify does not route get 405 once added with addHttpMethod before the plugin', async (t: TestContext) => {
  const app = Fastify()
  t.after(() => app.close())
  app.addHttpMethod('PROPFIND', { hasBody: true })
  await app.register(soap, { routes: echoRoutes })
  const response = await app.inject({ method: 'PROPFIND' as 'GET', url: '/echo' })
  t.assert.strictEqual(response.statusCode, 405)
  t.assert.strictEqual(response.headers.allow, 'POST')
  t.assert.strictEqual(response.body, '')
})
