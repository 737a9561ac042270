/**
 * The trust store of X.509 certificates (docs/security.md "Trust and the
 * principal"): the certificates a message's references name (WSS X.509
 * Token Profile 1.1 §3.2), the chain, dates and key usage of a certificate
 * (RFC 5280), the principal; and the caller's certificate from TLS or a
 * TLS-terminating proxy (docs/security.md "Client certificates"), through
 * fastify.inject and over real loopback HTTPS.
 */
import { test, type TestContext } from 'node:test'
import { execFileSync } from 'node:child_process'
import { X509Certificate, createHash } from 'node:crypto'
import { once } from 'node:events'
import { request as httpsRequest } from 'node:https'
import type { FastifyInstance, FastifyServerOptions } from 'fastify'
import type { SoapSecurityOptions, SoapServiceDefinition, SoapVersion } from '../../../lib/index'
import { SoapFault } from '../../../lib/soap/fault'
import { compileTrust, type TrustStore } from '../../../lib/ws/security/trust'
import { certificateFacts, nameOf, parseName, tlvAt } from '../../../lib/ws/security/certificate'
import { headerCertificate } from '../../../lib/ws/security/client-certificate'
import { assertServiceInvalid, assertValidEnvelope, envelope, MEDIA, missing, serviceApp } from '../../helper'
import { WSU, instant, security, timestamp, usernameToken } from './ws-security-support'
import { certificate, publicKeyBits, x509File } from './x509-support'
import { assertX509Fault } from './x509-messages'

const SKEW = 60_000

class Bad extends Error {}
const bad = (problem: string): never => { throw new Bad(problem) }

function store (trust: unknown, lookup?: unknown): TrustStore {
  return compileTrust(bad, lookup === undefined ? { trust } : { trust, lookup }, SKEW)
}

const pem = (name: string): string => x509File(`${name}.pem`)
const sha1 = (bytes: Buffer): Buffer => createHash('sha1').update(bytes).digest()
const thumbprint = (name: string) => ({ kind: 'thumbprint', value: sha1(certificate(name).raw) }) as const

/** The problem `bad` was called with, or undefined. */
function problemOf (make: () => unknown): string | undefined {
  try {
    make()
  } catch (err) {
    if (err instanceof Bad) return err.message
    throw err
  }
  return undefined
}

/** Whether check() accepts the certificate: it gives the certificate's principal (any refusal throws). */
async function accepted (trust: TrustStore, cert: X509Certificate, now = Date.now()): Promise<boolean> {
  return (await trust.check(cert, now, 'Op', 'signature')).fingerprint256 === cert.fingerprint256
}

/** Whether check() refuses with wsse:FailedAuthentication. */
async function refused (trust: TrustStore, cert: X509Certificate, now = Date.now()): Promise<boolean> {
  try {
    await trust.check(cert, now, 'Op', 'signature')
    return false
  } catch (err) {
    if (!(err instanceof SoapFault)) throw err
    return err.subcodes[0]?.localName === 'FailedAuthentication' &&
      err.reasons[0]?.text === 'The security token could not be authenticated or authorized'
  }
}

test('docs/security.md "Trust and the principal": trust is PEM text or a Buffer, one certificate or several, or an array of them; anything else is a startup error', (t: TestContext) => {
  const ca = pem('test-ca')
  const both = ca + '\n' + pem('partner')
  for (const trust of [ca, Buffer.from(ca), both, [ca], [Buffer.from(ca), pem('partner')]]) {
    t.assert.strictEqual(store(trust).find(thumbprint('test-ca'))?.fingerprint256, certificate('test-ca').fingerprint256)
  }
  t.assert.strictEqual(store(both).find(thumbprint('partner'))?.subject, certificate('partner').subject)
  t.assert.strictEqual(store([Buffer.from(ca), pem('partner')]).find(thumbprint('partner'))?.subject, certificate('partner').subject)
  const broken = ca.replace(/\n[A-Za-z0-9+/]{12}/, '\nAAAAAAAAAAAA')
  // rsaEncryption made 1.2.840.113549.1.1.99: the DER reads, the key (decoded when first asked for) does not.
  const der = Buffer.from(certificate('test-ca').raw)
  der[der.indexOf(Buffer.from('06092a864886f70d010101', 'hex')) + 10] = 99
  const keyless = `-----BEGIN CERTIFICATE-----\n${der.toString('base64')}\n-----END CERTIFICATE-----\n`
  const cases: Array<[string, unknown, unknown?]> = [
    ['.x509.trust is empty', []],
    ['.x509.trust must be PEM text or a Buffer', undefined],
    ['.x509.trust[1] must be PEM text or a Buffer', [ca, 42]],
    ['.x509.trust holds no PEM certificate', 'not a certificate'],
    ['.x509.trust[0] holds no PEM certificate', [Buffer.from(certificate('test-ca').raw)]],
    ['.x509.trust holds a PRIVATE KEY, not a CERTIFICATE', ca + x509File('partner.key')],
    ['.x509.trust holds a CERTIFICATE that cannot be read', broken],
    ['.x509.trust holds a certificate whose key cannot be read', keyless],
    ['.x509.lookup must be a function', ca, 'yes']
  ]
  for (const [message, trust, lookup] of cases) {
    const problem = problemOf(() => store(trust, lookup))
    t.assert.ok(problem?.startsWith(message), `${message}: ${problem}`)
  }
  t.assert.strictEqual(problemOf(() => compileTrust(bad, { trust: [] }, SKEW, '.clientCertificate')),
    '.clientCertificate.trust is empty: give one PEM certificate or more')
})

