/**
 * Contract first (docs/contract-first.md): a WSDL written here holds one of each XML Schema
 * construct the loader maps, and is served through `fastify.inject`: what the
 * handler gets, what the reply carries, what is refused. Then every way a
 * contract is refused at startup, each with the code and the construct named.
 * The real-world corpus, with real clients, is in contract-interop.test.ts.
 */
import { spawnSync } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { test, type TestContext } from 'node:test'
import Fastify from 'fastify'
import soap, { readContract, type ContractSource } from '../lib/index'
import { bindContract } from '../lib/contract/bind'
import { main as typesMain } from '../lib/contract/cli'
import { CONTRACT_NS, CONTRACT_NS_U, contractWsdl, envelope, MEDIA, OP_TYPES, post, requireXmllint, SOAP11_ENV, sharedFixture } from './helper'

const K = CONTRACT_NS
const U = CONTRACT_NS_U
const wsdl = contractWsdl

// ----------------------------------------------------------- the mapping ---

const KITCHEN_TYPES = `
<xs:schema targetNamespace="${K}" elementFormDefault="qualified" xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:import namespace="${U}" schemaLocation="http://schemas.example.test/u.xsd"/>
  <xs:simpleType name="Tags"><xs:list itemType="xs:int"/></xs:simpleType>
  <xs:simpleType name="Phone"><xs:restriction base="xs:string"><xs:pattern value="\\+[0-9]{3}\\-[0-9]+"/><xs:maxLength value="12"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="Status"><xs:restriction base="xs:string"><xs:enumeration value="open"/><xs:enumeration value="closed"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="Small"><xs:restriction base="xs:int"><xs:minInclusive value="1"/><xs:maxExclusive value="100"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="Either"><xs:union memberTypes="k:Status"><xs:simpleType><xs:restriction base="xs:string"><xs:enumeration value="other"/></xs:restriction></xs:simpleType></xs:union></xs:simpleType>
  <xs:complexType name="Price"><xs:simpleContent><xs:extension base="xs:decimal"><xs:attribute name="currency" type="xs:string" use="required"/></xs:extension></xs:simpleContent></xs:complexType>
  <xs:complexType name="Base"><xs:sequence><xs:element name="sku" type="xs:string"/></xs:sequence><xs:attribute name="line" type="xs:int"/></xs:complexType>
  <xs:complexType name="Derived"><xs:complexContent><xs:extension base="k:Base"><xs:sequence><xs:element name="qty" type="k:Small"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
  <xs:complexType name="Narrow"><xs:complexContent><xs:restriction base="k:Base"><xs:sequence><xs:element name="sku" type="xs:string"/></xs:sequence><xs:attribute name="line" use="prohibited"/></xs:restriction></xs:complexContent></xs:complexType>
  <xs:group name="Extra"><xs:sequence><xs:element name="flag" type="xs:boolean" minOccurs="0"/></xs:sequence></xs:group>
  <xs:attributeGroup name="Common"><xs:attribute name="lang" type="xs:language"/></xs:attributeGroup>
  <xs:complexType name="SinkType">
    <xs:sequence>
      <xs:element name="id" type="xs:int"/>
      <xs:element name="amount" type="xs:decimal"/>
      <xs:element name="when" type="xs:dateTime" minOccurs="0"/>
      <xs:element name="tags" type="k:Tags" minOccurs="0"/>
      <xs:element name="price" type="k:Price"/>
      <xs:choice>
        <xs:element name="email" type="xs:string"/>
        <xs:element name="phone" type="k:Phone"/>
      </xs:choice>
      <xs:element name="item" type="k:Derived" maxOccurs="3"/>
      <xs:element name="narrow" type="k:Narrow" minOccurs="0"/>
      <xs:element ref="u:note" minOccurs="0"/>
      <xs:group ref="k:Extra"/>
      <xs:element name="status" type="k:Status" nillable="true"/>
      <xs:element name="either" type="k:Either" minOccurs="0"/>
      <xs:element name="anything" minOccurs="0"/>
      <xs:any namespace="##other" processContents="lax" minOccurs="0" maxOccurs="unbounded"/>
    </xs:sequence>
    <xs:attributeGroup ref="k:Common"/>
    <xs:attribute name="version" type="xs:int" use="required"/>
    <xs:attribute ref="xml:lang"/>
    <xs:anyAttribute namespace="##other"/>
  </xs:complexType>
  <xs:element name="Sink" type="k:SinkType"/>
  <xs:element name="SinkResponse" type="k:SinkType"/>
  <xs:element name="SinkFault" type="xs:string"/>
  <xs:element name="Auth"><xs:complexType><xs:sequence><xs:element name="user" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
  <xs:element name="Ping"><xs:complexType/></xs:element>
</xs:schema>`

const U_XSD = `<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="${U}">
  <xs:element name="note"><xs:complexType><xs:sequence><xs:element name="text" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
</xs:schema>`

const KITCHEN = wsdl({
  types: KITCHEN_TYPES,
  messages: `<wsdl:message name="SinkIn"><wsdl:part name="p" element="k:Sink"/><wsdl:part name="auth" element="k:Auth"/></wsdl:message>
    <wsdl:message name="SinkOut"><wsdl:part name="p" element="k:SinkResponse"/></wsdl:message>
    <wsdl:message name="SinkFault"><wsdl:part name="f" element="k:SinkFault"/></wsdl:message>
    <wsdl:message name="PingIn"><wsdl:part name="p" element="k:Ping"/></wsdl:message>`,
  portType: `<wsdl:portType name="PT">
    <wsdl:operation name="Sink"><wsdl:input message="tns:SinkIn"/><wsdl:output message="tns:SinkOut"/><wsdl:fault name="Refused" message="tns:SinkFault"/></wsdl:operation>
    <wsdl:operation name="Ping"><wsdl:input message="tns:PingIn"/></wsdl:operation>
  </wsdl:portType>`,
  binding: ['1.1', '1.2'].map((v) => {
    const ns = v === '1.1' ? 'soap' : 'soap12'
    return `<wsdl:binding name="B${v === '1.1' ? 11 : 12}" type="tns:PT"><${ns}:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <wsdl:operation name="Sink"><${ns}:operation soapAction="urn:svc/Sink"/>
      <wsdl:input><${ns}:body use="literal" parts="p"/><${ns}:header message="tns:SinkIn" part="auth" use="literal"/></wsdl:input>
      <wsdl:output><${ns}:body use="literal"/></wsdl:output><wsdl:fault name="Refused"><${ns}:fault name="Refused" use="literal"/></wsdl:fault></wsdl:operation>
    <wsdl:operation name="Ping"><${ns}:operation soapAction=""/><wsdl:input><${ns}:body use="literal"/></wsdl:input></wsdl:operation>
  </wsdl:binding>`
  }).join('\n'),
  service: `<wsdl:service name="Kitchen">
    <wsdl:port name="P11" binding="tns:B11"><soap:address location="http://example.invalid/a"/></wsdl:port>
    <wsdl:port name="P12" binding="tns:B12"><soap12:address location="http://example.invalid/b"/></wsdl:port>
  </wsdl:service>`
})

const resolver = (url: string): string => {
  if (url === 'http://schemas.example.test/u.xsd') return U_XSD
  throw new Error(`no ${url}`)
}

async function kitchen (t: TestContext, handlers: Record<string, unknown>) {
  const app = Fastify()
  await app.register(soap)
  app.soap.contract({ path: '/k', document: KITCHEN, resolver, operations: handlers })
  await app.ready()
  t.after(() => app.close())
  return app
}

const SINK = `<k:Sink xmlns:k="${K}" xmlns:u="${U}" xmlns:o="urn:other" version="2" lang="en" xml:lang="fr" o:extra="kept out">
  <k:id>7</k:id><k:amount>12.50</k:amount><k:when>2026-11-21T10:00:00</k:when><k:tags> 1 2  3 </k:tags>
  <k:price currency="EUR">9.99</k:price><k:phone>+123-456</k:phone>
  <k:item line="1"><k:sku>A</k:sku><k:qty>2</k:qty></k:item><k:item><k:sku>B</k:sku><k:qty>99</k:qty></k:item>
  <u:note><text>unqualified</text></u:note><k:flag>true</k:flag><k:status xsi:nil="true" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"/>
  <k:either>other</k:either><k:anything a="1"><x:deep xmlns:x="urn:x">t</x:deep></k:anything><o:free o:at="v">text &amp; more</o:free>
</k:Sink>`

test('docs/contract-first.md "The mapping": every construct of the kitchen-sink contract is read into the handler\'s input, and written back from its result', async (t: TestContext) => {
  let seen: Record<string, unknown> | undefined
  let headers: unknown
  const app = await kitchen(t, {
    Sink: async (input: Record<string, unknown>, call: { headers: unknown }) => { seen = input; headers = call.headers; return input },
    Ping: async () => {}
  })
  for (const version of ['1.1', '1.2'] as const) {
    const res = await app.inject({ method: 'POST', url: '/k', headers: { 'content-type': MEDIA[version] }, payload: envelope(version, SINK, `<k:Auth xmlns:k="${K}"><k:user>ann</k:user></k:Auth>`) })
    t.assert.strictEqual(res.statusCode, 200, res.body)
    const input = seen as Record<string, unknown>
    t.assert.deepStrictEqual({ ...input, anything: undefined, $any: undefined }, {
      version: 2,
      lang: 'en',
      id: 7,
      amount: '12.50',
      when: '2026-11-21T10:00:00',
      tags: [1, 2, 3],
      price: { currency: 'EUR', $value: '9.99' },
      phone: '+123-456',
      item: [{ line: 1, sku: 'A', qty: 2 }, { sku: 'B', qty: 99 }],
      note: { text: 'unqualified' },
      flag: true,
      status: null,
      either: 'other',
      anything: undefined,
      $any: undefined
    })
    t.assert.deepStrictEqual(headers, { Auth: { user: 'ann' } })
    const free = input.$any as Array<{ localName: string, namespace: string }>
    t.assert.deepStrictEqual(free.map((e) => `{${e.namespace}}${e.localName}`), ['{urn:other}free'])
    const anything = input.anything as { $any: Array<{ localName: string }> }
    t.assert.deepStrictEqual(anything.$any.map((e) => e.localName), ['deep'])
    // Written back: lists joined, simple content as text, the unqualified child without a prefix, raw elements with their namespaces.
    t.assert.match(res.body, /<tns:tags>1 2 3<\/tns:tags>/)
    t.assert.match(res.body, /<tns:price currency="EUR">9\.99<\/tns:price>/)
    t.assert.match(res.body, /<ns1:note><text>unqualified<\/text><\/ns1:note>/)
    t.assert.match(res.body, /<tns:status xsi:nil="true"\/>/)
    t.assert.match(res.body, /<tns:anything><x:deep xmlns:x="urn:x">t<\/x:deep><\/tns:anything>/)
    t.assert.match(res.body, /<o:free xmlns:o="urn:other" o:at="v">text &amp; more<\/o:free><\/tns:SinkResponse>/)
    t.assert.match(res.body, /<tns:SinkResponse xmlns:tns="urn:k" xmlns:ns1="urn:u"[^>]* lang="en" version="2">/)
  }
})

test('docs/contract-first.md "The mapping": the facets, the choice, the required attribute, nil and occurrences are enforced (Sender faults)', async (t: TestContext) => {
  const app = await kitchen(t, { Sink: async (input: unknown) => input, Ping: async () => {} })
  const cases: Array<[string, (s: string) => string, RegExp]> = [
    ['a pattern', (s) => s.replace('+123-456', '123456'), /must match pattern/],
    ['a restricted int', (s) => s.replace('<k:qty>99', '<k:qty>100'), /must be &lt; 100/],
    ['an int', (s) => s.replace('<k:id>7', '<k:id>7.5'), /not an integer/],
    ['a decimal', (s) => s.replace('12.50', '1e3'), /must match pattern/],
    ['a dateTime', (s) => s.replace('2026-11-21T10:00:00', '21/11/2026'), /must match pattern/],
    ['an enumeration', (s) => s.replace('<k:either>other', '<k:either>none'), /must be equal to one of the allowed values/],
    ['a list item', (s) => s.replace('1 2  3', '1 two 3'), /tags\/1.*not an integer/],
    ['both branches of a choice', (s) => s.replace('<k:phone>', '<k:email>a@b</k:email><k:phone>'), /Invalid input: the elements present do not fit the content model: an xs:choice takes one branch/],
    ['no branch of a choice', (s) => s.replace('<k:phone>+123-456</k:phone>', ''), /Invalid input: the elements present do not fit the content model/],
    ['a required attribute', (s) => s.replace('version="2"', ''), /must have required property 'version'/],
    ['a required attribute of simple content', (s) => s.replace(' currency="EUR"', ''), /must have required property 'currency'/],
    ['maxOccurs', (s) => s.replace('<u:note>', '<k:item><k:sku>C</k:sku><k:qty>1</k:qty></k:item><k:item><k:sku>D</k:sku><k:qty>1</k:qty></k:item><u:note>'), /must NOT have more than 3 items/],
    ['a prohibited attribute', (s) => s.replace('<k:flag>', '<k:narrow line="3"><k:sku>N</k:sku></k:narrow><k:flag>'), /unexpected attribute line/],
    ['an unknown attribute (xs:anyAttribute namespace="##other" takes no unqualified one)', (s) => s.replace('version="2"', 'version="2" bogus="1"'), /unexpected attribute bogus/],
    ['an unknown element inside an element with no wildcard', (s) => s.replace('<k:sku>A</k:sku>', '<k:sku>A</k:sku><k:bogus/>'), /unexpected element \{urn:k\}bogus in k:item/]
  ]
  for (const [what, change, message] of cases) {
    const res = await app.inject({ method: 'POST', url: '/k', headers: { 'content-type': MEDIA['1.2'] }, payload: envelope('1.2', change(SINK)) })
    t.assert.strictEqual(res.statusCode, 400, `${what}: ${res.body}`)
    t.assert.match(res.body, /<soap:Value>soap:Sender<\/soap:Value>/, what)
    t.assert.match(res.body, message, what)
  }
})

