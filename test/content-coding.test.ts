/**
 * docs/protocol.md "Content codings": compressed request bodies, inflated as
 * they arrive, held to the body limit and the compression ratio, through
 * fastify.inject and over real loopback HTTP; and replies compressed by
 * @fastify/compress beside the plugin (docs/production.md "Compression").
 */
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http'
import { randomBytes } from 'node:crypto'
import { connect } from 'node:net'
import { test, type TestContext } from 'node:test'
import { brotliCompressSync, deflateRawSync, deflateSync, gunzipSync, gzipSync } from 'node:zlib'
import Fastify, { type FastifyPluginAsync } from 'fastify'
import compress from '@fastify/compress'
import soap, { soapClientErrorHandler, type FastifySoapOptions } from '../lib/index'
import { MEDIA, assertEmpty, buildApp, decodedOf, envelope, listen, post, rawExchange } from './helper'

const CALL = '<m:Echo xmlns:m="urn:example:calc"><m:text>hi</m:text></m:Echo>'
const ECHO = '{urn:example:calc}Echo'
const ENV12 = envelope('1.2', CALL)
const ENV11 = envelope('1.1', CALL)
const MiB = 1024 * 1024

const CODED: Record<string, (body: string) => Buffer> = {
  gzip: (body) => gzipSync(body),
  'x-gzip': (body) => gzipSync(body),
  GZIP: (body) => gzipSync(body),
  deflate: (body) => deflateSync(body),
  'deflate (raw)': (body) => deflateRawSync(body),
  br: (body) => brotliCompressSync(Buffer.from(body)),
  'identity, gzip, identity': (body) => gzipSync(body)
}

/** The Content-Encoding a CODED key sends. */
const header = (name: string): string => name.replace(' (raw)', '')

/** An envelope whose one text is `text`, and its gzip. */
function textEnvelope (text: string): { xml: string, gzip: Buffer } {
  const xml = envelope('1.2', `<m:Echo xmlns:m="urn:example:calc"><m:text>${text}</m:text></m:Echo>`)
  return { xml, gzip: gzipSync(xml, { level: 9 }) }
}

/** echoRoutes' summary with a long pad after it, so that @fastify/compress (threshold 1 KiB) compresses the reply. */
const paddedEcho: FastifyPluginAsync = async (app) => {
  app.post('/echo', async (request, reply) => {
    const context = request.soap
    const payload = context?.payload
    const summary = JSON.stringify({ version: context?.version, action: null, payload: `{${payload?.namespace}}${payload?.localName}`, headers: [] })
    return reply.soap(`<t:Decoded xmlns:t="urn:test">${summary}</t:Decoded><t:Pad xmlns:t="urn:test">${'pad '.repeat(1000)}</t:Pad>`)
  })
}

interface HttpAnswer { status: number, headers: IncomingMessage['headers'], body: Buffer }

/** One POST over loopback HTTP; `body` written in one piece. */
async function httpPost (port: number, headers: Record<string, string>, body: Buffer): Promise<HttpAnswer> {
  return await new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/echo', headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode as number, headers: res.headers, body: Buffer.concat(chunks) }))
    })
    req.on('error', reject)
    req.setTimeout(10_000, () => req.destroy(new Error('no answer in 10 s')))
    req.end(body)
  })
}

test('docs/protocol.md "Content codings": gzip, x-gzip, deflate (zlib or raw) and br bodies are inflated, then decoded (RFC 9110 §8.4.1)', async (t: TestContext) => {
  const app = await buildApp(t)
  for (const [name, code] of Object.entries(CODED)) {
    for (const [version, xml] of [['1.2', ENV12], ['1.1', ENV11]] as const) {
      const response = await post(app, version, code(xml), { headers: { 'content-encoding': header(name) } })
      t.assert.strictEqual(response.statusCode, 200, `${name} in SOAP ${version}: ${response.body.slice(0, 200)}`)
      t.assert.deepStrictEqual(decodedOf(response.body), { version, action: null, payload: ECHO, headers: [] }, name)
    }
  }
  // a gzip file of several members is one body (RFC 1952 §2.2)
  const halves = Buffer.concat([gzipSync(ENV12.slice(0, 100)), gzipSync(ENV12.slice(100))])
  t.assert.strictEqual((await post(app, '1.2', halves, { headers: { 'content-encoding': 'gzip' } })).statusCode, 200)
})