test('WSS X.509 Token Profile 1.1 §3.2.1: a ThumbprintSHA1 KeyIdentifier names the trusted certificate whose DER has that SHA-1; no other is found', (t: TestContext) => {
  const trust = store([pem('test-ca'), pem('partner')])
  t.assert.strictEqual(trust.find(thumbprint('partner'))?.fingerprint256, certificate('partner').fingerprint256)
  t.assert.strictEqual(trust.find(thumbprint('test-ca'))?.fingerprint256, certificate('test-ca').fingerprint256)
  // Issued by a trusted CA is not given in trust: a reference finds only what trust holds.
  t.assert.strictEqual(trust.find(thumbprint('test-client')), undefined)
  t.assert.strictEqual(trust.find({ kind: 'thumbprint', value: Buffer.alloc(20) }), undefined)
})

/** The subjectKeyIdentifier extension's value, as OpenSSL prints it; undefined without one. */
function opensslKeyIdentifier (name: string): Buffer | undefined {
  const file = name.startsWith('test-') ? `test/demo/x509/${name}.pem` : `test/fixtures/x509/${name}.pem`
  const text = execFileSync('openssl', ['x509', '-in', file, '-noout', '-ext', 'subjectKeyIdentifier'], { encoding: 'latin1' })
  const hex = /\n\s*([0-9A-F:]+)\s*$/.exec(text)?.[1]
  return hex === undefined ? undefined : Buffer.from(hex.replace(/:/g, ''), 'hex')
}

test('WSS X.509 Token Profile 1.1 §3.2.1: an X509SubjectKeyIdentifier names the certificate by its subjectKeyIdentifier extension, or, without one, by the SHA-1 of its public key', (t: TestContext) => {
  if (!hasOpenssl()) return missing(t, 'openssl')
  const names = ['test-ca', 'test-client', 'ec-client', 'custom-ski', 'no-ski', 'partner']
  const trust = store(names.map(pem))
  for (const name of ['test-ca', 'test-client', 'ec-client', 'custom-ski', 'partner']) {
    const value = opensslKeyIdentifier(name)
    t.assert.ok(value !== undefined, name)
    t.assert.strictEqual(trust.find({ kind: 'subjectKeyIdentifier', value })?.fingerprint256, certificate(name).fingerprint256, name)
  }
  // The extension's value counts, not the key's hash, when they differ.
  t.assert.deepStrictEqual(opensslKeyIdentifier('custom-ski'), Buffer.from('0123456789abcdef', 'hex'))
  t.assert.strictEqual(trust.find({ kind: 'subjectKeyIdentifier', value: sha1(publicKeyBits(certificate('custom-ski'))) }), undefined)
  t.assert.strictEqual(opensslKeyIdentifier('no-ski'), undefined)
  const computed = sha1(publicKeyBits(certificate('no-ski')))
  t.assert.strictEqual(trust.find({ kind: 'subjectKeyIdentifier', value: computed })?.fingerprint256, certificate('no-ski').fingerprint256)
  t.assert.strictEqual(store(pem('test-ca')).find({ kind: 'subjectKeyIdentifier', value: computed }), undefined)
})

function hasOpenssl (): boolean {
  try {
    execFileSync('openssl', ['version'])
    return true
  } catch {
    return false
  }
}

const decimal = (cert: X509Certificate): string => BigInt('0x' + cert.serialNumber).toString()

