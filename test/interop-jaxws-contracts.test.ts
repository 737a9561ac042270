/**
 * Contract first, interop with JAX-WS (docs/contract-first.md "Tested
 * clients"): Metro's `wsimport` reads the live `?wsdl` of two contracts of
 * the corpus served by `app.soap.contract()` (test/interop-contracts.ts), and
 * test/clients/java/ContractClient.java, compiled with the generated
 * classes, calls them. It prints what it got; this file asserts it, what the
 * handlers saw, and what the server sent. The classes are generated and
 * compiled once for the file, in a temporary folder.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test, type TestContext } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { SOAP12_ENV } from './helper'
import { CLIENTS, assertRepliesInRequestVersion, buildStep, requireClient, runClient, type Exchange } from './interop'
import {
  AD_API_REASON, BING_HEADERS, BOOTED, CENTRAL, CHARGE_BOX, HEARTBEAT, ID_TAG_INFO, REPORT_URL, UNKNOWN_BOX, UNKNOWN_BOX_REASON,
  contractFolders, serveContracts, type Call, type Served
} from './interop-contracts'

const RUNTIME = ['jaxws-rt', 'commons-logging', 'slf4j-api'].map((jar) => `/usr/share/java/${jar}.jar`).join(':')

let setup: Promise<Served & { classes: string }> | undefined
let app: FastifyInstance | undefined
let folder: string | undefined
after(async () => {
  await app?.close()
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true })
})

/** The contracts served, and the client generated from their live WSDLs and compiled: once for the file. */
async function build (folders: { ocpp: string, bing: string }): Promise<Served & { classes: string }> {
  const started = await serveContracts(folders)
  app = started.app
  folder = mkdtempSync(join(tmpdir(), 'fastify-soap-jaxws-contracts-'))
  const sources = join(folder, 'src')
  const classes = join(folder, 'classes')
  mkdirSync(sources)
  mkdirSync(classes)
  for (const pkg of ['ocpp', 'bing']) {
    await buildStep('wsimport', ['-quiet', '-extension', '-XadditionalHeaders', '-Xnocompile', '-s', sources, '-d', classes, '-p', pkg, `${started.served.url}/${pkg}?wsdl`])
  }
  const generated = ['ocpp', 'bing'].map((pkg) => join(sources, pkg, '*.java')).join(' ')
  await buildStep('sh', ['-c', `javac -nowarn -encoding UTF-8 -cp ${RUNTIME} -d ${classes} ${generated} ${join(CLIENTS, 'java', 'ContractClient.java')} ${join(CLIENTS, 'java', 'Report.java')}`])
  return { ...started.served, classes }
}

/** Runs one scenario; undefined when the corpus or JAX-WS is missing. */
async function jaxws (t: TestContext, scenario: 'ocpp' | 'bing'): Promise<{ out: Record<string, unknown>, exchanges: Exchange[], calls: Call[] } | undefined> {
  const folders = contractFolders(t)
  if (folders === undefined) return undefined
  if (!requireClient(t, 'JAX-WS RI (jaxws, libjaxws-java)', 'wsimport', ['-version'])) return undefined
  if (!requireClient(t, 'a JDK (javac)', 'javac', ['-version'])) return undefined
  setup ??= build(folders)
  const { url, exchanges, calls, classes } = await setup
  const [fromExchange, fromCall] = [exchanges.length, calls.length]
  const out = await runClient('java', ['-cp', `${classes}:${RUNTIME}`, 'ContractClient', scenario, `${url}/${scenario}`])
  t.assert.strictEqual(out.error, undefined, 'the client ran to its end')
  return { out, exchanges: exchanges.slice(fromExchange).filter((e) => e.method === 'POST'), calls: calls.slice(fromCall) }
}