test('docs/protocol.md "Content codings": a body with no coding is handed to the parser as it arrives, with no stream around it', async (t: TestContext) => {
  const seen: boolean[] = []
  const app = await buildApp(t, {
    routes: async (scope) => {
      scope.post('/echo', {
        preParsing: (request, _reply, payload, done) => { seen.push(payload === request.raw); done(null, payload) }
      }, async (_request, reply) => reply.soap())
    }
  })
  t.assert.strictEqual((await post(app, '1.2', ENV12)).statusCode, 200)
  t.assert.strictEqual((await post(app, '1.2', ENV12, { headers: { 'content-encoding': 'identity' } })).statusCode, 200)
  t.assert.strictEqual((await post(app, '1.2', gzipSync(ENV12), { headers: { 'content-encoding': 'gzip' } })).statusCode, 200)
  t.assert.deepStrictEqual(seen, [true, true, false], 'the gzip body alone is read through an inflater')
})

test('docs/protocol.md "Content codings": a coding not accepted, or two codings, → 415 empty with Accept-Encoding listing the accepted ones (RFC 9110 §15.5.16, §12.5.3); a GET\'s is not looked at', async (t: TestContext) => {
  const app = await buildApp(t)
  for (const coding of ['compress', 'x-compress', 'zstd', 'x-whatever', 'gzip, gzip', 'deflate, gzip', 'gzip;q=1']) {
    const response = await post(app, '1.2', gzipSync(gzipSync(ENV12)), { headers: { 'content-encoding': coding } })
    assertEmpty(t, response, 415)
    t.assert.strictEqual(response.headers['accept-encoding'], 'gzip, deflate, br, identity', coding)
  }
  for (const coding of ['Identity', '', ' , identity ,']) {
    t.assert.strictEqual((await post(app, '1.2', ENV12, { headers: { 'content-encoding': coding } })).statusCode, 200, `"${coding}"`)
  }

  const gzipOnly = await buildApp(t, { contentCodings: ['gzip'] })
  const deflated = await post(gzipOnly, '1.2', deflateSync(ENV12), { headers: { 'content-encoding': 'deflate' } })
  assertEmpty(t, deflated, 415)
  t.assert.strictEqual(deflated.headers['accept-encoding'], 'gzip, identity')
  t.assert.strictEqual((await post(gzipOnly, '1.2', gzipSync(ENV12), { headers: { 'content-encoding': 'gzip' } })).statusCode, 200)

  const none = await buildApp(t, { contentCodings: [] })
  const refused = await post(none, '1.2', gzipSync(ENV12), { headers: { 'content-encoding': 'gzip' } })
  assertEmpty(t, refused, 415)
  t.assert.strictEqual(refused.headers['accept-encoding'], 'identity')

  // A GET has no content: its Content-Encoding is not looked at.
  const gets = await buildApp(t, {
    routes: async (scope) => {
      scope.get('/svc', async (_request, reply) => reply.soap())
      scope.post('/svc', async (_request, reply) => reply.soap())
    }
  })
  for (const method of ['GET', 'HEAD'] as const) {
    t.assert.strictEqual((await gets.inject({ method, url: '/svc', headers: { 'content-encoding': 'compress' } })).statusCode, 200, method)
  }
})

