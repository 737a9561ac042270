/**
 * Contract first (docs/contract-first.md "The mapping"): the facets whose
 * meaning XML Schema gives in its own terms. whiteSpace normalises a value
 * before its other facets apply (XML Schema Part 2 §4.3.6); the length facets
 * of the binary types count octets (§4.3.1.3). Contracts written here, and
 * Digipoort's, served through `fastify.inject`.
 */
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import Fastify, { type FastifyInstance } from 'fastify'
import soap, { readContract } from '../lib/index'
import { CONTRACT_NS, contractWsdl, envelope, MEDIA, sharedFixture } from './helper'

const K = CONTRACT_NS

/** A WSDL 1.1 document serving `Op` (document/literal): input `k:Op`, output `k:OpResponse`, both declared in `types`. */
function wsdl (types: string): string {
  return contractWsdl({ types: `<xs:schema targetNamespace="${K}" elementFormDefault="qualified">${types}</xs:schema>` })
}

async function serve (t: TestContext, document: string, Op: (input: Record<string, unknown>) => unknown): Promise<FastifyInstance> {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.contract({ path: '/x', document, operations: { Op: async (input: Record<string, unknown>) => await Op(input) } })
  await app.ready()
  return app
}

async function send (app: FastifyInstance, body: string): Promise<{ statusCode: number, body: string }> {
  return await app.inject({ method: 'POST', url: '/x', headers: { 'content-type': MEDIA['1.1'] }, payload: envelope('1.1', body) })
}

// ------------------------------------------------------------ whiteSpace ---

const SPACES = `
  <xs:simpleType name="Code"><xs:restriction base="xs:token"><xs:enumeration value="A B"/><xs:enumeration value="  C  "/></xs:restriction></xs:simpleType>
  <xs:simpleType name="Kenmerk"><xs:restriction base="xs:normalizedString"><xs:whiteSpace value="collapse"/><xs:maxLength value="5"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="Words"><xs:restriction base="xs:string"><xs:whiteSpace value="replace"/><xs:pattern value="[a-z ]+"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="Plain"><xs:restriction base="xs:string"><xs:enumeration value="A"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="Either"><xs:union memberTypes="k:Code xs:int"/></xs:simpleType>
  <xs:simpleType name="Codes"><xs:union memberTypes="k:Code"><xs:simpleType><xs:restriction base="xs:NMTOKEN"><xs:enumeration value="D"/></xs:restriction></xs:simpleType></xs:union></xs:simpleType>
  <xs:simpleType name="Mixed"><xs:union memberTypes="k:Code xs:string"/></xs:simpleType>
  <xs:simpleType name="Names"><xs:list itemType="xs:NCName"/></xs:simpleType>
  <xs:complexType name="Tagged"><xs:simpleContent><xs:extension base="xs:token"><xs:attribute name="lang" type="xs:language"/></xs:extension></xs:simpleContent></xs:complexType>
  <xs:complexType name="Values"><xs:sequence>
    <xs:element name="s" type="xs:string"/>
    <xs:element name="n" type="xs:normalizedString"/>
    <xs:element name="code" type="k:Code"/>
    <xs:element name="kenmerk" type="k:Kenmerk"/>
    <xs:element name="words" type="k:Words" minOccurs="0"/>
    <xs:element name="plain" type="k:Plain" minOccurs="0"/>
    <xs:element name="when" type="xs:dateTime" minOccurs="0"/>
    <xs:element name="amount" type="xs:decimal" minOccurs="0"/>
    <xs:element name="tagged" type="k:Tagged" minOccurs="0"/>
    <xs:element name="name" type="xs:NCName" minOccurs="0" maxOccurs="unbounded"/>
    <xs:element name="fixed" type="xs:token" fixed=" x  y " minOccurs="0"/>
    <xs:element name="either" type="k:Either" minOccurs="0"/>
    <xs:element name="codes" type="k:Codes" minOccurs="0"/>
    <xs:element name="mixed" type="k:Mixed" minOccurs="0"/>
    <xs:element name="names" type="k:Names" minOccurs="0"/>
  </xs:sequence><xs:attribute name="id" type="xs:ID"/></xs:complexType>
  <xs:element name="Op" type="k:Values"/>
  <xs:element name="OpResponse" type="k:Values"/>`

