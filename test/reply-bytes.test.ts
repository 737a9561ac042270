/**
 * A long reply is sent as its UTF-8 bytes, encoded once (lib/plugin/reply-bytes.ts):
 * docs/protocol.md "The exchange" (every response with a body carries its exact
 * Content-Length) and docs/hooks.md (onSend hooks see the reply as written).
 */
import { test, type TestContext } from 'node:test'
import fc from 'fast-check'
import Fastify, { type FastifyInstance } from 'fastify'
import soap, { defineOperation, defineService, SoapFault } from '../lib/index'
import { BYTES_FROM, utf8Bytes } from '../lib/plugin/reply-bytes'
import { recordPieces, takePieces } from '../lib/xml/pieces'
import { envelope, listen, post, rawExchange } from './helper'

const NS = 'urn:test:bytes'
const text = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false } as const

const record = {
  type: 'object',
  properties: { id: { type: 'integer', xml: { attribute: true } }, name: { type: 'string' } },
  required: ['id', 'name'],
  additionalProperties: false
} as const
const records = { type: 'object', properties: { item: { type: 'array', items: record } }, required: ['item'], additionalProperties: false } as const
const count = { type: 'object', properties: { count: { type: 'integer' }, name: { type: 'string' } }, required: ['count', 'name'], additionalProperties: false } as const

/** Records `item` 0 to count - 1 named `name` and their number: non-Latin-1 names are written as text between bytes. */
function recordsOf (n: number, name: string): Array<{ id: number, name: string }> {
  return Array.from({ length: n }, (_, id) => ({ id, name: `${name} ${id}` }))
}

const service = defineService({
  path: '/bytes',
  namespace: NS,
  name: 'Bytes',
  operations: {
    Echo: defineOperation({ input: text, output: text, async handler (input) { return { text: input.text } } }),
    Records: defineOperation({ input: count, output: records, async handler (input) { return { item: recordsOf(input.count, input.name) } } }),
    Fail: defineOperation({
      input: text,
      output: text,
      async handler (input) { throw new SoapFault({ code: 'Receiver', reason: input.text }) }
    })
  }
})

async function build (t: TestContext, seen: unknown[], rewrite?: (payload: string) => string): Promise<FastifyInstance> {
  const app = Fastify({ bodyLimit: 8 * 1024 * 1024 })
  t.after(() => app.close())
  // The application's own onSend hook, before the plugin's.
  app.addHook('onSend', async (_request, _reply, payload) => {
    seen.push(payload)
    return rewrite === undefined ? payload : rewrite(payload as string)
  })
  await app.register(soap, { bodyLimit: 8 * 1024 * 1024 })
  app.soap.service(service)
  await app.ready()
  return app
}

function echo (value: string): string {
  return envelope('1.2', `<b:Echo xmlns:b="${NS}"><b:text>${value}</b:text></b:Echo>`)
}

// ASCII, two-, three- and four-byte characters; and text of three-byte characters alone (more bytes than
// one and a half a character).
const TEXTS: ReadonlyArray<[string, string]> = [
  ['ASCII', 'abc '.repeat(10_000)],
  ['mixed', 'Grüße, 東京, 🌍 and more. '.repeat(2_000)],
  ['three-byte characters alone', '東京都'.repeat(10_000)]
]

for (const [name, value] of TEXTS) {
  test(`docs/protocol.md "The exchange": a reply of ${BYTES_FROM} characters or more (${name}) carries its exact Content-Length and its UTF-8 bytes`, async (t: TestContext) => {
    const seen: unknown[] = []
    const app = await build(t, seen)
    const port = await listen(app)
    const body = Buffer.from(echo(value))
    const request = Buffer.concat([
      Buffer.from(`POST /bytes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/soap+xml; charset=utf-8\r\nContent-Length: ${body.length}\r\n\r\n`),
      body
    ])
    const [response] = await rawExchange(port, request, 1)
    t.assert.strictEqual(response.status, 200)
    t.assert.strictEqual(Number(response.headers['content-length']), response.body.length)
    const reply = response.body.toString('utf8')
    t.assert.ok(reply.length >= BYTES_FROM)
    t.assert.ok(reply.includes(`text>${value}</`))
    // docs/hooks.md: the application's onSend hook saw the reply as written, a string.
    t.assert.strictEqual(seen.length, 1)
    t.assert.strictEqual(seen[0], reply)
  })
}

test(`docs/protocol.md "The exchange": a reply under ${BYTES_FROM} characters is sent as written, with its exact Content-Length`, async (t: TestContext) => {
  const seen: unknown[] = []
  const app = await build(t, seen)
  const response = await post(app, '1.2', echo('東京'), { url: '/bytes' })
  t.assert.strictEqual(response.statusCode, 200)
  t.assert.strictEqual(Number(response.headers['content-length']), response.rawPayload.length)
  t.assert.strictEqual(seen[0], response.body)
})

test(`docs/protocol.md "Faults": a fault of ${BYTES_FROM} characters or more carries its exact Content-Length`, async (t: TestContext) => {
  const seen: unknown[] = []
  const app = await build(t, seen)
  const value = 'Fehler: 東京 🌍 '.repeat(2_000)
  const response = await post(
    app, '1.2', envelope('1.2', `<b:Fail xmlns:b="${NS}"><b:text>${value}</b:text></b:Fail>`), { url: '/bytes' }
  )
  t.assert.strictEqual(response.statusCode, 500)
  t.assert.ok(response.body.length >= BYTES_FROM && response.body.includes(value), 'the fault holds the text')
  t.assert.strictEqual(Number(response.headers['content-length']), response.rawPayload.length)
  t.assert.strictEqual(seen[0], response.body)
})

