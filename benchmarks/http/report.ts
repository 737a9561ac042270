/**
 * The bench's markdown: one table per workload, fastify-soap's goals, this
 * build against the baseline build when one ran, and the results file's header.
 */
import { BASELINE_BUILD, contender, median, pairedRatios, summarize, type BenchRecord, type ContenderRecord, type Metric, type Summary, type WorkloadRecord } from './aggregate'
import type { Stage } from './measure'

const MiB = 2 ** 20

const fixed = (x: number | undefined, digits: number): string => x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(digits)
const whole = (x: number): string => Math.round(x).toLocaleString('en-US')
/** A ratio to two decimals, or to two significant digits below 0.1 (0.034, not 0.03). */
export const ratio = (x: number | undefined): string => x === undefined || !Number.isFinite(x) ? '—' : x >= 0.1 ? x.toFixed(2) : x.toPrecision(2)
const ratios = (xs: Array<number | undefined>): string => xs.length === 0 ? '—' : xs.map(ratio).join(', ')
/** Keeps a reason on one line and out of the table's syntax. */
const cell = (text: string): string => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').slice(0, 200)

export function failureText (stage: Stage, reason: string): string {
  if (stage === 'start') return `did not run: ${reason}`
  if (stage === 'check') return `failed the check, not measured: ${reason}`
  return `failed: ${reason}`
}

/** `digits`: the latency's decimals, as the load generator measures it. */
function row (s: Summary, digits: number): string {
  const name = s.reference ? `${s.name} (reference)` : s.name
  if (s.rps === undefined) {
    const why = s.failure === undefined ? 'not measured' : failureText(s.failure.stage, s.failure.reason)
    return `| ${name} | ${cell(why)} | — | — | — | — | — | — | — | — |`
  }
  const errors = s.timeouts > 0 ? `${s.errors} (${s.timeouts} timeouts)` : String(s.errors)
  return `| ${name} | ${whole(s.rps.median)} (${whole(s.rps.min)}–${whole(s.rps.max)}) | ${fixed(s.p50, digits)} | ${fixed(s.p99, digits)} | ${fixed(s.cpuPerRequest, 1)} | ` +
    `${fixed(s.maxRss === undefined ? undefined : s.maxRss / MiB, 1)} | ${errors} | ${s.non2xx} | ${ratios(s.rpsRatios)} | ${ratios(s.cpuRatios)} |`
}

export function renderTable (workload: WorkloadRecord, digits = 0): string {
  const summaries = summarize(workload)
  const reference = summaries.find((s) => s.reference)?.name ?? 'reference'
  const lines = [
    `### ${workload.title}`,
    '',
    `| contender | req/s median (min–max) | p50 ms | p99 ms | CPU µs/req | peak RSS MiB | errors | non-2xx | req/s ÷ ${reference} (per round) | CPU ÷ ${reference} (per round) |`,
    '|---|---|---|---|---|---|---|---|---|---|',
    ...summaries.map((s) => row(s, digits))
  ]
  // A contender dropped after some rounds keeps its row; say why the later rounds are missing.
  const notes = summaries
    .filter((s) => s.rps !== undefined && s.failure !== undefined)
    .map((s) => `- ${s.name}, round ${s.failure?.round ?? '?'}: ${cell(failureText(s.failure?.stage ?? 'measure', s.failure?.reason ?? ''))}; not measured from then on.`)
  if (notes.length > 0) lines.push('', ...notes)
  return lines.join('\n')
}

export interface Goal {
  text: string
  workload: string
  /** a's metric over b's, per round; the goal holds if the median ratio is within `target`. */
  a: string
  b: string
  metric: Metric
  atLeast: boolean
  target: number
  /**
   * b is taken from this workload instead, and each figure is divided by the
   * bytes of its own workload's SOAP request: CPU per byte, 1 MB against 100 KB.
   */
  versus?: string
}

