/**
 * Contract first (docs/contract-first.md "The mapping"): a reference to the
 * head of a substitution group (XML Schema 1.0 Part 1 §3.3.6) is read as the
 * choice of the head, unless abstract, and every element that may stand for
 * it, each its own property. A WSDL written here is served through
 * `fastify.inject`, and what the codec accepts is what xmllint accepts.
 * The real-world contracts (Exchange, IHE XDS.b) are in contract-interop.test.ts.
 */
import { spawnSync } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import Fastify from 'fastify'
import soap, { readContract } from '../lib/index'
import { CONTRACT_NS, contractWsdl, envelope, missing, post } from './helper'

const K = CONTRACT_NS

/** A WSDL 1.1 document/literal contract of one operation `Op` (`k:Op` → `k:OpResponse`) over `schema`. */
function wsdl (schema: string): string {
  return contractWsdl({ types: schema })
}

/**
 * `shape` heads a group of two members (`square` has a member of its own,
 * `bigSquare`, which takes square's type); `figure` is abstract, and so is
 * one of its members (`outline`), whose own member `triangle` may stand for
 * it; `sealed` blocks substitution. The operation element refers to each.
 */
const SCHEMA = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:k="${K}" targetNamespace="${K}" elementFormDefault="qualified">
  <xs:complexType name="Shape"><xs:sequence><xs:element name="label" type="xs:string" minOccurs="0"/></xs:sequence></xs:complexType>
  <xs:complexType name="Circle"><xs:complexContent><xs:extension base="k:Shape"><xs:sequence><xs:element name="radius" type="xs:int"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
  <xs:complexType name="Square"><xs:complexContent><xs:extension base="k:Shape"><xs:sequence><xs:element name="side" type="xs:int"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
  <xs:element name="shape" type="k:Shape"/>
  <xs:element name="circle" type="k:Circle" substitutionGroup="k:shape"/>
  <xs:element name="square" type="k:Square" substitutionGroup="k:shape"/>
  <xs:element name="bigSquare" substitutionGroup="k:square"/>
  <xs:element name="figure" type="k:Shape" abstract="true"/>
  <xs:element name="dot" type="k:Shape" substitutionGroup="k:figure"/>
  <xs:element name="outline" type="k:Shape" abstract="true" substitutionGroup="k:figure"/>
  <xs:element name="triangle" type="k:Shape" substitutionGroup="k:outline"/>
  <xs:element name="sealed" type="k:Shape" block="substitution"/>
  <xs:element name="unsealed" type="k:Shape" substitutionGroup="k:sealed"/>
  <xs:complexType name="Drawing"><xs:sequence>
    <xs:element ref="k:shape"/>
    <xs:element ref="k:figure" minOccurs="0" maxOccurs="unbounded"/>
    <xs:element ref="k:sealed" minOccurs="0"/>
    <xs:element name="layer" minOccurs="0"><xs:complexType><xs:sequence><xs:element ref="k:shape" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>
  </xs:sequence></xs:complexType>
  <xs:element name="Op" type="k:Drawing"/>
  <xs:element name="OpResponse" type="k:Drawing"/>