const PRETTY = `<k:Op xmlns:k="${K}" id=" i1&#9;">
  <k:s>
    kept  as sent
  </k:s>
  <k:n>a\tb
c</k:n>
  <k:code>
    A  \t B
  </k:code>
  <k:kenmerk>
    ab  cd
  </k:kenmerk>
  <k:words>a\tb</k:words>
  <k:when>
    2026-01-31T10:00:00Z
  </k:when>
  <k:amount> 12.50 </k:amount>
  <k:tagged lang=" nl "> x  y </k:tagged>
  <k:name> a </k:name><k:name>
    b</k:name>
  <k:fixed>x y</k:fixed>
  <k:either> 7 </k:either>
  <k:codes> D </k:codes>
  <k:mixed> C </k:mixed>
  <k:names> a  b </k:names>
</k:Op>`

test('XML Schema Part 2 §4.3.6 whiteSpace: values of xs:token, xs:normalizedString, their built-in descendants and the types stating replace or collapse are normalised as read, before their facets apply: the handler gets the value, the reply carries it; xs:string is kept as sent', async (t: TestContext) => {
  let seen: Record<string, unknown> | undefined
  const app = await serve(t, wsdl(SPACES), (input) => { seen = input; return input })
  const res = await send(app, PRETTY)
  t.assert.strictEqual(res.statusCode, 200, res.body)
  t.assert.deepStrictEqual(seen, {
    id: 'i1',
    s: '\n    kept  as sent\n  ',
    n: 'a b c',
    code: 'A B',
    kenmerk: 'ab cd',
    words: 'a b',
    when: '2026-01-31T10:00:00Z',
    amount: '12.50',
    tagged: { lang: 'nl', $value: 'x y' },
    name: ['a', 'b'],
    fixed: 'x y',
    either: '7',
    codes: 'D',
    mixed: ' C ',
    names: ['a', 'b']
  })
  t.assert.match(res.body, /<tns:code>A B<\/tns:code><tns:kenmerk>ab cd<\/tns:kenmerk>/)
  t.assert.match(res.body, /<tns:s>\n {4}kept {2}as sent\n {2}<\/tns:s>/)
})

test('XML Schema Part 2 §4.3.6 whiteSpace: an enumeration of an xs:token type matches after collapse (its own values collapsed too), one of xs:string only as sent; lengths and patterns count what is left', async (t: TestContext) => {
  const app = await serve(t, wsdl(SPACES), (input) => input)
  const values = (inner: string): string => `<k:Op xmlns:k="${K}"><k:s/><k:n/>${inner}</k:Op>`
  for (const [inner, status, message] of [
    ['<k:code>\n  C\n</k:code><k:kenmerk>abcde</k:kenmerk>', 200, undefined],
    ['<k:code>AB</k:code><k:kenmerk>abcde</k:kenmerk>', 500, /\/code.*must be equal to one of the allowed values/],
    ['<k:code>C</k:code><k:kenmerk>\n  abcde\n</k:kenmerk>', 200, undefined],
    ['<k:code>C</k:code><k:kenmerk>\n  abc def\n</k:kenmerk>', 500, /\/kenmerk.*must NOT have more than 5 characters/],
    ['<k:code>C</k:code><k:kenmerk>a</k:kenmerk><k:plain>A</k:plain>', 200, undefined],
    ['<k:code>C</k:code><k:kenmerk>a</k:kenmerk><k:plain> A </k:plain>', 500, /\/plain.*must be equal to one of the allowed values/],
    ['<k:code>C</k:code><k:kenmerk>a</k:kenmerk><k:words>a\nb1</k:words>', 500, /\/words.*must match pattern/],
    ['<k:code>C</k:code><k:kenmerk>a</k:kenmerk><k:fixed>x  z</k:fixed>', 500, /\/fixed.*must be equal to constant/]
  ] as const) {
    const res = await send(app, values(inner))
    t.assert.strictEqual(res.statusCode, status, `${inner}: ${res.body}`)
    if (message !== undefined) t.assert.match(res.body, message, inner)
  }
})

