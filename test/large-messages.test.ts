/**
 * Large messages through a declared service: long texts with many references,
 * and many records, read whole and written back exactly (docs/protocol.md
 * "Decoding"; XML 1.0 §2.4, §4.6: each predefined entity and character reference
 * stands for its one character, and text is escaped where a character needs it).
 */
import { test, type TestContext } from 'node:test'
import { DOMParser } from '@xmldom/xmldom'
import Fastify, { type FastifyInstance } from 'fastify'
import soap, { defineOperation, defineService } from '../lib/index'
import { assertEmpty, envelope, post } from './helper'

const NS = 'urn:test:large'
const text = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false } as const
const item = {
  type: 'object',
  properties: { id: { type: 'integer', xml: { attribute: true } }, name: { type: 'string' }, note: { type: 'string', xml: { attribute: true } } },
  required: ['id', 'name', 'note'],
  additionalProperties: false
} as const
const items = { type: 'object', properties: { item: { type: 'array', items: item } }, required: ['item'], additionalProperties: false } as const

async function build (t: TestContext, logs?: Array<{ err?: { code?: string } }>): Promise<FastifyInstance> {
  const stream = { write (line: string) { logs?.push(JSON.parse(line)) } }
  const app = Fastify({ bodyLimit: 8 * 1024 * 1024, ...(logs === undefined ? {} : { logger: { level: 'error', stream } }) })
  t.after(() => app.close())
  await app.register(soap, { bodyLimit: 8 * 1024 * 1024 })
  app.soap.service(defineService({
    path: '/large',
    namespace: NS,
    name: 'Large',
    operations: {
      Echo: defineOperation({ input: text, output: text, async handler (input) { return { text: input.text } } }),
      // The text with the high half of the surrogate pair after its last "x" taken out: a low half left alone.
      Halve: defineOperation({ input: text, output: text, async handler (input) { return { text: input.text.replace(/x\uD83D/, 'x') } } }),
      EchoList: defineOperation({ input: items, output: items, async handler (input) { return { item: input.item } } })
    }
  }))
  await app.ready()
  return app
}

/** Text of about `length` characters where every few characters need a reference: &, <, >, CR, quotes and non-ASCII. */
function busyText (length: number): string {
  let out = ''
  for (let i = 0; out.length < length; i++) out += `Grüße ${i} & fünf < zwölf > drei\r\n"𝄞" '${i % 7}' — `
  return out
}

function escaped (value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#xD;')
}

test('docs/protocol.md "Decoding", XML 1.0 §4.6: a text of 100,000 characters with a reference every few characters is read whole and written back exactly', async (t: TestContext) => {
  const app = await build(t)
  const value = busyText(100_000)
  // Each reference in a form of its own: predefined entities, decimal and hexadecimal character references.
  const sent = escaped(value).replace(/"/g, '&quot;').replace(/'/g, '&#39;').replace(/—/g, '&#x2014;')
  const response = await post(app, '1.2', envelope('1.2', `<l:Echo xmlns:l="${NS}"><l:text>${sent}</l:text></l:Echo>`), { url: '/large' })
  t.assert.strictEqual(response.statusCode, 200)
  const doc = new DOMParser().parseFromString(response.body, 'text/xml')
  t.assert.strictEqual(doc.getElementsByTagNameNS(NS, 'text')[0].textContent, value)
  // Written back with &, <, > and CR escaped, and nothing else.
  t.assert.ok(response.body.includes(`>${escaped(value)}</`))
})

test('docs/protocol.md "Decoding": 5,000 records with attributes that need escaping are read whole and written back in order', async (t: TestContext) => {
  const app = await build(t)
  const records = Array.from({ length: 5000 }, (_, i) => ({ id: i, name: `item ${i} & <co>`, note: `"${i}"\t<${i}>` }))
  const sent = records.map((r) =>
    `<l:item id="${r.id}" note="&quot;${r.id}&quot;&#9;&lt;${r.id}>"><l:name>${escaped(r.name)}</l:name></l:item>`).join('')
  const response = await post(app, '1.1', envelope('1.1', `<l:EchoList xmlns:l="${NS}">${sent}</l:EchoList>`), { url: '/large' })
  t.assert.strictEqual(response.statusCode, 200)
  const doc = new DOMParser().parseFromString(response.body, 'text/xml')
  const back = Array.from(doc.getElementsByTagNameNS(NS, 'item'), (e) => ({
    id: Number(e.getAttribute('id')), name: e.getElementsByTagNameNS(NS, 'name')[0].textContent, note: e.getAttribute('note')
  }))
  t.assert.deepStrictEqual(back, records)
})

const PAIRS = '😀𝄞'.repeat(50)

test('XML 1.0 §2.2 (Char), docs/protocol.md "Decoding": text of many characters beyond the BMP (surrogate pairs), with tab, LF, CR and U+E000-U+FFFD among them, is read and written back exactly', async (t: TestContext) => {
  const app = await build(t)
  const value = `${PAIRS}\t${PAIRS}\n\uE000${PAIRS}\uFFFD ${PAIRS}`
  const response = await post(app, '1.2', envelope('1.2', `<l:Echo xmlns:l="${NS}"><l:text>${value}&#xD;</l:text></l:Echo>`), { url: '/large' })
  t.assert.strictEqual(response.statusCode, 200)
  t.assert.strictEqual(new DOMParser().parseFromString(response.body, 'text/xml').getElementsByTagNameNS(NS, 'text')[0].textContent, value + '\r')
})

test('XML 1.0 §2.2 (Char), docs/protocol.md "Decoding": a character XML does not allow after many surrogate pairs → 400 empty', async (t: TestContext) => {
  const app = await build(t)
  for (const bad of ['\u0001', '\u001F', '\uFFFE', '\uFFFF']) {
    const response = await post(app, '1.2', envelope('1.2', `<l:Echo xmlns:l="${NS}"><l:text>${PAIRS}${PAIRS}${bad}</l:text></l:Echo>`), { url: '/large' })
    assertEmpty(t, response, 400)
  }
})

test('XML 1.0 §2.2 (Char), docs/protocol.md "Faults": an answer holding a surrogate half alone after many pairs is SOAP_ERR_OUTPUT_INVALID, a Receiver fault, never written', async (t: TestContext) => {
  const logs: Array<{ err?: { code?: string } }> = []
  const app = await build(t, logs)
  for (const sent of [`${PAIRS}\tx😀 and\nmore`, `${PAIRS}x😀`]) {
    logs.length = 0
    const response = await post(app, '1.2', envelope('1.2', `<l:Halve xmlns:l="${NS}"><l:text>${sent}</l:text></l:Halve>`), { url: '/large' })
    t.assert.strictEqual(response.statusCode, 500)
    t.assert.match(response.body, /<soap:Value>soap:Receiver<\/soap:Value>/)
    t.assert.deepStrictEqual(logs.map((l) => l.err?.code), ['SOAP_ERR_OUTPUT_INVALID'])
    t.assert.ok(!response.body.includes(PAIRS), 'the answer is not written')
  }
})
