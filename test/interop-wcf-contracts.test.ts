/**
 * Contract first, interop with WCF on Mono (docs/contract-first.md "Tested
 * clients"): test/clients/dotnet/ContractClient.cs, hand-written
 * [XmlSerializerFormat] message contracts matching two WSDLs of the corpus,
 * calls them through a ChannelFactory where `app.soap.contract()` serves
 * them (test/interop-contracts.ts): OCPP 1.6's central system over a
 * CustomBinding (TextMessageEncoding Soap12WSAddressing10), and Microsoft
 * Advertising's Reporting API over BasicHttpBinding. It prints what it got;
 * this file asserts it, what the handlers saw, and what the server sent.
 * Compiled once for the file, into a temporary folder.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test, type TestContext } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { SOAP11_ENV, SOAP12_ENV } from './helper'
import { CLIENTS, assertRepliesInRequestVersion, buildStep, requireClient, runClient, type Exchange } from './interop'
import {
  AD_API_REASON, BING_HEADERS, BOOTED, CENTRAL, CHARGE_BOX, HEARTBEAT, ID_TAG_INFO, REPORT_URL, UNKNOWN_BOX, UNKNOWN_BOX_REASON,
  contractFolders, serveContracts, type Call, type Served
} from './interop-contracts'

let setup: Promise<Served & { exe: string }> | undefined
let app: FastifyInstance | undefined
let folder: string | undefined
after(async () => {
  await app?.close()
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true })
})

/** The contracts served, and the client compiled: once for the file. */
async function build (folders: { ocpp: string, bing: string }): Promise<Served & { exe: string }> {
  const started = await serveContracts(folders)
  app = started.app
  folder = mkdtempSync(join(tmpdir(), 'fastify-soap-wcf-contracts-'))
  const exe = join(folder, 'ContractClient.exe')
  const dotnet = join(CLIENTS, 'dotnet')
  await buildStep('mcs', ['-nologo', `-out:${exe}`, '-r:System.ServiceModel.dll', '-r:System.Xml.dll', '-r:System.Runtime.Serialization.dll', join(dotnet, 'ContractClient.cs'), join(dotnet, 'Json.cs')])
  return { ...started.served, exe }
}

/** Runs one scenario against `path`; undefined when the corpus or Mono is missing. */
async function wcf (t: TestContext, scenario: 'ocpp' | 'bing', path: string): Promise<{ out: Record<string, unknown>, exchanges: Exchange[], calls: Call[] } | undefined> {
  const folders = contractFolders(t)
  if (folders === undefined) return undefined
  if (!requireClient(t, 'Mono (mono-complete)', 'mcs', ['--version'])) return undefined
  setup ??= build(folders)
  const { url, exchanges, calls, exe } = await setup
  const [fromExchange, fromCall] = [exchanges.length, calls.length]
  const out = await runClient('mono', [exe, scenario, `${url}${path}`])
  t.assert.strictEqual(out.error, undefined, 'the client ran to its end')
  return { out, exchanges: exchanges.slice(fromExchange).filter((e) => e.method === 'POST'), calls: calls.slice(fromCall) }
}

