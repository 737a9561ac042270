/**
 * wrk as the load generator: one thread, pinned to a CPU of its own when the
 * server has the other. A Lua script, written for each run to a folder of the
 * system's temp directory and removed after it, sends the load's bodies in
 * turn with its headers. wrk's own report (`--latency`) is read for req/s, the
 * latency distribution and the errors.
 */
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { makeFolder, removeFolder, spawnChild } from './children'

/** What one load run measured, whichever generator ran it. */
export interface LoadResult {
  rps: number
  requests: number
  /** Latency, ms: mean and percentiles. */
  mean: number
  p50: number
  p75: number
  p90: number
  p99: number
  /** Connection errors, timeouts included, and timeouts alone. */
  errors: number
  timeouts: number
  non2xx: number
}

export interface WrkRun {
  host: string
  port: number
  path: string
  headers: Record<string, string>
  /** Sent in turn, one after the other, by the thread's connections. */
  bodies: ReadonlyArray<string | Buffer>
  connections: number
  seconds: number
  /** A request unanswered for this long (s) counts as a timeout. */
  timeout: number
  /** Stopped (SIGINT: wrk then reports) this long (s) past its duration, killed this long past it. */
  grace: number
  abandon: number
  /** The CPU wrk is pinned to; undefined: not pinned. */
  cpu?: number
}

/** wrk's version (`wrk -v`), or undefined when wrk is not installed. */
export function wrkVersion (): string | undefined {
  const out = spawnSync('wrk', ['-v'], { encoding: 'utf8', timeout: 5000 })
  if (out.error !== undefined) return undefined
  return /^wrk\s+(\S+)/m.exec(`${out.stdout}${out.stderr}`)?.[1] ?? 'unknown version'
}

/** A Lua string literal of `text`'s UTF-8 bytes (or the bytes given): printable ASCII as is, every other byte as a three-digit decimal escape. */
function luaString (text: string | Buffer): string {
  let out = '"'
  for (const byte of typeof text === 'string' ? Buffer.from(text, 'utf8') : text) {
    out += byte >= 0x20 && byte < 0x7f && byte !== 0x22 && byte !== 0x5c ? String.fromCharCode(byte) : `\\${String(byte).padStart(3, '0')}`
  }
  return out + '"'
}

/** The script: each request built once by wrk.format, then taken in turn. */
export function wrkScript (run: WrkRun): string {
  const headers = { ...run.headers, Host: `${run.host}:${run.port}` }
  return [
    `local path = ${luaString(run.path)}`,
    'local headers = {',
    ...Object.entries(headers).map(([name, value]) => `  [${luaString(name)}] = ${luaString(value)},`),
    '}',
    'local bodies = {',
    ...run.bodies.map((body) => `  ${luaString(body)},`),
    '}',
    'local requests = {}',
    'local turn = 0',
    'function init (args)',
    '  for i, body in ipairs(bodies) do',
    '    local copy = {}',
    '    for name, value in pairs(headers) do copy[name] = value end',
    '    requests[i] = wrk.format("POST", path, copy, body)',
    '  end',
    'end',
    'function request ()',
    '  turn = turn % #requests + 1',
    '  return requests[turn]',
    'end',
    ''
  ].join('\n')
}

const UNITS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 }

/** One of wrk's durations ("812.00us", "1.21ms", "2.00s") in ms. */
function ms (text: string): number {
  const match = /^([\d.]+)(us|ms|s|m|h)$/.exec(text)
  if (match === null) throw new Error(`wrk: cannot read the duration ${JSON.stringify(text)}`)
  return Number((Number(match[1]) * UNITS[match[2]]).toPrecision(6))
}

/** wrk's report with `--latency`. */
export function parseWrk (output: string): LoadResult {
  const find = (pattern: RegExp, what: string): RegExpExecArray => {
    const match = pattern.exec(output)
    if (match === null) throw new Error(`wrk: no ${what} in its report: ${output.slice(0, 400)}`)
    return match
  }
  const percentile = (p: number): number => ms(find(new RegExp(`^\\s*${p}(?:\\.0+)?%\\s+(\\S+)\\s*$`, 'm'), `${p}% latency`)[1])
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output)
  const [connect, read, write, timeouts] = socket === null ? [0, 0, 0, 0] : socket.slice(1).map(Number)
  return {
    rps: Number(find(/^Requests\/sec:\s+([\d.]+)/m, 'Requests/sec')[1]),
    requests: Number(find(/^\s*(\d+) requests in /m, 'request count')[1]),
    mean: ms(find(/^\s*Latency\s+(\S+)\s+\S+\s+\S+/m, 'mean latency')[1]),
    p50: percentile(50),
    p75: percentile(75),
    p90: percentile(90),
    p99: percentile(99),
    errors: connect + read + write + timeouts,
    timeouts,
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0)
  }
}

/** One wrk run of `run.seconds`; refused if it overran (stopped, then killed). */
export function runWrk (run: WrkRun): Promise<LoadResult> {
  const folder = makeFolder()
  const script = join(folder, 'load.lua')
  writeFileSync(script, wrkScript(run))
  const args = ['-t1', `-c${run.connections}`, `-d${run.seconds}s`, '--timeout', `${run.timeout}s`, '--latency', '-s', script, `http://${run.host}:${run.port}${run.path}`]
  return new Promise<LoadResult>((resolve, reject) => {
    const child = spawnChild('wrk', args, run.cpu, { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    let late = false
    child.stdout?.on('data', (chunk: Buffer) => { out += chunk.toString() })
    child.stderr?.on('data', (chunk: Buffer) => { err += chunk.toString() })
    const grace = setTimeout(() => { late = true; child.kill('SIGINT') }, (run.seconds + run.grace) * 1000)
    const abandon = setTimeout(() => { child.kill('SIGKILL') }, (run.seconds + run.abandon) * 1000)
    const done = (): void => { clearTimeout(grace); clearTimeout(abandon) }
    child.once('error', (error) => { done(); reject(new Error(`wrk could not be started: ${error.message}`)) })
    child.once('close', (code, signal) => {
      done()
      if (late) reject(new Error(`wrk ran past ${run.seconds + run.grace} s and was stopped`))
      else if (code !== 0) reject(new Error(`wrk exited with ${String(code ?? signal)}: ${(err || out).trim().slice(0, 400)}`))
      else {
        try {
          resolve(parseWrk(out))
        } catch (error) {
          reject(error)
        }
      }
    })
  }).finally(() => removeFolder(folder))
}
