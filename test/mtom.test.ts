/**
 * docs/protocol.md "MTOM/XOP": multipart/related requests, each rule of the
 * section's table through fastify.inject (the raw-TCP cases are in
 * hostile.test.ts).
 */
import { test, type TestContext } from 'node:test'
import type { IncomingMessage } from 'node:http'
import { Readable } from 'node:stream'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify'
import fc from 'fast-check'
import soap, { type FastifySoapOptions, type SoapVersion, errorCodes } from '../lib/index'
import { assertEmpty, decodedOf, echoRoutes, envelope, type Decoded } from './helper'
import {
  BOUNDARY, MONO_BOUNDARY, MONO_START, XOP, monoHead, monoMessage, multipartBody, mtomMessage, mtomType, partHead, rootHead,
  uploadEnvelope, type RawPart
} from './mtom-message'

/** echoRoutes, and /parts: the payload's name and each part's bytes, as base64, by Content-ID. */
const routes: FastifyPluginAsync = async (app) => {
  await app.register(echoRoutes)
  app.post('/parts', async (request, reply) => {
    const context = request.soap
    if (context === null) throw new Error('request.soap is null on a decoded request')
    const parts: Record<string, string> = {}
    for (const [id, bytes] of context.parts) parts[id] = bytes.toString('base64')
    const payload = context.payload
    const summary = JSON.stringify({ version: context.version, payload: payload?.localName ?? null, parts })
    return reply.soap(`<t:Parts xmlns:t="urn:test">${summary.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</t:Parts>`)
  })
}

async function build (t: TestContext, options: FastifySoapOptions = {}): Promise<FastifyInstance> {
  const app = Fastify()
  await app.register(soap, { routes, ...options })
  t.after(() => app.close())
  await app.ready()
  return app
}

interface Parts { version: SoapVersion, payload: string | null, parts: Record<string, string> }

function partsOf (body: string): Parts {
  const match = /<t:Parts xmlns:t="urn:test">(.*)<\/t:Parts>/s.exec(body)
  if (match === null) throw new Error('no parts summary in ' + body)
  return JSON.parse(match[1].replace(/&lt;/g, '<').replace(/&amp;/g, '&'))
}

function send (app: FastifyInstance, contentType: string, body: Buffer, url = '/echo', headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url, headers: { 'content-type': contentType, ...headers }, payload: body })
}

const CALL = '<m:Echo xmlns:m="urn:example:calc"><m:text>hi</m:text></m:Echo>'
const ROOT = (version: SoapVersion = '1.2'): RawPart => ({ head: rootHead(version), content: envelope(version, CALL) })
const DATA = Buffer.from([0x00, 0x0d, 0x0a, 0x2d, 0x2d, 0xff, 0xfe, 0x80])

async function assertEcho (t: TestContext, response: { statusCode: number, body: string }, expected: Partial<Decoded>) {
  t.assert.strictEqual(response.statusCode, 200, response.body)
  const decoded = decodedOf(response.body)
  for (const [key, value] of Object.entries(expected)) t.assert.deepStrictEqual(decoded[key as keyof Decoded], value, key)
}

// ------------------------------------------------------------------ reading

test('docs/protocol.md "MTOM/XOP": the root part is read as the envelope, each other part kept by its Content-ID, byte for byte', async (t: TestContext) => {
  const app = await build(t)
  for (const version of ['1.1', '1.2'] as const) {
    const { contentType, body } = mtomMessage(version, uploadEnvelope(version, ['a@example.org', 'b/c%d@x']), [
      { id: 'a@example.org', bytes: DATA },
      { id: 'b/c%d@x', bytes: Buffer.alloc(0) }
    ])
    const response = await send(app, contentType, body, '/parts', version === '1.1' ? { soapaction: '""' } : {})
    t.assert.strictEqual(response.statusCode, 200, response.body)
    t.assert.strictEqual(response.headers['content-type'], version === '1.1' ? 'text/xml; charset=utf-8' : 'application/soap+xml; charset=utf-8')
    const parts = partsOf(response.body)
    t.assert.strictEqual(parts.version, version)
    t.assert.strictEqual(parts.payload, 'Upload')
    t.assert.deepStrictEqual(parts.parts, { 'a@example.org': DATA.toString('base64'), 'b/c%d@x': '' })
  }
})

test('docs/protocol.md "MTOM/XOP": a request that is no MTOM request has no parts', async (t: TestContext) => {
  const app = await build(t)
  const response = await send(app, 'application/soap+xml', Buffer.from(envelope('1.2', CALL)), '/parts')
  t.assert.deepStrictEqual(partsOf(response.body).parts, {})
})

test('docs/protocol.md "MTOM/XOP": the action, from the root\'s type, the root part or the request, in that order; SOAPAction for 1.1', async (t: TestContext) => {
  const app = await build(t)
  const xml = envelope('1.2', CALL)
  const withType = (rootType: string, outer = ''): Promise<{ statusCode: number, body: string }> => send(app,
    `multipart/related; type="application/xop+xml"; boundary="${BOUNDARY}"; start="<root.message@example.org>"` + outer,
    multipartBody(BOUNDARY, [{ head: `Content-Type: ${rootType}\r\nContent-ID: <root.message@example.org>\r\n`, content: xml }]))
  await assertEcho(t, await withType('application/xop+xml; charset=utf-8; type="application/soap+xml; action=\\"urn:wcf\\""', '; action="urn:outer"'), { action: 'urn:wcf', version: '1.2' })
  await assertEcho(t, await withType('application/xop+xml; type="application/soap+xml"; action="urn:root"', '; action="urn:outer"'), { action: 'urn:root' })
  await assertEcho(t, await withType('application/xop+xml; type="application/soap+xml"', '; action="urn:outer"'), { action: 'urn:outer' })
  await assertEcho(t, await withType('application/xop+xml; type="application/soap+xml"', '; start-info="application/soap+xml; action=\\"urn:info\\""'), { action: 'urn:info' })
  await assertEcho(t, await withType('application/xop+xml; type="application/soap+xml"', '; action="urn:outer"; start-info="application/soap+xml; action=\\"urn:info\\""'), { action: 'urn:outer' })
  await assertEcho(t, await withType('application/xop+xml; type="application/soap+xml"'), { action: null })
  const v11 = mtomMessage('1.1', envelope('1.1', CALL), [])
  await assertEcho(t, await send(app, v11.contentType + '; action="urn:ignored"', v11.body, '/echo', { soapaction: '"urn:soap11"' }), { action: 'urn:soap11', version: '1.1' })
})