test('XML Signature §4.4.4 X509IssuerSerial: the issuer\'s distinguished name (RFC 4514, as RFC 2253 writers give it) and the decimal serial name a trusted certificate', (t: TestContext) => {
  const client = certificate('test-client')
  const trust = store([pem('test-ca'), pem('test-client'), pem('ec-client')])
  const serial = decimal(client)
  const found = (issuer: string, number = serial): string | undefined =>
    trust.find({ kind: 'issuerSerial', issuer, serial: number })?.fingerprint256
  const cn = 'fastify-soap demo CA (test only)'
  const utf8 = '#0c' + Buffer.byteLength(cn).toString(16).padStart(2, '0') + Buffer.from(cn).toString('hex')
  for (const issuer of [
    `CN=${cn},O=fastify-soap demo`,
    `CN=${cn}, O=fastify-soap demo`,
    `cn=${cn.toUpperCase()};o=FASTIFY-SOAP  DEMO`,
    `2.5.4.3=${cn},OID.2.5.4.10=fastify-soap demo`,
    `CN=${utf8},O=fastify-soap demo`,
    `CN="${cn}",O=fastify-soap demo`,
    'CN=fastify-soap demo CA \\28test only\\29,O=fastify\\2dsoap\\20demo',
    `CN=  ${cn} ,O=fastify-soap demo`
  ]) t.assert.strictEqual(found(issuer), client.fingerprint256, issuer)
  t.assert.strictEqual(found(`CN=${cn},O=fastify-soap demo`, '+' + serial), client.fingerprint256)
  t.assert.strictEqual(found(`CN=${cn},O=fastify-soap demo`, decimal(certificate('ec-client'))), certificate('ec-client').fingerprint256)
  for (const [issuer, number] of [
    [`O=fastify-soap demo,CN=${cn}`, serial], // RFC 4514 writes the last RDN first
    [`CN=${cn}`, serial],
    [`CN=${cn},O=fastify-soap demo,C=FR`, serial],
    [`CN=${cn}+O=fastify-soap demo`, serial],
    [`CN=${cn},O=fastify-soap demo`, '1'],
    [`CN=${cn},O=fastify-soap demo`, '0x' + client.serialNumber],
    [`CN=${cn},O=fastify-soap demo`, '9'.repeat(65)],
    [`CN=${cn},O=fastify-soap demo,`, serial],
    [`CN=${cn},O=fastify-soap demo+`, serial],
    [`CN=${cn},Org=fastify-soap demo`, serial],
    [`CN=${cn},O`, serial],
    [`CN="${cn},O=fastify-soap demo`, serial],
    [`CN="${cn}"x,O=fastify-soap demo`, serial],
    [`CN=${cn},O=fastify-soap demo\\`, serial],
    [`CN=${cn},O=#0c`, serial],
    [`CN=${cn},O=#0c0141ff`, serial],
    ['CN=x'.padEnd(4097, 'x'), serial]
  ]) t.assert.strictEqual(found(issuer, number), undefined, `${issuer} ${number}`)
  // The issuer's own certificate is found by its own issuer and serial (self-issued).
  t.assert.strictEqual(found(`CN=${cn},O=fastify-soap demo`, decimal(certificate('test-ca'))), certificate('test-ca').fingerprint256)
})

test('RFC 5280 §4.1.2.2: a serial number as X509Certificate writes it, negative or with a leading zero, is found by its X509SerialNumber (xs:integer)', (t: TestContext) => {
  const negative = certificate('negative-serial')
  t.assert.strictEqual(negative.serialNumber, '-05')
  const trust = store([pem('negative-serial'), pem('test-ca')])
  const issuer = 'CN=negative-serial (test only),O=fastify-soap tests'
  for (const serial of ['-5', '-05', ' -5 ']) {
    t.assert.strictEqual(trust.find({ kind: 'issuerSerial', issuer, serial })?.fingerprint256, negative.fingerprint256, serial)
  }
  for (const serial of ['5', '+-5', '--5', '-', '\u00a0-5']) t.assert.strictEqual(trust.find({ kind: 'issuerSerial', issuer, serial }), undefined, serial)
})

test('RFC 4514 §2: a multi-valued RDN\'s order does not count; values other than strings compare as their encoding; BMPString and Teletex text compare as text', (t: TestContext) => {
  t.assert.deepStrictEqual(parseName('CN=a+OU=b,O=x'), parseName('OU=b+CN=a,O=x'))
  t.assert.notDeepStrictEqual(parseName('CN=a+OU=b,O=x'), parseName('CN=a,OU=b,O=x'))
  t.assert.deepStrictEqual(parseName('CN=#1e0400c90041'), parseName('CN=éa'))
  t.assert.deepStrictEqual(parseName('CN=#1403c96161'), parseName('CN=\\c3\\89aa'))
  t.assert.deepStrictEqual(parseName('CN=#020101'), [[['2.5.4.3', '#020101']]])
  t.assert.deepStrictEqual(parseName('CN=\u{1F600}'), parseName('CN=#0c04f09f9880'))
  t.assert.deepStrictEqual(parseName('CN=a\\,b\\+c'), [[['2.5.4.3', 'a,b+c']]])
  t.assert.deepStrictEqual(parseName(''), [])
  for (const hex of ['#1e03004100', '#30', '#1f0100', '#3080', '#308500000000', '#3081', '#3005']) {
    t.assert.strictEqual(parseName(`CN=${hex}`), undefined, hex)
  }
})

