/**
 * Contract first, docs/contract-first.md "Bounds": what reading a
 * contract's schemas may cost. A group or an element's anonymous type used in
 * many places is made once and named in `$defs`, so a small WSDL whose groups
 * and elements fan out within one another loads in bounded memory; schemas
 * nested too deep, or read past the budget, are SOAP_ERR_CONTRACT_UNSUPPORTED
 * naming the construct and its path, never a RangeError.
 */
import { test, type TestContext } from 'node:test'
import Fastify from 'fastify'
import soap, { readContract } from '../lib/index'
import { CONTRACT_NS, contractWsdl, envelope, post } from './helper'

const K = CONTRACT_NS
const WIDE = 4
const RESPONSE = '<xs:element name="OpResponse"><xs:complexType><xs:sequence><xs:element name="b" type="xs:string"/></xs:sequence></xs:complexType></xs:element>'

function schema (body: string): string {
  return contractWsdl({ types: `<xs:schema targetNamespace="${K}" elementFormDefault="qualified">${body}${RESPONSE}</xs:schema>` })
}

const range = (n: number): number[] => [...Array(n).keys()]

/** Groups 4 wide and `deep` deep: each of a group's elements holds the next group, in an anonymous type. */
function groupFanOut (deep: number): string {
  let types = '<xs:element name="Op"><xs:complexType><xs:sequence><xs:group ref="k:G0"/></xs:sequence></xs:complexType></xs:element>'
  for (const d of range(deep)) {
    const inner = (i: number): string => d === deep - 1
      ? `<xs:element name="e${i}" type="xs:string" minOccurs="0"/>`
      : `<xs:element name="e${i}" minOccurs="0"><xs:complexType><xs:sequence><xs:group ref="k:G${d + 1}"/></xs:sequence></xs:complexType></xs:element>`
    types += `<xs:group name="G${d}"><xs:sequence>${range(WIDE).map(inner).join('')}</xs:sequence></xs:group>`
  }
  return schema(types)
}

/** Global elements 4 wide and `deep` deep, each of an anonymous type that refers to the 4 of the next level. */
function elementFanOut (deep: number): string {
  const refs = (d: number): string => range(WIDE).map((i) => `<xs:element ref="k:E${d}_${i}" minOccurs="0"/>`).join('')
  let types = `<xs:element name="Op"><xs:complexType><xs:sequence>${refs(0)}</xs:sequence></xs:complexType></xs:element>`
  for (const d of range(deep)) {
    for (const i of range(WIDE)) {
      types += d === deep - 1
        ? `<xs:element name="E${d}_${i}" type="xs:string"/>`
        : `<xs:element name="E${d}_${i}"><xs:complexType><xs:sequence>${refs(d + 1)}</xs:sequence></xs:complexType></xs:element>`
    }
  }
  return schema(types)
}

/** Elements nested `deep` deep, each in the anonymous type of the one around it. */
function nested (deep: number): string {
  let inner = '<xs:element name="leaf" type="xs:string"/>'
  for (const d of range(deep).reverse()) inner = `<xs:element name="n${d}"><xs:complexType><xs:sequence>${inner}</xs:sequence></xs:complexType></xs:element>`
  return schema(`<xs:element name="Op"><xs:complexType><xs:sequence>${inner}</xs:sequence></xs:complexType></xs:element>`)
}

for (const [kind, fanOut, path] of [
  ['model groups', groupFanOut, ['e3', 'e2', 'e1']],
  ['global elements with anonymous types, reached by ref,', elementFanOut, ['E0_3', 'E1_2', 'E2_1']]
] as const) {
  test(`contract-first.md "Bounds": ${kind} 4 wide and 10 deep are made once each and named in $defs, and served`, async (t: TestContext) => {
    // Written out at each use, the input schema alone would be some 200 MB.
    const contract = await readContract({ document: fanOut(10) })
    t.assert.ok(JSON.stringify(contract.operations).length < 1_000_000)
    const app = Fastify()
    t.after(() => app.close())
    await app.register(soap)
    let seen: unknown
    app.soap.contract({ path: '/fan', document: fanOut(10), operations: { Op: async (input: unknown) => { seen = input; return { b: 'ok' } } } })
    await app.ready()
    const [a, b, c] = path
    const body = `<k:Op xmlns:k="${K}"><k:${a}><k:${b}><k:${c}/></k:${b}></k:${a}></k:Op>`
    const res = await post(app, '1.1', envelope('1.1', body), { url: '/fan', headers: { soapaction: '"urn:svc/Op"' } })
    t.assert.equal(res.statusCode, 200, res.body)
    t.assert.deepStrictEqual(seen, { [a]: { [b]: { [c]: {} } } })
    t.assert.match(res.body, />ok</)
  })
}

