/**
 * The shape of lib/: each file belongs to one room (a subsystem), rooms are
 * ranked, and imports flow one way, from a room to rooms ranked below it,
 * type imports included; no file imports itself back through others (docs/architecture.md).
 */
import { test, type TestContext } from 'node:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join, posix, relative } from 'node:path'

const ROOT = join(__dirname, '..', '..', '..')
const LIB = join(ROOT, 'lib')

/** The rooms, lowest first. A file may import from its own room and from rooms ranked below it. */
const ROOMS: ReadonlyArray<{ readonly room: string, readonly rank: number, readonly holds: (file: string) => boolean }> = [
  { room: 'base', rank: 0, holds: (file) => file === 'namespaces.ts' || file === 'errors.ts' || file === 'deadline.ts' },
  // The OpenTelemetry API, loaded if it can be: nothing of the plugin's.
  { room: 'telemetry', rank: 0, holds: (file) => file.startsWith('telemetry/') },
  { room: 'xml', rank: 1, holds: (file) => file.startsWith('xml/') },
  { room: 'soap', rank: 2, holds: (file) => file.startsWith('soap/') },
  { room: 'types', rank: 3, holds: (file) => ['types.ts', 'security-types.ts', 'infer.ts'].includes(file) },
  { room: 'codec', rank: 4, holds: (file) => file.startsWith('codec/') },
  { room: 'service', rank: 5, holds: (file) => file.startsWith('service/') },
  { room: 'ws', rank: 6, holds: (file) => file.startsWith('ws/') },
  { room: 'wsdl', rank: 7, holds: (file) => file.startsWith('wsdl/') },
  // The two descriptions of a service, generated and given, side by side: neither imports the other.
  { room: 'contract', rank: 7, holds: (file) => file.startsWith('contract/') },
  { room: 'plugin', rank: 8, holds: (file) => file === 'options.ts' || file.startsWith('plugin/') },
  { room: 'entry', rank: 9, holds: (file) => file === 'index.ts' || file === 'index.mts' },
  { room: 'cli', rank: 10, holds: (file) => file.startsWith('cli/') }
]

/** Longer files are split by the stage or concern they hold. */
const MAX_LINES = 600

function roomOf (file: string): { readonly room: string, readonly rank: number } | undefined {
  return ROOMS.find((room) => room.holds(file))
}

function sources (dir: string): string[] {
  const out: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...sources(path)); else if (entry.name.endsWith('.ts')) out.push(path)
  }
  return out
}

// Every form a module names another in: import, import type, export … from, import('…'), require('…').
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g

/** Each lib/ file (relative, with '/') and the lib/ files it imports. */
function importGraph (files: ReadonlyMap<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const [file, text] of files) {
    const targets: string[] = []
    for (const match of text.matchAll(SPECIFIER)) {
      const target = posix.normalize(posix.join(posix.dirname(file), match[1]))
      targets.push(target.endsWith('.ts') ? target : `${target.replace(/\.js$/, '')}.ts`)
    }
    graph.set(file, targets)
  }
  return graph
}

/** The imports that go up or across: to a room ranked the same or higher than the importer's own. */
function upwardImports (graph: ReadonlyMap<string, readonly string[]>): string[] {
  const out: string[] = []
  for (const [file, targets] of graph) {
    const from = roomOf(file)
    for (const target of targets) {
      const to = roomOf(target)
      if (from === undefined || to === undefined) continue
      if (from.room !== to.room && to.rank >= from.rank) out.push(`${file} (${from.room}) imports ${target} (${to.room})`)
    }
  }
  return out
}

/** Every cycle's files, one list per strongly connected component of more than one file (or a file importing itself). */
function cycles (graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's strongly connected components; the graphs are small enough to recurse.
  let index = 0
  const indices = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const out: string[][] = []
  const visit = (v: string): void => {
    indices.set(v, index)
    low.set(v, index)
    index++
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue
      if (!indices.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number))
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) as number, indices.get(w) as number))
      }
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = []
      let w: string
      do {
        w = stack.pop() as string
        onStack.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(component.sort())
    }
  }
  for (const v of graph.keys()) if (!indices.has(v)) visit(v)
  return out
}

function libFiles (): Map<string, string> {
  const files = new Map<string, string>()
  for (const path of sources(LIB)) files.set(relative(LIB, path).split('\\').join('/'), readFileSync(path, 'utf8'))
  return files
}

test('the checks find an upward import and a cycle', (t: TestContext) => {
  const graph = importGraph(new Map([
    ['xml/a.ts', "import type { B } from '../soap/b'"],
    ['soap/b.ts', "import { C } from './c'\nexport { D } from './d'"],
    ['soap/c.ts', "import { B } from './b.js'"],
    ['soap/d.ts', "const x = require('../xml/a')"]
  ]))
  t.assert.deepStrictEqual(graph.get('soap/b.ts'), ['soap/c.ts', 'soap/d.ts'])
  t.assert.deepStrictEqual(upwardImports(graph), ['xml/a.ts (xml) imports soap/b.ts (soap)'])
  t.assert.deepStrictEqual(cycles(graph), [['soap/b.ts', 'soap/c.ts', 'soap/d.ts', 'xml/a.ts']])
})

test('every lib/ file belongs to a room', (t: TestContext) => {
  const homeless = [...libFiles().keys()].filter((file) => roomOf(file) === undefined)
  t.assert.deepStrictEqual(homeless, [])
})

test('lib/ imports flow one way: xml ← soap ← types ← codec ← service ← ws ← wsdl, contract ← plugin ← index ← cli; wsdl/ and contract/, of one rank, import neither the other', (t: TestContext) => {
  t.assert.deepStrictEqual(upwardImports(importGraph(libFiles())), [])
})

