/**
 * Interop (docs/wsdl.md "Tested clients"): a .NET WCF client on Mono
 * (Debian mono-complete: mcs, System.ServiceModel) as its users write one: a
 * service contract and a ChannelFactory over BasicHttpBinding (SOAP 1.1) or a
 * CustomBinding of TextMessageEncoding and HttpTransport (SOAP 1.2, with and
 * without WS-Addressing 1.0). test/clients/dotnet/WcfClient.cs, compiled once
 * for the file into a temporary folder, calls the demo's Calculator and
 * prints what it got; this file asserts it, and what the server saw.
 */
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test, type TestContext } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { SoapFault, defineOperation, defineService } from '../lib/index'
import { buildDemo, calculator } from './demo/app'
import { CLIENTS, buildStep, assertRepliesInRequestVersion, mtomReply, recordExchanges, requireClient, runClient, type Exchange } from './interop'

const ECHO = 'héllo ✓ <&> 𝄞'
const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/'
const SOAP12 = 'http://www.w3.org/2003/05/soap-envelope'

type Binding = 'basic' | 'soap12' | 'soap12wsa'

const long = { type: 'integer' } as const
const text = { type: 'string' } as const
const pair = { type: 'object', properties: { a: long, b: long }, required: ['a', 'b'], additionalProperties: false } as const
const one = <const Name extends string, const T> (name: Name, type: T): { type: 'object', properties: Record<Name, T>, required: [Name], additionalProperties: false } =>
  ({ type: 'object', properties: { [name]: type } as Record<Name, T>, required: [name], additionalProperties: false })

/** The Calculator with each result named <Operation>Result, as WCF names it (docs/wsdl.md "Client notes"). */
const resultCalculator = defineService({
  path: '/svcutil/calculator',
  namespace: 'urn:example:calc',
  name: 'Calculator',
  operations: {
    Add: defineOperation({ input: pair, output: one('AddResult', long), handler: async ({ a, b }) => ({ AddResult: a + b }) }),
    Echo: defineOperation({ input: one('text', text), output: one('EchoResult', text), handler: async (input) => ({ EchoResult: input.text }) }),
    Divide: defineOperation({
      input: pair,
      output: one('DivideResult', long),
      async handler ({ a, b }) {
        if (b === 0) throw new SoapFault({ code: 'Sender', reason: 'division by zero' })
        return { DivideResult: Math.trunc(a / b) }
      }
    })
  }
})

interface Setup { url: string, exchanges: Exchange[], folder: string }

let setup: Promise<Setup> | undefined
let app: FastifyInstance | undefined
let folder: string | undefined
after(async () => {
  await app?.close()
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true })
})

/**
 * The demo, with its Calculator again at /addressed/calculator (addressing
 * on), on a loopback port; the client compiled: once for the file.
 */
async function build (): Promise<Setup> {
  app = await buildDemo({ logger: false })
  app.soap.service({ ...calculator, path: '/addressed/calculator', addressing: true })
  // docs/faults.md "Clients and fault status codes": every fault 500, as WCF needs
  app.soap.service({ ...calculator, path: '/wcf/calculator', faultStatus: 500 })
  app.soap.service({ ...calculator, path: '/wcf/addressed/calculator', addressing: true, faultStatus: 500 })
  app.soap.service(resultCalculator)
  const exchanges = recordExchanges(app)
  const url = await app.listen({ host: '127.0.0.1', port: 0 })
  folder = mkdtempSync(join(tmpdir(), 'fastify-soap-wcf-'))
  const dotnet = join(CLIENTS, 'dotnet')
  await buildStep('mcs', ['-nologo', `-out:${join(folder, 'WcfClient.exe')}`, '-r:System.ServiceModel.dll', join(dotnet, 'WcfClient.cs'), join(dotnet, 'Json.cs')])
  await buildStep('mcs', ['-nologo', `-out:${join(folder, 'WcfFiles.exe')}`, '-r:System.ServiceModel.dll', '-r:System.Runtime.Serialization.dll', join(dotnet, 'WcfFiles.cs'), join(dotnet, 'Json.cs')])
  return { url, exchanges, folder }
}

