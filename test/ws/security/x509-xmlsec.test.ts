/**
 * Requests signed by xmlsec1 (the XMLDSig reference implementation, on libxml2) verified by the plugin
 * (docs/security.md "X.509 signatures"): a template of the Security header xmlsec1 fills in, with each
 * KeyInfo of the X.509 Token Profile, RSA and ECDSA, a PrefixList. Skipped with one line when xmlsec1 is
 * missing (under CI it fails).
 */
import { test, type TestContext } from 'node:test'
import { spawnSync } from 'node:child_process'
import { createHash, X509Certificate } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { envelope } from '../../helper'
import { hasXmlsec } from './x509-support'
import { WSSE, WSU, instant, timestamp } from './ws-security-support'
import {
  BASE64, CLIENT_PEM, DEMO, DS, EXC, FIXTURE_X509, NS, SKI, THUMBPRINT, X509V3, assertX509Fault, buildSigned, send,
  signedService, subjectKeyIdentifier, subjectOf
} from './x509-messages'

interface Template {
  readonly version: '1.1' | '1.2'
  readonly keyInfo: 'bst' | 'ski' | 'thumbprint'
  readonly method?: string
  readonly digest?: string
  readonly prefixList?: string
  readonly key?: string
  readonly certificate?: string
}

/** The envelope with a Signature template (empty DigestValues and SignatureValue) xmlsec1 --sign fills in. */
function template (options: Template): string {
  const certificate = new X509Certificate(readFileSync(options.certificate ?? join(DEMO, 'test-client.pem')))
  const inclusive = options.prefixList === undefined ? '' : `<ec:InclusiveNamespaces xmlns:ec="${EXC}" PrefixList="${options.prefixList}"/>`
  const reference = (id: string): string => `<ds:Reference URI="#${id}"><ds:Transforms><ds:Transform Algorithm="${EXC}">${inclusive}</ds:Transform></ds:Transforms>` +
    `<ds:DigestMethod Algorithm="${options.digest ?? 'http://www.w3.org/2001/04/xmlenc#sha256'}"/><ds:DigestValue/></ds:Reference>`
  const str = {
    bst: `<wsse:Reference URI="#X509-1" ValueType="${X509V3}"/>`,
    ski: `<wsse:KeyIdentifier ValueType="${SKI}" EncodingType="${BASE64}">${subjectKeyIdentifier(certificate).toString('base64')}</wsse:KeyIdentifier>`,
    thumbprint: `<wsse:KeyIdentifier ValueType="${THUMBPRINT}" EncodingType="${BASE64}">${createHash('sha1').update(certificate.raw).digest('base64')}</wsse:KeyIdentifier>`
  }[options.keyInfo]
  const token = options.keyInfo === 'bst' ? `<wsse:BinarySecurityToken wsu:Id="X509-1" ValueType="${X509V3}" EncodingType="${BASE64}">${certificate.raw.toString('base64')}</wsse:BinarySecurityToken>` : ''
  const signature = `<ds:Signature xmlns:ds="${DS}"><ds:SignedInfo><ds:CanonicalizationMethod Algorithm="${EXC}">${inclusive}</ds:CanonicalizationMethod>` +
    `<ds:SignatureMethod Algorithm="${options.method ?? 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256'}"/>${reference('Body-1')}${reference('TS-1')}</ds:SignedInfo>` +
    `<ds:SignatureValue/><ds:KeyInfo><wsse:SecurityTokenReference>${str}</wsse:SecurityTokenReference></ds:KeyInfo></ds:Signature>`
  const ts = timestamp(instant(), instant(300_000)).replace('<wsu:Timestamp>', '<wsu:Timestamp wsu:Id="TS-1">')
  return envelope(options.version, `<t:Echo xmlns:t="${NS}"><t:text>hello</t:text></t:Echo>`,
    `<wsse:Security xmlns:wsse="${WSSE}">${ts}${token}${signature}</wsse:Security>`, ` xmlns:wsu="${WSU}"`)
    .replace('<s:Body>', '<s:Body wsu:Id="Body-1">')
}

