/**
 * Interop (docs/wsdl.md "Tested clients"): the Python zeep client (python3-zeep) reads the WSDL the
 * plugin generates and calls the demo through its SOAP 1.1 and SOAP 1.2
 * ports. test/clients/zeep_client.py reports what zeep got back; this file
 * asserts it, and what the server saw.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import { files } from './demo/app'
import { CLIENTS, assertRepliesInRequestVersion, mtomReply, requireClient, runClient, startDemo, type Exchange } from './interop'

/** Debian's Python, the one python3-zeep is installed for. */
const PYTHON = '/usr/bin/python3'
const ECHO = 'héllo ✓ <&> 𝄞'

const probe = spawnSync(PYTHON, ['-c', 'import zeep; print(zeep.__version__)'], { encoding: 'utf8', timeout: 30_000 })
const version = probe.status === 0 ? probe.stdout.trim() : '(not installed)'

type Version = '1.1' | '1.2'

/** Runs one scenario of the script against a fresh demo; undefined when zeep is not installed. */
async function zeep (t: TestContext, scenario: string): Promise<{ out: Record<string, unknown>, exchanges: Exchange[] } | undefined> {
  if (!requireClient(t, 'zeep (python3-zeep)', PYTHON, ['-c', 'import zeep'])) return undefined
  // Files again at /mtom/files, every reply an MTOM package (docs/binary.md "MTOM").
  const { url, exchanges } = await startDemo(t, (app) => { app.soap.service({ ...files(), path: '/mtom/files', mtom: 'always' }) })
  const out = await runClient(PYTHON, [join(CLIENTS, 'zeep_client.py'), url, scenario])
  t.assert.strictEqual(out.zeep, version, 'the zeep the script ran')
  t.assert.deepStrictEqual(out.warnings, [], 'zeep warns about nothing in the WSDL or the replies')
  return { out, exchanges }
}

/**
 * The WSDL was fetched once, and every POST went to `path` in `v`: for 1.2
 * with the operation's action in the Content-Type, as the binding says.
 * Returns the POSTs' statuses, in order.
 */
function assertExchanges (t: TestContext, exchanges: readonly Exchange[], path: string, v: Version, actions: readonly string[]): number[] {
  const counts = assertRepliesInRequestVersion(t, exchanges)
  t.assert.deepStrictEqual(counts, v === '1.1' ? { 1.1: actions.length, 1.2: 0 } : { 1.1: 0, 1.2: actions.length }, `every POST in SOAP ${v}`)
  const gets = exchanges.filter((e) => e.method === 'GET').map((e) => ({ url: e.url, status: e.status, responseType: e.responseType }))
  t.assert.deepStrictEqual(gets, [{ url: `${path}?wsdl`, status: 200, responseType: 'text/xml; charset=utf-8' }], 'zeep read the WSDL')
  const posts = exchanges.filter((e) => e.method === 'POST')
  t.assert.deepStrictEqual(posts.map((e) => [e.url, e.requestType]), actions.map((action) => [
    path,
    v === '1.1' ? 'text/xml; charset=utf-8' : `application/soap+xml; charset=utf-8; action="${action}"`
  ]), 'each POST\'s address and Content-Type')
  return posts.map((e) => e.status)
}

/** docs/protocol.md "Faults": a Sender fault is answered 500 in SOAP 1.1 (faultcode Client), 400 in SOAP 1.2. */
const sender = (v: Version): { code: string, status: number } => v === '1.1' ? { code: 'soap:Client', status: 500 } : { code: 'soap:Sender', status: 400 }

