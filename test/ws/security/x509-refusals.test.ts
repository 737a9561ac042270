/**
 * The refusals of a signed request (docs/protocol.md "WS-Security", docs/security.md "X.509 signatures";
 * WSS 1.1 SOAP Message Security §8, §12): each row of the table, with its fault, in both SOAP versions.
 */
import { test, type TestContext } from 'node:test'
import { envelope } from '../../helper'
import { WSSE, WSU, instant, security, timestamp, usernameToken } from './ws-security-support'
import {
  CLIENT_PEM, DIGESTS, DS, EXC, NS, THUMBPRINT, assertX509Fault, buildSigned, fixture, resign, send, signedRequest,
  signedService, type X509FaultName
} from './x509-messages'

const TS = timestamp(instant(), instant(300_000))

for (const version of ['1.1', '1.2'] as const) {
  const refused = async (t: TestContext, app: Awaited<ReturnType<typeof buildSigned>>, text: string, fault: X509FaultName, what: string): Promise<void> => {
    await assertX509Fault(t, await send(app, text, version), version, fault, what)
  }

  test(`docs/protocol.md "WS-Security": with x509, a Security header without a Signature, or without a Timestamp, is wsse:InvalidSecurity (SOAP ${version})`, async (t: TestContext) => {
    const app = await buildSigned(t)
    const body = `<t:Echo xmlns:t="${NS}"><t:text>hi</t:text></t:Echo>`
    await refused(t, app, envelope(version, body, security(TS)), 'InvalidSecurity', 'no Signature')
    const signed = signedRequest({ version, sign: ['Body-1'] })
    await refused(t, app, signed.replace(/<wsu:Timestamp wsu:Id="TS-1">.*?<\/wsu:Timestamp>/, ''), 'InvalidSecurity', 'no Timestamp')
  })

  test(`docs/security.md "X.509 signatures": a second ds:Signature in the Security header is wsse:InvalidSecurity (SOAP ${version})`, async (t: TestContext) => {
    const app = await buildSigned(t)
    const signed = signedRequest({ version })
    const signature = /<ds:Signature [\s\S]*<\/ds:Signature>/.exec(signed)?.[0] as string
    await refused(t, app, signed.replace(signature, signature + signature.replace('SIG-1', 'SIG-2')), 'InvalidSecurity', 'two Signatures')
  })

  test(`docs/security.md "WS-Security": without x509, a ds:Signature or a BinarySecurityToken in the Security header is still wsse:InvalidSecurity (SOAP ${version})`, async (t: TestContext) => {
    const app = await buildSigned(t, { ...signedService(), security: { usernameToken: { lookup: () => 'demo' } } })
    const signed = signedRequest({ version, inSecurity: usernameToken() })
    await refused(t, app, signed, 'InvalidSecurity', 'a Signature')
    await refused(t, app, signed.replace(/<ds:Signature [\s\S]*<\/ds:Signature>/, ''), 'InvalidSecurity', 'a BinarySecurityToken')
  })

  test(`XMLDSig 1.0 §3.2.1: a changed signed element is wsse:FailedCheck, and so is a changed SignatureValue (SOAP ${version})`, async (t: TestContext) => {
    const app = await buildSigned(t)
    const signed = signedRequest({ version })
    await refused(t, app, signed.replace('<t:text>hello</t:text>', '<t:text>hellO</t:text>'), 'FailedCheck', 'Body text changed')
    await refused(t, app, signed.replace('wsu:Id="TS-1"><wsu:Created>', 'wsu:Id="TS-1"> <wsu:Created>'), 'FailedCheck', 'Timestamp white space')
    const value = /<ds:SignatureValue>([^<]*)</.exec(signed)?.[1] as string
    const flipped = Buffer.from(value, 'base64')
    flipped[10] ^= 1
    await refused(t, app, signed.replace(value, flipped.toString('base64')), 'FailedCheck', 'SignatureValue changed')
    // An EC signature method with an RSA key verifies nothing.
    await refused(t, app, resign(signed.replace('rsa-sha256', 'ecdsa-sha256'), fixture('ec-client.key'), 'ecdsa-sha256'), 'FailedCheck', 'ECDSA by an RSA certificate')
  })

  test(`docs/security.md "X.509 signatures": the Body and the Timestamp must each be signed, else wsse:FailedCheck (SOAP ${version})`, async (t: TestContext) => {
    const app = await buildSigned(t)
    await refused(t, app, signedRequest({ version, sign: ['TS-1'] }), 'FailedCheck', 'Body not signed')
    await refused(t, app, signedRequest({ version, sign: ['Body-1'] }), 'FailedCheck', 'Timestamp not signed')
  })

  test(`docs/security.md "X.509 signatures": signed.headers and signed.usernameToken must be signed, else wsse:FailedCheck (SOAP ${version})`, async (t: TestContext) => {
    const app = await buildSigned(t, signedService({
      usernameToken: { lookup: () => 'demo' },
      x509: { signed: { headers: ['{urn:test:h}To', 'urn:test:all'], usernameToken: true } }
    }))
    const headers = '<h:To xmlns:h="urn:test:h" wsu:Id="H-1">a</h:To><a:One xmlns:a="urn:test:all" wsu:Id="H-2">1</a:One><h:Other xmlns:h="urn:test:h">x</h:Other>'
    const token = usernameToken({ digest: true }).replace('<wsse:UsernameToken>', '<wsse:UsernameToken wsu:Id="UT-1">')
    const all = ['Body-1', 'TS-1', 'H-1', 'H-2', 'UT-1']
    const ok = await send(app, signedRequest({ version, headers, inSecurity: token, sign: all }), version)
    t.assert.strictEqual(ok.statusCode, 200, ok.body)
    for (const left of ['H-1', 'H-2', 'UT-1']) {
      const fresh = usernameToken({ digest: true }).replace('<wsse:UsernameToken>', '<wsse:UsernameToken wsu:Id="UT-1">')
      await refused(t, app, signedRequest({ version, headers, inSecurity: fresh, sign: all.filter((id) => id !== left) }), 'FailedCheck', `${left} not signed`)
    }
  })

  test(`docs/security.md "X.509 signatures": an Id a Reference names must be on exactly one element: a duplicate is wsse:FailedCheck (SOAP ${version})`, async (t: TestContext) => {
    const app = await buildSigned(t)
    const signed = signedRequest({ version })
    // The same Id on a header block of no importance, before or after.
    await refused(t, app, signed.replace('<s:Header>', '<s:Header><x:Junk xmlns:x="urn:x" wsu:Id="Body-1"/>'), 'FailedCheck', 'duplicate wsu:Id')
    // After the signed one in document order, where "the first one" would be the element signed.
    await refused(t, app, signed.replace('</s:Header>', '<x:Junk xmlns:x="urn:x" wsu:Id="TS-1"/></s:Header>'), 'FailedCheck', 'duplicate wsu:Id after the Timestamp')
    await refused(t, app, signed.replace('</s:Header>', '<x:Junk xmlns:x="urn:x" ID="Body-1"/></s:Header>'), 'FailedCheck', 'duplicate ID, the Body before it')
    await refused(t, app, signed.replace('<t:text>', '<t:text Id="TS-1">'), 'FailedCheck', 'duplicate Id')
    // Two References naming one Id.
    const twice = signedRequest({ version, sign: ['Body-1', 'TS-1', 'Body-1'] })
    await refused(t, app, twice, 'FailedCheck', 'one Id referenced twice')
  })

  test(`XMLDSig 1.0 §4.3.3: a Reference URI other than "#id" (empty, absent, an XPointer, another document) is wsse:FailedCheck, and so is an Id no element has (SOAP ${version})`, async (t: TestContext) => {
    const app = await buildSigned(t)
    for (const [uri, what] of [['URI=""', 'empty'], ['', 'absent'], ['URI="#xpointer(id(\'Body-1\'))"', 'XPointer'], ['URI="http://127.0.0.1:1/x#Body-1"', 'external'], ['URI="#Nobody"', 'an Id on no element']]) {
      const text = signedRequest({ version, sign: ['TS-1', 'Body-1'] }).replace('URI="#Body-1"', uri)
      await refused(t, app, resign(text, fixture('../../demo/x509/test-client.key')), 'FailedCheck', what)
    }
  })

  test(`XMLDSig 1.0 §6.6: a transform other than exc-c14n and enveloped-signature, or none, is wsse:FailedCheck (SOAP ${version})`, async (t: TestContext) => {
    const app = await buildSigned(t)
    const key = fixture('../../demo/x509/test-client.key')
    const base = signedRequest({ version })
    const transforms = /<ds:Transforms>.*?<\/ds:Transforms>/.exec(base)?.[0] as string
    const cases: Record<string, string> = {
      'inclusive C14N': '<ds:Transforms><ds:Transform Algorithm="http://www.w3.org/TR/2001/REC-xml-c14n-20010315"/></ds:Transforms>',
      XPath: `<ds:Transforms><ds:Transform Algorithm="http://www.w3.org/TR/1999/REC-xpath-19991116"><ds:XPath>1</ds:XPath></ds:Transform><ds:Transform Algorithm="${EXC}"/></ds:Transforms>`,
      'no transform': '',
      'exc-c14n before enveloped-signature': `<ds:Transforms><ds:Transform Algorithm="${EXC}"/><ds:Transform Algorithm="${DS}enveloped-signature"/></ds:Transforms>`,
      'two enveloped-signature': `<ds:Transforms><ds:Transform Algorithm="${DS}enveloped-signature"/><ds:Transform Algorithm="${DS}enveloped-signature"/><ds:Transform Algorithm="${EXC}"/></ds:Transforms>`
    }
    for (const [what, replacement] of Object.entries(cases)) await refused(t, app, resign(base.replace(transforms, replacement), key), 'FailedCheck', what)
  })

  test(`docs/security.md "X.509 signatures": a canonicalization, signature or digest method not allowed is wsse:UnsupportedAlgorithm (SOAP ${version})`, async (t: TestContext) => {
    const app = await buildSigned(t)
    const base = signedRequest({ version })
    await refused(t, app, base.replace(`<ds:CanonicalizationMethod Algorithm="${EXC}">`, '<ds:CanonicalizationMethod Algorithm="http://www.w3.org/TR/2001/REC-xml-c14n-20010315">'), 'UnsupportedAlgorithm', 'inclusive C14N')
    await refused(t, app, signedRequest({ version, method: 'hmac-sha256' }), 'UnsupportedAlgorithm', 'HMAC')
    await refused(t, app, signedRequest({ version, digest: 'md5' }), 'UnsupportedAlgorithm', 'MD5')
    await refused(t, app, base.replace(`Algorithm="${DIGESTS.sha256}"`, 'Algorithm="urn:unknown"'), 'UnsupportedAlgorithm', 'an unknown digest')
  })

  test(`WSS X.509 Token Profile 1.1 §3.1: a BinarySecurityToken that is not an X509v3 certificate in Base64 is wsse:InvalidSecurityToken (SOAP ${version})`, async (t: TestContext) => {
    const app = await buildSigned(t)
    const base = signedRequest({ version })
    const der = /<wsse:BinarySecurityToken[^>]*>([^<]*)</.exec(base)?.[1] as string
    await refused(t, app, base.replace(der, Buffer.from('not a certificate').toString('base64')), 'InvalidSecurityToken', 'not DER')
    await refused(t, app, base.replace(der, '!!!'), 'InvalidSecurityToken', 'not Base64')
    await refused(t, app, base.replace('#X509v3" EncodingType', '#X509PKIPathv1" EncodingType'), 'InvalidSecurityToken', 'a PKIPath')
    await refused(t, app, base.replace('wss-soap-message-security-1.0#Base64Binary">', 'wss-soap-message-security-1.0#HexBinary">'), 'InvalidSecurityToken', 'hex')
  })

  test(`docs/protocol.md "WS-Security": a BinarySecurityToken whose public key cannot be read (an unknown algorithm) verifies nothing: wsse:FailedCheck, not a Receiver fault (SOAP ${version})`, async (t: TestContext) => {
    const app = await buildSigned(t)
    const base = signedRequest({ version })
    const der = Buffer.from(/<wsse:BinarySecurityToken[^>]*>([^<]*)</.exec(base)?.[1] as string, 'base64')
    // rsaEncryption (1.2.840.113549.1.1.1) made 1.2.840.113549.1.1.99: the DER still reads, its key does not.
    const oid = der.indexOf(Buffer.from('06092a864886f70d010101', 'hex'))
    const changed = Buffer.from(der)
    changed[oid + 10] = 99
    await refused(t, app, base.replace(der.toString('base64'), changed.toString('base64')), 'FailedCheck', 'a key of no known algorithm')
  })

  test(`WSS 1.1 §12: a KeyInfo naming a certificate the trust store does not hold, or a token not in this Security header, is wsse:SecurityTokenUnavailable (SOAP ${version})`, async (t: TestContext) => {
    const app = await buildSigned(t)
    // Only the CA is trusted: a KeyIdentifier must name a certificate trust holds.
    for (const keyKind of ['ski', 'thumbprint', 'issuerSerial'] as const) {
      await refused(t, app, signedRequest({ version, keyKind }), 'SecurityTokenUnavailable', keyKind)
    }
    const base = signedRequest({ version })
    await refused(t, app, base.replace('<wsse:Reference URI="#X509-1"', '<wsse:Reference URI="#X509-2"'), 'SecurityTokenUnavailable', 'no such token')
    // The token moved into another header block: the Reference points out of this Security header.
    const token = /<wsse:BinarySecurityToken[\s\S]*?<\/wsse:BinarySecurityToken>/.exec(base)?.[0] as string
    const holder = `<x:Holder xmlns:x="urn:x" xmlns:wsse="${WSSE}" xmlns:wsu="${WSU}">${token}</x:Holder>`
    await refused(t, app, base.replace(token, '').replace('<s:Header>', `<s:Header>${holder}`), 'SecurityTokenUnavailable', 'a token outside the Security header')
  })

  test(`WSS 1.1 §12: a KeyInfo other than a SecurityTokenReference (a raw KeyValue, bare X509Data) is wsse:UnsupportedSecurityToken (SOAP ${version})`, async (t: TestContext) => {
    const app = await buildSigned(t)
    const base = signedRequest({ version })
    const keyInfo = /<ds:KeyInfo>[\s\S]*<\/ds:KeyInfo>/.exec(base)?.[0] as string
    const modulus = Buffer.alloc(256, 1).toString('base64')
    await refused(t, app, base.replace(keyInfo, `<ds:KeyInfo><ds:KeyValue><ds:RSAKeyValue><ds:Modulus>${modulus}</ds:Modulus><ds:Exponent>AQAB</ds:Exponent></ds:RSAKeyValue></ds:KeyValue></ds:KeyInfo>`), 'UnsupportedSecurityToken', 'KeyValue')
    const pem = CLIENT_PEM.replace(/-----[^-]+-----|\s/g, '')
    await refused(t, app, base.replace(keyInfo, `<ds:KeyInfo><ds:X509Data><ds:X509Certificate>${pem}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>`), 'UnsupportedSecurityToken', 'bare X509Data')
  })

  test(`docs/security.md "X.509 signatures": a signer whose certificate does not chain to trust, has expired, or that lookup refuses is wsse:FailedAuthentication (SOAP ${version})`, async (t: TestContext) => {
    const seen = [] as string[]
    const app = await buildSigned(t, signedService({
      x509: { lookup: (principal, { operation }) => { seen.push(`${operation} ${principal.subject}`); return !principal.subject.includes('ec-client') } }
    }))
    await refused(t, app, signedRequest({ version, key: fixture('other-client.key'), certificate: fixture('other-client.pem') }), 'FailedAuthentication', 'another CA')
    await refused(t, app, signedRequest({ version, key: fixture('expired.key'), certificate: fixture('expired.pem') }), 'FailedAuthentication', 'expired')
    t.assert.deepStrictEqual(seen, [], 'lookup is asked once the chain holds')
    t.assert.strictEqual((await send(app, signedRequest({ version }), version)).statusCode, 200)
    const ec = { method: 'ecdsa-sha256', key: fixture('ec-client.key'), certificate: fixture('ec-client.pem') } as const
    await refused(t, app, signedRequest({ version, ...ec }), 'FailedAuthentication', 'lookup false')
    t.assert.deepStrictEqual((seen as string[]).map((line: string) => line.replace(/\n/g, ',')), [
      'Echo O=fastify-soap demo,CN=demo client (test only)', 'Echo O=fastify-soap tests,CN=ec-client (test only)'
    ])
  })

  test(`docs/security.md "X.509 signatures": a signed message is accepted once; its replay is wsse:FailedCheck (SOAP ${version})`, async (t: TestContext) => {
    const app = await buildSigned(t)
    const signed = signedRequest({ version })
    t.assert.strictEqual((await send(app, signed, version)).statusCode, 200)
    await refused(t, app, signed, 'FailedCheck', 'replayed')
    // With replay: false, nothing is claimed.
    const open = await buildSigned(t, signedService({ replay: false }))
    t.assert.strictEqual((await send(open, signed, version)).statusCode, 200)
    t.assert.strictEqual((await send(open, signed, version)).statusCode, 200)
  })

  test(`docs/security.md "X.509 signatures": a signed message is accepted once, whatever SignatureValue it carries; an ECDSA one with s made n - s is a replay, wsse:FailedCheck (SOAP ${version})`, async (t: TestContext) => {
    const app = await buildSigned(t)
    const signed = signedRequest({ version, method: 'ecdsa-sha256', key: fixture('ec-client.key'), certificate: fixture('ec-client.pem') })
    t.assert.strictEqual((await send(app, signed, version)).statusCode, 200)
    // ECDSA signatures are malleable (SEC 1 §4.1.4): (r, n - s) verifies whenever (r, s) does.
    const value = /<ds:SignatureValue>([^<]*)</.exec(signed)?.[1] as string
    const bytes = Buffer.from(value, 'base64')
    const n = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551') // P-256's order
    const s = n - BigInt(`0x${bytes.subarray(32).toString('hex')}`)
    const other = Buffer.concat([bytes.subarray(0, 32), Buffer.from(s.toString(16).padStart(64, '0'), 'hex')])
    await refused(t, app, signed.replace(value, other.toString('base64')), 'FailedCheck', 'the same message, s made n - s')
  })

  test(`WSS 1.1 §10: a signed Timestamp older than maxAge is wsu:MessageExpired (SOAP ${version})`, async (t: TestContext) => {
    const app = await buildSigned(t)
    await refused(t, app, signedRequest({ version, timestamp: timestamp(instant(-400_000), instant(-350_000)) }), 'MessageExpired', 'stale')
  })

  test(`XMLDSig 1.0 §4: a Signature without SignedInfo, SignatureValue or KeyInfo, or with an unknown child, is wsse:InvalidSecurity (SOAP ${version})`, async (t: TestContext) => {
    const app = await buildSigned(t)
    const base = signedRequest({ version })
    await refused(t, app, base.replace(/<ds:KeyInfo>[\s\S]*<\/ds:KeyInfo>/, ''), 'InvalidSecurity', 'no KeyInfo')
    await refused(t, app, base.replace(/<ds:SignatureValue>[^<]*<\/ds:SignatureValue>/, ''), 'InvalidSecurity', 'no SignatureValue')
    await refused(t, app, base.replace('</ds:Signature>', '<ds:Object>x</ds:Object></ds:Signature>'), 'InvalidSecurity', 'an Object')
    await refused(t, app, base.replace(/<ds:Reference [\s\S]*<\/ds:Reference>/, ''), 'InvalidSecurity', 'no Reference')
  })

  test(`docs/security.md "WS-Security": an operation in except is served without its Security header read, signed or not (SOAP ${version})`, async (t: TestContext) => {
    const app = await buildSigned(t, signedService({ except: ['Open'] }))
    const response = await send(app, envelope(version, `<t:Open xmlns:t="${NS}"/>`), version)
    t.assert.strictEqual(response.statusCode, 200, response.body)
    t.assert.match(response.body, /<tns:text>open<\/tns:text>/)
  })
}

