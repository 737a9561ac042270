/**
 * Interop (docs/wsdl.md "Tested clients"): a JAX-WS client (the Metro
 * reference implementation, Debian jaxws and libjaxws-java, on the system's
 * JDK) as its users build one: `wsimport` reads the demo's live `?wsdl`, and
 * test/clients/java/DemoClient.java, compiled with the generated classes,
 * calls through the SOAP 1.1 and SOAP 1.2 ports. It prints what it got; this
 * file asserts it, and what the server saw. The classes are generated and
 * compiled once for the file, in a temporary folder.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test, type TestContext } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { buildDemo, calculator } from './demo/app'
import { CLIENTS, buildStep, assertRepliesInRequestVersion, mtomReply, recordExchanges, requireClient, runClient, type Exchange } from './interop'

/** The JAX-WS runtime (its manifest names every jar it needs), and WSS4J 1.6 with what it needs (libwss4j-java's dependencies). */
const RUNTIME = ['jaxws-rt', 'wss4j', 'xmlsec', 'commons-logging', 'commons-codec', 'slf4j-api'].map((jar) => `/usr/share/java/${jar}.jar`).join(':')
const ECHO = 'héllo ✓ <&> 𝄞'
const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/'
const SOAP12 = 'http://www.w3.org/2003/05/soap-envelope'

type Version = '1.1' | '1.2'

interface Setup { url: string, exchanges: Exchange[], classes: string }

let setup: Promise<Setup> | undefined
let app: FastifyInstance | undefined
let folder: string | undefined
after(async () => {
  await app?.close()
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true })
})

/**
 * The demo (and its Calculator with WS-Addressing on, at
 * /addressed/calculator) on a loopback port, and the client built from its
 * WSDLs: once for the file.
 */
async function build (): Promise<Setup> {
  app = await buildDemo({ logger: false })
  app.soap.service({ ...calculator, path: '/addressed/calculator', addressing: true })
  const exchanges = recordExchanges(app)
  const url = await app.listen({ host: '127.0.0.1', port: 0 })
  folder = mkdtempSync(join(tmpdir(), 'fastify-soap-jaxws-'))
  const sources = join(folder, 'src')
  const classes = join(folder, 'classes')
  mkdirSync(sources)
  mkdirSync(classes)
  // -extension: wsimport reads SOAP 1.2 bindings only with it; -XadditionalHeaders: header parts become parameters
  for (const [pkg, path] of [['calc', '/calculator'], ['orders', '/orders'], ['addressed', '/addressed/calculator'], ['files', '/files']]) {
    await buildStep('wsimport', ['-quiet', '-extension', '-XadditionalHeaders', '-Xnocompile', '-s', sources, '-d', classes, '-p', pkg, `${url}${path}?wsdl`])
  }
  const generated = ['calc', 'orders', 'addressed', 'files'].map((pkg) => join(sources, pkg, '*.java')).join(' ')
  await buildStep('sh', ['-c', `javac -nowarn -encoding UTF-8 -cp ${RUNTIME} -d ${classes} ${generated} ${join(CLIENTS, 'java', 'DemoClient.java')} ${join(CLIENTS, 'java', 'Report.java')}`])
  return { url, exchanges, classes }
}

/** Runs one scenario of the client; undefined when JAX-WS is not installed. */
async function jaxws (t: TestContext, scenario: string, path: string, v: Version): Promise<{ out: Record<string, unknown>, exchanges: Exchange[] } | undefined> {
  if (!requireClient(t, 'JAX-WS RI (jaxws, libjaxws-java)', 'wsimport', ['-version'])) return undefined
  if (!requireClient(t, 'a JDK (javac)', 'javac', ['-version'])) return undefined
  if (!requireClient(t, 'WSS4J (libwss4j-java)', 'test', ['-f', '/usr/share/java/wss4j.jar'])) return undefined
  setup ??= build()
  const { url, exchanges, classes } = await setup
  const from = exchanges.length
  const out = await runClient('java', ['-cp', `${classes}:${RUNTIME}`, 'DemoClient', scenario, `${url}${path}`, v])
  return { out, exchanges: exchanges.slice(from) }
}

/** The POSTs' statuses, after checking that each reply is in its request's version and the request in `v`. */
function statuses (t: TestContext, exchanges: readonly Exchange[], v: Version): number[] {
  const counts = assertRepliesInRequestVersion(t, exchanges)
  const posts = exchanges.filter((e) => e.method === 'POST')
  t.assert.deepStrictEqual(counts, v === '1.1' ? { 1.1: posts.length, 1.2: 0 } : { 1.1: 0, 1.2: posts.length }, `every POST in SOAP ${v}`)
  return posts.map((e) => e.status)
}

