/**
 * Binary values (docs/binary.md): `contentEncoding: 'base64'` and `'base16'`
 * strings, and a contract's xs:base64Binary and xs:hexBinary, reach the
 * handler as a Buffer and are written from a Buffer or a Uint8Array; their
 * text is checked as XML Schema Part 2 §3.2.16 and §3.2.15 say, and their
 * length facets count octets. Through fastify.inject.
 */
import { spawnSync } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import Fastify, { type FastifyInstance } from 'fastify'
import soap, { defineOperation, errorCodes, readContract, type SoapServiceDefinition } from '../lib/index'
import { main } from '../lib/contract/cli'
import { sampleValue } from '../lib/codec/sample'
import { CONTRACT_NS, contractWsdl, envelope, listen, MEDIA, post } from './helper'
import { CLIENTS, requireClient, runClient } from './interop'

const NS = 'urn:test:binary'
const ALL = Buffer.from(Array.from({ length: 256 }, (_, i) => i))
const blob = { type: 'string', contentEncoding: 'base64' } as const
const hex = { type: 'string', contentEncoding: 'base16' } as const
const small = { ...blob, xml: { minOctets: 2, maxOctets: 4 } } as const

type Logs = Array<{ err?: { code?: string, message?: string } }>

/** A service of one operation, Echo: its handler gets the input and answers what `answer` makes of it. */
async function build (
  t: TestContext, answer: (input: Record<string, unknown>) => unknown, extra: Partial<SoapServiceDefinition> = {}, logs?: Logs
): Promise<{ app: FastifyInstance, seen: Array<Record<string, unknown>> }> {
  const seen: Array<Record<string, unknown>> = []
  const values = {
    type: 'object',
    properties: {
      data: blob,
      hex,
      small,
      tag: { ...hex, xml: { attribute: true } },
      list: { type: 'array', items: blob, xml: { list: true } },
      note: { type: ['string', 'null'], contentEncoding: 'base64' }
    },
    additionalProperties: false
  } as const
  const app = Fastify(logs === undefined ? {} : { logger: { level: 'debug', stream: { write: (line: string) => logs.push(JSON.parse(line)) } } })
  t.after(() => app.close())
  await app.register(soap)
  const Echo = defineOperation({
    input: values,
    output: { ...values, xml: { name: 'EchoResponse' } },
    async handler (input) {
      seen.push(input)
      return answer(input) as never
    }
  })
  app.soap.service({ path: '/bin', namespace: NS, name: 'Bin', operations: { Echo }, ...extra })
  await app.ready()
  return { app, seen }
}

const echo = (inner: string): string => `<t:Echo xmlns:t="${NS}">${inner}</t:Echo>`

async function send (app: FastifyInstance, version: '1.1' | '1.2', inner: string): Promise<{ statusCode: number, body: string }> {
  return await post(app, version, envelope(version, echo(inner)), { url: '/bin' })
}

/** The text of the element `name` (any prefix) in an answer. */
function textOf (body: string, name: string): string | undefined {
  return new RegExp(`<(?:\\w+:)?${name}(?: [^>]*)?>([^<]*)</(?:\\w+:)?${name}>`).exec(body)?.[1]
}

/** Asserts a Sender fault (SOAP 1.1 Client, 500; SOAP 1.2 Sender, 400) whose reason matches `reason`. */
function assertSender (t: TestContext, res: { statusCode: number, body: string }, version: '1.1' | '1.2', reason: RegExp, what: string): void {
  t.assert.strictEqual(res.statusCode, version === '1.1' ? 500 : 400, `${what}: ${res.body}`)
  t.assert.match(res.body, version === '1.1' ? /<faultcode>soap:Client<\/faultcode>/ : /<soap:Value>soap:Sender<\/soap:Value>/, what)
  t.assert.match(res.body, reason, what)
}