test('XML Schema Part 2 §4.3.6 whiteSpace: the schemas say it as xml.whiteSpace, on strings only: a union takes the weakest of its members\', a list\'s items none', async (t: TestContext) => {
  const contract = await readContract({ document: wsdl(SPACES) })
  const properties = (contract.operations.Op.input as { properties: Record<string, Record<string, unknown>> }).properties
  const whiteSpace = (schema: Record<string, unknown> | undefined): unknown => (schema?.xml as { whiteSpace?: string } | undefined)?.whiteSpace
  t.assert.deepStrictEqual(Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, whiteSpace(schema)])), {
    s: undefined,
    n: 'replace',
    code: 'collapse',
    kenmerk: 'collapse',
    words: 'replace',
    plain: undefined,
    when: 'collapse',
    amount: 'collapse',
    tagged: undefined,
    name: undefined,
    fixed: 'collapse',
    either: 'collapse',
    codes: 'collapse',
    mixed: undefined,
    names: undefined,
    id: 'collapse'
  })
  t.assert.deepStrictEqual(properties.code.enum, ['A B', 'C'])
  t.assert.strictEqual(whiteSpace((properties.tagged.properties as Record<string, Record<string, unknown>>).$value), 'collapse')
  t.assert.strictEqual(whiteSpace(properties.name.items as Record<string, unknown>), 'collapse')
  t.assert.deepStrictEqual(properties.names.items, { type: 'string' })
})

// ---------------------------------------------------- lengths of binaries ---

const BINARY = `
  <xs:simpleType name="Blob"><xs:restriction base="xs:base64Binary"><xs:maxLength value="4"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="Some"><xs:restriction base="xs:base64Binary"><xs:minLength value="2"/><xs:whiteSpace value="collapse"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="Pair"><xs:restriction base="xs:hexBinary"><xs:length value="2"/></xs:restriction></xs:simpleType>
  <xs:element name="Op"><xs:complexType><xs:sequence>
    <xs:element name="blob" type="k:Blob" minOccurs="0"/>
    <xs:element name="some" type="k:Some" minOccurs="0"/>
    <xs:element name="pair" type="k:Pair" minOccurs="0"/>
    <xs:element name="size" type="xs:int" minOccurs="0"/>
  </xs:sequence></xs:complexType></xs:element>
  <xs:element name="OpResponse"><xs:complexType><xs:sequence><xs:element name="blob" type="k:Blob"/></xs:sequence></xs:complexType></xs:element>`

