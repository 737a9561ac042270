/**
 * WS-SecurityPolicy 1.2 for X.509 signatures: the policy the WSDL of a
 * service with `security.x509` states (docs/wsdl.md "Policy"), valid WSDL
 * 1.1 by xmllint; and a contract whose policy has an sp:AsymmetricBinding,
 * read to the same `security` (docs/contract-first.md "WS-Security").
 */
import { test, type TestContext } from 'node:test'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Fastify, { type FastifyInstance } from 'fastify'
import { DOMParser, type Element as DomElement } from '@xmldom/xmldom'
import soap, { errorCodes, type SoapSecurityOptions, type SoapServiceDefinition } from '../../../lib/index'
import { contractWsdl, requireXmllint, serviceApp, sharedFixture } from '../../helper'
import { assertX509Fault } from './x509-messages'

const SP = 'http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200702'
const WSP = 'http://www.w3.org/ns/ws-policy'
const WSDL = 'http://schemas.xmlsoap.org/wsdl/'
const WSU = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd'
const NS = 'urn:example:calc'
const WSA = 'http://www.w3.org/2005/08/addressing'
const X509_DIR = join(__dirname, '..', '..', '..', '..', 'test', 'demo', 'x509')
const CA = readFileSync(join(X509_DIR, 'test-ca.pem'), 'utf8')
const SERVER_KEY = readFileSync(join(X509_DIR, 'test-server.key'), 'utf8')
const SERVER_CERT = readFileSync(join(X509_DIR, 'test-server.pem'), 'utf8')

const int = { type: 'integer' } as const
const pair = { type: 'object', properties: { a: int, b: int }, required: ['a', 'b'], additionalProperties: false } as const
const sum = { type: 'object', properties: { result: int }, required: ['result'], additionalProperties: false } as const

function calculator (security: SoapSecurityOptions): SoapServiceDefinition {
  return {
    path: '/calc',
    namespace: NS,
    name: 'Calculator',
    operations: {
      Add: { input: pair, output: sum, async handler ({ a, b }: { a: number, b: number }) { return { result: a + b } } } as never,
      Ping: { input: pair, async handler () {} } as never
    },
    security
  }
}

async function wsdlOf (t: TestContext, security: SoapSecurityOptions): Promise<string> {
  const app = await serviceApp(t, calculator(security))
  const response = await app.inject({ method: 'GET', url: '/calc?wsdl' })
  t.assert.strictEqual(response.statusCode, 200)
  return response.body
}

function children (parent: DomElement, namespace: string, localName?: string): DomElement[] {
  return Array.from(parent.childNodes).filter((node): node is DomElement => node.nodeType === 1 &&
    (node as DomElement).namespaceURI === namespace && (localName === undefined || (node as DomElement).localName === localName))
}

/** The one child of `parent` named so (asserted). */
function only (t: TestContext, parent: DomElement, namespace: string, localName: string): DomElement {
  const found = children(parent, namespace, localName)
  t.assert.strictEqual(found.length, 1, `one ${localName} in ${parent.localName}`)
  return found[0]
}

/** The assertions of a policy's one alternative, by its wsu:Id. */
function policyById (t: TestContext, definitions: DomElement, id: string): DomElement[] {
  const policy = children(definitions, WSP, 'Policy').find((p) => p.getAttributeNS(WSU, 'Id') === id)
  t.assert.ok(policy !== undefined, `a policy ${id}`)
  return children(only(t, only(t, policy, WSP, 'ExactlyOne'), WSP, 'All'), SP)
}

/** The assertions nested in an assertion's wsp:Policy. */
function nested (t: TestContext, assertion: DomElement): DomElement[] {
  return children(only(t, assertion, WSP, 'Policy'), SP)
}

/** The IncludeToken of the X509Token in a binding's InitiatorToken or RecipientToken. */
function includeToken (t: TestContext, binding: DomElement[], role: string): string {
  const token = only(t, only(t, binding.find((a) => a.localName === role) as DomElement, WSP, 'Policy'), SP, 'X509Token')
  t.assert.deepStrictEqual(nested(t, token).map((a) => a.localName), ['WssX509V3Token10'])
  return String(token.getAttributeNS(SP, 'IncludeToken'))
}

