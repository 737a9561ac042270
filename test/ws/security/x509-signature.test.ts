/**
 * XML Signature in the Security header (docs/security.md "X.509 signatures"; WSS 1.1 SOAP Message Security
 * §8, X.509 Token Profile 1.1 §3.2, XMLDSig 1.0 §4): signed requests accepted, in both SOAP versions, with
 * each KeyInfo the profile has and each algorithm allowed; the signer is request.soap.principal.
 */
import { test, type TestContext } from 'node:test'
import { X509Certificate, createHash, randomBytes } from 'node:crypto'
import { post } from '../../helper'
import { XOP, mtomMessage } from '../../mtom-message'
import { KEPT_TOKENS, TokenCertificates } from '../../../lib/ws/security/key-info'
import { CLIENT_PEM, ENVELOPED, NS, assertX509Fault, buildSigned, fixture, send, signedByLib, signedRequest, signedService, subjectOf, type KeyKind, type Response, type SignOptions } from './x509-messages'

const CLIENT = 'O=fastify-soap demo\nCN=demo client (test only)'

for (const version of ['1.1', '1.2'] as const) {
  test(`WSS X.509 Token Profile 1.1 §3.2.1: a request signed with a reference to a BinarySecurityToken is accepted, its signer request.soap.principal (SOAP ${version})`, async (t: TestContext) => {
    const app = await buildSigned(t)
    const response = await send(app, signedRequest({ version }), version)
    t.assert.strictEqual(response.statusCode, 200, response.body)
    t.assert.match(response.body, /<tns:text>hello<\/tns:text>/)
    t.assert.strictEqual(subjectOf(response.body), CLIENT)
    t.assert.match(response.body, /<tns:from>signature<\/tns:from>/)
  })

  for (const keyKind of ['ski', 'thumbprint', 'issuerSerial'] as KeyKind[]) {
    test(`WSS X.509 Token Profile 1.1 §3.2: a KeyInfo naming a trusted certificate by ${keyKind} is accepted (SOAP ${version})`, async (t: TestContext) => {
      const app = await buildSigned(t, signedService({ x509: { trust: [fixture('../../demo/x509/test-ca.pem'), fixture('../../demo/x509/test-client.pem')] } }))
      const response = await send(app, signedRequest({ version, keyKind }), version)
      t.assert.strictEqual(response.statusCode, 200, response.body)
      t.assert.strictEqual(subjectOf(response.body), CLIENT)
    })
  }

  test(`docs/security.md "X.509 signatures": a request signed by lib/ws/security/sign.ts is accepted (SOAP ${version})`, async (t: TestContext) => {
    const app = await buildSigned(t)
    const response = await send(app, signedByLib({ version }), version)
    t.assert.strictEqual(response.statusCode, 200, response.body)
    t.assert.strictEqual(subjectOf(response.body), CLIENT)
  })
}

test('XMLDSig 1.1 §6.4.3: an ECDSA-SHA256 signature (r || s) by an EC P-256 certificate is accepted; by sign.ts too', async (t: TestContext) => {
  const app = await buildSigned(t)
  const ec = { key: fixture('ec-client.key'), certificate: fixture('ec-client.pem') }
  const response = await send(app, signedRequest({ method: 'ecdsa-sha256', ...ec }))
  t.assert.strictEqual(response.statusCode, 200, response.body)
  t.assert.strictEqual(subjectOf(response.body), new X509Certificate(ec.certificate).subject)
  // At its own service: the same Body and Timestamp (to the second) by the same signer are one message, a replay.
  const byLib = await send(await buildSigned(t), signedByLib(ec))
  t.assert.strictEqual(byLib.statusCode, 200, byLib.body)
})

test('XMLDSig 1.1 §6: RSA-SHA384 and RSA-SHA512, SHA-384 and SHA-512 digests are accepted', async (t: TestContext) => {
  const app = await buildSigned(t)
  for (const options of [{ method: 'rsa-sha384', digest: 'sha384' }, { method: 'rsa-sha512', digest: 'sha512' }, { method: 'rsa-sha256', digest: 'sha512' }] as SignOptions[]) {
    const response = await send(app, signedRequest(options))
    t.assert.strictEqual(response.statusCode, 200, `${JSON.stringify(options)} ${response.body}`)
  }
})