/** Runs the client over one binding; undefined when Mono is not installed. */
async function wcf (t: TestContext, binding: Binding, path: string): Promise<{ out: Record<string, unknown>, exchanges: Exchange[] } | undefined> {
  if (!requireClient(t, 'Mono (mono-complete)', 'mcs', ['--version'])) return undefined
  setup ??= build()
  const { url, exchanges, folder } = await setup
  const from = exchanges.length
  const out = await runClient('mono', [join(folder, 'WcfClient.exe'), binding, `${url}${path}`])
  t.assert.strictEqual(out.error, undefined, 'the client ran to its end')
  t.assert.strictEqual(out.add, 5, 'Add(2, 3), a long')
  t.assert.strictEqual(out.echo, ECHO, 'Echo: the text round-trips exactly')
  return { out, exchanges: exchanges.slice(from) }
}

/** The POSTs' Content-Types and statuses, after checking each reply is in its request's version. */
function posts (t: TestContext, exchanges: readonly Exchange[]): Array<[string | undefined, number]> {
  assertRepliesInRequestVersion(t, exchanges)
  return exchanges.filter((e) => e.method === 'POST').map((e) => [e.requestType, e.status])
}

test('docs/wsdl.md "Tested clients": WCF (Mono) over BasicHttpBinding calls Add, Echo and Divide in SOAP 1.1 and reads the Client fault (500) as a FaultException with its code and reason', async (t: TestContext) => {
  const run = await wcf(t, 'basic', '/calculator')
  if (run === undefined) return
  t.assert.deepStrictEqual(run.out.divide, { code: `{${SOAP11}}Client`, reason: 'division by zero', type: 'FaultException' })
  t.assert.deepStrictEqual(posts(t, run.exchanges), [
    ['text/xml; charset=utf-8', 200], ['text/xml; charset=utf-8', 200], ['text/xml; charset=utf-8', 500]
  ])
  t.assert.deepStrictEqual(run.exchanges.map((e) => e.soapAction), ['"urn:example:calc/Add"', '"urn:example:calc/Echo"', '"urn:example:calc/Divide"'])
})

for (const [binding, path, what] of [['soap12', '/calculator', 'Soap12'], ['soap12wsa', '/addressed/calculator', 'Soap12WSAddressing10, addressing on']] as const) {
  test(`docs/faults.md "Clients and fault status codes": WCF (Mono) over a CustomBinding (${what}) calls Add and Echo in SOAP 1.2; a Sender fault answered 400 (Part 2 Table 20) never reaches it as a fault`, async (t: TestContext) => {
    const run = await wcf(t, binding, path)
    if (run === undefined) return
    t.assert.strictEqual(run.out.divide, 'WebException: There was an error on processing web request: Status code 400(BadRequest): Bad Request', 'Mono raises a WebException for the 400 and never reads the fault')
    // Mono puts no action parameter in the Content-Type: the Body's element names the operation
    const type = 'application/soap+xml; charset=utf-8'
    t.assert.deepStrictEqual(posts(t, run.exchanges), [[type, 200], [type, 200], [type, 400]])
    if (binding === 'soap12wsa') t.assert.match(run.exchanges[0].responseBody, /<wsa:RelatesTo [^>]*>urn:uuid:[0-9a-f-]+<\/wsa:RelatesTo>/, 'the reply relates to WCF\'s MessageID')
    t.assert.match(run.exchanges[2].responseBody, /<soap:Value>soap:Sender<\/soap:Value>.*<soap:Text xml:lang="en">division by zero<\/soap:Text>/, 'the fault was on the wire')
  })
}

