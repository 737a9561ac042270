/**
 * Interop (docs/wsdl.md "Tested clients"): the node-soap client (npm `soap`, a devDependency) reads
 * the demo's generated WSDL and calls every operation, over SOAP 1.1 and 1.2.
 * test/clients/node-soap.ts makes the calls and reports; these tests assert.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import { assertRepliesInRequestVersion, mtomReply, runClient, startDemo, type Exchange } from './interop'

const SCRIPT = join(__dirname, 'clients', 'node-soap.js')
const VERSION = (JSON.parse(readFileSync(require.resolve('soap/package.json'), 'utf8')) as { version: string }).version
const ECHO = 'héllo ✓ <&> 𝄞'

type Version = '1.1' | '1.2'

/** What node-soap sends in each version (Content-Type, SOAPAction header) and what the demo answers with. */
const MEDIA: Record<Version, (action: string) => { contentType: string, soapAction: string | null, responseType: string }> = {
  1.1: (action) => ({ contentType: 'text/xml; charset=utf-8', soapAction: `"${action}"`, responseType: 'text/xml; charset=utf-8' }),
  1.2: (action) => ({ contentType: `application/soap+xml; charset=utf-8; action="${action}"`, soapAction: null, responseType: 'application/soap+xml; charset=utf-8' })
}

async function run (t: TestContext, scenario: string): Promise<{ url: string, exchanges: Exchange[], out: Record<string, any> }> {
  const { url, exchanges } = await startDemo(t)
  const out = await runClient(process.execPath, [SCRIPT, url, scenario])
  t.assert.strictEqual(out.error, undefined, `node-soap failed: ${String(out.error)}`)
  t.assert.strictEqual(out.soap, VERSION)
  t.assert.deepStrictEqual(out.warnings, [], 'node-soap warned')
  return { url, exchanges, out }
}

/** The call went through, with the request's and the reply's media types of `version`. */
function assertCall (t: TestContext, call: Record<string, any>, version: Version, action: string, status: number): void {
  t.assert.strictEqual(call.error, undefined, `${action}: ${String(call.error)}\nsent: ${String(call.sent)}\nreceived: ${String(call.received)}`)
  const { contentType, soapAction, responseType } = MEDIA[version](action)
  t.assert.deepStrictEqual(
    { contentType: call.contentType, soapAction: call.soapAction, status: call.status, responseType: call.responseType },
    { contentType, soapAction, status, responseType: status === 202 ? null : responseType },
    `${action}: what node-soap sent and got`
  )
}

/** The WSDL was fetched once, and there were `posts` POSTs, every one in `version`. */
function assertExchanges (t: TestContext, exchanges: readonly Exchange[], path: string, version: Version, posts: number): void {
  const wsdl = exchanges.filter((e) => e.method === 'GET')
  t.assert.deepStrictEqual(wsdl.map((e) => [e.url, e.status, e.responseType]), [[`${path}?wsdl`, 200, 'text/xml; charset=utf-8']], 'node-soap fetched the WSDL')
  const counts = assertRepliesInRequestVersion(t, exchanges)
  t.assert.deepStrictEqual(counts, version === '1.1' ? { 1.1: posts, 1.2: 0 } : { 1.1: 0, 1.2: posts }, `every POST in SOAP ${version}`)
}

async function calculator (t: TestContext, version: Version): Promise<void> {
  const { url, exchanges, out } = await run(t, version === '1.1' ? 'calc11' : 'calc12')
  t.assert.strictEqual(out.port, version === '1.1' ? 'CalculatorSoap11' : 'CalculatorSoap12')
  // The WSDL's addresses are where the demo listens.
  t.assert.deepStrictEqual(out.ports, { CalculatorSoap11: `${url}/calculator`, CalculatorSoap12: `${url}/calculator` })

  assertCall(t, out.add, version, 'urn:example:calc/Add', 200)
  t.assert.deepStrictEqual(out.add.result, { result: 5 })

  assertCall(t, out.echo, version, 'urn:example:calc/Echo', 200)
  t.assert.deepStrictEqual(out.echo.result, { text: ECHO })

  // A Sender fault: 500 with faultcode Client in 1.1, 400 with Code Sender in 1.2.
  // node-soap renders a 1.2 fault with no Subcode as "Value: undefined: Reason".
  assertCall(t, out.divide, version, 'urn:example:calc/Divide', version === '1.1' ? 500 : 400)
  t.assert.deepStrictEqual(out.divide.fault, version === '1.1'
    ? { code: 'soap:Client', reason: 'division by zero', message: 'soap:Client: division by zero', status: 500 }
    : { code: 'soap:Sender', reason: 'division by zero', message: 'soap:Sender: undefined: division by zero', status: 400 })

  assertExchanges(t, exchanges, '/calculator', version, 3)
}

