/**
 * The bench's raw record (what results.json holds) and what the table, the
 * goals and the chart read from it: medians over rounds, and ratios taken
 * between two contenders of the same round.
 */
import type { Sample, Settings, Stage } from './measure'

/** The contender that runs fastify-soap's server from another build (BENCH_BASELINE), beside this build's `soap`. */
export const BASELINE_BUILD = 'soap-baseline'

export interface ContenderRecord {
  /** The contender's own key; the server kind, as benchmarks/http/server.ts knows it, unless `serves` says otherwise. */
  kind: string
  name: string
  /** The server kind started, when not `kind`. */
  serves?: string
  /** The server script started, when not this build's. */
  script?: string
  samples: Sample[]
  /** Set once the contender was dropped: it was not measured in this round or later. */
  failure?: { round: number, stage: Stage, reason: string }
}

export interface WorkloadRecord {
  id: string
  title: string
  /** The kind every ratio of this workload is taken against: the reference. */
  reference: string
  /** The bytes of the workload's SOAP request: what CPU per byte is taken over. */
  bytes?: number
  contenders: ContenderRecord[]
}

export interface BenchRecord {
  date: string
  /** How to run it again: the BENCH_* variables set, and the command. */
  command?: string
  node: string
  cpu: string
  cores: number
  /** The machine's load average (1, 5 and 15 minutes) as the run started and as it ended: how much else ran. */
  loadAverage?: { start: number[], end?: number[] }
  settings: Settings
  workloads: WorkloadRecord[]
}

export type Metric = 'rps' | 'cpuPerRequest' | 'p99' | 'maxRss' | 'rssGrowth'

export interface Summary {
  kind: string
  name: string
  reference: boolean
  /** Medians over the rounds measured; undefined when none was. */
  rps?: { median: number, min: number, max: number }
  p50?: number
  p99?: number
  cpuPerRequest?: number
  maxRss?: number
  errors: number
  timeouts: number
  non2xx: number
  rounds: number
  /** Against the reference, one entry per round this contender was measured in (undefined: no reference that round). */
  rpsRatios: Array<number | undefined>
  cpuRatios: Array<number | undefined>
  /** The median of the defined per-round ratios. */
  rpsRatio?: number
  cpuRatio?: number
  failure?: ContenderRecord['failure']
}

export function median (xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

function medianOf (xs: Array<number | undefined>): number | undefined {
  const defined = xs.filter((x): x is number => x !== undefined && Number.isFinite(x))
  return defined.length === 0 ? undefined : median(defined)
}

export function contender (workload: WorkloadRecord, kind: string): ContenderRecord | undefined {
  return workload.contenders.find((c) => c.kind === kind)
}

/** a's metric over b's, per round of a's samples: undefined where b has no sample that round or a zero. */
export function ratiosPerRound (a: ContenderRecord, b: ContenderRecord | undefined, metric: Metric): Array<number | undefined> {
  return a.samples.map((sample) => {
    const other = b?.samples.find((s) => s.round === sample.round)
    if (other === undefined || !(other[metric] > 0)) return undefined
    return sample[metric] / other[metric]
  })
}

/** The ratios of the rounds where both were measured. */
export function pairedRatios (a: ContenderRecord | undefined, b: ContenderRecord | undefined, metric: Metric): number[] {
  if (a === undefined) return []
  return ratiosPerRound(a, b, metric).filter((r): r is number => r !== undefined && Number.isFinite(r))
}

export function summarize (workload: WorkloadRecord): Summary[] {
  const base = contender(workload, workload.reference)
  return workload.contenders.map((c) => {
    const of = (f: (s: Sample) => number): number[] => c.samples.map(f)
    const measured = c.samples.length > 0
    const rps = of((s) => s.rps)
    const rpsRatios = ratiosPerRound(c, base, 'rps')
    const cpuRatios = ratiosPerRound(c, base, 'cpuPerRequest')
    return {
      kind: c.kind,
      name: c.name,
      reference: c.kind === workload.reference,
      rps: measured ? { median: median(rps), min: Math.min(...rps), max: Math.max(...rps) } : undefined,
      p50: measured ? median(of((s) => s.p50)) : undefined,
      p99: measured ? median(of((s) => s.p99)) : undefined,
      cpuPerRequest: measured ? median(of((s) => s.cpuPerRequest)) : undefined,
      maxRss: measured ? median(of((s) => s.maxRss)) : undefined,
      errors: of((s) => s.errors).reduce((a, b) => a + b, 0),
      timeouts: of((s) => s.timeouts).reduce((a, b) => a + b, 0),
      non2xx: of((s) => s.non2xx).reduce((a, b) => a + b, 0),
      rounds: c.samples.length,
      rpsRatios,
      cpuRatios,
      rpsRatio: medianOf(rpsRatios),
      cpuRatio: medianOf(cpuRatios),
      failure: c.failure
    }
  })
}