/** The template signed by xmlsec1 --sign with the key and certificate given. */
function xmlsecSign (t: TestContext, options: Template): string {
  const dir = mkdtempSync(join(tmpdir(), 'xmlsec-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(join(dir, 'template.xml'), template(options))
  const key = `${options.key ?? join(DEMO, 'test-client.key')},${options.certificate ?? join(DEMO, 'test-client.pem')}`
  const run = spawnSync('xmlsec1', ['--sign', '--privkey-pem', key, '--id-attr:Id', 'Body', '--id-attr:Id', 'Timestamp',
    '--output', join(dir, 'signed.xml'), join(dir, 'template.xml')], { timeout: 20_000, encoding: 'utf8' })
  t.assert.strictEqual(run.status, 0, `${run.stdout}${run.stderr}`)
  return readFileSync(join(dir, 'signed.xml'), 'utf8')
}

const CLIENT = 'O=fastify-soap demo\nCN=demo client (test only)'

for (const version of ['1.1', '1.2'] as const) {
  test(`docs/security.md "X.509 signatures": a request xmlsec1 signed (RSA-SHA256, a BinarySecurityToken reference) is accepted, and refused once its Body changes (SOAP ${version})`, async (t: TestContext) => {
    if (!hasXmlsec(t)) return
    const app = await buildSigned(t, signedService({ replay: false }))
    const signed = xmlsecSign(t, { version, keyInfo: 'bst' })
    t.assert.match(signed, /<ds:SignatureValue>[A-Za-z0-9+/=]+\n/, 'xmlsec1 breaks the Base64 in lines')
    const response = await send(app, signed, version)
    t.assert.strictEqual(response.statusCode, 200, response.body)
    t.assert.strictEqual(subjectOf(response.body), CLIENT)
    await assertX509Fault(t, await send(app, signed.replace('<t:text>hello</t:text>', '<t:text>hellO</t:text>'), version), version, 'FailedCheck', 'Body changed')
  })

  test(`docs/security.md "X.509 signatures": requests xmlsec1 signed with a KeyIdentifier (SKI, thumbprint), RSA-SHA512 and SHA-512, a PrefixList, are accepted (SOAP ${version})`, async (t: TestContext) => {
    if (!hasXmlsec(t)) return
    // No replay store: the KeyInfo is not signed, so two of these within a second have one SignatureValue.
    const app = await buildSigned(t, signedService({ replay: false, x509: { trust: [readFileSync(join(DEMO, 'test-ca.pem'), 'utf8'), CLIENT_PEM] } }))
    for (const options of [
      { version, keyInfo: 'ski' },
      { version, keyInfo: 'thumbprint' },
      { version, keyInfo: 'bst', method: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512', digest: 'http://www.w3.org/2001/04/xmlenc#sha512' },
      { version, keyInfo: 'bst', prefixList: 'wsu s' }
    ] as Template[]) {
      const response = await send(app, xmlsecSign(t, options), version)
      t.assert.strictEqual(response.statusCode, 200, `${JSON.stringify(options)}: ${response.body}`)
    }
  })
}

test('XMLDSig 1.1 §6.4.3: a request xmlsec1 signed with ECDSA-SHA256 by an EC P-256 certificate is accepted', async (t: TestContext) => {
  if (!hasXmlsec(t)) return
  const app = await buildSigned(t)
  const signed = xmlsecSign(t, {
    version: '1.2',
    keyInfo: 'bst',
    method: 'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256',
    key: join(FIXTURE_X509, 'ec-client.key'),
    certificate: join(FIXTURE_X509, 'ec-client.pem')
  })
  const response = await send(app, signed)
  t.assert.strictEqual(response.statusCode, 200, response.body)
  t.assert.match(subjectOf(response.body) ?? '', /ec-client/)
})