test('docs/protocol.md "Content codings": data that does not inflate (bad header, truncated, bytes after its end, too short) → 400 empty, Connection: close', async (t: TestContext) => {
  const app = await buildApp(t)
  const gzip = gzipSync(ENV12)
  const cases: Array<[string, string, Buffer]> = [
    ['a plain body labelled gzip', 'gzip', Buffer.from(ENV12)],
    ['a plain body labelled deflate', 'deflate', Buffer.from(ENV12)],
    ['a plain body labelled br', 'br', Buffer.from(ENV12)],
    ['a gzip body labelled br', 'br', gzip],
    ['a truncated gzip body', 'gzip', gzip.subarray(0, gzip.length - 4)],
    ['a truncated deflate body', 'deflate', deflateSync(ENV12).subarray(0, 20)],
    ['a gzip header with a bad method', 'gzip', Buffer.concat([Buffer.from([0x1f, 0x8b, 0x07]), gzip.subarray(3)])],
    ['a gzip body with a bad CRC', 'gzip', Buffer.concat([gzip.subarray(0, gzip.length - 8), Buffer.alloc(4), gzip.subarray(gzip.length - 4)])],
    ['garbage after a gzip member', 'gzip', Buffer.concat([gzip, Buffer.from('<x/>')])],
    ['zeros after a gzip member', 'gzip', Buffer.concat([gzip, Buffer.alloc(8)])],
    ['bytes after a deflate stream', 'deflate', Buffer.concat([deflateSync(ENV12), Buffer.from('<x/>')])],
    ['bytes after a br stream', 'br', Buffer.concat([brotliCompressSync(Buffer.from(ENV12)), Buffer.from('<x/>')])],
    ['one byte', 'gzip', Buffer.from([0x1f])]
  ]
  for (const [name, coding, body] of cases) {
    const response = await post(app, '1.2', body, { headers: { 'content-encoding': coding } })
    assertEmpty(t, response, 400)
    t.assert.strictEqual(response.headers.connection, 'close', name)
  }
  // A well-formed coding of a body that is no envelope is the ordinary 400 of docs/protocol.md "Decoding".
  assertEmpty(t, await post(app, '1.2', gzipSync('<not-soap/>'), { headers: { 'content-encoding': 'gzip' } }), 400)
})

test('docs/protocol.md "Content codings": the inflated body, and the compressed one, are held to bodyLimit → 413 empty (RFC 9110 §15.5.14)', async (t: TestContext) => {
  const app = await buildApp(t, { bodyLimit: 4096 })
  const text = (n: number): string => textEnvelope('x'.repeat(n)).xml
  const overhead = text(0).length
  const fits = await post(app, '1.2', gzipSync(text(4096 - overhead)), { headers: { 'content-encoding': 'gzip' } })
  t.assert.strictEqual(fits.statusCode, 200, 'exactly the limit')
  const over = await post(app, '1.2', gzipSync(text(4097 - overhead)), { headers: { 'content-encoding': 'gzip' } })
  assertEmpty(t, over, 413)
  t.assert.strictEqual(over.headers.connection, 'close')
  // 1 MiB inflated from 1 KiB, in each coding
  for (const coding of ['gzip', 'deflate', 'br']) {
    const big = Buffer.from(text(MiB))
    const body = coding === 'gzip' ? gzipSync(big) : coding === 'deflate' ? deflateSync(big) : brotliCompressSync(big)
    assertEmpty(t, await post(app, '1.2', body, { headers: { 'content-encoding': coding } }), 413)
  }
  // The compressed body, sent chunked, is counted too.
  const port = await listen(app)
  // Random bytes do not compress: their gzip is larger than they are.
  const noise = randomBytes(4090)
  const gzip = gzipSync(noise)
  t.assert.ok(gzip.length > 4096, `${gzip.length} bytes of gzip for ${noise.length}`)
  const head = `POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${MEDIA['1.2']}\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n`
  const [answer] = await rawExchange(port, Buffer.concat([Buffer.from(`${head}${gzip.length.toString(16)}\r\n`), gzip, Buffer.from('\r\n0\r\n\r\n')]), 1)
  t.assert.strictEqual(answer?.status, 413)
  t.assert.strictEqual(answer.headers['content-length'], '0')
})

