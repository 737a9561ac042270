/**
 * Interop, WS-Addressing (docs/addressing.md "Tested with"): zeep with its
 * WsAddressingPlugin calls a code-first service in SOAP 1.1 and 1.2 and the
 * OCPP 1.6 Central System contract, and a charge point's raw request (gSOAP's
 * `wsa5` headers, mustUnderstand) is answered as such peers expect. zeep
 * applies the plugin by itself to an operation whose WSDL input states its
 * action (wsam:Action or wsaw:Action), as both WSDLs here do.
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import Fastify from 'fastify'
import soap, { WSA_NS, readContract, type SoapHandlerCall } from '../../../lib/index'
import { sharedFixture } from '../../helper'
import { CLIENTS, requireClient, runClient } from '../../interop'

const PYTHON = '/usr/bin/python3'
const ZEEP = join(CLIENTS, 'contract_zeep.py')
const probe = spawnSync(PYTHON, ['-c', 'import zeep; print(zeep.__version__)'], { encoding: 'utf8', timeout: 30_000 })
const ZEEP_VERSION = probe.status === 0 ? probe.stdout.trim() : '(not installed)'

/** The text of each element `localName` in WS-Addressing 1.0's namespace, whatever its prefix. */
function wsaValues (xml: string, localName: string): string[] {
  const prefixes = [...xml.matchAll(/xmlns:([\w.-]+)="http:\/\/www\.w3\.org\/2005\/08\/addressing"/g)].map((m) => m[1])
  const out: string[] = []
  for (const prefix of new Set(prefixes)) {
    for (const m of xml.matchAll(new RegExp(`<${prefix}:${localName}(?:\\s[^>]*)?>([^<]*)</${prefix}:${localName}>`, 'g'))) out.push(m[1])
  }
  return out
}

async function zeep (t: TestContext, spec: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
  if (!requireClient(t, 'zeep (python3-zeep)', PYTHON, ['-c', 'import zeep.wsa'])) return undefined
  const out = await runClient(PYTHON, [ZEEP, JSON.stringify(spec)])
  t.assert.strictEqual(out.zeep, ZEEP_VERSION)
  t.assert.deepStrictEqual(out.warnings, [], 'zeep warns about nothing')
  return out
}

/** zeep's request carried its plugin's headers, and the reply answered them: the output action, RelatesTo the request's MessageID, a MessageID of its own. */
function assertAddressed (t: TestContext, out: Record<string, unknown>, action: string, outputAction: string): void {
  const sent = out.sent as string
  const received = out.received as string
  t.assert.deepStrictEqual(wsaValues(sent, 'Action'), [action], 'zeep sent the input action')
  const [messageId] = wsaValues(sent, 'MessageID')
  t.assert.match(messageId, /^urn:uuid:/)
  t.assert.deepStrictEqual(wsaValues(received, 'Action'), [outputAction])
  t.assert.deepStrictEqual(wsaValues(received, 'RelatesTo'), [messageId])
  t.assert.strictEqual(wsaValues(received, 'MessageID').length, 1)
}

for (const version of ['1.1', '1.2'] as const) {
  test(`docs/addressing.md "Tested with": zeep ${ZEEP_VERSION} with WsAddressingPlugin calls a code-first service over SOAP ${version}, and takes its addressed reply`, async (t: TestContext) => {
    const app = Fastify({ logger: false })
    t.after(() => app.close())
    await app.register(soap)
    const seen: unknown[] = []
    app.soap.service({
      path: '/calc',
      name: 'Calc',
      namespace: 'urn:example:calc',
      addressing: { required: true },
      operations: {
        Add: {
          input: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'] },
          output: { type: 'object', properties: { sum: { type: 'integer' } }, required: ['sum'] },
          handler: ({ a, b }, call) => {
            seen.push(call.soap.addressing?.messageId)
            return { sum: a + b }
          }
        }
      }
    })
    const url = await app.listen({ host: '127.0.0.1', port: 0 })
    const out = await zeep(t, { wsdl: `${url}/calc?wsdl`, service: 'Calc', port: version === '1.1' ? 'CalcSoap11' : 'CalcSoap12', operation: 'Add', args: { a: 2, b: 3 } })
    if (out === undefined) return
    t.assert.strictEqual(out.error, undefined)
    t.assert.strictEqual(out.result, 5)
    assertAddressed(t, out, 'urn:example:calc/Add', 'urn:example:calc/AddResponse')
    t.assert.deepStrictEqual(seen, wsaValues(out.sent as string, 'MessageID'), 'the handler saw the MessageID')
  })
}

const OCPP_CS = 'urn://Ocpp/Cs/2015/10/'

async function ocpp (t: TestContext) {
  const folder = sharedFixture(t, 'wsdl', 'ocpp16')
  if (folder === undefined) return undefined
  const wsdl = join(folder, 'OCPP_CentralSystemService_1.6.wsdl')
  const contract = await readContract({ wsdl })
  const calls: Array<{ operation: string, input: unknown, headers: unknown, addressing: unknown }> = []
  const operations: Record<string, (input: unknown, call: SoapHandlerCall) => unknown> = {}
  for (const operation of Object.keys(contract.operations)) {
    operations[operation] = (input, call) => {
      calls.push({ operation, input, headers: call.headers, addressing: call.soap.addressing })
      if (operation === 'Authorize') return { idTagInfo: { status: 'Accepted' } }
      if (operation === 'Heartbeat') return { currentTime: '2030-01-15T09:30:00Z' }
      throw new Error(`not called: ${operation}`)
    }
  }
  const app = Fastify({ logger: false })
  t.after(() => app.close())
  await app.register(soap)
  app.soap.contract({ path: '/ocpp', wsdl, operations })
  return { app, calls }
}

