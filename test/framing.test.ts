/**
 * HTTP framing, over raw TCP to the demo, which sets the plugin's
 * soapClientErrorHandler: what Node's HTTP parser refuses is answered with
 * its status and no body, and the server goes on answering.
 */
import { test, type TestContext } from 'node:test'
import type { Socket } from 'node:net'
import Fastify from 'fastify'
import { soapClientErrorHandler } from '../lib/index'
import { buildDemo } from './demo/app'
import { listen, rawExchange } from './helper'

const ENV = '<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope"><s:Body><c:Add xmlns:c="urn:example:calc"><c:a>1</c:a><c:b>2</c:b></c:Add></s:Body></s:Envelope>'
const L = Buffer.byteLength(ENV)
const HEAD = 'POST /calculator HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/soap+xml\r\n'

const CASES: Array<[string, string, number, boolean?]> = [
  ['RFC 9112 §6.3: a Content-Length that is not a number', `${HEAD}Content-Length: abc\r\n\r\n${ENV}`, 400],
  ['RFC 9112 §6.3: two different Content-Lengths', `${HEAD}Content-Length: ${L}\r\nContent-Length: ${L + 1}\r\n\r\n${ENV}`, 400],
  ['RFC 9112 §6.3: Content-Length too small (the rest is no request)', `${HEAD}Content-Length: ${L - 10}\r\n\r\n${ENV}`, 400],
  ['RFC 9112 §6.3: Content-Length too large, then the client closes', `${HEAD}Content-Length: ${L + 10}\r\n\r\n${ENV}`, 400, true],
  ['RFC 9112 §7.1: a chunk size that is not hexadecimal', `${HEAD}Transfer-Encoding: chunked\r\n\r\nzz\r\n${ENV}\r\n0\r\n\r\n`, 400],
  ['RFC 9112 §6.1: both Content-Length and Transfer-Encoding', `${HEAD}Content-Length: ${L}\r\nTransfer-Encoding: chunked\r\n\r\n${L.toString(16)}\r\n${ENV}\r\n0\r\n\r\n`, 400],
  ['RFC 9112 §5.2: obs-fold', `${HEAD.replace('soap+xml\r\n', 'soap+xml;\r\n charset=utf-8\r\n')}Content-Length: ${L}\r\n\r\n${ENV}`, 400],
  ['RFC 9112 §3.2: no Host', `POST /calculator HTTP/1.1\r\nContent-Type: application/soap+xml\r\nContent-Length: ${L}\r\n\r\n${ENV}`, 400],
  ['RFC 9110 §9.1: a method that is no token', 'PO(ST /calculator HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 400],
  ['RFC 6585 §5: headers over the size limit', `${HEAD}X-Big: ${'a'.repeat(20_000)}\r\nContent-Length: ${L}\r\n\r\n${ENV}`, 431],
  ['RFC 9110 §5.3: Content-Type twice', `${HEAD}Content-Type: application/json\r\nContent-Length: ${L}\r\n\r\n${ENV}`, 400],
  ['RFC 9112 §3.2.2: the absolute form of the target is served', `POST http://127.0.0.1/calculator HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/soap+xml\r\nContent-Length: ${L}\r\n\r\n${ENV}`, 200],
  ['RFC 9110 §2.5: HTTP/1.0 is served', `POST /calculator HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Type: application/soap+xml\r\nContent-Length: ${L}\r\n\r\n${ENV}`, 200]
]

for (const [name, bytes, status, halfClose] of CASES) {
  test(`HTTP framing, ${name} → ${status}${status === 200 ? '' : ' empty'}`, async (t: TestContext) => {
    const app = await buildDemo()
    t.after(() => app.close())
    const port = await listen(app)
    const [answer] = await rawExchange(port, bytes, 1, 5000, halfClose === true)
    t.assert.ok(answer !== undefined, 'an answer')
    t.assert.strictEqual(answer.status, status)
    if (status === 200) {
      t.assert.match(answer.body.toString(), /<tns:result>3<\/tns:result>/)
    } else {
      if (name.includes('no Host')) {
        // Node answers this one itself, before any handler: no Content-Length, the close ends the empty body.
        t.assert.strictEqual(answer.headers.connection, 'close')
      } else {
        t.assert.strictEqual(answer.headers['content-length'], '0')
      }
      t.assert.strictEqual(answer.body.length, 0)
      t.assert.strictEqual(answer.headers['content-type'], undefined)
    }
    const [healthy] = await rawExchange(port, `${HEAD}Content-Length: ${L}\r\n\r\n${ENV}`, 1)
    t.assert.strictEqual(healthy?.status, 200, 'the server still answers')
  })
}

test('soapClientErrorHandler: nothing is written to a reset or destroyed socket', (t: TestContext) => {
  const writes: string[] = []
  const socket = (destroyed: boolean): Socket => ({ destroyed, writable: true, write: (s: string) => { writes.push(s) }, destroy: () => {} }) as unknown as Socket
  const app = Fastify()
  soapClientErrorHandler.call(app, Object.assign(new Error('reset'), { code: 'ECONNRESET' }), socket(false))
  soapClientErrorHandler.call(app, new Error('gone'), socket(true))
  t.assert.deepStrictEqual(writes, [])
  soapClientErrorHandler.call(app, Object.assign(new Error('slow'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), socket(false))
  t.assert.deepStrictEqual(writes, ['HTTP/1.1 408 Request Timeout\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'])
})
