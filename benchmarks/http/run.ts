/**
 * `npm run bench`: two workloads, each against six contenders (seven with
 * BENCH_BASELINE), every server in its own process on 127.0.0.1, pinned to one
 * CPU with taskset while the load generator has another; driven by wrk when it
 * is installed (BENCH_GENERATOR=autocannon to choose autocannon), else autocannon.
 *   small  Add (about 400 bytes; eight pairs of operands in turn, so that each
 *          request's values differ from the last's): the JSON route (the reference),
 *          the XML echo (Fastify sending the request's bytes back: the floor),
 *          fastify-soap, fastify-soap with an OpenTelemetry SDK registered,
 *          node-soap, strong-soap
 *   large  EchoList of 1,000 records (about 107 KB), the same six
 * BENCH_BASELINE=<another checkout's compiled dist/ folder> adds, to both, the
 * fastify-soap server of that build (its own benchmarks/http/server.js), so
 * that one run compares the two builds.
 * The contenders are interleaved within each round (every contender of both
 * workloads in turn, each round starting one contender further along, then
 * the next round), so that drift and the place in the order hit all alike, and
 * every ratio is taken between contenders of the same round. A contender that
 * does not start, or answers one checked request wrongly, is reported and left
 * out of later rounds; the run goes on.
 * Prints one markdown table per workload, fastify-soap's goals and, with a
 * baseline build, this build over that one; writes benchmarks/results/results.md,
 * results.json (every round's figures) and chart.svg.
 * Bounded: BENCH_ROUNDS (3) × 12 contenders (14 with a baseline build) × (start + BENCH_WARMUP 2 s + BENCH_SECONDS 10 s),
 * each load run stopped if it overruns; every child process is killed when the run ends.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { join, resolve } from 'node:path'
import { ADDENDS, addEnvelope, listEnvelopeOf, listJson } from '../fixtures'
import { BASELINE_BUILD, type BenchRecord, type ContenderRecord, type WorkloadRecord } from './aggregate'
import { renderChart } from './chart'
import { choosePinning, cleanUp, pinSelf } from './children'
import { Failure, measureOne, type Load, type Settings } from './measure'
import { failureText, renderBody, renderLoad, renderResults } from './report'
import { wrkVersion } from './wrk'

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

/** The contenders; `baseline`: another build's benchmarks/http/server.js, whose fastify-soap server runs beside this build's. */
/**
 * The contenders; BENCH_ONLY (kinds, comma-separated: xml-echo, soap, otel,
 * soap-baseline, node-soap, strong-soap) keeps those and the JSON route, the
 * reference every ratio is taken against.
 */
function contenders (baseline: string | undefined): Array<Omit<ContenderRecord, 'samples'>> {
  const all = [
    { kind: 'json', name: 'Fastify JSON' },
    { kind: 'xml-echo', name: 'Fastify XML echo' },
    { kind: 'soap', name: 'fastify-soap' },
    { kind: 'otel', name: 'fastify-soap with OpenTelemetry' },
    ...(baseline === undefined ? [] : [{ kind: BASELINE_BUILD, name: 'fastify-soap (baseline build)', serves: 'soap', script: baseline }]),
    { kind: 'node-soap', name: 'node-soap' },
    { kind: 'strong-soap', name: 'strong-soap' }
  ]
  const only = process.env.BENCH_ONLY
  if (only === undefined || only === '') return all
  const kinds = new Set(only.split(',').map((kind) => kind.trim()))
  for (const kind of kinds) if (!all.some((c) => c.kind === kind)) throw new Error(`BENCH_ONLY: no contender ${kind} (one of ${all.map((c) => c.kind).join(', ')})`)
  return all.filter((c) => c.kind === 'json' || kinds.has(c.kind))
}

/** BENCH_BASELINE's server script: the folder may be a compiled dist/ or the checkout holding it. */
function baselineScript (): string | undefined {
  const folder = process.env.BENCH_BASELINE
  if (folder === undefined || folder === '') return undefined
  const candidates = [join(folder, 'benchmarks', 'http', 'server.js'), join(folder, 'dist', 'benchmarks', 'http', 'server.js')].map((p) => resolve(p))
  const script = candidates.find((p) => existsSync(p))
  if (script === undefined) throw new Error(`BENCH_BASELINE: no compiled benchmarks/http/server.js under ${folder} (looked for ${candidates.join(' and ')})`)
  return script
}