test('docs/contract-first.md "What is served": a header part the binding names twice (as Exchange\'s does) is one header block', async (t: TestContext) => {
  const types = `<xs:schema targetNamespace="${K}" elementFormDefault="qualified">
    <xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="a" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
    <xs:element name="OpResponse"><xs:complexType><xs:sequence/></xs:complexType></xs:element>
    <xs:element name="Version"><xs:complexType><xs:attribute name="v" type="xs:string"/></xs:complexType></xs:element>
  </xs:schema>`
  const header = '<soap:header message="tns:In" part="h" use="literal"/>'
  const document = wsdl({
    types,
    messages: '<wsdl:message name="In"><wsdl:part name="p" element="k:Op"/><wsdl:part name="h" element="k:Version"/></wsdl:message><wsdl:message name="Out"><wsdl:part name="p" element="k:OpResponse"/></wsdl:message>',
    binding: `<wsdl:binding name="B" type="tns:PT"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/><wsdl:operation name="Op"><wsdl:input><soap:body use="literal" parts="p"/>${header}${header}</wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation></wsdl:binding>`
  })
  const contract = await readContract({ document })
  t.assert.deepStrictEqual(Object.keys((contract.operations.Op.headers as { properties: object }).properties), ['Version'])
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  let headers: unknown
  app.soap.contract({ path: '/h', document, operations: { Op: async (_: unknown, call: { headers: unknown }) => { headers = call.headers; return {} } } })
  const res = await app.inject({ method: 'POST', url: '/h', headers: { 'content-type': MEDIA['1.1'] }, payload: envelope('1.1', `<k:Op xmlns:k="${K}"><k:a>x</k:a></k:Op>`, `<k:Version xmlns:k="${K}" v="2"/>`) })
  t.assert.strictEqual(res.statusCode, 200, res.body)
  t.assert.deepStrictEqual(headers, { Version: { v: '2' } })
})

test('docs/contract-first.md "What is served": a declared fault of simple type, a one-way operation (202), and the action as the binding gives it', async (t: TestContext) => {
  const app = await kitchen(t, {
    Sink: async (_input: unknown, call: { fault: (name: string, detail: unknown, options: unknown) => Error }) => { throw call.fault('Refused', { $value: 'no stock' }, { code: 'Sender', reason: 'refused' }) },
    Ping: { handler: async () => {}, timeout: 1000 }
  })
  const res = await app.inject({ method: 'POST', url: '/k', headers: { 'content-type': MEDIA['1.1'], soapaction: '"urn:svc/Sink"' }, payload: envelope('1.1', SINK) })
  t.assert.strictEqual(res.statusCode, 500)
  t.assert.match(res.body, /<detail><tns:SinkFault xmlns:tns="urn:k">no stock<\/tns:SinkFault><\/detail>/)
  const ping = await app.inject({ method: 'POST', url: '/k', headers: { 'content-type': MEDIA['1.1'] }, payload: envelope('1.1', `<k:Ping xmlns:k="${K}"/>`) })
  t.assert.strictEqual(ping.statusCode, 202)
  t.assert.strictEqual(ping.body, '')
  const contract = await readContract({ document: KITCHEN, resolver })
  t.assert.deepStrictEqual(Object.fromEntries(Object.entries(contract.operations).map(([n, o]) => [n, o.action])), { Sink: 'urn:svc/Sink', Ping: 'urn:svc/Ping' })
  t.assert.deepStrictEqual(contract.bindings, [{ name: '{urn:svc}B11', version: '1.1' }, { name: '{urn:svc}B12', version: '1.2' }])
})

test('docs/contract-first.md "The WSDL served": the WSDL as given, its served ports\' addresses the live one, its imports at ?xsd= (a resolved URL included)', async (t: TestContext) => {
  const app = await kitchen(t, { Sink: async () => ({}), Ping: async () => {} })
  const res = await app.inject({ method: 'GET', url: '/k?wsdl', headers: { host: 'soap.example:8080' } })
  t.assert.strictEqual(res.statusCode, 200)
  t.assert.match(res.body, /^<\?xml version="1\.0" encoding="UTF-8"\?>/)
  t.assert.match(res.body, /<soap:address location="http:\/\/soap\.example:8080\/k"\/>/)
  t.assert.match(res.body, /<soap12:address location="http:\/\/soap\.example:8080\/k"\/>/)
  t.assert.match(res.body, /schemaLocation="http:\/\/soap\.example:8080\/k\?xsd=u\.xsd"/)
  t.assert.doesNotMatch(res.body, /example\.invalid|schemas\.example\.test/)
  const xsd = await app.inject({ method: 'GET', url: '/k?xsd=u.xsd', headers: { host: 'soap.example:8080' } })
  t.assert.strictEqual(xsd.statusCode, 200)
  t.assert.match(xsd.body, /<xs:element name="note">/)
  // Ports not served keep their address.
  const other = Fastify()
  await other.register(soap)
  other.soap.contract({
    path: '/one',
    document: wsdl({ service: '<wsdl:service name="S"><wsdl:port name="P" binding="tns:B"><soap:address location="http://example.invalid/old"/></wsdl:port></wsdl:service><wsdl:service name="T"><wsdl:port name="Q" binding="tns:B"><soap:address location="http://example.invalid/kept"/></wsdl:port></wsdl:service>' }),
    service: 'S',
    address: 'https://public.example/one',
    operations: { Op: async () => ({ b: 'x' }) }
  })
  t.after(() => other.close())
  const one = await other.inject({ method: 'GET', url: '/one?wsdl' })
  t.assert.match(one.body, /<soap:address location="https:\/\/public\.example\/one"\/>/)
  t.assert.match(one.body, /<soap:address location="http:\/\/example\.invalid\/kept"\/>/)
})

test('docs/contract-first.md "What is served": rpc/literal reads the parts as unqualified accessors of the operation wrapper, and writes <Op>Response', async (t: TestContext) => {
  const rpc = wsdl({
    types: `<xs:schema targetNamespace="${K}"><xs:complexType name="Pair"><xs:sequence><xs:element name="x" type="xs:int"/></xs:sequence></xs:complexType></xs:schema>`,
    messages: '<wsdl:message name="In"><wsdl:part name="pair" type="k:Pair"/><wsdl:part name="label" type="xs:string"/></wsdl:message><wsdl:message name="Out"><wsdl:part name="sum" type="xs:int"/></wsdl:message>',
    binding: `<wsdl:binding name="B" type="tns:PT"><soap:binding style="rpc" transport="http://schemas.xmlsoap.org/soap/http"/>
      <wsdl:operation name="Op"><soap:operation soapAction=""/><wsdl:input><soap:body use="literal" namespace="urn:rpc"/></wsdl:input><wsdl:output><soap:body use="literal" namespace="urn:rpc"/></wsdl:output></wsdl:operation></wsdl:binding>`
  })
  const app = Fastify()
  await app.register(soap)
  let seen: unknown
  app.soap.contract({ path: '/rpc', document: rpc, operations: { Op: async (input: unknown) => { seen = input; return { sum: 3 } } } })
  t.after(() => app.close())
  const res = await app.inject({ method: 'POST', url: '/rpc', headers: { 'content-type': MEDIA['1.1'] }, payload: envelope('1.1', '<r:Op xmlns:r="urn:rpc"><pair><x>1</x></pair><label>two</label></r:Op>') })
  t.assert.strictEqual(res.statusCode, 200, res.body)
  t.assert.deepStrictEqual(seen, { pair: { x: 1 }, label: 'two' })
  t.assert.match(res.body, /<tns:OpResponse xmlns:tns="urn:rpc"><sum>3<\/sum><\/tns:OpResponse>/)
})

test('docs/contract-first.md "The mapping": more constructs: derived simple content, an element named twice, an optional choice, fixed and nillable, unions, digits, list lengths, repeated lists, literal ^ and $', async (t: TestContext) => {
  const types = `<xs:schema targetNamespace="${K}" elementFormDefault="qualified" xmlns:s="http://schemas.xmlsoap.org/soap/envelope/">
    <xs:import namespace="http://schemas.xmlsoap.org/soap/envelope/" schemaLocation="http://schemas.xmlsoap.org/soap/envelope/"/>
    <xs:complexType name="Amount"><xs:simpleContent><xs:extension base="xs:int"><xs:attribute name="unit" type="xs:string"/></xs:extension></xs:simpleContent></xs:complexType>
    <xs:complexType name="Money"><xs:simpleContent><xs:extension base="k:Amount"><xs:attribute name="cur" type="xs:string" use="required"/></xs:extension></xs:simpleContent></xs:complexType>
    <xs:complexType name="Small"><xs:simpleContent><xs:restriction base="k:Amount"><xs:maxInclusive value="9"/></xs:restriction></xs:simpleContent></xs:complexType>
    <xs:simpleType name="Ints"><xs:list itemType="xs:int"/></xs:simpleType>
    <xs:simpleType name="Pair"><xs:restriction base="k:Ints"><xs:length value="2"/></xs:restriction></xs:simpleType>
    <xs:simpleType name="Any"><xs:union memberTypes="xs:int xs:date"/></xs:simpleType>
    <xs:simpleType name="Words"><xs:restriction base="xs:NMTOKENS"/></xs:simpleType>
    <xs:complexType name="Listy"><xs:simpleContent><xs:extension base="k:Ints"/></xs:simpleContent></xs:complexType>
    <xs:element name="Op"><xs:complexType><xs:sequence>
      <xs:element name="money" type="k:Money"/>
      <xs:element name="small" type="k:Small" minOccurs="0"/>
      <xs:element name="a" type="xs:string"/><xs:element name="b" type="xs:string" minOccurs="0"/><xs:element name="a" type="xs:string"/>
      <xs:choice minOccurs="0"><xs:element name="x" type="xs:int"/><xs:element name="y" type="xs:int"/><xs:element name="z" type="xs:int"/></xs:choice>
      <xs:element name="kind" type="xs:string" fixed="std" nillable="true" minOccurs="0"/>
      <xs:element name="any" type="k:Any" minOccurs="0"/>
      <xs:element name="digits" minOccurs="0"><xs:simpleType><xs:restriction base="xs:integer"><xs:totalDigits value="3"/></xs:restriction></xs:simpleType></xs:element>
      <xs:element name="huge" minOccurs="0"><xs:simpleType><xs:restriction base="xs:integer"><xs:totalDigits value="30"/></xs:restriction></xs:simpleType></xs:element>
      <xs:element name="pair" type="k:Pair" minOccurs="0"/>
      <xs:element name="words" type="k:Words" minOccurs="0"/>
      <xs:element name="runs" type="k:Pair" minOccurs="0" maxOccurs="3" nillable="true"/>
      <xs:element name="ends" type="k:Ints" minOccurs="0"/><xs:element name="b2" type="xs:string" minOccurs="0"/><xs:element name="ends" type="k:Ints" minOccurs="0"/>
      <xs:element name="tk" type="xs:token" minOccurs="0"/><xs:element name="b3" type="xs:string" minOccurs="0"/><xs:element name="tk" type="xs:token" minOccurs="0"/>
      <xs:element name="listy" type="k:Listy" minOccurs="0"/>
      <xs:element name="price" minOccurs="0"><xs:simpleType><xs:restriction base="xs:string"><xs:pattern value="^[0-9]+$"/></xs:restriction></xs:simpleType></xs:element>
      <xs:element name="code" minOccurs="0"><xs:simpleType><xs:restriction base="k:Code"><xs:pattern value="[A-Z]{2}[0-9]"/></xs:restriction></xs:simpleType></xs:element>
    </xs:sequence><xs:attribute ref="s:mustUnderstand"/><xs:attribute name="flag" type="xs:boolean" fixed="true"/></xs:complexType></xs:element>
    <xs:simpleType name="Code"><xs:restriction base="xs:string"><xs:pattern value="[A-Z]+[0-9]*"/><xs:pattern value="[0-9]+"/></xs:restriction></xs:simpleType>
    <xs:element name="OpResponse"><xs:complexType><xs:sequence/></xs:complexType></xs:element>
  </xs:schema>`
  const contract = await readContract({ document: wsdl({ types }) })
  const input = contract.operations.Op.input as { properties: Record<string, Record<string, unknown>>, not: unknown, required: string[] }
  t.assert.deepStrictEqual(input.properties.money.properties, { cur: { type: 'string', xml: { attribute: true } }, unit: { type: 'string', xml: { attribute: true } }, $value: { type: 'integer', minimum: -2147483648, maximum: 2147483647, xml: { text: true } } })
  t.assert.strictEqual((input.properties.small.properties as Record<string, Record<string, unknown>>).$value.maximum, 9)
  t.assert.deepStrictEqual(input.properties.a, { type: 'array', items: { type: 'string' }, xml: { namespace: K } })
  t.assert.deepStrictEqual(input.required, ['money'])
  // Two rules: the choice's elements never two together, and the counts of the elements named twice over the whole content.
  const [exclusive] = (input.not as { anyOf: Array<{ not: unknown }> }).anyOf
  t.assert.deepStrictEqual(exclusive.not, { not: { anyOf: [{ properties: { x: true, y: true }, required: ['x', 'y'] }, { properties: { x: true, z: true }, required: ['x', 'z'] }, { properties: { y: true, z: true }, required: ['y', 'z'] }] } })
  t.assert.deepStrictEqual(input.properties.kind, { type: 'string', nullable: true, enum: ['std', null], xml: { namespace: K } })
  t.assert.deepStrictEqual(input.properties.flag, { type: 'boolean', const: true, xml: { attribute: true } })
  t.assert.deepStrictEqual(input.properties.any, { type: 'string', pattern: '^(?:(?:[+-]?[0-9]+)|(?:-?[0-9]{4,}-[0-9]{2}-[0-9]{2}(Z|[+-][0-9]{2}:[0-9]{2})?))$', xml: { namespace: K, whiteSpace: 'collapse' } }, 'a union of xs:int and xs:date collapses, as both do, and takes the lexical form of either')
  t.assert.deepStrictEqual([input.properties.digits.minimum, input.properties.digits.maximum], [-999, 999])
  t.assert.strictEqual(input.properties.huge.maximum, undefined)
  t.assert.deepStrictEqual(input.properties.pair, { type: 'array', items: { type: 'integer', minimum: -2147483648, maximum: 2147483647 }, minItems: 2, maxItems: 2, xml: { list: true, namespace: K } })
  t.assert.deepStrictEqual(input.properties.words, { type: 'array', items: { type: 'string' }, xml: { list: true, namespace: K } })
  const ints = { type: 'integer', minimum: -2147483648, maximum: 2147483647 }
  t.assert.deepStrictEqual(input.properties.runs, { type: 'array', items: { type: 'array', nullable: true, items: ints, minItems: 2, maxItems: 2, xml: { list: true } }, maxItems: 3, xml: { namespace: K } })
  t.assert.deepStrictEqual(input.properties.ends, { type: 'array', items: { type: 'array', items: ints, xml: { list: true } }, xml: { namespace: K } })
  t.assert.deepStrictEqual((input.properties.listy.properties as Record<string, unknown>).$value, { type: 'string', xml: { text: true } })
  t.assert.strictEqual(input.properties.price.pattern, '^(?:(?:\\^[0-9]+\\$))$')
  t.assert.strictEqual(input.properties.code.pattern, '^(?=(?:(?:[A-Z]+[0-9]*)|(?:[0-9]+))$)(?:(?:[A-Z]{2}[0-9]))$')
  const app = Fastify()
  await app.register(soap)
  let seen: unknown
  app.soap.contract({ path: '/m', document: wsdl({ types }), operations: { Op: async (value: unknown) => { seen = value; return {} } } })
  t.after(() => app.close())
  const call = (body: string): Promise<{ statusCode: number, body: string }> => app.inject({ method: 'POST', url: '/m', headers: { 'content-type': MEDIA['1.1'] }, payload: envelope('1.1', `<k:Op xmlns:k="${K}" flag="true">${body}</k:Op>`) })
  const ok = await call('<k:money cur="EUR" unit="c">5</k:money><k:a>1</k:a><k:a>2</k:a><k:y>3</k:y><k:code>AB1</k:code><k:price>^12$</k:price>')
  t.assert.strictEqual(ok.statusCode, 200, ok.body)
  t.assert.deepStrictEqual(seen, { flag: true, money: { cur: 'EUR', unit: 'c', $value: 5 }, a: ['1', '2'], runs: [], ends: [], tk: [], y: 3, code: 'AB1', price: '^12$' })
  const lists = await call('<k:money cur="EUR">5</k:money><k:a/><k:a/><k:runs>1 2</k:runs><k:runs xmlns:i="http://www.w3.org/2001/XMLSchema-instance" i:nil="true"/><k:runs> 3\n 4 </k:runs><k:ends>7</k:ends><k:ends/><k:tk> a\n b </k:tk><k:tk>c</k:tk>')
  t.assert.strictEqual(lists.statusCode, 200, lists.body)
  t.assert.deepStrictEqual(seen, { flag: true, money: { cur: 'EUR', $value: 5 }, a: ['', ''], runs: [[1, 2], null, [3, 4]], ends: [[7], []], tk: ['a b', 'c'] })
  for (const [body, message] of [
    ['<k:money cur="EUR">5</k:money><k:a/><k:a/><k:runs>1</k:runs>', /\/runs\/0 must NOT have fewer than 2 items/],
    ['<k:money cur="EUR">5</k:money><k:a/><k:a/><k:runs>1 2</k:runs><k:runs>1 2</k:runs><k:runs>1 2</k:runs><k:runs>1 2</k:runs>', /must NOT have more than 3 items/],
    ['<k:money cur="EUR">5</k:money><k:a/><k:a/><k:x>1</k:x><k:z>2</k:z>', /the elements present do not fit the content model/],
    ['<k:money cur="EUR">5</k:money><k:a/>', /the elements present do not fit the content model/],
    ['<k:money cur="EUR">5</k:money><k:a/><k:a/><k:ends/><k:ends/><k:ends/>', /the elements present do not fit the content model/],
    ['<k:money cur="EUR">5</k:money><k:a/><k:a/><k:code>A1</k:code>', /must match pattern/],
    ['<k:money cur="EUR">5</k:money><k:a/><k:a/><k:pair>1 2 3</k:pair>', /must NOT have more than 2 items/]
  ] as const) {
    const res = await call(body)
    t.assert.strictEqual(res.statusCode, 500, body)
    t.assert.match(res.body, message)
  }
})

