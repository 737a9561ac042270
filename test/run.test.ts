/**
 * README "Tests": `npm test` passes on a machine with nothing but Node and
 * npm. A test that needs a missing tool or the shared fixtures is skipped
 * with one line naming it, and fails under CI (one definition, test/ci.ts);
 * the runner (test/run.ts) gates coverage under CI only, and ends with the
 * closing lines a CI reads. Each run here is a child process of its own, in a
 * temporary folder, with the environment given and nothing of this runner's.
 */
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import { underCI } from './ci'

const HELPER = join(__dirname, 'helper.js')
const INTEROP = join(__dirname, 'interop.js')
const RUNNER = join(__dirname, 'run.js')

interface Run { status: number | null, output: string }

/** Runs node with `args` (at most 60 s); CI as given, none of the test runner's or coverage's variables. */
function node (args: string[], ci: string | undefined, cwd: string): Promise<Run> {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (!['CI', 'NODE_TEST_CONTEXT', 'NODE_V8_COVERAGE', 'NODE_OPTIONS', 'TEST_CONCURRENCY'].includes(key)) env[key] = value
  }
  if (ci !== undefined) env.CI = ci
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd, env, timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { output += chunk })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { output += chunk })
    child.on('close', (status) => resolve({ status, output }))
  })
}

async function folder (t: TestContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'fastify-soap-run-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  return dir
}

test('README "Tests": one definition of "under CI": CI set to anything but empty, false or 0', (t: TestContext) => {
  for (const [value, expected] of [[undefined, false], ['', false], ['false', false], ['FALSE', false], ['0', false], ['true', true], ['1', true], ['yes', true], ['woodpecker', true]] as const) {
    t.assert.strictEqual(underCI(value === undefined ? {} : { CI: value }), expected, `CI=${String(value)}`)
  }
})

test('README "Tests": a test that needs a missing tool, client or shared fixture is skipped with one line naming it; under CI (CI=true or CI=1) it fails', async (t: TestContext) => {
  const dir = await folder(t)
  const file = join(dir, 'needs.test.js')
  await writeFile(file, `const { test } = require('node:test')
const { missing, sharedFixture } = require(${JSON.stringify(HELPER)})
const { requireClient } = require(${JSON.stringify(INTEROP)})
test('a tool', (t) => { missing(t, 'frobctl is not installed') })
test('a client', (t) => { if (!requireClient(t, 'Frob (frob-cli)', 'fastify-soap-no-such-command', ['--version'])) return; throw new Error('installed?') })
test('a fixture', (t) => { if (sharedFixture(t, 'no-such-folder', 'x.wsdl') === undefined) return; throw new Error('there?') })
`)
  const expected = [
    '# SKIP frobctl is not installed',
    /# SKIP Frob \(frob-cli\) is not installed \(fastify-soap-no-such-command --version: .*ENOENT.*\); \.ci\/run installs it$/m,
    '# SKIP ../shared/fixtures/no-such-folder/x.wsdl is not beside this checkout'
  ]
  for (const ci of [undefined, 'false', '0']) {
    const run = await node(['--test', '--test-reporter=tap', file], ci, dir)
    t.assert.strictEqual(run.status, 0, `CI=${String(ci)}: ${run.output}`)
    t.assert.match(run.output, /^# skipped 3$/m)
    t.assert.match(run.output, /^# fail 0$/m)
    for (const line of expected) {
      if (typeof line === 'string') t.assert.ok(run.output.split('\n').some((l) => l.endsWith(line)), `CI=${String(ci)}: "${line}" in\n${run.output}`)
      else t.assert.match(run.output, line)
    }
    // One line each: no diagnostic repeats the reason.
    t.assert.strictEqual(run.output.split('\n').filter((l) => l.includes('frob-cli')).length, 1, run.output)
  }
  for (const ci of ['true', '1']) {
    const run = await node(['--test', '--test-reporter=tap', file], ci, dir)
    t.assert.strictEqual(run.status, 1, `CI=${ci}: ${run.output}`)
    t.assert.match(run.output, /^# fail 3$/m, `CI=${ci}`)
    t.assert.match(run.output, /frobctl is not installed \(under CI every test runs\)/)
    t.assert.match(run.output, /no-such-folder\/x\.wsdl is not beside this checkout \(under CI every test runs\)/)
  }
})

test('README "Tests": the runner prints a dot per test, the skip reasons, the node test runner\'s closing lines and "N passed, N failed, N skipped", keeps the TAP; coverage is reported, and a gate under CI only', { timeout: 120_000 }, async (t: TestContext) => {
  const dir = await folder(t)
  const file = join(dir, 'some.test.js')
  await writeFile(file, `const { test } = require('node:test')
test('passes', () => {})
test('passes too', () => {})
test('needs frobctl', (t) => { t.skip('frobctl is not installed') })
`)
  const reportDir = join(dir, 'coverage')
  const args = [RUNNER, '--report-dir', reportDir, 'unit', '--', file]

  const local = await node(args, undefined, dir)
  t.assert.strictEqual(local.status, 0, local.output)
  t.assert.match(local.output, /^\.\.\.$/m, 'the dot reporter')
  t.assert.match(local.output, /^﹣ skipped 1: frobctl is not installed$/m)
  t.assert.match(local.output, /Coverage summary/, 'coverage is reported')
  t.assert.match(local.output, /coverage under the thresholds of \.c8rc\.json, reported, not gated/)
  t.assert.match(local.output, /# pass 2\n# fail 0\n# cancelled 0\n# skipped 1\n# todo 0\n2 passed, 0 failed, 1 skipped\n$/, 'the closing lines')
  const tap = await readFile(join(reportDir, 'tests.tap'), 'utf8')
  t.assert.match(tap, /^ok 3 - needs frobctl # SKIP frobctl is not installed$/m, 'the TAP is kept')

  // Under CI, with a failing test file beside: the failure shown, coverage a gate.
  const failing = join(dir, 'failing.test.js')
  await writeFile(failing, `const { test } = require('node:test')
test('fails', (t) => { t.assert.strictEqual(1, 2) })
`)
  const ci = await node([...args, failing], 'true', dir)
  t.assert.strictEqual(ci.status, 1, ci.output)
  t.assert.match(ci.output, /✖ fails/, 'the failure is shown')
  t.assert.match(ci.output, /does not meet global threshold/, 'coverage is a gate under CI')
  t.assert.match(ci.output, /# pass 2\n# fail 1\n# cancelled 0\n# skipped 1\n# todo 0\n2 passed, 1 failed, 1 skipped; failed: coverage\n$/, 'the closing lines')
})
