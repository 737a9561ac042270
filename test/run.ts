/**
 * `npm test` after the build (README "Tests"): lint, the test files under c8,
 * then the type checks; a short report, then the closing lines of the
 * node test runner (`# pass N`, `# fail N`...) and `N passed, N failed, N
 * skipped`. The whole TAP is written to coverage/tests.tap.
 *
 *   node dist/test/run.js [--report-dir DIR] [lint|unit|types...] [-- test files...]
 *
 * Test files run concurrently (TEST_CONCURRENCY, by default the number of
 * CPUs and at least 2). Under CI (test/ci.ts) the coverage thresholds of .c8rc.json are a
 * gate: every test runs there. Elsewhere tests that need a missing tool or
 * the shared fixtures are skipped, so that coverage is reported, not gated.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { basename, join, relative } from 'node:path'
import { underCI } from './ci'

const ROOT = join(__dirname, '..', '..')
const BIN = join(ROOT, 'node_modules', '.bin')
const STEPS = ['lint', 'unit', 'types'] as const
type Step = typeof STEPS[number]

/** At most this many distinct skip reasons are printed; the TAP holds them all. */
const REASONS_SHOWN = 12

interface Options { steps: Step[], files: string[], reportDir: string }

/** Reads the command line; an unknown step or option throws. */
export function parseArgs (args: readonly string[]): Options {
  const steps: Step[] = []
  let reportDir = join(ROOT, 'coverage')
  let files: string[] | undefined
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    if (arg === '--') { files = args.slice(i + 1); break }
    if (arg === '--report-dir' && i + 1 < args.length) reportDir = args[++i]
    else if ((STEPS as readonly string[]).includes(arg)) steps.push(arg as Step)
    else throw new Error(`unknown argument ${arg}: node dist/test/run.js [--report-dir DIR] [${STEPS.join('|')}...] [-- files...]`)
  }
  return { steps: steps.length === 0 ? [...STEPS] : steps, files: files ?? testFiles(), reportDir }
}