/** docs/protocol.md "Faults": a Sender fault is answered 500 in SOAP 1.1 (faultcode Client), 400 in SOAP 1.2. */
const sender = (v: Version): { code: string, status: number } => v === '1.1' ? { code: `{${SOAP11}}Client`, status: 500 } : { code: `{${SOAP12}}Sender`, status: 400 }

for (const v of ['1.1', '1.2'] as const) {
  test(`docs/wsdl.md "Tested clients": JAX-WS (Metro, wsimport) calls Add, Echo and Divide over SOAP ${v}: a typed result, the text round-trips, Divide raises the Sender fault with its reason`, async (t: TestContext) => {
    const run = await jaxws(t, 'calc', '/calculator', v)
    if (run === undefined) return
    const { out, exchanges } = run
    t.assert.strictEqual(out.error, undefined, 'the client ran to its end')
    t.assert.strictEqual(out.add, 5, 'Add(2, 3), a long')
    t.assert.strictEqual(out.echo, ECHO, 'Echo: the text round-trips exactly')
    t.assert.deepStrictEqual(out.divide, {
      code: sender(v).code,
      ...(v === '1.2' ? { subcodes: [] } : {}),
      reason: 'division by zero',
      detail: []
    }, 'Divide(1, 0): SOAPFaultException with the fault\'s code and reason')
    t.assert.deepStrictEqual(statuses(t, exchanges, v), [200, 200, sender(v).status])
    if (v === '1.1') t.assert.deepStrictEqual(exchanges.filter((e) => e.method === 'POST').map((e) => e.soapAction), ['"urn:example:calc/Add"', '"urn:example:calc/Echo"', '"urn:example:calc/Divide"'], 'the quoted SOAPAction of the binding')
  })

  test(`docs/wsdl.md "Tested clients": JAX-WS (Metro, wsimport) places and reads an order with the Tenant header over SOAP ${v}, and gets the declared OrderNotFound fault as its typed exception with its detail`, async (t: TestContext) => {
    const run = await jaxws(t, 'orders', '/orders', v)
    if (run === undefined) return
    const { out, exchanges } = run
    t.assert.strictEqual(out.error, undefined, 'the client ran to its end')
    const placed = out.placeOrder as { orderId: string }
    t.assert.match(placed.orderId, /^acme-\d+$/, 'the Tenant header reached the handler')
    t.assert.deepStrictEqual(out.placeOrder, { orderId: placed.orderId, status: 'accepted', total: 19 }, 'PlaceOrder')
    t.assert.deepStrictEqual(out.getOrder, {
      id: placed.orderId,
      name: 'Ada Lövelace',
      vip: true,
      sku: 'AB-12',
      note: 'gift wrap',
      priority: 'high',
      deliveryDate: '2030-01-15',
      total: 19
    }, 'GetOrder: nested objects, an attribute, an enum, a date')
    t.assert.deepStrictEqual(out.unknown, { reason: 'no order nope-0', orderId: 'nope-0' }, 'GetOrder of an unknown id: OrderNotFoundFault, its faultInfo read from the detail')
    t.assert.deepStrictEqual(statuses(t, exchanges, v), [200, 200, sender(v).status])
    const code = v === '1.1' ? '<faultcode>soap:Client</faultcode>' : '<soap:Code><soap:Value>soap:Sender</soap:Value></soap:Code>'
    const fault = exchanges.filter((e) => e.method === 'POST')[2].responseBody
    t.assert.ok(fault.includes(code), `the fault's code on the wire: ${fault}`)
  })

  test(`docs/protocol.md "Be liberal": JAX-WS (Metro) calls GetOrder with the optional Tenant header unset over SOAP ${v}; the <Tenant xsi:nil="true"/> it sends is read as absent`, async (t: TestContext) => {
    const run = await jaxws(t, 'tenantless', '/orders', v)
    if (run === undefined) return
    const { out, exchanges } = run
    t.assert.strictEqual(out.error, undefined, 'the client ran to its end')
    t.assert.strictEqual(out.tenantless, 'no order nope-0', 'the handler ran, without a tenant, and raised OrderNotFound')
    t.assert.deepStrictEqual(statuses(t, exchanges, v), [sender(v).status])
  })

  test(`docs/security.md "WS-Security": JAX-WS (Metro) with a WSS4J 1.6 handler sends a UsernameToken (PasswordDigest, then PasswordText) and a Timestamp to the secure Calculator over SOAP ${v}; a wrong password gets FailedAuthentication`, async (t: TestContext) => {
    const run = await jaxws(t, 'wsse', '/secure/calculator', v)
    if (run === undefined) return
    const { out, exchanges } = run
    t.assert.strictEqual(out.error, undefined, 'the client ran to its end')
    t.assert.strictEqual(out.digest, 5, 'Add(2, 3) with a digest')
    t.assert.strictEqual(out.text, 5, 'Add(2, 3) with the password as text')
    const failed = '{http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd}FailedAuthentication'
    t.assert.deepStrictEqual(out.wrong, {
      ...(v === '1.1' ? { code: failed } : { code: sender(v).code, subcodes: [failed] }),
      reason: 'The security token could not be authenticated or authorized',
      detail: []
    }, 'a wrong password: the WSS §12 fault')
    t.assert.deepStrictEqual(statuses(t, exchanges, v), [200, 200, sender(v).status])
  })

  test(`docs/addressing.md: JAX-WS (Metro) with AddressingFeature (required) calls the Calculator with addressing on over SOAP ${v}, and reads the addressed replies and fault`, async (t: TestContext) => {
    const run = await jaxws(t, 'addressing', '/addressed/calculator', v)
    if (run === undefined) return
    const { out, exchanges } = run
    t.assert.strictEqual(out.error, undefined, 'the client ran to its end')
    t.assert.strictEqual(out.add, 5)
    t.assert.strictEqual(out.echo, ECHO)
    t.assert.deepStrictEqual(out.divide, { code: sender(v).code, ...(v === '1.2' ? { subcodes: [] } : {}), reason: 'division by zero', detail: [] })
    t.assert.deepStrictEqual(statuses(t, exchanges, v), [200, 200, sender(v).status])
    const posts = exchanges.filter((e) => e.method === 'POST')
    for (const [i, op] of ['AddResponse', 'EchoResponse', 'Divide/Fault'].entries()) {
      t.assert.match(posts[i].responseBody, /<wsa:RelatesTo [^>]*>uuid:[0-9a-f-]+<\/wsa:RelatesTo>/, `${op}: the reply relates to Metro's MessageID`)
    }
  })
}

