/**
 * Contract first with WS-Addressing (docs/addressing.md "Turning it on",
 * "Description"): what a binding's policy declares, and the actions a WSDL
 * states or WS-Addressing's default action pattern gives.
 */
import { test, type TestContext } from 'node:test'
import Fastify from 'fastify'
import soap, { WSA_NS, readContract } from '../../../lib/index'
import { envelope, post } from '../../helper'

const WSP15 = 'http://www.w3.org/ns/ws-policy'
const WSP04 = 'http://schemas.xmlsoap.org/ws/2004/09/policy'
const WSU = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd'
const WSAM = 'http://www.w3.org/2007/05/addressing/metadata'
const WSAW = 'http://www.w3.org/2006/05/addressing/wsdl'

/** A one-operation WSDL whose binding holds `bindingExtra`, with `top` beside the binding and actions on the portType's messages. */
function wsdl (tns: string, bindingExtra: string, top = '', actions: { input?: string, output?: string, fault?: string } = {}, bindingAttributes = ''): string {
  const attr = (value: string | undefined): string => value === undefined ? '' : ` wsam:Action="${value}"`
  return `<?xml version="1.0"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/"
  xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="${tns}" xmlns:wsp="${WSP15}" xmlns:wsp04="${WSP04}" xmlns:wsu="${WSU}"
  xmlns:wsam="${WSAM}" xmlns:wsaw="${WSAW}" targetNamespace="${tns}">
  ${top}
  <wsdl:types><xs:schema targetNamespace="${tns}" elementFormDefault="qualified">
    <xs:element name="Ping"><xs:complexType><xs:sequence><xs:element name="n" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
    <xs:element name="PingResponse"><xs:complexType><xs:sequence><xs:element name="n" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
    <xs:element name="Busy"><xs:complexType><xs:sequence><xs:element name="why" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
  </xs:schema></wsdl:types>
  <wsdl:message name="PingIn"><wsdl:part name="p" element="tns:Ping"/></wsdl:message>
  <wsdl:message name="PingOut"><wsdl:part name="p" element="tns:PingResponse"/></wsdl:message>
  <wsdl:message name="BusyFault"><wsdl:part name="d" element="tns:Busy"/></wsdl:message>
  <wsdl:portType name="Pinger"><wsdl:operation name="Ping">
    <wsdl:input message="tns:PingIn"${attr(actions.input)}/><wsdl:output message="tns:PingOut"${attr(actions.output)}/><wsdl:fault name="Busy" message="tns:BusyFault"${attr(actions.fault)}/>
  </wsdl:operation></wsdl:portType>
  <wsdl:binding name="PingerSoap" type="tns:Pinger"${bindingAttributes}>
    ${bindingExtra}
    <soap12:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <wsdl:operation name="Ping"><soap12:operation soapAction=""/>
      <wsdl:input><soap12:body use="literal"/></wsdl:input><wsdl:output><soap12:body use="literal"/></wsdl:output>
      <wsdl:fault name="Busy"><soap12:fault name="Busy" use="literal"/></wsdl:fault>
    </wsdl:operation>
  </wsdl:binding>
  <wsdl:service name="Pinger"><wsdl:port name="PingerSoap" binding="tns:PingerSoap"><soap12:address location="http://localhost/ping"/></wsdl:port></wsdl:service>
</wsdl:definitions>`
}

const CASES: ReadonlyArray<readonly [string, string, string, { required: boolean } | undefined, string?]> = [
  ['no policy at all', '', '', undefined],
  ['wsam:Addressing in a referenced WS-Policy 1.5 policy: required', '<wsp:PolicyReference URI="#P"/>', '<wsp:Policy wsu:Id="P"><wsam:Addressing><wsp:Policy/></wsam:Addressing></wsp:Policy>', { required: true }],
  ['wsam:Addressing wsp:Optional="true", inside ExactlyOne/All: optional', '<wsp:PolicyReference URI="#P"/>', '<wsp:Policy xml:id="P"><wsp:ExactlyOne><wsp:All><wsam:Addressing wsp:Optional="true"><wsp:Policy/></wsam:Addressing></wsp:All></wsp:ExactlyOne></wsp:Policy>', { required: false }],
  ['wsaw:UsingAddressing in a 2004/09 policy (OCPP): optional', '<wsp04:PolicyReference URI="#S"/>', '<wsp04:Policy wsu:Id="S"><wsp04:ExactlyOne><wsp04:All><wsaw:UsingAddressing/></wsp04:All></wsp04:ExactlyOne></wsp04:Policy>', { required: false }],
  ['wsaw:UsingAddressing wsdl:required="true" in the binding itself', '<wsaw:UsingAddressing wsdl:required="true"/>', '', { required: true }],
  ['an inline policy, and wsp:PolicyURIs', '<wsp:Policy><wsam:Addressing wsp:Optional="true"><wsp:Policy/></wsam:Addressing></wsp:Policy>', '<wsp04:Policy wsu:Id="Q"><wsam:Addressing><wsp:Policy/></wsam:Addressing></wsp04:Policy>', { required: true }, ' wsp04:PolicyURIs="#Q"'],
  ['a policy referenced twice, and by itself', '<wsp:PolicyReference URI="#P"/><wsp:PolicyReference URI="#P"/>', '<wsp:Policy wsu:Id="P"><wsp:PolicyReference URI="#P"/><wsam:Addressing><wsp:Policy/></wsam:Addressing></wsp:Policy>', { required: true }],
  ['a reference to no policy, and an unknown assertion', '<wsp:PolicyReference URI="#missing"/><wsp:Policy><other:Thing xmlns:other="urn:x"/></wsp:Policy>', '', undefined]
]