for (const version of ['1.1', '1.2'] as const) {
  test(`docs/binary.md "Values", XML Schema Part 2 §3.2.16 and §3.2.15 (SOAP ${version}): the 256 byte values sent as base64 and as hex reach a code-first handler as Buffers, and come back from Buffers as canonical base64 and upper-case hex`, async (t: TestContext) => {
    const { app, seen } = await build(t, (input) => ({ data: input.data, hex: input.hex }))
    const res = await send(app, version, `<t:data>${ALL.toString('base64')}</t:data><t:hex>${ALL.toString('hex')}</t:hex>`)
    t.assert.strictEqual(res.statusCode, 200, res.body)
    t.assert.ok(Buffer.isBuffer(seen[0].data) && Buffer.isBuffer(seen[0].hex), 'Buffers')
    t.assert.deepStrictEqual(seen[0], { data: ALL, hex: ALL })
    t.assert.strictEqual(textOf(res.body, 'data'), ALL.toString('base64'))
    t.assert.strictEqual(textOf(res.body, 'hex'), ALL.toString('hex').toUpperCase())
  })

  test(`docs/binary.md "Values", docs/contract-first.md "The mapping" (SOAP ${version}): a contract's xs:base64Binary and xs:hexBinary carry the 256 byte values as Buffers, both ways`, async (t: TestContext) => {
    const app = Fastify()
    t.after(() => app.close())
    await app.register(soap)
    const seen: unknown[] = []
    app.soap.contract({
      path: '/k',
      document: binaryContract(version),
      operations: {
        Op: async (input: { blob: Buffer, pair: Buffer, doc: { $value: Buffer, contentType: string } }) => {
          seen.push(input)
          return { blob: input.blob, pair: new Uint8Array(input.pair), doc: { $value: input.doc.$value.subarray(1), contentType: input.doc.contentType } }
        }
      }
    })
    await app.ready()
    const body = `<k:Op xmlns:k="${CONTRACT_NS}"><k:blob>${ALL.toString('base64')}</k:blob><k:pair>${ALL.toString('hex')}</k:pair><k:doc contentType="text/plain">QUJD</k:doc></k:Op>`
    const res = await post(app, version, envelope(version, body), { url: '/k' })
    t.assert.strictEqual(res.statusCode, 200, res.body)
    t.assert.deepStrictEqual(seen, [{ blob: ALL, pair: ALL, doc: { $value: Buffer.from('ABC'), contentType: 'text/plain' } }])
    t.assert.match(res.body, /<tns:doc contentType="text\/plain">QkM=<\/tns:doc>/, 'simple content: the text of an element with attributes')
    t.assert.ok(Buffer.isBuffer((seen[0] as { blob: unknown }).blob))
    t.assert.strictEqual(textOf(res.body, 'blob'), ALL.toString('base64'))
    t.assert.strictEqual(textOf(res.body, 'pair'), ALL.toString('hex').toUpperCase())
  })

  test(`docs/protocol.md "Binary values", XML Schema Part 2 §3.2.16 (SOAP ${version}): base64 with a character outside its alphabet, "=" before its end or three of them, bits set that its padding leaves unused, or a length not a multiple of 4 (white space aside) is a Sender fault naming the element`, async (t: TestContext) => {
    const { app, seen } = await build(t, () => ({}))
    for (const [text, reason] of [
      ['QUJD!A==', /\/data not xs:base64Binary: character 5 is not one of base64's/],
      ['QU JD\nRA=\u00e9', /\/data not xs:base64Binary: character 10 is not one of base64's/],
      ['QQ==QUJD', /\/data not xs:base64Binary: "=" pads its end only/],
      ['Q===', /\/data not xs:base64Binary: "=" pads its end only, at most twice/],
      ['QR==', /\/data not xs:base64Binary: its last character before "=" has bits set that the padding leaves unused/],
      ['QUJ=', /\/data not xs:base64Binary: its last character before "=" has bits set that the padding leaves unused/],
      ['QUJDR', /\/data not xs:base64Binary: its 5 characters \(white space aside\) are not a multiple of 4/],
      ['QUJDRA=', /\/data not xs:base64Binary: its 7 characters \(white space aside\) are not a multiple of 4/]
    ] as const) {
      assertSender(t, await send(app, version, `<t:data>${text}</t:data>`), version, reason, text)
    }
    assertSender(t, await send(app, version, '<t:list>QUJD QU=D</t:list>'), version, /\/list\/1 not xs:base64Binary: "=" pads its end only/, 'a list item')
    t.assert.deepStrictEqual(seen, [], 'no handler ran')
  })

  test(`docs/protocol.md "Binary values", XML Schema Part 2 §3.2.15 (SOAP ${version}): hex of an odd number of digits, a character that is no hex digit, or white space between its digits is a Sender fault naming the element or attribute`, async (t: TestContext) => {
    const { app, seen } = await build(t, () => ({}))
    for (const [inner, reason] of [
      ['<t:hex>0A0</t:hex>', /\/hex not xs:hexBinary: it has an odd number of digits \(3\)/],
      ['<t:hex>0G</t:hex>', /\/hex not xs:hexBinary: character 2 is not a hexadecimal digit/],
      ['<t:hex>0a 0b</t:hex>', /\/hex not xs:hexBinary: character 3 is not a hexadecimal digit/]
    ] as const) {
      assertSender(t, await send(app, version, inner), version, reason, inner)
    }
    const attribute = await post(app, version, envelope(version, `<t:Echo xmlns:t="${NS}" tag="xyz"/>`), { url: '/bin' })
    assertSender(t, attribute, version, /\/tag not xs:hexBinary: character 1 is not a hexadecimal digit/, 'an attribute')
    t.assert.deepStrictEqual(seen, [], 'no handler ran')
  })
}

/**
 * A contract of Op: k:blob (xs:base64Binary), k:pair (xs:hexBinary), k:code (an enumeration of hexBinary) and k:doc
 * (base64Binary simple content with an attribute) in and out, bound to SOAP `version`.
 */
function binaryContract (version: '1.1' | '1.2', types = ''): string {
  const soapNs = version === '1.1' ? 'soap' : 'soap12'
  const values = '<xs:sequence><xs:element name="blob" type="xs:base64Binary" minOccurs="0"/><xs:element name="pair" type="xs:hexBinary" minOccurs="0"/>' +
    '<xs:element name="code" type="k:Code" minOccurs="0"/><xs:element name="doc" type="k:Doc" minOccurs="0"/></xs:sequence>'
  return contractWsdl({
    types: `<xs:schema targetNamespace="${CONTRACT_NS}" xmlns:k="${CONTRACT_NS}" elementFormDefault="qualified">
      <xs:complexType name="Doc"><xs:simpleContent><xs:extension base="xs:base64Binary"><xs:attribute name="contentType" type="xs:string"/></xs:extension></xs:simpleContent></xs:complexType>
      <xs:simpleType name="Code"><xs:restriction base="xs:hexBinary"><xs:enumeration value="0a0b"/><xs:enumeration value="FF"/><xs:pattern value="[0-9a-f]*"/></xs:restriction></xs:simpleType>
      ${types}
      <xs:element name="Op"><xs:complexType>${values}</xs:complexType></xs:element>
      <xs:element name="OpResponse"><xs:complexType>${values}</xs:complexType></xs:element>
    </xs:schema>`,
    binding: `<wsdl:binding name="B" type="tns:PT"><${soapNs}:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
      <wsdl:operation name="Op"><${soapNs}:operation soapAction="urn:svc/Op"/><wsdl:input><${soapNs}:body use="literal"/></wsdl:input><wsdl:output><${soapNs}:body use="literal"/></wsdl:output></wsdl:operation>
    </wsdl:binding>`,
    service: `<wsdl:service name="S"><wsdl:port name="P" binding="tns:B"><${soapNs}:address location="http://example.invalid/old"/></wsdl:port></wsdl:service>`
  })
}

test('docs/binary.md "Values", XML Schema Part 2 §3.2.16 (whiteSpace collapse): base64 in lines of 76 characters with CRLF, indented, or with spaces between its characters is read as its octets; hex with white space around its digits too', async (t: TestContext) => {
  const { app, seen } = await build(t, () => ({}))
  const lines = ALL.toString('base64').match(/.{1,76}/g)?.join('\r\n      ') ?? ''
  const res = await send(app, '1.1', `<t:data>\n      ${lines}\n    </t:data><t:small>Q U J D</t:small><t:hex>\n\t00ff\n</t:hex><t:list>\n QUJD\n QQ== </t:list>`)
  t.assert.strictEqual(res.statusCode, 200, res.body)
  t.assert.deepStrictEqual(seen, [{ data: ALL, small: Buffer.from('ABC'), hex: Buffer.from([0, 255]), list: [Buffer.from('ABC'), Buffer.from('A')] }])
  const empty = await send(app, '1.1', '<t:data/><t:hex>  </t:hex>')
  t.assert.strictEqual(empty.statusCode, 200, empty.body)
  t.assert.deepStrictEqual(seen[1], { data: Buffer.alloc(0), hex: Buffer.alloc(0) }, 'no text is no octets')
})

test('docs/binary.md "Lengths", XML Schema Part 2 §4.3.1.3: xml.minOctets and xml.maxOctets hold the Buffer\'s octets, in the request (a Sender fault) and in the answer (SOAP_ERR_OUTPUT_INVALID, a Receiver fault)', async (t: TestContext) => {
  const logs: Logs = []
  const { app } = await build(t, (input) => ({ small: Buffer.alloc(Number(input.data !== undefined ? (input.data as Buffer)[0] : 2)) }), {}, logs)
  for (const [text, ok] of [['QUI=', true], ['QUJDRA==', true], ['QQ==', false], ['QUJDREU=', false], ['  QU JD RA==  ', true]] as const) {
    const res = await send(app, '1.1', `<t:small>${text}</t:small>`)
    if (ok) t.assert.strictEqual(res.statusCode, 200, `${text}: ${res.body}`)
    else assertSender(t, res, '1.1', /\/small must NOT have (fewer than 2|more than 4) octets/, text)
  }
  t.assert.strictEqual((await send(app, '1.1', '<t:data>BA==</t:data>')).statusCode, 200, 'an answer of 4 octets')
  const five = await send(app, '1.1', '<t:data>BQ==</t:data>')
  t.assert.strictEqual(five.statusCode, 500)
  t.assert.match(five.body, /<faultcode>soap:Server<\/faultcode>/)
  t.assert.ok(logs.some((l) => l.err?.code === 'SOAP_ERR_OUTPUT_INVALID' && /the result at "\/small" must NOT have more than 4 octets/.test(l.err.message ?? '')), JSON.stringify(logs.map((l) => l.err?.message)))
})

test('docs/binary.md "Answers": a handler answering a string for a binary element is SOAP_ERR_OUTPUT_INVALID naming the element, a Receiver fault, whether validateOutput is on or off; a Uint8Array, a Buffer slice, an attribute, a list and null are written', async (t: TestContext) => {
  for (const validateOutput of [true, false]) {
    const logs: Logs = []
    const { app } = await build(t, (input) => input.data === undefined ? { data: 'QUJD' } : { data: ALL.subarray(1, 4), hex: new Uint8Array(ALL.buffer, ALL.byteOffset + 1, 2), tag: Buffer.from([0xab]), list: [ALL.subarray(0, 1), new Uint8Array([255])], note: null }, { validateOutput }, logs)
    const refused = await send(app, '1.1', '')
    t.assert.strictEqual(refused.statusCode, 500)
    t.assert.match(refused.body, /<faultcode>soap:Server<\/faultcode><faultstring>The server could not process the request<\/faultstring>/)
    const message = validateOutput ? /the result at "\/data" must be bytes \(a Buffer or Uint8Array\)/ : /the result at "\/data" must be bytes \(a Buffer or Uint8Array\), not a string/
    t.assert.ok(logs.some((l) => l.err?.code === 'SOAP_ERR_OUTPUT_INVALID' && message.test(l.err.message ?? '')), JSON.stringify(logs.map((l) => l.err?.message)))
    const written = await send(app, '1.1', '<t:data>AA==</t:data>')
    t.assert.strictEqual(written.statusCode, 200, written.body)
    t.assert.match(written.body, /<tns:EchoResponse xmlns:tns="urn:test:binary" xmlns:xsi="[^"]+" tag="AB"><tns:data>AQID<\/tns:data><tns:hex>0102<\/tns:hex><tns:list>AA== \/w==<\/tns:list><tns:note xsi:nil="true"\/><\/tns:EchoResponse>/)
  }
})

test('docs/services.md "What is refused", "The mapping": minLength, maxLength, pattern or format beside a binary contentEncoding, or a binary text of mixed content, is SOAP_ERR_SERVICE_SCHEMA (a binary value is bytes: its lengths are xml.minOctets and xml.maxOctets)', async (t: TestContext) => {
  for (const keyword of [{ minLength: 1 }, { maxLength: 4 }, { pattern: '^A' }, { format: 'uri' }]) {
    const app = Fastify()
    t.after(() => app.close())
    await app.register(soap)
    const input = { type: 'object', properties: { data: { ...hex, ...keyword } } } as const
    app.soap.service({ path: '/bin', namespace: NS, name: 'Bin', operations: { Echo: { input, async handler () {} } } })
    const err = await app.ready().then(() => undefined, (e: Error) => e)
    t.assert.ok(err instanceof errorCodes.SOAP_ERR_SERVICE_SCHEMA, JSON.stringify(keyword))
    t.assert.match(err.message, new RegExp(`/properties/data.*"${Object.keys(keyword)[0]}" does not apply to bytes \\(contentEncoding "base16"\\): their lengths are "xml.minOctets" and "xml.maxOctets"`))
  }
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  const mixed = { type: 'object', xml: { mixed: true }, properties: { $value: { ...blob, xml: { text: true } }, b: { type: 'string' } } } as const
  app.soap.service({ path: '/bin', namespace: NS, name: 'Bin', operations: { Echo: { input: mixed, async handler () {} } } })
  const err = await app.ready().then(() => undefined, (e: Error) => e)
  t.assert.ok(err instanceof errorCodes.SOAP_ERR_SERVICE_SCHEMA)
  t.assert.match(err.message, /"xml.mixed" needs a property of type string with "xml.text"/, 'mixed text is characters, not bytes (docs/services.md "The mapping")')
})

test('docs/binary.md "Values", XML Schema Part 2 §4.3.5 enumeration: an enumeration of xs:hexBinary holds octets, matched whatever the case of the digits; its pattern is not checked (docs/contract-first.md "The mapping")', async (t: TestContext) => {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  const seen: unknown[] = []
  const document = binaryContract('1.1')
  app.soap.contract({ path: '/k', document, operations: { Op: async (input: { code?: Buffer }) => { seen.push(input.code); return { code: input.code } } } })
  await app.ready()
  const op = (code: string): string => envelope('1.1', `<k:Op xmlns:k="${CONTRACT_NS}"><k:code>${code}</k:code></k:Op>`)
  const upper = await app.inject({ method: 'POST', url: '/k', headers: { 'content-type': MEDIA['1.1'] }, payload: op('0A0B') })
  t.assert.strictEqual(upper.statusCode, 200, upper.body)
  t.assert.match(upper.body, /<tns:code>0A0B<\/tns:code>/)
  t.assert.deepStrictEqual(seen, [Buffer.from([10, 11])])
  const other = await app.inject({ method: 'POST', url: '/k', headers: { 'content-type': MEDIA['1.1'] }, payload: op('0A0C') })
  assertSender(t, other, '1.1', /\/code must be equal to one of the allowed values/, '0A0C')
  const contract = await readContract({ document })
  const code = (contract.operations.Op.input as { properties: Record<string, unknown> }).properties.code
  t.assert.deepStrictEqual(code, { type: 'string', contentEncoding: 'base16', enum: ['0a0b', 'FF'], xml: { whiteSpace: 'collapse', namespace: CONTRACT_NS } })
})

test('docs/binary.md "Types", docs/contract-first.md "Types": fastify-soap types writes xs:base64Binary and xs:hexBinary fields as Buffer: a Buffer or Uint8Array type-checks, a string does not', async (t: TestContext) => {
  const root = join(__dirname, '..', '..')
  // Inside the package (dist/ is the build's), so that 'fastify-soap' names this package.
  const dir = await mkdtemp(join(root, 'dist', 'binary-types-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  await writeFile(join(dir, 'bin.wsdl'), binaryContract('1.1'))
  let err = ''
  t.assert.strictEqual(await main(['types', join(dir, 'bin.wsdl'), '--out', join(dir, 'bin.ts')], () => {}, (text) => { err += text }), 0, err)
  t.assert.match(await readFile(join(dir, 'bin.ts'), 'utf8'), /"contentEncoding": "base64"/)
  await writeFile(join(dir, 'use.ts'), `import type { OpInput, Operations } from './bin'

export const input: OpInput = { blob: Buffer.from('a'), pair: Buffer.from('b'), code: Buffer.from([255]) }
// @ts-expect-error: base64 text is no Buffer
export const text: OpInput = { blob: 'YQ==' }
export const op: Operations['Op'] = async (given) => ({ blob: new Uint8Array(given.blob ?? []), pair: given.pair })
// @ts-expect-error: nor is it in an answer
export const wrong: Operations['Op'] = async () => ({ blob: 'YQ==' })
`)
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { module: 'node16', moduleResolution: 'node16', target: 'ES2022', strict: true, types: ['node'], outDir: '.', rootDir: '.', noEmit: true },
    files: ['bin.ts', 'use.ts']
  }))
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { encoding: 'utf8', timeout: 120_000 })
  t.assert.strictEqual(tsc.status, 0, tsc.stdout + tsc.stderr)
})