</xs:schema>`

/** A value of type Shape, read or written without xsi:type. */
const SHAPE = { $type: 'Shape' }

const xmllintInstalled = spawnSync('xmllint', ['--version'], { timeout: 10_000 }).error === undefined

/** Whether xmllint finds `xml` valid against `schema` (undefined without xmllint: missing()). */
async function xmllint (t: TestContext, schema: string, xml: string): Promise<boolean | undefined> {
  if (!xmllintInstalled) {
    missing(t, 'xmllint (libxml2-utils) is not installed; .ci/run installs it')
    return undefined
  }
  const dir = await mkdtemp(join(tmpdir(), 'fastify-soap-substitution-'))
  try {
    await writeFile(join(dir, 'k.xsd'), schema)
    await writeFile(join(dir, 'doc.xml'), xml)
    return spawnSync('xmllint', ['--noout', '--nonet', '--schema', join(dir, 'k.xsd'), join(dir, 'doc.xml')], { encoding: 'utf8', timeout: 10_000 }).status === 0
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

test('XML Schema 1.0 Part 1 §3.3.6 substitution groups: a reference to a head is a property for the head and one for each member (members of members too, with their head\'s type when they name none), abstract elements and blocked members left out', async (t: TestContext) => {
  const contract = await readContract({ document: wsdl(SCHEMA) })
  const input = contract.operations.Op.input as { properties: Record<string, { type?: string, xml?: unknown, properties?: Record<string, unknown>, items?: { properties?: Record<string, unknown> } }>, required?: string[] }
  t.assert.deepStrictEqual(Object.keys(input.properties), ['shape', 'circle', 'square', 'bigSquare', 'dot', 'triangle', 'sealed', 'layer'])
  // Each member is its own element, of its own type; a repeated reference makes an array of each.
  t.assert.deepStrictEqual(input.properties.circle.xml, { namespace: K })
  t.assert.deepStrictEqual(Object.keys(input.properties.circle.properties ?? {}), ['label', 'radius'])
  t.assert.deepStrictEqual(Object.keys(input.properties.bigSquare.properties ?? {}), ['label', 'side'])
  t.assert.deepStrictEqual([input.properties.dot.type, input.properties.triangle.type], ['array', 'array'])
  // An element of type Shape, which Circle and Square extend, may also name them with xsi:type (docs/contract-first.md "Derived types").
  const defs = (input as unknown as { $defs: Record<string, unknown> }).$defs
  t.assert.deepStrictEqual(defs['Shape.types'], { oneOf: ['Shape', 'Circle', 'Square'].map((name) => ({ $ref: `#/$defs/${name}` })) })
  t.assert.deepStrictEqual(input.properties.triangle.items, { $ref: '#/$defs/Shape.types' })
  t.assert.deepStrictEqual(input.properties.sealed, { $ref: '#/$defs/Shape.types', xml: { namespace: K } })
  // No member is required alone: the presence rules say one of them.
  t.assert.strictEqual(input.required, undefined)
})

test('XML Schema 1.0 Part 1 §3.3.6 substitution groups: the head or one member in a single slot, any members in a repeated one, read into their properties; two members in one slot, none in a required one, an abstract or blocked element are Sender faults; the codec and xmllint agree on every message', async (t: TestContext) => {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  const seen: unknown[] = []
  app.soap.contract({ path: '/s', document: wsdl(SCHEMA), operations: { Op: async (input: unknown) => { seen.push(input); return input } } })
  // The codec gives an absent repeated element as an empty array.
  const drawing = (value: Record<string, unknown>): unknown => ({ dot: [], triangle: [], ...value })
  const cases: Array<[string, string, unknown]> = [
    ['the head itself', '<k:shape><k:label>a</k:label></k:shape>', drawing({ shape: { $type: 'Shape', label: 'a' } })],
    ['a member', '<k:circle><k:radius>2</k:radius></k:circle>', drawing({ circle: { radius: 2 } })],
    ['a member of a member, with its head\'s type', '<k:bigSquare><k:label>b</k:label><k:side>3</k:side></k:bigSquare>', drawing({ bigSquare: { label: 'b', side: 3 } })],
    ['members of a repeated abstract head, a member of an abstract member among them', '<k:square><k:side>1</k:side></k:square><k:dot/><k:triangle><k:label>t</k:label></k:triangle><k:dot><k:label>d</k:label></k:dot>', { square: { side: 1 }, dot: [SHAPE, { ...SHAPE, label: 'd' }], triangle: [{ ...SHAPE, label: 't' }] }],
    ['the head that blocks substitution', '<k:shape/><k:sealed/>', drawing({ shape: SHAPE, sealed: SHAPE })],
    ['a repeated required head ref, two members', '<k:shape/><k:layer><k:circle><k:radius>1</k:radius></k:circle><k:square><k:side>2</k:side></k:square><k:circle><k:radius>3</k:radius></k:circle></k:layer>', drawing({ shape: SHAPE, layer: { shape: [], circle: [{ radius: 1 }, { radius: 3 }], square: [{ side: 2 }], bigSquare: [] } })],
    ['two members in one slot', '<k:circle><k:radius>2</k:radius></k:circle><k:square><k:side>1</k:side></k:square>', undefined],
    ['the head and a member in one slot', '<k:shape/><k:circle><k:radius>2</k:radius></k:circle>', undefined],
    ['no element in a required slot', '<k:dot/>', undefined],
    ['no element in a required repeated slot', '<k:shape/><k:layer/>', undefined],
    ['the abstract head', '<k:shape/><k:figure/>', undefined],
    ['an abstract member', '<k:shape/><k:outline/>', undefined],
    ['a member the head blocks', '<k:shape/><k:unsealed/>', undefined]
  ]
  for (const [what, content, expected] of cases) {
    const op = `<k:Op xmlns:k="${K}">${content}</k:Op>`
    seen.length = 0
    const response = await post(app, '1.1', envelope('1.1', op), { url: '/s' })
    if (expected === undefined) {
      t.assert.strictEqual(response.statusCode, 500, `${what}: ${response.body}`)
      t.assert.match(response.body, /<faultcode>soap:Client<\/faultcode>/, what)
      t.assert.deepStrictEqual(seen, [], what)
    } else {
      t.assert.strictEqual(response.statusCode, 200, `${what}: ${response.body}`)
      t.assert.deepStrictEqual(seen, [expected], what)
    }
    const valid = await xmllint(t, SCHEMA, op)
    if (valid !== undefined) t.assert.strictEqual(valid, expected !== undefined, `${what}: the codec ${expected !== undefined ? 'accepts' : 'refuses'} it, xmllint ${valid ? 'accepts' : 'refuses'} it`)
  }
  const two = await post(app, '1.1', envelope('1.1', `<k:Op xmlns:k="${K}"><k:circle><k:radius>2</k:radius></k:circle><k:square><k:side>1</k:side></k:square></k:Op>`), { url: '/s' })
  t.assert.match(two.body, /the elements present do not fit the content model/)
})