test('docs/protocol.md "Content codings": a route\'s own lower bodyLimit holds an inflated body too → 413, and the server goes on', async (t: TestContext) => {
  const app = await buildApp(t, {
    routes: async (scope) => {
      scope.post('/small', { bodyLimit: 4000 }, async (_request, reply) => reply.soap())
    }
  })
  const bomb = gzipSync(textEnvelope(' '.repeat(2 * MiB)).xml)
  assertEmpty(t, await post(app, '1.2', bomb, { url: '/small', headers: { 'content-encoding': 'gzip' } }), 413)
  // the inflater, which Fastify no longer listens to, reaches the plugin's own limit after the answer
  await new Promise((resolve) => setTimeout(resolve, 100))
  t.assert.strictEqual((await post(app, '1.2', gzipSync(ENV12), { url: '/small', headers: { 'content-encoding': 'gzip' } })).statusCode, 200)
})

test('docs/protocol.md "Content codings": maxCompressionRatio, inflated ÷ compressed, is checked as the body inflates → 413 just over it, 200 just under', async (t: TestContext) => {
  const { xml, gzip } = textEnvelope('a'.repeat(3000))
  const ratio = xml.length / gzip.length
  t.assert.ok(ratio > 10, `ratio ${ratio}`)
  const under = await buildApp(t, { maxCompressionRatio: ratio * 1.01 })
  t.assert.strictEqual((await post(under, '1.2', gzip, { headers: { 'content-encoding': 'gzip' } })).statusCode, 200)
  const over = await buildApp(t, { maxCompressionRatio: ratio * 0.99 })
  const refused = await post(over, '1.2', gzip, { headers: { 'content-encoding': 'gzip' } })
  assertEmpty(t, refused, 413)
  t.assert.strictEqual(refused.headers.connection, 'close')
})

test('docs/protocol.md "Content codings": the default ratio, 1032, refuses no gzip body but a br body inflating past it', async (t: TestContext) => {
  const app = await buildApp(t)
  const { xml, gzip } = textEnvelope(' '.repeat(MiB - 400))
  t.assert.ok(xml.length / gzip.length > 800, `gzip's ratio ${xml.length / gzip.length}`)
  t.assert.strictEqual((await post(app, '1.2', gzip, { headers: { 'content-encoding': 'gzip' } })).statusCode, 200)
  const br = brotliCompressSync(Buffer.from(xml))
  t.assert.ok(xml.length / br.length > 2000, `br's ratio ${xml.length / br.length}`)
  assertEmpty(t, await post(app, '1.2', br, { headers: { 'content-encoding': 'br' } }), 413)
})

test('docs/protocol.md "Content codings": a bomb (10 MiB of gzip, 10 GiB inflated) is refused 413 as it inflates; the server reads little of it and holds the body limit of it, not what it inflates to', { timeout: 60_000 }, async (t: TestContext) => {
  const limit = 8 * MiB
  let read = -1
  const app = Fastify()
  await app.register(soap, { bodyLimit: limit, routes: paddedEcho })
  app.addHook('onSend', async (request, _reply, payload) => { read = request.raw.socket.bytesRead; return payload })
  t.after(() => app.close())
  const port = await listen(app)
  const member = gzipSync(Buffer.alloc(MiB, 0x20), { level: 9 })
  const bomb = Buffer.concat(Array.from({ length: 10 * 1024 }, () => member))
  // warm up: zlib and the route once, so that what follows measures the bomb alone
  t.assert.strictEqual((await httpPost(port, { 'content-type': MEDIA['1.2'], 'content-encoding': 'gzip' }, gzipSync(ENV12))).status, 200)
  const before = process.memoryUsage().rss
  const answer = await new Promise<HttpAnswer>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/echo', agent: false, headers: { 'content-type': MEDIA['1.2'], 'content-encoding': 'gzip', 'transfer-encoding': 'chunked' } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => { req.destroy(); resolve({ status: res.statusCode as number, headers: res.headers, body: Buffer.concat(chunks) }) })
    })
    req.on('error', (err) => { if (!req.destroyed) reject(err) })
    req.setTimeout(30_000, () => req.destroy(new Error('no answer in 30 s')))
    let at = 0
    const more = (): void => {
      while (at < bomb.length && !req.destroyed) {
        const piece = bomb.subarray(at, at + 64 * 1024)
        at += piece.length
        if (!req.write(piece)) { req.once('drain', more); return }
      }
      if (at >= bomb.length && !req.destroyed) req.end()
    }
    more()
  })
  const growth = process.memoryUsage().rss - before
  t.diagnostic(`RSS grew by ${(growth / MiB).toFixed(1)} MiB; the server had read ${read} of ${bomb.length} bytes when it answered`)
  t.assert.strictEqual(answer.status, 413)
  t.assert.strictEqual(answer.headers['content-length'], '0')
  t.assert.strictEqual(answer.headers.connection, 'close')
  t.assert.ok(read > 0 && read < MiB, `the server had read ${read} bytes of ${bomb.length} when it answered`)
  // What Fastify collects of the inflated body (the body limit at most), and the inflater's buffers.
  t.assert.ok(growth < limit + 4 * MiB, `RSS grew by ${(growth / MiB).toFixed(1)} MiB`)
})

