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
import soap, { type SoapSecurityOptions, type SoapServiceDefinition } from '../../../lib/index'
import { requireXmllint, sharedFixture } from '../../helper'

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
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.service(calculator(security))
  await app.ready()
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

test('docs/wsdl.md "Policy": with x509.reply the recipient token is sent to the initiator (AlwaysToInitiator) and each output states sp:SignedParts with the Body; allowSha1 states the Basic256 suite; a UsernameToken is stated beside the binding', async (t: TestContext) => {
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
  t.assert.deepStrictEqual(nested(t, binding[2]).map((a) => a.localName), ['Basic256'])
  t.assert.deepStrictEqual(children(policyById(t, definitions, 'CalculatorInputPolicy')[0], SP).map((p) => p.localName), ['Body'])
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
