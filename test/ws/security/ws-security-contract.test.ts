/**
 * docs/contract-first.md "WS-Security": a contract whose WSDL attaches a
 * WS-SecurityPolicy UsernameToken to its binding or port is served behind
 * it, with the user's lookup; without one, ready() fails with a coded error.
 * test/ws/security/ws-security-policy.test.ts has the other subjects and assertions.
 */
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import Fastify, { type FastifyInstance } from 'fastify'
import soap, { errorCodes, type SoapContractDefinition, type SoapSecurityOptions } from '../../../lib/index'
import { envelope, post, sharedFixture } from '../../helper'
import { security, timestamp, usernameToken } from './ws-security-support'
import { secureCalculator } from '../../demo/app'

const GREET = '<x:greetMe xmlns:x="http://apache.org/hello_world_soap_http/types"><x:requestType>Ann</x:requestType></x:greetMe>'
const lookup = async (name: string): Promise<string | undefined> => name === 'demo' ? 'demo' : undefined

async function serve (t: TestContext, definition: Omit<SoapContractDefinition, 'path' | 'operations'>, lines: Array<Record<string, unknown>> = []): Promise<{ app: FastifyInstance, error: Error | undefined }> {
  const app = Fastify({ logger: { level: 'info', stream: { write: (line: string) => { lines.push(JSON.parse(line)) } } } })
  t.after(() => app.close())
  await app.register(soap)
  app.soap.contract({ path: '/greeter', operations: { greetMe: async ({ requestType }: { requestType: string }, call: { soap: { username?: string } }) => ({ responseType: `Hello ${requestType} from ${call.soap.username ?? 'nobody'}` }) }, ...definition } as never)
  const error = await app.ready().then(() => undefined, (err: Error) => err)
  return { app, error }
}

const greet = async (app: FastifyInstance, header?: string): Promise<Awaited<ReturnType<typeof post>>> => await post(app, '1.1', envelope('1.1', GREET, header), { url: '/greeter', headers: { soapaction: '""' } })

const TRANSPORT_BINDING = '{http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200702}TransportBinding'

