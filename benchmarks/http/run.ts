/**
 * `npm run bench`: five workloads against up to seven contenders (eight with
 * BENCH_BASELINE), and an upload in two forms; every server in its own process
 * on 127.0.0.1, pinned to one CPU with taskset while the load generator has
 * another; driven by wrk when it is installed (BENCH_GENERATOR=autocannon to
 * choose autocannon), else autocannon.
 *   small        Add (about 400 bytes; eight pairs of operands in turn, so that each
 *                request's values differ from the last's): the JSON route (the reference),
 *                the JSON route with Fastify's schema (the operation's JSON Schemas: ajv
 *                in, fast-json-stringify out), the XML echo (Fastify sending the
 *                request's bytes back: the floor), fastify-soap, fastify-soap with an
 *                OpenTelemetry SDK registered, node-soap, strong-soap
 *   large        EchoList of 1,000 records (about 105 KiB), the same seven
 *   text         Echo of 100 KB of text with entities and non-ASCII characters, the
 *                same but OpenTelemetry; every answer's text compared with the text sent
 *   records-1mb  EchoList of 10,000 records (about 1 MiB), the same six, 10
 *                connections (CONNECTIONS_1MB), not 50
 *   text-1mb     Echo of 1 MB of the same text, the same six, 10 connections
 *   upload       10 MiB of random bytes to fastify-soap's Upload (one base64Binary
 *                element; the answer their count and SHA-256), as base64 text inline
 *                (the reference) and as MTOM (the bytes a raw part): BENCH_UPLOADS (20)
 *                requests of each, one at a time, sent by the runner, not the load generator
 * BENCH_BASELINE=<another checkout's compiled dist/ folder> adds, to every workload
 * but the upload, the fastify-soap server of that build (its own
 * benchmarks/http/server.js), so that one run compares the two builds.
 * BENCH_WORKLOADS and BENCH_ONLY choose workloads and contenders (selected()).
 * The contenders are interleaved within each round (every contender of every
 * workload in turn, each round starting one contender further along, then
 * the next round), so that drift and the place in the order hit all alike, and
 * every ratio is taken between contenders of the same round. A contender that
 * does not start, or answers one checked request wrongly, is reported and left
 * out of later rounds; the run goes on.
 * Prints one markdown table per workload, fastify-soap's goals and, with a
 * baseline build, this build over that one; writes benchmarks/results/results.md,
 * results.json (every round's figures) and chart.svg.
 * Bounded: BENCH_ROUNDS (3) × 35 timed runs (40 with a baseline build) × (start + BENCH_WARMUP 2 s + BENCH_SECONDS 10 s),
 * each load run stopped if it overruns, and BENCH_ROUNDS × 2 × (BENCH_UPLOADS + 1) uploads of at most 30 s each;
 * every child process is killed when the run ends.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join, resolve } from 'node:path'
import { createHash, randomBytes } from 'node:crypto'
import { ADDENDS, addEnvelope, echoedText, echoEnvelope, echoText, listEnvelopeOf, listJson, UPLOAD_BYTES, uploadBase64, uploadMtom } from '../fixtures'
import { BASELINE_BUILD, type BenchRecord, type ContenderRecord, type WorkloadRecord } from './aggregate'
import { renderChart } from './chart'
import { choosePinning, cleanUp, pinSelf } from './children'
import { Failure, measureOne, type Load, type Settings } from './measure'
import { failureText, renderBody, renderLoad, renderResults } from './report'
import { wrkVersion } from './wrk'
import { signedWorkload } from './signed'

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

type Contender = Omit<ContenderRecord, 'samples'>

export interface Workload {
  id: string
  title: string
  /** The contender every ratio of the workload is taken against. */
  reference: string
  /** The bytes of the SOAP request (the first when there are several): CPU per byte is read by it. */
  bytes?: number
  contenders: Contender[]
  loads: Record<string, Load>
}