// ------------------------------------------------------------------ framing

test('docs/protocol.md "MTOM/XOP": the boundary parameter is required, 1 to 70 bchars, not ending with a space (RFC 2046 §5.1.1)', async (t: TestContext) => {
  const app = await build(t)
  const body = (boundary: string): Buffer => multipartBody(boundary, [ROOT()])
  const typed = (boundary: string): string => `multipart/related; type="application/xop+xml"; boundary="${boundary}"`
  const max = "0aZ'()+_,-./:=? ".repeat(5).slice(0, 69) + 'z'
  await assertEcho(t, await send(app, typed(max), body(max)), { payload: '{urn:example:calc}Echo' })
  await assertEcho(t, await send(app, typed('a'), body('a')), { payload: '{urn:example:calc}Echo' })
  await assertEcho(t, await send(app, 'Multipart/Related; BOUNDARY=abc', body('abc')), { payload: '{urn:example:calc}Echo' })
  assertEmpty(t, await send(app, 'multipart/related; type="application/xop+xml"', body('abc')), 400)
  assertEmpty(t, await send(app, typed(''), body('')), 400)
  assertEmpty(t, await send(app, typed(max + 'z'), body(max + 'z')), 400)
  assertEmpty(t, await send(app, typed('ab '), body('ab ')), 400)
  assertEmpty(t, await send(app, typed('a;b'), body('a;b')), 400)
  assertEmpty(t, await send(app, typed('a\u00e9'), body('a\u00e9')), 400)
})

test('docs/protocol.md "Be liberal": an MTOM request with no boundary parameter whose body starts with its own MIME header, naming multipart/related with a boundary (Mono\'s WCF), is read by that header', async (t: TestContext) => {
  const app = await build(t)
  for (const version of ['1.1', '1.2'] as const) {
    const { contentType, body } = monoMessage(uploadEnvelope(version, ['http://tempuri.org/1/639313476741968700']), [
      { id: 'http://tempuri.org/1/639313476741968700', bytes: DATA }
    ])
    const response = await send(app, contentType, body, '/parts', { soapaction: '"urn:example:files/Upload"' })
    t.assert.strictEqual(response.statusCode, 200, response.body)
    t.assert.deepStrictEqual(partsOf(response.body), { version, payload: 'Upload', parts: { 'http://tempuri.org/1/639313476741968700': DATA.toString('base64') } })
  }
  // The header's start names the root part, here the second.
  const swapped = multipartBody(MONO_BOUNDARY, [{ head: partHead('a'), content: DATA }, { head: rootHead('1.2', 'root'), content: uploadEnvelope('1.2', ['a']) }])
  const response = await send(app, 'multipart/related', Buffer.concat([Buffer.from(`Content-Type: multipart/related; boundary="${MONO_BOUNDARY}"; start="<root>"\r\n\r\n`), swapped]), '/parts')
  t.assert.deepStrictEqual(partsOf(response.body).parts, { a: DATA.toString('base64') })
  // Without a boundary in either, or with one in the Content-Type, the body's own header is not read.
  assertEmpty(t, await send(app, 'multipart/related', Buffer.concat([Buffer.from('Content-Type: multipart/related\r\n\r\n'), swapped])), 400)
  assertEmpty(t, await send(app, 'multipart/related', Buffer.concat([Buffer.from(`Content-Type: text/xml; boundary="${MONO_BOUNDARY}"\r\n\r\n`), swapped])), 400)
  assertEmpty(t, await send(app, 'multipart/related; boundary=other', monoMessage(envelope('1.2', CALL), []).body), 400)
  assertEmpty(t, await send(app, 'multipart/related', monoMessage(envelope('1.2', CALL), [], monoHead('other')).body), 400)
  assertEmpty(t, await send(app, 'multipart/related', monoMessage(envelope('1.2', CALL), [], monoHead(MONO_BOUNDARY, 'none')).body), 400)
})

test('docs/protocol.md "Be liberal": an MTOM root part whose type parameter is empty (type="", Mono\'s WCF) is read in the version its Envelope\'s namespace names', async (t: TestContext) => {
  const app = await build(t)
  const root = (xml: string): Buffer => multipartBody(BOUNDARY, [{ head: `Content-Type: application/xop+xml;charset=utf-8;type=""\r\nContent-ID: <${MONO_START}>\r\n`, content: xml }])
  const type = `multipart/related; type="application/xop+xml"; boundary="${BOUNDARY}"`
  for (const version of ['1.1', '1.2'] as const) {
    const response = await send(app, type, root(envelope(version, CALL)), '/echo', { soapaction: '"urn:example:calc/Echo"' })
    await assertEcho(t, response, { version, payload: '{urn:example:calc}Echo', action: 'urn:example:calc/Echo' })
    t.assert.strictEqual(response.headers['content-type'], version === '1.1' ? 'text/xml; charset=utf-8' : 'application/soap+xml; charset=utf-8')
  }
  // Another namespace: a VersionMismatch fault, in SOAP 1.2.
  const other = await send(app, type, root('<e:Envelope xmlns:e="urn:not-soap"><e:Body/></e:Envelope>'))
  t.assert.strictEqual(other.statusCode, 500)
  t.assert.match(other.body, /<soap:Value>soap:VersionMismatch<\/soap:Value>/)
  // A root with no type parameter at all still names no SOAP media type.
  const none = multipartBody(BOUNDARY, [{ head: 'Content-Type: application/xop+xml;charset=utf-8\r\n', content: envelope('1.2', CALL) }])
  assertEmpty(t, await send(app, type, none), 415)
})

