/**
 * docs/security.md "Signed replies": with security.x509.reply a service signs
 * each reply's Body and a Timestamp of its wsse:Security header, with its
 * certificate as a BinarySecurityToken; verified by xmlsec1 (the XMLDSig
 * reference) and by the plugin's own verifier, in both SOAP versions.
 */
import { test, type TestContext } from 'node:test'
import { spawnSync } from 'node:child_process'
import { X509Certificate } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { SoapServiceDefinition, SoapVersion } from '../../../lib/index'
import { post } from '../../helper'
import { hasXmlsec } from './x509-support'
import { CA_PEM, SERVER_KEY, SERVER_PEM, buildSigned, send, signedRequest, signedService, subjectOf } from './x509-messages'
import { WSSE, WSU } from './ws-security-support'

const NS = 'urn:test:signed'
const REPLY = { key: SERVER_KEY, certificate: SERVER_PEM }

/** The certificate of the reply's BinarySecurityToken, as PEM. */
function tokenCertificate (t: TestContext, reply: string): X509Certificate {
  const token = /<wsse:BinarySecurityToken [^>]*>([A-Za-z0-9+/=]+)<\/wsse:BinarySecurityToken>/.exec(reply)
  t.assert.ok(token !== null, reply)
  return new X509Certificate(Buffer.from(token[1], 'base64'))
}

/**
 * xmlsec1 --verify of a reply with the public key of its BinarySecurityToken's certificate (xmlsec1 knows no
 * wsse:SecurityTokenReference), the Body and the Timestamp found by their Id.
 */
function xmlsecVerify (t: TestContext, xml: string, certificate: X509Certificate): { status: number | null, output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'fastify-soap-reply-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(join(dir, 'reply.xml'), xml)
  writeFileSync(join(dir, 'signer.pem'), certificate.toString())
  const run = spawnSync('xmlsec1', ['--verify', '--pubkey-cert-pem', join(dir, 'signer.pem'), '--id-attr:Id', 'Body',
    '--id-attr:Id', 'Timestamp', join(dir, 'reply.xml')], { timeout: 20_000, encoding: 'utf8' })
  return { status: run.status, output: `${run.stdout}${run.stderr}` }
}

/** A service taking the Echo reply as its request, and answering the subject of its signer. */
function mirror (): SoapServiceDefinition {
  const echoed = { type: 'object', properties: { text: { type: 'string' }, subject: { type: 'string' }, from: { type: 'string' } }, additionalProperties: false } as const
  const subject = { type: 'object', properties: { signer: { type: 'string' } }, additionalProperties: false } as const
  return {
    path: '/mirror',
    namespace: NS,
    name: 'Mirror',
    operations: {
      EchoResponse: { input: echoed, output: subject, async handler (_input: unknown, call: { soap: { principal?: { subject: string } } }) { return { signer: call.soap.principal?.subject ?? '(none)' } } } as never
    },
    security: { x509: { trust: CA_PEM } }
  }
}

async function signedApp (t: TestContext, security: Record<string, unknown> = {}): Promise<FastifyInstance> {
  return await buildSigned(t, signedService({ ...security, x509: { reply: REPLY, ...(security.x509 as object) } }))
}