async function orders (t: TestContext, version: Version): Promise<void> {
  const { url, exchanges, out } = await run(t, version === '1.1' ? 'orders11' : 'orders12')
  t.assert.strictEqual(out.port, version === '1.1' ? 'OrdersSoap11' : 'OrdersSoap12')
  t.assert.deepStrictEqual(out.ports, { OrdersSoap11: `${url}/orders`, OrdersSoap12: `${url}/orders` })
  const env = version === '1.1' ? 'http://schemas.xmlsoap.org/soap/envelope/' : 'http://www.w3.org/2003/05/soap-envelope'

  // PlaceOrder: what node-soap made of the arguments, from the WSDL.
  assertCall(t, out.placeOrder, version, 'urn:example:orders/PlaceOrder', 200)
  const sent: string = out.placeOrderSent
  t.assert.ok(sent.includes(`<soap:Envelope xmlns:soap="${env}"`), sent)
  t.assert.ok(sent.includes('<soap:Header><Tenant xmlns="urn:example:orders"><id>acme</id></Tenant></soap:Header>'), `the Tenant header block: ${sent}`)
  t.assert.ok(sent.includes('<PlaceOrder xmlns="urn:example:orders"><customer><name>Zoë Ångström</name><email>zoe@example.org</email><vip>true</vip></customer>'), sent)
  t.assert.ok(sent.includes('<line sku="AB-12"><quantity>2</quantity><unitPrice>9.5</unitPrice><note xsi:nil="true"></note></line>'), `a null note as xsi:nil: ${sent}`)
  t.assert.ok(sent.includes('<line sku="ZZ-9"><quantity>3</quantity><unitPrice>0.25</unitPrice><note>gift wrap</note></line>'), sent)
  t.assert.ok(sent.includes('<priority>high</priority><deliveryDate>2030-01-15</deliveryDate><tags><tags>red</tags><tags>fragile</tags></tags><giftMessage xsi:nil="true"></giftMessage></PlaceOrder>'), sent)
  t.assert.deepStrictEqual(out.placeOrder.result, {
    attributes: { orderId: 'acme-1' },
    status: 'accepted',
    placedAt: { Date: '1970-01-01T00:00:00.000Z' },
    total: 19.75
  })

  // GetOrder: every field back, typed by the WSDL (xs:date read as a Date at UTC midnight).
  assertCall(t, out.getOrder, version, 'urn:example:orders/GetOrder', 200)
  t.assert.deepStrictEqual(out.getOrder.result, {
    order: {
      attributes: { id: 'acme-1' },
      customer: { name: 'Zoë Ångström', email: 'zoe@example.org', vip: true },
      line: [
        { attributes: { sku: 'AB-12' }, quantity: 2, unitPrice: 9.5, note: null },
        { attributes: { sku: 'ZZ-9' }, quantity: 3, unitPrice: 0.25, note: 'gift wrap' }
      ],
      priority: 'high',
      deliveryDate: { Date: '2030-01-15T00:00:00.000Z' },
      tags: { tag: ['red', 'fragile'] },
      total: 19.75
    }
  })

  // The declared fault, its detail read by node-soap.
  const [code, status] = version === '1.1' ? ['soap:Client', 500] : ['soap:Sender', 400]
  const notFound = (orderId: string): Record<string, unknown> => ({
    code,
    reason: `no order ${orderId}`,
    detail: { OrderNotFound: { orderId } },
    message: `${code}: ${version === '1.2' ? 'undefined: ' : ''}no order ${orderId}: {"OrderNotFound":{"orderId":"${orderId}"}}`,
    status
  })
  assertCall(t, out.unknown, version, 'urn:example:orders/GetOrder', status)
  t.assert.deepStrictEqual(out.unknown.fault, notFound('nope-0'))

  // One-way: 202 with no body, which node-soap gives as a null result.
  assertCall(t, out.cancel, version, 'urn:example:orders/CancelOrder', 202)
  t.assert.deepStrictEqual({ result: out.cancel.result, body: out.cancel.body }, { result: null, body: '' })
  t.assert.ok(String(out.cancelSent).includes('<CancelOrder xmlns="urn:example:orders"><orderId>acme-1</orderId></CancelOrder>'), out.cancelSent)

  assertCall(t, out.afterCancel, version, 'urn:example:orders/GetOrder', status)
  t.assert.deepStrictEqual(out.afterCancel.fault, notFound('acme-1'))

  assertExchanges(t, exchanges, '/orders', version, 5)
  t.assert.deepStrictEqual(exchanges.filter((e) => e.method === 'POST').map((e) => e.status), [200, 200, status, 202, status])
}

