/**
 * Interop (docs/security.md "WS-Security"): node-soap's WSSecurity against the
 * demo's /secure/calculator, from its WSDL.
 *
 *     node dist/test/clients/node-soap-wsse.js BASE_URL 1.1|1.2
 *
 * Calls Add(2, 3) with a text password, with a digest (Nonce, Created) and a
 * wsu:Timestamp, then with a wrong password, and prints one JSON line with
 * what node-soap got back (it asserts nothing: the Node test does).
 */
import { readFileSync } from 'node:fs'
import * as soap from 'soap'
import { LoopbackOnly, plain, type Json } from './node-soap-common'

async function main (base: string, version: string): Promise<void> {
  const warnings: string[] = []
  console.warn = (...args: unknown[]) => { warnings.push(args.map(String).join(' ')) }
  console.error = console.warn
  process.on('warning', (warning) => { warnings.push(warning.message) })
  const soap12 = version === '1.2'
  const client = await soap.createClientAsync(`${base}/secure/calculator?wsdl`, { httpClient: new LoopbackOnly(new URL(base).origin), forceSoap12Headers: soap12 })
  let last: { status: number | null, body: string | null } = { status: null, body: null }
  client.on('response', (body: string, response: { status?: number } | null) => { last = { status: response?.status ?? null, body } })
  const add = client.Calculator[soap12 ? 'CalculatorSoap12' : 'CalculatorSoap11'].Add as (args: unknown, cb: (err: unknown, result: unknown) => void) => void
  const call = async (security: soap.WSSecurity): Promise<Json> => {
    client.setSecurity(security)
    return await new Promise((resolve) => {
      add({ a: 2, b: 3 }, (err, result) => { resolve(err === null || err === undefined ? plain(result) : { status: last.status, body: last.body }) })
    })
  }
  const out: Record<string, Json> = {
    soap: (JSON.parse(readFileSync(require.resolve('soap/package.json'), 'utf8')) as { version: string }).version,
    text: await call(new soap.WSSecurity('demo', 'demo', { passwordType: 'PasswordText' })),
    digest: await call(new soap.WSSecurity('demo', 'demo', { passwordType: 'PasswordDigest', hasNonce: true, hasTokenCreated: true, hasTimeStamp: true })),
    wrong: await call(new soap.WSSecurity('demo', 'wrong', { passwordType: 'PasswordDigest', hasNonce: true, hasTimeStamp: true }))
  }
  out.warnings = warnings
  process.stdout.write(JSON.stringify(out) + '\n')
}

main(process.argv[2] ?? '', process.argv[3] ?? '').catch((err: unknown) => {
  process.stdout.write(JSON.stringify({ error: String((err as Error)?.stack ?? err) }) + '\n')
})
