/**
 * The bench's child processes (the servers, wrk): each pinned to a CPU of its
 * own with taskset when the machine allows it, so that the server and the load
 * generator do not take turns on the same core; every one of them killed, and
 * every temporary folder removed, when the runner ends, however it ends.
 */
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Where the server and the load generator run: one CPU each, or not pinned and why. */
export interface Pinning {
  cpus?: { server: number, load: number }
  unpinned?: string
}

/** CPUs from a list such as `0,1` or `0-3,8`. */
export function parseCpuList (list: string): number[] {
  const cpus: number[] = []
  for (const part of list.trim().split(',')) {
    const [from, to = from] = part.split('-').map(Number)
    if (!Number.isInteger(from) || !Number.isInteger(to)) continue
    for (let cpu = from; cpu <= to; cpu++) cpus.push(cpu)
  }
  return cpus
}

/**
 * The first two CPUs this process may run on, one for the server and one for
 * the load generator, if taskset is installed and there are two; BENCH_PIN=0
 * turns pinning off.
 */
export function choosePinning (): Pinning {
  if (process.env.BENCH_PIN === '0') return { unpinned: 'BENCH_PIN=0' }
  const out = spawnSync('taskset', ['-pc', String(process.pid)], { encoding: 'utf8', timeout: 5000 })
  if (out.error !== undefined) return { unpinned: 'taskset is not installed' }
  const list = /:\s*([\d,-]+)\s*$/m.exec(out.stdout)
  if (out.status !== 0 || list === null) return { unpinned: `taskset could not read this process's CPUs: ${out.stderr.trim()}` }
  const cpus = parseCpuList(list[1])
  if (cpus.length < 2) return { unpinned: `only one CPU available (${list[1]})` }
  return { cpus: { server: cpus[0], load: cpus[1] } }
}

/** Pins every thread of this process (the runner: the checks, and autocannon when it is the load generator) to `cpu`. */
export function pinSelf (cpu: number): void {
  const out = spawnSync('taskset', ['-a', '-pc', String(cpu), String(process.pid)], { encoding: 'utf8', timeout: 5000 })
  if (out.error !== undefined || out.status !== 0) throw new Error(`taskset could not pin the runner to CPU ${cpu}: ${out.error?.message ?? out.stderr.trim()}`)
}

const running = new Set<ChildProcess>()

/** Starts `command` pinned to `cpu` (through taskset, which then becomes the command: same process) or not pinned; kept until it exits. */
export function spawnChild (command: string, args: string[], cpu: number | undefined, options: SpawnOptions): ChildProcess {
  const child = cpu === undefined ? spawn(command, args, options) : spawn('taskset', ['-c', String(cpu), command, ...args], options)
  running.add(child)
  child.once('exit', () => running.delete(child))
  child.once('error', () => running.delete(child))
  return child
}

const folders = new Set<string>()

/** A new folder in the system's temp directory, removed by removeFolder or at the end. */
export function makeFolder (): string {
  const folder = mkdtempSync(join(tmpdir(), 'fastify-soap-bench-'))
  folders.add(folder)
  return folder
}

export function removeFolder (folder: string): void {
  rmSync(folder, { recursive: true, force: true })
  folders.delete(folder)
}

/** Kills every child still running and removes the temporary folders left: at the runner's exit, or when it is interrupted. */
export function cleanUp (): void {
  for (const child of running) child.kill('SIGKILL')
  running.clear()
  for (const folder of folders) removeFolder(folder)
}
