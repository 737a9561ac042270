/**
 * Hostile signed requests (docs/security.md "X.509 signatures", its threat model): signed messages changed
 * as an attacker would (signature wrapping, duplicate Ids, edits, comments in a DigestValue, swapped
 * References, a second Signature, substituted keys, downgraded algorithms, external URIs), each refused
 * with its fault, none accepted, none a Receiver fault. The replay store is off, so that no refusal is a
 * replay's: each must be refused for what it is.
 */
import { test, type TestContext } from 'node:test'
import { createHash, generateKeyPairSync } from 'node:crypto'
import fc from 'fast-check'
import { mutations } from '../../internals/fuzzing'
import { WSSE, WSU } from './ws-security-support'
import { NS, assertX509Fault, buildSigned, fixture, resign, send, signedRequest, signedService, type X509FaultName } from './x509-messages'

type Version = '1.1' | '1.2'

/** A signed request changed; the faults it may get (a Sender fault of dispatch when the edit reaches the operation's name). */
interface Mutated { readonly text: string, readonly faults: readonly X509FaultName[] }

const BODY = /<s:Body wsu:Id="Body-1">[\s\S]*<\/s:Body>/
const attacker = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey

/** Positions of the characters of text and attribute values (namespace declarations aside) within `from`..`to` of `text`. */
function editable (text: string, from: number, to: number): number[] {
  const out: number[] = []
  let inTag = false
  let quote = ''
  let declaration = false
  for (let i = from; i < to; i++) {
    const c = text[i]
    if (quote !== '') {
      if (c === quote) quote = ''
      else if (!declaration) out.push(i)
    } else if (inTag) {
      if (c === '"' || c === "'") {
        quote = c
        declaration = /xmlns(:\w+)?=$/.test(text.slice(Math.max(0, i - 12), i))
      } else if (c === '>') inTag = false
    } else if (c === '<') inTag = true
    else out.push(i)
  }
  return out
}

