/** Starting a server of benchmarks/http/server.ts in its own process, and reading its stats. */
import type { ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { spawnChild } from './children'

export interface ServerStats {
  /** CPU time (user + system) since the previous report, µs. */
  cpu: number
  rss: number
  heapUsed: number
  /** The process's peak resident set size so far, bytes. */
  maxRss: number
  /** The event loop's delay since the previous report, ms. */
  delayP99: number
  delayMax: number
}

export interface ServerOptions {
  /** The server script: this build's benchmarks/http/server.js unless another build's is given. */
  script?: string
  /** The CPU the process is pinned to (taskset); undefined: not pinned. */
  cpu?: number
  /** Node's own options, before the script (`--cpu-prof` for benchmarks/profile). */
  nodeOptions?: string[]
}

/**
 * Starts a server in its own process and resolves once it listens. Its stderr
 * is passed through; if it exits before listening, the first line it wrote
 * there (the error it threw) is the rejection's reason.
 */
export function startServer (kind: string, options: ServerOptions = {}): Promise<{ child: ChildProcess, port: number }> {
  return new Promise((resolve, reject) => {
    const child = spawnChild(process.execPath, [...(options.nodeOptions ?? []), options.script ?? join(__dirname, 'server.js'), kind], options.cpu, { stdio: ['ignore', 'pipe', 'pipe'] })
    let listening = false
    let early = ''
    child.stderr?.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk)
      if (!listening && early.length < 4096) early += chunk.toString()
    })
    const timer = setTimeout(() => { child.kill(); reject(new Error(`${kind} did not start in 10 s`)) }, 10_000)
    child.once('error', (err) => { clearTimeout(timer); reject(new Error(`${kind} could not be started: ${err.message}`)) })
    child.once('exit', (code) => {
      clearTimeout(timer)
      if (listening) return
      const said = early.split('\n').find((line) => line.trim() !== '')?.trim()
      reject(new Error(`${kind} exited with ${String(code)} before listening${said === undefined ? '' : `: ${said}`}`))
    })
    child.stdout?.on('data', (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString())
      if (match !== null && !listening) { listening = true; clearTimeout(timer); resolve({ child, port: Number(match[1]) }) }
    })
  })
}

/** Asks the server for its stats (SIGUSR2) and waits at most 5 s for them. */
export function serverStats (child: ChildProcess): Promise<ServerStats> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.stdout?.off('data', onData); reject(new Error('no stats in 5 s')) }, 5000)
    const onData = (chunk: Buffer): void => {
      const match = /stats (\{.*\})/.exec(chunk.toString())
      if (match !== null) { clearTimeout(timer); child.stdout?.off('data', onData); resolve(JSON.parse(match[1])) }
    }
    child.stdout?.on('data', onData)
    child.kill('SIGUSR2')
  })
}
