/**
 * One contender of one workload, measured once: its own server process on
 * 127.0.0.1 (pinned to the server's CPU), each of its requests checked once, a
 * warm-up, then the measured window, driven by wrk or autocannon, with the
 * server's CPU time and peak RSS read around it. A load with a fixed number of
 * requests (the uploads) is sent instead by the runner, one request at a
 * time, after its checks. Every step is bounded in time.
 */
import type { ChildProcess } from 'node:child_process'
import { request } from 'node:http'
import autocannon from 'autocannon'
import { serverStats, startServer } from './process'
import { runWrk, type LoadResult } from './wrk'

export interface Settings {
  rounds: number
  seconds: number
  warmup: number
  /** The requests of each fixed-count load (the uploads), per contender and round. */
  uploads: number
  connections: number
  pipelining: number
  /** The load generator: wrk (one thread, its own process) or autocannon (in the runner's process), and its version. */
  generator: { name: 'wrk' | 'autocannon', version: string }
  /** The CPUs the server and the load generator are pinned to (taskset); undefined when not pinned, `unpinned` saying why. */
  cpus?: { server: number, load: number }
  unpinned?: string
}

/** What is sent, and how one answer is recognised as right. */
export interface Load {
  path: string
  headers: Record<string, string>
  /** Sent in turn on each connection: values change from one request to the next, as a client's do. */
  bodies: ReadonlyArray<string | Buffer>
  /**
   * A fixed number of requests, sent by the runner one at a time (each on a
   * connection of its own) instead of the load generator's timed window: for
   * bodies too large for 50 connections at once to say what one request costs.
   */
  requests?: number
  /**
   * The load generator's connections, when not the settings': the 1 MB loads
   * take fewer, so that the requests queued at the server do not outwait the 10 s timeout.
   */
  connections?: number
  /** Undefined when the answer is right, else what is wrong with it. */
  check: (status: number, body: string) => string | undefined
}

/** One contender's figures in one round. */
export interface Sample {
  round: number
  /** Requests per second over the measured window (wrk's Requests/sec, autocannon's requests.average). */
  rps: number
  requests: number
  /** Latency percentiles, ms (wrk reports them to two decimals of its unit; autocannon to whole milliseconds). */
  p50: number
  p75: number
  p90: number
  p99: number
  latencyMean: number
  /** Server CPU time (user + system) over the measured window, µs, and per request. */
  cpu: number
  cpuPerRequest: number
  /** The server process's peak resident set size at the end, bytes. */
  maxRss: number
  /** Its resident set size once listening, before any request, bytes; and the peak's growth over it. */
  rssStart: number
  rssGrowth: number
  /** Connection errors, timeouts included, and timeouts alone. */
  errors: number
  timeouts: number
  non2xx: number
  /** The server's event-loop delay over the measured window, ms. */
  delayP99: number
  delayMax: number
}

export type Stage = 'start' | 'check' | 'measure'

/** Why a contender was not measured: it did not start, answered wrongly, or the measurement broke. */
export class Failure extends Error {
  constructor (readonly stage: Stage, message: string) {
    super(message)
  }
}

const CHECK_TIMEOUT_MS = 5000
/** How long one request of a fixed-count load may take. */
const COUNTED_TIMEOUT_MS = 30_000
/** How long past its duration a load run may go before it is stopped, then abandoned. */
const RUN_GRACE_S = 10
const RUN_ABANDON_S = 20

/** `script`: another build's benchmarks/http/server.js, to measure that build's server of the same kind. */
export async function measureOne (kind: string, load: Load, settings: Settings, round: number, script?: string): Promise<Sample> {
  let server: { child: ChildProcess, port: number }
  try {
    server = await startServer(kind, { script, cpu: settings.cpus?.server })
  } catch (err) {
    throw new Failure('start', reason(err))
  }
  const { child, port } = server
  try {
    const { rss: rssStart } = await serverStats(child)
    for (const body of load.bodies) {
      const wrong = await checkOnce(port, load, body)
      if (wrong !== undefined) throw new Failure('check', wrong)
    }
    if (load.requests === undefined) await drive(port, load, settings, settings.warmup)
    await serverStats(child)
    const result = load.requests === undefined ? await drive(port, load, settings, settings.seconds) : await sendCounted(port, load, load.requests)
    const stats = await serverStats(child)
    return {
      round,
      rps: result.rps,
      requests: result.requests,
      p50: result.p50,
      p75: result.p75,
      p90: result.p90,
      p99: result.p99,
      latencyMean: result.mean,
      cpu: stats.cpu,
      cpuPerRequest: result.requests > 0 ? stats.cpu / result.requests : Number.NaN,
      maxRss: stats.maxRss,
      rssStart,
      rssGrowth: stats.maxRss - rssStart,
      errors: result.errors,
      timeouts: result.timeouts,
      non2xx: result.non2xx,
      delayP99: stats.delayP99,
      delayMax: stats.delayMax
    }
  } catch (err) {
    throw err instanceof Failure ? err : new Failure('measure', reason(err))
  } finally {
    await stop(child)
  }
}

