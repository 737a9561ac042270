/**
 * `npm run bench:derived`: what a type with many derived types costs
 * (docs/contract-first.md "Derived types"). A contract of one operation
 * `Post(event: Event)`, where `Event` has 16 optional elements and N types
 * extend it, each with one element of its own, for N = 100 and 1,000:
 * - the time `ready()` takes, elapsed and CPU (user and system: what
 *   others' load on the machine changes least), the median of DERIVED_RUNS
 *   runs (3 by default), each on a fresh Fastify instance, in a process of
 *   its own per N;
 * - the time the operation's input validator takes on one value, of the
 *   declared type and of the last derived type (ns per call, the median of
 *   DERIVED_RUNS runs of BENCH_MS ms each), and the ratio of N = 1,000 to
 *   N = 100: the value's type is found by its `$type`, not by trying each.
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import Fastify from 'fastify'
import soap from '../../lib/index'
import { readContract } from '../../lib/contract/read'
import { compile, createAjv } from '../../lib/codec/validation'
import { derivedContract } from '../../test/helper'

const RUNS = Number(process.env.DERIVED_RUNS ?? 3)
const MS = Number(process.env.BENCH_MS ?? 1000)
const SIZES = [100, 1000]

function median (values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
}

/** Nanoseconds per call of `fn`, run for MS ms after a warm-up. */
function perCall (fn: () => void): number {
  for (let i = 0; i < 1000; i++) fn()
  let calls = 0
  const started = process.hrtime.bigint()
  const deadline = started + BigInt(MS) * 1_000_000n
  let now = started
  while (now < deadline) {
    for (let i = 0; i < 100; i++) fn()
    calls += 100
    now = process.hrtime.bigint()
  }
  return Number(now - started) / calls
}

interface Figures { ready: number, cpu: number, declared: number, derived: number }

/** One N, in this process. */
async function measureOne (n: number): Promise<Figures> {
  const document = derivedContract(n)
  const times: number[] = []
  const cpu: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const started = process.hrtime.bigint()
    const used = process.cpuUsage()
    const fastify = Fastify()
    await fastify.register(soap)
    fastify.soap.contract({ path: '/c', document, operations: { Post: () => ({}) } })
    await fastify.ready()
    const { user, system } = process.cpuUsage(used)
    times.push(Number(process.hrtime.bigint() - started) / 1e6)
    cpu.push((user + system) / 1000)
    await fastify.close()
  }
  const contract = await readContract({ document })
  const validate = compile(createAjv(), contract.operations.Post.input as object, 'Post')
  const values = [
    { event: { $type: 'Event', key: '1' } },
    { event: { $type: `Event${n}`, key: '1', [`extra${n}`]: 'x' } }
  ]
  const [declared, derived] = values.map((value) => {
    if (!validate(value)) throw new Error(`not valid: ${JSON.stringify(validate.errors)}`)
    return median(Array.from({ length: RUNS }, () => perCall(() => validate(value))))
  })
  return { ready: median(times), cpu: median(cpu), declared, derived }
}

async function main (): Promise<void> {
  const which = process.argv[2]
  if (which !== undefined) {
    process.stdout.write(JSON.stringify(await measureOne(Number(which))))
    return
  }
  console.log(`| derived types N | ready() ms, median of ${RUNS} | ready() CPU ms | validation, declared type, ns | ` +
    'validation, type N, ns |')
  console.log('|---|---|---|---|---|')
  const all: Figures[] = []
  for (const n of SIZES) {
    const script = join(__dirname, 'run.js')
    const child = spawnSync(process.execPath, [script, String(n)], { encoding: 'utf8', timeout: 600_000 })
    if (child.status !== 0) throw new Error(`N = ${n}: ${child.stderr}`)
    const figures = JSON.parse(child.stdout) as Figures
    all.push(figures)
    const { ready, cpu, declared, derived } = figures
    console.log(`| ${n} | ${ready.toFixed(0)} | ${cpu.toFixed(0)} | ${declared.toFixed(0)} | ${derived.toFixed(0)} |`)
  }
  const [small, large] = all
  console.log(`\nN = 1,000 / N = 100: ready() ${(large.ready / small.ready).toFixed(1)}×, ` +
    `CPU ${(large.cpu / small.cpu).toFixed(1)}×, validation of the declared type ` +
    `${(large.declared / small.declared).toFixed(2)}×, of type N ${(large.derived / small.derived).toFixed(2)}×`)
}

main().catch((err: unknown) => {
  console.error(err)
  process.exitCode = 1
})
