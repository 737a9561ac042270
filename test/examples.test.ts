/**
 * examples/: each example, installed as a user installs it (the packed
 * package, from npm pack, and Fastify from the registry), compiles with its
 * own tsconfig and passes its own tests, under the Fastify of our dev
 * dependencies and under the lowest 5.x the peer dependency admits. In the
 * installed code-first example, every ```ts block of README.md type-checks as
 * an ES module of its own, and a CommonJS project (module node16) compiles
 * and runs against the package.
 *
 * The children run with a clean environment (no npm_* variables, no coverage
 * or test runner variables), each bounded by a timeout, in a temporary folder
 * removed afterwards. The contract-first example needs the shared fixtures
 * (../shared/fixtures/wsdl/vies-checkvat): where they are absent it is skipped,
 * and under CI=true it fails (sharedFixture).
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, delimiter, join } from 'node:path'
import { test, type TestContext } from 'node:test'
import { sharedFixture } from './helper'

const ROOT = join(__dirname, '..', '..')
const EXAMPLES = join(ROOT, 'examples')

const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { peerDependencies: Record<string, string>, bin: Record<string, string> }
/** The Fastify of our dev dependencies, as installed. */
const DEV_FASTIFY = (JSON.parse(readFileSync(join(ROOT, 'node_modules', 'fastify', 'package.json'), 'utf8')) as { version: string }).version
/**
 * The lowest Fastify 5.x the plugin and the examples work with, the floor of
 * the peer dependency: 5.0.0 matches content-type parsers case-sensitively,
 * so that `Application/SOAP+XML` or `TEXT/XML` gets a 415 there (docs/protocol.md
 * "Versions" reads media types case-insensitively).
 */
const LOWEST_FASTIFY = '5.1.0'

/** The environment of every child: ours, without what npm, c8 and node --test put in it for this process. */
function childEnv (extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(key) || ['INIT_CWD', 'NODE_V8_COVERAGE', 'NODE_TEST_CONTEXT', 'NODE_OPTIONS', 'NODE_ENV'].includes(key)) continue
    env[key] = value
  }
  // Not this repository's binaries (npm run puts node_modules/.bin first).
  env.PATH = (process.env.PATH ?? '').split(delimiter).filter((dir) => !dir.startsWith(ROOT) && !dir.includes('node-gyp-bin')).join(delimiter)
  return { ...env, ...extra }
}

interface Run { status: number | null, signal: NodeJS.Signals | null, output: string, command: string, ms: number }

/** The scripts npm runs when it installs a package from the registry or a tarball. */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare']

/** Runs a command to its end or its timeout (then killed); resolves with its status and its output, stdout and stderr interleaved. */
function run (command: string, args: string[], options: { cwd: string, timeout: number, env?: Record<string, string> }): Promise<Run> {
  const started = Date.now()
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: childEnv(options.env), timeout: options.timeout, killSignal: 'SIGKILL', stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { output += chunk })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { output += chunk })
    const line = [command, ...args].join(' ')
    child.on('error', (err) => resolve({ status: null, signal: null, output: `${output}\n${String(err)}`, command: line, ms: Date.now() - started }))
    child.on('close', (status, signal) => resolve({ status, signal, output, command: line, ms: Date.now() - started }))
  })
}