for (const version of ['1.1', '1.2'] as SoapVersion[]) {
  test(`docs/security.md "Signed replies": a reply is signed (Body and Timestamp) by the service's certificate, sent as a BinarySecurityToken; xmlsec1 verifies it, and not once its Body is changed; the plugin's own verifier accepts it (SOAP ${version})`, async (t: TestContext) => {
    const app = await signedApp(t)
    const response = await send(app, signedRequest({ version }), version)
    t.assert.strictEqual(response.statusCode, 200, response.body)
    const reply = response.body
    t.assert.match(reply, new RegExp(`<soap:Header><wsse:Security xmlns:wsse="${WSSE}" xmlns:wsu="${WSU}" soap:mustUnderstand="1"><wsu:Timestamp wsu:Id="(TS-[0-9a-f]+)"><wsu:Created>[^<]+</wsu:Created><wsu:Expires>[^<]+</wsu:Expires></wsu:Timestamp><wsse:BinarySecurityToken [^>]+>[^<]+</wsse:BinarySecurityToken><ds:Signature [^]*</ds:Signature></wsse:Security></soap:Header><soap:Body xmlns:wsu="${WSU}" wsu:Id="Body-[0-9a-f]+">`))
    t.assert.strictEqual(reply.match(/<ds:Reference /g)?.length, 2, 'the Body and the Timestamp')
    t.assert.match(reply, /<tns:text>hello<\/tns:text>/)
    const certificate = tokenCertificate(t, reply)
    t.assert.strictEqual(certificate.fingerprint256, new X509Certificate(SERVER_PEM).fingerprint256, 'the service\'s certificate')
    t.assert.ok(certificate.verify(new X509Certificate(CA_PEM).publicKey), 'issued by the CA the client trusts')

    const mirrored = await buildSigned(t, mirror())
    const checked = await post(mirrored, version, reply, { url: '/mirror', headers: { soapaction: '""' } })
    t.assert.strictEqual(checked.statusCode, 200, checked.body)
    t.assert.match(checked.body, /<tns:signer>CN=demo server \(test only\)\nO=fastify-soap demo<\/tns:signer>|<tns:signer>O=fastify-soap demo\nCN=demo server \(test only\)<\/tns:signer>/)
    const forged = await post(mirrored, version, reply.replace('<tns:text>hello</tns:text>', '<tns:text>hellO</tns:text>'), { url: '/mirror', headers: { soapaction: '""' } })
    t.assert.notStrictEqual(forged.statusCode, 200, 'a changed Body fails the plugin\'s own check')

    if (!hasXmlsec(t)) return
    const verified = xmlsecVerify(t, reply, certificate)
    t.assert.strictEqual(verified.status, 0, verified.output)
    t.assert.match(verified.output, /OK/)
    const changed = xmlsecVerify(t, reply.replace('<tns:text>hello</tns:text>', '<tns:text>hellO</tns:text>'), certificate)
    t.assert.notStrictEqual(changed.status, 0, changed.output)
    // Refused for the digest of the changed Body, not for anything else.
    t.assert.match(changed.output, /data and digest do not match[^]*\nFAIL\n/)
  })
}

test('docs/security.md "Signed replies": faults are not signed; with timestamp.reply the one Timestamp is the signed one; a key that is not the certificate\'s is SOAP_ERR_SERVICE_INVALID at ready()', async (t: TestContext) => {
  const app = await signedApp(t, { timestamp: { reply: true } })
  const fault = await send(app, signedRequest({ version: '1.2' }).replace('<t:text>hello</t:text>', '<t:text>changed</t:text>'), '1.2')
  t.assert.strictEqual(fault.statusCode, 400, fault.body)
  t.assert.doesNotMatch(fault.body, /wsse:Security|ds:Signature/, 'a fault is not signed')
  const reply = await send(app, signedRequest({ version: '1.2' }), '1.2')
  t.assert.strictEqual(reply.statusCode, 200, reply.body)
  t.assert.match(String(subjectOf(reply.body)), /demo client/)
  t.assert.strictEqual(reply.body.match(/<wsse:Security /g)?.length, 1, reply.body)
  t.assert.strictEqual(reply.body.match(/<wsu:Timestamp /g)?.length, 1, reply.body)
  const mismatched = buildSigned(t, signedService({ x509: { reply: { key: SERVER_KEY, certificate: CA_PEM } } }))
  await t.assert.rejects(mismatched, /"security"\.x509\.reply/)
})

test('docs/binary.md "MTOM": a signed reply is a plain envelope, never an MTOM package, even where every reply would be one (mtom: \'always\')', async (t: TestContext) => {
  const app = await buildSigned(t, { ...signedService({ x509: { reply: REPLY } }), mtom: 'always' } as SoapServiceDefinition)
  const reply = await send(app, signedRequest({ version: '1.2' }), '1.2')
  t.assert.strictEqual(reply.statusCode, 200, reply.body)
  t.assert.strictEqual(reply.headers['content-type'], 'application/soap+xml; charset=utf-8')
  t.assert.match(reply.body, /^<\?xml [^>]*\?><soap:Envelope [^>]*><soap:Header><wsse:Security /)
  const unsigned = await buildSigned(t, { ...signedService(), path: '/signed', mtom: 'always' } as SoapServiceDefinition)
  const packaged = await send(unsigned, signedRequest({ version: '1.2' }), '1.2')
  t.assert.match(String(packaged.headers['content-type']), /^multipart\/related;/, 'unsigned, the same reply is a package')
})