for (const v of ['1.1', '1.2'] as const) {
  test(`docs/binary.md "The /files demo": JAX-WS (Metro) with MTOMFeature uploads 200 KB of random bytes and every byte value as an MTOM part over SOAP ${v}, gets their size and sha256, downloads them byte for byte as an MTOM reply's part, and gets FileNotFound as its typed exception`, async (t: TestContext) => {
    const run = await jaxws(t, 'files', '/files', v)
    if (run === undefined) return
    const { out, exchanges } = run
    t.assert.strictEqual(out.error, undefined, 'the client ran to its end')
    const sent = out.sent as { size: number, sha256: string }
    t.assert.strictEqual(sent.size, 200_256)
    t.assert.deepStrictEqual(out.upload, sent, 'UploadResponse: the size and sha256 of the bytes sent')
    t.assert.deepStrictEqual(out.download, { ...sent, same: true }, 'Download: the same bytes')
    t.assert.deepStrictEqual(out.unknown, { reason: 'no file never.bin', name: 'never.bin' }, 'FileNotFoundFault, its faultInfo read from the detail')
    const posts = exchanges.filter((e) => e.method === 'POST')
    t.assert.deepStrictEqual(posts.map((e) => e.status), [200, 200, sender(v).status])
    const upload = posts[0].requestType ?? ''
    t.assert.match(upload, /^multipart\/related;/, `the Upload arrived as MTOM: ${upload}`)
    t.assert.match(upload, /type="application\/xop\+xml"/)
    // docs/protocol.md "MTOM replies": each reply answered in kind, the Download's bytes as a part.
    const media = v === '1.1' ? 'text/xml' : 'application/soap+xml'
    const replies = posts.map((e) => mtomReply(e))
    t.assert.deepStrictEqual(replies.map((r) => [r?.startInfo, r?.parts.length]), [[media, 0], [media, 1], [media, 0]], 'three MTOM replies: the Download\'s with one part')
    t.assert.match(replies[1]?.root ?? '', /<tns:content><xop:Include xmlns:xop="http:\/\/www\.w3\.org\/2004\/08\/xop\/include" href="cid:[^"]+"\/><\/tns:content>/)
    t.assert.strictEqual(createHash('sha256').update(replies[1]?.parts[0] ?? '').digest('hex'), sent.sha256, 'the server\'s copy, as a part')
  })
}
