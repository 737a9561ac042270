/**
 * Contract first, serving a contract as it is (docs/contract-first.md
 * "Options"): operations left without a handler (`unimplemented: 'fault'`),
 * through `fastify.inject` in SOAP 1.1 and 1.2; the OCPP 1.6 Central System
 * is read from the shared fixtures.
 */
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import Fastify, { type FastifyInstance } from 'fastify'
import soap from '../lib/index'
import { envelope, MEDIA, sharedFixture } from './helper'

const OCPP = 'urn://Ocpp/Cs/2015/10/'

/** An app that keeps its log lines, parsed. */
async function logged (t: TestContext): Promise<{ app: FastifyInstance, lines: Array<Record<string, unknown>> }> {
  const lines: Array<Record<string, unknown>> = []
  const app = Fastify({ logger: { level: 'info', stream: { write: (line: string) => { lines.push(JSON.parse(line) as Record<string, unknown>) } } } })
  t.after(() => app.close())
  await app.register(soap)
  return { app, lines }
}

test('docs/contract-first.md "Options": unimplemented: "fault" serves the OCPP 1.6 Central System with one handler; the others answer a Receiver fault saying they are not implemented, in the request\'s version', async (t: TestContext) => {
  const ocpp = sharedFixture(t, 'wsdl', 'ocpp16')
  if (ocpp === undefined) return
  const { app, lines } = await logged(t)
  app.soap.contract({
    path: '/ocpp',
    wsdl: join(ocpp, 'OCPP_CentralSystemService_1.6.wsdl'),
    unimplemented: 'fault',
    operations: { Heartbeat: async () => ({ currentTime: '2026-11-25T03:00:00Z' }) }
  })
  await app.ready()
  const notice = lines.find((l) => Array.isArray(l.unimplemented))
  t.assert.ok(notice !== undefined, 'a log line names the operations left unimplemented')
  t.assert.strictEqual(notice.level, 30)
  t.assert.ok((notice.unimplemented as string[]).includes('Authorize') && (notice.unimplemented as string[]).includes('StopTransaction'))
  t.assert.ok(!(notice.unimplemented as string[]).includes('Heartbeat'))
  t.assert.match(notice.msg as string, /Authorize.*not implemented/)
  const identity = `<o:chargeBoxIdentity xmlns:o="${OCPP}">CP1</o:chargeBoxIdentity>`
  for (const version of ['1.1', '1.2'] as const) {
    const heartbeat = await app.inject({ method: 'POST', url: '/ocpp', headers: { 'content-type': MEDIA[version] }, payload: envelope(version, `<o:heartbeatRequest xmlns:o="${OCPP}"/>`, identity) })
    t.assert.strictEqual(heartbeat.statusCode, 200, heartbeat.body)
    t.assert.match(heartbeat.body, /<tns:currentTime>2026-11-25T03:00:00Z<\/tns:currentTime>/)
    const authorize = await app.inject({ method: 'POST', url: '/ocpp', headers: { 'content-type': MEDIA[version] }, payload: envelope(version, `<o:authorizeRequest xmlns:o="${OCPP}"><o:idTag>T1</o:idTag></o:authorizeRequest>`, identity) })
    t.assert.strictEqual(authorize.statusCode, 500, authorize.body)
    if (version === '1.1') {
      t.assert.match(authorize.body, /<faultcode>soap:Server<\/faultcode><faultstring>The operation Authorize is not implemented<\/faultstring>/)
    } else {
      t.assert.match(authorize.body, /<soap:Value>soap:Receiver<\/soap:Value>/)
      t.assert.match(authorize.body, /<soap:Text xml:lang="en">The operation Authorize is not implemented<\/soap:Text>/)
    }
  }
  // The served WSDL is the one given: every operation is in it.
  t.assert.match((await app.inject('/ocpp?wsdl')).body, /<wsdl:operation name="StopTransaction">/)
})

test('docs/contract-first.md "Options": without unimplemented (or with "error") an operation left out is a startup error; another value is SOAP_ERR_CONTRACT_INVALID', async (t: TestContext) => {
  const ocpp = sharedFixture(t, 'wsdl', 'ocpp16')
  if (ocpp === undefined) return
  for (const unimplemented of [undefined, 'error', 'stub', true]) {
    const app = Fastify()
    t.after(() => app.close())
    await app.register(soap)
    app.soap.contract({ path: '/ocpp', wsdl: join(ocpp, 'OCPP_CentralSystemService_1.6.wsdl'), unimplemented: unimplemented as 'error', operations: { Heartbeat: async () => ({ currentTime: '2026-11-25T03:00:00Z' }) } })
    const err = await app.ready().then(() => undefined, (e: unknown) => e as { code: string, message: string })
    t.assert.strictEqual(err?.code, 'SOAP_ERR_CONTRACT_INVALID', String(unimplemented))
    t.assert.match(err.message, unimplemented === undefined || unimplemented === 'error'
      ? /no handler for Authorize, BootNotification, .*StopTransaction: every operation of the binding needs one, unless "unimplemented" is "fault"/
      : /"unimplemented" must be "error" \(the default\) or "fault"/)
  }
})