for (const v of ['1.1', '1.2'] as const) {
  const scenario = v.replace('.', '')

  test(`docs/wsdl.md "Tested clients": zeep ${version} calls Add, Echo and Divide from the generated WSDL over SOAP ${v}; every reply in the request's version`, async (t: TestContext) => {
    const run = await zeep(t, `calc${scenario}`)
    if (run === undefined) return
    const { out, exchanges } = run
    t.assert.strictEqual(out.error, undefined, 'the script ran to its end')
    t.assert.strictEqual(out.add, 5, 'Add(2, 3)')
    t.assert.strictEqual(out.echo, ECHO, 'Echo: the text round-trips exactly')
    t.assert.deepStrictEqual(out.divide, {
      code: sender(v).code,
      message: 'division by zero',
      actor: null,
      subcodes: [],
      detailChildren: []
    }, 'Divide(1, 0): zeep raises the Sender fault')
    const statuses = assertExchanges(t, exchanges, '/calculator', v, ['urn:example:calc/Add', 'urn:example:calc/Echo', 'urn:example:calc/Divide'])
    t.assert.deepStrictEqual(statuses, [200, 200, sender(v).status])
  })

  test(`docs/wsdl.md "Tested clients": zeep ${version} places, reads and cancels an order from the generated WSDL over SOAP ${v} (nested objects, repeated elements with an attribute, xsi:nil, a wrapped list, an enum, a date, a header, a declared fault's detail, one-way); every reply in the request's version`, async (t: TestContext) => {
    const run = await zeep(t, `orders${scenario}`)
    if (run === undefined) return
    const { out, exchanges } = run
    t.assert.strictEqual(out.error, undefined, 'the script ran to its end')

    // PlaceOrder: the Tenant header reached the handler (the id is the tenant's)
    t.assert.deepStrictEqual(out.placeOrder, { status: 'accepted', placedAt: '1970-01-01T00:00:00+00:00', total: 19.25, orderId: 'acme-1' }, 'PlaceOrder')
    const sent = out.placeOrderSent as string
    t.assert.ok(sent.includes('<soap-env:Header><ns0:Tenant xmlns:ns0="urn:example:orders"><ns0:id>acme</ns0:id></ns0:Tenant></soap-env:Header>'), `zeep sent the Tenant header block: ${sent}`)
    t.assert.ok(sent.includes('<ns0:line sku="ZZ-9"><ns0:quantity>1</ns0:quantity><ns0:unitPrice>0.25</ns0:unitPrice><ns0:note xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:nil="true"/></ns0:line>'), `zeep sent the nil note as xsi:nil: ${sent}`)
    t.assert.ok(sent.includes('<ns0:deliveryDate>2030-01-15</ns0:deliveryDate><ns0:tags><ns0:tags>red</ns0:tags><ns0:tags>fragile</ns0:tags></ns0:tags>'), `zeep sent the date and the wrapped tags: ${sent}`)

    // GetOrder: every field back, the nil note as nil on the wire and None in zeep
    t.assert.deepStrictEqual(out.getOrder, {
      customer: { name: 'Ada Lövelace', email: 'ada@example.org', vip: true },
      line: [
        { quantity: 2, unitPrice: 9.5, note: 'gift wrap', sku: 'AB-12' },
        { quantity: 1, unitPrice: 0.25, note: null, sku: 'ZZ-9' }
      ],
      priority: 'high',
      deliveryDate: '2030-01-15',
      tags: { tag: ['red', 'fragile'] },
      total: 19.25,
      id: 'acme-1'
    }, 'GetOrder')
    const posts = exchanges.filter((e) => e.method === 'POST')
    t.assert.match(posts[1]?.responseBody ?? '', /<tns:line sku="ZZ-9"><tns:quantity>1<\/tns:quantity><tns:unitPrice>0\.25<\/tns:unitPrice><tns:note xsi:nil="true"\/><\/tns:line>/, 'the server wrote the nil note as xsi:nil')

    // GetOrder of an unknown id, and of the cancelled order: the declared fault, its detail read by its element in the WSDL
    const notFound = (orderId: string): unknown => ({
      code: sender(v).code,
      message: `no order ${orderId}`,
      actor: null,
      subcodes: [],
      detailChildren: ['{urn:example:orders}OrderNotFound'],
      detail: { orderId }
    })
    t.assert.deepStrictEqual(out.unknown, notFound('nope-0'), 'GetOrder of an unknown id')
    t.assert.strictEqual(out.cancel, null, 'CancelOrder: one-way, zeep returns None')
    t.assert.deepStrictEqual(out.afterCancel, notFound('acme-1'), 'GetOrder after CancelOrder')

    const statuses = assertExchanges(t, exchanges, '/orders', v, ['PlaceOrder', 'GetOrder', 'GetOrder', 'CancelOrder', 'GetOrder'].map((op) => `urn:example:orders/${op}`))
    t.assert.deepStrictEqual(statuses, [200, 200, sender(v).status, 202, sender(v).status])
  })
}