test('docs/contract-first.md "Tested clients": WCF (Mono) over a CustomBinding (Soap12WSAddressing10) calls BootNotification, Heartbeat and Authorize of OCPP 1.6\'s central system with the chargeBoxIdentity header; with faultStatus: 500 it reads the Sender fault of an unknown charge box with its subcode, reason and detail', async (t: TestContext) => {
  const run = await wcf(t, 'ocpp', '/wcf/ocpp')
  if (run === undefined) return
  const { out, exchanges, calls } = run
  t.assert.deepStrictEqual(out.bootNotification, BOOTED, 'an enumeration, a DateTime and an int')
  t.assert.strictEqual(out.heartbeat, HEARTBEAT.currentTime)
  t.assert.deepStrictEqual(out.authorize, ID_TAG_INFO, 'a nested idTagInfo')
  t.assert.deepStrictEqual(out.unknown, {
    type: 'FaultException`1',
    code: `{${SOAP12_ENV}}Sender`,
    subcode: `{${CENTRAL}}UnknownChargeBox`,
    reason: UNKNOWN_BOX_REASON,
    detail: UNKNOWN_BOX
  }, 'the Sender fault as a FaultException<UnknownChargeBox>, its detail read by the client\'s FaultContract')
  const box = { chargeBoxIdentity: CHARGE_BOX }
  t.assert.deepStrictEqual(calls, [
    { operation: 'BootNotification', input: { chargePointVendor: 'VendorX', chargePointModel: 'Model-1' }, headers: box },
    { operation: 'Heartbeat', input: {}, headers: box },
    { operation: 'Authorize', input: { idTag: 'TAG-0042' }, headers: box },
    { operation: 'Authorize', input: { idTag: 'TAG-0042' }, headers: { chargeBoxIdentity: UNKNOWN_BOX } }
  ], 'what each handler got: the body and the header block')
  assertRepliesInRequestVersion(t, exchanges)
  // Mono sends the action as wsa:Action only, none in the Content-Type
  t.assert.deepStrictEqual(exchanges.map((e) => [e.requestType, e.status]), [
    ['application/soap+xml; charset=utf-8', 200], ['application/soap+xml; charset=utf-8', 200],
    ['application/soap+xml; charset=utf-8', 200], ['application/soap+xml; charset=utf-8', 500]
  ])
  for (const [i, action] of ['/BootNotificationResponse', '/HeartbeatResponse', '/AuthorizeResponse'].entries()) {
    t.assert.match(exchanges[i].responseBody, new RegExp(`<wsa:Action[^>]*>${action}</wsa:Action>`), `the reply's wsa:Action: ${exchanges[i].responseBody}`)
    t.assert.match(exchanges[i].responseBody, /<wsa:RelatesTo[^>]*>urn:uuid:[0-9a-f-]+<\/wsa:RelatesTo>/, 'the reply relates to WCF\'s MessageID')
  }
})

test('docs/contract-first.md "Tested clients": WCF (Mono) over BasicHttpBinding calls Microsoft Advertising\'s Reporting API (a WSDL made by WCF): SubmitGenerateReport with a derived report request, PollGenerateReport, with the message contract\'s header blocks and TrackingId back; an unknown report gets the declared AdApiFaultDetail fault, its detail read as its type', async (t: TestContext) => {
  const run = await wcf(t, 'bing', '/bing')
  if (run === undefined) return
  const { out, exchanges, calls } = run
  t.assert.deepStrictEqual(out.submit, { reportRequestId: 'rq-9', trackingId: 'trk-1' }, 'the result, and the TrackingId header block')
  t.assert.deepStrictEqual(out.poll, { status: 'Success', reportDownloadUrl: REPORT_URL, trackingId: 'trk-2' })
  t.assert.deepStrictEqual(out.unknown, {
    type: 'FaultException`1',
    code: `{${SOAP11_ENV}}Client`,
    reason: AD_API_REASON,
    trackingId: 'trk-7',
    errors: [{ code: 105, errorCode: 'InvalidCredentials', message: 'Authentication failed.' }]
  }, 'the declared fault: its code, reason, and the AdApiFaultDetail of its detail')
  const report = {
    $type: 'AccountPerformanceReportRequest',
    Format: 'Csv',
    ReportName: 'daily',
    Aggregation: 'Daily',
    Columns: { AccountPerformanceReportColumn: ['AccountName', 'TimePeriod'] },
    Scope: { AccountIds: { long: [123] } },
    Time: { PredefinedTime: 'Yesterday' }
  }
  t.assert.deepStrictEqual(calls, [
    { operation: 'SubmitGenerateReport', input: { ReportRequest: report }, headers: BING_HEADERS },
    { operation: 'PollGenerateReport', input: { ReportRequestId: 'rq-9' }, headers: BING_HEADERS },
    { operation: 'PollGenerateReport', input: { ReportRequestId: 'rq-0' }, headers: BING_HEADERS }
  ], 'what each handler got: the derived type as $type, the header blocks')
  assertRepliesInRequestVersion(t, exchanges)
  t.assert.deepStrictEqual(exchanges.map((e) => [e.soapAction, e.status]), [['"SubmitGenerateReport"', 200], ['"PollGenerateReport"', 200], ['"PollGenerateReport"', 500]])
})