const MUTATIONS: Record<string, (version: Version, seed: number) => Mutated> = {
  'the signed Body moved into a header, another Body in its place': (version, seed) => {
    const text = signedRequest({ version })
    const body = BODY.exec(text)?.[0] as string
    const evil = `<s:Body${seed % 2 === 0 ? '' : ' wsu:Id="Body-2"'}><t:Echo xmlns:t="${NS}"><t:text>evil</t:text></t:Echo></s:Body>`
    return { text: text.replace(body, evil).replace('<s:Header>', `<s:Header><x:Wrapper xmlns:x="urn:x">${body}</x:Wrapper>`), faults: ['FailedCheck'] }
  },
  'the signed Body moved into a header, another Body with its Id in its place': (version) => {
    const text = signedRequest({ version })
    const body = BODY.exec(text)?.[0] as string
    const evil = `<s:Body wsu:Id="Body-1"><t:Echo xmlns:t="${NS}"><t:text>evil</t:text></t:Echo></s:Body>`
    return { text: text.replace(body, evil).replace('<s:Header>', `<s:Header><x:Wrapper xmlns:x="urn:x">${body}</x:Wrapper>`), faults: ['FailedCheck'] }
  },
  'the Body\'s Id duplicated on another element': (version, seed) => {
    const text = signedRequest({ version })
    const attribute = ['wsu:Id', 'Id', 'ID'][(seed >> 2) % 3]
    const junk = `<x:Junk xmlns:x="urn:x" xmlns:wsu="${WSU}" ${attribute}="${seed % 2 === 0 ? 'Body-1' : 'TS-1'}"/>`
    const where = [['<s:Header>', `<s:Header>${junk}`], ['</s:Header>', `${junk}</s:Header>`], ['</t:Echo>', `${junk}</t:Echo>`]][seed % 3]
    return { text: text.replace(where[0], where[1]), faults: ['FailedCheck'] }
  },
  'the Body\'s content wrapped in a new element': (version) => {
    const text = signedRequest({ version })
    return { text: text.replace('<t:text>hello</t:text>', '<x:W xmlns:x="urn:x"><t:text>hello</t:text></x:W>'), faults: ['FailedCheck'] }
  },
  'one character of a signed element\'s text or attribute changed': (version, seed) => {
    const text = signedRequest({ version })
    const body = BODY.exec(text) as RegExpExecArray
    const ts = /<wsu:Timestamp wsu:Id="TS-1">[\s\S]*?<\/wsu:Timestamp>/.exec(text) as RegExpExecArray
    const positions = [...editable(text, body.index, body.index + body[0].length), ...editable(text, ts.index, ts.index + ts[0].length)]
    const at = positions[seed % positions.length]
    const replacement = text[at] === '1' ? '2' : '1'
    return { text: text.slice(0, at) + replacement + text.slice(at + 1), faults: ['FailedCheck', 'InvalidSecurity', 'MessageExpired'] }
  },
  'a comment holding another digest in a DigestValue': (version, seed) => {
    const text = signedRequest({ version })
    const evilBody = (BODY.exec(text)?.[0] as string).replace('hello', 'evil')
    const evilDigest = createHash('sha256').update(evilBody.replace('<s:Body wsu:Id="Body-1">', `<s:Body xmlns:s="${version === '1.2' ? 'http://www.w3.org/2003/05/soap-envelope' : 'http://schemas.xmlsoap.org/soap/envelope/'}" xmlns:wsu="${WSU}" wsu:Id="Body-1">`)).digest('base64')
    const original = /<ds:DigestValue>([^<]*)<\/ds:DigestValue>/.exec(text)?.[1] as string
    const value = [`<!--${evilDigest}-->${original}`, `${original}<!--${evilDigest}-->`, `<!--${original}-->${evilDigest}`][seed % 3]
    return { text: text.replace('hello', 'evil').replace(`<ds:DigestValue>${original}</ds:DigestValue>`, `<ds:DigestValue>${value}</ds:DigestValue>`), faults: ['FailedCheck'] }
  },
  'a second SignedInfo (xml-crypto CVE-2025-29774)': (version, seed) => {
    const text = signedRequest({ version })
    const signedInfo = /<ds:SignedInfo>[\s\S]*<\/ds:SignedInfo>/.exec(text)?.[0] as string
    const forged = signedInfo.replace(/<ds:DigestValue>[^<]*</, '<ds:DigestValue>AAAA<')
    const where = seed % 2 === 0 ? signedInfo + forged : forged + signedInfo
    return { text: text.replace(signedInfo, where), faults: ['InvalidSecurity'] }
  },
  'two References\' URIs swapped': (version) => {
    const text = signedRequest({ version })
    return { text: text.replace('URI="#Body-1"', 'URI="#SWAP"').replace('URI="#TS-1"', 'URI="#Body-1"').replace('URI="#SWAP"', 'URI="#TS-1"'), faults: ['FailedCheck'] }
  },
  'a second Signature': (version, seed) => {
    const text = signedRequest({ version })
    const other = /<ds:Signature [\s\S]*<\/ds:Signature>/.exec(seed % 2 === 0 ? text : signedRequest({ version, sign: ['Body-1'] }))?.[0] as string
    return { text: text.replace('</wsse:Security>', `${other.replace('SIG-1', 'SIG-2')}</wsse:Security>`), faults: ['InvalidSecurity'] }
  },
  'a KeyInfo holding a raw KeyValue, re-signed with its key': (version) => {
    const text = signedRequest({ version, sign: ['Body-1', 'TS-1'] })
    const jwk = attacker.export({ format: 'jwk' })
    const keyValue = `<ds:KeyInfo><ds:KeyValue><ds:RSAKeyValue><ds:Modulus>${Buffer.from(jwk.n as string, 'base64url').toString('base64')}</ds:Modulus><ds:Exponent>AQAB</ds:Exponent></ds:RSAKeyValue></ds:KeyValue></ds:KeyInfo>`
    const swapped = text.replace(/<ds:KeyInfo>[\s\S]*<\/ds:KeyInfo>/, keyValue).replace(/<ds:SignatureValue>[^<]*</, '<ds:SignatureValue>SIGNATURE-VALUE<')
    return { text: resign(swapped, attacker), faults: ['UnsupportedSecurityToken'] }
  },
  'a BinarySecurityToken of an untrusted certificate, re-signed with its key': (version) => ({
    text: signedRequest({ version, key: fixture('other-client.key'), certificate: fixture('other-client.pem') }), faults: ['FailedAuthentication']
  }),
  'RSA-SHA1 or a SHA-1 digest, SHA-1 not allowed': (version, seed) => ({
    text: signedRequest({ version, ...(seed % 2 === 0 ? { method: 'rsa-sha1' } : { digest: 'sha1' }) }), faults: ['UnsupportedAlgorithm']
  }),
  'an external URI': (version, seed) => {
    const uri = ['http://127.0.0.1:1/message.xml#Body-1', 'file:///etc/passwd', '#xpointer(/)', ''][seed % 4]
    return { text: resign(signedRequest({ version }).replace('URI="#Body-1"', `URI="${uri}"`).replace(/<ds:SignatureValue>[^<]*</, '<ds:SignatureValue>SIGNATURE-VALUE<'), fixture('../../demo/x509/test-client.key')), faults: ['FailedCheck'] }
  }
}