test('RFC 5280 §4.1: the DER reader reads within its bounds and refuses what is not a certificate or a Name', (t: TestContext) => {
  t.assert.strictEqual(certificateFacts(Buffer.from('not DER at all')), undefined)
  const der = certificate('test-client').raw
  t.assert.strictEqual(certificateFacts(der.subarray(0, der.length - 1)), undefined)
  t.assert.notStrictEqual(certificateFacts(der), undefined)
  const name = (hex: string): unknown => {
    const bytes = Buffer.from(hex, 'hex')
    try {
      return nameOf(bytes, tlvAt(bytes, 0, bytes.length))
    } catch (err) {
      return (err as Error).message
    }
  }
  t.assert.deepStrictEqual(name('3009310730050603550403'), 'malformed DER') // a type without its value
  t.assert.deepStrictEqual(name('300c310a30080603550403 0c0141'.replace(' ', '')), [[['2.5.4.3', 'a']]])
  t.assert.deepStrictEqual(name('30093107300506000c0141'), 'malformed DER') // an empty OID
  t.assert.deepStrictEqual(name('300a310830060601c10c0141'), 'malformed DER') // a cut arc
  t.assert.deepStrictEqual(name('30123110300e060a2affffffffffffffff7f0c00'), 'malformed DER') // an arc past 2^53
  t.assert.deepStrictEqual(name('3007310530030601'), 'malformed DER')
  t.assert.deepStrictEqual(name('300e310c300a0603550403a0030c0141'), [[['2.5.4.3', '#a0030c0141']]])
  t.assert.deepStrictEqual(name('30083106300406025504'), 'malformed DER')
})

test('RFC 5280 §6.1: a certificate a trusted CA issued is accepted, its principal what X509Certificate says of it; one the trust store does not reach is wsse:FailedAuthentication', async (t: TestContext) => {
  const trust = store(pem('test-ca'))
  const client = certificate('test-client')
  const principal = await trust.check(client, Date.now(), 'Op', 'signature')
  t.assert.deepStrictEqual({ ...principal }, {
    subject: client.subject,
    issuer: client.issuer,
    serialNumber: client.serialNumber,
    fingerprint256: client.fingerprint256,
    pem: client.toString(),
    from: 'signature'
  })
  t.assert.ok(Object.isFrozen(principal))
  t.assert.strictEqual((await trust.check(client, Date.now(), 'Op', 'tls')).from, 'tls')
  t.assert.ok(await accepted(trust, certificate('ec-client')), 'an EC P-256 key')
  t.assert.ok(await refused(trust, certificate('other-client')), 'another CA')
  t.assert.ok(await accepted(store(pem('other-ca')), certificate('other-client')))
  t.assert.ok(await refused(trust, certificate('partner')), 'a self-signed certificate not trusted')
  // The signature counts, not the names: the client's DER with its signature's last byte changed.
  const forged = Buffer.from(client.raw)
  forged[forged.length - 1] ^= 1
  const copy = new X509Certificate(forged)
  t.assert.ok(copy.checkIssued(certificate('test-ca')))
  t.assert.ok(await refused(trust, copy), 'a signature that does not verify')
})

test('RFC 5280 §6.1: intermediates come from trust alone, each trusted certificate an anchor; a CA must be valid too', async (t: TestContext) => {
  const client = certificate('intermediate-client')
  t.assert.ok(await refused(store(pem('test-ca')), client), 'the intermediate is not in trust')
  t.assert.ok(await accepted(store([pem('test-ca'), pem('intermediate-ca')]), client))
  t.assert.ok(await accepted(store(pem('intermediate-ca')), client))
  const ca = certificate('intermediate-ca')
  const end = Date.parse(ca.validTo)
  const trust = store(pem('intermediate-ca'))
  t.assert.ok(await accepted(trust, client, end + SKEW))
  t.assert.ok(await refused(trust, client, end + SKEW + 1), 'the intermediate expired, its client not')
})

test('RFC 5280 §4.1.2.5: a certificate is valid from notBefore to notAfter, give or take the clock skew', async (t: TestContext) => {
  const partner = certificate('partner')
  const trust = store(pem('partner'))
  const start = Date.parse(partner.validFrom)
  const end = Date.parse(partner.validTo)
  t.assert.ok(await accepted(trust, partner, start - SKEW))
  t.assert.ok(await refused(trust, partner, start - SKEW - 1))
  t.assert.ok(await accepted(trust, partner, end + SKEW))
  t.assert.ok(await refused(trust, partner, end + SKEW + 1))
  const ca = store(pem('test-ca'))
  t.assert.ok(await refused(ca, certificate('expired')), 'expired in 2001')
  t.assert.ok(await refused(ca, certificate('not-yet-valid')), 'valid from 2100')
  t.assert.ok(await refused(store([pem('expired'), pem('not-yet-valid')]), certificate('expired')), 'pinned, and expired')
})

