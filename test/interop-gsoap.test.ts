/**
 * Interop, WS-Addressing (docs/addressing.md "Tested with"): a gSOAP charge
 * point built from the OCPP 1.6 Central System WSDL (Debian gsoap and
 * libgsoap-dev: wsdl2h, soapcpp2, the wsa plugin) calls the contract served
 * with its WSDL. The plugin writes the request's WS-Addressing 1.0 headers and
 * checks the reply's (soap_wsa_check); test/clients/gsoap_ocpp.cpp reports
 * what it got.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import Fastify from 'fastify'
import soap, { readContract, type SoapHandlerCall } from '../lib/index'
import { sharedFixture } from './helper'
import { CLIENTS, requireClient, runClient } from './interop'

const SHARE = '/usr/share/gsoap'

/** Runs one build step (at most 120 s); throws with its output when it fails. */
function step (cwd: string, command: string, args: readonly string[]): void {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 120_000 })
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`)
}

/** The charge point, built in a temporary folder from the WSDL; removed when the test ends. */
function build (t: TestContext, wsdl: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'fastify-soap-gsoap-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  step(dir, 'wsdl2h', ['-o', 'ocpp.h', '-t', join(SHARE, 'WS', 'typemap.dat'), wsdl])
  // wsdl2h says the WSDL's policy needs WS-Addressing, and leaves the import to the build.
  writeFileSync(join(dir, 'ocpp-wsa.h'), '#import "wsa5.h"\n' + readFileSync(join(dir, 'ocpp.h'), 'utf8'))
  step(dir, 'soapcpp2', ['-2', '-C', '-j', '-x', `-I${join(SHARE, 'import')}`, 'ocpp-wsa.h'])
  step(dir, 'g++', ['-I.', `-I${join(SHARE, 'plugin')}`, `-I${SHARE}`, join(CLIENTS, 'gsoap_ocpp.cpp'), 'soapC.cpp', 'soapCentralSystemServiceSoapProxy.cpp', join(SHARE, 'plugin', 'wsaapi.c'), '-lgsoap++', '-o', 'charge-point'])
  return join(dir, 'charge-point')
}

test('docs/addressing.md "Tested with": a gSOAP 2.8 charge point with the wsa plugin calls the OCPP 1.6 Central System contract and accepts the addressed reply', async (t: TestContext) => {
  const folder = sharedFixture(t, 'wsdl', 'ocpp16')
  if (folder === undefined) return
  if (!requireClient(t, 'gSOAP (gsoap, libgsoap-dev)', 'soapcpp2', ['-V'])) return
  if (!requireClient(t, 'g++', 'g++', ['--version'])) return
  const wsdl = join(folder, 'OCPP_CentralSystemService_1.6.wsdl')
  const client = build(t, wsdl)
  const contract = await readContract({ wsdl })
  const calls: Array<{ operation: string, headers: unknown, action: string | undefined, messageId: string | undefined }> = []
  const operations: Record<string, (input: unknown, call: SoapHandlerCall) => unknown> = {}
  for (const operation of Object.keys(contract.operations)) {
    operations[operation] = (_input, call) => {
      calls.push({ operation, headers: call.headers, action: call.soap.addressing?.action, messageId: call.soap.addressing?.messageId })
      if (operation !== 'Heartbeat') throw new Error(`not called: ${operation}`)
      return { currentTime: '2030-01-15T09:30:00Z' }
    }
  }
  const app = Fastify({ logger: false })
  t.after(() => app.close())
  await app.register(soap)
  app.soap.contract({ path: '/ocpp', wsdl, operations })
  const url = await app.listen({ host: '127.0.0.1', port: 0 })
  const out = await runClient(client, [`${url}/ocpp`])
  t.assert.strictEqual(out.heartbeat, 0, `gSOAP's status: ${String(out.error)}`)
  t.assert.strictEqual(out.currentTime, Date.UTC(2030, 0, 15, 9, 30) / 1000)
  t.assert.strictEqual(out.wsaCheck, 0, 'soap_wsa_check accepts the reply\'s addressing headers')
  t.assert.strictEqual(out.action, '/HeartbeatResponse')
  t.assert.strictEqual(calls.length, 1)
  t.assert.deepStrictEqual([calls[0].operation, calls[0].headers, calls[0].action], ['Heartbeat', { chargeBoxIdentity: 'CB-GSOAP' }, '/Heartbeat'])
  t.assert.match(String(calls[0].messageId), /^urn:uuid:/)
  t.assert.strictEqual(out.relatesTo, calls[0].messageId, 'the reply relates to the request gSOAP sent')
})
