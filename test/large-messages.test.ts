/**
 * Large messages through a declared service: long texts with many references,
 * and many records, read whole and written back exactly (docs/protocol.md
 * "Decoding"; XML 1.0 §2.4, §4.6: each predefined entity and character reference
 * stands for its one character, and text is escaped where a character needs it).
 */
import { test, type TestContext } from 'node:test'
import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { DOMParser } from '@xmldom/xmldom'
import Fastify, { type FastifyInstance } from 'fastify'
import soap, { defineOperation, defineService } from '../lib/index'
import { SCRATCH_BYTES } from '../lib/plugin/body'
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

test('docs/architecture.md "What is kept between requests" (the scratch buffer): large envelopes sent at once over several connections, their bytes interleaved, each get their own answer', async (t: TestContext) => {
  const app = await build(t)
  await app.listen({ host: '127.0.0.1', port: 0 })
  const { port } = app.server.address() as AddressInfo
  // Sizes on either side of the buffer bodies are joined into (4 MiB), one sent chunked; each its own records. Three
  // of one size end together, so that their bodies are joined one after another, each read before the next.
  const plans = [
    { count: 8_000, chunked: false }, { count: 24_000, chunked: false }, { count: 8_000, chunked: true },
    { count: 8_000, chunked: false }, { count: 3, chunked: false }
  ]
  // Names long enough for 24,000 records (under the limit of 50,000 elements) to take more than 4 MiB.
  const long = 'x'.repeat(120)
  const bodies = plans.map(({ count }, k) => {
    const records = Array.from({ length: count }, (_, i) => `<l:item id="${i}" note="${k}"><l:name>${k}:${i} &amp; co ${long}</l:name></l:item>`).join('')
    return Buffer.from(envelope('1.2', `<l:EchoList xmlns:l="${NS}">${records}</l:EchoList>`))
  })
  t.assert.ok(bodies[1].length > SCRATCH_BYTES && bodies[3].length < SCRATCH_BYTES, 'bodies over and under the scratch buffer')
  const sent = plans.map(({ chunked }, k) => {
    const headers: Record<string, string | number> = { 'content-type': 'application/soap+xml; charset=utf-8' }
    if (!chunked) headers['content-length'] = bodies[k].length
    const request = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/large', headers })
    const answer = new Promise<{ status: number, body: string }>((resolve, reject) => {
      request.on('response', (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }))
      })
      request.on('error', reject)
    })
    return { request, answer }
  })
  // Every request's bytes in 16 KiB pieces, one request after another, each piece on a turn of its own.
  const piece = 16 * 1024
  const longest = Math.max(...bodies.map((body) => body.length))
  for (let at = 0; at < longest; at += piece) {
    sent.forEach(({ request }, k) => {
      if (at >= bodies[k].length) return
      // Each request ends with its last piece: those of one size end on one turn.
      const chunk = bodies[k].subarray(at, at + piece)
      if (at + piece >= bodies[k].length) request.end(chunk); else request.write(chunk)
    })
    await new Promise((resolve) => setImmediate(resolve))
  }
  const answers = await Promise.all(sent.map(async ({ answer }) => await answer))
  answers.forEach(({ status, body }, k) => {
    const { count } = plans[k]
    t.assert.strictEqual(status, 200, `request ${k}`)
    t.assert.strictEqual(body.split(` note="${k}"`).length - 1, count, `request ${k}: its ${count} records`)
    t.assert.ok(!/ note="/.test(body.split(` note="${k}"`).join('')), `request ${k}: no other request's records`)
    t.assert.ok(body.includes(`>${k}:${count - 1} &amp; co ${long}<`), `request ${k}: its last record`)
  })
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