test('docs/protocol.md "The exchange": the bytes of a long reply are its UTF-8 encoding, whatever its characters', () => {
  const unit = fc.oneof(
    fc.constantFrom('a', '<', 'ü', '東', '🌍', '\uE000', '\uFFFD', '\uD800', '\uDC00', '\uD83C'),
    fc.string({ unit: 'binary', maxLength: 4 })
  )
  fc.assert(fc.property(fc.array(unit, { maxLength: 400 }), fc.nat({ max: 3 }), (pieces, repeat) => {
    const value = pieces.join('').repeat(repeat + 1)
    return utf8Bytes(value).equals(Buffer.from(value, 'utf8'))
  }), { numRuns: 300 })
})

test('docs/protocol.md "The exchange": a long reply encoded from the pieces it was written in has the bytes of its whole text', (t: TestContext) => {
  const unit = fc.oneof(
    fc.constantFrom('a', '<', 'ü', 'ÿ', '東', '🌍', '\uD83C', '\uDF0D'),
    fc.string({ unit: 'binary', maxLength: 4 })
  )
  let split = 0
  fc.assert(fc.property(fc.array(unit, { maxLength: 300 }), fc.array(fc.nat(), { maxLength: 6 }), (units, cuts) => {
    const value = units.join('')
    const at = [...new Set(cuts.map((cut) => cut % (value.length + 1)))].sort((a, b) => a - b)
    const pieces = [0, ...at].map((from, k) => value.slice(from, k < at.length ? at[k] : value.length))
    if (pieces.some((piece, k) => k < pieces.length - 1 && /[\uD800-\uDBFF]$/.test(piece))) split++
    return utf8Bytes(value, pieces).equals(Buffer.from(value, 'utf8'))
  }), { numRuns: 500 })
  // Pairs of surrogates were split between pieces.
  t.assert.ok(split >= 3, `${split} splits`)
})

function recordsRequest (name: string): string {
  const value = name.replaceAll('&', '&amp;')
  return envelope('1.2', `<b:Records xmlns:b="${NS}"><b:count>3000</b:count><b:name>${value}</b:name></b:Records>`)
}

const NAMES = ['record & co', 'Zürich', '東京 🌍']

test('docs/protocol.md "The exchange": a long list of records is sent from its pieces, with its bytes and exact Content-Length; nothing is kept after', async (t: TestContext) => {
  const seen: unknown[] = []
  const app = await build(t, seen)
  for (const name of NAMES) {
    const response = await post(app, '1.2', recordsRequest(name), { url: '/bytes' })
    t.assert.strictEqual(response.statusCode, 200)
    t.assert.strictEqual(Number(response.headers['content-length']), response.rawPayload.length)
    const reply = seen.pop() as string
    t.assert.ok(reply.length > 4 * BYTES_FROM, `${reply.length} characters`)
    t.assert.ok(response.rawPayload.equals(Buffer.from(reply, 'utf8')))
    const names = [...reply.matchAll(/<tns:name>([^<]*)<\/tns:name>/g)].map((m) => m[1])
    t.assert.deepStrictEqual(names, recordsOf(3000, name).map((r) => r.name.replaceAll('&', '&amp;')))
    t.assert.strictEqual(takePieces(reply), undefined)
  }
})

test('docs/hooks.md: a long reply an onSend hook rewrites is sent as rewritten, not from the pieces it was written in', async (t: TestContext) => {
  const seen: unknown[] = []
  // The same length: only the text tells it from the reply written.
  const rewrite = (payload: string): string => payload.replaceAll('<tns:name>', '<tns:NAME>').replaceAll('</tns:name>', '</tns:NAME>')
  const app = await build(t, seen, rewrite)
  for (const name of NAMES) {
    const response = await post(app, '1.2', recordsRequest(name), { url: '/bytes' })
    t.assert.strictEqual(response.statusCode, 200)
    const written = seen.pop() as string
    const rewritten = rewrite(written)
    t.assert.ok(rewritten !== written && rewritten.length === written.length)
    t.assert.ok(response.rawPayload.equals(Buffer.from(rewritten, 'utf8')))
    t.assert.strictEqual(Number(response.headers['content-length']), response.rawPayload.length)
  }
})

test('docs/benchmarks.md "Where the time goes", a reply\'s pieces: a text is recorded with its pieces until the next reader takes it, once', (t: TestContext) => {
  const pieces = ['<a>', 'x'.repeat(BYTES_FROM), '</a>']
  const text = pieces.join('')
  recordPieces(text, pieces)
  t.assert.strictEqual(takePieces(text.slice(0, -1) + '>'), pieces)
  t.assert.strictEqual(takePieces(text), undefined)
  recordPieces(text, pieces)
  t.assert.strictEqual(takePieces(text.replace('x', 'y')), undefined)
  t.assert.strictEqual(takePieces(text), undefined)
  recordPieces(text, pieces)
  t.assert.strictEqual(takePieces(undefined), undefined)
  t.assert.strictEqual(takePieces(text), undefined)
})
