/**
 * docs/contract-first.md "Types": `fastify-soap types <contract.wsdl>` writes
 * the TypeScript of a contract's handlers. test/types/contract-ocpp.ts is its
 * output for OCPP 1.6's Central System (../shared/fixtures/wsdl/ocpp16), kept
 * in the tree so that `npm run test:typescript` (test/types/contract.tst.ts)
 * type-checks handlers against it; this file checks that the command still
 * writes exactly that, in process and as the installed command runs it.
 */
import { spawnSync } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import { main, typeName } from '../lib/contract/cli'
import type { FastifyInstance } from 'fastify'
import { envelope, MEDIA, sharedFixture } from './helper'

const ROOT = join(__dirname, '..', '..')
const GENERATED = join(ROOT, 'test', 'types', 'contract-ocpp.ts')

async function run (args: string[]): Promise<{ status: number, out: string, err: string }> {
  let out = ''
  let err = ''
  const status = await main(args, (text) => { out += text }, (text) => { err += text })
  return { status, out, err }
}

test('docs/contract-first.md "Types": the command writes test/types/contract-ocpp.ts for the OCPP 1.6 Central System WSDL, byte for byte', async (t: TestContext) => {
  const ocpp = sharedFixture(t, 'wsdl', 'ocpp16')
  if (ocpp === undefined) return
  const { status, out, err } = await run(['types', join(ocpp, 'OCPP_CentralSystemService_1.6.wsdl')])
  t.assert.strictEqual(err, '')
  t.assert.strictEqual(status, 0)
  t.assert.strictEqual(out, await readFile(GENERATED, 'utf8'), 'regenerate with: node dist/lib/cli/main.js types ../shared/fixtures/wsdl/ocpp16/OCPP_CentralSystemService_1.6.wsdl --out test/types/contract-ocpp.ts')
  t.assert.match(out, /^export type Operations = ContractOperations<typeof schemas>$/m)
  t.assert.match(out, /^export type AuthorizeHeaders = Infer<typeof schemas\["Authorize"\]\['headers'\]>$/m)
})

