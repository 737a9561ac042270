import { test, type TestContext } from 'node:test'
import Fastify, { type FastifyInstance } from 'fastify'
import * as xpath from 'xpath'
import soap, { SOAP11_ENV, SOAP12_ENV, type SoapContext } from '../lib/index'
import { connect } from 'node:net'
import { MEDIA, envelope, listen, post, rawExchange } from './helper'

async function capture (t: TestContext, options = {}): Promise<{ app: FastifyInstance, seen: () => SoapContext }> {
  let last: SoapContext | null = null
  const app = Fastify()
  await app.register(soap, {
    ...options,
    routes: async (scope) => {
      scope.post('/capture', async (request, reply) => {
        last = request.soap
        return reply.soap()
      })
    }
  })
  app.get('/plain', async (request) => ({ soap: request.soap }))
  t.after(() => app.close())
  return {
    app,
    seen: () => {
      if (last === null) throw new Error('no request.soap captured')
      return last
    }
  }
}

const CALL = '<m:Add xmlns:m="urn:example:calc"><m:a>2</m:a><m:b>3</m:b></m:Add>'

test('request.soap: version from the media type, action from SOAPAction quoted, unquoted or missing (SOAP 1.1 §6.1.1)', async (t: TestContext) => {
  const { app, seen } = await capture(t)
  const cases: Array<[Record<string, string>, string | undefined]> = [
    [{ SOAPAction: '"urn:example:calc/Add"' }, 'urn:example:calc/Add'],
    [{ SOAPAction: 'urn:example:calc/Add' }, 'urn:example:calc/Add'],
    [{ Soapaction: '"urn:example:calc/Add"' }, 'urn:example:calc/Add'],
    [{ SOAPAction: '""' }, undefined],
    [{ SOAPAction: '' }, undefined],
    [{}, undefined]
  ]
  for (const [headers, action] of cases) {
    const response = await post(app, '1.1', envelope('1.1', CALL), { url: '/capture', headers })
    t.assert.strictEqual(response.statusCode, 200)
    t.assert.strictEqual(seen().version, '1.1')
    t.assert.strictEqual(seen().namespace, SOAP11_ENV)
    t.assert.strictEqual(seen().action, action, JSON.stringify(headers))
  }
})

test('request.soap: SOAP 1.2 action from the action parameter, or SOAPAction when it is absent', async (t: TestContext) => {
  const { app, seen } = await capture(t)
  const cases: Array<[string, Record<string, string>, string | undefined]> = [
    ['application/soap+xml; charset=utf-8; action="urn:example:calc/Add"', {}, 'urn:example:calc/Add'],
    ['application/soap+xml;action=urn:a;charset=UTF-8', {}, 'urn:a'],
    ['application/soap+xml; action="urn:param"', { SOAPAction: '"urn:header"' }, 'urn:param'],
    ['application/soap+xml; charset=utf-8', { SOAPAction: '"urn:header"' }, 'urn:header'],
    ['application/soap+xml', {}, undefined]
  ]
  for (const [contentType, headers, action] of cases) {
    const response = await post(app, '1.2', envelope('1.2', CALL), { url: '/capture', contentType, headers })
    t.assert.strictEqual(response.statusCode, 200)
    t.assert.strictEqual(seen().version, '1.2')
    t.assert.strictEqual(seen().namespace, SOAP12_ENV)
    t.assert.strictEqual(seen().action, action, contentType)
  }
})

test('request.soap: header blocks in order and by {namespace}local, with mustUnderstand, role and relay', async (t: TestContext) => {
  const { app, seen } = await capture(t, { understoodHeaders: ['{urn:sec}Security'], roles: ['urn:gateway'] })
  const header =
    '<w:Security xmlns:w="urn:sec" s:mustUnderstand="true" s:role="urn:gateway"><w:Token>abc</w:Token></w:Security>' +
    '<a:To xmlns:a="urn:addr" s:relay="1">urn:dest</a:To>' +
    '<w:Security xmlns:w="urn:sec" s:role="http://www.w3.org/2003/05/soap-envelope/role/none"/>'
  const response = await post(app, '1.2', envelope('1.2', CALL, header), { url: '/capture' })
  t.assert.strictEqual(response.statusCode, 200)
  const ctx = seen()
  t.assert.strictEqual(ctx.hasHeader, true)
  t.assert.deepStrictEqual(ctx.headers.map((h) => [h.key, h.mustUnderstand, h.role, h.relay, h.targeted]), [
    ['{urn:sec}Security', true, 'urn:gateway', false, true],
    ['{urn:addr}To', false, undefined, true, true],
    ['{urn:sec}Security', false, 'http://www.w3.org/2003/05/soap-envelope/role/none', false, false]
  ])
  t.assert.strictEqual(ctx.headersByName.get('{urn:sec}Security')?.length, 2)
  t.assert.strictEqual(ctx.headersByName, ctx.headersByName, 'built once')
  t.assert.strictEqual(ctx.header('urn:addr', 'To')?.element.children[0], 'urn:dest')
  t.assert.strictEqual(ctx.header('urn:addr', 'From'), undefined)
  const token = ctx.headers[0].element.children[0]
  t.assert.ok(typeof token !== 'string')
  t.assert.deepStrictEqual(token, { name: 'w:Token', prefix: 'w', localName: 'Token', namespace: 'urn:sec', attributes: [], children: ['abc'] })
})

