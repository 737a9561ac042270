/**
 * `npm run bench:profile`: where fastify-soap's time goes in the large
 * workloads of `npm run bench`. For each workload (PROFILE_WORKLOADS, ids
 * comma-separated; text, large, records-1mb and text-1mb unless set), the
 * fastify-soap server of benchmarks/http/server.ts runs under
 * `node --cpu-prof`, pinned to the server's CPU with taskset while the load
 * generator has another, as `npm run bench` runs it; each request is checked
 * once, then driven (50 connections) for PROFILE_WARMUP (2) s, then
 * PROFILE_SECONDS (10) s, the window summarised; the server is then ended,
 * which writes its profile.
 *
 * Prints, per workload, the self time of the window's samples by stage,
 * classified by each profile node's script and function (`stageOf`), and the
 * PROFILE_TOP (15) functions of most self time. The idle time (the server
 * waiting for requests) is left out of the shares. PROFILE_KEEP=<folder>
 * keeps the .cpuprofile files there (open them in Chrome's DevTools).
 * Bounded: per workload, 10 s to start, 5 s per check, the load runs, 10 s to exit.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ChildProcess } from 'node:child_process'
import { choosePinning, cleanUp, makeFolder, pinSelf, removeFolder } from '../http/children'
import { checkOnce, drive, type Settings } from '../http/measure'
import { startServer } from '../http/process'
import { generator, workloads } from '../http/run'

export type Stage = 'reading' | 'codec read' | 'validation' | 'writing' | 'fastify-soap, other' | 'garbage collection' | 'Fastify and Node'

export const STAGES: readonly Stage[] = ['reading', 'codec read', 'validation', 'writing', 'fastify-soap, other', 'garbage collection', 'Fastify and Node']

/** What each stage holds, for the tables' legend. */
export const STAGE_TEXT: Record<Stage, string> = {
  reading: 'lib/xml (the reader, the tree, names, characters) and lib/soap (the envelope decoder, charset, media type), lib/plugin/parser and body',
  'codec read': 'lib/codec but its writer and validation: the tree read into the input object',
  validation: 'ajv: its generated validators (no script) and its runtime, and lib/codec/validation',
  writing: 'lib/codec/write, write-compiled (the generated writers) and write-text, lib/xml/write, escape and pieces, lib/soap/writer and xop-write',
  'fastify-soap, other': 'the rest of lib/ (plugin hooks, dispatch, the pipeline, the reply)',
  'garbage collection': 'V8\'s (garbage collector) node',
  'Fastify and Node': 'everything else: Fastify, Node\'s HTTP and streams, (program), the handler. ' +
    'Native code (a regular expression, a builtin) and Node\'s own scripts count to the nearest script above them: lib/\'s stage, or this one'
}

interface CallFrame { functionName: string, url: string, lineNumber: number }
interface ProfileNode { id: number, callFrame: CallFrame, children?: number[] }
export interface CpuProfile { nodes: ProfileNode[], startTime: number, samples: number[], timeDeltas: number[] }

/** Native code (a regular expression, a builtin) or Node's own scripts: counted to the script that called it. */
function isNative ({ functionName, url }: CallFrame): boolean {
  return (url === '' || url.startsWith('node:')) && !/^\((idle|garbage collector|program|root)\)$/.test(functionName) && !/^validate\d*$/.test(functionName)
}

/**
 * The stage a profile node's self time counts to, by its script's path in lib/
 * and its function; `caller`: for native code and Node's scripts, the nearest
 * frame above it from a script of the application or of node_modules.
 */
export function stageOf (frame: CallFrame, caller?: CallFrame): Stage | 'idle' {
  if (caller !== undefined && isNative(frame)) return stageOf(caller)
  const { functionName, url } = frame
  if (functionName === '(idle)') return 'idle'
  if (functionName === '(garbage collector)') return 'garbage collection'
  const path = url.replace(/\\/g, '/')
  // ajv compiles each schema's validator with new Function: no script, a name validate<N>.
  if (path === '' && /^validate\d*$/.test(functionName)) return 'validation'
  if (path.includes('/node_modules/ajv/')) return 'validation'
  const lib = /\/lib\/(.+?)\.[cm]?[jt]s$/.exec(path)
  if (lib === null || path.includes('/node_modules/')) return 'Fastify and Node'
  const file = lib[1]
  if (/^(codec\/write|codec\/write-compiled|codec\/write-text|xml\/write|xml\/escape|xml\/pieces|soap\/writer|soap\/xop-write)$/.test(file)) return 'writing'
  if (file === 'codec/validation') return 'validation'
  if (file.startsWith('codec/')) return 'codec read'
  if (file.startsWith('xml/') || file.startsWith('soap/') || file === 'plugin/parser' || file === 'plugin/body') return 'reading'
  return 'fastify-soap, other'
}