test('docs/protocol.md "Content codings": a compressed body dripped byte by byte is inflated within requestTimeout, and answered 408 past it', { timeout: 30_000 }, async (t: TestContext) => {
  // Node checks requestTimeout every connectionsCheckingInterval (30 s unless set): the server is made here to set it.
  const app = Fastify({
    serverFactory: (handler) => createServer({ requestTimeout: 1500, connectionsCheckingInterval: 100 }, handler),
    clientErrorHandler: soapClientErrorHandler
  })
  await app.register(soap, { routes: paddedEcho })
  t.after(() => app.close())
  const port = await listen(app)
  const gzip = gzipSync(ENV12)
  const drip = async (gap: number): Promise<string> => await new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' })
    let received = ''
    let at = 0
    const timer = setInterval(() => {
      if (at < gzip.length) socket.write(gzip.subarray(at, ++at))
    }, gap)
    const stop = setTimeout(() => socket.destroy(), 15_000)
    socket.on('data', (chunk) => { received += chunk.toString('latin1') })
    socket.on('close', () => { clearInterval(timer); clearTimeout(stop); resolve(received) })
    socket.on('error', () => {})
    socket.write(`POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${MEDIA['1.2']}\r\nContent-Encoding: gzip\r\nContent-Length: ${gzip.length}\r\nConnection: close\r\n\r\n`)
  })
  const inTime = await drip(Math.floor(600 / gzip.length))
  t.assert.match(inTime, /^HTTP\/1\.1 200 /, 'dripped within the timeout')
  const late = await drip(Math.ceil(6000 / gzip.length))
  t.assert.match(late, /^HTTP\/1\.1 408 /, 'past the timeout')
})

test('docs/protocol.md "Content codings": a request shaped as Apache CXF\'s GZIP feature sends it (chunked gzip, Accept-Encoding: gzip,deflate) gets a gzip reply with @fastify/compress', async (t: TestContext) => {
  const app = Fastify()
  await app.register(compress)
  await app.register(soap, { routes: paddedEcho })
  t.after(() => app.close())
  const port = await listen(app)
  const gzip = gzipSync(ENV11)
  const head = 'POST /echo HTTP/1.1\r\nContent-Type: text/xml; charset=UTF-8\r\nAccept: */*\r\nSOAPAction: ""\r\n' +
    'Content-Encoding: gzip\r\nAccept-Encoding: gzip,deflate\r\nUser-Agent: Apache-CXF/4.0.5\r\nCache-Control: no-cache\r\n' +
    'Pragma: no-cache\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n'
  const request = Buffer.concat([Buffer.from(`${head}${gzip.length.toString(16)}\r\n`), gzip, Buffer.from('\r\n0\r\n\r\n')])
  const answers = await rawExchange(port, Buffer.concat([request, request]), 2)
  t.assert.strictEqual(answers.length, 2, 'both requests answered on one connection')
  for (const answer of answers) {
    t.assert.strictEqual(answer.status, 200)
    t.assert.strictEqual(answer.headers['content-encoding'], 'gzip')
    t.assert.strictEqual(answer.headers['content-type'], MEDIA['1.1'])
    t.assert.strictEqual(Number(answer.headers['content-length']), answer.body.length)
    t.assert.deepStrictEqual(decodedOf(gunzipSync(answer.body).toString('utf8')).payload, ECHO)
  }
})