test('RFC 5280 §4.2.1.3 key usage: a certificate whose keyUsage lacks digitalSignature is refused, pinned or issued; a CA whose keyUsage lacks keyCertSign issues nothing', async (t: TestContext) => {
  t.assert.ok(await refused(store(pem('test-ca')), certificate('no-digital-signature')))
  t.assert.ok(await refused(store(pem('no-digital-signature')), certificate('no-digital-signature')))
  t.assert.ok(await refused(store([pem('test-ca'), pem('no-cert-sign-ca')]), certificate('no-cert-sign-client')))
  t.assert.ok(await refused(store(pem('test-ca')), certificate('test-ca')), 'a CA with keyCertSign only signs no message')
})

test('RFC 5280 §4.2.1.9 basic constraints: a certificate that is not a CA issues nothing, even trusted', async (t: TestContext) => {
  const notCa = certificate('not-ca')
  t.assert.strictEqual(notCa.ca, false)
  t.assert.ok(certificate('not-ca-client').checkIssued(notCa))
  t.assert.ok(await refused(store([pem('test-ca'), pem('not-ca')]), certificate('not-ca-client')))
  t.assert.ok(await accepted(store(pem('not-ca')), notCa), 'pinned, it is trusted itself')
})

test('docs/security.md "Trust and the principal": a partner\'s own certificate in trust is pinned; lookup decides last, with the principal and the operation; a lookup that throws rejects with its error', async (t: TestContext) => {
  const partner = certificate('partner')
  t.assert.ok(await accepted(store(pem('partner')), partner))
  t.assert.ok(await refused(store(pem('test-ca')), partner))
  const seen: unknown[] = []
  const trust = store([pem('partner'), pem('test-ca')], async (principal: { subject: string }, context: unknown) => {
    seen.push([principal.subject, context])
    return principal.subject === partner.subject
  })
  t.assert.strictEqual((await trust.check(partner, Date.now(), 'Add', 'signature')).subject, partner.subject)
  t.assert.ok(await refused(trust, certificate('test-client')))
  t.assert.deepStrictEqual(seen, [[partner.subject, { operation: 'Add' }], [certificate('test-client').subject, { operation: 'Op' }]])
  t.assert.ok(await refused(store(pem('partner'), () => 'yes'), partner), 'only true accepts')
  const failing = store(pem('partner'), () => { throw new Error('directory down') })
  await t.assert.rejects(failing.check(partner, Date.now(), 'Op', 'tls'), /directory down/)
  // Untrusted: lookup is not asked.
  let asked = false
  await refused(store(pem('test-ca'), () => { asked = true; return true }), partner)
  t.assert.strictEqual(asked, false)
})

// ------------------------------------------------------------- client certificates, through the plugin ---

const NS = 'urn:test:x509'
const none = { type: 'object', properties: {}, additionalProperties: false } as const
const whoOut = {
  type: 'object',
  properties: { subject: { type: 'string' }, from: { type: 'string' }, user: { type: 'string' } },
  additionalProperties: false
} as const
const PROXY = '10.0.0.7'
const HEADER = 'X-SSL-Client-Cert'

type Who = { soap: { principal?: { subject: string, from: string }, username?: string } }
const answer = (_input: unknown, call: Who): Record<string, string> => ({
  subject: call.soap.principal?.subject ?? '(none)',
  from: call.soap.principal?.from ?? '(none)',
  user: call.soap.username ?? '(none)'
})

function service (options: Partial<SoapSecurityOptions>): SoapServiceDefinition {
  return {
    path: '/x509',
    namespace: NS,
    name: 'X509',
    operations: {
      WhoAmI: { input: none, output: whoOut, handler: answer } as never,
      Open: { input: none, output: whoOut, handler: answer } as never
    },
    security: {
      clientCertificate: { from: 'header', header: HEADER, proxies: [PROXY, '::1'], trust: pem('test-ca') },
      except: ['Open'],
      ...options
    } as SoapSecurityOptions
  }
}

async function build (
  t: TestContext, definition: SoapServiceDefinition, fastify: FastifyServerOptions = {}, log?: (line: Record<string, unknown>) => void
): Promise<FastifyInstance> {
  const stream = { write (line: string) { log?.(JSON.parse(line)) } }
  return await serviceApp(t, definition, { ...fastify, ...(log === undefined ? {} : { logger: { level: 'info', stream } }) })
}