test('request.soap: SOAP 1.1 actor, and an envelope with no Header', async (t: TestContext) => {
  const { app, seen } = await capture(t)
  await post(app, '1.1', envelope('1.1', CALL, '<a:A xmlns:a="urn:a" s:actor="http://schemas.xmlsoap.org/soap/actor/next" s:mustUnderstand="0"/>'), { url: '/capture' })
  t.assert.deepStrictEqual(seen().headers.map((h) => [h.role, h.mustUnderstand, h.targeted, h.relay]), [['http://schemas.xmlsoap.org/soap/actor/next', false, true, false]])
  await post(app, '1.1', envelope('1.1', CALL), { url: '/capture' })
  t.assert.strictEqual(seen().hasHeader, false)
  t.assert.strictEqual(seen().headers.length, 0)
  t.assert.strictEqual(seen().headersByName.size, 0)
  t.assert.strictEqual(seen().headerElement, null)
})

test('request.soap: the payload elements with attributes, text, CDATA and nesting, namespace declarations left out', async (t: TestContext) => {
  const { app, seen } = await capture(t)
  const body =
    '<m:Op xmlns:m="urn:m" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" m:id="7" plain="p">' +
    '<m:text xsi:type="xsd:string">a &amp; b<![CDATA[ <c> ]]>d</m:text><m:empty/><m:nil xsi:nil="true"/>' +
    '</m:Op><n:Second xmlns:n="urn:n"/>'
  await post(app, '1.2', envelope('1.2', body), { url: '/capture' })
  const ctx = seen()
  t.assert.strictEqual(ctx.body.length, 2)
  t.assert.strictEqual(ctx.payload, ctx.body[0])
  const op = ctx.body[0]
  t.assert.strictEqual(op.namespace, 'urn:m')
  t.assert.deepStrictEqual(op.attributes, [
    { name: 'm:id', prefix: 'm', localName: 'id', namespace: 'urn:m', value: '7' },
    { name: 'plain', prefix: '', localName: 'plain', namespace: '', value: 'p' }
  ])
  const [text, empty, nil] = op.children as Array<Exclude<typeof op.children[number], string>>
  t.assert.deepStrictEqual(text.children, ['a & b <c> d'])
  t.assert.deepStrictEqual(text.attributes.map((a) => `{${a.namespace}}${a.localName}=${a.value}`), ['{http://www.w3.org/2001/XMLSchema-instance}type=xsd:string'])
  t.assert.deepStrictEqual(empty.children, [])
  t.assert.strictEqual(nil.attributes[0].value, 'true')
  t.assert.strictEqual(ctx.body[1].localName, 'Second')
})

test('request.soap: an empty Body has no payload', async (t: TestContext) => {
  const { app, seen } = await capture(t)
  await post(app, '1.2', envelope('1.2', ''), { url: '/capture' })
  t.assert.strictEqual(seen().payload, undefined)
  t.assert.deepStrictEqual(seen().body, [])
})

test('request.soap: the xmldom Document is built on first use, once, with its Header and Body elements', async (t: TestContext) => {
  const { app, seen } = await capture(t)
  await post(app, '1.2', envelope('1.2', CALL, '<h:A xmlns:h="urn:h">x</h:A>'), { url: '/capture' })
  const ctx = seen()
  const doc = ctx.document
  t.assert.strictEqual(ctx.document, doc)
  t.assert.strictEqual(ctx.envelopeElement.localName, 'Envelope')
  t.assert.strictEqual(ctx.headerElement?.localName, 'Header')
  t.assert.strictEqual(ctx.headerElement?.namespaceURI, SOAP12_ENV)
  t.assert.strictEqual(ctx.bodyElement.localName, 'Body')
  t.assert.strictEqual(ctx.bodyElement.getElementsByTagNameNS('urn:example:calc', 'a')[0].textContent, '2')
})

