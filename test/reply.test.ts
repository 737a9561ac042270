import { test, type TestContext } from 'node:test'
import { DOMParser } from '@xmldom/xmldom'
import Fastify from 'fastify'
import soap, { SOAP11_ENV, SOAP12_ENV, errorCodes, escapeAttribute, escapeXml, type SoapContent } from '../lib/index'
import { envelope, post, assertValidEnvelope } from './helper'

function replyApp (t: TestContext, content: () => SoapContent, header?: () => SoapContent) {
  const app = Fastify()
  app.register(soap, {
    routes: async (scope) => {
      scope.post('/r', async (_request, reply) => reply.soap(content(), header === undefined ? undefined : { header: header() }))
      scope.get('/r', async (_request, reply) => reply.soap(content()))
      scope.get('/r11', async (_request, reply) => reply.soap(content(), { version: '1.1' }))
    }
  })
  t.after(() => app.close())
  return app
}

const TEXT = 'héllo ✓ <&> 𝄞'

test('reply.soap: an envelope in the request\'s version, its media type and an exact Content-Length in bytes', async (t: TestContext) => {
  const app = replyApp(t, () => `<m:EchoResponse xmlns:m="urn:example:calc"><m:text>${escapeXml(TEXT)}</m:text></m:EchoResponse>`)
  for (const version of ['1.1', '1.2'] as const) {
    const response = await post(app, version, envelope(version, '<m:Echo xmlns:m="urn:example:calc"/>'), { url: '/r' })
    t.assert.strictEqual(response.statusCode, 200)
    t.assert.strictEqual(response.headers['content-type'], version === '1.1' ? 'text/xml; charset=utf-8' : 'application/soap+xml; charset=utf-8')
    t.assert.strictEqual(Number(response.headers['content-length']), response.rawPayload.length)
    t.assert.ok(response.rawPayload.length > response.body.length, 'multi-byte characters counted in bytes')
    t.assert.strictEqual(response.headers['transfer-encoding'], undefined)
    t.assert.ok(response.body.startsWith(`<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${version === '1.1' ? SOAP11_ENV : SOAP12_ENV}"><soap:Body>`))
    await assertValidEnvelope(t, response.body, version)
    const doc = new DOMParser().parseFromString(response.body, 'text/xml')
    t.assert.strictEqual(doc.getElementsByTagNameNS('urn:example:calc', 'text')[0].textContent, TEXT)
  }
})

test('reply.soap: header blocks, xmldom nodes, arrays and an empty Body', async (t: TestContext) => {
  const node = new DOMParser().parseFromString('<m:R xmlns:m="urn:m">1</m:R>', 'text/xml').documentElement
  if (node === null) throw new Error('no node')
  const app = replyApp(t, () => [node, '<m:S xmlns:m="urn:m"/>'], () => '<h:H xmlns:h="urn:h"/>')
  const response = await post(app, '1.2', envelope('1.2'), { url: '/r' })
  t.assert.ok(response.body.includes('<soap:Header><h:H xmlns:h="urn:h"/></soap:Header><soap:Body><m:R xmlns:m="urn:m">1</m:R><m:S xmlns:m="urn:m"/></soap:Body>'))
  await assertValidEnvelope(t, response.body, '1.2')

  const empty = replyApp(t, () => undefined)
  const emptyResponse = await post(empty, '1.1', envelope('1.1'), { url: '/r' })
  t.assert.ok(emptyResponse.body.endsWith('<soap:Body></soap:Body></soap:Envelope>'))
  await assertValidEnvelope(t, emptyResponse.body, '1.1')
})

test('reply.soap: without a decoded request (a GET) it answers SOAP 1.2, or the version asked for', async (t: TestContext) => {
  const app = replyApp(t, () => '<m:R xmlns:m="urn:m"/>')
  const response = await app.inject({ method: 'GET', url: '/r' })
  t.assert.strictEqual(response.headers['content-type'], 'application/soap+xml; charset=utf-8')
  const response11 = await app.inject({ method: 'GET', url: '/r11' })
  t.assert.strictEqual(response11.headers['content-type'], 'text/xml; charset=utf-8')
})

test('reply.soap: content of another type is a Receiver fault, not broken XML', async (t: TestContext) => {
  for (const bad of [42, { a: 1 }, [1]]) {
    const app = replyApp(t, () => bad as unknown as SoapContent)
    const response = await post(app, '1.2', envelope('1.2'), { url: '/r' })
    t.assert.strictEqual(response.statusCode, 500)
    t.assert.match(response.body, /soap:Receiver/)
  }
  t.assert.strictEqual(typeof errorCodes.SOAP_ERR_REPLY_CONTENT, 'function')
})

test('escapeXml and escapeAttribute', (t: TestContext) => {
  t.assert.strictEqual(escapeXml('a<b>&c\r"\''), 'a&lt;b&gt;&amp;c&#xD;"\'')
  t.assert.strictEqual(escapeXml('plain 𝄞'), 'plain 𝄞')
  t.assert.strictEqual(escapeAttribute('a<b>&"\t\n\r\''), 'a&lt;b&gt;&amp;&quot;&#x9;&#xA;&#xD;\'')
  t.assert.strictEqual(escapeAttribute('plain'), 'plain')
})

test('reply.soap: an xmldom Document is written as its element; a processing instruction or DOCTYPE is refused', async (t: TestContext) => {
  const doc = new DOMParser().parseFromString('<?xml version="1.0" encoding="utf-8"?><m:R xmlns:m="urn:m">1</m:R>', 'text/xml')
  const app = replyApp(t, () => doc)
  const response = await post(app, '1.2', envelope('1.2'), { url: '/r' })
  t.assert.ok(response.body.includes('<soap:Body><m:R xmlns:m="urn:m">1</m:R></soap:Body>'))
  await assertValidEnvelope(t, response.body, '1.2')
  const pi = doc.createProcessingInstruction('php', 'x')
  const withPi = replyApp(t, () => pi)
  t.assert.match((await post(withPi, '1.2', envelope('1.2'), { url: '/r' })).body, /soap:Receiver/)
})