const whoAmI = `<t:WhoAmI xmlns:t="${NS}"/>`
const open = `<t:Open xmlns:t="${NS}"/>`

interface Sent { version?: SoapVersion, from?: string, value?: string | string[], header?: string, body?: string }

async function send (app: FastifyInstance, sent: Sent = {}): Promise<Awaited<ReturnType<FastifyInstance['inject']>>> {
  const version = sent.version ?? '1.2'
  const headers: Record<string, string | string[]> = { 'content-type': MEDIA[version], soapaction: '""' }
  if (sent.value !== undefined) headers[HEADER] = sent.value
  return await app.inject({
    method: 'POST',
    url: '/x509',
    remoteAddress: sent.from ?? PROXY,
    headers,
    payload: envelope(version, sent.body ?? whoAmI, sent.header)
  })
}

const field = (body: string, name: string): string | undefined => new RegExp(`<tns:${name}>([^<]*)</tns:${name}>`).exec(body)?.[1]

/** nginx's $ssl_client_escaped_cert: the PEM, URL-encoded. */
const escaped = (name: string): string => encodeURIComponent(pem(name))

async function assertFailedAuthentication (t: TestContext, response: { statusCode: number, body: string }, version: SoapVersion = '1.2'): Promise<void> {
  await assertX509Fault(t, response, version, 'FailedAuthentication')
}

for (const version of ['1.1', '1.2'] as const) {
  test(`docs/security.md "Client certificates": a proxy's header (nginx's $ssl_client_escaped_cert) from a listed address gives request.soap.principal, from 'proxy'; none, or from any other address, is wsse:FailedAuthentication (SOAP ${version})`, async (t: TestContext) => {
    const app = await build(t, service({}))
    const good = await send(app, { version, value: escaped('test-client') })
    t.assert.strictEqual(good.statusCode, 200, good.body)
    t.assert.strictEqual(field(good.body, 'subject'), certificate('test-client').subject)
    t.assert.strictEqual(field(good.body, 'from'), 'proxy')
    await assertFailedAuthentication(t, await send(app, { version }), version)
    await assertFailedAuthentication(t, await send(app, { version, value: escaped('test-client'), from: '10.0.0.8' }), version)
    await assertFailedAuthentication(t, await send(app, { version, value: escaped('other-client') }), version)
    await assertFailedAuthentication(t, await send(app, { version, value: escaped('expired') }), version)
    // An operation left out of security is served without one.
    const free = await send(app, { version, body: open, from: '10.0.0.8' })
    t.assert.strictEqual(free.statusCode, 200, free.body)
    t.assert.strictEqual(field(free.body, 'from'), '(none)')
  })
}

test('docs/deploy.md "Client certificates": the header holds the PEM URL-encoded, plain (lines joined by spaces), or the DER in Base64; anything else, or two of it, is wsse:FailedAuthentication', async (t: TestContext) => {
  const app = await build(t, service({}))
  const client = certificate('test-client')
  const forms = {
    escaped: escaped('test-client'),
    spaced: pem('test-client').trim().replace(/\n/g, ' '),
    base64: client.raw.toString('base64'),
    'escaped EC': escaped('ec-client')
  }
  for (const [form, value] of Object.entries(forms)) {
    const response = await send(app, { value })
    t.assert.strictEqual(response.statusCode, 200, `${form}: ${response.body}`)
    t.assert.strictEqual(field(response.body, 'from'), 'proxy', form)
  }
  for (const value of ['', 'garbage', '%E0%A4%A', '-----BEGIN CERTIFICATE-----AAAA-----END CERTIFICATE-----', client.raw.toString('hex'), [forms.base64, forms.base64]]) {
    await assertFailedAuthentication(t, await send(app, { value }))
  }
  t.assert.strictEqual(headerCertificate(forms.escaped)?.fingerprint256, client.fingerprint256)
  t.assert.strictEqual(headerCertificate('QUJD'), undefined)
})

test('docs/deploy.md "Client certificates": proxies are exact addresses; an IPv4-mapped IPv6 address is its IPv4 one', async (t: TestContext) => {
  const app = await build(t, service({
    clientCertificate: { from: 'header', header: HEADER, proxies: ['::ffff:10.0.0.7', '::1'], trust: pem('test-ca') }
  }))
  for (const from of [PROXY, '::ffff:10.0.0.7', '::FFFF:10.0.0.7', '::1']) {
    const response = await send(app, { value: escaped('test-client'), from })
    t.assert.strictEqual(response.statusCode, 200, `${from}: ${response.body}`)
  }
  for (const from of ['10.0.0.70', '10.0.0.0', '::2', '::ffff:10.0.0.8']) {
    await assertFailedAuthentication(t, await send(app, { value: escaped('test-client'), from }))
  }
})