test(`docs/addressing.md "Client notes": zeep ${ZEEP_VERSION} given WsAddressingPlugin as well as the WSDL's actions sends each header twice, and gets InvalidCardinality`, async (t: TestContext) => {
  const served = await ocpp(t)
  if (served === undefined) return
  const url = await served.app.listen({ host: '127.0.0.1', port: 0 })
  const out = await zeep(t, { wsdl: `${url}/ocpp?wsdl`, service: 'CentralSystemService', port: 'CentralSystemServiceSoap12', operation: 'Heartbeat', args: {}, addressing: true })
  if (out === undefined) return
  t.assert.strictEqual(wsaValues(out.sent as string, 'Action').length, 2, 'zeep sent wsa:Action twice')
  t.assert.match(String(out.error), /wsa:Action appears more than once/)
  t.assert.match(out.received as string, /<soap:Value xmlns:sc0="http:\/\/www\.w3\.org\/2005\/08\/addressing">sc0:InvalidAddressingHeader<\/soap:Value><soap:Subcode><soap:Value xmlns:sc1="http:\/\/www\.w3\.org\/2005\/08\/addressing">sc1:InvalidCardinality</)
  t.assert.deepStrictEqual(served.calls, [], 'no handler ran')
})

test(`docs/addressing.md "Turning it on": zeep ${ZEEP_VERSION} with WsAddressingPlugin calls the OCPP 1.6 Central System contract, whose WSDL turns addressing on`, async (t: TestContext) => {
  const served = await ocpp(t)
  if (served === undefined) return
  const url = await served.app.listen({ host: '127.0.0.1', port: 0 })
  const out = await zeep(t, {
    wsdl: `${url}/ocpp?wsdl`,
    service: 'CentralSystemService',
    port: 'CentralSystemServiceSoap12',
    operation: 'Authorize',
    args: { idTag: 'TAG-0042' },
    headers: { ChargeBoxIdentity: 'CB-0001' }
  })
  if (out === undefined) return
  t.assert.strictEqual(out.error, undefined)
  t.assert.deepStrictEqual(out.result, { status: 'Accepted', expiryDate: null, parentIdTag: null }, 'zeep unwraps the one-child response')
  assertAddressed(t, out, '/Authorize', '/AuthorizeResponse')
  t.assert.deepStrictEqual(served.calls.map((c) => [c.operation, c.headers]), [['Authorize', { chargeBoxIdentity: 'CB-0001' }]])
})

test('docs/addressing.md "Tested with": an OCPP charge point\'s request with gSOAP\'s wsa5 headers, mustUnderstand, gets the reply it correlates', async (t: TestContext) => {
  const served = await ocpp(t)
  if (served === undefined) return
  const request = '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://www.w3.org/2003/05/soap-envelope" xmlns:SOAP-ENC="http://www.w3.org/2003/05/soap-encoding" ' +
    `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:wsa5="${WSA_NS}" xmlns:ns="${OCPP_CS}">` +
    '<SOAP-ENV:Header><ns:chargeBoxIdentity>CB-0007</ns:chargeBoxIdentity>' +
    '<wsa5:MessageID>uuid:9f1e6f0a-4c1b-4b7e-9d43-2b1c5a7e0001</wsa5:MessageID>' +
    `<wsa5:From><wsa5:Address>http://10.0.0.7:8080/</wsa5:Address></wsa5:From><wsa5:ReplyTo SOAP-ENV:mustUnderstand="true"><wsa5:Address>${WSA_NS}/anonymous</wsa5:Address></wsa5:ReplyTo>` +
    '<wsa5:To SOAP-ENV:mustUnderstand="true">http://cs.example/ocpp</wsa5:To><wsa5:Action SOAP-ENV:mustUnderstand="true">/Heartbeat</wsa5:Action></SOAP-ENV:Header>' +
    '<SOAP-ENV:Body><ns:heartbeatRequest></ns:heartbeatRequest></SOAP-ENV:Body></SOAP-ENV:Envelope>'
  const response = await served.app.inject({ method: 'POST', url: '/ocpp', headers: { 'content-type': 'application/soap+xml; charset=utf-8; action="/Heartbeat"' }, payload: request })
  t.assert.strictEqual(response.statusCode, 200, response.body)
  t.assert.deepStrictEqual(wsaValues(response.body, 'Action'), ['/HeartbeatResponse'])
  t.assert.deepStrictEqual(wsaValues(response.body, 'RelatesTo'), ['uuid:9f1e6f0a-4c1b-4b7e-9d43-2b1c5a7e0001'])
  t.assert.match(response.body, /<currentTime>2030-01-15T09:30:00Z<\/currentTime>|currentTime[^>]*>2030-01-15T09:30:00Z</)
  const call = served.calls[0] as { headers: unknown, addressing: { from: { address: string }, to: string } }
  t.assert.deepStrictEqual(call.headers, { chargeBoxIdentity: 'CB-0007' })
  t.assert.strictEqual(call.addressing.from.address, 'http://10.0.0.7:8080/')
  t.assert.strictEqual(call.addressing.to, 'http://cs.example/ocpp')

  const wrongAction = await served.app.inject({ method: 'POST', url: '/ocpp', headers: { 'content-type': 'application/soap+xml; charset=utf-8' }, payload: request.replace('>/Heartbeat<', '>/Reset<') })
  t.assert.strictEqual(wrongAction.statusCode, 400)
  t.assert.ok(wrongAction.body.includes('sc0:ActionNotSupported'), wrongAction.body)
})
