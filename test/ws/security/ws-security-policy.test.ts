/**
 * docs/contract-first.md "WS-Security": the WS-Policy attached anywhere
 * WS-PolicyAttachment §4.1 allows (service, port, binding, portType,
 * operations, their messages) is read for each operation; what the plugin
 * cannot apply refuses the contract at startup unless it is ignored by name,
 * and the startup log says what each operation requires.
 */
import { test, type TestContext } from 'node:test'
import Fastify, { type FastifyInstance } from 'fastify'
import soap, { errorCodes, type SoapContractDefinition } from '../../../lib/index'
import { envelope, post } from '../../helper'
import { security, timestamp, usernameToken } from './ws-security-support'

const SP = 'http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200702'
const SP_2005 = 'http://schemas.xmlsoap.org/ws/2005/07/securitypolicy'
const WSP = 'http://www.w3.org/ns/ws-policy'
const WSP_2004 = 'http://schemas.xmlsoap.org/ws/2004/09/policy'
const lookup = async (name: string): Promise<string | undefined> => name === 'demo' ? 'demo' : undefined

const UT = '<sp:SupportingTokens><wsp:Policy><sp:UsernameToken sp:IncludeToken="http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200702/IncludeToken/AlwaysToRecipient"><wsp:Policy><sp:WssUsernameToken10/></wsp:Policy></sp:UsernameToken></wsp:Policy></sp:SupportingTokens>'
const X509_ENCRYPTED = '<sp:AsymmetricBinding><wsp:Policy><sp:InitiatorToken><wsp:Policy><sp:X509Token><wsp:Policy><sp:WssX509V3Token10/></wsp:Policy></sp:X509Token></wsp:Policy></sp:InitiatorToken><sp:IncludeTimestamp/><sp:EncryptSignature/></wsp:Policy></sp:AsymmetricBinding>'

/** Where policies sit in the WSDL: text put inside each component (or its attributes). */
interface Places {
  readonly top?: string
  readonly service?: string
  readonly port?: string
  readonly binding?: string
  readonly portType?: string
  readonly greetOperation?: string
  readonly greetInput?: string
  readonly greetOutput?: string
  readonly greetFault?: string
  readonly portTypeGreet?: string
  readonly inMessageAttributes?: string
}

/** A contract of two operations, greetMe (with a fault) and sayHi, with policies where `places` puts them. */
function wsdl (places: Places): string {
  return `<?xml version="1.0"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xs="http://www.w3.org/2001/XMLSchema"
  xmlns:wsp="${WSP}" xmlns:wsp12="${WSP_2004}" xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd"
  xmlns:sp="${SP}" xmlns:tns="urn:g" xmlns:x="urn:g:types" targetNamespace="urn:g">
  ${places.top ?? ''}
  <wsdl:types><xs:schema targetNamespace="urn:g:types" elementFormDefault="qualified">
    <xs:element name="greetMe"><xs:complexType><xs:sequence><xs:element name="name" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
    <xs:element name="greetMeResponse"><xs:complexType><xs:sequence><xs:element name="text" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
    <xs:element name="sayHi"><xs:complexType><xs:sequence/></xs:complexType></xs:element>
    <xs:element name="sayHiResponse"><xs:complexType><xs:sequence><xs:element name="text" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
    <xs:element name="refused"><xs:complexType><xs:sequence/></xs:complexType></xs:element>
  </xs:schema></wsdl:types>
  <wsdl:message name="GreetIn" ${places.inMessageAttributes ?? ''}><wsdl:part name="in" element="x:greetMe"/></wsdl:message>
  <wsdl:message name="GreetOut"><wsdl:part name="out" element="x:greetMeResponse"/></wsdl:message>
  <wsdl:message name="Refused"><wsdl:part name="f" element="x:refused"/></wsdl:message>
  <wsdl:message name="HiIn"><wsdl:part name="in" element="x:sayHi"/></wsdl:message>
  <wsdl:message name="HiOut"><wsdl:part name="out" element="x:sayHiResponse"/></wsdl:message>
  <wsdl:portType name="G">${places.portType ?? ''}
    <wsdl:operation name="greetMe">${places.portTypeGreet ?? ''}<wsdl:input message="tns:GreetIn"/><wsdl:output message="tns:GreetOut"/><wsdl:fault name="refused" message="tns:Refused"/></wsdl:operation>
    <wsdl:operation name="sayHi"><wsdl:input message="tns:HiIn"/><wsdl:output message="tns:HiOut"/></wsdl:operation>
  </wsdl:portType>
  <wsdl:binding name="B" type="tns:G">${places.binding ?? ''}<soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <wsdl:operation name="greetMe">${places.greetOperation ?? ''}<soap:operation soapAction="urn:greetMe"/>
      <wsdl:input>${places.greetInput ?? ''}<soap:body use="literal"/></wsdl:input>
      <wsdl:output>${places.greetOutput ?? ''}<soap:body use="literal"/></wsdl:output>
      <wsdl:fault name="refused">${places.greetFault ?? ''}<soap:fault name="refused" use="literal"/></wsdl:fault>
    </wsdl:operation>
    <wsdl:operation name="sayHi"><soap:operation soapAction="urn:sayHi"/><wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation>
  </wsdl:binding>
  <wsdl:service name="S">${places.service ?? ''}<wsdl:port name="P" binding="tns:B">${places.port ?? ''}<soap:address location="http://localhost/g"/></wsdl:port></wsdl:service>
</wsdl:definitions>`
}