test('XML Schema 1.0 Part 1 §3.3.6 substitution groups: a member is written as itself, in its own namespace and type, and the reply is valid against the XSD; a reply with two members in one slot is never sent', async (t: TestContext) => {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  const answer: { reply: unknown } = { reply: undefined }
  app.soap.contract({ path: '/s', document: wsdl(SCHEMA), operations: { Op: async () => answer.reply } })
  const request = envelope('1.1', `<k:Op xmlns:k="${K}"><k:shape/></k:Op>`)

  answer.reply = { bigSquare: { label: 'big', side: 9 }, dot: [SHAPE], triangle: [{ ...SHAPE, label: 't1' }, SHAPE], layer: { square: [{ side: 1 }], circle: [{ radius: 2 }] } }
  const written = await post(app, '1.1', request, { url: '/s' })
  t.assert.strictEqual(written.statusCode, 200, written.body)
  const body = /<soap:Body>(.*)<\/soap:Body>/s.exec(written.body)?.[1] as string
  t.assert.match(body, /<tns:bigSquare><tns:label>big<\/tns:label><tns:side>9<\/tns:side><\/tns:bigSquare>/)
  t.assert.match(body, /<tns:triangle><tns:label>t1<\/tns:label><\/tns:triangle><tns:triangle\/>/)
  t.assert.match(body, /<tns:layer><tns:circle><tns:radius>2<\/tns:radius><\/tns:circle><tns:square><tns:side>1<\/tns:side><\/tns:square><\/tns:layer>/)
  const valid = await xmllint(t, SCHEMA, body)
  if (valid !== undefined) t.assert.strictEqual(valid, true, `xmllint accepts the reply ${body}`)

  answer.reply = { circle: { radius: 1 }, square: { side: 1 } }
  const refused = await post(app, '1.1', request, { url: '/s' })
  t.assert.strictEqual(refused.statusCode, 500)
  t.assert.match(refused.body, /<faultcode>soap:Server<\/faultcode><faultstring>The server could not process the request<\/faultstring>/)
})