// ------------------------------------------------------------- refusals ---

async function refused (t: TestContext, source: Partial<ContractSource> & { document?: string }, code: string, message: RegExp, operations: Record<string, unknown> = { Op: async () => ({}) }): Promise<void> {
  const app = Fastify()
  await app.register(soap)
  app.soap.contract({ path: '/x', ...source, operations } as never)
  await t.assert.rejects(async () => { await app.ready() }, (err: Error & { code?: string }) => {
    t.assert.strictEqual(err.code, code, err.message)
    t.assert.match(err.message, message)
    return true
  })
  await app.close()
}

const SIMPLE = (body: string, extra = ''): string => `<xs:schema targetNamespace="${K}" elementFormDefault="qualified" ${extra}>${body}
  <xs:element name="OpResponse"><xs:complexType><xs:sequence/></xs:complexType></xs:element></xs:schema>`

test('docs/contract-first.md "What is refused": a construct the codec cannot carry is an error at ready() that names it and where it is', async (t: TestContext) => {
  const cases: Array<[string, string, RegExp]> = [
    ['an abstract type', '<xs:complexType name="T" abstract="true"/><xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="t" type="k:T"/></xs:sequence></xs:complexType></xs:element>', /the abstract type \{urn:k\}T/],
    ['a required abstract element no element may stand for', '<xs:element name="abs" type="xs:string" abstract="true"/><xs:element name="Op"><xs:complexType><xs:sequence><xs:element ref="k:abs"/></xs:sequence></xs:complexType></xs:element>', /the abstract element \{urn:k\}abs, for which no element may stand/],
    ['an encoded array', '<xs:complexType name="A"><xs:complexContent><xs:restriction base="soapenc:Array"/></xs:complexContent></xs:complexType><xs:element name="Op" type="k:A"/>', /the SOAP encoding type \{http:\/\/schemas\.xmlsoap\.org\/soap\/encoding\/\}Array as a base/],
    ['an encoded type', '<xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="s" type="soapenc:string"/></xs:sequence></xs:complexType></xs:element>', /the SOAP encoding complexType/],
    ['a block escape', '<xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="n"><xs:simpleType><xs:restriction base="xs:string"><xs:pattern value="\\p{IsBasicLatin}"/></xs:restriction></xs:simpleType></xs:element></xs:sequence></xs:complexType></xs:element>', /Unicode block escapes/],
    ['a bad regex', '<xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="n"><xs:simpleType><xs:restriction base="xs:string"><xs:pattern value="(a"/></xs:restriction></xs:simpleType></xs:element></xs:sequence></xs:complexType></xs:element>', /it is no ECMAScript regular expression/],
    ['an unclosed \\p{', '<xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="n"><xs:simpleType><xs:restriction base="xs:string"><xs:pattern value="\\p{L"/></xs:restriction></xs:simpleType></xs:element></xs:sequence></xs:complexType></xs:element>', /the pattern "\\p\{L" \(a \\p names no \{category\}\)/],
    ['a lone backslash at the end', '<xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="n"><xs:simpleType><xs:restriction base="xs:string"><xs:pattern value="a\\"/></xs:restriction></xs:simpleType></xs:element></xs:sequence></xs:complexType></xs:element>', /it ends in a lone \\/],
    ['an unclosed class', '<xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="n"><xs:simpleType><xs:restriction base="xs:string"><xs:pattern value="[a-z-[aeiou]"/></xs:restriction></xs:simpleType></xs:element></xs:sequence></xs:complexType></xs:element>', /the pattern "\[a-z-\[aeiou\]" \(a class is not closed\)/],
    ['a count over RE2\'s 1000', '<xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="n"><xs:simpleType><xs:restriction base="xs:string"><xs:pattern value="a{1001}"/></xs:restriction></xs:simpleType></xs:element></xs:sequence></xs:complexType></xs:element>', /the pattern "a\{1001\}" \(RE2 cannot run it/],
    ['a pattern on a list', '<xs:simpleType name="L"><xs:list itemType="xs:int"/></xs:simpleType><xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="n"><xs:simpleType><xs:restriction base="k:L"><xs:pattern value="1"/></xs:restriction></xs:simpleType></xs:element></xs:sequence></xs:complexType></xs:element>', /the facet xs:pattern on a list type/],
    ['xs:redefine', '<xs:redefine schemaLocation="x.xsd"/><xs:element name="Op"><xs:complexType/></xs:element>', /the contract uses xs:redefine/],
    ['a Body element of a list type', '<xs:element name="Op"><xs:simpleType><xs:list itemType="xs:int"/></xs:simpleType></xs:element>', /the Body element \{urn:k\}Op of a list type/]
  ]
  for (const [what, body, message] of cases) {
    await t.test(what, async (t: TestContext) => {
      await refused(t, { document: wsdl({ types: SIMPLE(body, 'xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/"') }) }, 'SOAP_ERR_CONTRACT_UNSUPPORTED', message)
    })
  }
})

test('docs/contract-first.md "The mapping": a model group that reaches itself through an element\'s type (as DSML\'s FilterGroup does) is a recursive type, served', async (t: TestContext) => {
  const types = SIMPLE('<xs:group name="G"><xs:choice><xs:element name="leaf" type="xs:string"/><xs:element name="and" type="k:Set"/></xs:choice></xs:group><xs:complexType name="Set"><xs:sequence><xs:group ref="k:G" maxOccurs="unbounded"/></xs:sequence></xs:complexType><xs:element name="Op"><xs:complexType><xs:group ref="k:G"/></xs:complexType></xs:element>')
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  let seen: unknown
  app.soap.contract({ path: '/g', document: wsdl({ types }), operations: { Op: async (input: unknown) => { seen = input; return {} } } })
  const res = await app.inject({ method: 'POST', url: '/g', headers: { 'content-type': MEDIA['1.1'] }, payload: envelope('1.1', `<k:Op xmlns:k="${K}"><k:and><k:leaf>a</k:leaf><k:and><k:leaf>b</k:leaf></k:and></k:and></k:Op>`) })
  t.assert.strictEqual(res.statusCode, 200, res.body)
  t.assert.deepStrictEqual(seen, { and: { leaf: ['a'], and: [{ leaf: ['b'], and: [] }] } })
})

test('docs/contract-first.md "The mapping": a .NET DataSet (a ref to xs:schema, then xs:any, the XML Schema namespace imported with no location) is raw elements both ways', async (t: TestContext) => {
  const types = `<xs:schema targetNamespace="${K}" elementFormDefault="qualified"><xs:import namespace="http://www.w3.org/2001/XMLSchema"/>
    <xs:complexType name="DataSet"><xs:sequence><xs:element ref="xs:schema"/><xs:any/></xs:sequence></xs:complexType>
    <xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="ds" type="k:DataSet"/></xs:sequence></xs:complexType></xs:element>
    <xs:element name="OpResponse"><xs:complexType><xs:sequence><xs:element name="OpResult" type="k:DataSet"/></xs:sequence></xs:complexType></xs:element></xs:schema>`
  const contract = await readContract({ document: wsdl({ types }) })
  t.assert.deepStrictEqual(Object.keys((contract.operations.Op.input as { properties: Record<string, { properties: object }> }).properties.ds.properties), ['$any'])
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.contract({ path: '/ds', document: wsdl({ types }), operations: { Op: async ({ ds }: { ds: unknown }) => ({ OpResult: ds }) } })
  const dataSet = '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" id="NewDataSet"><xs:element name="Table"/></xs:schema><diffgr:diffgram xmlns:diffgr="urn:schemas-microsoft-com:xml-diffgram-v1"><NewDataSet xmlns=""><Table><id>1</id></Table></NewDataSet></diffgr:diffgram>'
  const res = await app.inject({ method: 'POST', url: '/ds', headers: { 'content-type': MEDIA['1.1'] }, payload: envelope('1.1', `<k:Op xmlns:k="${K}"><k:ds>${dataSet}</k:ds></k:Op>`) })
  t.assert.strictEqual(res.statusCode, 200, res.body)
  // Written back with the declarations it needs: no default namespace is in scope, so NewDataSet needs no xmlns="".
  t.assert.ok(res.body.includes(`<tns:OpResult>${dataSet.replace(' xmlns=""', '')}</tns:OpResult>`), res.body)
})

test('docs/contract-first.md "The mapping": every schema of a contract that uses named schemas has the one $defs object, the union of them all, so that their shapes and validators are made once', async (t: TestContext) => {
  const types = SIMPLE('<xs:complexType name="T"><xs:sequence><xs:element name="t" type="k:T" minOccurs="0"/></xs:sequence></xs:complexType><xs:complexType name="U"><xs:sequence><xs:element name="u" type="k:U" minOccurs="0"/></xs:sequence></xs:complexType><xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="a" type="k:T"/></xs:sequence></xs:complexType></xs:element><xs:element name="Other"><xs:complexType><xs:sequence><xs:element name="b" type="k:U"/></xs:sequence></xs:complexType></xs:element>')
  const contract = await readContract({
    document: wsdl({
      types,
      messages: '<wsdl:message name="In"><wsdl:part name="p" element="k:Op"/></wsdl:message><wsdl:message name="Out"><wsdl:part name="p" element="k:OpResponse"/></wsdl:message><wsdl:message name="OtherIn"><wsdl:part name="p" element="k:Other"/></wsdl:message>',
      portType: '<wsdl:portType name="PT"><wsdl:operation name="Op"><wsdl:input message="tns:In"/><wsdl:output message="tns:Out"/></wsdl:operation><wsdl:operation name="Other"><wsdl:input message="tns:OtherIn"/></wsdl:operation></wsdl:portType>',
      binding: '<wsdl:binding name="B" type="tns:PT"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/><wsdl:operation name="Op"><wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation><wsdl:operation name="Other"><wsdl:input><soap:body use="literal"/></wsdl:input></wsdl:operation></wsdl:binding>'
    })
  })
  const defsOf = (schema: unknown): unknown => (schema as { $defs?: unknown }).$defs
  t.assert.strictEqual(defsOf(contract.operations.Op.input), defsOf(contract.operations.Other.input))
  t.assert.deepStrictEqual(Object.keys(defsOf(contract.operations.Op.input) as object), ['T', 'U'])
  t.assert.strictEqual(defsOf(contract.operations.Op.output), undefined, 'a schema that names none has none')
})

test('docs/contract-first.md "What is refused": a broken contract (a name no schema declares, an undeclared prefix, an element reference to nothing, an unknown built-in type, a value not of its type, a list of lists, a group or type defined by itself, a declaration with no name, occurrences and lengths that are no counts) is SOAP_ERR_CONTRACT_INVALID, naming it and where it is', async (t: TestContext) => {
  const cases: Array<[string, string, RegExp]> = [
    ['an undeclared type', '<xs:element name="Op" type="k:Nowhere"/>', /operation Op > element \{urn:k\}Op: the complexType \{urn:k\}Nowhere is declared by no schema of the contract/],
    ['an undeclared element reference', '<xs:element name="Op"><xs:complexType><xs:sequence><xs:element ref="k:Gone"/></xs:sequence></xs:complexType></xs:element>', /the element \{urn:k\}Gone is declared by no schema of the contract/],
    ['an undeclared attribute group', '<xs:element name="Op"><xs:complexType><xs:attributeGroup ref="k:Gone"/></xs:complexType></xs:element>', /the attributeGroup \{urn:k\}Gone is declared by no schema/],
    ['an undeclared prefix', '<xs:element name="Op" type="nowhere:T"/>', /the prefix of "nowhere:T" is not declared/],
    ['a list of lists', '<xs:simpleType name="L"><xs:list itemType="xs:int"/></xs:simpleType><xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="n"><xs:simpleType><xs:list itemType="k:L"/></xs:simpleType></xs:element></xs:sequence></xs:complexType></xs:element>', /a list whose items are lists \(XML Schema Part 2 §4\.1\.3/],
    ['an unknown built-in', '<xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="n" type="xs:strng"/></xs:sequence></xs:complexType></xs:element>', /the type xs:strng is no XML Schema built-in type/],
    ['a bad enumeration value', '<xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="n"><xs:simpleType><xs:restriction base="xs:int"><xs:enumeration value="one"/></xs:restriction></xs:simpleType></xs:element></xs:sequence></xs:complexType></xs:element>', /the value "one" is not of its integer type/],
    ['a group that contains itself (Part 1 §3.7.6)', '<xs:group name="G"><xs:sequence><xs:group ref="k:G"/></xs:sequence></xs:group><xs:element name="Op"><xs:complexType><xs:group ref="k:G"/></xs:complexType></xs:element>', /group k:G > group k:G: the group k:G contains itself/],
    ['an attributeGroup that contains itself (Part 1 §3.6.6)', '<xs:attributeGroup name="G"><xs:attributeGroup ref="k:G"/></xs:attributeGroup><xs:element name="Op"><xs:complexType><xs:attributeGroup ref="k:G"/></xs:complexType></xs:element>', /the attributeGroup k:G contains itself/],
    ['a simple type derived from itself (Part 2 §4.1.6)', '<xs:simpleType name="A"><xs:restriction base="k:B"/></xs:simpleType><xs:simpleType name="B"><xs:restriction base="k:A"/></xs:simpleType><xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="a" type="k:A"/></xs:sequence></xs:complexType></xs:element>', /type \{urn:k\}A > type \{urn:k\}B > type \{urn:k\}A: a simple type defined by itself/],
    ['a union of itself', '<xs:simpleType name="A"><xs:union memberTypes="k:A"/></xs:simpleType><xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="a" type="k:A"/></xs:sequence></xs:complexType></xs:element>', /a simple type defined by itself/],
    ['a restriction that names no base and holds none', '<xs:simpleType name="A"><xs:restriction/></xs:simpleType><xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="a" type="k:A"/></xs:sequence></xs:complexType></xs:element>', /an xs:restriction, xs:list or xs:union that names no type and holds none/],
    ['a simpleType with no derivation', '<xs:simpleType name="A"/><xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="a" type="k:A"/></xs:sequence></xs:complexType></xs:element>', /an xs:simpleType with no xs:restriction, xs:list or xs:union/],
    ['a union of no member', '<xs:simpleType name="A"><xs:union/></xs:simpleType><xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="a" type="k:A"/></xs:sequence></xs:complexType></xs:element>', /an xs:union of no member type/],
    ['an element with neither name nor ref', '<xs:element name="Op"><xs:complexType><xs:sequence><xs:element type="xs:string"/></xs:sequence></xs:complexType></xs:element>', /an xs:element with neither name nor ref/],
    ['an attribute with neither name nor ref', '<xs:element name="Op"><xs:complexType><xs:attribute type="xs:string"/></xs:complexType></xs:element>', /an xs:attribute with neither name nor ref/],
    ['a maxOccurs that is no count', '<xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="a" type="xs:string" maxOccurs="many"/></xs:sequence></xs:complexType></xs:element>', /xs:element has maxOccurs="many", which is no count/],
    ['minOccurs above maxOccurs (Part 1 §3.9.6)', '<xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="a" type="xs:string" minOccurs="3" maxOccurs="2"/></xs:sequence></xs:complexType></xs:element>', /xs:element has minOccurs="3" above maxOccurs="2"/],
    ['a length facet that is no count', '<xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="a"><xs:simpleType><xs:restriction base="xs:string"><xs:maxLength value="ten"/></xs:restriction></xs:simpleType></xs:element></xs:sequence></xs:complexType></xs:element>', /xs:maxLength has value="ten", which is no count/],
    ['a boolean enumeration that is no boolean', '<xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="a"><xs:simpleType><xs:restriction base="xs:boolean"><xs:enumeration value="maybe"/></xs:restriction></xs:simpleType></xs:element></xs:sequence></xs:complexType></xs:element>', /the value "maybe" is not of its boolean type/],
    ['a complexContent with no derivation', '<xs:complexType name="T"><xs:complexContent/></xs:complexType><xs:element name="Op" type="k:T"/>', /type \{urn:k\}T: an xs:complexContent with no xs:extension or xs:restriction/],
    ['an extension with no base', '<xs:complexType name="T"><xs:complexContent><xs:extension/></xs:complexContent></xs:complexType><xs:element name="Op" type="k:T"/>', /xs:extension has no base/],
    ['a group reference with no ref', '<xs:element name="Op"><xs:complexType><xs:group/></xs:complexType></xs:element>', /xs:group has no ref/],
    ['an attributeGroup reference with no ref', '<xs:element name="Op"><xs:complexType><xs:attributeGroup/></xs:complexType></xs:element>', /xs:attributeGroup has no ref/],
    ['an attribute of a complex type', '<xs:complexType name="C"/><xs:element name="Op"><xs:complexType><xs:attribute name="a" type="k:C"/></xs:complexType></xs:element>', /the attribute \{\}a of a complex type \(an attribute's type is simple\)/],
    ['a type derived from itself', '<xs:complexType name="A"><xs:complexContent><xs:extension base="k:B"/></xs:complexContent></xs:complexType><xs:complexType name="B"><xs:complexContent><xs:extension base="k:A"/></xs:complexContent></xs:complexType><xs:element name="Op" type="k:A"/>', /operation Op > element \{urn:k\}Op > type \{urn:k\}A > base \{urn:k\}B: the type \{urn:k\}A is derived from itself/]
  ]
  for (const [what, body, message] of cases) {
    await t.test(what, async (t: TestContext) => {
      await refused(t, { document: wsdl({ types: SIMPLE(body) }) }, 'SOAP_ERR_CONTRACT_INVALID', message)
    })
  }
})

test('docs/contract-first.md "The mapping": nillable Body and fault detail elements (as WCF marks them) and a nillable list are served: a message is written with a value, a nil operation element is a Sender fault, a nil list is null', async (t: TestContext) => {
  const types = `<xs:schema targetNamespace="${K}" elementFormDefault="qualified">
    <xs:simpleType name="Ints"><xs:list itemType="xs:int"/></xs:simpleType>
    <xs:element name="Op" nillable="true"><xs:complexType><xs:sequence><xs:element name="ns" type="k:Ints" nillable="true"/></xs:sequence></xs:complexType></xs:element>
    <xs:element name="OpResponse" nillable="true" type="xs:string"/>
    <xs:element name="Busy" nillable="true"><xs:complexType><xs:sequence><xs:element name="why" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
  </xs:schema>`
  const document = wsdl({
    types,
    messages: '<wsdl:message name="In"><wsdl:part name="p" element="k:Op"/></wsdl:message><wsdl:message name="Out"><wsdl:part name="p" element="k:OpResponse"/></wsdl:message><wsdl:message name="BusyFault"><wsdl:part name="d" element="k:Busy"/></wsdl:message>',
    portType: '<wsdl:portType name="PT"><wsdl:operation name="Op"><wsdl:input message="tns:In"/><wsdl:output message="tns:Out"/><wsdl:fault name="Busy" message="tns:BusyFault"/></wsdl:operation></wsdl:portType>',
    binding: '<wsdl:binding name="B" type="tns:PT"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/><wsdl:operation name="Op"><soap:operation soapAction="urn:svc/Op"/><wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output><wsdl:fault name="Busy"><soap:fault name="Busy" use="literal"/></wsdl:fault></wsdl:operation></wsdl:binding>'
  })
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.contract({
    path: '/x',
    document,
    operations: {
      Op: async ({ ns }: { ns: number[] | null }, call: { fault: (name: string, detail: unknown, options: { code: 'Sender', reason: string }) => Error }) => {
        if (ns === null) throw call.fault('Busy', { why: 'no numbers' }, { code: 'Sender', reason: 'busy' })
        return { $value: ns.join('+') }
      }
    }
  })
  const call = async (inner: string) => await post(app, '1.1', envelope('1.1', inner), { url: '/x' })
  const xsi = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"'
  const sum = await call(`<k:Op xmlns:k="${K}"><k:ns>1 2 3</k:ns></k:Op>`)
  t.assert.strictEqual(sum.statusCode, 200, sum.body)
  t.assert.match(sum.body, /<tns:OpResponse xmlns:tns="urn:k">1\+2\+3<\/tns:OpResponse>/)
  const busy = await call(`<k:Op xmlns:k="${K}" ${xsi}><k:ns xsi:nil="true"/></k:Op>`)
  t.assert.strictEqual(busy.statusCode, 500)
  t.assert.match(busy.body, /<detail><tns:Busy xmlns:tns="urn:k"><tns:why>no numbers<\/tns:why><\/tns:Busy><\/detail>/)
  const nil = await call(`<k:Op xmlns:k="${K}" ${xsi} xsi:nil="true"/>`)
  t.assert.strictEqual(nil.statusCode, 500)
  t.assert.match(nil.body, /<faultcode>soap:Client<\/faultcode>/)
  const notEmpty = await call(`<k:Op xmlns:k="${K}" ${xsi}><k:ns xsi:nil="true">1</k:ns></k:Op>`)
  t.assert.match(notEmpty.body, /is xsi:nil but not empty/)
})

test('docs/contract-first.md "Loading": an xs:import written directly under wsdl:types (outside any xs:schema) is read and served', async (t: TestContext) => {
  const schema = `<?xml version="1.0"?>${SIMPLE('<xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="n" type="xs:int"/></xs:sequence></xs:complexType></xs:element>', 'xmlns:xs="http://www.w3.org/2001/XMLSchema"')}`
  const document = wsdl({ types: `<xs:import namespace="${K}" schemaLocation="http://schemas.example.test/k.xsd"/>` })
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.contract({ path: '/x', document, resolver: async () => schema, operations: { Op: async ({ n }: { n: number }) => { t.assert.strictEqual(n, 7); return {} } } })
  const response = await app.inject({ method: 'POST', url: '/x', headers: { 'content-type': 'text/xml' }, payload: `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><k:Op xmlns:k="${K}"><k:n>7</k:n></k:Op></s:Body></s:Envelope>` })
  t.assert.strictEqual(response.statusCode, 200, response.body)
  const served = (await app.inject('/x?wsdl')).body
  t.assert.match(served, /<xs:import namespace="urn:k" schemaLocation="http:\/\/localhost(:80)?\/x\?xsd=[^"]+"\/>/)
})

test('docs/contract-first.md "The mapping": types that contain themselves (directly, through another type, through a base, or an element through its anonymous type) are named schemas in "$defs", read and written to any depth', async (t: TestContext) => {
  const types = SIMPLE(`
    <xs:complexType name="Tree"><xs:sequence><xs:element name="label" type="xs:string"/><xs:element name="branch" type="k:Tree" minOccurs="0" maxOccurs="unbounded"/><xs:element name="note" type="k:Note" minOccurs="0"/></xs:sequence></xs:complexType>
    <xs:complexType name="Note"><xs:sequence><xs:element name="text" type="xs:string"/><xs:element name="about" type="k:Tree" minOccurs="0" nillable="true"/></xs:sequence></xs:complexType>
    <xs:complexType name="Base"><xs:sequence><xs:element name="next" type="k:Base" minOccurs="0"/></xs:sequence></xs:complexType>
    <xs:complexType name="Derived"><xs:complexContent><xs:extension base="k:Base"><xs:sequence><xs:element name="n" type="xs:int"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
    <xs:element name="Node"><xs:complexType><xs:sequence><xs:element name="id" type="xs:int"/><xs:element ref="k:Node" minOccurs="0" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>
    <xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="tree" type="k:Tree"/><xs:element name="derived" type="k:Derived"/><xs:element ref="k:Node"/></xs:sequence></xs:complexType></xs:element>`)
  const document = wsdl({ types })
  const contract = await readContract({ document })
  const input = contract.operations.Op.input as { $defs: Record<string, unknown> }
  // Base's `next` may be a Derived (xsi:type): a "oneOf" of the two types' alternatives (Base.types).
  t.assert.deepStrictEqual(Object.keys(input.$defs), ['Base', 'Base.types', 'Derived', 'Node', 'Tree', 'Tree.nil'])
  let got: unknown
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.contract({ path: '/x', document, operations: { Op: async (input: unknown) => { got = input; return {} } } })
  const body = `<k:Op xmlns:k="${K}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><k:tree><k:label>a</k:label><k:branch><k:label>b</k:label><k:note><k:text>t</k:text><k:about><k:label>c</k:label></k:about></k:note></k:branch><k:note><k:text>u</k:text><k:about xsi:nil="true"/></k:note></k:tree>` +
    '<k:derived><k:next><k:next/></k:next><k:n>1</k:n></k:derived><k:Node><k:id>1</k:id><k:Node><k:id>2</k:id><k:Node><k:id>3</k:id></k:Node></k:Node></k:Node></k:Op>'
  const response = await post(app, '1.1', envelope('1.1', body), { url: '/x' })
  t.assert.strictEqual(response.statusCode, 200, response.body)
  t.assert.deepStrictEqual(got, {
    tree: { label: 'a', branch: [{ label: 'b', branch: [], note: { text: 't', about: { label: 'c', branch: [] } } }], note: { text: 'u', about: null } },
    derived: { next: { $type: 'Base', next: { $type: 'Base' } }, n: 1 },
    Node: { id: 1, Node: [{ id: 2, Node: [{ id: 3, Node: [] }] }] }
  })
  const bad = await post(app, '1.1', envelope('1.1', body.replace('<k:id>3</k:id>', '<k:id>three</k:id>')), { url: '/x' })
  t.assert.strictEqual(bad.statusCode, 500)
  t.assert.match(bad.body, /\/Node\/Node\/0\/Node\/0\/id/)
})

test('docs/contract-first.md "What is refused": WSDL constructs outside document/literal and rpc/literal', async (t: TestContext) => {
  const encoded = wsdl({ binding: '<wsdl:binding name="B" type="tns:PT"><soap:binding style="rpc" transport="http://schemas.xmlsoap.org/soap/http"/><wsdl:operation name="Op"><soap:operation soapAction=""/><wsdl:input><soap:body use="encoded" namespace="urn:x" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation></wsdl:binding>' })
  await refused(t, { document: encoded }, 'SOAP_ERR_CONTRACT_UNSUPPORTED', /SOAP encoding \(use="encoded" on binding \{urn:svc\}B operation Op\)/)
  const encodedHeader = wsdl({ binding: '<wsdl:binding name="B" type="tns:PT"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/><wsdl:operation name="Op"><wsdl:input><soap:body use="literal"/><soap:header message="tns:In" part="p" use="encoded"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation></wsdl:binding>' })
  await refused(t, { document: encodedHeader }, 'SOAP_ERR_CONTRACT_UNSUPPORTED', /SOAP encoding/)
  const notification = wsdl({ portType: '<wsdl:portType name="PT"><wsdl:operation name="Op"><wsdl:output message="tns:Out"/></wsdl:operation></wsdl:portType>' })
  await refused(t, { document: notification }, 'SOAP_ERR_CONTRACT_UNSUPPORTED', /the notification operation Op/)
  const solicit = wsdl({ portType: '<wsdl:portType name="PT"><wsdl:operation name="Op"><wsdl:output message="tns:Out"/><wsdl:input message="tns:In"/></wsdl:operation></wsdl:portType>' })
  await refused(t, { document: solicit }, 'SOAP_ERR_CONTRACT_UNSUPPORTED', /the solicit-response operation Op/)
  const overloaded = wsdl({ portType: '<wsdl:portType name="PT"><wsdl:operation name="Op"><wsdl:input message="tns:In"/><wsdl:output message="tns:Out"/></wsdl:operation><wsdl:operation name="Op"><wsdl:input message="tns:In"/></wsdl:operation></wsdl:portType>' })
  await refused(t, { document: overloaded }, 'SOAP_ERR_CONTRACT_UNSUPPORTED', /the overloaded operation Op/)
  const twoParts = wsdl({ messages: '<wsdl:message name="In"><wsdl:part name="p" element="k:Op"/><wsdl:part name="q" element="k:Op"/></wsdl:message><wsdl:message name="Out"><wsdl:part name="p" element="k:OpResponse"/></wsdl:message>' })
  await refused(t, { document: twoParts }, 'SOAP_ERR_CONTRACT_UNSUPPORTED', /a document\/literal message with 2 Body parts/)
  const typed = wsdl({ messages: '<wsdl:message name="In"><wsdl:part name="p" type="xs:string"/></wsdl:message><wsdl:message name="Out"><wsdl:part name="p" element="k:OpResponse"/></wsdl:message>' })
  await refused(t, { document: typed }, 'SOAP_ERR_CONTRACT_UNSUPPORTED', /the document part p typed with type=/)
  const rpcElement = wsdl({ binding: '<wsdl:binding name="B" type="tns:PT"><soap:binding style="rpc" transport="http://schemas.xmlsoap.org/soap/http"/><wsdl:operation name="Op"><wsdl:input><soap:body use="literal" namespace="urn:x"/></wsdl:input><wsdl:output><soap:body use="literal" namespace="urn:x"/></wsdl:output></wsdl:operation></wsdl:binding>' })
  await refused(t, { document: rpcElement }, 'SOAP_ERR_CONTRACT_UNSUPPORTED', /the rpc part p given by element=/)
  const typedHeader = wsdl({
    messages: '<wsdl:message name="In"><wsdl:part name="p" element="k:Op"/><wsdl:part name="h" type="xs:string"/></wsdl:message><wsdl:message name="Out"><wsdl:part name="p" element="k:OpResponse"/></wsdl:message>',
    binding: '<wsdl:binding name="B" type="tns:PT"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/><wsdl:operation name="Op"><wsdl:input><soap:body use="literal" parts="p"/><soap:header message="tns:In" part="h" use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation></wsdl:binding>'
  })
  await refused(t, { document: typedHeader }, 'SOAP_ERR_CONTRACT_UNSUPPORTED', /the header part h typed with type=/)
  const faultTwoParts = wsdl({
    messages: '<wsdl:message name="In"><wsdl:part name="p" element="k:Op"/></wsdl:message><wsdl:message name="Out"><wsdl:part name="p" element="k:OpResponse"/></wsdl:message><wsdl:message name="F"><wsdl:part name="a" element="k:Op"/><wsdl:part name="b" element="k:Op"/></wsdl:message>',
    portType: '<wsdl:portType name="PT"><wsdl:operation name="Op"><wsdl:input message="tns:In"/><wsdl:output message="tns:Out"/><wsdl:fault name="Bad" message="tns:F"/></wsdl:operation></wsdl:portType>'
  })
  await refused(t, { document: faultTwoParts }, 'SOAP_ERR_CONTRACT_UNSUPPORTED', /the fault Bad, whose message is not one part naming an element/)
})

test('docs/contract-first.md "What is refused": what the WSDL names must exist, and the service or binding to serve must be clear', async (t: TestContext) => {
  const C = 'SOAP_ERR_CONTRACT_INVALID'
  await refused(t, { document: wsdl({ messages: '' }) }, C, /the message \{urn:svc\}In is not defined/)
  await refused(t, { document: wsdl({ binding: '<wsdl:binding name="B" type="tns:PT"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/></wsdl:binding>' }) }, C, /operation Op: the binding \{urn:svc\}B does not bind it/)
  const extraOperation = wsdl({ binding: '<wsdl:binding name="B" type="tns:PT"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/><wsdl:operation name="Op"><wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation><wsdl:operation name="Other"><wsdl:input><soap:body use="literal"/></wsdl:input></wsdl:operation></wsdl:binding>' })
  await refused(t, { document: extraOperation }, C, /binding \{urn:svc\}B: it binds the operation Other, which the portType \{urn:svc\}PT does not have/)
  const barePart = wsdl({ messages: '<wsdl:message name="In"><wsdl:part name="p"/></wsdl:message><wsdl:message name="Out"><wsdl:part name="p" element="k:OpResponse"/></wsdl:message>' })
  await refused(t, { document: barePart }, C, /operation Op: the part p of message \{urn:svc\}In names neither an element nor a type/)
  const WSDL_BASE = '<wsdl:portType name="PT"><wsdl:operation name="Op"><wsdl:input message="tns:In"/><wsdl:output message="tns:Out"/></wsdl:operation></wsdl:portType>'
  await refused(t, { document: wsdl({ portType: WSDL_BASE.replace('<wsdl:input message="tns:In"/>', '<wsdl:input/>') }) }, C, /wsdl:input has no message/)
  await refused(t, { document: wsdl({ portType: WSDL_BASE.replace('</wsdl:operation>', '<wsdl:fault message="tns:Out"/></wsdl:operation>') }) }, C, /operation Op: wsdl:fault has no name/)
  await refused(t, { document: wsdl({ binding: '<wsdl:binding name="B"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/></wsdl:binding>' }) }, C, /wsdl:binding has no type/)
  await refused(t, { document: wsdl({ service: '<wsdl:service name="S"><wsdl:port name="P"><soap:address location="x"/></wsdl:port></wsdl:service>' }) }, C, /wsdl:port has no binding/)
  await refused(t, { document: wsdl({ binding: '<wsdl:binding name="B" type="tns:PT"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/><wsdl:operation name="Op"><wsdl:input><soap:body use="literal"/><soap:header part="p" use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation></wsdl:binding>' }) }, C, /soap:header has no message/)
  const missingHeaderPart = wsdl({ binding: '<wsdl:binding name="B" type="tns:PT"><soap:binding transport="http://schemas.xmlsoap.org/soap/http"/><wsdl:operation name="Op"><wsdl:input><soap:body use="literal"/><soap:header message="tns:In" part="nope" use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation></wsdl:binding>' })
  await refused(t, { document: missingHeaderPart }, C, /the header part nope is not in message \{urn:svc\}In/)
  const missingBodyPart = wsdl({ binding: '<wsdl:binding name="B" type="tns:PT"><soap:binding transport="http://schemas.xmlsoap.org/soap/http"/><wsdl:operation name="Op"><wsdl:input><soap:body use="literal" parts="nope"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation></wsdl:binding>' })
  await refused(t, { document: missingBodyPart }, C, /soap:body names the part nope, which message \{urn:svc\}In does not have/)
  await refused(t, { document: wsdl({}), service: 'Nope' }, C, /no wsdl:service is named Nope \(there are \{urn:svc\}S\)/)
  await refused(t, { document: wsdl({}), binding: 'Nope' }, C, /no wsdl:binding is named Nope/)
  const http = '<wsdl:binding name="H" type="tns:PT"><http:binding xmlns:http="http://schemas.xmlsoap.org/wsdl/http/" verb="GET"/></wsdl:binding>'
  await refused(t, { document: wsdl({ extra: '', service: `${http}<wsdl:service name="S"><wsdl:port name="P" binding="tns:H"/></wsdl:service>` }) }, C, /the service \{urn:svc\}S has no SOAP port/)
  await refused(t, { document: wsdl({ service: http }), binding: 'H' }, C, /the binding \{urn:svc\}H is no SOAP 1\.1 or 1\.2 binding/)
  await refused(t, { document: wsdl({ service: '' }).replace('</wsdl:definitions>', '<wsdl:binding name="B2" type="tns:PT"><soap:binding transport="http://schemas.xmlsoap.org/soap/http"/></wsdl:binding></wsdl:definitions>') }, C, /no wsdl:service and several SOAP bindings: choose one with "binding"/)
  await refused(t, { document: wsdl({ service: '<wsdl:service name="S"/><wsdl:service name="T"/>' }) }, C, /several services: choose one with "service" \(\{urn:svc\}S, \{urn:svc\}T\)/)
  // The binding chosen by name, with no service: served, and named after it.
  const bindingOnly = await readContract({ document: wsdl({ service: '' }) })
  t.assert.strictEqual(bindingOnly.name, 'B')
})

test('docs/contract-first.md "What is refused": handlers are bound by operation name, each once, at ready()', async (t: TestContext) => {
  const C = 'SOAP_ERR_CONTRACT_INVALID'
  const document = wsdl({})
  await refused(t, { document }, C, /no handler for Op: every operation of the binding needs one/, {})
  await refused(t, { document }, C, /the contract has no operation Other \(it has Op\)/, { Op: async () => ({}), Other: async () => ({}) })
  await refused(t, { document }, C, /operation Op must be a handler, or \{ handler, hooks, timeout \}/, { Op: { handler: async () => ({}), input: {} } })
  await refused(t, { document }, C, /operation Op must be a handler/, { Op: 42 })
  await refused(t, { document }, C, /"operations" must map operation names to handlers/, null as never)
  await refused(t, { document, bogus: 1 } as never, C, /unknown key "bogus"/)
  await refused(t, {}, C, /give either "wsdl" \(a file\) or "document"/)
  await refused(t, { document, resolver: 'x' } as never, C, /"resolver" must be a function/)
  // A WSDL without a targetNamespace: every element and action names its own, and the service gets a placeholder.
  t.assert.strictEqual(bindContract({ name: 'S', namespace: '', bindings: [], operations: { Op: { action: 'a' } }, wsdl: { document: '<a/>', schemas: {} } }, { path: '/p', operations: { Op: async () => {} } }).namespace, 'urn:unknown')
  const app = Fastify()
  await app.register(soap)
  app.soap.contract(null as never)
  await t.assert.rejects(async () => { await app.ready() }, /contract \(definition\): must be an object/)
  await app.close()
})

test('docs/contract-first.md "Loading": documents that are not a WSDL, or cannot be read, are SOAP_ERR_CONTRACT_LOAD naming the document', async (t: TestContext) => {
  const L = 'SOAP_ERR_CONTRACT_LOAD'
  await refused(t, { document: '<a><b></a>' }, L, /\(document\) cannot be loaded: it is not well-formed XML/)
  await refused(t, { document: '<!DOCTYPE a [<!ENTITY e "x">]><wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/"/>' }, L, /it has a DOCTYPE/)
  await refused(t, { document: '<description xmlns="http://www.w3.org/ns/wsdl"/>' }, L, /not a WSDL 1\.1 wsdl:definitions \(WSDL 2\.0 is not supported\)/)
  await refused(t, { wsdl: '/nonexistent/contract.wsdl' }, L, /\/nonexistent\/contract\.wsdl cannot be loaded: ENOENT/)
  await refused(t, { document: Buffer.from('<?xml version="1.0" encoding="EBCDIC-XX"?><a/>') as never }, L, /the encoding "ebcdic-xx" is not supported/)
  await refused(t, { document: Buffer.from([0x3c, 0x61, 0x3e, 0xff, 0x3c, 0x2f, 0x61, 0x3e]) as never }, L, /the bytes are not utf-8/)
  const imports = (location: string): string => wsdl({ types: `<xs:schema targetNamespace="urn:imp"><xs:import namespace="${K}" schemaLocation="${location}"/></xs:schema>` })
  await refused(t, { document: imports('http://remote.example/k.xsd') }, L, /http:\/\/remote\.example\/k\.xsd cannot be loaded: \(document\) names it by URL, and nothing is fetched over the network; map it to a local copy in the catalog: <system systemId="http:\/\/remote\.example\/k\.xsd" uri="\.\/k\.xsd"\/>$/)
  await refused(t, { document: imports('http://remote.example/k.xsd'), resolver: () => { throw new Error('offline') } }, L, /the resolver failed \(offline\)/)
  await refused(t, { document: imports('http://remote.example/k.xsd'), resolver: (() => 42) as never }, L, /the resolver must return a string or bytes/)
  await refused(t, { document: imports('http://remote.example/k.xsd'), resolver: () => '<notaschema/>' }, L, /it is imported as a schema and is no xs:schema/)
  await refused(t, { document: wsdl({ types: '<xs:schema targetNamespace="urn:imp"><xs:import namespace="urn:nowhere"/></xs:schema>' }) }, L, /it imports the namespace urn:nowhere with no schemaLocation, and no schema of the contract has that target namespace/)
  await refused(t, { document: wsdl({ extra: '<wsdl:import namespace="urn:x"/>' }) }, L, /a wsdl:import has no location/)
})

test('docs/contract-first.md "Loading": byte order marks, an ISO-8859-1 declaration, a relative import from a string\'s base, a resolver\'s bytes and a file: URL', async (t: TestContext) => {
  const latin = Buffer.concat([Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?>'), Buffer.from(wsdl({}).replace(/^<\?xml[^>]*>/, '').replace('name="S"', 'name="Sé"'), 'latin1')])
  t.assert.strictEqual((await readContract({ document: latin })).name, 'Sé')
  const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(wsdl({}))])
  t.assert.strictEqual((await readContract({ document: bom })).name, 'S')
  for (const [mark, encoding] of [[[0xfe, 0xff], 'utf16be'], [[0xff, 0xfe], 'utf16le']] as const) {
    const text = wsdl({})
    const bytes = encoding === 'utf16le' ? Buffer.from(text, 'utf16le') : Buffer.from(text, 'utf16le').swap16()
    t.assert.strictEqual((await readContract({ document: Buffer.concat([Buffer.from(mark), bytes]) })).name, 'S', encoding)
  }
  t.assert.strictEqual((await readContract({ document: '\ufeff' + wsdl({}) })).name, 'S')
  const viaResolver = await readContract({ document: wsdl({ types: OP_TYPES + `<xs:schema targetNamespace="urn:imp"><xs:import namespace="${U}" schemaLocation="https://h.example/dir/u.xsd"/></xs:schema>` }), resolver: async () => new TextEncoder().encode(U_XSD) })
  t.assert.deepStrictEqual(Object.keys(viaResolver.wsdl.schemas), ['u.xsd'])
  // WS-I's Configuration.xsd imports the SOAP 1.1 envelope schema by its URL, never fetched: the loader's own copy (soap-envelope.xsd).
  const base = sharedFixture(t, 'wsdl', 'wsi-scm')
  if (base === undefined) return
  const relative = wsdl({ types: OP_TYPES + '<xs:schema targetNamespace="urn:imp"><xs:import namespace="http://www.ws-i.org/SampleApplications/SupplyChainManagement/2002-08/Configuration.xsd" schemaLocation="Configuration.xsd"/></xs:schema>' })
  t.assert.strictEqual((await readContract({ document: relative, base })).name, 'S')
  // A file: URL in a document is a URL like any other (docs/contract-first.md "Imports stay inside the contract"): read when the catalog maps it.
  const fileUrl = pathToFileURL(join(base, 'Configuration.xsd')).href
  const byFileUrl = relative.replace('schemaLocation="Configuration.xsd"', `schemaLocation="${fileUrl}"`)
  t.assert.deepStrictEqual(Object.keys((await readContract({ document: byFileUrl, catalog: { [fileUrl]: join(base, 'Configuration.xsd') } })).wsdl.schemas), ['Configuration.xsd', 'soap-envelope.xsd'])
  const url = pathToFileURL(join(base, 'LoggingFacility.wsdl'))
  t.assert.strictEqual((await readContract({ wsdl: url })).name, 'LoggingFacilitySoapBinding')
  t.assert.strictEqual((await readContract({ wsdl: url.href })).name, 'LoggingFacilitySoapBinding')
})

test('docs/contract-first.md "What is served": a SOAP 1.1 contract still answers SOAP 1.2 requests (both versions on one path), and the WSDL\'s GET rules hold', async (t: TestContext) => {
  const app = Fastify()
  await app.register(soap)
  app.soap.contract({ path: '/one', document: wsdl({}), operations: { Op: async (input: { a: string }) => ({ b: input.a.toUpperCase() }) } })
  t.after(() => app.close())
  for (const version of ['1.1', '1.2'] as const) {
    const res = await app.inject({ method: 'POST', url: '/one', headers: { 'content-type': MEDIA[version] }, payload: envelope(version, `<k:Op xmlns:k="${K}"><k:a>x</k:a></k:Op>`) })
    t.assert.strictEqual(res.statusCode, 200)
    t.assert.match(res.body, /<tns:b>X<\/tns:b>/)
    if (version === '1.1') t.assert.match(res.body, new RegExp(SOAP11_ENV.replace(/\./g, '\\.')))
  }
  t.assert.strictEqual((await app.inject({ method: 'GET', url: '/one?xsd=nope' })).statusCode, 404)
  t.assert.strictEqual((await app.inject({ method: 'GET', url: '/one' })).statusCode, 404)
  t.assert.strictEqual((await app.inject({ method: 'PUT', url: '/one' })).headers.allow, 'GET, HEAD, POST')
})

test('docs/contract-first.md "Loading": a file: URL whose path has escaped characters (a space) names the file it escapes', async (t: TestContext) => {
  const dir = await mkdtemp(join(tmpdir(), 'fastify soap '))
  t.after(() => rm(dir, { recursive: true, force: true }))
  const file = join(dir, 'a contract.wsdl')
  await writeFile(file, wsdl({}))
  const url = pathToFileURL(file)
  t.assert.match(url.href, /%20/)
  const byUrl = await readContract({ wsdl: url })
  const byHref = await readContract({ wsdl: url.href })
  const byPath = await readContract({ wsdl: file })
  t.assert.deepStrictEqual(Object.keys(byUrl.operations), Object.keys(byPath.operations))
  t.assert.deepStrictEqual(Object.keys(byHref.operations), Object.keys(byPath.operations))
})

// ----------------------------------------------------------------- catalog ---

/** A WSDL importing the `urn:u` schema from `location`, with an operation whose input names u:note. */
function importing (location: string): string {
  return wsdl({
    types: `<xs:schema targetNamespace="${K}" elementFormDefault="qualified"><xs:import namespace="${U}" schemaLocation="${location}"/>
      <xs:element name="Op"><xs:complexType><xs:sequence><xs:element ref="u:note"/></xs:sequence></xs:complexType></xs:element>
      <xs:element name="OpResponse"><xs:complexType><xs:sequence/></xs:complexType></xs:element></xs:schema>`
  })
}

test('docs/contract-first.md "Catalog": a location mapped to a local file, by the location as written or by the absolute URL it resolves to, is read from the file (relative to the root WSDL\'s folder), and nothing is fetched', async (t: TestContext) => {
  const dir = await mkdtemp(join(tmpdir(), 'fastify-soap-catalog-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  await mkdir(join(dir, 'local'))
  // u.xsd includes a sibling by a relative location: read beside the file the catalog named, not beside the URL.
  await writeFile(join(dir, 'local', 'u.xsd'), `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="${U}"><xs:include schemaLocation="note.xsd"/></xs:schema>`)
  await writeFile(join(dir, 'local', 'note.xsd'), U_XSD.replace(/^<\?xml[^>]*>/, ''))
  const noteOf = (contract: Awaited<ReturnType<typeof readContract>>): unknown => (contract.operations.Op.input as { properties: Record<string, unknown> }).properties.note
  const resolverCalls: string[] = []
  const resolver = (url: string): string => { resolverCalls.push(url); throw new Error('offline') }

  // a server-relative location, as written (the root WSDL is a file: its folder is the catalog's base)
  await writeFile(join(dir, 'server.wsdl'), importing('/schemas/u-1.2.xsd'))
  const byWritten = await readContract({ wsdl: join(dir, 'server.wsdl'), catalog: { '/schemas/u-1.2.xsd': './local/u.xsd' }, resolver })
  t.assert.ok(noteOf(byWritten) !== undefined)
  t.assert.deepStrictEqual(Object.keys(byWritten.wsdl.schemas), ['u.xsd', 'note.xsd'])

  // an absolute URL, by itself, to an absolute path, a file: URL, or a URL object
  await writeFile(join(dir, 'remote.wsdl'), importing('http://schemas.example.test/u.xsd'))
  for (const target of [join(dir, 'local', 'u.xsd'), pathToFileURL(join(dir, 'local', 'u.xsd')).href, pathToFileURL(join(dir, 'local', 'u.xsd'))]) {
    const contract = await readContract({ wsdl: join(dir, 'remote.wsdl'), catalog: { 'http://schemas.example.test/u.xsd': target }, resolver })
    t.assert.ok(noteOf(contract) !== undefined, String(target))
  }

  // a relative location in a document read by URL, mapped by the URL it resolves to
  const viaUrl = await readContract({
    document: importing('https://h.example/dir/u.xsd'),
    base: dir,
    catalog: { 'https://h.example/dir/note.xsd': 'local/note.xsd' },
    resolver: (url: string) => { if (url === 'https://h.example/dir/u.xsd') return `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="${U}"><xs:include schemaLocation="note.xsd"/></xs:schema>`; throw new Error(`no ${url}`) }
  })
  t.assert.ok(noteOf(viaUrl) !== undefined)

  // a location mapped to another URL: that URL goes to the resolver (nothing is fetched over the network)
  const toUrl = await readContract({ document: importing('/schemas/u.xsd'), catalog: { '/schemas/u.xsd': 'https://mirror.example/u.xsd' }, resolver: (url: string) => { resolverCalls.push(url); return U_XSD } })
  t.assert.ok(noteOf(toUrl) !== undefined)
  t.assert.deepStrictEqual(resolverCalls, ['https://mirror.example/u.xsd'])

  // two locations mapped to one file: read once
  await writeFile(join(dir, 'twice.wsdl'), importing('/schemas/u-1.2.xsd').replace('<xs:element name="Op">', `<xs:import namespace="${U}" schemaLocation="http://schemas.example.test/u.xsd"/><xs:element name="Op">`))
  const twice = await readContract({ wsdl: join(dir, 'twice.wsdl'), catalog: { '/schemas/u-1.2.xsd': './local/u.xsd', 'http://schemas.example.test/u.xsd': './local/u.xsd' } })
  t.assert.deepStrictEqual(Object.keys(twice.wsdl.schemas), ['u.xsd', 'note.xsd'])

  // the same catalog through app.soap.contract()
  const app = Fastify()
  await app.register(soap)
  app.soap.contract({ path: '/c', wsdl: join(dir, 'server.wsdl'), catalog: { '/schemas/u-1.2.xsd': './local/u.xsd' }, operations: { Op: async () => ({}) } })
  t.after(() => app.close())
  await app.ready()
  t.assert.match((await app.inject({ method: 'GET', url: '/c?xsd=u.xsd' })).body, /schemaLocation="http:\/\/localhost(:80)?\/c\?xsd=note\.xsd"/)
})

test('docs/contract-first.md "Catalog": a server-relative location (/path) that is neither mapped nor a file is SOAP_ERR_CONTRACT_LOAD suggesting the catalog; a mapped file that is missing names the entry; a bad catalog is SOAP_ERR_CONTRACT_INVALID', async (t: TestContext) => {
  const L = 'SOAP_ERR_CONTRACT_LOAD'
  await refused(t, { document: importing('/nonexistent-site/u-1.2.xsd') }, L, /\/nonexistent-site\/u-1\.2\.xsd cannot be loaded: \(document\) names it "\/nonexistent-site\/u-1\.2\.xsd", a path on the server the contract was published at, outside .*; map it to a local copy in the catalog: <system systemId="\/nonexistent-site\/u-1\.2\.xsd" uri="\.\/u-1\.2\.xsd"\/>$/)
  await refused(t, { document: importing('/nonexistent-site/u-1.2.xsd'), catalog: { '/nonexistent-site/u-1.2.xsd': '/nonexistent/u.xsd' } }, L, /\/nonexistent\/u\.xsd cannot be loaded: ENOENT \(the catalog maps \/nonexistent-site\/u-1\.2\.xsd to it\)/)
  // a relative location keeps the plain code
  await refused(t, { document: importing('nonexistent-u.xsd') }, L, /nonexistent-u\.xsd cannot be loaded: ENOENT; map it to a local copy in the catalog: <system systemId="nonexistent-u\.xsd" uri="\.\/nonexistent-u\.xsd"\/>$/)
  const C = 'SOAP_ERR_CONTRACT_INVALID'
  for (const catalog of ['', 42, null, ['a'], { '/a.xsd': 42 }, { '/a.xsd': '' }, { '': './a.xsd' }, new Map([['/a.xsd', './a.xsd']])]) {
    await refused(t, { document: importing('/a.xsd'), catalog } as never, C, /"catalog" must be a catalog file, or map locations \(as written, or the absolute URLs they resolve to\) to file paths or URLs/)
    await t.assert.rejects(readContract({ document: importing('/a.xsd'), catalog } as never), { code: C })
  }
})

test('docs/contract-first.md "Catalog": the digipoort-aanleverservice WSDL imports /cpl/digipoort-koppelvlak-1.2.xsd (a path on the site it was published at), saved beside it as digipoort-koppelvlak-1.xsd: refused without a catalog entry, served with one', async (t: TestContext) => {
  const folder = sharedFixture(t, 'wsdl', 'digipoort-aanleverservice')
  if (folder === undefined) return
  const wsdl = join(folder, '1.wsdl')
  await t.assert.rejects(readContract({ wsdl }), (err: Error & { code?: string }) => {
    t.assert.strictEqual(err.code, 'SOAP_ERR_CONTRACT_LOAD')
    t.assert.match(err.message, /\/cpl\/digipoort-koppelvlak-1\.2\.xsd cannot be loaded: .*1\.wsdl names it "\/cpl\/digipoort-koppelvlak-1\.2\.xsd", a path on the server the contract was published at, outside .*; map it to a local copy in the catalog: <system systemId="\/cpl\/digipoort-koppelvlak-1\.2\.xsd" uri="\.\/digipoort-koppelvlak-1\.2\.xsd"\/>$/)
    return true
  })
  const contract = await readContract({ wsdl, catalog: { '/cpl/digipoort-koppelvlak-1.2.xsd': './digipoort-koppelvlak-1.xsd' } })
  t.assert.deepStrictEqual(Object.keys(contract.operations), ['aanleveren'])
  t.assert.deepStrictEqual(Object.keys(contract.wsdl.schemas), ['digipoort-koppelvlak-1.xsd'])
  t.assert.deepStrictEqual(Object.keys(contract.operations.aanleveren.faults ?? {}), ['aanleverServiceFault'])
})

test('docs/contract-first.md "The mapping": choices hold as the XSD says (one branch, sequence branches, optional branches, a branch taken whole, repeated and nested choices), in input and output: the codec and xmllint agree on every message', async (t: TestContext) => {
  const schema = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:k="${K}" targetNamespace="${K}" elementFormDefault="qualified">
    <xs:complexType name="C"><xs:sequence>
      <xs:choice><xs:element name="one" type="xs:int"/></xs:choice>
      <xs:choice>
        <xs:sequence><xs:element name="street" type="xs:string"/><xs:element name="city" type="xs:string"/></xs:sequence>
        <xs:element name="box" type="xs:int"/>
      </xs:choice>
      <xs:choice>
        <xs:element name="p" type="xs:int" minOccurs="0"/>
        <xs:element name="q" type="xs:int"/>
      </xs:choice>
      <xs:sequence minOccurs="0">
        <xs:element name="from" type="xs:int"/>
        <xs:choice><xs:element name="to" type="xs:int"/><xs:element name="open" type="xs:boolean"/></xs:choice>
      </xs:sequence>
      <xs:choice minOccurs="0" maxOccurs="unbounded"><xs:element name="tag" type="xs:string"/><xs:element name="flag" type="xs:int"/></xs:choice>
      <xs:choice minOccurs="1" maxOccurs="2"><xs:element name="r" type="xs:int"/><xs:element name="s" type="xs:int"/></xs:choice>
    </xs:sequence></xs:complexType>
    <xs:element name="Op" type="k:C"/>
    <xs:element name="OpResponse" type="k:C"/>
  </xs:schema>`
  const document = wsdl({ types: schema })
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  const answer: { reply?: unknown } = {}
  app.soap.contract({ path: '/c', document, operations: { Op: async (input: unknown) => answer.reply ?? input } })
  const cases: Array<[string, string]> = [
    ['one branch of each', '<k:one>1</k:one><k:box>2</k:box><k:q>3</k:q><k:r>1</k:r>'],
    ['a sequence branch, whole', '<k:one>1</k:one><k:street>s</k:street><k:city>c</k:city><k:p>3</k:p><k:s>1</k:s>'],
    ['a sequence branch, half', '<k:one>1</k:one><k:street>s</k:street><k:q>3</k:q><k:r>1</k:r>'],
    ['two branches', '<k:one>1</k:one><k:street>s</k:street><k:city>c</k:city><k:box>2</k:box><k:q>3</k:q><k:r>1</k:r>'],
    ['no branch of a required choice', '<k:one>1</k:one><k:q>3</k:q><k:r>1</k:r>'],
    ['a choice whose branch may be empty, left empty', '<k:one>1</k:one><k:box>2</k:box><k:r>1</k:r>'],
    ['both branches of the emptiable choice', '<k:one>1</k:one><k:box>2</k:box><k:p>1</k:p><k:q>3</k:q><k:r>1</k:r>'],
    ['an optional group, whole', '<k:one>1</k:one><k:box>2</k:box><k:q>3</k:q><k:from>1</k:from><k:open>true</k:open><k:r>1</k:r>'],
    ['an optional group without its required choice', '<k:one>1</k:one><k:box>2</k:box><k:q>3</k:q><k:from>1</k:from><k:r>1</k:r>'],
    ['an optional group without its required element', '<k:one>1</k:one><k:box>2</k:box><k:q>3</k:q><k:to>1</k:to><k:r>1</k:r>'],
    ['an optional group with both branches of its choice', '<k:one>1</k:one><k:box>2</k:box><k:q>3</k:q><k:from>1</k:from><k:to>1</k:to><k:open>true</k:open><k:r>1</k:r>'],
    ['a repeated choice, mixed', '<k:one>1</k:one><k:box>2</k:box><k:q>3</k:q><k:tag>a</k:tag><k:flag>1</k:flag><k:tag>b</k:tag><k:r>1</k:r><k:s>2</k:s>'],
    ['a required repeated choice, absent', '<k:one>1</k:one><k:box>2</k:box><k:q>3</k:q>'],
    ['the one-branch choice, absent', '<k:box>2</k:box><k:q>3</k:q><k:r>1</k:r>']
  ]
  const xmllint = requireXmllint(t)
  const dir = await mkdtemp(join(tmpdir(), 'fastify-soap-choice-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  await writeFile(join(dir, 'c.xsd'), schema)
  for (const [what, content] of cases) {
    const op = `<k:Op xmlns:k="${K}">${content}</k:Op>`
    const response = await post(app, '1.1', envelope('1.1', op), { url: '/c' })
    const accepted = response.statusCode === 200
    if (!accepted) t.assert.match(response.body, /faultcode>soap:Client</, what)
    if (xmllint) {
      const file = join(dir, 'op.xml')
      await writeFile(file, op)
      const valid = spawnSync('xmllint', ['--noout', '--nonet', '--schema', join(dir, 'c.xsd'), file], { encoding: 'utf8', timeout: 10_000 }).status === 0
      t.assert.strictEqual(accepted, valid, `${what}: the codec ${accepted ? 'accepts' : 'refuses'} it, xmllint ${valid ? 'accepts' : 'refuses'} it`)
    }
  }
  // The output is held to the same rules: a reply with two branches of a choice is never sent.
  answer.reply = { one: 1, street: 's', city: 'c', box: 2, q: 3, r: [1] }
  const refused = await post(app, '1.1', envelope('1.1', `<k:Op xmlns:k="${K}"><k:one>1</k:one><k:box>2</k:box><k:q>3</k:q><k:r>1</k:r></k:Op>`), { url: '/c' })
  t.assert.strictEqual(refused.statusCode, 500)
  t.assert.match(refused.body, /<faultcode>soap:Server<\/faultcode><faultstring>The server could not process the request<\/faultstring>/)
})

test('docs/contract-first.md "The mapping": xs:anyType and mixed="true" carry text (a time, a number), child elements, or both: the text is $value, written back first', async (t: TestContext) => {
  const types = `<xs:schema targetNamespace="${K}" elementFormDefault="qualified" xmlns:k="${K}">
    <xs:complexType name="Note" mixed="true"><xs:sequence><xs:element name="b" type="xs:string" minOccurs="0" maxOccurs="unbounded"/></xs:sequence><xs:attribute name="lang" type="xs:string"/></xs:complexType>
    <xs:element name="Op"><xs:complexType><xs:sequence>
      <xs:element name="value" type="xs:anyType" maxOccurs="unbounded"/>
      <xs:element name="untyped" minOccurs="0"/>
      <xs:element name="note" type="k:Note" minOccurs="0"/>
    </xs:sequence></xs:complexType></xs:element>
    <xs:element name="OpResponse"><xs:complexType><xs:sequence><xs:element name="value" type="xs:anyType" maxOccurs="unbounded"/><xs:element name="note" type="k:Note" minOccurs="0"/></xs:sequence></xs:complexType></xs:element>
  </xs:schema>`
  let got: { value: unknown[], note?: unknown, untyped?: unknown } | undefined
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.contract({ path: '/m', document: wsdl({ types }), operations: { Op: async (input: { value: unknown[], note?: unknown }) => { got = input; return { value: input.value, note: input.note } } } })
  const body = `<k:Op xmlns:k="${K}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema">` +
    '<k:value xsi:type="xs:dateTime">2030-01-15T09:30:00Z</k:value><k:value>42</k:value><k:value><k:x>1</k:x></k:value><k:value>a <k:y>b</k:y> c</k:value><k:value/>' +
    '<k:untyped>free text</k:untyped><k:note lang="en">Hello <k:b>bold</k:b> world</k:note></k:Op>'
  const response = await post(app, '1.1', envelope('1.1', body), { url: '/m' })
  t.assert.strictEqual(response.statusCode, 200, response.body)
  const value = got?.value as Array<{ $value?: string, $any: Array<{ localName: string }> }>
  t.assert.deepStrictEqual(value.map((v) => [v.$value, v.$any.map((e) => e.localName)]), [['2030-01-15T09:30:00Z', []], ['42', []], [undefined, ['x']], ['a  c', ['y']], [undefined, []]])
  t.assert.deepStrictEqual(got?.untyped, { $value: 'free text', $any: [] })
  t.assert.deepStrictEqual(got?.note, { lang: 'en', $value: 'Hello  world', b: ['bold'] })
  t.assert.match(response.body, /<tns:value>2030-01-15T09:30:00Z<\/tns:value><tns:value>42<\/tns:value><tns:value><k:x xmlns:k="urn:k">1<\/k:x><\/tns:value><tns:value>a {2}c<k:y xmlns:k="urn:k">b<\/k:y><\/tns:value><tns:value\/>/)
  t.assert.match(response.body, /<tns:note lang="en">Hello {2}world<tns:b>bold<\/tns:b><\/tns:note>/)
})

test('docs/contract-first.md "The mapping": xs:any admits what its namespace says (##other, ##targetNamespace, ##local, a list; two wildcards admit what either does), and the rest is refused', async (t: TestContext) => {
  const types = `<xs:schema targetNamespace="${K}" elementFormDefault="qualified" xmlns:k="${K}">
    <xs:element name="Op"><xs:complexType><xs:sequence>
      <xs:element name="other"><xs:complexType><xs:sequence><xs:any namespace="##other" processContents="lax" minOccurs="0" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>
      <xs:element name="local"><xs:complexType><xs:sequence><xs:any namespace="##targetNamespace ##local" minOccurs="0" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>
      <xs:element name="two"><xs:complexType><xs:sequence><xs:any namespace="urn:a" minOccurs="0" maxOccurs="unbounded"/><xs:element name="mid" type="xs:int"/><xs:any namespace="##other" minOccurs="0" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>
      <xs:element name="lists" minOccurs="0"><xs:complexType><xs:sequence><xs:any namespace="urn:a" minOccurs="0"/><xs:element name="mid" type="xs:int"/><xs:any namespace="urn:b ##local" minOccurs="0"/></xs:sequence></xs:complexType></xs:element>
      <xs:element name="others" minOccurs="0"><xs:complexType><xs:sequence><xs:any namespace="##other" minOccurs="0"/><xs:element name="mid" type="xs:int"/><xs:any namespace="##other" minOccurs="0"/><xs:any minOccurs="0"/></xs:sequence></xs:complexType></xs:element>
    </xs:sequence></xs:complexType></xs:element>
  </xs:schema>`
  const contract = await readContract({ document: wsdl({ types: types.replace('</xs:schema>', '<xs:element name="OpResponse"><xs:complexType><xs:sequence/></xs:complexType></xs:element></xs:schema>') }) })
  const props = (contract.operations.Op.input as { properties: Record<string, { properties: { $any: { xml: unknown } } }> }).properties
  t.assert.deepStrictEqual(props.other.properties.$any.xml, { any: true, anyExcept: [K, ''] })
  t.assert.deepStrictEqual(props.local.properties.$any.xml, { any: true, anyNamespaces: [K, ''] })
  t.assert.deepStrictEqual(props.two.properties.$any.xml, { any: true, anyExcept: [K, ''] }, 'urn:a, or anything but the target namespace and none: the second holds the first')
  t.assert.deepStrictEqual(props.lists.properties.$any.xml, { any: true, anyNamespaces: ['urn:a', 'urn:b', ''] })
  t.assert.deepStrictEqual(props.others.properties.$any.xml, { any: true }, '##other twice is ##other; then ##any admits all')
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.contract({ path: '/w', document: wsdl({ types: types.replace('</xs:schema>', '<xs:element name="OpResponse"><xs:complexType><xs:sequence/></xs:complexType></xs:element></xs:schema>') }), operations: { Op: async () => ({}) } })
  const call = async (other: string, local: string, two = '<k:mid>1</k:mid>'): Promise<number> => (await post(app, '1.1', envelope('1.1', `<k:Op xmlns:k="${K}" xmlns:o="urn:o"><k:other>${other}</k:other><k:local>${local}</k:local><k:two>${two}</k:two></k:Op>`), { url: '/w' })).statusCode
  t.assert.strictEqual(await call('<o:x/>', '<k:y/><z/>'), 200)
  t.assert.strictEqual(await call('<k:x/>', ''), 500, '##other refuses the target namespace')
  t.assert.strictEqual(await call('<x/>', ''), 500, '##other refuses no namespace')
  t.assert.strictEqual(await call('', '<o:y/>'), 500, '##targetNamespace ##local refuses another namespace')
  t.assert.strictEqual(await call('', '', '<k:mid>1</k:mid><o:q/><a:q xmlns:a="urn:a"/>'), 200, 'another namespace, and urn:a')
  t.assert.strictEqual(await call('', '', '<k:mid>1</k:mid><k:q/>'), 500, 'the target namespace: admitted by neither wildcard')
  t.assert.strictEqual(await call('', '', '<k:mid>1</k:mid><q/>'), 500, 'no namespace: admitted by neither')
})

test('docs/contract-first.md "The mapping": a choice of one required element beside other elements keeps them all, and a pattern on a boolean type (HL7 V3\'s bl) is no pattern on the value read', async (t: TestContext) => {
  const types = SIMPLE(`
    <xs:simpleType name="bl"><xs:restriction base="xs:boolean"><xs:pattern value="true|false"/></xs:restriction></xs:simpleType>
    <xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="a" type="xs:int"/><xs:choice><xs:element name="b" type="xs:string"/></xs:choice></xs:sequence><xs:attribute name="flag" type="k:bl"/></xs:complexType></xs:element>`)
  const document = wsdl({ types })
  const contract = await readContract({ document })
  const input = contract.operations.Op.input as { properties: Record<string, Record<string, unknown>> }
  t.assert.deepStrictEqual(Object.keys(input.properties), ['a', 'b', 'flag'])
  t.assert.deepStrictEqual(input.properties.flag, { type: 'boolean', xml: { attribute: true } })
  let got: unknown
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.contract({ path: '/x', document, operations: { Op: async (value: unknown) => { got = value; return {} } } })
  const ok = await post(app, '1.1', envelope('1.1', `<k:Op xmlns:k="${K}" flag="true"><k:a>1</k:a><k:b>x</k:b></k:Op>`), { url: '/x' })
  t.assert.strictEqual(ok.statusCode, 200, ok.body)
  t.assert.deepStrictEqual(got, { flag: true, a: 1, b: 'x' })
  const missing = await post(app, '1.1', envelope('1.1', `<k:Op xmlns:k="${K}"><k:a>1</k:a></k:Op>`), { url: '/x' })
  t.assert.strictEqual(missing.statusCode, 500)
  t.assert.match(missing.body, /the elements present do not fit the content model/)
})

test('docs/contract-first.md "The mapping": an attribute that states no type is a string (XML Schema 1.0 Part 1 §3.2.2, xs:anySimpleType); a reference to a SOAP envelope attribute is passed over, as the codec passes over the envelope\'s attributes', async (t: TestContext) => {
  const schema = `<xs:schema targetNamespace="${K}" xmlns:se="http://schemas.xmlsoap.org/soap/envelope/" elementFormDefault="qualified">
    <xs:element name="Op"><xs:complexType><xs:attribute name="note"/><xs:attribute ref="se:encodingStyle"/></xs:complexType></xs:element>
    <xs:element name="OpResponse"><xs:complexType><xs:sequence/></xs:complexType></xs:element>
  </xs:schema>`
  const contract = await readContract({ document: contractWsdl({ types: schema }) })
  t.assert.deepStrictEqual((contract.operations.Op.input as { properties: unknown }).properties, { note: { type: 'string', xml: { attribute: true } } })
})

test('docs/protocol.md "Dispatch": a contract\'s operations that share one input element are told apart by their ' +
  'soapActions (as WCF contracts do); one action for both is SOAP_ERR_CONTRACT_UNSUPPORTED', async (t: TestContext) => {
  const document = (second: string): string => contractWsdl({
    messages: `<wsdl:message name="In"><wsdl:part name="p" element="k:Op"/></wsdl:message>
  <wsdl:message name="Out"><wsdl:part name="p" element="k:OpResponse"/></wsdl:message>`,
    portType: `<wsdl:portType name="PT">
    <wsdl:operation name="Op"><wsdl:input message="tns:In"/><wsdl:output message="tns:Out"/></wsdl:operation>
    <wsdl:operation name="OpAgain"><wsdl:input message="tns:In"/><wsdl:output message="tns:Out"/></wsdl:operation>
  </wsdl:portType>`,
    binding: `<wsdl:binding name="B" type="tns:PT"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <wsdl:operation name="Op"><soap:operation soapAction="urn:svc/Op"/><wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation>
    <wsdl:operation name="OpAgain"><soap:operation soapAction="${second}"/><wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation>
  </wsdl:binding>`
  })
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.contract({ path: '/shared', document: document('urn:svc/OpAgain'), operations: { Op: async () => ({ b: 'first' }), OpAgain: async () => ({ b: 'again' }) } })
  const body = `<k:Op xmlns:k="${CONTRACT_NS}"><k:a>x</k:a></k:Op>`
  for (const [action, b] of [['urn:svc/Op', 'first'], ['urn:svc/OpAgain', 'again']]) {
    const response = await post(app, '1.1', envelope('1.1', body), { url: '/shared', headers: { soapaction: `"${action}"` } })
    t.assert.strictEqual(response.statusCode, 200, response.body)
    t.assert.ok(response.body.includes(`<tns:b>${b}</tns:b>`), response.body)
  }
  const none = await post(app, '1.1', envelope('1.1', body), { url: '/shared' })
  t.assert.strictEqual(none.statusCode, 500)
  t.assert.match(none.body, /<faultcode>soap:Client<\/faultcode><faultstring>Operations Op and OpAgain of S take the element \{urn:k\}Op; no action was given</)

  const same = Fastify()
  t.after(() => same.close())
  await same.register(soap)
  same.soap.contract({ path: '/same', document: document('urn:svc/Op'), operations: { Op: async () => ({ b: '' }), OpAgain: async () => ({ b: '' }) } })
  await t.assert.rejects(async () => { await same.ready() }, {
    code: 'SOAP_ERR_CONTRACT_UNSUPPORTED',
    message: /operations Op and OpAgain, with the same input element \{urn:k\}Op and the same action urn:svc\/Op /
  })
})

/** A two-operation contract, Op and Op2, both bound with the action `urn:a`, their input message `In`. */
function twoOperations (messages?: string): string {
  const operation = (name: string): string => `<wsdl:operation name="${name}"><wsdl:input message="tns:In"/>` +
    '<wsdl:output message="tns:Out"/></wsdl:operation>'
  const bound = (name: string): string => `<wsdl:operation name="${name}"><soap:operation soapAction="urn:a"/>` +
    '<wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output>' +
    '</wsdl:operation>'
  return contractWsdl({
    messages,
    portType: `<wsdl:portType name="PT">${operation('Op')}${operation('Op2')}</wsdl:portType>`,
    binding: '<wsdl:binding name="B" type="tns:PT"><soap:binding style="document" ' +
      `transport="http://schemas.xmlsoap.org/soap/http"/>${bound('Op')}${bound('Op2')}</wsdl:binding>`
  })
}

test('docs/contract-first.md "What is refused": readContract(), fastify-soap types and ready() refuse a contract ' +
  'whose operations share a signature (WS-I BP R2710), or that names a service, operation or fault with no NCName, ' +
  'with the same code and message', async (t: TestContext) => {
  const OUT = '<wsdl:message name="Out"><wsdl:part name="p" element="k:OpResponse"/></wsdl:message>'
  const opNamed = (name: string): string => contractWsdl({
    portType: `<wsdl:portType name="PT"><wsdl:operation name="${name}"><wsdl:input message="tns:In"/>` +
      '<wsdl:output message="tns:Out"/></wsdl:operation></wsdl:portType>',
    binding: '<wsdl:binding name="B" type="tns:PT"><soap:binding style="document" ' +
      `transport="http://schemas.xmlsoap.org/soap/http"/><wsdl:operation name="${name}">` +
      '<wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output>' +
      '</wsdl:operation></wsdl:binding>'
  })
  const cases: Array<[string, string, RegExp]> = [
    [twoOperations(), 'SOAP_ERR_CONTRACT_UNSUPPORTED',
      new RegExp('the operations Op and Op2, with the same input element \\{urn:k\\}Op and the same action urn:a ' +
        '\\(WS-I BP R2710: operation signatures must be unique\\), which cannot be served \\(at operation Op2\\)')],
    [twoOperations(`<wsdl:message name="In"/>${OUT}`), 'SOAP_ERR_CONTRACT_UNSUPPORTED',
      /the operations Op and Op2, with no Body element and the same action urn:a \(WS-I BP R2710/],
    [opNamed('O p'), 'SOAP_ERR_CONTRACT_INVALID',
      /contract operation O p: the operation name "O p" is not an XML NCName/],
    [contractWsdl({
      messages: `<wsdl:message name="In"><wsdl:part name="p" element="k:Op"/></wsdl:message>${OUT}` +
        '<wsdl:message name="F"><wsdl:part name="p" element="k:OpResponse"/></wsdl:message>',
      portType: '<wsdl:portType name="PT"><wsdl:operation name="Op"><wsdl:input message="tns:In"/>' +
        '<wsdl:output message="tns:Out"/><wsdl:fault name="f f" message="tns:F"/></wsdl:operation></wsdl:portType>'
    }), 'SOAP_ERR_CONTRACT_INVALID', /contract operation Op: the fault name "f f" is not an XML NCName/],
    [contractWsdl({ service: '<wsdl:service name="S S"><wsdl:port name="P" binding="tns:B"/></wsdl:service>' }),
      'SOAP_ERR_CONTRACT_INVALID', /contract service S S: the service name "S S" is not an XML NCName/]
  ]
  const dir = await mkdtemp(join(tmpdir(), 'fastify-soap-r2710-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  for (const [i, [document, code, message]] of cases.entries()) {
    await t.assert.rejects(readContract({ document }), (err: Error & { code?: string }) => {
      t.assert.strictEqual(err.code, code, err.message)
      t.assert.match(err.message, message)
      return true
    })
    const file = join(dir, `c${i}.wsdl`)
    await writeFile(file, document)
    let err = ''
    const status = await typesMain(['types', file], () => {}, (text) => { err += text })
    t.assert.strictEqual(status, 1, err)
    t.assert.match(err, message)
    await refused(t, { document }, code, message, { Op: async () => ({}) })
  }
})

test('docs/contract-first.md "The mapping": a substitution group member whose name is taken (here by an unqualified local element) is its own property, numbered', async (t: TestContext) => {
  const types = `<xs:schema targetNamespace="${K}">
    <xs:element name="shape" type="xs:string"/>
    <xs:element name="circle" type="xs:string" substitutionGroup="k:shape"/>
    <xs:element name="Op"><xs:complexType><xs:sequence>
      <xs:element name="circle" type="xs:int"/>
      <xs:element ref="k:shape"/>
    </xs:sequence></xs:complexType></xs:element>
    <xs:element name="OpResponse"><xs:complexType><xs:sequence/></xs:complexType></xs:element>
  </xs:schema>`
  const contract = await readContract({ document: wsdl({ types }) })
  const input = contract.operations.Op.input as { properties: Record<string, { type?: string, xml?: unknown }> }
  t.assert.deepStrictEqual(Object.keys(input.properties), ['circle', 'shape', 'circle2'])
  t.assert.strictEqual(input.properties.circle.type, 'integer')
  t.assert.deepStrictEqual([input.properties.circle2.type, input.properties.circle2.xml], ['string', { name: 'circle', namespace: K }])
  const app = Fastify()
  await app.register(soap)
  let seen: unknown
  app.soap.contract({ path: '/n', document: wsdl({ types }), operations: { Op: async (value: unknown) => { seen = value; return {} } } })
  t.after(() => app.close())
  const response = await app.inject({ method: 'POST', url: '/n', headers: { 'content-type': MEDIA['1.1'] }, payload: envelope('1.1', `<k:Op xmlns:k="${K}"><circle>5</circle><k:circle>round</k:circle></k:Op>`) })
  t.assert.strictEqual(response.statusCode, 200, response.body)
  t.assert.deepStrictEqual(seen, { circle: 5, circle2: 'round' })
})

test('docs/contract-first.md "Options": a sampleSeed that is not an integer is SOAP_ERR_CONTRACT_INVALID', async (t: TestContext) => {
  for (const sampleSeed of [1.5, '3', Number.NaN, 2 ** 53]) {
    const source = { document: wsdl({}), unimplemented: 'sample', sampleSeed } as Parameters<typeof refused>[1]
    await refused(t, source, 'SOAP_ERR_CONTRACT_INVALID', /\(definition\): "sampleSeed" must be an integer/, {})
  }
})
