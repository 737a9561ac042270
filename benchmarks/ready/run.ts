/**
 * `npm run bench:ready`: what registering a large contract costs, for three
 * real ones (Exchange, IHE XDS.b, OTA): the time `ready()` takes, elapsed
 * and CPU (user and system: what other processes on the machine change
 * least), the median of READY_RUNS runs (5 by default), each on a fresh
 * Fastify instance; and the heap the ready application keeps (after a full
 * collection, measured first), less that of an application with the plugin
 * and no service. Each contract is measured in a process of its own, run
 * with --expose-gc.
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import Fastify, { type FastifyInstance } from 'fastify'
import soap from '../../lib/index'
import { sharedFixturePath } from '../../test/helper'

interface Contract {
  readonly name: string
  readonly wsdl: readonly string[]
  readonly options?: Record<string, unknown>
}

const CONTRACTS: readonly Contract[] = [
  { name: 'Exchange (ews)', wsdl: ['ews', 'services.wsdl'] },
  { name: 'IHE XDS.b registry', wsdl: ['ihe-xds-b-registry', 'wsdl', 'XDS.b_DocumentRegistry.wsdl'], options: { root: '..' } },
  // Its binding references a policy the WSDL does not hold: served without it.
  {
    name: 'OTA reservation',
    wsdl: ['ota-reservation', 'reservation_service.wsdl'],
    options: { ignorePolicyAssertions: ['{http://schemas.xmlsoap.org/ws/2004/09/policy}PolicyReference'] }
  }
]

const RUNS = Number(process.env.READY_RUNS ?? 5)
const MB = 1024 * 1024

function collect (): number {
  const gc = (globalThis as { gc?: () => void }).gc as () => void
  for (let i = 0; i < 3; i++) gc()
  return process.memoryUsage().heapUsed
}

async function app (contract: Contract | undefined, wsdl: string | undefined): Promise<FastifyInstance> {
  const fastify = Fastify()
  await fastify.register(soap)
  if (contract !== undefined) fastify.soap.contract({ path: '/c', wsdl: wsdl as string, operations: {}, unimplemented: 'fault', ...contract.options })
  await fastify.ready()
  return fastify
}

/** One contract, in this process: first its retained heap (nothing else made before), then its ready() times. */
async function measureOne (contract: Contract): Promise<void> {
  const wsdl = sharedFixturePath('wsdl', ...contract.wsdl) as string
  const empty = await app(undefined, undefined)
  const baseline = collect()
  const kept = await app(contract, wsdl)
  const retained = collect() - baseline
  await kept.close()
  await empty.close()
  const times: number[] = []
  const cpu: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const started = process.hrtime.bigint()
    const used = process.cpuUsage()
    const fastify = await app(contract, wsdl)
    const { user, system } = process.cpuUsage(used)
    times.push(Number(process.hrtime.bigint() - started) / 1e6)
    cpu.push((user + system) / 1000)
    await fastify.close()
  }
  process.stdout.write(JSON.stringify({ median: median(times), cpu: median(cpu), retained }))
}

function median (values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
}

async function main (): Promise<void> {
  const which = process.argv[2]
  if (which !== undefined) return await measureOne(CONTRACTS[Number(which)])
  if (typeof (globalThis as { gc?: unknown }).gc !== 'function') throw new Error('run with node --expose-gc')
  if (sharedFixturePath('wsdl') === undefined) throw new Error('the WSDL corpus of the shared fixtures is not beside this checkout')
  console.log(`| contract | ready() ms, median of ${RUNS} | ready() CPU ms, median | retained heap MB |`)
  console.log('|---|---|---|---|')
  for (const [i, contract] of CONTRACTS.entries()) {
    const child = spawnSync(process.execPath, ['--expose-gc', join(__dirname, 'run.js'), String(i)], { encoding: 'utf8', timeout: 600_000 })
    if (child.status !== 0) throw new Error(`${contract.name}: ${child.stderr}`)
    const { median, cpu, retained } = JSON.parse(child.stdout) as { median: number, cpu: number, retained: number }
    console.log(`| ${contract.name} | ${median.toFixed(0)} | ${cpu.toFixed(0)} | ${(retained / MB).toFixed(1)} |`)
  }
}

main().catch((err: unknown) => {
  console.error(err)
  process.exitCode = 1
})