type Definition = Omit<SoapContractDefinition, 'path' | 'operations' | 'document'>

async function serve (t: TestContext, places: Places, definition: Definition = {}, lines: Array<Record<string, unknown>> = []): Promise<{ app: FastifyInstance, error: Error | undefined }> {
  const app = Fastify({ logger: { level: 'info', stream: { write: (line: string) => { lines.push(JSON.parse(line)) } } } })
  t.after(() => app.close())
  await app.register(soap)
  app.soap.contract({
    path: '/g',
    document: wsdl(places),
    operations: {
      greetMe: async ({ name }: { name: string }, call: { soap: { username?: string } }) => ({ text: `Hello ${name} from ${call.soap.username ?? 'nobody'}` }),
      sayHi: async () => ({ text: 'Hi' })
    },
    ...definition
  } as never)
  const error = await app.ready().then(() => undefined, (err: Error) => err)
  return { app, error }
}

const greet = async (app: FastifyInstance, header?: string): Promise<Awaited<ReturnType<typeof post>>> =>
  await post(app, '1.1', envelope('1.1', '<x:greetMe xmlns:x="urn:g:types"><x:name>Ann</x:name></x:greetMe>', header), { url: '/g', headers: { soapaction: '"urn:greetMe"' } })
const hi = async (app: FastifyInstance, header?: string): Promise<Awaited<ReturnType<typeof post>>> =>
  await post(app, '1.1', envelope('1.1', '<x:sayHi xmlns:x="urn:g:types"/>', header), { url: '/g', headers: { soapaction: '"urn:sayHi"' } })

/** The greetMe operation needs a UsernameToken, sayHi does not. */
async function assertGreetSecured (t: TestContext, app: FastifyInstance): Promise<void> {
  const open = await greet(app)
  t.assert.strictEqual(open.statusCode, 500, open.body)
  t.assert.match(open.body, /<faultcode xmlns:fc="[^"]+">fc:InvalidSecurity<\/faultcode>/)
  const signed = await greet(app, security(usernameToken()))
  t.assert.strictEqual(signed.statusCode, 200, signed.body)
  t.assert.match(signed.body, /Hello Ann from demo/)
  t.assert.strictEqual((await hi(app)).statusCode, 200, 'sayHi has no policy: served open')
}

test('WS-PolicyAttachment §4.1 (operation policy subject): a UsernameToken policy referenced (wsp:PolicyReference) from a binding operation is enforced on that operation, the others are served open, and the startup line lists the security of each operation', async (t: TestContext) => {
  const lines: Array<Record<string, unknown>> = []
  const refused = await serve(t, { top: `<wsp:Policy wsu:Id="UT">${UT}</wsp:Policy>`, greetOperation: '<wsp:PolicyReference URI="#UT"/>' })
  t.assert.ok(refused.error instanceof errorCodes.SOAP_ERR_SECURITY_LOOKUP, String(refused.error))
  const { app, error } = await serve(t, { top: `<wsp:Policy wsu:Id="UT">${UT}</wsp:Policy>`, greetOperation: '<wsp:PolicyReference URI="#UT"/>' }, { security: { usernameToken: { lookup } } }, lines)
  t.assert.strictEqual(error, undefined)
  await assertGreetSecured(t, app)
  const line = lines.find((l) => typeof l.msg === 'string' && l.msg.startsWith('fastify-soap: contract S: WS-Security'))
  t.assert.deepStrictEqual([line?.level, line?.msg, line?.security], [30, 'fastify-soap: contract S: WS-Security requires UsernameToken (text or digest) for greetMe; nothing for sayHi', { 'UsernameToken (text or digest)': ['greetMe'], nothing: ['sayHi'] }])
})