/** fastify-soap's goals, each a ratio between two contenders of the same round: against the JSON routes and node-soap. */
export const GOALS: Goal[] = [
  { text: 'small: fastify-soap req/s ≥ 0.6 × Fastify JSON', workload: 'small', a: 'soap', b: 'json', metric: 'rps', atLeast: true, target: 0.6 },
  { text: 'small: fastify-soap req/s ≥ 0.8 × Fastify JSON', workload: 'small', a: 'soap', b: 'json', metric: 'rps', atLeast: true, target: 0.8 },
  { text: 'small: fastify-soap req/s ≥ 2 × node-soap', workload: 'small', a: 'soap', b: 'node-soap', metric: 'rps', atLeast: true, target: 2 },
  { text: 'large: fastify-soap req/s ≥ 3 × node-soap', workload: 'large', a: 'soap', b: 'node-soap', metric: 'rps', atLeast: true, target: 3 },
  { text: 'large (records 1,000): fastify-soap req/s ≥ 0.5 × Fastify JSON', workload: 'large', a: 'soap', b: 'json', metric: 'rps', atLeast: true, target: 0.5 },
  { text: 'large (records 1,000): fastify-soap req/s ≥ 0.6 × Fastify JSON with schema', workload: 'large', a: 'soap', b: 'json-schema', metric: 'rps', atLeast: true, target: 0.6 },
  { text: 'large: fastify-soap CPU/req ≤ 4 × Fastify JSON', workload: 'large', a: 'soap', b: 'json', metric: 'cpuPerRequest', atLeast: false, target: 4 },
  { text: 'small: fastify-soap p99 ≤ 2 × Fastify JSON p99', workload: 'small', a: 'soap', b: 'json', metric: 'p99', atLeast: false, target: 2 },
  { text: 'large: fastify-soap peak RSS ≤ node-soap peak RSS', workload: 'large', a: 'soap', b: 'node-soap', metric: 'maxRss', atLeast: false, target: 1 },
  { text: 'text 100 KB: fastify-soap req/s ≥ 0.7 × Fastify JSON', workload: 'text', a: 'soap', b: 'json', metric: 'rps', atLeast: true, target: 0.7 },
  { text: 'text 100 KB: fastify-soap req/s ≥ 3 × node-soap', workload: 'text', a: 'soap', b: 'node-soap', metric: 'rps', atLeast: true, target: 3 },
  { text: 'records 1 MB: fastify-soap CPU per byte ≤ 1.3 × records 1,000\'s', workload: 'records-1mb', versus: 'large', a: 'soap', b: 'soap', metric: 'cpuPerRequest', atLeast: false, target: 1.3 },
  { text: 'text 1 MB: fastify-soap CPU per byte ≤ 1.3 × text 100 KB\'s', workload: 'text-1mb', versus: 'text', a: 'soap', b: 'soap', metric: 'cpuPerRequest', atLeast: false, target: 1.3 },
  { text: 'records 1 MB: fastify-soap peak RSS ≤ 1.5 × Fastify JSON', workload: 'records-1mb', a: 'soap', b: 'json', metric: 'maxRss', atLeast: false, target: 1.5 },
  { text: 'text 1 MB: fastify-soap peak RSS ≤ 1.5 × Fastify JSON', workload: 'text-1mb', a: 'soap', b: 'json', metric: 'maxRss', atLeast: false, target: 1.5 },
  { text: 'upload: MTOM CPU/req ≤ 0.5 × base64 inline', workload: 'upload', a: 'upload-mtom', b: 'upload-base64', metric: 'cpuPerRequest', atLeast: false, target: 0.5 },
  { text: 'upload: MTOM peak RSS growth ≤ 0.5 × base64 inline', workload: 'upload', a: 'upload-mtom', b: 'upload-base64', metric: 'rssGrowth', atLeast: false, target: 0.5 }
]

/** The goal's per-round ratios: a's metric over b's, each per byte of its workload's request when b is from another workload. */
export function goalRatios (goal: Goal, workloads: WorkloadRecord[]): { per: number[], a?: ContenderRecord, b?: ContenderRecord } {
  const workload = workloads.find((w) => w.id === goal.workload)
  const other = goal.versus === undefined ? workload : workloads.find((w) => w.id === goal.versus)
  const a = workload === undefined ? undefined : contender(workload, goal.a)
  const b = other === undefined ? undefined : contender(other, goal.b)
  const scale = goal.versus === undefined ? 1 : (other?.bytes ?? Number.NaN) / (workload?.bytes ?? Number.NaN)
  return { per: pairedRatios(a, b, goal.metric).map((r) => r * scale).filter((r) => Number.isFinite(r)), a, b }
}

