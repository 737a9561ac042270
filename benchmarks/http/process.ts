/** Starting a server of benchmarks/http/server.ts in its own process, and reading its stats. */
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'

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

export function startServer (kind: string, nodeArgs: string[] = []): Promise<{ child: ChildProcess, port: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, join(__dirname, 'server.js'), kind], { stdio: ['ignore', 'pipe', 'inherit'] })
    const timer = setTimeout(() => { child.kill(); reject(new Error(`${kind} did not start in 10 s`)) }, 10_000)
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`${kind} exited with ${String(code)} before listening`)) })
    child.stdout?.on('data', (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString())
      if (match !== null) { clearTimeout(timer); resolve({ child, port: Number(match[1]) }) }
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