test('docs/contract-first.md "Types": --out writes the file, and the command runs as a process (bin "fastify-soap")', async (t: TestContext) => {
  const vies = sharedFixture(t, 'wsdl', 'vies-checkvat')
  if (vies === undefined) return
  const dir = await mkdtemp(join(tmpdir(), 'fastify-soap-types-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  const file = join(dir, 'vies.ts')
  const wsdl = join(vies, 'checkVatService.wsdl')
  t.assert.deepStrictEqual(await run(['types', wsdl, '--out', file]), { status: 0, out: '', err: '' })
  const written = await readFile(file, 'utf8')
  t.assert.match(written, /^export type CheckVatApproxOutput = /m)
  const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> }
  const child = spawnSync(process.execPath, [join(ROOT, pkg.bin['fastify-soap']), 'types', wsdl], { encoding: 'utf8', timeout: 30_000 })
  t.assert.strictEqual(child.status, 0, child.stderr)
  t.assert.strictEqual(child.stdout, written)
})

test('docs/contract-first.md "Types": --service and --binding choose what to write; a refused contract exits 1 naming why', async (t: TestContext) => {
  const contracts = sharedFixture(t, 'wsdl')
  if (contracts === undefined) return
  const cxf = join(contracts, 'cxf-hello-world', 'hello_world.wsdl')
  const several = await run(['types', cxf])
  t.assert.strictEqual(several.status, 1)
  t.assert.match(several.err, /^fastify-soap: contract .*hello_world\.wsdl: the WSDL has several services: choose one with "service"/)
  const chosen = await run(['types', cxf, '--service', 'SOAPService'])
  t.assert.strictEqual(chosen.status, 0, chosen.err)
  t.assert.match(chosen.out, /^export type GreetMeOutput = /m)
  const bound = await run(['types', join(contracts, 'ochp', 'ochp.wsdl'), '--binding', 'eCHS-OCHP_1.4-live'])
  t.assert.strictEqual(bound.status, 0, bound.err)
  t.assert.match(bound.out, /binding \{http:\/\/ochp\.eu\/1\.4\}eCHS-OCHP_1\.4-live \(SOAP 1\.1\)/)
  const encoded = await run(['types', join(contracts, 'google-search', 'GoogleSearch.wsdl')])
  t.assert.strictEqual(encoded.status, 1)
  t.assert.match(encoded.err, /SOAP encoding \(use="encoded"/)
})

test('docs/contract-first.md "Catalog": fastify-soap types takes --catalog <location>=<file>, repeated, as the catalog option (relative to the WSDL\'s folder)', async (t: TestContext) => {
  const folder = sharedFixture(t, 'wsdl', 'digipoort-aanleverservice')
  if (folder === undefined) return
  const wsdl = join(folder, '1.wsdl')
  const unmapped = await run(['types', wsdl])
  t.assert.strictEqual(unmapped.status, 1)
  t.assert.match(unmapped.err, /\/cpl\/digipoort-koppelvlak-1\.2\.xsd cannot be loaded: .* map it to a local copy in the catalog: <system systemId="\/cpl\/digipoort-koppelvlak-1\.2\.xsd" uri="\.\/digipoort-koppelvlak-1\.2\.xsd"\/>$/)
  const mapped = await run(['types', wsdl, '--catalog', '/cpl/digipoort-koppelvlak-1.2.xsd=./digipoort-koppelvlak-1.xsd', '--catalog', 'http://unused.example/x.xsd=x.xsd'])
  t.assert.strictEqual(mapped.status, 0, mapped.err)
  t.assert.match(mapped.out, /^export type AanleverenInput = /m)
  for (const bad of ['=x.xsd', '/a.xsd=']) {
    const { status, err } = await run(['types', wsdl, '--catalog', bad])
    t.assert.strictEqual(status, 2, bad)
    t.assert.match(err, /--catalog takes one catalog file, or <location>=<file or URL> entries/)
  }
})

test('docs/contract-first.md "Types": usage', async (t: TestContext) => {
  for (const args of [[], ['typo'], ['types'], ['types', 'a.wsdl', 'b.wsdl'], ['types', 'a.wsdl', '--out'], ['types', '--wrong', 'x']]) {
    const { status, out, err } = await run(args)
    t.assert.strictEqual(status, 2, args.join(' '))
    t.assert.strictEqual(out, '')
    t.assert.match(err, /usage: fastify-soap types <contract\.wsdl>/)
  }
  const help = await run(['--help'])
  t.assert.strictEqual(help.status, 0)
  t.assert.match(help.out, /^usage: fastify-soap types/)
  t.assert.deepStrictEqual(['getCityForecast', 'x-y.z', '9lives', 'a__b'].map(typeName), ['GetCityForecast', 'XYZ', 'Op9lives', 'AB'])
})

test('docs/contract-first.md "Types": --stubs adds an operations object of typed handlers, each a Receiver fault saying it is not implemented: it type-checks against the package (noUnusedParameters too) and is served as it is', async (t: TestContext) => {
  const vies = sharedFixture(t, 'wsdl', 'vies-checkvat')
  if (vies === undefined) return
  const wsdl = join(vies, 'checkVatService.wsdl')
  // Inside the package (dist/ is the build's), so that 'fastify-soap' names this package, as in a project that installed it.
  const dir = await mkdtemp(join(ROOT, 'dist', 'stubs-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  t.assert.deepStrictEqual(await run(['types', wsdl, '--stubs', '--out', join(dir, 'vies.ts')]), { status: 0, out: '', err: '' })
  const written = await readFile(join(dir, 'vies.ts'), 'utf8')
  t.assert.match(written, /^import \{ SoapFault, type ContractOperations, type Infer \} from 'fastify-soap'$/m)
  t.assert.match(written, /^ {2}async checkVatApprox \(_input, _call\) \{\n {4}throw new SoapFault\(\{ code: 'Receiver', reason: 'The operation checkVatApprox is not implemented' \}\)\n {2}\}$/m)
  t.assert.match(written, /^\} satisfies Operations$/m)
  const withoutStubs = await run(['types', wsdl])
  t.assert.strictEqual(written.startsWith(withoutStubs.out.replace("import type { ContractOperations, Infer } from 'fastify-soap'", "import { SoapFault, type ContractOperations, type Infer } from 'fastify-soap'")), true, 'the stubs come after the same types')
  await writeFile(join(dir, 'server.ts'), `import Fastify from 'fastify'
import soap from 'fastify-soap'
import { operations, type Operations } from './vies'

export async function build (wsdl: string) {
  const app = Fastify()
  await app.register(soap)
  app.soap.contract<Operations>({ path: '/vies', wsdl, operations })
  return app
}
`)
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { module: 'node16', moduleResolution: 'node16', target: 'ES2022', strict: true, noUnusedLocals: true, noUnusedParameters: true, types: ['node'], outDir: '.', rootDir: '.' },
    files: ['vies.ts', 'server.ts']
  }))
  const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { encoding: 'utf8', timeout: 120_000 })
  t.assert.strictEqual(tsc.status, 0, tsc.stdout + tsc.stderr)
  const { build } = require(join(dir, 'server.js')) as { build: (wsdl: string) => Promise<FastifyInstance> }
  const app = await build(wsdl)
  t.after(() => app.close())
  for (const version of ['1.1', '1.2'] as const) {
    const res = await app.inject({ method: 'POST', url: '/vies', headers: { 'content-type': MEDIA[version] }, payload: envelope(version, '<v:checkVat xmlns:v="urn:ec.europa.eu:taxud:vies:services:checkVat:types"><v:countryCode>DE</v:countryCode><v:vatNumber>123</v:vatNumber></v:checkVat>') })
    t.assert.strictEqual(res.statusCode, 500, res.body)
    t.assert.match(res.body, version === '1.1' ? /<faultcode>soap:Server<\/faultcode><faultstring>The operation checkVat is not implemented</ : /<soap:Value>soap:Receiver<\/soap:Value>.*The operation checkVat is not implemented/)
  }
})