test('docs/protocol.md "MTOM/XOP": a delimiter starts the body or follows a preamble, then transport padding and CRLF (RFC 2046 §5.1.1)', async (t: TestContext) => {
  const app = await build(t)
  const type = mtomType('1.2')
  const parts = [ROOT(), { head: partHead('a'), content: DATA }]
  for (const framing of [{}, { preamble: 'This is a multipart message.\r\nSecond line' }, { preamble: '' }, { padding: ' \t ' }]) {
    const response = await send(app, type, multipartBody(BOUNDARY, parts, framing), '/parts')
    t.assert.strictEqual(response.statusCode, 200, JSON.stringify(framing))
    t.assert.deepStrictEqual(partsOf(response.body).parts, { a: DATA.toString('base64') })
  }
  // A delimiter followed by anything but padding and CRLF; no delimiter; LF alone instead of CRLF.
  const good = multipartBody(BOUNDARY, parts).toString('latin1')
  assertEmpty(t, await send(app, type, Buffer.from(good.replace(`\r\n--${BOUNDARY}\r\n`, `\r\n--${BOUNDARY}x\r\n`), 'latin1')), 400)
  assertEmpty(t, await send(app, type, Buffer.from(good.replace(`--${BOUNDARY}\r\n`, `--${BOUNDARY} x\r\n`), 'latin1')), 400)
  assertEmpty(t, await send(app, type, Buffer.from(envelope('1.2', CALL))), 400)
  assertEmpty(t, await send(app, type, Buffer.from(good.replace(/\r\n/g, '\n'), 'latin1')), 400)
  assertEmpty(t, await send(app, type, Buffer.from(good.replace(new RegExp(`\\r\\n--${BOUNDARY}`, 'g'), `\n--${BOUNDARY}`), 'latin1')), 400)
})

test('docs/protocol.md "MTOM/XOP": the boundary inside a part\'s data is data; CRLF -- boundary inside it is refused (RFC 2046 §5.1.1)', async (t: TestContext) => {
  const app = await build(t)
  const inner = Buffer.from(`x--${BOUNDARY}\r\n${BOUNDARY}--\n--${BOUNDARY}\r--${BOUNDARY}`, 'latin1')
  const parts = [ROOT(), { head: partHead('a'), content: inner }]
  const response = await send(app, mtomType('1.2'), multipartBody(BOUNDARY, parts), '/parts')
  t.assert.deepStrictEqual(partsOf(response.body).parts, { a: inner.toString('base64') })
  const smuggled = [ROOT(), { head: partHead('a'), content: Buffer.from(`x\r\n--${BOUNDARY}y`, 'latin1') }]
  assertEmpty(t, await send(app, mtomType('1.2'), multipartBody(BOUNDARY, smuggled)), 400)
})

test('docs/protocol.md "MTOM/XOP": the close delimiter ends the last part, the epilogue is passed over; a truncated body is refused (RFC 2046 §5.1.1)', async (t: TestContext) => {
  const app = await build(t)
  const parts = [ROOT(), { head: partHead('a'), content: DATA }]
  for (const epilogue of ['', '\r\n', '  \r\nan epilogue\r\n--' + BOUNDARY + '\r\n']) {
    const response = await send(app, mtomType('1.2'), multipartBody(BOUNDARY, parts, { epilogue }), '/parts')
    t.assert.deepStrictEqual(partsOf(response.body).parts, { a: DATA.toString('base64') }, JSON.stringify(epilogue))
  }
  const whole = multipartBody(BOUNDARY, parts)
  assertEmpty(t, await send(app, mtomType('1.2'), multipartBody(BOUNDARY, parts, { unclosed: true })), 400)
  for (const cut of [whole.length - 2, whole.length - 7, 60, 20]) {
    assertEmpty(t, await send(app, mtomType('1.2'), whole.subarray(0, cut)), 400)
  }
  assertEmpty(t, await send(app, mtomType('1.2'), Buffer.from(`--${BOUNDARY}--\r\n`, 'latin1')), 400)
  assertEmpty(t, await send(app, `multipart/related; boundary=${BOUNDARY}`, Buffer.from(`--${BOUNDARY}--`, 'latin1')), 400)
  // A last part whose header block's end is the close delimiter's CRLF: it has no content.
  const bare = Buffer.concat([multipartBody(BOUNDARY, [ROOT()], { unclosed: true }), Buffer.from(`\r\n--${BOUNDARY}\r\nContent-ID: <a>\r\n\r\n--${BOUNDARY}--`, 'latin1')])
  t.assert.deepStrictEqual(partsOf((await send(app, mtomType('1.2'), bare, '/parts')).body).parts, { a: '' })
})

