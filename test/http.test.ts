import { test, type TestContext } from 'node:test'
import Fastify from 'fastify'
import soap, { SoapFault } from '../lib/index'
import { decodedOf, echoRoutes, envelope, listen, rawExchange } from './helper'

async function server (t: TestContext, options = {}): Promise<number> {
  const app = Fastify()
  await app.register(soap, {
    ...options,
    routes: async (scope) => {
      await scope.register(echoRoutes)
      scope.post('/divide', async () => { throw new SoapFault({ code: 'Sender', reason: 'division by zero' }) })
    }
  })
  t.after(() => app.close())
  return listen(app)
}

const CALL = '<m:Add xmlns:m="urn:example:calc"><m:a>2</m:a><m:b>3</m:b></m:Add>'

function request (port: number, body: Buffer | string, headers: Record<string, string | number>, path = '/echo'): Buffer {
  const head = [`POST ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join('\r\n')
  return Buffer.concat([Buffer.from(head + '\r\n\r\n', 'latin1'), Buffer.from(body)])
}

test('HTTP: fetch over loopback in both versions, with exact Content-Length and no chunked response', async (t: TestContext) => {
  const port = await server(t)
  for (const version of ['1.1', '1.2'] as const) {
    const response = await fetch(`http://127.0.0.1:${port}/echo`, {
      method: 'POST',
      headers: version === '1.1'
        ? { 'content-type': 'text/xml; charset=utf-8', soapaction: '"urn:example:calc/Add"' }
        : { 'content-type': 'application/soap+xml; charset=utf-8; action="urn:example:calc/Add"' },
      body: envelope(version, CALL)
    })
    const bytes = Buffer.from(await response.arrayBuffer())
    t.assert.strictEqual(response.status, 200)
    t.assert.strictEqual(Number(response.headers.get('content-length')), bytes.length)
    t.assert.strictEqual(response.headers.get('transfer-encoding'), null)
    t.assert.deepStrictEqual(decodedOf(bytes.toString()), { version, action: 'urn:example:calc/Add', payload: '{urn:example:calc}Add', headers: [] })
  }
})

test('HTTP: a chunked request body is decoded', async (t: TestContext) => {
  const port = await server(t)
  const body = envelope('1.2', CALL)
  const half = Math.floor(body.length / 2)
  const chunked = `${half.toString(16)}\r\n${body.slice(0, half)}\r\n${(body.length - half).toString(16)}\r\n${body.slice(half)}\r\n0\r\n\r\n`
  const [answer] = await rawExchange(port, request(port, chunked, { 'Content-Type': 'application/soap+xml', 'Transfer-Encoding': 'chunked' }), 1)
  t.assert.strictEqual(answer.status, 200)
  t.assert.strictEqual(decodedOf(answer.body.toString()).payload, '{urn:example:calc}Add')
})

test('HTTP: three requests on one keep-alive connection, a fault among them', async (t: TestContext) => {
  const port = await server(t)
  const body = envelope('1.1', CALL)
  const bytes = Buffer.concat([
    request(port, body, { 'Content-Type': 'text/xml', 'Content-Length': Buffer.byteLength(body), SOAPAction: 'urn:a' }),
    request(port, body, { 'Content-Type': 'text/xml', 'Content-Length': Buffer.byteLength(body) }, '/divide'),
    request(port, body, { 'Content-Type': 'text/xml', 'Content-Length': Buffer.byteLength(body), SOAPAction: '"urn:c"' })
  ])
  const answers = await rawExchange(port, bytes, 3)
  t.assert.deepStrictEqual(answers.map((a) => a.status), [200, 500, 200])
  t.assert.strictEqual(decodedOf(answers[0].body.toString()).action, 'urn:a')
  t.assert.match(answers[1].body.toString(), /<faultcode>soap:Client<\/faultcode><faultstring>division by zero<\/faultstring>/)
  t.assert.strictEqual(decodedOf(answers[2].body.toString()).action, 'urn:c')
  t.assert.ok(answers.every((a) => a.headers.connection !== 'close'))
})

test('HTTP: a UTF-16 body with a BOM over the wire', async (t: TestContext) => {
  const port = await server(t)
  const body = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(envelope('1.2', '<m:Echo xmlns:m="urn:example:calc"><m:text>𝄞</m:text></m:Echo>').replace('utf-8', 'utf-16'), 'utf16le')])
  const [answer] = await rawExchange(port, request(port, body, { 'Content-Type': 'application/soap+xml; charset=utf-16', 'Content-Length': body.length }), 1)
  t.assert.strictEqual(answer.status, 200)
  t.assert.strictEqual(answer.headers['content-type'], 'application/soap+xml; charset=utf-8')
})

test('HTTP: undecodable, too large, wrong type and wrong method answer with empty bodies, and the server goes on', async (t: TestContext) => {
  const port = await server(t, { bodyLimit: 2048 })
  const cases: Array<[Buffer, number]> = [
    [request(port, '<not xml', { 'Content-Type': 'text/xml', 'Content-Length': 8 }), 400],
    [request(port, '<!DOCTYPE x []><x/>', { 'Content-Type': 'text/xml', 'Content-Length': 19 }), 400],
    [request(port, 'x'.repeat(4096), { 'Content-Type': 'text/xml', 'Content-Length': 4096 }), 413],
    [request(port, 'x'.repeat(4096), { 'Content-Type': 'text/xml', 'Transfer-Encoding': 'chunked' }).subarray(0, 200), 413],
    [request(port, '{}', { 'Content-Type': 'application/json', 'Content-Length': 2 }), 415],
    [Buffer.from('PUT /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n'), 405]
  ]
  for (const [bytes, status] of cases) {
    let sent = bytes
    if (status === 413 && bytes.includes('chunked')) {
      // a chunked body that grows past the limit
      const head = bytes.subarray(0, bytes.indexOf('\r\n\r\n') + 4)
      sent = Buffer.concat([head, Buffer.from(`1000\r\n${'x'.repeat(4096)}\r\n0\r\n\r\n`)])
    }
    const [answer] = await rawExchange(port, sent, 1)
    t.assert.strictEqual(answer?.status, status, sent.subarray(0, 60).toString())
    t.assert.strictEqual(answer.body.length, 0, `${status}: ${answer.body.toString()}`)
    if (status === 405) t.assert.strictEqual(answer.headers.allow, 'POST')
  }
  const healthy = envelope('1.2', CALL)
  const [answer] = await rawExchange(port, request(port, healthy, { 'Content-Type': 'application/soap+xml', 'Content-Length': Buffer.byteLength(healthy) }), 1)
  t.assert.strictEqual(answer.status, 200)
})