test('XML Schema Part 2 §4.3.1.3 length: minLength, maxLength and length on xs:base64Binary and xs:hexBinary count the octets of the Buffer the text is read into, not its characters, in the request and in the answer', async (t: TestContext) => {
  let seen: Record<string, unknown> | undefined
  const app = await serve(t, wsdl(BINARY), (input) => {
    seen = input
    return { blob: Buffer.alloc(Number(input.size ?? 1), 7) }
  })
  const op = (inner: string): string => `<k:Op xmlns:k="${K}">${inner}</k:Op>`
  for (const [inner, status, message] of [
    ['<k:blob>AAAAAA==</k:blob>', 200, undefined],
    ['<k:blob>AAAA</k:blob>', 200, undefined],
    ['<k:blob>\n  AAAA\n  AA==\n</k:blob>', 200, undefined],
    ['<k:blob>AAAAAAA=</k:blob>', 500, /\/blob.*must NOT have more than 4 octets/],
    ['<k:blob>AAAA AAAA</k:blob>', 500, /\/blob.*must NOT have more than 4 octets/],
    ['<k:some>AAA=</k:some>', 200, undefined],
    ['<k:some>AA==</k:some>', 500, /\/some.*must NOT have fewer than 2 octets/],
    ['<k:pair> 0a0B </k:pair>', 200, undefined],
    ['<k:pair>0a0b0c</k:pair>', 500, /\/pair.*must NOT have more than 2 octets/],
    ['<k:pair>0a</k:pair>', 500, /\/pair.*must NOT have fewer than 2 octets/]
  ] as const) {
    const res = await send(app, op(inner))
    t.assert.strictEqual(res.statusCode, status, `${inner}: ${res.body}`)
    if (message !== undefined) t.assert.match(res.body, message, inner)
  }
  await send(app, op('<k:blob>\n  AAAA\n  AA==\n</k:blob><k:pair> 0a0B </k:pair>'))
  t.assert.deepStrictEqual(seen, { blob: Buffer.alloc(4), pair: Buffer.from([10, 11]) }, 'the octets, white space passed over')
  const four = await send(app, op('<k:size>4</k:size>'))
  t.assert.strictEqual(four.statusCode, 200, four.body)
  t.assert.match(four.body, /<tns:blob>BwcHBw==<\/tns:blob>/)
  const five = await send(app, op('<k:size>5</k:size>'))
  t.assert.strictEqual(five.statusCode, 500, 'an answer of 5 octets is refused (SOAP_ERR_OUTPUT_INVALID)')
  t.assert.match(five.body, /<faultcode>soap:Server<\/faultcode>/)
  const contract = await readContract({ document: wsdl(BINARY) })
  const properties = (contract.operations.Op.input as { properties: Record<string, unknown> }).properties
  t.assert.deepStrictEqual(properties.blob, { type: 'string', contentEncoding: 'base64', xml: { maxOctets: 4, namespace: K } })
  t.assert.deepStrictEqual(properties.pair, { type: 'string', contentEncoding: 'base16', xml: { whiteSpace: 'collapse', minOctets: 2, maxOctets: 2, namespace: K } })
})

// ------------------------------------------------------------- Digipoort ---

