import { test, type TestContext } from 'node:test'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { assertEmpty, buildApp, envelope, post } from './helper'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

/** An envelope whose payload nests `levels` elements (the payload is at depth 3). */
function nested (levels: number): string {
  return envelope('1.2', '<a>'.repeat(levels) + '</a>'.repeat(levels))
}

function siblings (count: number): string {
  return envelope('1.2', '<m:List xmlns:m="urn:m">' + '<i/>'.repeat(count) + '</m:List>')
}

function attributes (count: number, valueLength = 1, nameLength = 1): string {
  let attrs = ''
  for (let i = 0; i < count; i++) attrs += ` ${'a'.repeat(nameLength)}${i}="${'v'.repeat(valueLength)}"`
  return envelope('1.2', `<m:A xmlns:m="urn:m"${attrs}/>`)
}

test('docs/protocol.md "Limits": element depth, default 100, the Envelope at depth 1', async (t: TestContext) => {
  const app = await buildApp(t)
  t.assert.strictEqual((await post(app, '1.2', nested(98))).statusCode, 200)
  assertEmpty(t, await post(app, '1.2', nested(99)), 400)
  const custom = await buildApp(t, { maxDepth: 4 })
  t.assert.strictEqual((await post(custom, '1.2', nested(2))).statusCode, 200)
  assertEmpty(t, await post(custom, '1.2', nested(3)), 400)
})

test('docs/protocol.md "Limits": elements in a message, default 50,000', async (t: TestContext) => {
  const app = await buildApp(t)
  // Envelope, Body and List are three elements
  t.assert.strictEqual((await post(app, '1.2', siblings(50_000 - 3))).statusCode, 200)
  assertEmpty(t, await post(app, '1.2', siblings(50_000 - 2)), 400)
  const custom = await buildApp(t, { maxElements: 10 })
  t.assert.strictEqual((await post(custom, '1.2', siblings(7))).statusCode, 200)
  assertEmpty(t, await post(custom, '1.2', siblings(8)), 400)
})

test('docs/protocol.md "Limits": attributes on one element, default 500, namespace declarations counted', async (t: TestContext) => {
  const app = await buildApp(t)
  t.assert.strictEqual((await post(app, '1.2', attributes(499))).statusCode, 200) // + xmlns:m
  assertEmpty(t, await post(app, '1.2', attributes(500)), 400)
  const custom = await buildApp(t, { maxAttributes: 3 })
  t.assert.strictEqual((await post(custom, '1.2', attributes(2))).statusCode, 200)
  assertEmpty(t, await post(custom, '1.2', attributes(3)), 400)
})

test('docs/protocol.md "Limits": attribute value length, default 64 KiB', async (t: TestContext) => {
  const app = await buildApp(t)
  t.assert.strictEqual((await post(app, '1.2', attributes(1, 65536))).statusCode, 200)
  assertEmpty(t, await post(app, '1.2', attributes(1, 65537)), 400)
})

test('docs/protocol.md "Limits": text node length, default the body limit, text and CDATA counted together', async (t: TestContext) => {
  const app = await buildApp(t, { maxTextLength: 100 })
  const text = (s: string): string => envelope('1.2', `<m:T xmlns:m="urn:m">${s}</m:T>`)
  t.assert.strictEqual((await post(app, '1.2', text('x'.repeat(100)))).statusCode, 200)
  assertEmpty(t, await post(app, '1.2', text('x'.repeat(101))), 400)
  assertEmpty(t, await post(app, '1.2', text('x'.repeat(60) + '<![CDATA[' + 'y'.repeat(41) + ']]>')), 400)
  t.assert.strictEqual((await post(app, '1.2', text('x'.repeat(60) + '<b/>' + 'y'.repeat(60)))).statusCode, 200, 'separate text nodes')
})