test('WS-PolicyAttachment §4.1 (message policy subject): a UsernameToken policy inline in a binding operation\'s wsdl:input (WS-Policy 1.2 namespace) is enforced on that operation', async (t: TestContext) => {
  const inline = `<wsp12:Policy xmlns:sp="${SP_2005}"><sp:SupportingTokens><wsp12:Policy><sp:UsernameToken><wsp12:Policy><sp:HashPassword/></wsp12:Policy></sp:UsernameToken></wsp12:Policy></sp:SupportingTokens></wsp12:Policy>`
  const { app, error } = await serve(t, { greetInput: inline }, { security: { usernameToken: { lookup } } })
  t.assert.strictEqual(error, undefined)
  t.assert.match((await greet(app)).body, /fc:InvalidSecurity/)
  t.assert.match((await greet(app, security(usernameToken()))).body, /fc:FailedAuthentication/, 'sp:HashPassword: digests only')
  t.assert.strictEqual((await greet(app, security(usernameToken({ digest: true })))).statusCode, 200)
  t.assert.strictEqual((await hi(app)).statusCode, 200)
})

test('WS-PolicyAttachment §4.1 (message policy subject): a policy named by the wsp:PolicyURIs attribute of the input wsdl:message, or inline in the portType operation, is enforced on its operation', async (t: TestContext) => {
  const top = `<wsp:Policy wsu:Id="UT">${UT}</wsp:Policy>`
  const uris = await serve(t, { top, inMessageAttributes: 'wsp12:PolicyURIs=" #UT "' }, { security: { usernameToken: { lookup } } })
  t.assert.strictEqual(uris.error, undefined)
  await assertGreetSecured(t, uris.app)
  const portType = await serve(t, { top, portTypeGreet: '<wsp:Policy><wsp:PolicyReference URI="#UT"/></wsp:Policy>' }, { security: { usernameToken: { lookup } } })
  t.assert.strictEqual(portType.error, undefined)
  await assertGreetSecured(t, portType.app)
})

test('WS-PolicyAttachment §4.1 (service and endpoint policy subjects): a policy on the wsdl:service applies to every operation; one on the portType too', async (t: TestContext) => {
  const lines: Array<Record<string, unknown>> = []
  const service = await serve(t, { service: `<wsp:Policy>${UT}</wsp:Policy>` }, { security: { usernameToken: { lookup } } }, lines)
  t.assert.strictEqual(service.error, undefined)
  t.assert.match((await hi(service.app)).body, /fc:InvalidSecurity/)
  t.assert.ok(lines.some((l) => l.msg === 'fastify-soap: contract S: WS-Security requires UsernameToken (text or digest) for greetMe, sayHi'), JSON.stringify(lines))
  const portType = await serve(t, { portType: '<wsp:Policy><sp:IncludeTimestamp/></wsp:Policy>' })
  t.assert.strictEqual(portType.error, undefined)
  t.assert.match((await hi(portType.app)).body, /fc:InvalidSecurity/)
  t.assert.strictEqual((await hi(portType.app, security(timestamp()))).statusCode, 200)
})

test('docs/contract-first.md "WS-Security": an sp:AsymmetricBinding that asks for encryption (sp:EncryptSignature) refuses ready() with SOAP_ERR_CONTRACT_UNSUPPORTED naming it and where it is attached, unless "ignorePolicyAssertions" names it; its sp:IncludeTimestamp is still required', async (t: TestContext) => {
  const places = { top: `<wsp:Policy wsu:Id="X">${X509_ENCRYPTED}</wsp:Policy>`, binding: '<wsp:PolicyReference URI="#X"/>' }
  const refused = await serve(t, places)
  t.assert.ok(refused.error instanceof errorCodes.SOAP_ERR_CONTRACT_UNSUPPORTED, String(refused.error))
  t.assert.strictEqual(refused.error?.message, `fastify-soap: the contract uses the WS-Policy assertion {${SP}}AsymmetricBinding (message encryption; name it in "ignorePolicyAssertions" to serve the contract without it), which cannot be served (at binding {urn:g}B)`)

  const lines: Array<Record<string, unknown>> = []
  const ignored = await serve(t, places, { ignorePolicyAssertions: [`{${SP}}AsymmetricBinding`] }, lines)
  t.assert.strictEqual(ignored.error, undefined)
  t.assert.match((await hi(ignored.app)).body, /fc:InvalidSecurity/, 'sp:IncludeTimestamp is applied')
  t.assert.strictEqual((await hi(ignored.app, security(timestamp()))).statusCode, 200)
  t.assert.ok(lines.some((l) => l.msg === `fastify-soap: contract S: WS-Security requires Timestamp for greetMe, sayHi; policy assertions ignored: {${SP}}AsymmetricBinding`), JSON.stringify(lines))

  const none = await serve(t, places, { ignorePolicyAssertions: [`{${SP}}AsymmetricBinding`, `{${SP}}IncludeTimestamp`] })
  t.assert.strictEqual((await hi(none.app)).statusCode, 200, 'an ignored assertion is not applied either')
})