test('docs/protocol.md "MTOM/XOP": a part\'s header fields end with an empty line, each line a field, folded lines joined (RFC 2045 §3)', async (t: TestContext) => {
  const app = await build(t)
  const type = mtomType('1.2')
  const folded = 'Content-Type: application/xop+xml;\r\n charset=UTF-8;\r\n\ttype="application/soap+xml"\r\n' +
    'X-Other: 1\r\nX-Other: 2\r\ncontent-id:<root.message@example.org>\r\n'
  const ok = await send(app, type, multipartBody(BOUNDARY, [{ head: folded, content: envelope('1.2', CALL) }, { head: '', content: DATA }]), '/parts')
  t.assert.strictEqual(ok.statusCode, 200, ok.body)
  t.assert.deepStrictEqual(partsOf(ok.body).parts, {}, 'a part with no fields has no Content-ID')
  const headed = (head: string): Buffer => multipartBody(BOUNDARY, [ROOT(), { head, content: DATA }])
  assertEmpty(t, await send(app, type, headed('Content-ID: <a>\r\nnot a field\r\n')), 400)
  assertEmpty(t, await send(app, type, headed(': empty name\r\n')), 400)
  assertEmpty(t, await send(app, type, headed('Bad Name: x\r\n')), 400)
  assertEmpty(t, await send(app, type, headed(' folded first: x\r\n')), 400)
  assertEmpty(t, await send(app, type, headed('Content-Type: a/b\r\nContent-Type: c/d\r\n')), 400)
  assertEmpty(t, await send(app, type, headed('Content-ID: <a>\r\nContent-ID: <a>\r\n')), 400)
  assertEmpty(t, await send(app, type, headed('Content-Transfer-Encoding: binary\r\ncontent-transfer-encoding: binary\r\n')), 400)
  // A header block that never ends.
  assertEmpty(t, await send(app, type, Buffer.from(`--${BOUNDARY}\r\nContent-Type: application/xop+xml\r\n`, 'latin1')), 400)
})

test('docs/protocol.md "MTOM/XOP": at most multipart.maxParts parts, maxPartHeaders fields, maxPartHeaderBytes bytes of header block (400)', async (t: TestContext) => {
  const app = await build(t)
  const type = mtomType('1.2')
  const many = (count: number): Buffer => multipartBody(BOUNDARY, [ROOT(), ...Array.from({ length: count - 1 }, (_, i) => ({ head: partHead(`p${i}`), content: 'x' }))])
  const fifty = await send(app, type, many(50), '/parts')
  t.assert.strictEqual(Object.keys(partsOf(fifty.body).parts).length, 49)
  assertEmpty(t, await send(app, type, many(51)), 400)
  const fields = (count: number): Buffer => multipartBody(BOUNDARY, [ROOT(), { head: 'X-A: 1\r\n'.repeat(count - 1) + 'Content-ID: <a>\r\n', content: 'x' }])
  t.assert.strictEqual((await send(app, type, fields(32))).statusCode, 200)
  assertEmpty(t, await send(app, type, fields(33)), 400)
  const sized = (bytes: number): Buffer => {
    const field = 'Content-ID: <a>\r\nX-Pad: '
    return multipartBody(BOUNDARY, [ROOT(), { head: field + 'p'.repeat(bytes - field.length - 2) + '\r\n', content: 'x' }])
  }
  // The block is its fields without the CRLF that ends the last one and the empty line.
  t.assert.strictEqual((await send(app, type, sized(8194))).statusCode, 200)
  assertEmpty(t, await send(app, type, sized(8195)), 400)
  const raised = await build(t, { multipart: { maxParts: 60, maxPartHeaders: 40, maxPartHeaderBytes: 9000 } })
  for (const body of [many(60), fields(40), sized(9002)]) t.assert.strictEqual((await send(raised, type, body)).statusCode, 200)
  for (const body of [many(61), fields(41), sized(9003)]) assertEmpty(t, await send(raised, type, body), 400)
})

test('docs/protocol.md "MTOM/XOP": the multipart option takes positive integers under its own keys', async (t: TestContext) => {
  await build(t, { multipart: {} })
  await build(t, { multipart: { maxParts: 1, maxPartHeaders: 1, maxPartHeaderBytes: 1 } })
  for (const multipart of [null, 5, { maxParts: 0 }, { maxPartHeaders: 1.5 }, { maxPartHeaderBytes: '8' }, { maxparts: 3 }]) {
    const app = Fastify()
    app.register(soap, { multipart } as unknown as FastifySoapOptions)
    await t.assert.rejects(async () => await app.ready(), (err: Error) => err instanceof errorCodes.SOAP_ERR_OPT_INVALID && err.message.includes('multipart'))
    await app.close()
  }
})

test('docs/protocol.md "MTOM/XOP": Content-Transfer-Encoding binary, 8bit or 7bit; base64 and the others are refused (RFC 2045 §6)', async (t: TestContext) => {
  const app = await build(t)
  const encoded = (encoding: string): Buffer => multipartBody(BOUNDARY, [ROOT(), { head: `Content-ID: <a>\r\nContent-Transfer-Encoding: ${encoding}\r\n`, content: DATA }])
  for (const encoding of ['binary', 'BINARY', '8bit', ' 7bit ']) {
    t.assert.deepStrictEqual(partsOf((await send(app, mtomType('1.2'), encoded(encoding), '/parts')).body).parts, { a: DATA.toString('base64') }, encoding)
  }
  for (const encoding of ['base64', 'quoted-printable', 'x-uuencode', '']) assertEmpty(t, await send(app, mtomType('1.2'), encoded(encoding)), 400)
})

