/**
 * The `security.x509` key (docs/security.md "X.509 signatures"): checked at ready(), each mistake
 * SOAP_ERR_SERVICE_INVALID naming it; with x509, a Timestamp is required, and x509 alone is a security.
 */
import { X509Certificate } from 'node:crypto'
import { test, type TestContext } from 'node:test'
import type { SoapSecurityOptions } from '../../../lib/index'
import { assertServiceInvalid, envelope } from '../../helper'
import { instant, security, timestamp } from './ws-security-support'
import { CA_PEM, CLIENT_KEY, CLIENT_PEM, NS, SERVER_KEY, assertX509Fault, buildSigned, send, signedRequest, signedService } from './x509-messages'

test('docs/security.md "X.509 signatures": a bad `security.x509` is SOAP_ERR_SERVICE_INVALID at ready()', async (t: TestContext) => {
  const lookup = (): string => 'x'
  const cases: Record<string, unknown> = {
    '.x509 must be an object': { x509: 'yes' },
    '.x509 has an unknown key "trusted"': { x509: { trusted: CA_PEM } },
    '.x509.allowSha1 must be a boolean': { x509: { trust: CA_PEM, allowSha1: 'yes' } },
    '.x509.signed must be an object': { x509: { trust: CA_PEM, signed: [] } },
    '.x509.signed has an unknown key "body"': { x509: { trust: CA_PEM, signed: { body: true } } },
    '.x509.signed.headers must be an array': { x509: { trust: CA_PEM, signed: { headers: '{urn:x}To' } } },
    '.x509.signed.usernameToken must be a boolean': { x509: { trust: CA_PEM, signed: { usernameToken: 1 } } },
    'but usernameToken is not required': { x509: { trust: CA_PEM, signed: { usernameToken: true } } },
    '.x509.reply must be an object': { x509: { trust: CA_PEM, reply: CLIENT_KEY } },
    '.x509.reply has an unknown key "cert"': { x509: { trust: CA_PEM, reply: { key: CLIENT_KEY, cert: CLIENT_PEM } } },
    ".x509.reply: the key is not the certificate's": { x509: { trust: CA_PEM, reply: { key: SERVER_KEY, certificate: CLIENT_PEM } } },
    // OpenSSL's own words follow, which its versions word differently.
    '.x509.reply: error:': { x509: { trust: CA_PEM, reply: { key: 'not a key', certificate: CLIENT_PEM } } },
    '.x509.trust holds no PEM certificate': { x509: { trust: 'no PEM here' } },
    '.x509.lookup must be a function': { x509: { trust: CA_PEM, lookup: true }, usernameToken: { lookup } }
  }
  await assertServiceInvalid(t, cases, (value) => ({ ...signedService(), security: value as SoapSecurityOptions }))
  // Right, they start and answer: a reply signer of a matching key and certificate, signed headers, SHA-1 refused.
  const app = await buildSigned(t, signedService({ x509: { reply: { key: CLIENT_KEY, certificate: CLIENT_PEM }, signed: { headers: ['urn:x'] }, allowSha1: false } }))
  const response = await send(app, signedRequest())
  t.assert.strictEqual(response.statusCode, 200, response.body)
  const token = /<wsse:BinarySecurityToken [^>]*>([^<]+)</.exec(response.body)?.[1]
  t.assert.strictEqual(token, new X509Certificate(CLIENT_PEM).raw.toString('base64'), 'the reply is signed with its certificate')
})

for (const version of ['1.1', '1.2'] as const) {
  test(`docs/security.md "X.509 signatures": x509 alone is a security, and it requires a Timestamp (SOAP ${version})`, async (t: TestContext) => {
    const app = await buildSigned(t)
    const body = `<t:Echo xmlns:t="${NS}"><t:text>hi</t:text></t:Echo>`
    await assertX509Fault(t, await send(app, envelope(version, body), version), version, 'InvalidSecurity', 'no Security header')
    await assertX509Fault(t, await send(app, envelope(version, body, security(timestamp(instant(), instant(1000)))), version), version, 'InvalidSecurity', 'a Timestamp, unsigned')
    const response = await send(app, signedRequest({ version }), version)
    t.assert.strictEqual(response.statusCode, 200, response.body)
  })
}