test('docs/contract-first.md "WS-Security": each WS-SecurityPolicy assertion the plugin cannot apply refuses the contract, naming it and its subject', async (t: TestContext) => {
  const cases: Array<[Places, string, string]> = [
    [{ port: '<wsp:Policy><sp:TransportBinding><wsp:Policy><sp:TransportToken><wsp:Policy><sp:HttpsToken/></wsp:Policy></sp:TransportToken></wsp:Policy></sp:TransportBinding></wsp:Policy>' }, `{${SP}}TransportBinding (HTTPS is the transport's`, 'port P'],
    [{ greetOperation: '<wsp:Policy><sp:SupportingTokens><wsp:Policy><sp:X509Token/></wsp:Policy></sp:SupportingTokens></wsp:Policy>' }, `{${SP}}X509Token (a token other than a UsernameToken`, 'binding {urn:g}B operation greetMe'],
    [{ greetInput: '<wsp:Policy><sp:SignedSupportingTokens><wsp:Policy><sp:UsernameToken/></wsp:Policy></sp:SignedSupportingTokens></wsp:Policy>' }, `{${SP}}SignedSupportingTokens (supporting tokens signed with no X.509 signature asked for`, 'binding {urn:g}B operation greetMe input'],
    [{ greetInput: '<wsp:Policy><sp:UsernameToken><wsp:Policy><sp:NoPassword/></wsp:Policy></sp:UsernameToken></wsp:Policy>' }, `{${SP}}NoPassword (a UsernameToken the plugin does not check`, 'binding {urn:g}B operation greetMe input'],
    [{ greetInput: '<wsp:Policy><sp:SignedParts><sp:Body/></sp:SignedParts></wsp:Policy>' }, `{${SP}}SignedParts (signed parts with no X.509 signature asked for`, 'binding {urn:g}B operation greetMe input'],
    [{ greetOutput: '<wsp:Policy><sp:SignedParts><sp:Body/><sp:Header Namespace="urn:h"/></sp:SignedParts></wsp:Policy>' }, `{${SP}}SignedParts (header blocks of a reply signed`, 'binding {urn:g}B operation greetMe output'],
    [{ greetFault: '<wsp:Policy><sp:SignedParts><sp:Body/></sp:SignedParts></wsp:Policy>' }, `{${SP}}SignedParts (the plugin does not sign faults`, 'binding {urn:g}B operation greetMe fault refused'],
    [{ greetFault: '<wsp:Policy><sp:EncryptedParts><sp:Body/></sp:EncryptedParts></wsp:Policy>' }, `{${SP}}EncryptedParts (the plugin adds no token or encryption to a reply, and signs only its Body`, 'binding {urn:g}B operation greetMe fault refused'],
    [{ binding: '<wsp:PolicyReference URI="#Elsewhere"/>' }, `{${WSP}}PolicyReference (a policy (#Elsewhere) the contract's documents do not hold`, 'binding {urn:g}B'],
    [{ inMessageAttributes: 'wsp:PolicyURIs="http://example.org/policy"' }, `{${WSP}}PolicyURIs (a policy (http://example.org/policy) the contract's documents do not hold`, 'message {urn:g}GreetIn'],
    [{ service: '<wsp:Policy><sp:KerberosToken xmlns:sp="http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200802"/></wsp:Policy>' }, '{http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200802}KerberosToken (an assertion the plugin does not implement', 'service S'],
    [{ top: '<wsp:Policy wsu:Id="Loop"><wsp:PolicyReference URI="#Loop"/><sp:X509Token/></wsp:Policy>', binding: '<wsp:PolicyReference URI="#Loop"/>' }, `{${SP}}X509Token (an assertion the plugin does not implement`, 'binding {urn:g}B'],
    [{ binding: `<wsp:Policy>${'<wsp:ExactlyOne><sp:Wss10/><sp:Wss11/></wsp:ExactlyOne>'.repeat(7)}</wsp:Policy>` }, 'a WS-Policy of more than 64 alternatives', 'binding {urn:g}B'],
    [{ binding: `<wsp:Policy><wsp:ExactlyOne>${'<sp:Wss10/>'.repeat(65)}</wsp:ExactlyOne></wsp:Policy>` }, 'a WS-Policy of more than 64 alternatives', 'binding {urn:g}B'],
    [{ binding: `${'<wsp:Policy>'.repeat(18)}${UT}${'</wsp:Policy>'.repeat(18)}` }, 'a WS-Policy nested more than 16 levels deep', 'binding {urn:g}B']
  ]
  for (const [places, what, where] of cases) {
    const { error } = await serve(t, places, { security: { usernameToken: { lookup } } })
    t.assert.ok(error instanceof errorCodes.SOAP_ERR_CONTRACT_UNSUPPORTED, `${what}: ${String(error)}`)
    t.assert.ok(error.message.startsWith('fastify-soap: the contract uses ' + (what.startsWith('a WS-Policy') ? what : `the WS-Policy assertion ${what}`)), error.message)
    t.assert.ok(error.message.endsWith(`(at ${where})`), error.message)
  }
})

