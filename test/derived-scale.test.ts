/**
 * Derived types at scale (docs/contract-first.md "Derived types"): a value of
 * a type that many types derive from is validated as the one its `$type`
 * (its xsi:type) names, found by that name: a contract whose type has 1,000
 * derived types takes values of any of them, and refuses an invalid one with
 * a Sender fault; a service's "oneOf" of 5,000 types is compiled and served.
 * What this costs, by the number of types, is measured by
 * `npm run bench:derived` (benchmarks/derived/run.ts).
 */
import { test, type TestContext } from 'node:test'
import fc from 'fast-check'
import Fastify, { type FastifyInstance } from 'fastify'
import soap from '../lib/index'
import { CONTRACT_NS, derivedContract, envelope, post } from './helper'

const XSI = 'http://www.w3.org/2001/XMLSchema-instance'
const N = 1000

async function contractApp (t: TestContext, seen: unknown[]): Promise<FastifyInstance> {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  const Post = (input: unknown): object => { seen.push(input); return {} }
  app.soap.contract({ path: '/c', document: derivedContract(N), operations: { Post } })
  await app.ready()
  return app
}

/** A Post whose event is of type `Event<i>` (the declared type for 0), with its elements. */
function postOf (i: number, elements: string): string {
  const type = i === 0 ? '' : ` xsi:type="k:Event${i}"`
  const event = `<k:event${type}>${elements}</k:event>`
  return envelope('1.2', `<k:Post xmlns:k="${CONTRACT_NS}" xmlns:xsi="${XSI}">${event}</k:Post>`)
}

test(`docs/contract-first.md "Derived types": an element whose type has ${N} derived types takes the declared type ` +
  'and any of them, each validated as its own, and an invalid one is a Sender fault', async (t: TestContext) => {
  const seen: unknown[] = []
  const app = await contractApp(t, seen)
  const plain = envelope('1.2', `<k:Post xmlns:k="${CONTRACT_NS}"><k:event><k:key>1</k:key></k:event></k:Post>`)
  const declared = await post(app, '1.2', plain, { url: '/c' })
  t.assert.strictEqual(declared.statusCode, 200, declared.body)
  t.assert.deepStrictEqual(seen.pop(), { event: { $type: 'Event', key: '1' } })
  const kinds = fc.constantFrom('valid', 'missing', 'other')
  await fc.assert(fc.asyncProperty(fc.integer({ min: 0, max: N }), kinds, async (i, kind) => {
    const own = i === 0 ? '' : `<k:extra${i}>x</k:extra${i}>`
    // Missing: a derived type's own element left out; other: an element of another derived type.
    const other = i === N ? 1 : i + 1
    const foreign = kind === 'other' ? `<k:extra${other}>y</k:extra${other}>` : ''
    const elements = `<k:key>1</k:key>${kind === 'missing' ? '' : own}${foreign}`
    const response = await post(app, '1.2', postOf(i, elements), { url: '/c' })
    if (kind === 'valid' || (kind === 'missing' && i === 0)) {
      t.assert.strictEqual(response.statusCode, 200, response.body)
      const event = i === 0 ? { $type: 'Event', key: '1' } : { $type: `Event${i}`, key: '1', [`extra${i}`]: 'x' }
      t.assert.deepStrictEqual(seen.pop(), { event })
    } else {
      t.assert.strictEqual(response.statusCode, 400, response.body)
      t.assert.match(response.body, /<soap:Value>soap:Sender<\/soap:Value>/)
      const named = kind === 'missing' ? `path="/event/extra${i}"` : `unexpected element \\{urn:k\\}extra${other}`
      t.assert.match(response.body, new RegExp(named))
    }
  }), { numRuns: 40 })
  t.assert.deepStrictEqual(seen, [])
  // A type that is not among them.
  const unknown = await post(app, '1.2', postOf(N + 1, '<k:key>1</k:key>'), { url: '/c' })
  t.assert.strictEqual(unknown.statusCode, 400, unknown.body)
  t.assert.match(unknown.body, new RegExp(`xsi:type \\{${CONTRACT_NS}\\}Event${N + 1} of element k:event is not`))
})

test('docs/services.md "Derived types": a "oneOf" of 5,000 types is compiled at ready(), and a value of the last ' +
  'is validated as that type, found by its $type', async (t: TestContext) => {
  const count = 5000
  const $defs: Record<string, unknown> = {}
  for (let i = 0; i < count; i++) {
    $defs[`T${i}`] = {
      type: 'object',
      properties: { $type: { const: `T${i}` }, v: { type: 'integer', minimum: i } },
      required: ['$type'],
      additionalProperties: false
    }
  }
  const input = {
    type: 'object',
    properties: { e: { oneOf: Object.keys($defs).map((name) => ({ $ref: `#/$defs/${name}` })) } },
    required: ['e'],
    additionalProperties: false,
    $defs
  }
  const seen: unknown[] = []
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  const handler = (value: unknown): void => { seen.push(value) }
  app.soap.service({ path: '/x', namespace: 'urn:x', name: 'X', operations: { Op: { input, handler } } } as never)
  await app.ready()
  const send = (value: number): string => envelope('1.2', `<x:Op xmlns:x="urn:x" xmlns:xsi="${XSI}">` +
    `<x:e xsi:type="x:T${count - 1}"><x:v>${value}</x:v></x:e></x:Op>`)
  const ok = await post(app, '1.2', send(count), { url: '/x' })
  t.assert.strictEqual(ok.statusCode, 202, ok.body)
  t.assert.deepStrictEqual(seen, [{ e: { $type: `T${count - 1}`, v: count } }])
  // T4999's own minimum, not another type's.
  const low = await post(app, '1.2', send(count - 2), { url: '/x' })
  t.assert.strictEqual(low.statusCode, 400, low.body)
  t.assert.match(low.body, /<fs:Problem path="\/e\/v">must be &gt;= 4999<\/fs:Problem>/)
  t.assert.strictEqual(seen.length, 1)
})