test('XML Schema Part 2 §4.3.6 and §4.3.1.3, Digipoort aanleveren: a 40-character kenmerk sent pretty-printed is taken, collapsed; inhoud is held to 20 MiB of octets, not of base64 characters (16 MB of content taken)', async (t: TestContext) => {
  const folder = sharedFixture(t, 'wsdl', 'digipoort-aanleverservice')
  if (folder === undefined) return
  const source = { wsdl: join(folder, '1.wsdl'), catalog: { '/cpl/digipoort-koppelvlak-1.2.xsd': './digipoort-koppelvlak-1.xsd' } }
  const contract = await readContract(source)
  const input = contract.operations.aanleveren.input as { properties: Record<string, { properties: Record<string, unknown> }> }
  t.assert.deepStrictEqual(input.properties.berichtInhoud.properties.inhoud, { type: 'string', contentEncoding: 'base64', xml: { maxOctets: 20971520, namespace: 'http://logius.nl/digipoort/koppelvlakservices/1.2/' } })
  const app = Fastify({ bodyLimit: 32 * 1024 * 1024 })
  t.after(() => app.close())
  await app.register(soap)
  type Aanlever = Record<string, unknown> & { kenmerk: string, berichtInhoud: { inhoud: Buffer } }
  let seen: Aanlever | undefined
  const aanleveren = async (value: Aanlever): Promise<Record<string, unknown>> => {
    seen = value
    const { kenmerk, berichtsoort, identiteitBelanghebbende, rolBelanghebbende } = value
    return { kenmerk, berichtsoort, tijdstempelAangeleverd: '2026-01-31T10:00:00Z', identiteitBelanghebbende, rolBelanghebbende }
  }
  // Its policy asks for X.509 signatures (with a Timestamp) and signed parts, which the plugin does not apply: these requests are unsigned.
  const ignorePolicyAssertions = ['AsymmetricBinding', 'IncludeTimestamp', 'SignedParts', 'SignedElements'].map((name) => `{http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200702}${name}`)
  app.soap.contract({ path: '/aanlever', ...source, ignorePolicyAssertions, operations: { aanleveren } })
  await app.ready()
  const kenmerk = 'K'.repeat(40)
  const wsa = 'http://www.w3.org/2005/08/addressing'
  const action = 'http://logius.nl/digipoort/wus/2.0/aanleverservice/1.2/AanleverService/aanleverenRequest'
  const request = (kenmerkText: string, inhoud: string): string => envelope('1.1', `
    <tns:aanleverRequest xmlns:tns="http://logius.nl/digipoort/koppelvlakservices/1.2/">
      <tns:kenmerk>${kenmerkText}</tns:kenmerk>
      <tns:berichtsoort>Omzetbelasting</tns:berichtsoort>
      <tns:identiteitBelanghebbende><tns:nummer>001000044B37</tns:nummer><tns:type>Fi</tns:type></tns:identiteitBelanghebbende>
      <tns:rolBelanghebbende>Bedrijf</tns:rolBelanghebbende>
      <tns:berichtInhoud><tns:mimeType>text/xml</tns:mimeType><tns:bestandsnaam>ob.xbrl</tns:bestandsnaam><tns:inhoud>${inhoud}</tns:inhoud></tns:berichtInhoud>
    </tns:aanleverRequest>`, `<wsa:Action xmlns:wsa="${wsa}">${action}</wsa:Action><wsa:MessageID xmlns:wsa="${wsa}">urn:uuid:6b1c1e6e-9f0a-4f3e-9c55-3d4c0b1f0a01</wsa:MessageID>`)
  const post = async (payload: string): Promise<{ statusCode: number, body: string }> => await app.inject({ method: 'POST', url: '/aanlever', headers: { 'content-type': MEDIA['1.1'], soapaction: `"${action}"` }, payload })
  const pretty = await post(request(`\n        ${kenmerk}\n      `, 'PHg+PC94Pg=='))
  t.assert.strictEqual(pretty.statusCode, 200, pretty.body)
  t.assert.strictEqual(seen?.kenmerk, kenmerk)
  t.assert.match(pretty.body, new RegExp(`<tns:kenmerk>${kenmerk}</tns:kenmerk>`))
  const long = await post(request(`\n        ${kenmerk}K\n      `, 'PHg+PC94Pg=='))
  t.assert.strictEqual(long.statusCode, 500)
  t.assert.match(long.body, /\/kenmerk.*must NOT have more than 40 characters/)
  const content = Buffer.alloc(16_000_000, 0x5a).toString('base64')
  const large = await post(request(kenmerk, content))
  t.assert.strictEqual(large.statusCode, 200, large.body.slice(0, 2000))
  t.assert.strictEqual(seen?.berichtInhoud.inhoud.length, 16_000_000, 'content of 16 MB (21.3 million base64 characters) is taken, as its octets')
})

// ------------------------------------------------------ lexical forms ---

const TIMES = `
  <xs:complexType name="Times"><xs:sequence>
    <xs:element name="duration" type="xs:duration" minOccurs="0"/>
    <xs:element name="gYear" type="xs:gYear" minOccurs="0"/>
    <xs:element name="gYearMonth" type="xs:gYearMonth" minOccurs="0"/>
    <xs:element name="gMonth" type="xs:gMonth" minOccurs="0"/>
    <xs:element name="gMonthDay" type="xs:gMonthDay" minOccurs="0"/>
    <xs:element name="gDay" type="xs:gDay" minOccurs="0"/>
  </xs:sequence><xs:attribute name="every" type="xs:duration"/></xs:complexType>
  <xs:element name="Op" type="k:Times"/>
  <xs:element name="OpResponse" type="k:Times"/>`

/** Each value sent as the element (or attribute) of its type: 200 and the value as the handler got it, or 500 naming it. */
async function lexicalForms (t: TestContext, cases: ReadonlyArray<readonly [type: string, value: string, valid: boolean]>): Promise<void> {
  const app = await serve(t, wsdl(TIMES), (input) => input)
  for (const [type, value, valid] of cases) {
    const inner = type === 'every' ? `<k:Op xmlns:k="${K}" every="${value}"/>` : `<k:Op xmlns:k="${K}"><k:${type}> ${value} </k:${type}></k:Op>`
    const res = await send(app, inner)
    t.assert.strictEqual(res.statusCode, valid ? 200 : 500, `${type} ${value}: ${res.body}`)
    const written = type === 'every' ? ` every="${value}"` : `<tns:${type}>${value}</tns:${type}>`
    if (valid) t.assert.ok(res.body.includes(written), `${type} ${value}: ${res.body}`)
    else t.assert.match(res.body, new RegExp(`/${type}.*must match pattern`), `${type} ${value}`)
  }
  // An answer is held to the form too.
  const wrong = await serve(t, wsdl(TIMES), () => ({ duration: 'P1Y2' }))
  const res = await send(wrong, `<k:Op xmlns:k="${K}"/>`)
  t.assert.strictEqual(res.statusCode, 500, res.body)
  t.assert.doesNotMatch(res.body, /P1Y2/)
}