test('docs/contract-first.md "Types": an operation with output header blocks gets <Op>OutputHeaders; one whose output has no Body part no <Op>Output', async (t: TestContext) => {
  const suite = sharedFixture(t, 'wsdl', 'soap12-testsuite')
  if (suite === undefined) return
  const { status, out, err } = await run(['types', join(suite, 'soap12-test.wsdl'), '--binding', 'Soap12TestDocBinding'])
  t.assert.strictEqual(status, 0, err)
  t.assert.match(out, /^export type EchoOkOutputHeaders = Infer<typeof schemas\["echoOk"\]\['outputHeaders'\]>$/m)
  t.assert.match(out, /^export type EmptyBodyOutputHeaders = /m)
  t.assert.doesNotMatch(out, /^export type (EchoOk|EmptyBody)Output = /m)
})

test('docs/contract-first.md "Types": the named schemas of a contract are written once, as defs, which every schema that uses them shares: Exchange\'s 122 operations make a module that type-checks', async (t: TestContext) => {
  const ews = sharedFixture(t, 'wsdl', 'ews')
  if (ews === undefined) return
  const dir = await mkdtemp(join(ROOT, 'dist', 'ews-types-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  t.assert.deepStrictEqual(await run(['types', join(ews, 'services.wsdl'), '--out', join(dir, 'ews.ts')]), { status: 0, out: '', err: '' })
  const written = await readFile(join(dir, 'ews.ts'), 'utf8')
  t.assert.strictEqual(written.match(/^const defs = \{$/gm)?.length, 1, 'one defs')
  t.assert.ok((written.match(/"\$defs": defs/g)?.length ?? 0) > 122, 'every schema with named schemas shares them')
  t.assert.doesNotMatch(written, /"\$defs": \{/, 'no schema has its own copy')
  await writeFile(join(dir, 'use.ts'), `import type { FindItemInput, Operations } from './ews'

export const traversal: FindItemInput['Traversal'] = 'Shallow'
// @ts-expect-error: not one of the enumeration's values
export const wrong: FindItemInput['Traversal'] = 'Deep'
export const findItem: Operations['FindItem'] = async () => ({ ResponseMessages: {} })
`)
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { module: 'node16', moduleResolution: 'node16', target: 'ES2022', strict: true, types: ['node'], outDir: '.', rootDir: '.', noEmit: true },
    files: ['ews.ts', 'use.ts']
  }))
  const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { encoding: 'utf8', timeout: 300_000 })
  t.assert.strictEqual(tsc.status, 0, tsc.stdout + tsc.stderr)
})