test('WSS 1.1 §12: every fault of a signature check is the same answer for its name, whatever failed', async (t: TestContext) => {
  const app = await buildSigned(t)
  const base = signedRequest()
  const a = await send(app, base.replace('<t:text>hello</t:text>', '<t:text>x</t:text>'))
  const b = await send(app, signedRequest({ sign: ['TS-1'] }))
  await assertX509Fault(t, a, '1.2', 'FailedCheck')
  t.assert.strictEqual(a.body, b.body)
})

test('XMLDSig 1.0 §4: a Signature read strictly: each element out of place, missing, doubled or holding what it may not is refused with its fault', async (t: TestContext) => {
  const app = await buildSigned(t)
  const base = signedRequest()
  const str = /<wsse:SecurityTokenReference>[\s\S]*<\/wsse:SecurityTokenReference>/.exec(base)?.[0] as string
  const method = /<ds:SignatureMethod [^>]*\/>/.exec(base)?.[0] as string
  const c14n = /<ds:CanonicalizationMethod [\s\S]*?<\/ds:CanonicalizationMethod>/.exec(base)?.[0] as string
  const cases: Array<[string, string, X509FaultName]> = [
    ['text between Signature children', base.replace('<ds:SignatureValue>', 'x<ds:SignatureValue>'), 'InvalidSecurity'],
    ['SignatureMethod before CanonicalizationMethod', base.replace(c14n + method, method + c14n), 'InvalidSecurity'],
    ['SignatureMethod without Algorithm', base.replace(method, '<ds:SignatureMethod/>'), 'InvalidSecurity'],
    ['SignatureMethod with a child', base.replace(method, method.replace('/>', '><ds:HMACOutputLength>80</ds:HMACOutputLength></ds:SignatureMethod>')), 'InvalidSecurity'],
    ['a SignedInfo child other than a Reference', base.replace('</ds:SignedInfo>', '<ds:Manifest/></ds:SignedInfo>'), 'InvalidSecurity'],
    ['two InclusiveNamespaces', base.replace(`<ds:CanonicalizationMethod Algorithm="${EXC}">`, `<ds:CanonicalizationMethod Algorithm="${EXC}"><ec:InclusiveNamespaces xmlns:ec="${EXC}" PrefixList="a"/><ec:InclusiveNamespaces xmlns:ec="${EXC}" PrefixList="b"/>`), 'InvalidSecurity'],
    ['InclusiveNamespaces without a PrefixList', base.replace(`<ds:CanonicalizationMethod Algorithm="${EXC}">`, `<ds:CanonicalizationMethod Algorithm="${EXC}"><ec:InclusiveNamespaces xmlns:ec="${EXC}"/>`), 'InvalidSecurity'],
    ['a DigestValue that is not Base64', base.replace(/<ds:DigestValue>[^<]*</, '<ds:DigestValue>!!<'), 'InvalidSecurity'],
    ['a DigestValue with an element', base.replace(/<ds:DigestValue>[^<]*</, '<ds:DigestValue><x/><'), 'InvalidSecurity'],
    ['a Transform that is not ds:Transform', base.replace(/<ds:Transforms>.*?<\/ds:Transforms>/, `<ds:Transforms><ds:Other Algorithm="${EXC}"/></ds:Transforms>`), 'FailedCheck'],
    ['a SecurityTokenReference holding two references', base.replace(str, str.replace('</wsse:SecurityTokenReference>', '<wsse:Embedded/></wsse:SecurityTokenReference>')), 'InvalidSecurity'],
    ['a SecurityTokenReference holding an unknown reference', base.replace(str, '<wsse:SecurityTokenReference><wsse:Embedded/></wsse:SecurityTokenReference>'), 'UnsupportedSecurityToken'],
    ['a Reference to a token by an XPointer', base.replace('<wsse:Reference URI="#X509-1"', '<wsse:Reference URI="#xpointer(/)"'), 'SecurityTokenUnavailable'],
    ['a Reference ValueType other than X509v3', base.replace(/(<wsse:Reference URI="#X509-1" ValueType=")[^"]*"/, '$1urn:saml"'), 'UnsupportedSecurityToken'],
    ['a KeyIdentifier of another ValueType', base.replace(str, '<wsse:SecurityTokenReference><wsse:KeyIdentifier ValueType="urn:saml">AAAA</wsse:KeyIdentifier></wsse:SecurityTokenReference>'), 'UnsupportedSecurityToken'],
    ['a KeyIdentifier in hex', base.replace(str, `<wsse:SecurityTokenReference><wsse:KeyIdentifier ValueType="${THUMBPRINT}" EncodingType="urn:hex">AAAA</wsse:KeyIdentifier></wsse:SecurityTokenReference>`), 'InvalidSecurityToken'],
    ['an X509Data holding a certificate', base.replace(str, '<wsse:SecurityTokenReference><ds:X509Data><ds:X509Certificate>AAAA</ds:X509Certificate></ds:X509Data></wsse:SecurityTokenReference>'), 'UnsupportedSecurityToken'],
    ['an X509SerialNumber that is not decimal', base.replace(str, '<wsse:SecurityTokenReference><ds:X509Data><ds:X509IssuerSerial><ds:X509IssuerName>CN=x</ds:X509IssuerName><ds:X509SerialNumber>0x1F</ds:X509SerialNumber></ds:X509IssuerSerial></ds:X509Data></wsse:SecurityTokenReference>'), 'InvalidSecurity'],
    ['an ECDSA value of the wrong length', signedRequest({ method: 'ecdsa-sha256', key: fixture('ec-client.key'), certificate: fixture('ec-client.pem') }).replace(/<ds:SignatureValue>[^<]*</, '<ds:SignatureValue>AAAA<'), 'FailedCheck']
  ]
  for (const [what, text, fault] of cases) await assertX509Fault(t, await send(app, text), '1.2', fault, what)
  const many = signedRequest({ sign: Array.from({ length: 31 }, (_, i) => i % 2 === 0 ? 'Body-1' : 'TS-1') })
  await assertX509Fault(t, await send(app, many), '1.2', 'InvalidSecurity', '31 References')
})
