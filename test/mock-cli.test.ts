/**
 * docs/mock.md "The mock command": `fastify-soap mock <contract.wsdl>`
 * serves the contract with sample answers on loopback, prints its URLs and
 * logs one line per request; started as a process (the package's bin) on a
 * free port and called over HTTP, and its arguments read in process.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import { readContract } from '../lib/index'
import { main } from '../lib/cli/main'
import { mockOptions, startMock } from '../lib/cli/mock'
import { sharedFixture } from './helper'
import { mockRequest } from './contract-xsd'

const ROOT = join(__dirname, '..', '..')

async function run (args: string[]): Promise<{ status: number, out: string, err: string }> {
  let out = ''
  let err = ''
  const status = await main(args, (text) => { out += text }, (text) => { err += text })
  return { status, out, err }
}

test('docs/mock.md "The mock command": usage, and arguments refused with status 2; a contract that cannot be read is status 1', async (t: TestContext) => {
  const help = await run(['mock', '--help'])
  t.assert.deepStrictEqual([help.status, help.err], [0, ''])
  t.assert.match(help.out, /^usage: fastify-soap mock <contract\.wsdl> \[--port <n>\]/)
  const both = await run(['--help'])
  t.assert.match(both.out, /usage: fastify-soap types[^]*usage: fastify-soap mock/)
  const none = await run(['nothing'])
  t.assert.strictEqual(none.status, 2)
  t.assert.match(none.err, /usage: fastify-soap types[^]*usage: fastify-soap mock/)
  for (const [args, message] of [
    [[], /no contract\.wsdl given/],
    [['a.wsdl', '--port', 'x'], /--port takes a number/],
    [['a.wsdl', '--port', '70000'], /--port takes a number/],
    [['a.wsdl', '--seed', '-1'], /--seed takes a number/],
    [['a.wsdl', '--path', 'mock'], /--path must start with \//],
    [['a.wsdl', 'b.wsdl'], /unexpected argument b\.wsdl/],
    [['a.wsdl', '--port'], /unexpected argument --port/]
  ] as const) {
    const result = await run(['mock', ...args])
    t.assert.strictEqual(result.status, 2, args.join(' '))
    t.assert.match(result.err, message)
  }
  t.assert.deepStrictEqual(mockOptions(['a.wsdl', '--catalog', '/x.xsd=./y.xsd', '--catalog', '/z.xsd=./w.xsd', '--service', 'S', '--binding', 'B', '--root', '..', '--host', '::1', '--seed', '4', '--port', '0']), {
    wsdl: 'a.wsdl', port: 0, host: '::1', path: '/mock', seed: 4, service: 'S', binding: 'B', root: '..', catalog: { '/x.xsd': './y.xsd', '/z.xsd': './w.xsd' }
  })
  t.assert.strictEqual((mockOptions(['a.wsdl', '--catalog', 'catalog.xml']) as { catalog: unknown }).catalog, 'catalog.xml')
  const unread = await run(['mock', join(ROOT, 'no-such.wsdl'), '--port', '0'])
  t.assert.strictEqual(unread.status, 1)
  t.assert.match(unread.err, /no-such\.wsdl/)
})

test('docs/mock.md "The mock command": startMock listens on 127.0.0.1 by default and prints the endpoint\'s and the WSDL\'s URLs', async (t: TestContext) => {
  const wsdl = sharedFixture(t, 'wsdl', 'cmis11', 'CMISWS-Service.wsdl')
  if (wsdl === undefined) return
  let out = ''
  const app = await startMock({ ...mockOptions([wsdl, '--port', '0', '--service', 'ObjectService', '--path', '/cmis']) as Exclude<ReturnType<typeof mockOptions>, string> }, (text) => { out += text })
  t.after(() => app.close())
  const port = app.server.address() as { port: number, address: string }
  t.assert.strictEqual(port.address, '127.0.0.1')
  t.assert.strictEqual(out, `fastify-soap mock: ObjectService (20 operations) at http://127.0.0.1:${port.port}/cmis\nfastify-soap mock: WSDL at http://127.0.0.1:${port.port}/cmis?wsdl\n`)
})

test('docs/mock.md "The mock command": the bin started as a process on a free loopback port answers OCPP requests with samples, serves the WSDL, and logs one line per SOAP request', async (t: TestContext) => {
  const wsdl = sharedFixture(t, 'wsdl', 'ocpp16', 'OCPP_CentralSystemService_1.6.wsdl')
  if (wsdl === undefined) return
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> }
  const child = spawn(process.execPath, [join(ROOT, pkg.bin['fastify-soap']), 'mock', wsdl, '--port', '0', '--seed', '3'], { stdio: ['ignore', 'pipe', 'pipe'] })
  t.after(() => { if (child.exitCode === null) child.kill('SIGKILL') })
  let out = ''
  child.stdout.on('data', (chunk: Buffer) => { out += chunk.toString() })
  const deadline = Date.now() + 20_000
  while (!/WSDL at (\S+)/.test(out) && Date.now() < deadline && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 50))
  const url = /at (http:\/\/127\.0\.0\.1:\d+\/mock)\n/.exec(out)?.[1]
  t.assert.ok(url !== undefined, out)
  const contract = await readContract({ wsdl })
  const request = mockRequest(contract, 'Heartbeat')
  const answer = await fetch(url as string, { method: 'POST', headers: request.headers, body: request.payload, signal: AbortSignal.timeout(10_000) })
  t.assert.strictEqual(answer.status, 200)
  t.assert.match(await answer.text(), /<[^>]*heartbeatResponse [^>]*><[^>]*currentTime>[^<]+</)
  t.assert.match(await (await fetch(`${url as string}?wsdl`, { signal: AbortSignal.timeout(10_000) })).text(), /<wsdl:operation name="Heartbeat">/)
  const answered = (): Array<Record<string, unknown>> => out.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === 'fastify-soap: answered')
  while (answered().length < 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
  // One line for the SOAP request (the GET of the WSDL is no SOAP request), with its operation and status.
  t.assert.deepStrictEqual(answered().map((line) => line.soap), [{ status: 200, version: '1.2', service: 'CentralSystemService', operation: 'Heartbeat', action: '/Heartbeat' }])
  child.kill('SIGTERM')
  const code = await new Promise((resolve) => child.once('exit', (c, signal) => resolve(c ?? signal)))
  t.assert.strictEqual(code, 0)
})