test('docs/protocol.md "Limits": name length (prefix + local), default 1,024, for elements and attributes', async (t: TestContext) => {
  const app = await buildApp(t)
  const element = (n: number): string => envelope('1.2', `<m:${'e'.repeat(n - 2)} xmlns:m="urn:m"/>`)
  t.assert.strictEqual((await post(app, '1.2', element(1024))).statusCode, 200)
  assertEmpty(t, await post(app, '1.2', element(1025)), 400)
  t.assert.strictEqual((await post(app, '1.2', attributes(1, 1, 1023))).statusCode, 200)
  assertEmpty(t, await post(app, '1.2', attributes(1, 1, 1024)), 400)
})

test('docs/protocol.md "Limits": namespace URI length, default 4,096', async (t: TestContext) => {
  const app = await buildApp(t)
  const ns = (n: number): string => envelope('1.2', `<m:A xmlns:m="urn:${'n'.repeat(n - 4)}"/>`)
  t.assert.strictEqual((await post(app, '1.2', ns(4096))).statusCode, 200)
  assertEmpty(t, await post(app, '1.2', ns(4097)), 400)
})

test('docs/protocol.md "Limits": namespace declarations in a message, default 1,000', async (t: TestContext) => {
  const app = await buildApp(t)
  const decls = (n: number): string => envelope('1.2', '<m:A xmlns:m="urn:m">' + '<b xmlns:p="urn:p"/>'.repeat(n) + '</m:A>')
  // the Envelope and m:A declare one each
  t.assert.strictEqual((await post(app, '1.2', decls(998))).statusCode, 200)
  assertEmpty(t, await post(app, '1.2', decls(999)), 400)
})

test('docs/protocol.md "Limits": 1,000,000-deep nesting: 413 at the default body limit, 400 at once with a larger one; memory flat', async (t: TestContext) => {
  const deep = nested(1_000_000)
  const app = await buildApp(t)
  assertEmpty(t, await post(app, '1.2', deep), 413)
  const big = await buildApp(t, { bodyLimit: 16 * 1024 * 1024 })
  gc()
  const before = process.memoryUsage().heapUsed
  for (let i = 0; i < 5; i++) {
    const started = process.hrtime.bigint()
    assertEmpty(t, await post(big, '1.2', deep), 400)
    const ms = Number(process.hrtime.bigint() - started) / 1e6
    t.assert.ok(ms < 1000, `answered in ${ms.toFixed(0)} ms: the depth limit stops the parse, it does not walk a million levels`)
  }
  gc()
  const grown = (process.memoryUsage().heapUsed - before) / 1024 / 1024
  t.assert.ok(grown < 32, `heap grew ${grown.toFixed(1)} MiB over five requests`)
})

test('docs/protocol.md "Limits": 100,000 siblings in a 1 MiB body: 400 by the element limit, 200 when raised, linear time', async (t: TestContext) => {
  const body = siblings(100_000)
  t.assert.ok(Buffer.byteLength(body) < 1024 * 1024)
  const app = await buildApp(t)
  assertEmpty(t, await post(app, '1.2', body), 400)
  const raised = await buildApp(t, { maxElements: 200_000 })
  for (let i = 0; i < 3; i++) {
    const started = process.hrtime.bigint()
    t.assert.strictEqual((await post(raised, '1.2', body)).statusCode, 200)
    const ms = Number(process.hrtime.bigint() - started) / 1e6
    t.assert.ok(ms < 1000, `answered in ${ms.toFixed(0)} ms: no quadratic path over siblings`)
  }
})

test('docs/protocol.md "Limits": a flood of attributes or declarations on one element stops at the limit', async (t: TestContext) => {
  const app = await buildApp(t, { bodyLimit: 4 * 1024 * 1024 })
  assertEmpty(t, await post(app, '1.2', attributes(100_000)), 400)
  let decls = ''
  for (let i = 0; i < 50_000; i++) decls += ` xmlns:p${i}="urn:${i}"`
  assertEmpty(t, await post(app, '1.2', envelope('1.2', `<m:A xmlns:m="urn:m"${decls}/>`)), 400)
})