test('docs/contract-first.md "Tested clients": JAX-WS (Metro) with AddressingFeature calls BootNotification, Heartbeat and Authorize of OCPP 1.6\'s central system (SOAP 1.2, the chargeBoxIdentity header); Authorize from an unknown charge box gets the Sender fault with its subcode, reason and detail', async (t: TestContext) => {
  const run = await jaxws(t, 'ocpp')
  if (run === undefined) return
  const { out, exchanges, calls } = run
  t.assert.deepStrictEqual(out.bootNotification, { ...BOOTED, currentTime: '2030-01-15T09:30:00Z' }, 'an enumeration, a dateTime and an int, typed')
  t.assert.strictEqual(out.heartbeat, HEARTBEAT.currentTime)
  t.assert.deepStrictEqual(out.authorize, ID_TAG_INFO, 'a nested idTagInfo')
  t.assert.deepStrictEqual(out.unknown, {
    code: `{${SOAP12_ENV}}Sender`,
    subcodes: [`{${CENTRAL}}UnknownChargeBox`],
    reason: UNKNOWN_BOX_REASON,
    detail: [`{${CENTRAL}}unknownChargeBox=${UNKNOWN_BOX}`]
  }, 'the Sender fault as a SOAPFaultException')
  const box = { chargeBoxIdentity: CHARGE_BOX }
  t.assert.deepStrictEqual(calls, [
    { operation: 'BootNotification', input: { chargePointVendor: 'VendorX', chargePointModel: 'Model-1' }, headers: box },
    { operation: 'Heartbeat', input: {}, headers: box },
    { operation: 'Authorize', input: { idTag: 'TAG-0042' }, headers: box },
    { operation: 'Authorize', input: { idTag: 'TAG-0042' }, headers: { chargeBoxIdentity: UNKNOWN_BOX } }
  ], 'what each handler got: the body and the header block')
  assertRepliesInRequestVersion(t, exchanges)
  t.assert.deepStrictEqual(exchanges.map((e) => [e.requestType, e.status]), [
    ['application/soap+xml; charset=utf-8;action="/BootNotification"', 200],
    ['application/soap+xml; charset=utf-8;action="/Heartbeat"', 200],
    ['application/soap+xml; charset=utf-8;action="/Authorize"', 200],
    ['application/soap+xml; charset=utf-8;action="/Authorize"', 400]
  ], 'SOAP 1.2 with the binding\'s action (Metro writes no space before it); the Sender fault 400')
  for (const [i, action] of ['/BootNotificationResponse', '/HeartbeatResponse', '/AuthorizeResponse'].entries()) {
    t.assert.match(exchanges[i].responseBody, new RegExp(`<wsa:Action[^>]*>${action}</wsa:Action>`), `the reply's wsa:Action, the WSDL's wsaw:Action: ${exchanges[i].responseBody}`)
    t.assert.match(exchanges[i].responseBody, /<wsa:RelatesTo[^>]*>uuid:[0-9a-f-]+<\/wsa:RelatesTo>/, 'the reply relates to Metro\'s MessageID')
  }
})

test('docs/contract-first.md "Tested clients": JAX-WS (Metro) calls Microsoft Advertising\'s Reporting API (a WSDL made by WCF, SOAP 1.1): SubmitGenerateReport with a derived report request, PollGenerateReport, each with the message contract\'s header blocks and TrackingId back; an unknown report gets the declared AdApiFaultDetail fault, read as its typed exception', async (t: TestContext) => {
  const run = await jaxws(t, 'bing')
  if (run === undefined) return
  const { out, exchanges, calls } = run
  t.assert.deepStrictEqual(out.submit, { reportRequestId: 'rq-9', trackingId: 'trk-1' }, 'the result, and the TrackingId header block as the out parameter')
  t.assert.deepStrictEqual(out.poll, { status: 'Success', reportDownloadUrl: REPORT_URL })
  t.assert.deepStrictEqual(out.unknown, {
    reason: AD_API_REASON,
    trackingId: 'trk-7',
    errors: [{ code: 105, errorCode: 'InvalidCredentials', message: 'Authentication failed.' }]
  }, 'IReportingServicePollGenerateReportAdApiFaultDetailFaultFaultMessage, its faultInfo read from the detail')
  const report = {
    $type: 'AccountPerformanceReportRequest',
    Format: 'Csv',
    ReportName: 'daily',
    Aggregation: 'Daily',
    Columns: { AccountPerformanceReportColumn: ['AccountName', 'TimePeriod'] },
    Scope: { AccountIds: { long: [123] } },
    Time: { PredefinedTime: 'Yesterday' }
  }
  // Metro sends the header parameters left null as nil elements: the handler gets them null
  const headers = { ApplicationToken: null, ...BING_HEADERS, CustomerAccountId: null, Password: null, UserName: null }
  t.assert.deepStrictEqual(calls, [
    { operation: 'SubmitGenerateReport', input: { ReportRequest: report }, headers },
    { operation: 'PollGenerateReport', input: { ReportRequestId: 'rq-9' }, headers },
    { operation: 'PollGenerateReport', input: { ReportRequestId: 'rq-0' }, headers }
  ], 'what each handler got: the derived type as $type, the header blocks the client set')
  assertRepliesInRequestVersion(t, exchanges)
  t.assert.deepStrictEqual(exchanges.map((e) => [e.soapAction, e.status]), [['"SubmitGenerateReport"', 200], ['"PollGenerateReport"', 200], ['"PollGenerateReport"', 500]])
  t.assert.ok(exchanges[2].responseBody.includes(`<faultcode>soap:Client</faultcode><faultstring>${AD_API_REASON}</faultstring><detail><tns:AdApiFaultDetail xmlns:tns="https://adapi.microsoft.com"`), exchanges[2].responseBody)
  t.assert.match(exchanges[0].responseBody, /<soap:Header><tns:TrackingId xmlns:tns="https:\/\/bingads.microsoft.com\/Reporting\/v13">trk-1<\/tns:TrackingId><\/soap:Header>/)
})