test('service/ imports no protocol: a protocol plugs in through service/protocol.ts, from ws/ above it', (t: TestContext) => {
  const graph = importGraph(new Map([
    ['service/pipeline.ts', "import { readAddressing } from '../ws/addressing/read'"],
    ['ws/addressing/read.ts', "import type { Protocol } from '../../service/protocol'"]
  ]))
  t.assert.deepStrictEqual(upwardImports(graph), ['service/pipeline.ts (service) imports ws/addressing/read.ts (ws)'])
  const service = [...importGraph(libFiles())].filter(([file]) => file.startsWith('service/'))
  t.assert.deepStrictEqual(service.flatMap(([file, targets]) => targets.filter((target) => target.startsWith('ws/')).map((target) => `${file} imports ${target}`)), [])
})

/** What a description may read of service/: the declaration it describes or writes, and the description compile emits. */
const DESCRIPTION_FILES = new Set(['service/declaration.ts', 'service/description.ts'])

/** The service/ files other than the description that `from`'s files reach through their imports, each with a chain. */
function runtimeReached (graph: ReadonlyMap<string, readonly string[]>, from: (file: string) => boolean): string[] {
  const out: string[] = []
  const seen = new Set<string>()
  const queue: string[][] = [...graph.keys()].filter(from).map((file) => [file])
  for (const file of graph.keys()) if (from(file)) seen.add(file)
  while (queue.length > 0) {
    const chain = queue.shift() as string[]
    for (const target of graph.get(chain[chain.length - 1]) ?? []) {
      if (seen.has(target)) continue
      seen.add(target)
      if (target.startsWith('service/') && !DESCRIPTION_FILES.has(target)) out.push([...chain, target].join(' → '))
      else queue.push([...chain, target])
    }
  }
  return out
}

const DESCRIBES = (file: string): boolean => file.startsWith('wsdl/') || file.startsWith('contract/')

test('wsdl/ and contract/ read a service\'s description (service/description.ts), not its runtime', (t: TestContext) => {
  const graph = importGraph(new Map([
    ['wsdl/page.ts', "import type { ServiceDescription } from '../service/description'\nimport { x } from '../ws/a'"],
    ['ws/a.ts', "import type { Operation } from '../service/compile'"],
    ['contract/read.ts', "import type { ServiceDeclaration } from '../service/declaration'"],
    ['service/description.ts', '']
  ]))
  t.assert.deepStrictEqual(runtimeReached(graph, DESCRIBES), ['wsdl/page.ts → ws/a.ts → service/compile.ts'])
  t.assert.deepStrictEqual(runtimeReached(importGraph(libFiles()), DESCRIBES), [])
})

// An import of Fastify itself (or fastify-plugin), at the start of a line: `import type …` names its types only.
const FASTIFY = /^import\s+(type\s+)?(?:[^'";]*?\s*from\s*)?['"]fastify(?:-plugin)?['"]|\brequire\s*\(\s*['"]fastify(?:-plugin)?['"]/gm

/** The imports of Fastify that break its rule: a value import below plugin/, or a ws/ file other than a protocol's route. */
function fastifyBreaches (files: ReadonlyMap<string, string>): string[] {
  const plugin = (ROOMS.find((room) => room.room === 'plugin') as { rank: number }).rank
  const out: string[] = []
  for (const [file, text] of files) {
    const room = roomOf(file)
    for (const match of text.matchAll(FASTIFY)) {
      if (room !== undefined && room.rank < plugin && match[1] === undefined) out.push(`${file} imports Fastify's values`)
      if (file.startsWith('ws/') && !/^ws\/[^/]+\/route\.ts$/.test(file)) out.push(`${file} names Fastify`)
    }
  }
  return out
}

test('docs/architecture.md "Where a protocol plugs in": below plugin/, Fastify is named by its types only; in ws/, only by a protocol\'s route (ws/<protocol>/route.ts)', (t: TestContext) => {
  t.assert.deepStrictEqual(fastifyBreaches(new Map([
    ['ws/addressing/route.ts', "import type { FastifyInstance } from 'fastify'"],
    ['ws/security/verify.ts', "import type { FastifyRequest } from 'fastify'"],
    ['service/pipeline.ts', "import Fastify from 'fastify'"],
    ['plugin/endpoint.ts', "import fp from 'fastify-plugin'"],
    ['contract/cli.ts', "const line = \"import { SoapFault } from 'fastify-soap'\""]
  ])), ['ws/security/verify.ts names Fastify', 'service/pipeline.ts imports Fastify\'s values'])
  t.assert.deepStrictEqual(fastifyBreaches(libFiles()), [])
})

test('lib/ has no import cycle, type imports included', (t: TestContext) => {
  t.assert.deepStrictEqual(cycles(importGraph(libFiles())), [])
})

test('every import in lib/ names a file that exists', (t: TestContext) => {
  const files = libFiles()
  const missing: string[] = []
  for (const [file, targets] of importGraph(files)) {
    for (const target of targets) if (!files.has(target)) missing.push(`${file} → ${target}`)
  }
  t.assert.deepStrictEqual(missing, [])
})

test(`no lib/ file is longer than ${MAX_LINES} lines`, (t: TestContext) => {
  const long: string[] = []
  for (const [file, text] of libFiles()) {
    const lines = text.split('\n').length
    if (lines > MAX_LINES) long.push(`${file}: ${lines}`)
  }
  t.assert.deepStrictEqual(long, [])
})

test('benchmarks/ has no import cycle', (t: TestContext) => {
  const dir = join(ROOT, 'benchmarks')
  const files = new Map<string, string>()
  for (const path of sources(dir)) files.set(relative(dir, path).split('\\').join('/'), readFileSync(path, 'utf8'))
  t.assert.deepStrictEqual(cycles(importGraph(files)), [])
})