test('docs/binary.md "Values", zeep (python3-zeep): the bytes zeep sends as xs:base64Binary, and the hex text it sends as xs:hexBinary, reach the handler as Buffers; the Buffer and Uint8Array answered reach zeep as the same bytes and hex', async (t: TestContext) => {
  const python = '/usr/bin/python3'
  if (!requireClient(t, 'zeep (python3-zeep)', python, ['-c', 'import zeep'])) return
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  const seen: unknown[] = []
  app.soap.contract({
    path: '/k',
    document: binaryContract('1.1'),
    operations: {
      Op: async (input: { blob: Buffer, pair: Buffer }) => {
        seen.push(input)
        return { blob: input.blob, pair: new Uint8Array(input.pair) }
      }
    }
  })
  const port = await listen(app)
  // zeep's $bytes marker is the UTF-8 of a text: characters of one, two, three and four octets, and a NUL. zeep takes
  // and gives an xs:hexBinary as its hex text.
  const text = 'bytes \u0000\u00e9\u4e2d\u{1f600} ~'
  const hex = Buffer.from(text).toString('hex')
  const spec = { wsdl: `http://127.0.0.1:${port}/k?wsdl`, service: 'S', port: 'P', operation: 'Op', args: { blob: { $bytes: text }, pair: hex } }
  const outcome = await runClient(python, [join(CLIENTS, 'contract_zeep.py'), JSON.stringify(spec)])
  t.assert.strictEqual(outcome.error, undefined, JSON.stringify(outcome))
  t.assert.deepStrictEqual(seen, [{ blob: Buffer.from(text), pair: Buffer.from(text) }])
  t.assert.deepStrictEqual(outcome.result, { blob: { $bytes: text }, pair: hex.toUpperCase(), code: null, doc: null })
})