test('docs/protocol.md "MTOM/XOP": a Content-ID is <id>, and no two parts have the same one (RFC 2392 §2)', async (t: TestContext) => {
  const app = await build(t)
  const ids = (...list: string[]): Buffer => multipartBody(BOUNDARY, [ROOT(), ...list.map((id) => ({ head: `Content-ID: ${id}\r\n`, content: 'x' }))])
  t.assert.deepStrictEqual(Object.keys(partsOf((await send(app, mtomType('1.2'), ids('<a>', ' <b> '), '/parts')).body).parts), ['a', 'b'])
  for (const bad of ['a', '<a', '<>', '<a b>', '<a<b>', '<a>>', '<\u00e9>']) assertEmpty(t, await send(app, mtomType('1.2'), ids(bad)), 400)
  assertEmpty(t, await send(app, mtomType('1.2'), ids('<a>', '<a>')), 400)
  assertEmpty(t, await send(app, mtomType('1.2'), ids('<root.message@example.org>')), 400)
})

// -------------------------------------------------------------------- root

test('docs/protocol.md "MTOM/XOP": the root part is the one start names, else the first (RFC 2387 §3.2)', async (t: TestContext) => {
  const app = await build(t)
  const attachment = { head: partHead('a'), content: DATA }
  const reordered = multipartBody(BOUNDARY, [attachment, ROOT()])
  const named = await send(app, mtomType('1.2'), reordered, '/parts')
  t.assert.deepStrictEqual(partsOf(named.body), { version: '1.2', payload: 'Echo', parts: { a: DATA.toString('base64') } })
  const bare = await send(app, mtomType('1.2', BOUNDARY, 'root.message@example.org'), reordered, '/parts')
  t.assert.strictEqual(partsOf(bare.body).payload, 'Echo')
  const first = await send(app, `multipart/related; boundary="${BOUNDARY}"`, multipartBody(BOUNDARY, [ROOT(), attachment]), '/parts')
  t.assert.deepStrictEqual(partsOf(first.body).parts, { a: DATA.toString('base64') })
  assertEmpty(t, await send(app, mtomType('1.2', BOUNDARY, '<missing@example.org>'), reordered), 400)
  assertEmpty(t, await send(app, `multipart/related; boundary="${BOUNDARY}"`, reordered), 415)
})

test('docs/protocol.md "MTOM/XOP": the root part is application/xop+xml of a SOAP media type and a supported charset (415)', async (t: TestContext) => {
  const app = await build(t)
  const rooted = (version: SoapVersion, head: string): Buffer => multipartBody(BOUNDARY, [{ head: head + 'Content-ID: <root.message@example.org>\r\n', content: envelope(version, CALL) }])
  await assertEcho(t, await send(app, mtomType('1.2'), rooted('1.2', 'Content-Type: APPLICATION/XOP+XML; type="Application/SOAP+XML"\r\n')), { version: '1.2' })
  const utf16 = multipartBody(BOUNDARY, [{
    head: 'Content-Type: application/xop+xml; charset=utf-16; type="text/xml"\r\nContent-ID: <root.message@example.org>\r\n',
    content: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(envelope('1.1', CALL).replace('utf-8', 'utf-16'), 'utf16le')])
  }])
  await assertEcho(t, await send(app, mtomType('1.1'), utf16, '/echo', { soapaction: '' }), { version: '1.1' })
  for (const head of [
    'Content-Type: application/soap+xml\r\n',
    'Content-Type: text/xml\r\n',
    '',
    'Content-Type: application/xop+xml\r\n',
    'Content-Type: application/xop+xml; type="application/xml"\r\n',
    'Content-Type: application/xop+xml; type="multipart/related"\r\n',
    'Content-Type: application/xop+xml; charset=iso-8859-1; type="application/soap+xml"\r\n'
  ]) {
    assertEmpty(t, await send(app, mtomType('1.2'), rooted('1.2', head)), 415)
  }
})

test('docs/protocol.md "MTOM/XOP": the root is decoded as any body: its faults are in the root type\'s version', async (t: TestContext) => {
  const app = await build(t)
  // A SOAP 1.2 envelope in a root part of type text/xml: VersionMismatch, in SOAP 1.1.
  const mismatch = mtomMessage('1.1', envelope('1.2', CALL), [])
  const response = await send(app, mismatch.contentType, mismatch.body, '/echo', { soapaction: '""' })
  t.assert.strictEqual(response.statusCode, 500)
  t.assert.strictEqual(response.headers['content-type'], 'text/xml; charset=utf-8')
  t.assert.match(response.body, /<faultcode>[a-z]+:VersionMismatch<\/faultcode>/)
  const broken = mtomMessage('1.2', envelope('1.2', CALL).replace('</m:Echo>', ''), [])
  assertEmpty(t, await send(app, broken.contentType, broken.body), 400)
})

// ---------------------------------------------------------------- Includes

/** A Sender fault (SOAP 1.2) whose reason says `reason`. */
function assertSender (t: TestContext, response: { statusCode: number, body: string }, reason: RegExp): void {
  t.assert.strictEqual(response.statusCode, 400, response.body)
  t.assert.match(response.body, /<env:Value>env:Sender<\/env:Value>|:Sender</)
  t.assert.match(response.body, reason)
}

