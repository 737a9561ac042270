/**
 * `npm run bench`: two workloads, each against five contenders, every server in
 * its own process on 127.0.0.1, driven by autocannon.
 *   small  Add (about 400 bytes; eight pairs of operands in turn, so that each
 *          request's values differ from the last's): JSON baseline, the XML echo (Fastify sending the
 *          request's bytes back: the floor), fastify-soap, node-soap, strong-soap
 *   large  EchoList of 1,000 records (about 107 KB), the same five
 * The contenders are interleaved within each round (every contender of both
 * workloads in turn, each round starting one contender further along, then
 * the next round), so that drift and the place in the order hit all alike, and
 * every ratio is taken between contenders of the same round. A contender that
 * does not start, or answers one checked request wrongly, is reported and left
 * out of later rounds; the run goes on.
 * Prints one markdown table per workload and the goals of issue 5; writes
 * benchmarks/results/results.md, results.json (every round's figures) and chart.svg.
 * Bounded: BENCH_ROUNDS (3) × 10 × (start + BENCH_WARMUP 2 s + BENCH_SECONDS 10 s),
 * each autocannon run stopped if it overruns.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { join } from 'node:path'
import { ADDENDS, addEnvelope, listEnvelopeOf, listJson } from '../fixtures'
import type { BenchRecord, WorkloadRecord } from './aggregate'
import { renderChart } from './chart'
import { Failure, measureOne, type Load, type Settings } from './measure'
import { failureText, renderBody, renderResults } from './report'

const RESULTS = join(__dirname, '..', '..', '..', 'benchmarks', 'results')

function setting (name: string, fallback: number): number {
  const raw = process.env[name]
  const value = raw === undefined || raw === '' ? fallback : Number(raw)
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number ≥ 1, not ${String(raw)}`)
  return value
}

const SOAP12 = (action: string): Record<string, string> => ({ 'content-type': `application/soap+xml; charset=utf-8; action="${action}"` })
const JSON_TYPE = { 'content-type': 'application/json' }

function expect (pattern: RegExp, what: string) {
  return (status: number, body: string): string | undefined => {
    if (status < 200 || status > 299) return `status ${status}: ${body.slice(0, 160)}`
    return pattern.test(body) ? undefined : `status ${status} but no ${what} in ${body.length} bytes: ${body.slice(0, 160)}`
  }
}

interface Workload { id: string, title: (soap: number, json: number) => string, loads: Record<string, Load> }

const CONTENDERS: Array<{ kind: string, name: string }> = [
  { kind: 'json', name: 'Fastify JSON' },
  { kind: 'xml-echo', name: 'Fastify XML echo' },
  { kind: 'soap', name: 'fastify-soap' },
  { kind: 'node-soap', name: 'node-soap' },
  { kind: 'strong-soap', name: 'strong-soap' }
]

function workloads (): Workload[] {
  const add: Load = { path: '/calculator', headers: SOAP12('urn:example:calc/Add'), bodies: ADDENDS.map(([a, b]) => addEnvelope(a, b)), check: expect(/>\s*5\s*</, 'result 5') }
  const list: Load = { path: '/list', headers: SOAP12('urn:example:list/EchoList'), bodies: [listEnvelopeOf(1000)], check: expect(/item 999\b/, '"item 999"') }
  return [
    {
      id: 'small',
      title: (soap, json) => `small: Add (SOAP 1.2 envelope ${soap} B, JSON ${json} B)`,
      loads: { json: { path: '/calculator', headers: JSON_TYPE, bodies: ADDENDS.map(([a, b]) => JSON.stringify({ a, b })), check: expect(/"result":5\b/, '"result":5') }, 'xml-echo': { ...add, check: expect(/<calc:Add\b/, 'the request echoed') }, soap: add, 'node-soap': add, 'strong-soap': add }
    },
    {
      id: 'large',
      title: (soap, json) => `large: EchoList of 1,000 records (SOAP 1.2 envelope ${(soap / 1024).toFixed(0)} KiB, JSON ${(json / 1024).toFixed(0)} KiB)`,
      loads: { json: { path: '/list', headers: JSON_TYPE, bodies: [listJson(1000)], check: expect(/item 999\b/, '"item 999"') }, 'xml-echo': list, soap: list, 'node-soap': list, 'strong-soap': list }
    }
  ]
}

/** The contenders in the order of round `round` (from 1): each round starts one further along, so that no contender always runs in the same place. */
function inRoundOrder<T> (contenders: readonly T[], round: number): T[] {
  const shift = (round - 1) % contenders.length
  return [...contenders.slice(shift), ...contenders.slice(0, shift)]
}

/** Every round: every contender of every workload in turn. A contender that failed is skipped from then on. */
async function runRounds (plan: Workload[], records: WorkloadRecord[], settings: Settings): Promise<void> {
  const didNotStart = new Map<string, { round: number, reason: string }>()
  for (let round = 1; round <= settings.rounds; round++) {
    for (const [w, workload] of plan.entries()) {
      for (const c of inRoundOrder(records[w].contenders, round)) {
        const step = `round ${round}/${settings.rounds} · ${workload.id} · ${c.name}`
        const unstarted = didNotStart.get(c.kind)
        if (c.failure !== undefined) continue
        if (unstarted !== undefined) {
          c.failure = { round: unstarted.round, stage: 'start', reason: unstarted.reason }
          continue
        }
        process.stderr.write(`${step} · ${settings.seconds} s…\n`)
        try {
          const sample = await measureOne(c.kind, workload.loads[c.kind], settings, round)
          c.samples.push(sample)
          process.stderr.write(`  ${Math.round(sample.rps)} req/s, p99 ${sample.p99} ms, ${sample.cpuPerRequest.toFixed(1)} µs CPU/req, ${sample.errors} errors, ${sample.non2xx} non-2xx\n`)
        } catch (err) {
          if (!(err instanceof Failure)) throw err
          c.failure = { round, stage: err.stage, reason: err.message }
          if (err.stage === 'start') didNotStart.set(c.kind, { round, reason: err.message })
          process.stderr.write(`  ${failureText(err.stage, err.message)}; skipped from now on\n`)
        }
      }
    }
  }
}

function write (record: BenchRecord): void {
  mkdirSync(RESULTS, { recursive: true })
  writeFileSync(join(RESULTS, 'results.md'), renderResults(record))
  writeFileSync(join(RESULTS, 'results.json'), JSON.stringify(record, null, 2) + '\n')
  writeFileSync(join(RESULTS, 'chart.svg'), renderChart(record))
  process.stderr.write(`wrote ${join(RESULTS, 'results.md')}, results.json and chart.svg\n`)
}

async function main (): Promise<void> {
  const settings: Settings = { rounds: setting('BENCH_ROUNDS', 3), seconds: setting('BENCH_SECONDS', 10), warmup: setting('BENCH_WARMUP', 2), connections: 50, pipelining: 1 }
  const plan = workloads()
  const records: WorkloadRecord[] = plan.map((w) => ({
    id: w.id,
    title: w.title(Buffer.byteLength(w.loads.soap.bodies[0]), Buffer.byteLength(w.loads.json.bodies[0])),
    baseline: 'json',
    contenders: CONTENDERS.map((c) => ({ ...c, samples: [] }))
  }))
  const record: BenchRecord = { date: new Date().toISOString(), node: process.version, cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, settings, workloads: records }
  await runRounds(plan, records, settings)
  process.stdout.write('\n' + renderBody(record))
  write(record)
}

main().catch((err) => { console.error(err); process.exit(1) })