for (const [binding, path, what] of [['soap12', '/wcf/calculator', 'Soap12'], ['soap12wsa', '/wcf/addressed/calculator', 'Soap12WSAddressing10, addressing on']] as const) {
  test(`docs/faults.md "Clients and fault status codes": with faultStatus: 500, WCF (Mono) over a CustomBinding (${what}) reads the SOAP 1.2 Sender fault as a FaultException with its code and reason`, async (t: TestContext) => {
    const run = await wcf(t, binding, path)
    if (run === undefined) return
    t.assert.deepStrictEqual(run.out.divide, { code: `{${SOAP12}}Sender`, reason: 'division by zero', type: 'FaultException' })
    t.assert.deepStrictEqual(posts(t, run.exchanges).map(([, status]) => status), [200, 200, 500])
  })
}

/** Mono's svcutil on a live WSDL, into `<name>.cs` of the build folder; the generated code. */
async function svcutil (url: string, name: string): Promise<{ code: string, generated: string, folder: string }> {
  setup ??= build()
  const { folder } = await setup
  const generated = join(folder, `${name}.cs`)
  await buildStep('svcutil', ['--noLogo', '--noConfig', `-o:${generated}`, url], folder)
  return { code: readFileSync(generated, 'utf8'), generated, folder }
}

/** Compiles the generated code with test/clients/dotnet/SvcutilClient.cs, and runs it against `url`. */
async function runSvcutilClient (generated: string, folder: string, name: string, url: string): Promise<Record<string, unknown>> {
  const dotnet = join(CLIENTS, 'dotnet')
  const exe = join(folder, `${name}.exe`)
  await buildStep('mcs', ['-nologo', `-out:${exe}`, '-r:System.ServiceModel.dll', '-r:System.Runtime.Serialization.dll', generated, join(dotnet, 'SvcutilClient.cs'), join(dotnet, 'Json.cs')])
  return await runClient('mono', [exe, url])
}

test('docs/wsdl.md "Client notes": Mono\'s svcutil imports the Calculator\'s live WSDL (every integer xs:long) into a typed contract that compiles, but writes no return element name, so its client reads no result (a NullReferenceException)', async (t: TestContext) => {
  if (!requireClient(t, 'Mono (mono-complete)', 'mcs', ['--version'])) return
  setup ??= build()
  const { url } = await setup
  const { code, generated, folder } = await svcutil(`${url}/calculator?wsdl`, 'Calculator')
  for (const method of ['long Add(long a, long b);', 'string Echo(string text);', 'long Divide(long a, long b);']) {
    t.assert.ok(code.includes(method), `svcutil wrote ${method}: ${code}`)
  }
  t.assert.ok(!code.includes('MessageParameter'), 'no [return: MessageParameter(Name = "result")]: the contract expects AddResult')
  t.assert.match(code, /OperationContractAttribute\(Action="\*", ReplyAction="urn:example:calc\/Add"\)/, 'the input action "*" and the output action the input\'s soapAction')
  const out = await runSvcutilClient(generated, folder, 'Calculator', `${url}/calculator`)
  t.assert.deepStrictEqual(out, { error: 'NullReferenceException: Object reference not set to an instance of an object' }, 'Add\'s <result> is not the AddResult the contract reads: null, unboxed to long')
})

test('docs/wsdl.md "Client notes": with each result named <Operation>Result, the client Mono\'s svcutil generates calls Add, Echo and Divide: typed results, the text round-trips, and Divide\'s Sender fault as a FaultException with its code and reason', async (t: TestContext) => {
  if (!requireClient(t, 'Mono (mono-complete)', 'mcs', ['--version'])) return
  setup ??= build()
  const { url, exchanges } = await setup
  const { code, generated, folder } = await svcutil(`${url}/svcutil/calculator?wsdl`, 'ResultCalculator')
  t.assert.ok(code.includes('long Add(long a, long b);'), code)
  const from = exchanges.length
  const out = await runSvcutilClient(generated, folder, 'ResultCalculator', `${url}/svcutil/calculator`)
  t.assert.deepStrictEqual(out, { add: 5, echo: ECHO, divide: { type: 'FaultException', code: `{${SOAP11}}Client`, reason: 'division by zero' } })
  const posts = exchanges.slice(from).filter((e) => e.method === 'POST')
  assertRepliesInRequestVersion(t, posts)
  // the action "*" svcutil wrote is sent as it is: the Body's element names the operation
  t.assert.deepStrictEqual(posts.map((e) => [e.soapAction, e.status]), [['"*"', 200], ['"*"', 200], ['"*"', 500]])
})