test('docs/protocol.md "Content codings": with @fastify/compress registered, a compressed body is inflated once, and a reply is compressed to Accept-Encoding: gzip only', async (t: TestContext) => {
  const app = Fastify()
  await app.register(compress)
  await app.register(soap, { routes: paddedEcho })
  t.after(() => app.close())
  for (const [name, code] of Object.entries(CODED)) {
    const response = await post(app, '1.2', code(ENV12), { headers: { 'content-encoding': header(name) } })
    t.assert.strictEqual(response.statusCode, 200, `${name}: ${response.body.slice(0, 200)}`)
    t.assert.strictEqual(decodedOf(response.body).payload, ECHO)
  }
  assertEmpty(t, await post(app, '1.2', ENV12, { headers: { 'content-encoding': 'compress' } }), 415)
  const port = await listen(app)
  const zipped = await httpPost(port, { 'content-type': MEDIA['1.2'], 'content-encoding': 'gzip', 'accept-encoding': 'gzip' }, gzipSync(ENV12))
  t.assert.strictEqual(zipped.status, 200)
  t.assert.strictEqual(zipped.headers['content-encoding'], 'gzip')
  t.assert.strictEqual(zipped.headers.vary, 'accept-encoding')
  t.assert.strictEqual(decodedOf(gunzipSync(zipped.body).toString('utf8')).payload, ECHO)
  const plain = await httpPost(port, { 'content-type': MEDIA['1.2'], 'content-encoding': 'gzip' }, gzipSync(ENV12))
  t.assert.strictEqual(plain.headers['content-encoding'], undefined)
  t.assert.strictEqual(decodedOf(plain.body.toString('utf8')).payload, ECHO)
})

test('docs/protocol.md "The exchange": on one connection, a compressed request, one refused by its media type (its body unread), then a plain one', async (t: TestContext) => {
  const port = await listen(await buildApp(t))
  const gzip = gzipSync(ENV12)
  const request = (contentType: string, body: Buffer, coding?: string): Buffer => Buffer.concat([Buffer.from(
    `POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${contentType}\r\n${coding === undefined ? '' : `Content-Encoding: ${coding}\r\n`}Content-Length: ${body.length}\r\n\r\n`
  ), body])
  const answers = await rawExchange(port, Buffer.concat([
    request(MEDIA['1.2'], gzip, 'gzip'), request('application/json', gzip, 'gzip'), request(MEDIA['1.2'], Buffer.from(ENV12))
  ]), 3)
  t.assert.deepStrictEqual(answers.map((a) => a.status), [200, 415, 200])
  t.assert.strictEqual(decodedOf(answers[0].body.toString('utf8')).payload, ECHO)
})

test('options: contentCodings and maxCompressionRatio are checked → SOAP_ERR_OPT_INVALID', async (t: TestContext) => {
  const bad: FastifySoapOptions[] = [
    { contentCodings: 'gzip' as never },
    { contentCodings: ['gzip', 'compress'] as never },
    { contentCodings: ['__proto__'] as never },
    { contentCodings: [1] as never },
    { maxCompressionRatio: 0.5 },
    { maxCompressionRatio: Infinity },
    { maxCompressionRatio: Number.NaN },
    { maxCompressionRatio: '100' as never }
  ]
  for (const options of bad) {
    const app = Fastify()
    app.register(soap, options)
    await t.assert.rejects(async () => { await app.ready() }, { code: 'SOAP_ERR_OPT_INVALID' }, JSON.stringify(options))
  }
  const app = await buildApp(t, { contentCodings: ['br', 'gzip', 'br'], maxCompressionRatio: 1 })
  t.assert.deepStrictEqual(app.soap.options.contentCodings, ['br', 'gzip'])
  t.assert.strictEqual(app.soap.options.maxCompressionRatio, 1)
})