/** Asserts that a WSDL is valid WSDL 1.1 with its SOAP bindings and schemas (xmllint); skipped without them. */
function assertValidWsdl (t: TestContext, wsdl: string): void {
  const schemas = sharedFixture(t, 'schemas')
  if (schemas === undefined || !requireXmllint(t)) return
  const dir = mkdtempSync(join(tmpdir(), 'fastify-soap-x509-policy-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(join(dir, 'service.wsdl'), wsdl)
  const driver = join(schemas, 'recipes', 'driver-wsdl11.xsd')
  const result = spawnSync('xmllint', ['--noout', '--nonet', '--schema', driver, join(dir, 'service.wsdl')], { encoding: 'utf8', timeout: 30_000 })
  t.assert.strictEqual(result.status, 0, result.stderr)
}

test('docs/wsdl.md "Policy": a service with security.x509 states an sp:AsymmetricBinding (X509 initiator token AlwaysToRecipient, Basic256Sha256, Lax, IncludeTimestamp, OnlySignEntireHeadersAndBody) and sp:Wss11 on both bindings, and sp:SignedParts (Body and signed.headers) on each input; valid WSDL 1.1', async (t: TestContext) => {
  const wsdl = await wsdlOf(t, { x509: { trust: CA, signed: { headers: [`{${NS}}Tenant`, WSA] } } })
  assertValidWsdl(t, wsdl)
  const definitions = new DOMParser().parseFromString(wsdl, 'text/xml').documentElement as DomElement
  const endpoint = policyById(t, definitions, 'CalculatorPolicy')
  t.assert.deepStrictEqual(endpoint.map((a) => a.localName), ['AsymmetricBinding', 'Wss11'])
  const binding = nested(t, endpoint[0])
  t.assert.deepStrictEqual(binding.map((a) => a.localName),
    ['InitiatorToken', 'RecipientToken', 'AlgorithmSuite', 'Layout', 'IncludeTimestamp', 'OnlySignEntireHeadersAndBody'])
  t.assert.strictEqual(includeToken(t, binding, 'InitiatorToken'), `${SP}/IncludeToken/AlwaysToRecipient`)
  t.assert.strictEqual(includeToken(t, binding, 'RecipientToken'), `${SP}/IncludeToken/Never`, 'replies are not signed: the service certificate is never sent')
  t.assert.deepStrictEqual(nested(t, binding[2]).map((a) => a.localName), ['Basic256Sha256'])
  t.assert.deepStrictEqual(nested(t, binding[3]).map((a) => a.localName), ['Lax'])
  t.assert.deepStrictEqual(nested(t, endpoint[1]).map((a) => a.localName), ['MustSupportRefKeyIdentifier', 'MustSupportRefIssuerSerial', 'MustSupportRefThumbprint'])

  const input = policyById(t, definitions, 'CalculatorInputPolicy')
  t.assert.deepStrictEqual(input.map((a) => a.localName), ['SignedParts'])
  t.assert.deepStrictEqual(children(input[0], SP).map((p) => [p.localName, p.getAttribute('Namespace'), p.getAttribute('Name')]),
    [['Body', null, null], ['Header', NS, 'Tenant'], ['Header', WSA, null]])
  t.assert.strictEqual(children(definitions, WSP, 'Policy').length, 2, 'no output policy: replies are not signed')
  for (const binding of children(definitions, WSDL, 'binding')) {
    t.assert.strictEqual(only(t, binding, WSP, 'PolicyReference').getAttribute('URI'), '#CalculatorPolicy')
    const operations = children(binding, WSDL, 'operation')
    t.assert.strictEqual(operations.length, 2)
    for (const operation of operations) {
      t.assert.strictEqual(only(t, only(t, operation, WSDL, 'input'), WSP, 'PolicyReference').getAttribute('URI'), '#CalculatorInputPolicy')
      for (const output of children(operation, WSDL, 'output')) t.assert.deepStrictEqual(children(output, WSP), [])
    }
  }
})

test('docs/wsdl.md "Policy": with x509.reply the recipient token is sent to the initiator (AlwaysToInitiator) and each output states sp:SignedParts with the Body; allowSha1 states the Basic256 suite, unless replies are signed (RSA-SHA256); a UsernameToken is stated beside the binding', async (t: TestContext) => {
  const wsdl = await wsdlOf(t, {
    x509: { trust: CA, allowSha1: true, reply: { key: SERVER_KEY, certificate: SERVER_CERT } },
    usernameToken: { lookup: () => 'demo' }
  })
  assertValidWsdl(t, wsdl)
  const definitions = new DOMParser().parseFromString(wsdl, 'text/xml').documentElement as DomElement
  const endpoint = policyById(t, definitions, 'CalculatorPolicy')
  t.assert.deepStrictEqual(endpoint.map((a) => a.localName), ['AsymmetricBinding', 'Wss11', 'SupportingTokens'])
  const binding = nested(t, endpoint[0])
  t.assert.strictEqual(includeToken(t, binding, 'RecipientToken'), `${SP}/IncludeToken/AlwaysToInitiator`)
  t.assert.deepStrictEqual(nested(t, binding[2]).map((a) => a.localName), ['Basic256Sha256'], 'replies are signed with RSA-SHA256')
  t.assert.deepStrictEqual(children(policyById(t, definitions, 'CalculatorInputPolicy')[0], SP).map((p) => p.localName), ['Body'])
  const legacy = new DOMParser().parseFromString(await wsdlOf(t, { x509: { trust: CA, allowSha1: true } }), 'text/xml').documentElement as DomElement
  t.assert.deepStrictEqual(nested(t, nested(t, policyById(t, legacy, 'CalculatorPolicy')[0])[2]).map((a) => a.localName), ['Basic256'])
  const output = policyById(t, definitions, 'CalculatorOutputPolicy')
  t.assert.deepStrictEqual(output.map((a) => a.localName), ['SignedParts'])
  t.assert.deepStrictEqual(children(output[0], SP).map((p) => p.localName), ['Body'])
  for (const binding of children(definitions, WSDL, 'binding')) {
    const [add, ping] = children(binding, WSDL, 'operation')
    t.assert.strictEqual(only(t, only(t, add, WSDL, 'output'), WSP, 'PolicyReference').getAttribute('URI'), '#CalculatorOutputPolicy')
    t.assert.deepStrictEqual(children(ping, WSDL, 'output'), [], 'a one-way operation has no output')
  }
})

test('docs/security.md "WS-Security": security.x509 asks for something by itself; a bad x509.signed.headers is SOAP_ERR_SERVICE_INVALID at ready()', async (t: TestContext) => {
  const app: FastifyInstance = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.service(calculator({ x509: { trust: CA, signed: { headers: [''] } } }))
  await t.assert.rejects(async () => { await app.ready() }, /"security"\.x509\.signed\.headers must be an array/)
})

type Line = Record<string, unknown>

/** Serves `wsdl` as a contract with `definition`; the error of ready(), if any, and the log lines. */
async function serveContract (t: TestContext, wsdl: string, definition: Record<string, unknown>, operations: Record<string, unknown>): Promise<{ app: FastifyInstance, error: Error | undefined, lines: Line[] }> {
  const lines: Line[] = []
  const app = Fastify({ logger: { level: 'info', stream: { write: (line: string) => { lines.push(JSON.parse(line)) } } } })
  t.after(() => app.close())
  await app.register(soap)
  app.soap.contract({ path: '/c', document: wsdl, operations, ...definition } as never)
  const error = await app.ready().then(() => undefined, (err: Error) => err)
  return { app, error, lines }
}

const addOperations = { Add: async ({ a, b }: { a: number, b: number }) => ({ result: a + b }), Ping: async () => {} }

function securityLine (lines: readonly Line[]): Line | undefined {
  return lines.find((l) => typeof l.msg === 'string' && l.msg.includes('WS-Security requires'))
}

test('docs/contract-first.md "WS-Security": the WSDL a service with security.x509 states, served as a contract with security.x509.trust, is read to the same security: an X.509 signature of the Body, the Timestamp and the signed headers of each operation, SHA-1 and a signed reply as stated; without trust, or without the reply key a signed output asks for, SOAP_ERR_SECURITY_TRUST', async (t: TestContext) => {
  const headers = [`{${NS}}Tenant`, WSA]
  const reply = { key: SERVER_KEY, certificate: SERVER_CERT }
  const plain = await wsdlOf(t, { x509: { trust: CA, signed: { headers } } })
  const served = await serveContract(t, plain, { security: { x509: { trust: CA } } }, addOperations)
  t.assert.strictEqual(served.error, undefined)
  const line = securityLine(served.lines)
  t.assert.deepStrictEqual(line?.security, { [`X.509 signature (Body, Timestamp, {${NS}}Tenant, ${WSA})`]: ['Add', 'Ping'] }, JSON.stringify(line))
  t.assert.strictEqual(line?.msg, `fastify-soap: contract Calculator: WS-Security requires X.509 signature (Body, Timestamp, {${NS}}Tenant, ${WSA}) for Add, Ping`)
  const unsigned = await served.app.inject({ method: 'POST', url: '/c', headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '"Add"' }, payload: `<?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><t:Add xmlns:t="${NS}"><t:a>1</t:a><t:b>2</t:b></t:Add></s:Body></s:Envelope>` })
  await assertX509Fault(t, unsigned, '1.1', 'InvalidSecurity', 'a request with no Security header is refused')

  const none = await serveContract(t, plain, {}, addOperations)
  t.assert.ok(none.error instanceof errorCodes.SOAP_ERR_SECURITY_TRUST, String(none.error))
  t.assert.strictEqual(none.error?.message, 'fastify-soap: contract Calculator: its WS-SecurityPolicy asks for X.509 signatures (sp:AsymmetricBinding): give "security.x509.trust"')

  const signedReplies = await wsdlOf(t, { x509: { trust: CA, allowSha1: true, reply } })
  const keyless = await serveContract(t, signedReplies, { security: { x509: { trust: CA } } }, addOperations)
  t.assert.ok(keyless.error instanceof errorCodes.SOAP_ERR_SECURITY_TRUST, String(keyless.error))
  t.assert.strictEqual(keyless.error?.message, 'fastify-soap: contract Calculator: its WS-SecurityPolicy asks for signed replies (sp:SignedParts of an output): give "security.x509.reply"')
  const keyed = await serveContract(t, signedReplies, { security: { x509: { trust: CA, reply } } }, addOperations)
  t.assert.strictEqual(keyed.error, undefined)
  t.assert.deepStrictEqual(securityLine(keyed.lines)?.security, { 'X.509 signature (Body, Timestamp; replies signed)': ['Add', 'Ping'] })
  const legacy = await serveContract(t, await wsdlOf(t, { x509: { trust: CA, allowSha1: true } }), { security: { x509: { trust: CA } } }, addOperations)
  t.assert.deepStrictEqual(securityLine(legacy.lines)?.security, { 'X.509 signature (Body, Timestamp; SHA-1 allowed)': ['Add', 'Ping'] })
})

const SP_NS_DECL = `xmlns:wsp="${WSP}" xmlns:sp="${SP}"`

/** A one-operation contract (`Op`) whose binding has `bindingPolicy` inline, and its input and output their own. */
function x509Contract (bindingPolicy: string, input = '', output = ''): string {
  const inline = (assertions: string): string => assertions === '' ? '' : `<wsp:Policy ${SP_NS_DECL}>${assertions}</wsp:Policy>`
  return contractWsdl({
    binding: `<wsdl:binding name="B" type="tns:PT">${inline(bindingPolicy)}<soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <wsdl:operation name="Op"><soap:operation soapAction="urn:svc/Op"/><wsdl:input>${inline(input)}<soap:body use="literal"/></wsdl:input><wsdl:output>${inline(output)}<soap:body use="literal"/></wsdl:output></wsdl:operation>
  </wsdl:binding>`
  })
}

const token = (role: string, parameters = '<sp:WssX509V3Token10/>', kind = 'X509Token'): string =>
  `<sp:${role}><wsp:Policy><sp:${kind}><wsp:Policy>${parameters}</wsp:Policy></sp:${kind}></wsp:Policy></sp:${role}>`
const suite = (...names: string[]): string => `<sp:AlgorithmSuite><wsp:Policy>${names.map((n) => `<sp:${n}/>`).join('')}</wsp:Policy></sp:AlgorithmSuite>`
const asymmetric = (...assertions: string[]): string => `<sp:AsymmetricBinding><wsp:Policy>${assertions.join('')}</wsp:Policy></sp:AsymmetricBinding>`
const opOperations = { Op: async () => ({ b: 'ok' }) }

test('docs/contract-first.md "WS-Security": an sp:AsymmetricBinding as WCF and CXF write it (X509 tokens, any layout, EncryptBeforeSigning, Wss10 or Wss11) is served as security.x509; a SHA-1 suite (Basic256, Basic128Rsa15) allows SHA-1, a SHA-256 one does not; sp:SignedParts on the input names the header blocks signed', async (t: TestContext) => {
  const cases: Array<[string, string, string]> = [
    [asymmetric(token('InitiatorToken', '<sp:WssX509V3Token10/><sp:RequireIssuerSerialReference/>'), token('RecipientToken', '<sp:WssX509V3Token10/><sp:RequireThumbprintReference/>'), suite('Basic256Sha256'), '<sp:Layout><wsp:Policy><sp:Strict/></wsp:Policy></sp:Layout>', '<sp:IncludeTimestamp/>', '<sp:OnlySignEntireHeadersAndBody/>') + '<sp:Wss10><wsp:Policy><sp:MustSupportRefKeyIdentifier/></wsp:Policy></sp:Wss10>',
      '<sp:SignedParts><sp:Body/><sp:Header Namespace="urn:h" Name="Tenant"/></sp:SignedParts>', 'X.509 signature (Body, Timestamp, {urn:h}Tenant)'],
    [asymmetric(token('InitiatorSignatureToken', '<sp:WssX509V3Token11/>'), token('RecipientSignatureToken'), suite('Basic256'), '<sp:EncryptBeforeSigning/>', '<sp:Layout><wsp:Policy><sp:LaxTsFirst/></wsp:Policy></sp:Layout>'),
      '', 'X.509 signature (Body, Timestamp; SHA-1 allowed)'],
    [asymmetric(token('InitiatorToken'), suite('Basic128Rsa15', 'TripleDesRsa15'), '<sp:SignBeforeEncrypting/>'),
      '<sp:SignedParts><sp:Body/><sp:Header Namespace="http://www.w3.org/2005/08/addressing"/></sp:SignedParts>', 'X.509 signature (Body, Timestamp, http://www.w3.org/2005/08/addressing; SHA-1 allowed)']
  ]
  for (const [binding, input, said] of cases) {
    const { error, lines } = await serveContract(t, x509Contract(binding, input), { security: { x509: { trust: CA } } }, opOperations)
    t.assert.strictEqual(error, undefined, `${binding}: ${String(error)}`)
    t.assert.deepStrictEqual(securityLine(lines)?.security, { [said]: ['Op'] }, binding)
  }
})

test('docs/contract-first.md "WS-Security": an sp:AsymmetricBinding asking what the plugin cannot do (encryption, a token other than X.509, an X.509 token of another kind, another algorithm suite, protected tokens), or sp:SignedParts naming attachments or nothing, refuses the contract with SOAP_ERR_CONTRACT_UNSUPPORTED saying why', async (t: TestContext) => {
  const ok = token('InitiatorToken')
  const cases: Array<[string, string, string]> = [
    [asymmetric(ok, token('RecipientEncryptionToken')), '', 'AsymmetricBinding (message encryption;'],
    [asymmetric(ok, '<sp:EncryptSignature/>'), '', 'AsymmetricBinding (message encryption;'],
    [asymmetric(token('InitiatorToken', '', 'KerberosToken')), '', 'AsymmetricBinding (a token other than an X.509 certificate;'],
    [asymmetric(token('InitiatorToken', '<sp:WssX509Pkcs7Token10/>')), '', 'AsymmetricBinding (an X.509 token with WssX509Pkcs7Token10;'],
    [asymmetric(token('InitiatorToken', '<sp:RequireDerivedKeys/>')), '', 'AsymmetricBinding (an X.509 token with RequireDerivedKeys;'],
    [asymmetric(ok, suite('Basic256Sha256', 'InclusiveC14N')), '', 'AsymmetricBinding (the algorithm suite InclusiveC14N;'],
    [asymmetric(ok, '<sp:ProtectTokens/>'), '', 'AsymmetricBinding (ProtectTokens in an asymmetric binding;'],
    [asymmetric(ok), '<sp:SignedParts><sp:Body/><sp:Attachments/></sp:SignedParts>', 'SignedParts (signed Attachments;'],
    [asymmetric(ok), '<sp:SignedParts/>', 'SignedParts (every header block signed;'],
    [asymmetric(ok), '<sp:SignedParts><sp:Header Name="H"/></sp:SignedParts>', 'SignedParts (an sp:Header with no Namespace;']
  ]
  for (const [binding, input, why] of cases) {
    const { error } = await serveContract(t, x509Contract(binding, input), { security: { x509: { trust: CA } } }, opOperations)
    t.assert.ok(error instanceof errorCodes.SOAP_ERR_CONTRACT_UNSUPPORTED, `${binding}: ${String(error)}`)
    t.assert.ok(error.message.startsWith(`fastify-soap: the contract uses the WS-Policy assertion {${SP}}${why}`), error.message)
  }
})

test('docs/contract-first.md "WS-Security": Digipoort\'s contract (an sp:AsymmetricBinding with SHA-1 suites, sp:SignedParts of WS-Addressing headers on its input) is served as security.x509 once its XPath sp:SignedElements and its output\'s signed headers are ignored', async (t: TestContext) => {
  const dir = sharedFixture(t, 'wsdl', 'digipoort-aanleverservice')
  if (dir === undefined) return
  const wsdl = readFileSync(join(dir, '1.wsdl'), 'utf8')
  const ignored = ['SignedElements', 'SignedParts'].map((name) => `{${SP}}${name}`)
  const lines: Line[] = []
  const app = Fastify({ logger: { level: 'info', stream: { write: (line: string) => { lines.push(JSON.parse(line)) } } } })
  t.after(() => app.close())
  await app.register(soap)
  app.soap.contract({ path: '/aanlever', wsdl: join(dir, '1.wsdl'), catalog: { '/cpl/digipoort-koppelvlak-1.2.xsd': './digipoort-koppelvlak-1.xsd' }, ignorePolicyAssertions: ignored, unimplemented: 'fault', operations: {}, security: { x509: { trust: CA } } } as never)
  await app.ready()
  t.assert.match(wsdl, /<sp:AsymmetricBinding>/)
  t.assert.deepStrictEqual(securityLine(lines)?.security, { 'X.509 signature (Body, Timestamp; SHA-1 allowed)': ['aanleveren'] })
})

test('docs/wsdl.md "Policy": with x509.signed.usernameToken the UsernameToken is stated in sp:SignedSupportingTokens; served as a contract, it reads back to a UsernameToken the X.509 signature covers', async (t: TestContext) => {
  const wsdl = await wsdlOf(t, { usernameToken: { lookup: () => 'demo' }, x509: { trust: CA, signed: { usernameToken: true } } })
  assertValidWsdl(t, wsdl)
  const definitions = new DOMParser().parseFromString(wsdl, 'text/xml').documentElement as DomElement
  const endpoint = policyById(t, definitions, 'CalculatorPolicy')
  t.assert.deepStrictEqual(endpoint.map((a) => a.localName), ['AsymmetricBinding', 'Wss11', 'SignedSupportingTokens'])
  t.assert.deepStrictEqual(nested(t, endpoint[2]).map((a) => a.localName), ['UsernameToken'])
  const served = await serveContract(t, wsdl, { security: { usernameToken: { lookup: () => 'demo' }, x509: { trust: CA } } }, addOperations)
  t.assert.strictEqual(served.error, undefined)
  t.assert.deepStrictEqual(securityLine(served.lines)?.security, { 'UsernameToken (text or digest) and X.509 signature (Body, Timestamp, UsernameToken)': ['Add', 'Ping'] })
})
