/**
 * One contender of one workload, measured once: its own server process on
 * 127.0.0.1 (pinned to the server's CPU), each of its requests checked once, a
 * warm-up, then the measured window, driven by wrk or autocannon, with the
 * server's CPU time and peak RSS read around it. Every step is bounded in time.
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
  bodies: readonly string[]
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
    for (const body of load.bodies) {
      const wrong = await checkOnce(port, load, body)
      if (wrong !== undefined) throw new Failure('check', wrong)
    }
    await drive(port, load, settings, settings.warmup)
    await serverStats(child)
    const result = await drive(port, load, settings, settings.seconds)
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

/** Sends one of the load's requests once, on a connection of its own, and checks the answer. */
function checkOnce (port: number, load: Load, body: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const req = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: load.path,
      headers: { ...load.headers, 'content-length': Buffer.byteLength(body) },
      agent: false,
      timeout: CHECK_TIMEOUT_MS
    }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve(load.check(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'))))
      res.on('error', (err) => resolve(`the answer broke off: ${reason(err)}`))
    })
    req.on('timeout', () => req.destroy(new Error(`no answer in ${CHECK_TIMEOUT_MS / 1000} s`)))
    req.on('error', (err) => resolve(`the request failed: ${reason(err)}`))
    req.end(body)
  })
}

/** One load run of `seconds`, by the settings' generator; stopped and refused if it runs past its time. */
function drive (port: number, load: Load, settings: Settings, seconds: number): Promise<LoadResult> {
  if (settings.generator.name === 'wrk') {
    return runWrk({
      host: '127.0.0.1',
      port,
      path: load.path,
      headers: load.headers,
      bodies: load.bodies,
      connections: settings.connections,
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
      connections: settings.connections,
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