test('docs/wsdl.md "Client notes": Mono\'s svcutil cannot import Orders: its message importers do not count the operations they skip, so CancelOrder\'s and GetOrder\'s messages land on the operations before them, and the code it writes does not compile', async (t: TestContext) => {
  if (!requireClient(t, 'Mono (mono-complete)', 'mcs', ['--version'])) return
  setup ??= build()
  const { url } = await setup
  const { code, generated, folder } = await svcutil(`${url}/orders?wsdl`, 'Orders')
  t.assert.ok(code.includes('GetOrderResponse PlaceOrder(string orderId, GetOrder GetOrder);'), `PlaceOrder gets CancelOrder's and GetOrder's messages: ${code}`)
  t.assert.ok(code.includes('void GetOrder(CancelOrder CancelOrder);'), 'GetOrder gets CancelOrder\'s')
  await t.assert.rejects(buildStep('mcs', ['-nologo', '-target:library', `-out:${join(folder, 'Orders.dll')}`, '-r:System.ServiceModel.dll', '-r:System.Runtime.Serialization.dll', generated]),
    /error CS0246: The type or namespace name `GetOrderResponse' could not be found/, 'a type named after a wrapper element that nothing declares')
})

for (const v of ['1.1', '1.2'] as const) {
  test(`docs/binary.md "The /files demo": WCF (Mono) with MtomMessageEncodingBindingElement (SOAP ${v}) uploads 200 KB of random bytes and every byte value as an MTOM part in Mono's framing (no boundary in the Content-Type, the body's own MIME header, the root of type=""), which the server reads (docs/protocol.md "Be liberal"), and downloads them byte for byte from an MTOM reply`, async (t: TestContext) => {
    if (!requireClient(t, 'Mono (mono-complete)', 'mcs', ['--version'])) return
    setup ??= build()
    const { url, exchanges, folder } = await setup
    const from = exchanges.length
    const out = await runClient('mono', [join(folder, 'WcfFiles.exe'), v, `${url}/files`])
    t.assert.strictEqual(out.error, undefined, 'the client ran to its end')
    const sent = out.sent as { size: number, sha256: string }
    t.assert.strictEqual(sent.size, 200_256)
    t.assert.deepStrictEqual(out.upload, sent, 'UploadResponse: the size and sha256 of the bytes sent')
    t.assert.deepStrictEqual(out.download, { ...sent, same: true }, 'Download: the same bytes')
    const posts = exchanges.slice(from).filter((e) => e.method === 'POST')
    t.assert.deepStrictEqual(posts.map((e) => [e.requestType, e.soapAction, e.status]), [
      ['multipart/related; type=application/xop+xml', '"urn:example:files/Upload"', 200],
      ['multipart/related; type=application/xop+xml', '"urn:example:files/Download"', 200]
    ], 'Mono\'s Content-Type, with no boundary; SOAPAction in both versions')
    // docs/protocol.md "MTOM replies": answered in kind, in the request's version (Mono's MTOM encoder reads nothing else).
    const replies = posts.map((e) => mtomReply(e))
    const media = v === '1.1' ? 'text/xml' : 'application/soap+xml'
    t.assert.deepStrictEqual(replies.map((r) => [r?.startInfo, r?.parts.length]), [[media, 0], [media, 1]])
    t.assert.strictEqual(createHash('sha256').update(replies[1]?.parts[0] ?? '').digest('hex'), sent.sha256, 'the Download\'s part')
  })
}