/**
 * The contenders of a workload; `baseline`: another build's benchmarks/http/server.js, whose fastify-soap
 * server runs beside this build's; `otel` where the workload has it.
 */
function contenders (baseline: string | undefined, { otel = true } = {}): Contender[] {
  return [
    { kind: 'json', name: 'Fastify JSON' },
    { kind: 'json-schema', name: 'Fastify JSON with schema' },
    { kind: 'xml-echo', name: 'Fastify XML echo' },
    { kind: 'soap', name: 'fastify-soap' },
    ...(otel ? [{ kind: 'otel', name: 'fastify-soap with OpenTelemetry' }] : []),
    ...(baseline === undefined ? [] : [{ kind: BASELINE_BUILD, name: 'fastify-soap (baseline build)', serves: 'soap', script: baseline }]),
    { kind: 'node-soap', name: 'node-soap' },
    { kind: 'strong-soap', name: 'strong-soap' }
  ]
}

/**
 * BENCH_WORKLOADS (ids, comma-separated: small, large, text, text-1mb,
 * records-1mb, upload, signed): those workloads alone. BENCH_ONLY (kinds,
 * comma-separated: json-schema, xml-echo, soap, otel, soap-baseline, node-soap,
 * strong-soap, upload-base64, upload-mtom, soap-x509, soap-x509-reply): of
 * those, the workloads with a contender named, each with the contenders named
 * and its reference (the JSON route; for the upload, base64 inline; for the
 * signed Add, the unsigned one).
 */
