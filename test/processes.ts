/**
 * Child processes for the tests of several instances (docs/deploy.md,
 * docs/addressing.md "Durable replies"): a redis-server on a free loopback
 * port, no persistence, and ways to wait for and stop a child.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import type { TestContext } from 'node:test'
import { requireClient } from './interop'

/** A free TCP port on 127.0.0.1 (bound, then let go). */
export async function freePort (): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** Waits (at most `ms`) for `pattern` on a child's stdout; the first match. */
export async function waitFor (child: ChildProcess, pattern: RegExp, ms: number, what: string): Promise<RegExpExecArray> {
  return await new Promise((resolve, reject) => {
    let out = ''
    const timer = setTimeout(() => { cleanup(); reject(new Error(`${what}: nothing matching ${String(pattern)} in ${ms} ms:\n${out}`)) }, ms)
    const onData = (chunk: Buffer): void => {
      out += chunk.toString('utf8')
      const match = pattern.exec(out)
      if (match !== null) { cleanup(); resolve(match) }
    }
    const onExit = (code: number | null): void => { cleanup(); reject(new Error(`${what} exited (${String(code)}) before it was ready:\n${out}`)) }
    const cleanup = (): void => { clearTimeout(timer); child.stdout?.off('data', onData); child.off('exit', onExit) }
    child.stdout?.on('data', onData)
    child.once('exit', onExit)
  })
}

/** Stops a child: SIGTERM, then SIGKILL after 5 s; resolves once it has exited. */
export async function stop (child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
    child.once('exit', () => { clearTimeout(timer); resolve() })
    child.kill('SIGTERM')
  })
}

/** A redis-server on a free loopback port, no persistence; stopped when the test ends. Undefined (skipped) when there is none. */
export async function startRedis (t: TestContext): Promise<{ port: number, child: ChildProcess } | undefined> {
  if (!requireClient(t, 'redis-server (Debian redis-server)', 'redis-server', ['--version'])) return undefined
  const port = await freePort()
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'inherit'] })
  t.after(() => stop(child))
  await waitFor(child, /Ready to accept connections/, 10_000, 'redis-server')
  return { port, child }
}
