/**
 * `npm run bench`: plain Fastify JSON against fastify-soap's Add, each in its own
 * process on 127.0.0.1, driven by autocannon, interleaved over rounds so that
 * drift hits both alike. Prints req/s, latency and each round's ratio.
 * Bounded: BENCH_ROUNDS (3) × 2 contenders × (BENCH_WARMUP 2 s + BENCH_SECONDS 10 s).
 */
import type { ChildProcess } from 'node:child_process'
import autocannon from 'autocannon'
import { addEnvelope } from '../fixtures'
import { serverStats, startServer as start } from './process'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2)
const CONNECTIONS = 50

interface Contender { name: string, kind: string, headers: Record<string, string>, body: string }

const contenders: Contender[] = [
  { name: 'Fastify JSON (baseline)', kind: 'json', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ a: 2, b: 3 }) },
  { name: 'fastify-soap Add (SOAP 1.2)', kind: 'soap', headers: { 'content-type': 'application/soap+xml; charset=utf-8; action="urn:example:calc/Add"' }, body: addEnvelope() }
]

/** The server's CPU time in µs since the previous call. */
async function cpu (child: ChildProcess): Promise<number> {
  return (await serverStats(child)).cpu
}

async function load (port: number, c: Contender, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: `http://127.0.0.1:${port}/calculator`,
    method: 'POST',
    headers: c.headers,
    body: c.body,
    connections: CONNECTIONS,
    pipelining: 1,
    duration: seconds
  })
}

async function main (): Promise<void> {
  const results = new Map<string, Array<{ rps: number, p50: number, p99: number, errors: number, non2xx: number, cpu: number }>>()
  for (let round = 1; round <= ROUNDS; round++) {
    for (const c of contenders) {
      process.stderr.write(`round ${round}/${ROUNDS}: ${c.name}…\n`)
      const { child, port } = await start(c.kind)
      try {
        await load(port, c, WARMUP)
        await cpu(child)
        const r = await load(port, c, SECONDS)
        const cpuPerRequest = (await cpu(child)) / r.requests.total
        const list = results.get(c.name) ?? []
        list.push({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx, cpu: cpuPerRequest })
        results.set(c.name, list)
      } finally {
        child.kill('SIGTERM')
      }
    }
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
  const base = results.get(contenders[0].name) ?? []
  console.log(`\n${CONNECTIONS} connections, pipelining 1, ${SECONDS} s after ${WARMUP} s warm-up, ${ROUNDS} rounds, Node ${process.version}\n`)
  console.log('| contender | req/s median (min–max) | p50 ms | p99 ms | server CPU µs/req | errors | non-2xx | req/s ratio to baseline, per round | CPU/req ratio, per round |')
  console.log('|---|---|---|---|---|---|---|---|---|')
  for (const c of contenders) {
    const list = results.get(c.name) ?? []
    const rps = list.map((x) => x.rps)
    const ratios = list.map((x, i) => (x.rps / base[i].rps).toFixed(2)).join(', ')
    const cpuRatios = list.map((x, i) => (x.cpu / base[i].cpu).toFixed(2)).join(', ')
    console.log(`| ${c.name} | ${median(rps).toFixed(0)} (${Math.min(...rps).toFixed(0)}–${Math.max(...rps).toFixed(0)}) | ${median(list.map((x) => x.p50))} | ${median(list.map((x) => x.p99))} | ${median(list.map((x) => x.cpu)).toFixed(1)} | ${list.reduce((s, x) => s + x.errors, 0)} | ${list.reduce((s, x) => s + x.non2xx, 0)} | ${ratios} | ${cpuRatios} |`)
  }
}

main().catch((err) => { console.error(err); process.exit(1) })