export function selected (plan: Workload[], env: Record<string, string | undefined> = process.env): Workload[] {
  const ids = env.BENCH_WORKLOADS
  let chosen = plan
  if (ids !== undefined && ids !== '') {
    const wanted = new Set(ids.split(',').map((id) => id.trim()))
    for (const id of wanted) if (!plan.some((w) => w.id === id)) throw new Error(`BENCH_WORKLOADS: no workload ${id} (one of ${plan.map((w) => w.id).join(', ')})`)
    chosen = plan.filter((w) => wanted.has(w.id))
  }
  const only = env.BENCH_ONLY
  if (only === undefined || only === '') return chosen
  const kinds = new Set(only.split(',').map((kind) => kind.trim()))
  const all = [...new Set(chosen.flatMap((w) => w.contenders.map((c) => c.kind)))]
  for (const kind of kinds) if (!all.includes(kind)) throw new Error(`BENCH_ONLY: no contender ${kind} (one of ${all.join(', ')})`)
  return chosen
    .filter((w) => w.contenders.some((c) => kinds.has(c.kind)))
    .map((w) => ({ ...w, contenders: w.contenders.filter((c) => c.kind === w.reference || kinds.has(c.kind)) }))
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
export function generator (): Settings['generator'] {
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

const MiB = 2 ** 20

/**
 * The upload workload's two loads: the same `bytes`, as base64 text inline
 * and as MTOM, each to be answered with their count and SHA-256; `requests` of each.
 */
export function uploadLoads (bytes: Buffer, requests: number): { 'upload-base64': Load, 'upload-mtom': Load } {
  const sha256 = createHash('sha256').update(bytes).digest('hex')
  const answer = expect(new RegExp(`<[^>]*Size>${bytes.length}<[\\s\\S]*<[^>]*Sha256>${sha256}<`), `Size ${bytes.length} and SHA-256 ${sha256}`)
  const load = ({ contentType, body }: { contentType: string, body: Buffer }): Load =>
    ({ path: '/upload', headers: { 'content-type': contentType }, bodies: [body], requests, check: answer })
  return { 'upload-base64': load(uploadBase64(bytes)), 'upload-mtom': load(uploadMtom(bytes)) }
}

/** The records workloads: EchoList of `count` records, as SOAP 1.2 and as JSON, each answer checked for the last record. */
function recordLoads (count: number): { soap: Load, json: Load } {
  const last = new RegExp(`item ${count - 1}\\b`)
  return {
    soap: { path: '/list', headers: SOAP12('urn:example:list/EchoList'), bodies: [listEnvelopeOf(count)], check: expect(last, `"item ${count - 1}"`) },
    json: { path: '/list', headers: JSON_TYPE, bodies: [listJson(count)], check: expect(last, `"item ${count - 1}"`) }
  }
}

/**
 * The text workloads: Echo of `text`, as SOAP 1.2 (its `&`, `<` and `>` as
 * entity references) and as JSON; every answer's text, its references
 * resolved, must be `text` itself.
 */
export function textLoads (text: string): { soap: Load, json: Load } {
  const sameText = (got: string | undefined, status: number, body: string): string | undefined => {
    if (status < 200 || status > 299) return `status ${status}: ${body.slice(0, 160)}`
    if (got === text) return undefined
    return got === undefined ? `status ${status} but no text in ${body.length} bytes: ${body.slice(0, 160)}` : `status ${status} but another text (${got.length} characters, not ${text.length}): ${got.slice(0, 80)}`
  }
  const jsonText = (body: string): string | undefined => {
    try {
      const value = JSON.parse(body) as { text?: unknown }
      return typeof value.text === 'string' ? value.text : undefined
    } catch {
      return undefined
    }
  }
  return {
    soap: { path: '/calculator', headers: SOAP12('urn:example:calc/Echo'), bodies: [echoEnvelope(text)], check: (status, body) => sameText(echoedText(body), status, body) },
    json: { path: '/echo', headers: JSON_TYPE, bodies: [JSON.stringify({ text })], check: (status, body) => sameText(jsonText(body), status, body) }
  }
}

/** The records of the large workload, and of its 1 MB version. */
export const RECORDS = 1000
export const RECORDS_1MB = 10_000
/** The UTF-8 bytes of the text workloads' text. */
export const TEXT_BYTES = 100 * 1024
export const TEXT_1MB_BYTES = 1024 * 1024
/**
 * The load generator's connections for the 1 MB workloads: at 50, the
 * requests queued at a server answering 20 to 40 a second outwaited the 10 s
 * timeout, and requests served but not counted made CPU per request wrong.
 */
export const CONNECTIONS_1MB = 10

const KiB = 1024

export function workloads (baseline: string | undefined, uploads: number): Workload[] {
  const add: Load = { path: '/calculator', headers: SOAP12('urn:example:calc/Add'), bodies: ADDENDS.map(([a, b]) => addEnvelope(a, b)), check: expect(/>\s*5\s*</, 'result 5') }
  const addJson: Load = { path: '/calculator', headers: JSON_TYPE, bodies: ADDENDS.map(([a, b]) => JSON.stringify({ a, b })), check: expect(/"result":5\b/, '"result":5') }
  const list = recordLoads(RECORDS)
  const list1mb = recordLoads(RECORDS_1MB)
  const text = textLoads(echoText(TEXT_BYTES))
  const text1mb = textLoads(echoText(TEXT_1MB_BYTES))
  const upload = uploadLoads(randomBytes(UPLOAD_BYTES), uploads)
  const size = (load: Load): number => Buffer.byteLength(load.bodies[0])
  const sizes = (loads: { soap: Load, json: Load }, unit: number, name: string): string =>
    `SOAP 1.2 envelope ${(size(loads.soap) / unit).toFixed(unit === MiB ? 2 : 0)} ${name}, JSON ${(size(loads.json) / unit).toFixed(unit === MiB ? 2 : 0)} ${name}`
  /** Every contender of a workload given its SOAP and JSON loads: the JSON routes the JSON one, the others the SOAP one; `connections` for all. */
  const loadsOf = ({ soap, json }: { soap: Load, json: Load }, connections?: number): Record<string, Load> => {
    const [s, j] = connections === undefined ? [soap, json] : [{ ...soap, connections }, { ...json, connections }]
    return { json: j, 'json-schema': j, 'xml-echo': s, soap: s, otel: s, [BASELINE_BUILD]: s, 'node-soap': s, 'strong-soap': s }
  }
  return [
    {
      id: 'small',
      title: `small: Add (SOAP 1.2 envelope ${size(add)} B, JSON ${size(addJson)} B)`,
      reference: 'json',
      bytes: size(add),
      contenders: contenders(baseline),
      loads: { ...loadsOf({ soap: add, json: addJson }), 'xml-echo': { ...add, check: expect(/<calc:Add\b/, 'the request echoed') } }
    },
    {
      id: 'large',
      title: `large: EchoList of 1,000 records (${sizes(list, KiB, 'KiB')})`,
      reference: 'json',
      bytes: size(list.soap),
      contenders: contenders(baseline),
      loads: loadsOf(list)
    },
    {
      id: 'text',
      title: `text: Echo of 100 KB of text with entities and non-ASCII characters (${sizes(text, KiB, 'KiB')})`,
      reference: 'json',
      bytes: size(text.soap),
      contenders: contenders(baseline, { otel: false }),
      loads: loadsOf(text)
    },
    {
      id: 'records-1mb',
      title: `records 1 MB: EchoList of 10,000 records (${sizes(list1mb, MiB, 'MiB')}; ${CONNECTIONS_1MB} connections)`,
      reference: 'json',
      bytes: size(list1mb.soap),
      contenders: contenders(baseline, { otel: false }),
      loads: loadsOf(list1mb, CONNECTIONS_1MB)
    },
    {
      id: 'text-1mb',
      title: `text 1 MB: Echo of 1 MB of the same text (${sizes(text1mb, MiB, 'MiB')}; ${CONNECTIONS_1MB} connections)`,
      reference: 'json',
      bytes: size(text1mb.soap),
      contenders: contenders(baseline, { otel: false }),
      loads: loadsOf(text1mb, CONNECTIONS_1MB)
    },
    {
      id: 'upload',
      title: `upload: ${UPLOAD_BYTES / MiB} MiB of random bytes in one base64Binary element, ${uploads} requests one at a time ` +
        `(base64 inline ${(size(upload['upload-base64']) / MiB).toFixed(1)} MiB, MTOM ${(size(upload['upload-mtom']) / MiB).toFixed(1)} MiB)`,
      reference: 'upload-base64',
      contenders: [
        { kind: 'upload-base64', name: 'fastify-soap, base64 inline', serves: 'soap-upload' },
        { kind: 'upload-mtom', name: 'fastify-soap, MTOM', serves: 'soap-upload' }
      ],
      loads: upload
    },
    signedWorkload(add)
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
        const counted = workload.loads[c.kind].requests
        process.stderr.write(`${step} · ${counted === undefined ? `${settings.seconds} s` : `${counted} requests`}…\n`)
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
    uploads: setting('BENCH_UPLOADS', 20),
    connections: 50,
    pipelining: 1,
    generator: generator(),
    ...pinning
  }
  const plan = selected(workloads(baseline, settings.uploads))
  const records: WorkloadRecord[] = plan.map((w) => ({
    id: w.id,
    title: w.title,
    reference: w.reference,
    ...(w.bytes === undefined ? {} : { bytes: w.bytes }),
    contenders: w.contenders.map((c) => ({ ...c, samples: [] }))
  }))
  const record: BenchRecord = { date: new Date().toISOString(), command: command(), node: process.version, cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, loadAverage: { start: loadavg() }, settings, workloads: records }
  process.stderr.write(`load: ${renderLoad(record)}${baseline === undefined ? '' : `; baseline build: ${baseline}`}\n`)
  await runRounds(plan, records, settings)
  record.loadAverage = { start: record.loadAverage?.start ?? [], end: loadavg() }
  process.stdout.write('\n' + renderBody(record))
  write(record)
}

if (require.main === module) main().catch((err) => { console.error(err); process.exit(1) })