test('docs/contract-first.md "What is refused": an abstract element as a message part, an abstract head no element may stand for where one is required, a substitutionGroup naming no declared element', async (t: TestContext) => {
  const cases: Array<[string, string, string, RegExp]> = [
    ['an abstract Body element', '<xs:element name="Op" type="xs:string" abstract="true"/><xs:element name="OpMember" type="xs:string" substitutionGroup="k:Op"/>', 'SOAP_ERR_CONTRACT_UNSUPPORTED', /the abstract element \{urn:k\}Op as a message part/],
    ['a required abstract element with no member', '<xs:element name="abs" type="xs:string" abstract="true"/><xs:element name="Op"><xs:complexType><xs:sequence><xs:element ref="k:abs"/></xs:sequence></xs:complexType></xs:element>', 'SOAP_ERR_CONTRACT_UNSUPPORTED', /the abstract element \{urn:k\}abs, for which no element may stand/],
    ['a substitution group that comes back to its head', '<xs:element name="a" substitutionGroup="k:b"/><xs:element name="b" substitutionGroup="k:a"/><xs:element name="Op"><xs:complexType><xs:sequence><xs:element ref="k:a"/></xs:sequence></xs:complexType></xs:element>', 'SOAP_ERR_CONTRACT_INVALID', /the substitution group of element \{urn:k\}[ab] comes back to it/],
    ['a member of an undeclared head', '<xs:element name="m" type="xs:string" substitutionGroup="k:nowhere"/><xs:element name="Op"><xs:complexType><xs:sequence><xs:element ref="k:m"/></xs:sequence></xs:complexType></xs:element>', 'SOAP_ERR_CONTRACT_INVALID', /operation Op > element \{urn:k\}Op: the element \{urn:k\}nowhere is declared by no schema of the contract/]
  ]
  for (const [what, body, code, message] of cases) {
    await t.test(what, async (t: TestContext) => {
      const schema = `<xs:schema targetNamespace="${K}" elementFormDefault="qualified">${body}<xs:element name="OpResponse"><xs:complexType><xs:sequence/></xs:complexType></xs:element></xs:schema>`
      await t.assert.rejects(readContract({ document: wsdl(schema) }), (err: Error & { code?: string }) => {
        t.assert.strictEqual(err.code, code, err.message)
        t.assert.match(err.message, message)
        return true
      })
    })
  }
  // An optional reference to an abstract element no element may stand for admits nothing there.
  const optional = `<xs:schema targetNamespace="${K}" elementFormDefault="qualified"><xs:element name="abs" type="xs:string" abstract="true"/><xs:element name="Op"><xs:complexType><xs:sequence><xs:element ref="k:abs" minOccurs="0"/></xs:sequence></xs:complexType></xs:element><xs:element name="OpResponse"><xs:complexType><xs:sequence/></xs:complexType></xs:element></xs:schema>`
  const contract = await readContract({ document: wsdl(optional) })
  t.assert.deepStrictEqual((contract.operations.Op.input as { properties: unknown }).properties, {})
})

test('docs/contract-first.md "What is refused": a message part naming the head of a substitution group is read as the head only (WS-I Basic Profile R2712: the Body carries the part\'s element)', async (t: TestContext) => {
  const schema = `<xs:schema targetNamespace="${K}" elementFormDefault="qualified"><xs:element name="Op" type="xs:string"/><xs:element name="OpMember" type="xs:string" substitutionGroup="k:Op"/><xs:element name="OpResponse"><xs:complexType><xs:sequence/></xs:complexType></xs:element></xs:schema>`
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  const seen: unknown[] = []
  app.soap.contract({ path: '/h', document: wsdl(schema), operations: { Op: async (input: unknown) => { seen.push(input); return {} } } })
  const head = await post(app, '1.1', envelope('1.1', `<k:Op xmlns:k="${K}">text</k:Op>`), { url: '/h' })
  t.assert.strictEqual(head.statusCode, 200, head.body)
  const member = await post(app, '1.1', envelope('1.1', `<k:OpMember xmlns:k="${K}">text</k:OpMember>`), { url: '/h' })
  t.assert.strictEqual(member.statusCode, 500, member.body)
  t.assert.match(member.body, /<faultcode>soap:Client<\/faultcode>/)
  t.assert.deepStrictEqual(seen, [{ $value: 'text' }])
})