test('docs/mock.md "Sample values", docs/binary.md "Values": a sample of a binary string is a Buffer of its octet bounds, or of one of its enumeration\'s values; a mock answers it as base64 or upper-case hex', async (t: TestContext) => {
  const schema = {
    type: 'object',
    properties: {
      blob: { ...blob, xml: { minOctets: 3, maxOctets: 3 } },
      free: hex,
      code: { type: ['string', 'null'], contentEncoding: 'base16', enum: ['0a0b', 'ff', null] },
      fixed: { ...blob, const: 'AAEC' }
    },
    required: ['blob', 'free', 'code', 'fixed']
  } as const
  for (const rich of [false, true]) {
    for (const seed of [1, 2, 3]) {
      const value = sampleValue(schema, { rich, seed }) as Record<string, Buffer>
      t.assert.ok(Object.values(value).every((v) => Buffer.isBuffer(v)), JSON.stringify(value))
      t.assert.strictEqual(value.blob.length, 3)
      t.assert.strictEqual(value.free.length, 6, 'about 6 octets when unbounded')
      t.assert.ok(value.code.equals(Buffer.from([10, 11])) || value.code.equals(Buffer.from([255])), value.code.toString('hex'))
      t.assert.deepStrictEqual(value.fixed, Buffer.from([0, 1, 2]))
    }
  }
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.contract({ path: '/k', document: binaryContract('1.1'), operations: {}, unimplemented: 'sample' })
  await app.ready()
  const res = await app.inject({ method: 'POST', url: '/k', headers: { 'content-type': MEDIA['1.1'] }, payload: envelope('1.1', `<k:Op xmlns:k="${CONTRACT_NS}"/>`) })
  t.assert.strictEqual(res.statusCode, 200, res.body)
  t.assert.match(res.body, /<tns:blob>[A-Za-z0-9+/]{8}<\/tns:blob><tns:pair>[0-9A-F]{12}<\/tns:pair><tns:code>(0A0B|FF)<\/tns:code>/)
})