export interface Summary {
  /** Self time of the non-idle samples, ms. */
  busy: number
  idle: number
  stages: Record<Stage, number>
  /** The functions of most self time: name, script:line (relative to lib/ or node_modules/), stage, ms. */
  top: Array<{ name: string, where: string, stage: Stage, ms: number }>
}

function shortUrl (url: string): string {
  const path = url.replace(/^file:\/\//, '').replace(/\\/g, '/')
  const at = Math.max(path.lastIndexOf('/node_modules/'), -1)
  if (at >= 0) return path.slice(at + '/node_modules/'.length)
  const lib = path.lastIndexOf('/lib/')
  if (lib >= 0) return path.slice(lib + 1)
  return path === '' ? '(no script)' : path.split('/').slice(-2).join('/')
}

/**
 * Self time per stage and per function, of the samples taken at or after
 * `from` (µs, the profile's clock: the monotonic one of process.hrtime).
 * Each sample lasts until the next one.
 */
export function summarize (profile: CpuProfile, from = 0, top = 15): Summary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id)
  /** The nearest caller of a native node from a script; undefined for any other. */
  const callerOf = (id: number): CallFrame | undefined => {
    const self = byId.get(id)?.callFrame
    if (self === undefined || !isNative(self)) return undefined
    for (let up = parent.get(id); up !== undefined; up = parent.get(up)) {
      const frame = byId.get(up)?.callFrame
      if (frame !== undefined && !isNative(frame) && frame.url !== '') return frame
    }
    return undefined
  }
  const stages = Object.fromEntries(STAGES.map((s) => [s, 0])) as Record<Stage, number>
  const functions = new Map<string, { name: string, where: string, stage: Stage, ms: number }>()
  let idle = 0
  let busy = 0
  let time = profile.startTime
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i]
    const lasts = (profile.timeDeltas[i + 1] ?? 0) / 1000
    if (time < from || lasts <= 0) continue
    const frame = byId.get(profile.samples[i])?.callFrame
    if (frame === undefined) continue
    const caller = callerOf(profile.samples[i])
    const stage = stageOf(frame, caller)
    if (stage === 'idle') { idle += lasts; continue }
    busy += lasts
    stages[stage] += lasts
    const at = (f: CallFrame): string => `${shortUrl(f.url)}${f.url === '' ? '' : `:${f.lineNumber + 1}`}`
    const where = caller === undefined ? at(frame) : `${at(frame)}, from ${caller.functionName === '' ? '(anonymous)' : caller.functionName} ${at(caller)}`
    const key = `${frame.functionName}@${where}@${stage}`
    const entry = functions.get(key) ?? { name: frame.functionName === '' ? '(anonymous)' : frame.functionName, where, stage, ms: 0 }
    entry.ms += lasts
    functions.set(key, entry)
  }
  return { busy, idle, stages, top: [...functions.values()].sort((a, b) => b.ms - a.ms).slice(0, top) }
}

const pct = (part: number, whole: number): string => whole > 0 ? `${(100 * part / whole).toFixed(1)} %` : '—'

export function renderSummary (title: string, s: Summary, requests: number): string {
  const perRequest = (ms: number): string => requests > 0 ? (1000 * ms / requests).toFixed(0) : '—'
  return [
    `### ${title}`,
    '',
    `${requests.toLocaleString('en-US')} requests in the window; busy ${(s.busy / 1000).toFixed(2)} s, idle ${(s.idle / 1000).toFixed(2)} s.`,
    '',
    '| stage | self time | share of busy | µs per request |',
    '|---|---|---|---|',
    ...STAGES.map((stage) => `| ${stage} | ${(s.stages[stage]).toFixed(0)} ms | ${pct(s.stages[stage], s.busy)} | ${perRequest(s.stages[stage])} |`),
    '',
    '| function | script:line | stage | self ms | share of busy |',
    '|---|---|---|---|---|',
    ...s.top.map((f) => `| ${f.name.replace(/\|/g, '\\|')} | ${f.where} | ${f.stage} | ${f.ms.toFixed(0)} | ${pct(f.ms, s.busy)} |`)
  ].join('\n')
}

