/**
 * docs/typescript.md "Doc comments": the published declarations keep the
 * doc comments of the public types, so that an editor shows them on hover,
 * and map back to lib/'s sources (`declarationMap`).
 */
import { test, type TestContext } from 'node:test'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

const ROOT = join(__dirname, '..', '..', '..')

/** Each exported interface or type of a source, with the doc comment right above it. */
function documented (text: string): Array<{ name: string, comment: string }> {
  const out: Array<{ name: string, comment: string }> = []
  for (const match of text.matchAll(/(\/\*\*(?:(?!\*\/)[\s\S])*\*\/)\n(?:export )(?:interface|type) (\w+)/g)) {
    out.push({ name: match[2], comment: match[1] })
  }
  return out
}

test('docs/typescript.md "Doc comments": each documented public type keeps its doc comment in dist/lib/types.d.ts', (t: TestContext) => {
  const read = (file: string, dir: string): string => readFileSync(join(ROOT, dir, file), 'utf8')
  const source = read('types.ts', 'lib') + read('security-types.ts', 'lib')
  const published = read('types.d.ts', 'dist/lib') + read('security-types.d.ts', 'dist/lib')
  const types = documented(source)
  t.assert.ok(types.some(({ name }) => name === 'SoapServiceDefinition'), 'lib/types.ts documents SoapServiceDefinition')
  t.assert.ok(types.some(({ name }) => name === 'SoapX509Options'), 'lib/security-types.ts documents SoapX509Options')
  const lost = types.filter(({ name, comment }) => !published.includes(`${comment}\nexport interface ${name}`) &&
    !published.includes(`${comment}\nexport type ${name}`))
  t.assert.deepStrictEqual(lost.map(({ name }) => name), [])
})

test('docs/typescript.md "Doc comments": a field\'s doc comment reaches the declaration, and the declarations map to lib/', (t: TestContext) => {
  const published = readFileSync(join(ROOT, 'dist', 'lib', 'service', 'context.d.ts'), 'utf8')
  t.assert.match(published, /\/\*\* The operation, once dispatched\. \*\/\n\s+operation: SoapOperationInfo \| undefined;/)
  t.assert.ok(existsSync(join(ROOT, 'dist', 'lib', 'index.d.ts.map')), 'dist/lib/index.d.ts.map')
  const map = JSON.parse(readFileSync(join(ROOT, 'dist', 'lib', 'index.d.ts.map'), 'utf8')) as { sources: string[] }
  t.assert.deepStrictEqual(map.sources, ['../../lib/index.ts'])
})