test('docs/protocol.md "MTOM/XOP": an xop:Include is the only, empty child of its element, with href alone (XOP 1.0 §2.1)', async (t: TestContext) => {
  const app = await build(t)
  const ok = mtomMessage('1.2', uploadEnvelope('1.2', ['a']), [{ id: 'a', bytes: DATA }])
  t.assert.strictEqual((await send(app, ok.contentType, ok.body)).statusCode, 200)
  const within = (payload: string): Promise<{ statusCode: number, body: string }> => {
    const message = mtomMessage('1.2', envelope('1.2', `<m:Upload xmlns:m="urn:example:files" xmlns:xop="${XOP}">${payload}</m:Upload>`), [{ id: 'a', bytes: DATA }])
    return send(app, message.contentType, message.body)
  }
  assertSender(t, await within('<m:Data> <xop:Include href="cid:a"/></m:Data>'), /element m:Data holds an xop:Include beside other content/)
  assertSender(t, await within('<m:Data><xop:Include href="cid:a"/><m:More/></m:Data>'), /element m:Data holds an xop:Include beside/)
  assertSender(t, await within('<m:Data><m:More/><xop:Include href="cid:a"/></m:Data>'), /element m:Data holds an xop:Include beside/)
  assertSender(t, await within('<m:Data><xop:Include href="cid:a">x</xop:Include></m:Data>'), /The xop:Include in element m:Data has content/)
  assertSender(t, await within('<m:Data><xop:Include href="cid:a"><m:x/></xop:Include></m:Data>'), /The xop:Include in element m:Data has content/)
  assertSender(t, await within('<m:Data><xop:Include href="cid:a" m:extra="1"/></m:Data>'), /must have the href attribute and no other/)
  assertSender(t, await within('<m:Data><xop:Include xop:href="cid:a"/></m:Data>'), /must have the href attribute and no other/)
  assertSender(t, await within('<m:Data><xop:Include/></m:Data>'), /must have the href attribute and no other/)
  assertSender(t, await within('<m:Data><xop:Other href="cid:a"/></m:Data>'), /xop:Other is not an element of XOP/)
  assertSender(t, await within('<m:Data/><xop:Include href="cid:a"/>'), /element m:Upload holds an xop:Include beside/)
  // The whole content of the operation element is as good as any other's, for XOP.
  t.assert.strictEqual((await within('<xop:Include href="cid:a"/>')).statusCode, 200)
  const atBody = mtomMessage('1.2', envelope('1.2', `<xop:Include xmlns:xop="${XOP}" href="cid:a"/>`), [{ id: 'a', bytes: DATA }])
  assertSender(t, await send(app, atBody.contentType, atBody.body), /the Header or the Body holds an xop:Include/)
  // The namespace declaration beside href is no attribute.
  t.assert.strictEqual((await within(`<m:Data><x:Include xmlns:x="${XOP}" href="cid:a"/></m:Data>`)).statusCode, 200)
})

test('docs/protocol.md "MTOM/XOP": href is a cid: URL naming a part, never anything else (XOP 1.0 §2.2, RFC 2392 §2)', async (t: TestContext) => {
  const app = await build(t)
  const id = 'part%1/x@example.org'
  const include = (href: string): Promise<{ statusCode: number, body: string }> => {
    const xml = envelope('1.2', `<m:Upload xmlns:m="urn:example:files"><m:Data><xop:Include xmlns:xop="${XOP}" href="${href}"/></m:Data></m:Upload>`)
    const message = mtomMessage('1.2', xml, [{ id, bytes: DATA }])
    return send(app, message.contentType, message.body)
  }
  t.assert.strictEqual((await include('cid:' + encodeURIComponent(id))).statusCode, 200)
  t.assert.strictEqual((await include('CID:part%251%2fx@example.org')).statusCode, 200)
  for (const href of ['http://127.0.0.1:1/x', 'file:///etc/passwd', 'mid:part', 'part', '', 'cid:%', 'cid:%zz']) {
    assertSender(t, await include(href), /has an href that is not a cid: URL/)
  }
  for (const href of ['cid:other@example.org', 'cid:&lt;part%251%2Fx@example.org&gt;', 'cid:root.message@example.org', 'cid:']) {
    assertSender(t, await include(href), /names no part of the message/)
  }
})

test('docs/protocol.md "MTOM/XOP": no part is named by two Includes (XOP 1.0 §3.2)', async (t: TestContext) => {
  const app = await build(t)
  const message = mtomMessage('1.2', uploadEnvelope('1.2', ['a', 'a']), [{ id: 'a', bytes: DATA }])
  assertSender(t, await send(app, message.contentType, message.body), /The xop:Include in element m:Data names a part another Include named/)
  const header = mtomMessage('1.2', envelope('1.2', `<m:Upload xmlns:m="urn:example:files"><m:Data><xop:Include xmlns:xop="${XOP}" href="cid:a"/></m:Data></m:Upload>`,
    `<h:Thumb xmlns:h="urn:h"><xop:Include xmlns:xop="${XOP}" href="cid:a"/></h:Thumb>`), [{ id: 'a', bytes: DATA }])
  assertSender(t, await send(app, header.contentType, header.body), /names a part another Include named/)
})

test('docs/protocol.md "MTOM/XOP": a part no Include names is accepted and passed over', async (t: TestContext) => {
  const app = await build(t)
  const message = mtomMessage('1.2', uploadEnvelope('1.2', ['a']), [{ id: 'a', bytes: DATA }, { id: 'b', bytes: DATA }])
  const response = await send(app, message.contentType, message.body, '/parts')
  t.assert.deepStrictEqual(Object.keys(partsOf(response.body).parts), ['a', 'b'])
})

test('docs/protocol.md "MTOM/XOP": an Include where no binary value is due is a Sender fault naming the element', async (t: TestContext) => {
  const app = Fastify()
  await app.register(soap)
  app.soap.service({
    name: 'Files',
    path: '/files',
    namespace: 'urn:example:files',
    operations: {
      Upload: {
        input: { type: 'object', properties: { Name: { type: 'string' } }, required: ['Name'], additionalProperties: false },
        output: { type: 'object', properties: { Size: { type: 'integer' } }, required: ['Size'], additionalProperties: false },
        handler: async () => ({ Size: 0 })
      }
    }
  })
  t.after(() => app.close())
  await app.ready()
  const xml = envelope('1.2', `<m:Upload xmlns:m="urn:example:files"><m:Name><xop:Include xmlns:xop="${XOP}" href="cid:a"/></m:Name></m:Upload>`)
  const message = mtomMessage('1.2', xml, [{ id: 'a', bytes: DATA }])
  const response = await send(app, message.contentType, message.body, '/files')
  assertSender(t, response, /m:Name/)
  t.assert.match(response.body, /xop:Include/)
})