/** Every test file: dist/test/**\/*.test.js and test/esm/*.test.mjs (node --test runs them in the order of their names). */
function testFiles (): string[] {
  const found: string[] = []
  const walk = (dir: string, pattern: RegExp): void => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`
      if (entry.isDirectory()) walk(path, pattern)
      else if (pattern.test(entry.name)) found.push(path)
    }
  }
  walk('dist/test', /\.test\.js$/)
  walk('test/esm', /\.test\.mjs$/)
  return found
}

/** What the runner decides from the environment: how many files at once, and whether coverage is a gate. */
export function plan (env: NodeJS.ProcessEnv): { concurrency: number, gateCoverage: boolean } {
  const asked = Number(env.TEST_CONCURRENCY)
  const concurrency = Number.isSafeInteger(asked) && asked > 0 ? asked : Math.max(2, availableParallelism())
  return { concurrency, gateCoverage: underCI(env) }
}

interface Outcome { status: number | null, output: string, ms: number }

/** Runs a command in the repository; its output is printed as it comes (inherit) or kept. */
function exec (command: string, args: readonly string[], inherit: boolean): Promise<Outcome> {
  const started = Date.now()
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: inherit ? 'inherit' : ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => { output += chunk })
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => { output += chunk })
    child.on('error', (err) => resolve({ status: null, output: `${output}${String(err)}\n`, ms: Date.now() - started }))
    child.on('close', (status) => resolve({ status, output, ms: Date.now() - started }))
  })
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`
/** A path as printed: relative to the repository when inside it. */
const shown = (path: string): string => relative(ROOT, path).startsWith('..') ? path : relative(ROOT, path)

/** Runs commands one after the other until one fails; one line when all pass, their output when one fails. */
async function check (name: string, commands: ReadonlyArray<[string, string[]]>): Promise<boolean> {
  let ms = 0
  for (const [command, args] of commands) {
    const outcome = await exec(command, args, false)
    ms += outcome.ms
    if (outcome.status !== 0) {
      process.stdout.write(`${outcome.output}✖ ${name}: ${basename(command)} ${args.join(' ')} exited ${String(outcome.status)}\n`)
      return false
    }
  }
  console.log(`✔ ${name} (${seconds(ms)})`)
  return true
}

/** The counts of a TAP stream's closing lines (`# pass 3`), and how often each skip reason was given. */
export function readTap (tap: string): { counts: Record<string, number>, reasons: Map<string, number> } {
  const counts: Record<string, number> = {}
  for (const match of tap.matchAll(/^# (tests|suites|pass|fail|cancelled|skipped|todo) (\d+)$/gm)) counts[match[1]] = Number(match[2])
  const reasons = new Map<string, number>()
  for (const match of tap.matchAll(/^\s*ok \d+ - .*? # SKIP ?(.*)$/gm)) {
    const reason = match[1].trim() === '' ? '(no reason given)' : match[1].trim()
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1)
  }
  return { counts, reasons }
}

async function unit (options: Options, failed: string[]): Promise<Record<string, number> | undefined> {
  const { concurrency, gateCoverage } = plan(process.env)
  const tapFile = join(options.reportDir, 'tests.tap')
  mkdirSync(options.reportDir, { recursive: true })
  rmSync(tapFile, { force: true })
  const dirs = ['--report-dir', options.reportDir, '--temp-directory', join(options.reportDir, 'tmp')]
  console.log(`▶ ${options.files.length} test files, ${concurrency} at a time${gateCoverage ? ', coverage gated (CI)' : ''}`)
  const run = await exec(join(BIN, 'c8'), [...dirs, '--check-coverage=false', process.execPath, '--test', `--test-concurrency=${concurrency}`,
    '--test-reporter=dot', '--test-reporter-destination=stdout', '--test-reporter=tap', `--test-reporter-destination=${tapFile}`,
    ...options.files], true)
  if (!existsSync(tapFile)) {
    failed.push('the test files (no TAP written)')
    return undefined
  }
  const { counts, reasons } = readTap(readFileSync(tapFile, 'utf8'))
  if (run.status !== 0 && (counts.fail ?? 0) === 0) failed.push(`the test run (exited ${String(run.status)})`)
  const sorted = [...reasons].sort((a, b) => b[1] - a[1])
  for (const [reason, count] of sorted.slice(0, REASONS_SHOWN)) console.log(`﹣ skipped ${count}: ${reason}`)
  if (sorted.length > REASONS_SHOWN) console.log(`﹣ and ${sorted.length - REASONS_SHOWN} more skip reasons in ${shown(tapFile)}`)

  const coverage = await exec(join(BIN, 'c8'), ['check-coverage', ...dirs], false)
  if (coverage.status === 0) {
    console.log('✔ coverage meets the thresholds of .c8rc.json')
  } else if (gateCoverage) {
    const table = await exec(join(BIN, 'c8'), ['report', ...dirs, '--reporter=text'], false)
    process.stdout.write(table.output + coverage.output)
    failed.push('coverage')
  } else {
    const skipped = counts.skipped ?? 0
    console.log(`﹣ coverage under the thresholds of .c8rc.json, reported, not gated (the gate is under CI, where every test runs; ${skipped} skipped here)`)
  }
  console.log(`TAP: ${shown(tapFile)}, coverage: ${shown(join(options.reportDir, 'lcov-report', 'index.html'))}`)
  return counts
}

async function types (): Promise<boolean> {
  const { name, version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string, version: string }
  const pack = mkdtempSync(join(tmpdir(), 'fastify-soap-attw-'))
  try {
    // Packed as built, without lifecycle scripts: dist/ is not built again.
    return await check('types (tsc test/types, tstyche, attw)', [
      [join(BIN, 'tsc'), ['-p', 'test/types/tsconfig.json']],
      [join(BIN, 'tstyche'), []],
      ['npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', pack]],
      [join(BIN, 'attw'), [join(pack, `${name}-${version}.tgz`)]]
    ])
  } finally {
    rmSync(pack, { recursive: true, force: true })
  }
}

async function main (): Promise<void> {
  const options = parseArgs(process.argv.slice(2))
  const failed: string[] = []
  let counts: Record<string, number> | undefined
  for (const step of options.steps) {
    if (step === 'lint' && !await check('lint (eslint)', [[join(BIN, 'eslint'), ['.']]])) failed.push('lint')
    if (step === 'unit') counts = await unit(options, failed)
    if (step === 'types' && !await types()) failed.push('types')
  }
  // The closing lines: those of the node test runner, then one line of counts.
  if (counts !== undefined) {
    for (const key of ['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo']) console.log(`# ${key} ${counts[key] ?? 0}`)
    const extra = ['cancelled', 'todo'].filter((key) => (counts[key] ?? 0) > 0).map((key) => `, ${counts[key]} ${key}`).join('')
    console.log(`${counts.pass ?? 0} passed, ${counts.fail ?? 0} failed, ${counts.skipped ?? 0} skipped${extra}${failed.length > 0 ? `; failed: ${failed.join(', ')}` : ''}`)
  } else if (failed.length > 0) {
    console.log(`failed: ${failed.join(', ')}`)
  }
  if (failed.length > 0 || (counts?.fail ?? 0) > 0 || (counts?.cancelled ?? 0) > 0) process.exitCode = 1
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err)
    process.exitCode = 1
  })
}