test('docs/security.md "Client certificates": with a UsernameToken too, both are required, and both reach the handler', async (t: TestContext) => {
  const app = await build(t, service({ usernameToken: { lookup: async (name: string) => name === 'demo' ? 'demo' : undefined } }))
  const both = await send(app, { value: escaped('test-client'), header: security(usernameToken()) })
  t.assert.strictEqual(both.statusCode, 200, both.body)
  t.assert.strictEqual(field(both.body, 'user'), 'demo')
  t.assert.strictEqual(field(both.body, 'from'), 'proxy')
  await assertFailedAuthentication(t, await send(app, { header: security(usernameToken()) }))
  const noToken = await send(app, { value: escaped('test-client') })
  await assertX509Fault(t, noToken, '1.2', 'InvalidSecurity')
})

test('docs/security.md "Client certificates": asked alone, the certificate needs no Security header; one sent is checked; a reply Timestamp is added either way', async (t: TestContext) => {
  const app = await build(t, service({ timestamp: { reply: true } }))
  const bare = await send(app, { value: escaped('test-client') })
  t.assert.strictEqual(bare.statusCode, 200, bare.body)
  const match = /<wsse:Security xmlns:wsse="[^"]+" xmlns:wsu="[^"]+"><wsu:Timestamp><wsu:Created>([^<]+)<\/wsu:Created><wsu:Expires>([^<]+)<\/wsu:Expires><\/wsu:Timestamp><\/wsse:Security>/.exec(bare.body)
  t.assert.ok(match !== null, bare.body)
  t.assert.strictEqual(Date.parse(match[2]) - Date.parse(match[1]), 300_000)
  await assertValidEnvelope(t, bare.body, '1.2')
  const fresh = await send(app, { value: escaped('test-client'), header: security(timestamp()) })
  t.assert.strictEqual(fresh.statusCode, 200, fresh.body)
  const stale = await send(app, { value: escaped('test-client'), header: security(timestamp(instant(-900_000), instant(-600_000))) })
  await assertX509Fault(t, stale, '1.2', 'MessageExpired')
  const plain = await build(t, { ...service({}), path: '/x509' })
  const noReply = await send(plain, { value: escaped('test-client') })
  t.assert.strictEqual(noReply.statusCode, 200)
  t.assert.ok(!noReply.body.includes(WSU), noReply.body)
})

test('docs/security.md "Trust and the principal": lookup decides per operation; one that throws is a Receiver fault', async (t: TestContext) => {
  const seen: string[] = []
  const app = await build(t, service({
    clientCertificate: {
      from: 'header',
      header: HEADER,
      proxies: [PROXY],
      trust: [pem('test-ca')],
      lookup: (principal, { operation }) => {
        seen.push(operation)
        if (principal.subject.includes('ec-client')) throw new Error('directory down')
        return principal.subject === certificate('test-client').subject
      }
    }
  }))
  t.assert.strictEqual((await send(app, { value: escaped('test-client') })).statusCode, 200)
  await assertFailedAuthentication(t, await send(app, { value: escaped('intermediate-client') }))
  t.assert.deepStrictEqual(seen, ['WhoAmI'])
  const crashed = await send(app, { value: escaped('ec-client') })
  t.assert.strictEqual(crashed.statusCode, 500)
  t.assert.match(crashed.body, /<soap:Value>soap:Receiver<\/soap:Value>/)
  t.assert.ok(!crashed.body.includes('directory down'), crashed.body)
})

test('docs/security.md "Logging": the answer\'s log line names the principal by subject, fingerprint and source, never its PEM', async (t: TestContext) => {
  const lines: Array<Record<string, unknown>> = []
  const app = await build(t, service({}), {}, (line) => lines.push(line))
  t.assert.strictEqual((await send(app, { value: escaped('test-client') })).statusCode, 200)
  const answered = lines.find((line) => line.msg === 'fastify-soap: answered') as { soap: Record<string, unknown> }
  const client = certificate('test-client')
  t.assert.deepStrictEqual(answered.soap.principal, { subject: client.subject, fingerprint256: client.fingerprint256, from: 'proxy' })
  const base64 = client.raw.toString('base64')
  t.assert.ok(!JSON.stringify(lines).includes(base64.slice(100, 160)), 'no PEM in the log')
})

