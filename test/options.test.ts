import { test, type TestContext } from 'node:test'
import Fastify from 'fastify'
import soap, { DEFAULTS, errorCodes, type FastifySoapOptions } from '../lib/index'
import { normalizeOptions } from '../lib/options'

test('options: the defaults are the docs/protocol.md "Limits" table', (t: TestContext) => {
  const resolved = normalizeOptions()
  t.assert.deepStrictEqual({ ...resolved.limits, bodyLimit: resolved.bodyLimit }, {
    bodyLimit: 1048576,
    maxDepth: 100,
    maxElements: 50000,
    maxAttributes: 500,
    maxAttributeLength: 65536,
    maxTextLength: 1048576,
    maxNameLength: 1024,
    maxNamespaceLength: 4096,
    maxNamespaceDeclarations: 1000
  })
  t.assert.strictEqual(DEFAULTS.maxDepth, 100)
  t.assert.ok(Object.isFrozen(resolved))
  t.assert.strictEqual(normalizeOptions({ bodyLimit: 10 }).limits.maxTextLength, 10, 'the text limit follows the body limit')
  t.assert.strictEqual(normalizeOptions({ bodyLimit: 10, maxTextLength: 5 }).limits.maxTextLength, 5)
})

const BAD: Array<[string, unknown]> = [
  ['bodyLimit', 0],
  ['bodyLimit', -1],
  ['bodyLimit', 1.5],
  ['maxDepth', '100'],
  ['maxElements', Number.NaN],
  ['maxAttributes', Infinity],
  ['maxAttributeLength', null],
  ['maxTextLength', 0],
  ['maxNameLength', {}],
  ['maxNamespaceLength', -5],
  ['maxNamespaceDeclarations', 2 ** 60],
  ['roles', 'urn:a'],
  ['roles', [1]],
  ['understoodHeaders', ['Security']],
  ['understoodHeaders', ['{urn:a}']],
  ['understoodHeaders', '{urn:a}B'],
  ['namespaces', { a: 1 }],
  ['namespaces', null],
  ['routes', 'not a function'],
  ['prefix', 1],
  ['faultFormatter', 'x'],
  ['faultStatus', 400],
  ['faultStatus', '500'],
  ['maxdepth', 1]
]

for (const [name, value] of BAD) {
  test(`options: ${name} = ${JSON.stringify(value)} → SOAP_ERR_OPT_INVALID at registration`, async (t: TestContext) => {
    t.assert.throws(() => normalizeOptions({ [name]: value } as FastifySoapOptions), (err: Error & { code?: string }) => {
      t.assert.strictEqual(err.code, 'SOAP_ERR_OPT_INVALID')
      t.assert.ok(err instanceof errorCodes.SOAP_ERR_OPT_INVALID)
      t.assert.ok(err.message.startsWith('fastify-soap: option "'))
      return true
    })
    const app = Fastify()
    app.register(soap, { [name]: value } as FastifySoapOptions)
    await t.assert.rejects(async () => { await app.ready() }, { code: 'SOAP_ERR_OPT_INVALID' })
  })
}

test('options: a non-object → SOAP_ERR_OPT_INVALID', (t: TestContext) => {
  t.assert.throws(() => normalizeOptions(42 as unknown as FastifySoapOptions), { code: 'SOAP_ERR_OPT_INVALID' })
})