test('Exclusive XML Canonicalization §3: an InclusiveNamespaces PrefixList on SignedInfo and on each transform is honoured', async (t: TestContext) => {
  const app = await buildSigned(t)
  const response = await send(app, signedRequest({ prefixList: 'wsu s #default' }))
  t.assert.strictEqual(response.statusCode, 200, response.body)
  // The PrefixList changes what is digested: a digest made without it does not match with it.
  const stripped = signedRequest({ prefixList: 'wsu s' }).replace(/<ec:InclusiveNamespaces[^>]*\/>/, '')
  await assertX509Fault(t, await send(app, stripped), '1.2', 'FailedCheck', 'PrefixList left out of SignedInfo')
})

test('docs/security.md "X.509 signatures": RSA-SHA1 and SHA-1 digests are refused with wsse:UnsupportedAlgorithm, and accepted with allowSha1', async (t: TestContext) => {
  const strict = await buildSigned(t)
  await assertX509Fault(t, await send(strict, signedRequest({ method: 'rsa-sha1' })), '1.2', 'UnsupportedAlgorithm', 'rsa-sha1')
  await assertX509Fault(t, await send(strict, signedRequest({ digest: 'sha1' })), '1.2', 'UnsupportedAlgorithm', 'sha1 digest')
  const legacy = await buildSigned(t, signedService({ x509: { allowSha1: true } }))
  for (const options of [{ method: 'rsa-sha1' }, { digest: 'sha1' }, { method: 'rsa-sha1', digest: 'sha1' }] as SignOptions[]) {
    const response = await send(legacy, signedRequest(options))
    t.assert.strictEqual(response.statusCode, 200, `${JSON.stringify(options)} ${response.body}`)
  }
})

test('XMLDSig 1.0 §6.6.4: an enveloped-signature transform over an ancestor of the Signature is accepted', async (t: TestContext) => {
  const app = await buildSigned(t)
  // The Security header carries an Id and is signed whole, the Signature in it left out.
  const text = signedRequest({ sign: ['Body-1', 'TS-1', 'SEC-1'], enveloped: ['SEC-1'], securityAttributes: ' wsu:Id="SEC-1"' })
  t.assert.ok(text.includes(ENVELOPED))
  const response = await send(app, text)
  t.assert.strictEqual(response.statusCode, 200, response.body)
})

for (const version of ['1.1', '1.2'] as const) {
  test(`docs/protocol.md "MTOM/XOP": a signed MTOM request is verified over its XOP infoset, the part's bytes as base64 text; one byte changed, wsse:FailedCheck (SOAP ${version})`, async (t: TestContext) => {
    const app = await buildSigned(t)
    const bytes = randomBytes(3000)
    const base64 = bytes.toString('base64')
    const signed = signedRequest({ version, body: `<t:Upload xmlns:t="${NS}"><t:data>${base64}</t:data></t:Upload>` })
    const include = `<xop:Include xmlns:xop="${XOP}" href="cid:data%40example.org"/>`
    const xml = signed.replace(base64, include)
    const mtom = (part: Buffer): { contentType: string, body: Buffer } => mtomMessage(version, xml, [{ id: 'data@example.org', bytes: part }])
    const ok = mtom(bytes)
    const response = await post(app, version, ok.body, { url: '/signed', contentType: ok.contentType, headers: { soapaction: '""' } })
    t.assert.strictEqual(response.statusCode, 200, response.body)
    t.assert.ok(response.body.includes(createHash('sha256').update(bytes).digest('hex')), response.body)
    const changed = Buffer.from(bytes)
    changed[1234] ^= 1
    const bad = mtom(changed)
    const refused = await post(app, version, bad.body, { url: '/signed', contentType: bad.contentType, headers: { soapaction: '""' } })
    // The fault answers in kind, an MTOM package whose root part is the fault.
    t.assert.strictEqual(refused.statusCode, version === '1.2' ? 400 : 500, refused.body)
    t.assert.match(refused.body, /:FailedCheck<\/(soap:Value|faultcode)>/)
  })
}

test('XMLDSig 1.0 §6.6.4: an enveloped-signature transform over an element the Signature is not in takes nothing out, and the digest must still hold', async (t: TestContext) => {
  const app = await buildSigned(t, signedService({ replay: false }))
  for (const id of ['Body-1', 'TS-1']) {
    const text = signedRequest({ enveloped: [id] })
    t.assert.strictEqual((await send(app, text)).statusCode, 200, id)
    // One character of the element changed: the Body's text, or the last digit of the Timestamp's Created.
    const changed = id === 'Body-1'
      ? text.replace('<t:text>hello<', '<t:text>hellO<')
      : text.replace(/(<wsu:Created>[^<]*?)(\d)(Z<)/, (_, head: string, digit: string, tail: string) => `${head}${(Number(digit) + 1) % 10}${tail}`)
    t.assert.notStrictEqual(changed, text, id)
    await assertX509Fault(t, await send(app, changed), '1.2', 'FailedCheck', id)
  }
})