test('docs/security.md "Client certificates": a bad clientCertificate is SOAP_ERR_SERVICE_INVALID at ready(); clientCertificate alone asks for something', async (t: TestContext) => {
  const trust = pem('test-ca')
  const cases: Record<string, unknown> = {
    '.clientCertificate must be an object': true,
    '.clientCertificate has an unknown key "ca"': { from: 'tls', trust, ca: trust },
    '.clientCertificate.from must be "tls" or "header"': { from: 'socket', trust },
    '.clientCertificate.header must be the name': { from: 'header', header: 'x cert', proxies: [PROXY], trust },
    '.clientCertificate.proxies must list the IP addresses': { from: 'header', header: HEADER, proxies: ['proxy.local'], trust },
    '.clientCertificate.proxies must list the IP': { from: 'header', header: HEADER, proxies: [], trust },
    '.clientCertificate.header and .proxies go with from: "header"': { from: 'tls', proxies: [PROXY], trust },
    '.clientCertificate.lookup goes with .clientCertificate.trust': { from: 'tls', lookup: () => true },
    '.clientCertificate needs the certificates it trusts': { from: 'tls' },
    '.clientCertificate.trust holds no PEM certificate': { from: 'tls', trust: 'none' }
  }
  await assertServiceInvalid(t, cases, (clientCertificate) => ({ ...service({}), security: { clientCertificate } as SoapSecurityOptions }))
})

test('docs/security.md "Client certificates": without trust of its own, clientCertificate takes the trust of x509, its lookup with it', async (t: TestContext) => {
  let allowed = false
  const app = await build(t, service({
    clientCertificate: { from: 'header', header: HEADER, proxies: [PROXY] },
    x509: { trust: pem('partner'), lookup: () => allowed }
  }))
  // The connection's certificate is checked before the Security header: x509's lookup refuses it first.
  await assertFailedAuthentication(t, await send(app, { value: escaped('partner') }))
  await assertFailedAuthentication(t, await send(app, { value: escaped('test-client') }), '1.2')
  allowed = true
  // Trusted now, so the request goes on to the signature x509 requires, which it lacks.
  const unsigned = await send(app, { value: escaped('partner') })
  await assertX509Fault(t, unsigned, '1.2', 'InvalidSecurity')
})

/** An HTTPS server asking for client certificates, Node's TLS leaving the decision to the plugin. */
async function tlsApp (t: TestContext, options: Partial<SoapSecurityOptions> = { clientCertificate: { from: 'tls', trust: pem('test-ca') } }): Promise<number> {
  const app = await build(t, service(options), {
    https: { key: x509File('test-server.key'), cert: pem('test-server'), requestCert: true, rejectUnauthorized: false }
  } as FastifyServerOptions)
  await app.listen({ port: 0, host: '127.0.0.1' })
  return (app.server.address() as { port: number }).port
}

async function over (port: number, client?: string, headers: Record<string, string> = {}): Promise<{ statusCode: number, body: string }> {
  const request = httpsRequest({
    host: '127.0.0.1',
    port,
    path: '/x509',
    method: 'POST',
    ca: pem('test-ca'),
    checkServerIdentity: () => undefined,
    agent: false,
    timeout: 10_000,
    headers: { 'content-type': MEDIA['1.2'], ...headers },
    ...(client === undefined ? {} : { key: x509File(`${client}.key`), cert: pem(client) })
  })
  request.on('timeout', () => request.destroy(new Error('timed out')))
  request.end(envelope('1.2', whoAmI))
  const [response] = await once(request, 'response') as [import('node:http').IncomingMessage]
  let body = ''
  for await (const chunk of response) body += String(chunk)
  return { statusCode: response.statusCode ?? 0, body }
}

test('docs/deploy.md "Client certificates": over real HTTPS with requestCert, the TLS client certificate gives the principal, from \'tls\'; none, or one the trust store refuses, is wsse:FailedAuthentication', async (t: TestContext) => {
  const port = await tlsApp(t)
  const good = await over(port, 'test-client')
  t.assert.strictEqual(good.statusCode, 200, good.body)
  t.assert.strictEqual(field(good.body, 'from'), 'tls')
  t.assert.ok(field(good.body, 'subject')?.includes('CN=demo client (test only)'), good.body)
  t.assert.strictEqual(field((await over(port, 'ec-client')).body, 'from'), 'tls')
  await assertFailedAuthentication(t, await over(port))
  await assertFailedAuthentication(t, await over(port, 'other-client'))
  await assertFailedAuthentication(t, await over(port, 'no-digital-signature'))
  // from 'tls' reads the connection alone: a header is no certificate.
  await assertFailedAuthentication(t, await over(port, undefined, { [HEADER]: escaped('test-client') }))
})

test('docs/deploy.md "Client certificates": from \'tls\' on a connection that is not TLS is wsse:FailedAuthentication', async (t: TestContext) => {
  const app = await build(t, service({ clientCertificate: { from: 'tls', trust: pem('test-ca') } }))
  await assertFailedAuthentication(t, await send(app, { value: escaped('test-client') }))
})
