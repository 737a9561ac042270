/**
 * Making an XML Signature (lib/ws/security/sign.ts; docs/security.md "X.509
 * signatures"): the BinarySecurityToken and ds:Signature it writes verify
 * with xmlsec1, the reference implementation of XMLDSig, for an RSA key and
 * an EC key; changed by one character, they do not. Skipped with one line
 * when xmlsec1 is missing (under CI it fails).
 */
import { test, type TestContext } from 'node:test'
import { spawnSync } from 'node:child_process'
import { generateKeyPairSync } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readSigningView, type SigningElement } from '../../../lib/xml/c14n'
import { signElements, x509Signer } from '../../../lib/ws/security/sign'
import { envelope, missing } from '../../helper'
import { hasXmlsec } from './x509-support'
import { WSSE, WSU, instant, timestamp } from './ws-security-support'

const DEMO = join(__dirname, '..', '..', '..', '..', 'test', 'demo', 'x509')
const CLIENT_PEM = readFileSync(join(DEMO, 'test-client.pem'), 'utf8')
const CLIENT_KEY = readFileSync(join(DEMO, 'test-client.key'), 'utf8')

/** xmlsec1 --verify of `xml`, given the signer's certificate (xmlsec1 knows no wsse:SecurityTokenReference). */
function xmlsecVerify (t: TestContext, xml: string, certificatePem: string): { status: number | null, output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'xmlsec-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(join(dir, 'message.xml'), xml)
  writeFileSync(join(dir, 'signer.pem'), certificatePem)
  const run = spawnSync('xmlsec1', [
    '--verify', '--pubkey-cert-pem', join(dir, 'signer.pem'), '--id-attr:Id', 'Body', '--id-attr:Id', 'Timestamp',
    join(dir, 'message.xml')
  ], { timeout: 20_000, encoding: 'utf8' })
  return { status: run.status, output: `${run.stdout}${run.stderr}` }
}

function byId (root: SigningElement, id: string): SigningElement {
  const stack = [root]
  while (stack.length > 0) {
    const e = stack.pop() as SigningElement
    if (e.attributes.some((a) => a.localName === 'Id' && a.value === id)) return e
    for (const c of e.children) if (typeof c !== 'string') stack.push(c)
  }
  throw new Error(`no element with Id ${id}`)
}

/** An envelope whose Body and Timestamp sign.ts signs with `key` and `certificate`. */
function signed (version: '1.1' | '1.2', key: string, certificate: string): string {
  const ts = timestamp(instant(), instant(300_000)).replace('<wsu:Timestamp>', '<wsu:Timestamp wsu:Id="TS-1">')
  const text = envelope(version, '<t:Echo xmlns:t="urn:test:signed"><t:text>hello</t:text></t:Echo>',
    `<wsse:Security xmlns:wsse="${WSSE}" xmlns:wsu="${WSU}">${ts}<!--SIG--></wsse:Security>`, ` xmlns:wsu="${WSU}"`)
    .replace('<s:Body>', '<s:Body wsu:Id="Body-1">')
  const view = readSigningView(text)
  const parts = ['Body-1', 'TS-1'].map((id) => ({ element: byId(view, id), id }))
  return text.replace('<!--SIG-->', signElements(parts, x509Signer(key, certificate)))
}

/** A self-signed EC P-256 certificate and its key, made by openssl; undefined when openssl is missing. */
function ecSigner (t: TestContext): { key: string, certificate: string } | undefined {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const key = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string
  const dir = mkdtempSync(join(tmpdir(), 'ec-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(join(dir, 'ec.key'), key)
  const run = spawnSync('openssl', ['req', '-x509', '-key', join(dir, 'ec.key'), '-subj', '/CN=ec test', '-days', '1',
    '-out', join(dir, 'ec.pem')], { timeout: 20_000 })
  if (run.error !== undefined || run.status !== 0) {
    missing(t, 'openssl is not installed')
    return undefined
  }
  return { key, certificate: readFileSync(join(dir, 'ec.pem'), 'utf8') }
}

for (const version of ['1.1', '1.2'] as const) {
  test(`docs/security.md "X.509 signatures": sign.ts's BinarySecurityToken and RSA-SHA256 Signature over the Body and Timestamp verify with xmlsec1, and not once the Body is changed (SOAP ${version})`, (t: TestContext) => {
    if (!hasXmlsec(t)) return
    const message = signed(version, CLIENT_KEY, CLIENT_PEM)
    t.assert.ok(message.includes('rsa-sha256'), message)
    const good = xmlsecVerify(t, message, CLIENT_PEM)
    t.assert.strictEqual(good.status, 0, good.output)
    t.assert.match(good.output, /SignedInfo References \(ok\/all\): 2\/2/)
    const bad = xmlsecVerify(t, message.replace('<t:text>hello</t:text>', '<t:text>hellO</t:text>'), CLIENT_PEM)
    t.assert.notStrictEqual(bad.status, 0, bad.output)
    // Refused for the digest of the changed Body, not for anything else.
    t.assert.match(bad.output, /data and digest do not match[^]*\nFAIL\n/)
  })
}

test('docs/security.md "X.509 signatures": sign.ts signs with ECDSA-SHA256 for an EC key, its r || s value verified by xmlsec1', (t: TestContext) => {
  if (!hasXmlsec(t)) return
  const ec = ecSigner(t)
  if (ec === undefined) return
  const message = signed('1.2', ec.key, ec.certificate)
  t.assert.ok(message.includes('ecdsa-sha256'), message)
  const good = xmlsecVerify(t, message, ec.certificate)
  t.assert.strictEqual(good.status, 0, good.output)
  const bad = xmlsecVerify(t, message.replace('<t:text>hello</t:text>', '<t:text>hellO</t:text>'), ec.certificate)
  t.assert.notStrictEqual(bad.status, 0, bad.output)
  // Refused for the digest of the changed Body, not for anything else.
  t.assert.match(bad.output, /data and digest do not match[^]*\nFAIL\n/)
})

test('docs/security.md "X.509 signatures": x509Signer refuses a key that is not the certificate\'s, a DSA key, and an Id that is not an NCName', (t: TestContext) => {
  const server = readFileSync(join(DEMO, 'test-server.key'), 'utf8')
  t.assert.throws(() => x509Signer(server, CLIENT_PEM), /not the certificate's/)
  const dsa = generateKeyPairSync('dsa', { modulusLength: 1024, divisorLength: 160 }).privateKey
  t.assert.throws(() => x509Signer(dsa, CLIENT_PEM), /must be RSA or EC, not dsa/)
  const view = readSigningView('<a Id="x y"/>')
  t.assert.throws(() => signElements([{ element: view, id: 'x y' }], x509Signer(CLIENT_KEY, CLIENT_PEM)), /NCName/)
})