function evaluate (goal: Goal, workloads: WorkloadRecord[]): string {
  const { per, a, b } = goalRatios(goal, workloads)
  if (per.length === 0) {
    const missing = [a, b].find((c) => c !== undefined && c.samples.length === 0)
    const why = missing?.failure !== undefined ? `${missing.name} ${failureText(missing.failure.stage, missing.failure.reason)}` : 'no round measured both'
    return `- ${goal.text}: **not evaluated** (${cell(why)})`
  }
  const m = median(per)
  const met = goal.atLeast ? m >= goal.target : m <= goal.target
  return `- ${goal.text}: **${met ? 'met' : 'missed'}** — ${ratio(m)}× (per round ${per.map(ratio).join(', ')})`
}

/** The goals of the workloads that ran. */
export function renderGoals (workloads: WorkloadRecord[]): string {
  const ran = GOALS.filter((g) => [g.workload, g.versus ?? g.workload].every((id) => workloads.some((w) => w.id === id)))
  return ['### fastify-soap\'s goals (medians of per-round ratios)', '', ...ran.map((g) => evaluate(g, workloads))].join('\n')
}

/**
 * The upload, MTOM over base64 inline: the server's CPU per request, its
 * peak resident set, and that peak's growth over its resident set once
 * listening (each round a fresh server process); undefined when the upload did not run.
 */
export function renderUpload (workloads: WorkloadRecord[]): string | undefined {
  const upload = workloads.find((w) => w.id === 'upload')
  const mtom = upload === undefined ? undefined : contender(upload, 'upload-mtom')
  const base64 = upload === undefined ? undefined : contender(upload, 'upload-base64')
  if (mtom === undefined || base64 === undefined) return undefined
  const figure = (c: ContenderRecord, metric: 'cpuPerRequest' | 'maxRss' | 'rssGrowth'): string => {
    if (c.samples.length === 0) return '—'
    const m = median(c.samples.map((s) => s[metric]))
    return metric === 'cpuPerRequest' ? `${fixed(m / 1000, 1)} ms` : `${fixed(m / MiB, 1)} MiB`
  }
  const rowOf = (label: string, metric: 'cpuPerRequest' | 'maxRss' | 'rssGrowth'): string =>
    `| ${label} | ${figure(base64, metric)} | ${figure(mtom, metric)} | ${buildRatio(mtom, base64, metric)} |`
  return [
    '### upload: MTOM ÷ base64 inline (medians; each round\'s ratio in parentheses)',
    '',
    '| server, per request | base64 inline | MTOM | MTOM ÷ base64 |',
    '|---|---|---|---|',
    rowOf('CPU (user + system)', 'cpuPerRequest'),
    rowOf('peak RSS', 'maxRss'),
    rowOf('peak RSS growth over the RSS once listening', 'rssGrowth')
  ].join('\n')
}

/** One figure of this build over the baseline build's: the median of the rounds that measured both, and each round's. */
function buildRatio (a: ContenderRecord | undefined, b: ContenderRecord | undefined, metric: Metric): string {
  const per = pairedRatios(a, b, metric)
  return per.length === 0 ? '—' : `${ratio(median(per))}× (${per.map(ratio).join(', ')})`
}

/** fastify-soap, this build over the baseline build (BENCH_BASELINE), per workload; undefined when no baseline build ran. */
export function renderBuilds (workloads: WorkloadRecord[]): string | undefined {
  const rows = workloads.flatMap((w) => {
    const before = contender(w, BASELINE_BUILD)
    if (before === undefined) return []
    const after = contender(w, 'soap')
    const why = [after, before].find((c) => c !== undefined && c.samples.length === 0)
    const note = why?.failure === undefined ? '' : ` (${cell(`${why.name} ${failureText(why.failure.stage, why.failure.reason)}`)})`
    return [`| ${w.title.replace(/ \(.*$/, '')}${note} | ${buildRatio(after, before, 'rps')} | ${buildRatio(after, before, 'cpuPerRequest')} | ${buildRatio(after, before, 'p99')} |`]
  })
  if (rows.length === 0) return undefined
  return [
    '### fastify-soap: this build ÷ the baseline build (median of the per-round ratios; each round\'s in parentheses)',
    '',
    '| workload | req/s after ÷ before | CPU µs/req after ÷ before | p99 after ÷ before |',
    '|---|---|---|---|',
    ...rows
  ].join('\n')
}