test('XML Schema Part 2 §3.2.6 duration: an xs:duration element or attribute takes PnYnMnDTnHnMnS with at least one item, T only before a time item, seconds with a fraction, a leading minus (collapsed); P1Y2, P, PT, P1DT, P1M1Y, P1W, P1.5Y, +P1D are refused; an answer is held to it too', async (t: TestContext) => {
  await lexicalForms(t, [
    ['duration', 'P1Y2M3DT10H30M', true],
    ['duration', 'P1Y2', false],
    ['duration', '-P1D', true],
    ['duration', 'PT1.5S', true],
    ['duration', 'PT36H', true],
    ['duration', 'P0D', true],
    ['duration', 'P1Y1D', true],
    ['duration', 'PT1H1S', true],
    ['duration', 'P', false],
    ['duration', 'PT', false],
    ['duration', 'P1DT', false],
    ['duration', 'P1M1Y', false],
    ['duration', 'P1W', false],
    ['duration', 'P1.5Y', false],
    ['duration', '+P1D', false],
    ['every', 'PT60S', true],
    ['every', 'sixty seconds', false]
  ])
})

test('XML Schema Part 2 §3.2.9-3.2.13 gYearMonth, gYear, gMonthDay, gDay, gMonth: each takes its lexical form (a year of four digits or more, not 0000; a month 01-12; a day of its month; an optional time zone) and refuses others', async (t: TestContext) => {
  await lexicalForms(t, [
    ['gYear', '2024', true],
    ['gYear', '-0044Z', true],
    ['gYear', '12024+14:00', true],
    ['gYear', '24', false],
    ['gYear', '0000', false],
    ['gYear', '02024', false],
    ['gYear', '2024-05', false],
    ['gYearMonth', '2024-05', true],
    ['gYearMonth', '2024-13', false],
    ['gYearMonth', '2024-5', false],
    ['gMonth', '--05', true],
    ['gMonth', '--12Z', true],
    ['gMonth', '--13', false],
    ['gMonth', '05', false],
    ['gMonthDay', '--02-29', true],
    ['gMonthDay', '--12-31-05:00', true],
    ['gMonthDay', '--02-30', false],
    ['gMonthDay', '--04-31', false],
    ['gMonthDay', '--13-01', false],
    ['gDay', '---31', true],
    ['gDay', '---32', false],
    ['gDay', '---1', false],
    ['gDay', '17', false]
  ])
})