function setting (name: string, fallback: number): number {
  const raw = process.env[name]
  const value = raw === undefined || raw === '' ? fallback : Number(raw)
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number ≥ 1, not ${String(raw)}`)
  return value
}

/** Ends the server (SIGTERM: it closes, then exits, and Node writes the profile); killed after 10 s. */
async function stop (child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const gone = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
  await gone
  clearTimeout(timer)
}

async function main (): Promise<void> {
  process.on('exit', cleanUp)
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => { cleanUp(); process.exit(130) })
  const ids = (process.env.PROFILE_WORKLOADS ?? 'text,large,records-1mb,text-1mb').split(',').map((id) => id.trim())
  const plan = workloads(undefined, 1)
  for (const id of ids) if (!plan.some((w) => w.id === id && w.loads.soap !== undefined)) throw new Error(`PROFILE_WORKLOADS: no workload ${id} with fastify-soap`)
  const pinning = choosePinning()
  if (pinning.cpus !== undefined) pinSelf(pinning.cpus.load)
  const settings: Settings = {
    rounds: 1,
    seconds: setting('PROFILE_SECONDS', 10),
    warmup: setting('PROFILE_WARMUP', 2),
    uploads: 1,
    connections: 50,
    pipelining: 1,
    generator: generator(),
    ...pinning
  }
  const keep = process.env.PROFILE_KEEP
  if (keep !== undefined && keep !== '') mkdirSync(keep, { recursive: true })
  const where = pinning.cpus === undefined ? `not pinned (${pinning.unpinned ?? ''})` : `server on CPU ${pinning.cpus.server}, ${settings.generator.name} on CPU ${pinning.cpus.load}`
  process.stdout.write(`# fastify-soap under node --cpu-prof: ${settings.generator.name} ${settings.generator.version}, ${where}, ` +
    `50 connections, ${settings.warmup} s warm-up, ${settings.seconds} s profiled; Node ${process.version}\n`)
  for (const id of ids) {
    const workload = plan.find((w) => w.id === id)
    if (workload === undefined) continue
    const load = workload.loads.soap
    const folder = makeFolder()
    try {
      process.stderr.write(`${id}: starting fastify-soap under --cpu-prof…\n`)
      const { child, port } = await startServer('soap', { cpu: pinning.cpus?.server, nodeOptions: ['--cpu-prof', `--cpu-prof-dir=${folder}`] })
      try {
        for (const body of load.bodies) {
          const wrong = await checkOnce(port, load, body)
          if (wrong !== undefined) throw new Error(`${id}: a request failed its check: ${wrong}`)
        }
        await drive(port, load, settings, settings.warmup)
        // The profile's timestamps are on the monotonic clock process.hrtime reads, in µs.
        const from = Number(process.hrtime.bigint() / 1000n)
        const result = await drive(port, load, settings, settings.seconds)
        await stop(child)
        const file = readdirSync(folder).find((name) => name.endsWith('.cpuprofile'))
        if (file === undefined) throw new Error(`${id}: the server wrote no profile`)
        if (keep !== undefined && keep !== '') copyFileSync(join(folder, file), join(keep, `${id}.cpuprofile`))
        const profile = JSON.parse(readFileSync(join(folder, file), 'utf8')) as CpuProfile
        const summary = summarize(profile, from, setting('PROFILE_TOP', 15))
        process.stdout.write('\n' + renderSummary(`${workload.title}: ${Math.round(result.rps)} req/s under the profiler`, summary, result.requests) + '\n')
      } finally {
        await stop(child)
      }
    } finally {
      removeFolder(folder)
    }
  }
  process.stdout.write(`\nStages: ${STAGES.map((s) => `${s}: ${STAGE_TEXT[s]}`).join('; ')}.\n`)
}

if (require.main === module) main().catch((err) => { console.error(err); process.exit(1) })