test(`docs/wsdl.md "Tested clients": node-soap ${VERSION} calls Add, Echo and Divide from the generated WSDL's SOAP 1.1 port; every reply in SOAP 1.1`, async (t: TestContext) => {
  await calculator(t, '1.1')
})

test(`docs/wsdl.md "Tested clients": node-soap ${VERSION} calls Add, Echo and Divide from the generated WSDL's SOAP 1.2 port (forceSoap12Headers); every reply in SOAP 1.2`, async (t: TestContext) => {
  await calculator(t, '1.2')
})

test(`docs/wsdl.md "Tested clients": node-soap ${VERSION} places, reads and cancels an order from the generated WSDL's SOAP 1.1 port (header, attributes, nil, wrapped array, date, declared fault, one-way); every reply in SOAP 1.1`, async (t: TestContext) => {
  await orders(t, '1.1')
})

test(`docs/wsdl.md "Tested clients": node-soap ${VERSION} places, reads and cancels an order from the generated WSDL's SOAP 1.2 port (header, attributes, nil, wrapped array, date, declared fault, one-way); every reply in SOAP 1.2`, async (t: TestContext) => {
  await orders(t, '1.2')
})

test('docs/binary.md "The /files demo": node-soap over SOAP 1.1 uploads 200 KB of random bytes and every byte value as an MTOM part (attachments), gets their size and sha256, downloads them with forceMTOM byte for byte from the MTOM reply\'s part, and reads FileNotFound as a Client fault', async (t: TestContext) => {
  const { exchanges, out } = await run(t, 'files11')
  const sent = out.sent as { size: number, sha256: string }
  t.assert.strictEqual(sent.size, 200_256)
  for (const key of ['upload', 'download', 'unknown']) {
    t.assert.match(out[key].contentType, /^multipart\/related; type="application\/xop\+xml"; start="<[^>]+>"; start-info="text\/xml"; boundary=[0-9a-f-]+$/, `${key}: sent as MTOM`)
  }
  t.assert.deepStrictEqual(out.upload.result, sent, 'UploadResponse: the size and sha256 of the bytes sent')
  t.assert.deepStrictEqual(out.downloaded, { ...sent, same: true, as: 'part' }, 'Download: the same bytes, read from the MTOM reply\'s part')
  t.assert.deepStrictEqual(out.unknown.fault.detail, { FileNotFound: { name: 'never.bin' } })
  t.assert.strictEqual(out.unknown.fault.reason, 'no file never.bin')
  t.assert.deepStrictEqual(exchanges.filter((e) => e.method === 'GET').map((e) => [e.url, e.status]), [['/files?wsdl', 200]], 'node-soap fetched the WSDL')
  const posts = exchanges.filter((e) => e.method === 'POST')
  t.assert.deepStrictEqual(posts.map((e) => [e.requestType?.split(';')[0], e.status]), [['multipart/related', 200], ['multipart/related', 200], ['multipart/related', 500]], 'what the server saw')
  // docs/protocol.md "MTOM replies": each answered in kind, the Download's bytes as a part.
  const replies = posts.map((e) => mtomReply(e))
  t.assert.deepStrictEqual(replies.map((reply) => [reply?.startInfo, reply?.parts.length]), [['text/xml', 0], ['text/xml', 1], ['text/xml', 0]])
  for (const reply of replies) t.assert.match(reply?.root ?? '', /^<\?xml version="1\.0" encoding="utf-8"\?><soap:Envelope xmlns:soap="http:\/\/schemas\.xmlsoap\.org\/soap\/envelope\/"/, 'a SOAP 1.1 envelope')
})

test('docs/binary.md "The /files demo": node-soap over SOAP 1.2 with MTOM labels its root part text/xml (type="text/xml") around a SOAP 1.2 envelope, so the root part\'s own Content-Type makes it SOAP 1.1 and the answer is a VersionMismatch fault', async (t: TestContext) => {
  const { exchanges, out } = await run(t, 'files12')
  for (const key of ['upload', 'download']) {
    t.assert.match(out[key].contentType, /^multipart\/related; type="application\/xop\+xml"; start="<[^>]+>"; start-info="text\/xml"; boundary=[0-9a-f-]+; action="urn:example:files\/(Upload|Download)"$/, `${key}: sent as MTOM`)
    t.assert.strictEqual(out[key].status, 500)
    t.assert.strictEqual(out[key].fault.code, 'soap:VersionMismatch')
    t.assert.strictEqual(out[key].fault.reason, 'The envelope namespace http://www.w3.org/2003/05/soap-envelope is not the one the media type names')
  }
  t.assert.strictEqual(out.downloaded, null)
  t.assert.deepStrictEqual(exchanges.filter((e) => e.method === 'POST').map((e) => e.status), [500, 500, 500])
})