test('docs/architecture.md "What is kept between requests": a service keeps the certificates of its last KEPT_TOKENS BinarySecurityTokens parsed, no more; a text that is no certificate is not kept', (t: TestContext) => {
  const tokens = new TokenCertificates()
  const base64 = new X509Certificate(CLIENT_PEM).raw.toString('base64')
  // The same certificate in other texts (a line break moved), each a token of its own.
  const text = (i: number): string => `${base64.slice(0, i + 1)}\n${base64.slice(i + 1)}`
  const first = tokens.of(text(0))
  t.assert.ok(first instanceof X509Certificate)
  t.assert.strictEqual(tokens.of(text(0)), first, 'parsed once')
  for (let i = 1; i < KEPT_TOKENS; i++) t.assert.ok(tokens.of(text(i)))
  t.assert.strictEqual(tokens.of(text(0)), first, 'read again: the newest')
  t.assert.ok(tokens.of(text(KEPT_TOKENS)), 'one more: the one read longest ago, text(1), is let go')
  const again = tokens.of(text(1))
  t.assert.ok(again instanceof X509Certificate && again !== tokens.of(text(0)))
  t.assert.strictEqual(tokens.of(text(0)), first, 'text(0) was kept')
  t.assert.strictEqual(tokens.of('not base64!'), undefined)
  t.assert.strictEqual(tokens.of(Buffer.from('no certificate').toString('base64')), undefined)
})

test('docs/security.md "X.509 signatures": a BinarySecurityToken kept parsed is trusted anew on each request', async (t: TestContext) => {
  let allowed = true
  const app = await buildSigned(t, signedService({ replay: false, x509: { lookup: () => allowed } }))
  t.assert.strictEqual((await send(app, signedRequest())).statusCode, 200)
  allowed = false
  await assertX509Fault(t, await send(app, signedRequest()), '1.2', 'FailedAuthentication')
})

test('docs/protocol.md "MTOM/XOP": in a request that is no MTOM package, a signed xop:Include is an element like another: the signature holds, the codec answers its Sender fault', async (t: TestContext) => {
  const app = await buildSigned(t)
  const include = `<xop:Include xmlns:xop="${XOP}" href="cid:data%40example.org"/>`
  const response = await send(app, signedRequest({ body: `<t:Upload xmlns:t="${NS}"><t:data>${include}</t:data></t:Upload>` }))
  t.assert.strictEqual(response.statusCode, 400, response.body)
  t.assert.match(response.body, /<soap:Value>soap:Sender<\/soap:Value>.*t:data holds an element \(xop:Include\)/s)
})

test('docs/security.md "X.509 signatures": with clientCertificate too, the signer replaces the connection\'s certificate as request.soap.principal', async (t: TestContext) => {
  const header = 'x-ssl-client-cert'
  const app = await buildSigned(t, signedService({
    replay: false,
    clientCertificate: { from: 'header', header, proxies: ['10.0.0.7'], trust: fixture('../../demo/x509/test-ca.pem') }
  }))
  const ec = { key: fixture('ec-client.key'), certificate: fixture('ec-client.pem') }
  const inject = async (payload: string): Promise<Response> => await app.inject({
    method: 'POST',
    url: '/signed',
    remoteAddress: '10.0.0.7',
    payload,
    headers: { 'content-type': 'application/soap+xml', [header]: encodeURIComponent(CLIENT_PEM) }
  })
  const signed = await inject(signedRequest({ method: 'ecdsa-sha256', ...ec }))
  t.assert.strictEqual(signed.statusCode, 200, signed.body)
  t.assert.match(subjectOf(signed.body) ?? '', /ec-client/)
  t.assert.match(signed.body, /<tns:from>signature<\/tns:from>/)
  // Unsigned, the Security header is still required (x509): the certificate alone is not enough.
  const unsigned = await inject(signedRequest().replace(/<ds:Signature [\s\S]*<\/ds:Signature>/, ''))
  await assertX509Fault(t, unsigned, '1.2', 'InvalidSecurity', 'not signed')
})