/** The latency's decimals: wrk reports to hundredths, autocannon whole milliseconds. */
function latencyDigits (record: BenchRecord): number {
  return record.settings.generator.name === 'wrk' ? 2 : 0
}

/** The tables, the goals and the comparison of builds, as printed to stdout. */
export function renderBody (record: BenchRecord): string {
  const builds = renderBuilds(record.workloads)
  const upload = renderUpload(record.workloads)
  return [
    ...record.workloads.map((w) => renderTable(w, latencyDigits(record))),
    ...(upload === undefined ? [] : [upload]),
    renderGoals(record.workloads),
    ...(builds === undefined ? [] : [builds])
  ].join('\n\n') + '\n'
}

/** Which load generator ran, and where each process ran. */
export function renderLoad (record: BenchRecord): string {
  const s = record.settings
  const generator = s.generator.name === 'wrk' ? `wrk ${s.generator.version} (one thread)` : `autocannon ${s.generator.version} (in the runner's process)`
  return s.cpus === undefined
    ? `${generator}; not pinned (${s.unpinned ?? 'no CPU given'}): the load generator and the server share the CPUs`
    : `${generator} pinned to CPU ${s.cpus.load}, each server pinned to CPU ${s.cpus.server} (taskset)`
}

export function renderSettings (record: BenchRecord): string {
  const s = record.settings
  const parts = [
    ...(record.workloads.some((w) => w.id !== 'upload') ? [`${s.connections} connections (fewer where a workload's title says so), pipelining ${s.pipelining}, ${s.seconds} s measured after ${s.warmup} s of warm-up`] : []),
    ...(record.workloads.some((w) => w.id === 'upload') ? [`the upload: ${s.uploads} requests one at a time after one checked`] : [])
  ]
  return `${parts.join('; ')}, ` +
    `${s.rounds} round${s.rounds === 1 ? '' : 's'}, contenders interleaved within each round, each round starting one contender further along, each server in its own process on 127.0.0.1`
}

/** The load average as the run started and ended. */
export function renderLoadAverage ({ start, end }: NonNullable<BenchRecord['loadAverage']>): string {
  const three = (xs: number[]): string => xs.map((x) => x.toFixed(2)).join(', ')
  return `${three(start)} at the start${end === undefined ? '' : `, ${three(end)} at the end`}`
}

/** benchmarks/results/results.md: a header, then the same body as stdout. */
export function renderResults (record: BenchRecord): string {
  return [
    '# HTTP benchmark results',
    '',
    `- Date: ${record.date}`,
    `- Node: ${record.node}`,
    `- CPU: ${record.cpu}, ${record.cores} cores`,
    ...(record.loadAverage === undefined ? [] : [`- Load average (1, 5, 15 min): ${renderLoadAverage(record.loadAverage)}`]),
    `- Load: ${renderLoad(record)}`,
    `- Settings: ${renderSettings(record)}`,
    ...(record.command === undefined ? [] : [`- Command: \`${record.command}\``]),
    '- Medians over rounds; ratios are taken within each round, between contenders of the same round. ' +
      'CPU is the server process\'s user + system time over the measured window, per request; ' +
      'peak RSS is the server process\'s maximum resident set size; ' +
      'the XML echo\'s ratio to the JSON route, about 1 on a quiet machine, shows how far each round was disturbed; ' +
      (latencyDigits(record) === 0 ? 'p50 and p99 are in whole milliseconds (autocannon\'s resolution).' : 'p50 and p99 are from wrk\'s latency distribution.'),
    '',
    '![req/s per contender](chart.svg)',
    '',
    renderBody(record)
  ].join('\n')
}