test('contract-first.md "Bounds": elements nested 500 deep are SOAP_ERR_CONTRACT_UNSUPPORTED naming the depth and the path, not a RangeError; 120 deep are served', async (t: TestContext) => {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.contract({ path: '/deep', document: nested(500), operations: { Op: async () => ({ b: 'ok' }) } })
  await t.assert.rejects(async () => { await app.ready() }, (err: Error & { code?: string }) => {
    t.assert.equal(err.code, 'SOAP_ERR_CONTRACT_UNSUPPORTED')
    t.assert.match(err.message, /nested in elements, groups and bases more than 256 deep/)
    t.assert.match(err.message, /at operation Op > element \{urn:k\}Op > element n0 > element n1 > .* > element n127\)/)
    return true
  })
  // 120 deep is within the bound, and served.
  await served120(t)
})

async function served120 (t: TestContext): Promise<void> {
  const app = Fastify()
  t.after(() => app.close())
  // The decoder's own bound (maxDepth, 100 by default) is raised for a message this deep.
  await app.register(soap, { maxDepth: 150 })
  let seen: unknown
  app.soap.contract({ path: '/deep', document: nested(120), operations: { Op: async (input: unknown) => { seen = input; return { b: 'ok' } } } })
  await app.ready()
  const open = range(120).map((d) => `<k:n${d}>`).join('')
  const close = range(120).reverse().map((d) => `</k:n${d}>`).join('')
  const res = await post(app, '1.1', envelope('1.1', `<k:Op xmlns:k="${K}">${open}<k:leaf>x</k:leaf>${close}</k:Op>`), { url: '/deep', headers: { soapaction: '"urn:svc/Op"' } })
  t.assert.equal(res.statusCode, 200, res.body)
  let value = seen as Record<string, unknown>
  for (const d of range(120)) value = value[`n${d}`] as Record<string, unknown>
  t.assert.deepStrictEqual(value, { leaf: 'x' })
}

test('contract-first.md "Bounds": a named type made for one operation counts its depth again where another reaches it', async (t: TestContext) => {
  // T0 holds T1 ... T199: an operation from T100 is 200 deep, one from T0 is 400 deep through the same types.
  const types = range(200).map((d) => `<xs:complexType name="T${d}"><xs:sequence>${d === 199 ? '<xs:element name="leaf" type="xs:string"/>' : `<xs:element name="c" type="k:T${d + 1}"/>`}</xs:sequence></xs:complexType>`).join('')
  const document = contractWsdl({
    types: `<xs:schema targetNamespace="${K}" elementFormDefault="qualified">${types}<xs:element name="Mid" type="k:T100"/><xs:element name="Top" type="k:T0"/>${RESPONSE}</xs:schema>`,
    messages: '<wsdl:message name="Mid"><wsdl:part name="p" element="k:Mid"/></wsdl:message><wsdl:message name="Top"><wsdl:part name="p" element="k:Top"/></wsdl:message><wsdl:message name="Out"><wsdl:part name="p" element="k:OpResponse"/></wsdl:message>',
    portType: '<wsdl:portType name="PT"><wsdl:operation name="A"><wsdl:input message="tns:Mid"/><wsdl:output message="tns:Out"/></wsdl:operation><wsdl:operation name="B"><wsdl:input message="tns:Top"/><wsdl:output message="tns:Out"/></wsdl:operation></wsdl:portType>',
    binding: `<wsdl:binding name="B" type="tns:PT"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
      ${['A', 'B'].map((op) => `<wsdl:operation name="${op}"><soap:operation soapAction="urn:svc/${op}"/><wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation>`).join('')}
    </wsdl:binding>`
  })
  await t.assert.rejects(readContract({ document }), (err: Error & { code?: string }) => {
    t.assert.equal(err.code, 'SOAP_ERR_CONTRACT_UNSUPPORTED')
    t.assert.match(err.message, /the type \{urn:k\}T100 nested in elements, groups and bases more than 256 deep/)
    t.assert.match(err.message, /at operation B > element \{urn:k\}Top > type \{urn:k\}T0 > element c > type \{urn:k\}T1 > /)
    return true
  })
})