test('XML Schema Part 1 §3.9.1 and §3.10 minOccurs of xs:any: a wildcard always there requires its minOccurs elements (in a namespace it admits), in the request and in the answer; an optional one, or one in a choice, none', async (t: TestContext) => {
  const types = `
    <xs:element name="Op"><xs:complexType><xs:sequence>
      <xs:element name="a" type="xs:string"/>
      <xs:any namespace="##other" processContents="lax" minOccurs="2" maxOccurs="3"/>
      <xs:choice minOccurs="0"><xs:element name="c" type="xs:string"/><xs:any namespace="urn:c" processContents="lax"/></xs:choice>
    </xs:sequence></xs:complexType></xs:element>
    <xs:element name="OpResponse"><xs:complexType><xs:sequence><xs:any namespace="##other" processContents="lax"/></xs:sequence></xs:complexType></xs:element>`
  let answer: Record<string, unknown> = {}
  const app = await serve(t, wsdl(types), () => answer)
  const raw = (n: number): string => Array.from({ length: n }, (_, i) => `<o:x xmlns:o="urn:o">${i}</o:x>`).join('')
  answer = { $any: [{ name: 'o:y', prefix: 'o', localName: 'y', namespace: 'urn:o', attributes: [], children: ['y'] }] }
  for (const [inner, status] of [[raw(2), 200], [raw(3), 200], [raw(1), 500], ['', 500], [`<k:x>1</k:x>${raw(1)}`, 500]] as const) {
    const res = await send(app, `<k:Op xmlns:k="${K}"><k:a>a</k:a>${inner}</k:Op>`)
    t.assert.strictEqual(res.statusCode, status, `${inner}: ${res.body}`)
    if (status === 200) t.assert.match(res.body, /<o:y xmlns:o="urn:o">y<\/o:y>/)
    else t.assert.match(res.body, /must NOT have fewer than 2 items|unexpected element/, inner)
  }
  answer = {}
  const res = await send(app, `<k:Op xmlns:k="${K}"><k:a>a</k:a>${raw(2)}</k:Op>`)
  t.assert.strictEqual(res.statusCode, 500, res.body)
  t.assert.doesNotMatch(res.body, /OpResponse/)
})

test('XML Schema Part 2 §2.5.1.3 union datatypes: a union\'s value has the lexical form of one of its members (a number\'s, a date\'s, a duration\'s, an enumeration, a pattern); a union with a member of no stated form (xs:string) takes any text', async (t: TestContext) => {
  const types = `
    <xs:simpleType name="Real"><xs:union memberTypes="xs:decimal xs:double"/></xs:simpleType>
    <xs:simpleType name="When"><xs:union memberTypes="xs:dateTime xs:duration"/></xs:simpleType>
    <xs:simpleType name="Minutes"><xs:union>
      <xs:simpleType><xs:restriction base="xs:int"><xs:minInclusive value="0"/></xs:restriction></xs:simpleType>
      <xs:simpleType><xs:restriction base="xs:token"><xs:enumeration value="never (a+b)"/></xs:restriction></xs:simpleType>
      <xs:simpleType><xs:restriction base="xs:string"><xs:pattern value="[A-Z]{2}"/></xs:restriction></xs:simpleType>
      <xs:simpleType><xs:restriction base="xs:boolean"/></xs:simpleType>
    </xs:union></xs:simpleType>
    <xs:simpleType name="Text"><xs:union memberTypes="xs:int xs:string"/></xs:simpleType>
    <xs:element name="Op"><xs:complexType><xs:sequence>
      <xs:element name="real" type="k:Real" minOccurs="0"/><xs:element name="when" type="k:When" minOccurs="0"/>
      <xs:element name="minutes" type="k:Minutes" minOccurs="0"/><xs:element name="text" type="k:Text" minOccurs="0"/>
    </xs:sequence></xs:complexType></xs:element>
    <xs:element name="OpResponse"><xs:complexType/></xs:element>`
  const app = await serve(t, wsdl(types), () => ({}))
  for (const [inner, status] of [
    ['<k:real> 1.5 </k:real>', 200], ['<k:real>-1.5E3</k:real>', 200], ['<k:real>INF</k:real>', 200], ['<k:real>golf</k:real>', 500],
    ['<k:real>1.5.2</k:real>', 500], ['<k:when>2024-05-17T09:30:00Z</k:when>', 200], ['<k:when>P1D</k:when>', 200],
    ['<k:when>tomorrow</k:when>', 500], ['<k:minutes>15</k:minutes>', 200], ['<k:minutes>never (a+b)</k:minutes>', 200],
    ['<k:minutes>AB</k:minutes>', 200], ['<k:minutes>true</k:minutes>', 200], ['<k:minutes>never</k:minutes>', 500],
    ['<k:minutes>ABC</k:minutes>', 500], ['<k:text>golf</k:text>', 200]
  ] as const) {
    const res = await send(app, `<k:Op xmlns:k="${K}">${inner}</k:Op>`)
    t.assert.strictEqual(res.statusCode, status, `${inner}: ${res.body}`)
    if (status === 500) t.assert.match(res.body, /must match pattern/, inner)
  }
})