for (const [coding, v] of [['gzip', '1.1'], ['gzip', '1.2'], ['deflate', '1.2']] as const) {
  test(`docs/protocol.md "Content codings": zeep ${version}, its transport compressing each request (${coding}), calls Add and Echo over SOAP ${v}`, async (t: TestContext) => {
    const run = await zeep(t, `${coding}${v.replace('.', '')}`)
    if (run === undefined) return
    const { out, exchanges } = run
    t.assert.strictEqual(out.error, undefined, 'the script ran to its end')
    t.assert.deepStrictEqual(out.sent, [{ coding, compressed: true }, { coding, compressed: true }], 'both requests left compressed')
    t.assert.strictEqual(out.add, 5, 'Add(2, 3)')
    t.assert.strictEqual(out.echo, ECHO, 'Echo, every character intact')
    t.assert.deepStrictEqual(assertExchanges(t, exchanges, '/calculator', v, ['urn:example:calc/Add', 'urn:example:calc/Echo']), [200, 200])
  })
}

for (const v of ['1.1', '1.2'] as const) {
  test(`docs/binary.md "The /files demo": zeep ${version} uploads 200 KB of random bytes and every byte value over SOAP ${v}, inline as base64 (zeep writes no MTOM), gets their size and sha256, downloads them byte for byte, and reads the FileNotFound fault's detail`, async (t: TestContext) => {
    const run = await zeep(t, `files${v.replace('.', '')}`)
    if (run === undefined) return
    const { out, exchanges } = run
    t.assert.strictEqual(out.error, undefined, 'the script ran to its end')
    const sent = out.sent as { size: number, sha256: string }
    t.assert.strictEqual(sent.size, 200_257)
    t.assert.deepStrictEqual(out.upload, sent, 'UploadResponse: the size and sha256 of the bytes sent')
    t.assert.deepStrictEqual(out.download, { ...sent, same: true }, 'Download: the same bytes')
    t.assert.deepStrictEqual(out.unknown, { code: sender(v).code, message: 'no file never.bin', actor: null, subcodes: [], detailChildren: ['{urn:example:files}FileNotFound'], detail: { name: 'never.bin' } })
    const statuses = assertExchanges(t, exchanges, '/files', v, ['urn:example:files/Upload', 'urn:example:files/Download', 'urn:example:files/Download'])
    t.assert.deepStrictEqual(statuses, [200, 200, sender(v).status])
    const content = /<tns:content>([^<]*)<\/tns:content>/.exec(exchanges.filter((e) => e.method === 'POST')[1].responseBody)
    t.assert.ok(content !== null)
    t.assert.strictEqual(createHash('sha256').update(Buffer.from(content[1], 'base64')).digest('hex'), sent.sha256, 'the server\'s copy')
  })
}

for (const v of ['1.1', '1.2'] as const) {
  test(`docs/binary.md "The /files demo": zeep ${version} reads MTOM replies over SOAP ${v}: from Files with mtom: 'always', the Download's bytes come back from the reply's part, byte for byte, and the fault's detail from a package of one part`, async (t: TestContext) => {
    const run = await zeep(t, `mtomfiles${v.replace('.', '')}`)
    if (run === undefined) return
    const { out, exchanges } = run
    t.assert.strictEqual(out.error, undefined, 'the script ran to its end')
    const sent = out.sent as { size: number, sha256: string }
    t.assert.deepStrictEqual(out.upload, sent, 'UploadResponse, from an MTOM reply')
    t.assert.deepStrictEqual(out.download, { ...sent, same: true }, 'Download: the same bytes, from the reply\'s part')
    t.assert.deepStrictEqual(out.unknown, { code: sender(v).code, message: 'no file never.bin', actor: null, subcodes: [], detailChildren: ['{urn:example:files}FileNotFound'], detail: { name: 'never.bin' } })
    const posts = exchanges.filter((e) => e.method === 'POST')
    t.assert.deepStrictEqual(posts.map((e) => [e.url, e.requestType?.split(';')[0], e.status]), [
      ['/mtom/files', v === '1.1' ? 'text/xml' : 'application/soap+xml', 200],
      ['/mtom/files', v === '1.1' ? 'text/xml' : 'application/soap+xml', 200],
      ['/mtom/files', v === '1.1' ? 'text/xml' : 'application/soap+xml', sender(v).status]
    ], 'zeep sends plain envelopes')
    const replies = posts.map((e) => mtomReply(e))
    const media = v === '1.1' ? 'text/xml' : 'application/soap+xml'
    t.assert.deepStrictEqual(replies.map((r) => [r?.startInfo, r?.parts.length]), [[media, 0], [media, 1], [media, 0]], 'every reply MTOM, the Download\'s with its part')
    t.assert.strictEqual(createHash('sha256').update(replies[1]?.parts[0] ?? '').digest('hex'), sent.sha256)
  })
}
