/**
 * docs/contract-first.md "Types": the `fastify-soap types` command's arguments.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import { main } from '../lib/contract/cli'
import { CONTRACT_NS_U, contractWsdl, OP_TYPES } from './helper'

/** A schema of the `urn:u` namespace, with one element. */
const U_XSD = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="${CONTRACT_NS_U}"><xs:element name="note" type="xs:string"/></xs:schema>`

/** A WSDL whose types import each location (the `urn:u` namespace), beside the default operation's types. */
function importing (...locations: string[]): string {
  return contractWsdl({ types: OP_TYPES + `<xs:schema targetNamespace="urn:imp">${locations.map((l) => `<xs:import namespace="${CONTRACT_NS_U}" schemaLocation="${l}"/>`).join('')}</xs:schema>` })
}

/** A fresh folder, removed when the test ends. */
async function folder (t: TestContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'fastify-soap-documents-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  return dir
}

/** The CLI run in process. */
async function run (args: string[]): Promise<{ status: number, out: string, err: string }> {
  let out = ''
  let err = ''
  const status = await main(args, (text) => { out += text }, (text) => { err += text })
  return { status, out, err }
}

// ----------------------------------------------------------------- the command ---

test('docs/contract-first.md "Types": fastify-soap types --help prints the usage and exits 0; --out creates the file\'s folder', async (t: TestContext) => {
  for (const args of [['types', '--help'], ['types', 'a.wsdl', '-h']]) {
    const help = await run(args)
    t.assert.strictEqual(help.status, 0, args.join(' '))
    t.assert.match(help.out, /^usage: fastify-soap types <contract\.wsdl>/)
    t.assert.strictEqual(help.err, '')
  }
  const dir = await folder(t)
  await writeFile(join(dir, 'u.xsd'), U_XSD)
  await writeFile(join(dir, 'c.wsdl'), importing('u.xsd'))
  const out = join(dir, 'new', 'deeper', 'types.ts')
  const written = await run(['types', join(dir, 'c.wsdl'), '--out', out])
  t.assert.strictEqual(written.status, 0, written.err)
  t.assert.match(await readFile(out, 'utf8'), /^export type OpInput = /m)
})