for (const [what, binding, top, expected, attributes] of CASES) {
  test(`WS-Addressing 1.0 Metadata §3.1, WSDL Binding §3.1: a contract's addressing from its binding: ${what}`, async (t: TestContext) => {
    const contract = await readContract({ document: wsdl('http://example.org/ping', binding, top, {}, attributes) })
    t.assert.deepStrictEqual(contract.addressing, expected)
  })
}

test('docs/addressing.md "Turning it on": a WSDL that states its messages\' actions and declares no policy turns addressing on, optional', async (t: TestContext) => {
  const contract = await readContract({ document: wsdl('urn:example:ping', '', '', { output: 'urn:out' }) })
  t.assert.deepStrictEqual(contract.addressing, { required: false })
})

test('WS-Addressing 1.0 Metadata §4.4.1, §4.4.4: a contract\'s actions are the WSDL\'s own, else the default action pattern', async (t: TestContext) => {
  const stated = await readContract({ document: wsdl('http://example.org/ping', '', '', { input: 'urn:in', output: 'urn:out', fault: 'urn:busy' }) })
  t.assert.deepStrictEqual(stated.operations.Ping, { ...stated.operations.Ping, action: 'urn:in', outputAction: 'urn:out', faultActions: { Busy: 'urn:busy' } })
  const http = await readContract({ document: wsdl('http://example.org/ping/', '') })
  t.assert.strictEqual(http.operations.Ping.outputAction, 'http://example.org/ping/Pinger/PingResponse', 'no second / after a namespace that ends with one')
  t.assert.deepStrictEqual(http.operations.Ping.faultActions, { Busy: 'http://example.org/ping/Pinger/Ping/Fault/Busy' })
  const urn = await readContract({ document: wsdl('urn:example:ping', '') })
  t.assert.strictEqual(urn.operations.Ping.outputAction, 'urn:example:ping:Pinger:PingResponse', 'a URN takes ":"')
})

test('docs/addressing.md "Turning it on": a contract\'s addressing key overrides its WSDL', async (t: TestContext) => {
  const required = wsdl('urn:example:ping', '<wsaw:UsingAddressing wsdl:required="true"/>', '', { input: 'urn:ping' })
  const request = envelope('1.2', '<p:Ping xmlns:p="urn:example:ping"><p:n>1</p:n></p:Ping>')
  const serve = async (addressing?: unknown, document = required): Promise<number> => {
    const app = Fastify()
    t.after(() => app.close())
    await app.register(soap)
    app.soap.contract({ path: '/ping', document, addressing: addressing as never, operations: { Ping: ({ n }: { n: number }) => ({ n }) } })
    return (await post(app, '1.2', request, { url: '/ping' })).statusCode
  }
  t.assert.strictEqual(await serve(), 400, 'required by the WSDL: a request without addressing is refused')
  t.assert.strictEqual(await serve(false), 200, 'off')
  t.assert.strictEqual(await serve({ required: false }), 200, 'an object with its own required')
  t.assert.strictEqual(await serve({ asyncReplies: { allow: ['http://127.0.0.1:1/'] } }), 400, 'an object without required keeps the WSDL\'s')
  t.assert.strictEqual(await serve(true, wsdl('urn:example:ping', '')), 200, 'on, optional, where the WSDL says nothing')
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.contract({ path: '/ping', document: wsdl('urn:example:ping', ''), addressing: true, operations: { Ping: ({ n }: { n: number }) => ({ n }) } })
  const addressed = await post(app, '1.2', envelope('1.2', '<p:Ping xmlns:p="urn:example:ping"><p:n>1</p:n></p:Ping>', `<a:Action xmlns:a="${WSA_NS}">urn:example:ping/Ping</a:Action>`), { url: '/ping' })
  t.assert.strictEqual(addressed.statusCode, 200, addressed.body)
  t.assert.match(addressed.body, /<wsa:Action xmlns:wsa="http:\/\/www\.w3\.org\/2005\/08\/addressing">urn:example:ping:Pinger:PingResponse<\/wsa:Action>/)
})