// ------------------------------------------------------------------- body

test('docs/protocol.md "MTOM/XOP": an MTOM body over bodyLimit is a 413, by Content-Length or as it streams', async (t: TestContext) => {
  const app = await build(t, { bodyLimit: 3000 })
  const message = mtomMessage('1.2', uploadEnvelope('1.2', ['a']), [{ id: 'a', bytes: Buffer.alloc(2000, 0x2d) }])
  t.assert.strictEqual(message.body.length < 3000, true)
  t.assert.strictEqual((await send(app, message.contentType, message.body)).statusCode, 200)
  const over = mtomMessage('1.2', uploadEnvelope('1.2', ['a']), [{ id: 'a', bytes: Buffer.alloc(3000, 0x2d) }])
  assertEmpty(t, await send(app, over.contentType, over.body), 413)
  const streamed = await app.inject({
    method: 'POST', url: '/echo', headers: { 'content-type': over.contentType, 'transfer-encoding': 'chunked' }, payload: Readable.from([over.body.subarray(0, 1000), over.body.subarray(1000)])
  })
  assertEmpty(t, streamed, 413)
  // In pieces, with its Content-Length: each piece lands where it belongs.
  const pieces = Array.from({ length: Math.ceil(message.body.length / 100) }, (_, i) => message.body.subarray(i * 100, i * 100 + 100))
  const pieced = await app.inject({
    method: 'POST', url: '/parts', headers: { 'content-type': message.contentType, 'content-length': String(message.body.length) }, payload: Readable.from(pieces)
  })
  t.assert.deepStrictEqual(partsOf(pieced.body).parts, { a: Buffer.alloc(2000, 0x2d).toString('base64') })
})

test('docs/protocol.md "MTOM/XOP": an MTOM body from a preParsing hook\'s stream is read as it comes, strings and all', async (t: TestContext) => {
  const ascii = Buffer.from('bytes\r\n--more bytes')
  const message = mtomMessage('1.2', uploadEnvelope('1.2', ['a']), [{ id: 'a', bytes: ascii }])
  const text = message.body.toString('latin1')
  const app = Fastify()
  await app.register(soap, {
    bodyLimit: 4096,
    routes: async (scope) => {
      scope.addHook('preParsing', async (request) => {
        const mode = request.headers['x-mode']
        if (mode === 'strings') return Readable.from([text.slice(0, 100), text.slice(100)], { objectMode: true }) as unknown as IncomingMessage
        if (mode === 'short') return Readable.from([message.body.subarray(0, 50)]) as unknown as IncomingMessage
        if (mode === 'long') return Readable.from([message.body, Buffer.alloc(5000)]) as unknown as IncomingMessage
        if (mode === 'broken') return new Readable({ read () { this.destroy(new Error('the stream broke')) } }) as unknown as IncomingMessage
      })
      await routes(scope, {})
    }
  })
  t.after(() => app.close())
  const answer = (mode: string) => app.inject({ method: 'POST', url: '/parts', headers: { 'content-type': message.contentType, 'x-mode': mode }, payload: message.body })
  const strings = await answer('strings')
  t.assert.strictEqual(strings.statusCode, 200, strings.body)
  t.assert.deepStrictEqual(partsOf(strings.body).parts, { a: ascii.toString('base64') })
  assertEmpty(t, await answer('short'), 400)
  assertEmpty(t, await answer('long'), 413)
  // A stream error is a 4xx error as Fastify's own collection makes it: a Sender fault, its message not sent.
  const broken = await answer('broken')
  t.assert.strictEqual(broken.statusCode, 400)
  t.assert.match(broken.body, /:Sender</)
  t.assert.doesNotMatch(broken.body, /the stream broke/)
})

// ------------------------------------------------------------------- codec