test('docs/contract-first.md "Loading": a schema that imports the xml namespace by URL (as ebRIM does) or with no location (as Exchange does) is served importing the plugin\'s own schema of it, at ?xsd=xml.xsd, which declares xml:lang', async (t: TestContext) => {
  let served = ''
  for (const location of [' schemaLocation="http://www.w3.org/2001/xml.xsd"', '']) {
    const schema = `<xs:schema targetNamespace="${K}" elementFormDefault="qualified"><xs:import namespace="http://www.w3.org/XML/1998/namespace"${location}/>
      <xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="text"><xs:complexType><xs:simpleContent><xs:extension base="xs:string"><xs:attribute ref="xml:lang"/></xs:extension></xs:simpleContent></xs:complexType></xs:element></xs:sequence></xs:complexType></xs:element>
      <xs:element name="OpResponse"><xs:complexType><xs:sequence/></xs:complexType></xs:element></xs:schema>`
    const contract = await readContract({ document: wsdl(schema) })
    t.assert.deepStrictEqual(Object.keys(contract.wsdl.schemas), ['xml.xsd'])
    t.assert.match(contract.wsdl.document, /<xs:import namespace="http:\/\/www\.w3\.org\/XML\/1998\/namespace" schemaLocation="[^"]*\?xsd=xml\.xsd"\/>/)
    served = contract.wsdl.schemas['xml.xsd']
  }
  for (const name of ['lang', 'space', 'base', 'id']) t.assert.match(served, new RegExp(`<xs:attribute name="${name}"`))
  // The copy is a schema xmllint compiles, and it holds xml:lang as XML 1.0 §2.12 says (a language tag, or empty).
  const lang = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:k="${K}" targetNamespace="${K}"><xs:import namespace="http://www.w3.org/XML/1998/namespace" schemaLocation="xml.xsd"/><xs:element name="t"><xs:complexType><xs:attribute ref="xml:lang"/></xs:complexType></xs:element></xs:schema>`
  if (!xmllintInstalled) return
  const dir = await mkdtemp(join(tmpdir(), 'fastify-soap-xml-ns-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  await writeFile(join(dir, 'xml.xsd'), served)
  await writeFile(join(dir, 'k.xsd'), lang)
  const check = async (xml: string): Promise<boolean> => {
    await writeFile(join(dir, 'doc.xml'), xml)
    return spawnSync('xmllint', ['--noout', '--nonet', '--schema', join(dir, 'k.xsd'), join(dir, 'doc.xml')], { encoding: 'utf8', timeout: 10_000 }).status === 0
  }
  t.assert.strictEqual(await check(`<k:t xmlns:k="${K}" xml:lang="en-GB"/>`), true)
  t.assert.strictEqual(await check(`<k:t xmlns:k="${K}" xml:lang=""/>`), true)
  t.assert.strictEqual(await check(`<k:t xmlns:k="${K}" xml:lang="not a tag"/>`), false)
})

test('XML Schema 1.0 Part 1 §3.3.6 substitution groups: a member of an abstract type stands for its head only when a type derives from that type (its xsi:type names one); a member of an abstract type nothing derives from is left out', async (t: TestContext) => {
  const schema = `<xs:schema targetNamespace="${K}" elementFormDefault="qualified">
    <xs:complexType name="Shape"><xs:sequence><xs:element name="label" type="xs:string" minOccurs="0"/></xs:sequence></xs:complexType>
    <xs:complexType name="Blank" abstract="true"><xs:complexContent><xs:extension base="k:Shape"/></xs:complexContent></xs:complexType>
    <xs:complexType name="Filled"><xs:complexContent><xs:extension base="k:Blank"/></xs:complexContent></xs:complexType>
    <xs:complexType name="Ghost" abstract="true"><xs:complexContent><xs:extension base="k:Shape"/></xs:complexContent></xs:complexType>
    <xs:element name="shape" type="k:Shape" abstract="true"/>
    <xs:element name="blank" type="k:Blank" substitutionGroup="k:shape"/>
    <xs:element name="ghost" type="k:Ghost" substitutionGroup="k:shape"/>
    <xs:element name="Op"><xs:complexType><xs:sequence><xs:element ref="k:shape"/></xs:sequence></xs:complexType></xs:element>
    <xs:element name="OpResponse"><xs:complexType><xs:sequence/></xs:complexType></xs:element>
  </xs:schema>`
  const contract = await readContract({ document: wsdl(schema) })
  t.assert.deepStrictEqual(Object.keys((contract.operations.Op.input as { properties: Record<string, unknown> }).properties), ['blank'])
})