type Answer = { status: number, body: string } | { error: string }

/** Sends one of the load's requests once, on a connection of its own: its answer, or why there is none. */
function sendOnce (port: number, load: Load, body: string | Buffer, timeout: number): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: load.path,
      headers: { ...load.headers, 'content-length': Buffer.byteLength(body) },
      agent: false,
      timeout
    }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }))
      res.on('error', (err) => resolve({ error: `the answer broke off: ${reason(err)}` }))
    })
    req.on('timeout', () => req.destroy(new Error(`no answer in ${timeout / 1000} s`)))
    req.on('error', (err) => resolve({ error: `the request failed: ${reason(err)}` }))
    req.end(body)
  })
}

/** Sends one of the load's requests once and checks the answer. */
export async function checkOnce (port: number, load: Load, body: string | Buffer): Promise<string | undefined> {
  const answer = await sendOnce(port, load, body, CHECK_TIMEOUT_MS)
  return 'error' in answer ? answer.error : load.check(answer.status, answer.body)
}

/** The latency at percentile `p` of sorted durations (nearest rank). */
function percentile (sorted: readonly number[], p: number): number {
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil(p / 100 * sorted.length) - 1)]
}

/** `count` requests, the load's bodies in turn, one at a time; an answer that fails the check counts as non-2xx. */
async function sendCounted (port: number, load: Load, count: number): Promise<LoadResult> {
  const took: number[] = []
  let errors = 0
  let timeouts = 0
  let non2xx = 0
  const start = process.hrtime.bigint()
  for (let i = 0; i < count; i++) {
    const sent = process.hrtime.bigint()
    const answer = await sendOnce(port, load, load.bodies[i % load.bodies.length], COUNTED_TIMEOUT_MS)
    took.push(Number(process.hrtime.bigint() - sent) / 1e6)
    if ('error' in answer) {
      errors++
      if (answer.error.includes('no answer in')) timeouts++
    } else if (load.check(answer.status, answer.body) !== undefined) {
      non2xx++
    }
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9
  const sorted = [...took].sort((a, b) => a - b)
  return {
    rps: count / seconds,
    requests: count,
    mean: took.reduce((a, b) => a + b, 0) / count,
    p50: percentile(sorted, 50),
    p75: percentile(sorted, 75),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    errors,
    timeouts,
    non2xx
  }
}

/** One load run of `seconds`, by the settings' generator; stopped and refused if it runs past its time. */
export function drive (port: number, load: Load, settings: Settings, seconds: number): Promise<LoadResult> {
  if (settings.generator.name === 'wrk') {
    return runWrk({
      host: '127.0.0.1',
      port,
      path: load.path,
      headers: load.headers,
      bodies: load.bodies,
      connections: load.connections ?? settings.connections,
      seconds,
      timeout: 10,
      grace: RUN_GRACE_S,
      abandon: RUN_ABANDON_S,
      cpu: settings.cpus?.load
    })
  }
  return driveAutocannon(port, load, settings, seconds)
}

/** One autocannon run, in this process (pinned, with the runner, to the load generator's CPU). */
function driveAutocannon (port: number, load: Load, settings: Settings, seconds: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    let late = false
    const instance = autocannon({
      url: `http://127.0.0.1:${port}${load.path}`,
      requests: load.bodies.map((body) => ({ method: 'POST', headers: load.headers, body })),
      connections: load.connections ?? settings.connections,
      pipelining: settings.pipelining,
      duration: seconds,
      timeout: 10
    }, (err, result) => {
      clearTimeout(grace)
      clearTimeout(abandon)
      if (err !== null && err !== undefined) reject(err)
      else if (late) reject(new Error(`autocannon ran past ${seconds + RUN_GRACE_S} s and was stopped`))
      else {
        resolve({
          rps: result.requests.average,
          requests: result.requests.total,
          mean: result.latency.average,
          p50: result.latency.p50,
          p75: result.latency.p75,
          p90: result.latency.p90,
          p99: result.latency.p99,
          errors: result.errors,
          timeouts: result.timeouts,
          non2xx: result.non2xx
        })
      }
    })
    const grace = setTimeout(() => { late = true; instance.stop() }, (seconds + RUN_GRACE_S) * 1000)
    const abandon = setTimeout(() => reject(new Error(`autocannon did not finish in ${seconds + RUN_ABANDON_S} s`)), (seconds + RUN_ABANDON_S) * 1000)
  })
}

/** Ends the server and waits for it to be gone, so that it takes no CPU from the next contender. */
async function stop (child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const gone = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
  await gone
  clearTimeout(timer)
}

function reason (err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}