test('request.soap.select: XPath with soap, env, soap11, soap12, xsi, xsd and the namespaces option bound', async (t: TestContext) => {
  const { app, seen } = await capture(t, { namespaces: { calc: 'urn:example:calc' } })
  for (const version of ['1.1', '1.2'] as const) {
    await post(app, version, envelope(version, CALL), { url: '/capture' })
    const ctx = seen()
    t.assert.strictEqual(ctx.select('string(/soap:Envelope/env:Body/calc:Add/calc:b)'), '3')
    t.assert.strictEqual(ctx.select(`count(/${version === '1.1' ? 'soap11' : 'soap12'}:Envelope)`), 1)
    const nodes = ctx.select('calc:a', ctx.bodyElement.getElementsByTagNameNS('urn:example:calc', 'Add')[0])
    t.assert.ok(Array.isArray(nodes) && nodes.length === 1 && xpath.isElement(nodes[0]))
  }
})

test('request.soap is null outside the SOAP scope', async (t: TestContext) => {
  const { app } = await capture(t)
  const response = await app.inject({ method: 'GET', url: '/plain' })
  t.assert.deepStrictEqual(response.json(), { soap: null })
})

test('docs/protocol.md "Versions": the same URL serves both versions', async (t: TestContext) => {
  const { app, seen } = await capture(t)
  for (const version of ['1.1', '1.2'] as const) {
    const response = await post(app, version, envelope(version, CALL), { url: '/capture', contentType: MEDIA[version] })
    t.assert.strictEqual(response.statusCode, 200)
    t.assert.strictEqual(seen().version, version)
  }
})

test('request.soap.select: refused past maxXPathElements (the xpath package is quadratic), a Sender fault', async (t: TestContext) => {
  const { app, seen } = await capture(t, { maxXPathElements: 10 })
  await post(app, '1.2', envelope('1.2', '<m:L xmlns:m="urn:m">' + '<i/>'.repeat(7) + '</m:L>'), { url: '/capture' })
  t.assert.strictEqual(seen().select('count(//*)'), 10)
  await post(app, '1.2', envelope('1.2', '<m:L xmlns:m="urn:m">' + '<i/>'.repeat(8) + '</m:L>'), { url: '/capture' })
  t.assert.throws(() => seen().select('count(//*)'), { code: 'SOAP_ERR_SELECT_LIMIT', statusCode: 400 })
  t.assert.strictEqual(seen().bodyElement.getElementsByTagName('i').length, 8, 'the Document is still there')

  const selecting = Fastify()
  await selecting.register(soap, { routes: async (scope) => { scope.post('/s', async (request, reply) => reply.soap(String(request.soap?.select('count(//*)')))) } })
  t.after(() => selecting.close())
  const response = await post(selecting, '1.2', envelope('1.2', '<m:L xmlns:m="urn:m">' + '<i/>'.repeat(3000) + '</m:L>'), { url: '/s' })
  t.assert.strictEqual(response.statusCode, 400)
  t.assert.match(response.body, /soap:Sender/)
})

test('request.soap.signal: aborted when the client goes away mid-request, not when the answer is sent', async (t: TestContext) => {
  const seen: Array<{ aborted: boolean, reason?: string }> = []
  let release: () => void = () => {}
  const app = Fastify()
  await app.register(soap, {
    routes: async (scope) => {
      scope.post('/slow', async (request, reply) => {
        const signal = (request.soap as SoapContext).signal
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 2000)
          release = () => { clearTimeout(timer); resolve() }
          signal.addEventListener('abort', () => { clearTimeout(timer); resolve() })
        })
        seen.push({ aborted: signal.aborted, reason: (signal.reason as { code?: string } | undefined)?.code })
        return reply.soap()
      })
      scope.post('/fast', async (request, reply) => {
        const signal = (request.soap as SoapContext).signal
        reply.raw.once('close', () => { seen.push({ aborted: signal.aborted }) })
        return reply.soap()
      })
    }
  })
  t.after(() => app.close())
  const port = await listen(app)
  const body = envelope('1.2', CALL)
  const request = (path: string): string => `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/soap+xml\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`

  const socket = connect(port, '127.0.0.1', () => { socket.write(request('/slow')); setTimeout(() => socket.destroy(), 100) })
  const started = Date.now()
  while (seen.length === 0 && Date.now() - started < 3000) await new Promise((resolve) => setTimeout(resolve, 20))
  t.assert.deepStrictEqual(seen, [{ aborted: true, reason: 'SOAP_ERR_CLIENT_GONE' }])
  t.assert.ok(Date.now() - started < 1500, 'aborted at once, not after the 2 s wait')
  release()

  const [answer] = await rawExchange(port, request('/fast'), 1)
  t.assert.strictEqual(answer.status, 200)
  await new Promise((resolve) => setTimeout(resolve, 50))
  t.assert.deepStrictEqual(seen[1], { aborted: false })
})