test('contract-first.md "Bounds": groups read within one another past the budget are SOAP_ERR_CONTRACT_UNSUPPORTED naming the construct and its path', async (t: TestContext) => {
  // G0 holds G1 four times, G1 G2 ... : read whole, 4^10 particles.
  const groups = range(10).map((d) => `<xs:group name="G${d}"><xs:sequence>${range(WIDE).map((i) => d === 9 ? `<xs:element name="e${i}" type="xs:string"/>` : `<xs:group ref="k:G${d + 1}"/>`).join('')}</xs:sequence></xs:group>`).join('')
  const document = schema(`<xs:element name="Op"><xs:complexType><xs:sequence><xs:group ref="k:G0"/></xs:sequence></xs:complexType></xs:element>${groups}`)
  await t.assert.rejects(readContract({ document }), (err: Error & { code?: string }) => {
    t.assert.equal(err.code, 'SOAP_ERR_CONTRACT_UNSUPPORTED')
    t.assert.match(err.message, /the contract uses xs:\w+ \S+ where its schemas grow past 200000 particles and attributes read/)
    t.assert.match(err.message, /at operation Op > element \{urn:k\}Op > group k:G0 > group k:G1 > /)
    return true
  })
})

test('contract-first.md "Bounds": simple types derived from one another past the depth are SOAP_ERR_CONTRACT_UNSUPPORTED naming the path', async (t: TestContext) => {
  // S0 restricts S1 ... S299 restricts xs:string.
  const types = range(300).map((d) => `<xs:simpleType name="S${d}"><xs:restriction base="${d === 299 ? 'xs:string' : `k:S${d + 1}`}"/></xs:simpleType>`).join('')
  const document = schema(`<xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="v" type="k:S0"/></xs:sequence></xs:complexType></xs:element>${types}`)
  await t.assert.rejects(readContract({ document }), (err: Error & { code?: string }) => {
    t.assert.equal(err.code, 'SOAP_ERR_CONTRACT_UNSUPPORTED')
    t.assert.match(err.message, /the contract uses simple types nested in elements, groups, bases and simple types more than 256 deep/)
    t.assert.match(err.message, /at operation Op > element \{urn:k\}Op > element v > type \{urn:k\}S0 > type \{urn:k\}S1 > .* > type \{urn:k\}S254\)/)
    return true
  })
})

test('contract-first.md "Bounds": the pairs of elements of two branches of a choice count against the budget', async (t: TestContext) => {
  // 700 branches: 244,650 pairs, each a presence rule.
  const branches = range(700).map((i) => `<xs:element name="c${i}" type="xs:string"/>`).join('')
  const document = schema(`<xs:element name="Op"><xs:complexType><xs:choice>${branches}</xs:choice></xs:complexType></xs:element>`)
  await t.assert.rejects(readContract({ document }), (err: Error & { code?: string }) => {
    t.assert.equal(err.code, 'SOAP_ERR_CONTRACT_UNSUPPORTED')
    t.assert.match(err.message, /the contract uses xs:choice where its schemas grow past 200000 particles and attributes read .* \(at operation Op > element \{urn:k\}Op\)$/)
    return true
  })
})

test('contract-first.md "Bounds": attribute groups read within one another past the budget are SOAP_ERR_CONTRACT_UNSUPPORTED naming the construct and its path', async (t: TestContext) => {
  // A0 holds A1 four times, A1 A2 ... : read whole, 4^10 attributes, for the 4 of A9.
  const groups = range(10).map((d) => `<xs:attributeGroup name="A${d}">${range(WIDE).map((i) => d === 9 ? `<xs:attribute name="a${i}" type="xs:string"/>` : `<xs:attributeGroup ref="k:A${d + 1}"/>`).join('')}</xs:attributeGroup>`).join('')
  const document = schema(`<xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="a" type="xs:string"/></xs:sequence><xs:attributeGroup ref="k:A0"/></xs:complexType></xs:element>${groups}`)
  await t.assert.rejects(readContract({ document }), (err: Error & { code?: string }) => {
    t.assert.equal(err.code, 'SOAP_ERR_CONTRACT_UNSUPPORTED')
    t.assert.match(err.message, /the contract uses xs:attribute a\d where its schemas grow past 200000 particles and attributes read/)
    t.assert.match(err.message, /at operation Op > element \{urn:k\}Op > attributeGroup k:A0 > attributeGroup k:A1 > /)
    return true
  })
})