test('docs/contract-first.md "WS-Security": Apache CXF\'s ut_policy WSDL (TransportBinding with IncludeTimestamp, SupportingTokens/UsernameToken, referenced from the port) is refused until its TransportBinding is ignored, then served behind a UsernameToken and a Timestamp, and says so at startup', async (t: TestContext) => {
  const folder = sharedFixture(t, 'wsdl', 'cxf-ws-security-ut')
  if (folder === undefined) return
  const wsdl = join(folder, 'hello_world.wsdl')
  const https = await serve(t, { wsdl, security: { usernameToken: { lookup } } })
  t.assert.ok(https.error instanceof errorCodes.SOAP_ERR_CONTRACT_UNSUPPORTED, String(https.error))
  t.assert.match(String(https.error?.message), /the WS-Policy assertion \{[^}]+\}TransportBinding \(HTTPS is the transport's: the plugin cannot see it; .*\(at port SoapPort\)$/)
  // HTTPS is the deployment's (TLS ends before the plugin): the tests serve loopback HTTP.
  const ignorePolicyAssertions = [TRANSPORT_BINDING]
  const refused = await serve(t, { wsdl, ignorePolicyAssertions })
  t.assert.ok(refused.error instanceof errorCodes.SOAP_ERR_SECURITY_LOOKUP, String(refused.error))
  t.assert.match(String(refused.error?.message), /SOAPService: its WS-SecurityPolicy asks for a UsernameToken \(text or digest\)/)

  const lines: Array<Record<string, unknown>> = []
  const { app, error } = await serve(t, { wsdl, ignorePolicyAssertions, security: { usernameToken: { lookup } } }, lines)
  t.assert.strictEqual(error, undefined)
  t.assert.ok(lines.some((l) => l.level === 30 && l.msg === `fastify-soap: contract SOAPService: WS-Security requires UsernameToken (text or digest) and Timestamp for greetMe; policy assertions ignored: ${TRANSPORT_BINDING}`), JSON.stringify(lines))
  const ok = await greet(app, security(timestamp() + usernameToken({ digest: true })))
  t.assert.strictEqual(ok.statusCode, 200, ok.body)
  t.assert.match(ok.body, /Hello Ann from demo/)
  t.assert.match((await greet(app)).body, /fc:InvalidSecurity/)
  t.assert.match((await greet(app, security(usernameToken()))).body, /fc:InvalidSecurity/, 'sp:IncludeTimestamp: a Timestamp is required')
  t.assert.match((await greet(app, security(timestamp() + usernameToken({ password: 'x' })))).body, /fc:FailedAuthentication/)
  // The WSDL is served as given, its policy with it.
  t.assert.match((await app.inject({ method: 'GET', url: '/greeter?wsdl' })).body, /<sp:UsernameToken /)

  // What the definition says wins over the policy.
  const relaxed = await serve(t, { wsdl, ignorePolicyAssertions, security: { usernameToken: { lookup }, timestamp: { required: false } } })
  t.assert.strictEqual((await greet(relaxed.app, security(usernameToken()))).statusCode, 200)
})

function document (policy: string, where: 'binding' | 'port'): string {
  const reference = '<wsp:PolicyReference URI="#P"/>'
  return `<?xml version="1.0"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xs="http://www.w3.org/2001/XMLSchema"
  xmlns:wsp="http://www.w3.org/ns/ws-policy" xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd"
  xmlns:sp="http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200702" xmlns:tns="urn:g" xmlns:x="http://apache.org/hello_world_soap_http/types" targetNamespace="urn:g">
  <wsp:Policy wsu:Id="P">${policy}</wsp:Policy>
  <wsdl:types><xs:schema targetNamespace="http://apache.org/hello_world_soap_http/types" elementFormDefault="qualified">
    <xs:element name="greetMe"><xs:complexType><xs:sequence><xs:element name="requestType" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
    <xs:element name="greetMeResponse"><xs:complexType><xs:sequence><xs:element name="responseType" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
  </xs:schema></wsdl:types>
  <wsdl:message name="In"><wsdl:part name="in" element="x:greetMe"/></wsdl:message>
  <wsdl:message name="Out"><wsdl:part name="out" element="x:greetMeResponse"/></wsdl:message>
  <wsdl:portType name="G"><wsdl:operation name="greetMe"><wsdl:input message="tns:In"/><wsdl:output message="tns:Out"/></wsdl:operation></wsdl:portType>
  <wsdl:binding name="B" type="tns:G">${where === 'binding' ? reference : ''}<soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <wsdl:operation name="greetMe"><soap:operation soapAction=""/><wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation>
  </wsdl:binding>
  <wsdl:service name="S"><wsdl:port name="P" binding="tns:B">${where === 'port' ? reference : ''}<soap:address location="http://localhost/g"/></wsdl:port></wsdl:service>
</wsdl:definitions>`
}

const UT_DIGEST = '<sp:SupportingTokens><wsp:Policy><sp:UsernameToken><wsp:Policy><sp:HashPassword/></wsp:Policy></sp:UsernameToken></wsp:Policy></sp:SupportingTokens>'

test('docs/contract-first.md "WS-Security": sp:HashPassword on the binding\'s policy accepts digests only; a policy that asks nothing the plugin checks turns nothing on; a reference to no policy is refused', async (t: TestContext) => {
  const digest = await serve(t, { document: document(UT_DIGEST, 'binding'), security: { usernameToken: { lookup } } })
  t.assert.strictEqual(digest.error, undefined)
  t.assert.match((await greet(digest.app, security(usernameToken()))).body, /fc:FailedAuthentication/)
  t.assert.strictEqual((await greet(digest.app, security(usernameToken({ digest: true })))).statusCode, 200)
  const refused = await serve(t, { document: document(UT_DIGEST, 'port') })
  t.assert.match(String(refused.error?.message), /asks for a UsernameToken \(with sp:HashPassword\)/)

  const lines: Array<Record<string, unknown>> = []
  const nothing = await serve(t, { document: document('<sp:Wss11/><x:Unknown xmlns:x="urn:unknown"/>', 'binding') }, lines)
  t.assert.strictEqual(nothing.error, undefined)
  t.assert.strictEqual((await greet(nothing.app)).statusCode, 200)
  t.assert.ok(lines.some((l) => l.msg === 'fastify-soap: contract S: WS-Security requires nothing for greetMe'), JSON.stringify(lines))
  // A reference to no policy of the documents: what it asks is unknown.
  const dangling = await serve(t, { document: document(UT_DIGEST, 'binding').replace('URI="#P"', 'URI="#Nope"') })
  t.assert.ok(dangling.error instanceof errorCodes.SOAP_ERR_CONTRACT_UNSUPPORTED, String(dangling.error))
  // security given with a contract whose WSDL has no policy is used as given.
  const given = await serve(t, { document: document('', 'binding'), security: { usernameToken: { lookup }, timestamp: { required: true } } satisfies SoapSecurityOptions })
  t.assert.match((await greet(given.app, security(usernameToken()))).body, /fc:InvalidSecurity/)
})

test('docs/contract-first.md "WS-Security": the WSDL a secured service generates, served as a contract, is secured the same way (its policy read back)', async (t: TestContext) => {
  const source = Fastify()
  t.after(() => source.close())
  await source.register(soap)
  source.soap.service({ ...secureCalculator, security: { usernameToken: { lookup, password: 'digest' } } })
  const wsdl = (await source.inject({ method: 'GET', url: '/secure/calculator?wsdl', headers: { host: 'localhost' } })).body
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.contract({ path: '/again', document: wsdl, service: 'Calculator', operations: { Add: async ({ a, b }: { a: number, b: number }) => ({ result: a + b }), Echo: async (input: unknown) => input, Divide: async () => ({ result: 0 }) } as never, security: { usernameToken: { lookup } } })
  await app.ready()
  const add = async (header?: string): Promise<string> => (await post(app, '1.2', envelope('1.2', '<c:Add xmlns:c="urn:example:calc"><c:a>2</c:a><c:b>3</c:b></c:Add>', header), { url: '/again' })).body
  t.assert.match(await add(security(usernameToken({ digest: true }))), /<tns:result>5<\/tns:result>/)
  t.assert.match(await add(security(usernameToken())), /sc0:FailedAuthentication/, 'sp:HashPassword read back: digests only')
  t.assert.match(await add(), /sc0:InvalidSecurity/)
})