/** wrk when installed, autocannon otherwise; BENCH_GENERATOR names one. */
function generator (): Settings['generator'] {
  const wanted = process.env.BENCH_GENERATOR ?? ''
  if (wanted !== '' && wanted !== 'wrk' && wanted !== 'autocannon') throw new Error(`BENCH_GENERATOR must be wrk or autocannon, not ${wanted}`)
  const wrk = wanted === 'autocannon' ? undefined : wrkVersion()
  if (wrk !== undefined) return { name: 'wrk', version: wrk }
  if (wanted === 'wrk') throw new Error('BENCH_GENERATOR=wrk, but wrk is not installed')
  return { name: 'autocannon', version: (require('autocannon/package.json') as { version: string }).version }
}

/** The BENCH_* variables set, and the command: how to run this again. */
function command (): string {
  const set = Object.entries(process.env).filter(([name, value]) => name.startsWith('BENCH_') && value !== undefined && value !== '').sort(([a], [b]) => a.localeCompare(b))
  return [...set.map(([name, value]) => `${name}=${String(value)}`), 'npm run bench'].join(' ')
}

function workloads (): Workload[] {
  const add: Load = { path: '/calculator', headers: SOAP12('urn:example:calc/Add'), bodies: ADDENDS.map(([a, b]) => addEnvelope(a, b)), check: expect(/>\s*5\s*</, 'result 5') }
  const list: Load = { path: '/list', headers: SOAP12('urn:example:list/EchoList'), bodies: [listEnvelopeOf(1000)], check: expect(/item 999\b/, '"item 999"') }
  return [
    {
      id: 'small',
      title: (soap, json) => `small: Add (SOAP 1.2 envelope ${soap} B, JSON ${json} B)`,
      loads: { json: { path: '/calculator', headers: JSON_TYPE, bodies: ADDENDS.map(([a, b]) => JSON.stringify({ a, b })), check: expect(/"result":5\b/, '"result":5') }, 'xml-echo': { ...add, check: expect(/<calc:Add\b/, 'the request echoed') }, soap: add, otel: add, [BASELINE_BUILD]: add, 'node-soap': add, 'strong-soap': add }
    },
    {
      id: 'large',
      title: (soap, json) => `large: EchoList of 1,000 records (SOAP 1.2 envelope ${(soap / 1024).toFixed(0)} KiB, JSON ${(json / 1024).toFixed(0)} KiB)`,
      loads: { json: { path: '/list', headers: JSON_TYPE, bodies: [listJson(1000)], check: expect(/item 999\b/, '"item 999"') }, 'xml-echo': list, soap: list, otel: list, [BASELINE_BUILD]: list, 'node-soap': list, 'strong-soap': list }
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
          const sample = await measureOne(c.serves ?? c.kind, workload.loads[c.kind], settings, round, c.script)
          c.samples.push(sample)
          process.stderr.write(`  ${Math.round(sample.rps)} req/s, p99 ${sample.p99.toFixed(2)} ms, ${sample.cpuPerRequest.toFixed(1)} µs CPU/req, ${sample.errors} errors, ${sample.non2xx} non-2xx\n`)
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
  process.on('exit', cleanUp)
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => { cleanUp(); process.exit(130) })
  const baseline = baselineScript()
  const pinning = choosePinning()
  if (pinning.cpus !== undefined) pinSelf(pinning.cpus.load)
  const settings: Settings = {
    rounds: setting('BENCH_ROUNDS', 3),
    seconds: setting('BENCH_SECONDS', 10),
    warmup: setting('BENCH_WARMUP', 2),
    connections: 50,
    pipelining: 1,
    generator: generator(),
    ...pinning
  }
  const plan = workloads()
  const records: WorkloadRecord[] = plan.map((w) => ({
    id: w.id,
    title: w.title(Buffer.byteLength(w.loads.soap.bodies[0]), Buffer.byteLength(w.loads.json.bodies[0])),
    reference: 'json',
    contenders: contenders(baseline).map((c) => ({ ...c, samples: [] }))
  }))
  const record: BenchRecord = { date: new Date().toISOString(), command: command(), node: process.version, cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, settings, workloads: records }
  process.stderr.write(`load: ${renderLoad(record)}${baseline === undefined ? '' : `; baseline build: ${baseline}`}\n`)
  await runRounds(plan, records, settings)
  process.stdout.write('\n' + renderBody(record))
  write(record)
}

main().catch((err) => { console.error(err); process.exit(1) })