test('docs/security.md "X.509 signatures" threat model (property): a signed request changed as an attacker would is refused with its fault, never accepted, never a Receiver fault', async (t: TestContext) => {
  const app = await buildSigned(t, signedService({ replay: false }))
  const seen = new Set<string>()
  await fc.assert(fc.asyncProperty(
    fc.constantFrom('1.1', '1.2') as fc.Arbitrary<Version>, fc.constantFrom(...Object.keys(MUTATIONS)), fc.nat(),
    async (version, name, seed) => {
      seen.add(name)
      const { text, faults } = MUTATIONS[name](version, seed)
      const response = await send(app, text, version)
      const fault = faults.find((f) => response.body.includes(`${f}</`))
      t.assert.notStrictEqual(response.statusCode, 200, `${name} accepted: ${text}`)
      if (fault !== undefined) await assertX509Fault(t, response, version, fault, name)
      else {
        // An edit in the operation's element may be dispatch's Sender fault before any security check.
        t.assert.ok(name.startsWith('one character'), `${name}: ${response.body}`)
        t.assert.match(response.body, version === '1.2' ? /<soap:Value>soap:Sender<\/soap:Value>/ : /<faultcode>soap:Client<\/faultcode>/, `${name}: ${response.body}`)
        t.assert.ok(!response.body.includes(WSSE) && !response.body.includes(WSU), `${name}: another WS-Security fault: ${response.body}`)
      }
    }
  ), { numRuns: Number(process.env.FUZZ_RUNS ?? 120) })
  t.assert.strictEqual(seen.size, Object.keys(MUTATIONS).length, 'every mutation tried')
})

test('docs/security.md "X.509 signatures" threat model: the unchanged requests the mutations start from are accepted', async (t: TestContext) => {
  const app = await buildSigned(t, signedService({ replay: false }))
  for (const version of ['1.1', '1.2'] as const) {
    const response = await send(app, signedRequest({ version }), version)
    t.assert.strictEqual(response.statusCode, 200, response.body)
  }
})

test('docs/protocol.md "WS-Security" (property): whatever a signed request is edited into, the answer is a result, a Sender, MustUnderstand or VersionMismatch fault, never a Receiver fault', async (t: TestContext) => {
  const app = await buildSigned(t, signedService({ replay: false }))
  const seeds = [signedRequest(), signedRequest({ keyKind: 'issuerSerial', prefixList: 'wsu #default' }), signedRequest({ method: 'ecdsa-sha256', key: fixture('ec-client.key'), certificate: fixture('ec-client.pem') })]
  const alphabet = ['<', '>', '/', '"', '=', ' ', '#', 'A', '==', '<!--x-->', 'ds:', 'wsse:', 'wsu:Id="Body-1"', 'Id="TS-1"', 'URI="#X509-1"', 'Reference', 'Transform', 'SignedInfo', 'KeyInfo', 'Signature', '&#0;', '\u00e9']
  await fc.assert(fc.asyncProperty(mutations(seeds, alphabet), async (text) => {
    const response = await send(app, text)
    if (response.statusCode === 200) return
    // An edit of the Envelope's namespace is a VersionMismatch; of the Security header's, a header not
    // understood (its mustUnderstand holds): both 500 in SOAP 1.2, neither a Receiver fault.
    if (response.statusCode === 500) {
      t.assert.match(response.body, /<soap:Value>soap:(MustUnderstand|VersionMismatch)<\/soap:Value>/, `${text}\n${response.body}`)
      return
    }
    t.assert.strictEqual(response.statusCode, 400, `${text}\n${response.body}`)
    if (response.body !== '') t.assert.match(response.body, /<soap:Value>soap:Sender<\/soap:Value>/, text)
  }), { numRuns: Number(process.env.FUZZ_RUNS ?? 200) })
})