/** Asserts a test run exited 0 having run tests, none of them failed. */
function assertTestsPassed (t: TestContext, result: Run): void {
  assertSucceeded(t, result)
  t.assert.notStrictEqual(passed(result.output), '0', `${result.command} ran no test`)
  t.assert.match(result.output, /^# fail 0$/m, `${result.command}: a test failed`)
}

/** Asserts a run exited 0, showing its command and output when it did not. */
function assertSucceeded (t: TestContext, result: Run): void {
  const killed = result.signal === null ? '' : ` (killed by ${result.signal}: timed out?)`
  const tail = result.output.length > 12_000 ? '…' + result.output.slice(-12_000) : result.output
  t.assert.strictEqual(result.status, 0, `${result.command} in ${result.ms} ms exited ${result.status}${killed}:\n${tail}`)
}

/** The TypeScript installed in `project` (an installed example), run in `cwd`. */
const tsc = (project: string, args: string[] = [], cwd = project): Promise<Run> =>
  run(process.execPath, [join(project, 'node_modules', 'typescript', 'bin', 'tsc'), ...args], { cwd, timeout: 120_000 })

/** The count node --test prints: `# pass 7`. */
function passed (output: string): string {
  return /^# pass (\d+)$/m.exec(output)?.[1] ?? '?'
}

test(`examples/: installed from the packed package (npm warns about nothing of it), each compiles and passes its tests under Fastify ${DEV_FASTIFY} and ${LOWEST_FASTIFY}; README.md's TypeScript type-checks; a CommonJS project consumes the package`, { timeout: 360_000 }, async (t: TestContext) => {
  const work = await mkdtemp(join(tmpdir(), 'fastify-soap-examples-'))
  t.after(() => rm(work, { recursive: true, force: true }))
  t.assert.strictEqual(PACKAGE.peerDependencies.fastify, `^${LOWEST_FASTIFY}`, 'the peer dependency admits the lowest Fastify the examples are tested with')

  // dist/ is built (npm test builds it first): pack it as it is, without
  // "prepack", which would clean dist/ under the other test files.
  const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: ROOT, timeout: 60_000 })
  assertSucceeded(t, pack)
  const [packed] = JSON.parse(pack.output.slice(pack.output.indexOf('['), pack.output.lastIndexOf(']') + 1)) as Array<{ filename: string, files: Array<{ path: string }> }>
  const tarball = join(work, basename(packed.filename))
  const files = new Set(packed.files.map((f) => f.path))
  for (const file of ['dist/lib/index.js', 'dist/lib/index.mjs', 'dist/lib/index.d.ts', 'dist/lib/index.d.mts', 'dist/lib/contract/cli.js', PACKAGE.bin['fastify-soap']]) {
    t.assert.ok(files.has(file), `the tarball has ${file}`)
  }

  /** The example copied to work/<name>-<version> (without its own node_modules and dist), its dependencies installed. */
  async function install (t: TestContext, example: string, version: string): Promise<string> {
    const dir = join(work, `${example}-${version}`)
    await cp(join(EXAMPLES, example), dir, {
      recursive: true,
      filter: (source) => !/[\\/](node_modules|dist)$/.test(source.slice(join(EXAMPLES, example).length))
    })
    const installed = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, `fastify@${version}`], { cwd: dir, timeout: 120_000 })
    assertSucceeded(t, installed)
    const got = JSON.parse(await readFile(join(dir, 'node_modules', 'fastify', 'package.json'), 'utf8')) as { version: string }
    t.assert.strictEqual(got.version, version)
    // The published package.json has no script that runs on install (npm warns about each).
    const published = JSON.parse(await readFile(join(dir, 'node_modules', 'fastify-soap', 'package.json'), 'utf8')) as { scripts?: Record<string, string> }
    t.assert.deepStrictEqual(Object.keys(published.scripts ?? {}).filter((name) => INSTALL_SCRIPTS.includes(name)), [], 'no install script in the published package.json')
    t.assert.deepStrictEqual(installed.output.split('\n').filter((line) => /^npm warn/i.test(line) && line.includes('fastify-soap')), [], 'npm install warns about nothing of fastify-soap')
    return dir
  }

  let codeFirst: string | undefined
  for (const version of new Set([DEV_FASTIFY, LOWEST_FASTIFY])) {
    await t.test(`examples/code-first under fastify@${version}: tsc, then its tests`, async (t: TestContext) => {
      const dir = await install(t, 'code-first', version)
      assertSucceeded(t, await tsc(dir))
      const tests = await run(process.execPath, ['--test', join(dir, 'dist', 'test', 'app.test.js')], { cwd: dir, timeout: 60_000 })
      assertTestsPassed(t, tests)
      t.diagnostic(`code-first, fastify@${version}: tsc passed, ${passed(tests.output)} tests passed`)
      if (version === DEV_FASTIFY) codeFirst = dir
    })

    await t.test(`examples/contract-first under fastify@${version}: npm run types writes src/contract.ts as committed, tsc, then its tests`, async (t: TestContext) => {
      const wsdl = sharedFixture(t, 'wsdl', 'vies-checkvat', 'checkVatService.wsdl')
      if (wsdl === undefined) return
      const dir = await install(t, 'contract-first', version)
      const env = { CONTRACT_WSDL: wsdl }
      assertSucceeded(t, await run('npm', ['run', 'types'], { cwd: dir, timeout: 60_000, env }))
      t.assert.strictEqual(await readFile(join(dir, 'src', 'contract.ts'), 'utf8'), await readFile(join(EXAMPLES, 'contract-first', 'src', 'contract.ts'), 'utf8'),
        'examples/contract-first/src/contract.ts is what `npm run types` writes: run it there and commit the file')
      assertSucceeded(t, await tsc(dir))
      const tests = await run(process.execPath, ['--test', join(dir, 'dist', 'test', 'app.test.js')], { cwd: dir, timeout: 60_000, env })
      assertTestsPassed(t, tests)
      t.diagnostic(`contract-first, fastify@${version}: types, tsc passed, ${passed(tests.output)} tests passed`)
    })
  }

  await t.test('README.md: each ```ts block type-checks as an ES module of its own (nodenext, strict) in the installed code-first example', async (t: TestContext) => {
    t.assert.ok(codeFirst !== undefined, 'the code-first example was installed')
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8')
    const blocks = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)]
    t.assert.ok(blocks.length >= 5, `${blocks.length} blocks`)
    const dir = join(codeFirst, 'readme')
    await mkdir(dir)
    for (const block of blocks) {
      // Named by the README line of its first line of code, so that tsc's positions read as README lines.
      const line = readme.slice(0, block.index).split('\n').length + 1
      await writeFile(join(dir, `line-${line}.ts`), block[1] + 'export {}\n')
    }
    await writeFile(join(codeFirst, 'tsconfig.readme.json'), JSON.stringify({ extends: './tsconfig.json', compilerOptions: { noEmit: true }, include: ['readme/*.ts'] }))
    assertSucceeded(t, await tsc(codeFirst, ['-p', 'tsconfig.readme.json']))
    t.diagnostic(`README.md: ${blocks.length} ts blocks type-check`)
  })

  await t.test('a CommonJS project (module node16, no "type": "module") requires the package, default and named, and serves a service', async (t: TestContext) => {
    t.assert.ok(codeFirst !== undefined, 'the code-first example was installed')
    // Inside the installed example, to use its node_modules; a package.json of its own makes it CommonJS.
    const dir = join(codeFirst, 'cjs')
    await mkdir(dir)
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'cjs-consumer', private: true }))
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'node16', moduleResolution: 'node16', target: 'ES2022', strict: true, outDir: 'dist', types: ['node'] }, include: ['index.ts'] }))
    await writeFile(join(dir, 'index.ts'), `import assert from 'node:assert/strict'
import Fastify from 'fastify'
import soap, { fastifySoap, defineOperation } from 'fastify-soap'

async function main (): Promise<void> {
  assert.equal(soap, fastifySoap)
  const app = Fastify()
  await app.register(fastifySoap)
  app.soap.service({
    path: '/hello',
    namespace: 'urn:example:hello',
    name: 'Hello',
    operations: {
      Hello: defineOperation({
        input: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false },
        output: { type: 'object', properties: { greeting: { type: 'string' } }, required: ['greeting'], additionalProperties: false },
        handler: ({ name }) => ({ greeting: 'Hello, ' + name })
      })
    }
  })
  const response = await app.inject({
    method: 'POST',
    url: '/hello',
    headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '"urn:example:hello/Hello"' },
    payload: '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><h:Hello xmlns:h="urn:example:hello"><h:name>CommonJS</h:name></h:Hello></s:Body></s:Envelope>'
  })
  assert.equal(response.statusCode, 200, response.body)
  assert.match(response.body, /<tns:greeting>Hello, CommonJS<\\/tns:greeting>/)
  await app.close()
  console.log('CommonJS consumer: answered')
}

main().catch((err) => { console.error(err); process.exitCode = 1 })
`)
    assertSucceeded(t, await tsc(codeFirst, ['-p', '.'], dir))
    const emitted = await readFile(join(dir, 'dist', 'index.js'), 'utf8')
    t.assert.match(emitted, /require\("fastify-soap"\)/, 'emitted as CommonJS')
    const ran = await run(process.execPath, [join(dir, 'dist', 'index.js')], { cwd: dir, timeout: 30_000 })
    assertSucceeded(t, ran)
    t.assert.match(ran.output, /CommonJS consumer: answered/)
  })
})