test('docs/protocol.md "MTOM/XOP": a binary value\'s bytes are its part\'s, byte for byte, as the handler gets them', async (t: TestContext) => {
  const app = Fastify()
  await app.register(soap)
  const seen: unknown[] = []
  app.soap.service({
    name: 'Files',
    path: '/files',
    namespace: 'urn:example:files',
    operations: {
      Upload: {
        input: {
          type: 'object',
          properties: {
            Data: { type: 'array', items: { type: 'string', contentEncoding: 'base64' } },
            Hex: { type: 'string', contentEncoding: 'base16' },
            Typed: {
              type: 'object',
              properties: { type: { type: 'string', xml: { attribute: true } }, value: { type: 'string', contentEncoding: 'base64', xml: { text: true } } },
              required: ['value'],
              additionalProperties: false
            }
          },
          additionalProperties: false
        },
        output: { type: 'object', properties: { Size: { type: 'integer' } }, required: ['Size'], additionalProperties: false },
        handler: async (input: unknown) => {
          seen.push(input)
          return { Size: 0 }
        }
      }
    }
  })
  t.after(() => app.close())
  await app.ready()
  const big = Buffer.alloc(70_000)
  for (let i = 0; i < big.length; i++) big[i] = (i * 7919) % 251
  const xml = envelope('1.2', `<m:Upload xmlns:m="urn:example:files" xmlns:xop="${XOP}">` +
    '<m:Data><xop:Include href="cid:one"/></m:Data><m:Data>AAEC</m:Data><m:Data><xop:Include href="cid:two"/></m:Data>' +
    '<m:Hex><xop:Include href="cid:hex"/></m:Hex><m:Typed type="image/png"><xop:Include href="cid:typed"/></m:Typed></m:Upload>')
  const message = mtomMessage('1.2', xml, [
    { id: 'two', bytes: big }, { id: 'one', bytes: DATA }, { id: 'hex', bytes: Buffer.from('hex bytes') }, { id: 'typed', bytes: Buffer.alloc(0) }
  ])
  const response = await send(app, message.contentType, message.body, '/files')
  t.assert.strictEqual(response.statusCode, 200, response.body)
  t.assert.deepStrictEqual(seen, [{
    Data: [DATA, Buffer.from([0, 1, 2]), big],
    Hex: Buffer.from('hex bytes'),
    Typed: { type: 'image/png', value: Buffer.alloc(0) }
  }])
  const input = seen[0] as { Data: Buffer[] }
  t.assert.ok(Buffer.isBuffer(input.Data[0]))
  // The same markup again (the decoder knows its shape), other bytes: this request's own.
  const again = mtomMessage('1.2', xml, [
    { id: 'two', bytes: Buffer.from('2') }, { id: 'one', bytes: Buffer.from('1') }, { id: 'hex', bytes: Buffer.from('h') }, { id: 'typed', bytes: Buffer.from('t') }
  ])
  t.assert.strictEqual((await send(app, again.contentType, again.body, '/files')).statusCode, 200)
  t.assert.deepStrictEqual(seen[1], {
    Data: [Buffer.from('1'), Buffer.from([0, 1, 2]), Buffer.from('2')], Hex: Buffer.from('h'), Typed: { type: 'image/png', value: Buffer.from('t') }
  })
})

test('docs/protocol.md "MTOM/XOP": nothing keeps a request\'s parts once it is answered', async (t: TestContext) => {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  const app = await build(t, { bodyLimit: 16 * 1024 * 1024 })
  const xml = uploadEnvelope('1.2', ['a'])
  const request = async (): Promise<void> => {
    // The same markup each time: the decoder keeps its shape, and must keep none of its parts.
    const message = mtomMessage('1.2', xml, [{ id: 'a', bytes: Buffer.alloc(8 * 1024 * 1024, 0x41) }])
    const response = await send(app, message.contentType, message.body, '/parts')
    t.assert.strictEqual(response.statusCode, 200)
  }
  // What the runtime lets go only after a few turns of the loop and a second collection is not kept.
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20))
      gc()
    }
  }
  await request()
  await settle()
  const before = process.memoryUsage().arrayBuffers
  for (let i = 0; i < 5; i++) await request()
  await settle()
  const grown = (process.memoryUsage().arrayBuffers - before) / 1024 / 1024
  t.assert.ok(grown < 4, `Buffers grew ${grown.toFixed(1)} MiB over five requests of 8 MiB`)
})

// --------------------------------------------------------------- property

test('docs/protocol.md "MTOM/XOP": any parts under any boundary, which their data may hold but not as a delimiter, read back byte for byte', async (t: TestContext) => {
  const app = await build(t, { multipart: { maxParts: 10 } })
  const bchars = "0123456789abcXYZ'()+_,-./:=? "
  const boundaryArb = fc.tuple(fc.array(fc.constantFrom(...bchars), { minLength: 0, maxLength: 69 }), fc.constantFrom(...bchars.trim()))
    .map(([chars, last]) => chars.join('') + last)
  const message = fc.record({
    boundary: boundaryArb,
    // Data drawn from bytes that make delimiters likely: CR, LF, '-' and the boundary's own.
    parts: fc.array(fc.array(fc.oneof(fc.constantFrom('\r', '\n', '-', ' ', '\t', 'B'), fc.integer({ min: 0, max: 255 }).map((b) => String.fromCharCode(b))), { maxLength: 40 }), { maxLength: 8 }),
    spliced: fc.array(fc.nat(), { maxLength: 4 }),
    preamble: fc.option(fc.string({ maxLength: 10 }).map((s) => s.replace(/-/g, '')), { nil: undefined }),
    padding: fc.constantFrom('', ' ', '\t \t')
  })
  await fc.assert(fc.asyncProperty(message, async ({ boundary, parts, spliced, preamble, padding }) => {
    const datas = parts.map((chars, i) => {
      let data = chars.join('')
      // The boundary itself, and "--" boundary, spliced in, never after a CRLF.
      for (const at of spliced) {
        const where = at % (data.length + 1)
        data = data.slice(0, where) + (at % 2 === 0 ? boundary : `--${boundary}`) + data.slice(where)
      }
      data = data.split(`\r\n--${boundary}`).join(`\r\n-${boundary}`)
      return Buffer.from(`${i}:${data}`, 'latin1')
    }).filter((data) => !data.includes(`\r\n--${boundary}`))
    const body = multipartBody(boundary, [
      { head: rootHead('1.2'), content: envelope('1.2', CALL) },
      ...datas.map((content, i) => ({ head: partHead(`p${i}`), content }))
    ], { preamble, padding })
    const response = await send(app, `multipart/related; type="application/xop+xml"; boundary="${boundary}"; start="<root.message@example.org>"`, body, '/parts')
    t.assert.strictEqual(response.statusCode, 200, response.body)
    const expected: Record<string, string> = {}
    datas.forEach((data, i) => { expected[`p${i}`] = data.toString('base64') })
    t.assert.deepStrictEqual(partsOf(response.body).parts, expected)
  }), { numRuns: 150 })
})