test('WS-Policy 1.5 Framework §4.3.1, §4.3.6 (wsp:Optional, alternatives in normal form): of the alternatives the plugin can apply, the one that asks most is served; Wss10, Wss11, Trust13 and other protocols\' assertions ask nothing of it', async (t: TestContext) => {
  // X509Token | UsernameToken: the UsernameToken alternative is the one served.
  const choice = await serve(t, { greetOperation: `<wsp:Policy><wsp:ExactlyOne><sp:SupportingTokens><wsp:Policy><sp:X509Token/></wsp:Policy></sp:SupportingTokens>${UT}</wsp:ExactlyOne></wsp:Policy>` }, { security: { usernameToken: { lookup } } })
  t.assert.strictEqual(choice.error, undefined)
  await assertGreetSecured(t, choice.app)
  // An optional UsernameToken: required (the alternative that asks most).
  const optional = await serve(t, { greetOperation: '<wsp:Policy><sp:UsernameToken wsp:Optional="true"/></wsp:Policy>' }, { security: { usernameToken: { lookup } } })
  t.assert.strictEqual(optional.error, undefined)
  await assertGreetSecured(t, optional.app)
  // An optional X509Token: its other alternative, nothing, is served.
  const lines: Array<Record<string, unknown>> = []
  const x509 = await serve(t, { binding: '<wsp:Policy><sp:X509Token wsp:Optional="true"/><sp:Wss10/><sp:Wss11/><sp:Trust13/><wsam:Addressing xmlns:wsam="http://www.w3.org/2007/05/addressing/metadata" wsp:Optional="true"/></wsp:Policy>' }, {}, lines)
  t.assert.strictEqual(x509.error, undefined)
  t.assert.strictEqual((await greet(x509.app)).statusCode, 200)
  t.assert.ok(lines.some((l) => l.msg === 'fastify-soap: contract S: WS-Security requires nothing for greetMe, sayHi'), JSON.stringify(lines))
  // One policy of 9 alternatives attached to the port and the binding is merged once (9 alternatives, not 81).
  const twice = await serve(t, { top: `<wsp:Policy wsu:Id="E"><wsp:ExactlyOne>${'<sp:Wss10/>'.repeat(9)}</wsp:ExactlyOne></wsp:Policy>`, binding: '<wsp:PolicyReference URI="#E"/>', port: '<wsp:PolicyReference URI="#E"/>' })
  t.assert.strictEqual(twice.error, undefined)
  // An ignored UsernameToken is not applied: the security given is used as given.
  const given = await serve(t, { greetOperation: `<wsp:Policy>${UT}</wsp:Policy>` }, { ignorePolicyAssertions: [`{${SP}}UsernameToken`], security: { usernameToken: { lookup, password: 'text' }, except: ['sayHi'] } }, lines)
  t.assert.strictEqual(given.error, undefined)
  t.assert.match((await greet(given.app, security(usernameToken({ digest: true })))).body, /fc:FailedAuthentication/)
  t.assert.ok(lines.some((l) => l.msg === `fastify-soap: contract S: WS-Security requires UsernameToken (text) for greetMe; nothing for sayHi; policy assertions ignored: {${SP}}UsernameToken`), JSON.stringify(lines))
})

test('docs/contract-first.md "Options": "ignorePolicyAssertions" is a list of "{namespace}localName"', async (t: TestContext) => {
  for (const bad of ['x', ['Policy'], ['{urn:x}'], [1]]) {
    const { error } = await serve(t, {}, { ignorePolicyAssertions: bad as never })
    t.assert.ok(error instanceof errorCodes.SOAP_ERR_CONTRACT_INVALID, String(error))
    t.assert.match(String(error?.message), /"ignorePolicyAssertions" must be an array of assertion names, "\{namespace\}localName"/)
  }
})
