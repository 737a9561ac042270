/**
 * Signed requests for the X.509 tests (WSS 1.1 SOAP Message Security §8, X.509 Token Profile 1.1): an
 * envelope whose Body and Timestamp carry wsu:Ids, signed by the demo client's key (or another) with a
 * KeyInfo of any kind the profile has, any algorithm, or a PrefixList; and the helpers that mutate them.
 */
import { createHash, createSign, X509Certificate, type KeyObject } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { TestContext } from 'node:test'
import type { SoapSecurityOptions, SoapServiceDefinition, SoapVersion, SoapX509Options } from '../../../lib/index'
import { readSigningView, exclusiveC14n, type SigningElement } from '../../../lib/xml/c14n'
import { signElements, x509Signer } from '../../../lib/ws/security/sign'
import { assertValidEnvelope, envelope, post, serviceApp } from '../../helper'
import { WSSE, WSU, instant, timestamp as timestampXml } from './ws-security-support'

export const DEMO = join(__dirname, '..', '..', '..', '..', 'test', 'demo', 'x509')
export const demoFile = (name: string): string => readFileSync(join(DEMO, name), 'utf8')
export const CA_PEM = demoFile('test-ca.pem')
export const CLIENT_PEM = demoFile('test-client.pem')
export const CLIENT_KEY = demoFile('test-client.key')
export const SERVER_PEM = demoFile('test-server.pem')
export const SERVER_KEY = demoFile('test-server.key')

export const DS = 'http://www.w3.org/2000/09/xmldsig#'
export const EXC = 'http://www.w3.org/2001/10/xml-exc-c14n#'
export const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature'
const MORE = 'http://www.w3.org/2001/04/xmldsig-more#'
const PROFILE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0'
export const X509V3 = `${PROFILE}#X509v3`
export const SKI = `${PROFILE}#X509SubjectKeyIdentifier`
export const THUMBPRINT = 'http://docs.oasis-open.org/wss/oasis-wss-soap-message-security-1.1#ThumbprintSHA1'
export const BASE64 = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary'

export const METHODS = {
  'rsa-sha1': { uri: `${DS}rsa-sha1`, hash: 'sha1' },
  'rsa-sha256': { uri: `${MORE}rsa-sha256`, hash: 'sha256' },
  'rsa-sha384': { uri: `${MORE}rsa-sha384`, hash: 'sha384' },
  'rsa-sha512': { uri: `${MORE}rsa-sha512`, hash: 'sha512' },
  'ecdsa-sha256': { uri: `${MORE}ecdsa-sha256`, hash: 'sha256' },
  'hmac-sha256': { uri: `${MORE}hmac-sha256`, hash: 'sha256' }
} as const
export const DIGESTS = {
  sha1: `${DS}sha1`,
  sha256: 'http://www.w3.org/2001/04/xmlenc#sha256',
  sha384: `${MORE}sha384`,
  sha512: 'http://www.w3.org/2001/04/xmlenc#sha512',
  md5: `${MORE}md5`
} as const

export const NS = 'urn:test:signed'

/** The subjectKeyIdentifier extension's value (RFC 5280 §4.2.1.2), read from the DER. */
export function subjectKeyIdentifier (certificate: X509Certificate): Buffer {
  const der = certificate.raw
  const at = der.indexOf(Buffer.from([0x06, 0x03, 0x55, 0x1d, 0x0e]))
  let i = at + 5
  if (der[i] === 0x01) i += 3 // critical
  // OCTET STRING { OCTET STRING ski }
  return der.subarray(i + 4, i + 4 + der[i + 3])
}

export type KeyKind = 'bst' | 'ski' | 'thumbprint' | 'issuerSerial'

export interface SignOptions {
  readonly version?: SoapVersion
  /** The Body's content. */
  readonly body?: string
  /** More header blocks, before the Security header. */
  readonly headers?: string
  /** More children of the Security header, after the Timestamp (a UsernameToken). */
  readonly inSecurity?: string
  /** The Ids signed, in order (default: the Body's and the Timestamp's). */
  readonly sign?: readonly string[]
  readonly keyKind?: KeyKind
  readonly method?: keyof typeof METHODS
  readonly digest?: keyof typeof DIGESTS
  /** An InclusiveNamespaces PrefixList on SignedInfo's method and on each exc-c14n transform. */
  readonly prefixList?: string
  /** The Ids whose Reference has an enveloped-signature transform before exc-c14n. */
  readonly enveloped?: readonly string[]
  /** More attributes of the Security header, as written. */
  readonly securityAttributes?: string
  /** The signer (default the demo client). */
  readonly key?: string | KeyObject
  readonly certificate?: string
  /** The Timestamp (default one made now, valid 5 minutes). */
  readonly timestamp?: string
}

/** The elements of a view by the Id they carry. */
export function byId (root: SigningElement, id: string): SigningElement {
  const stack = [root]
  while (stack.length > 0) {
    const e = stack.pop() as SigningElement
    if (e.attributes.some((a) => (a.localName === 'Id' || a.localName === 'ID') && a.value === id)) return e
    for (const c of e.children) if (typeof c !== 'string') stack.push(c)
  }
  throw new Error(`no element with Id ${id}`)
}

const SIGNATURE_VALUE = 'SIGNATURE-VALUE'

/** The KeyInfo's SecurityTokenReference of a kind. */
function keyInfo (kind: KeyKind, certificate: X509Certificate): string {
  const str = (inner: string): string => `<ds:KeyInfo><wsse:SecurityTokenReference>${inner}</wsse:SecurityTokenReference></ds:KeyInfo>`
  switch (kind) {
    case 'bst': return str(`<wsse:Reference URI="#X509-1" ValueType="${X509V3}"/>`)
    case 'ski': return str(`<wsse:KeyIdentifier ValueType="${SKI}" EncodingType="${BASE64}">${subjectKeyIdentifier(certificate).toString('base64')}</wsse:KeyIdentifier>`)
    case 'thumbprint': return str(`<wsse:KeyIdentifier ValueType="${THUMBPRINT}" EncodingType="${BASE64}">${createHash('sha1').update(certificate.raw).digest('base64')}</wsse:KeyIdentifier>`)
    case 'issuerSerial': {
      const issuer = certificate.issuer.split('\n').reverse().join(',')
      return str(`<ds:X509Data><ds:X509IssuerSerial><ds:X509IssuerName>${issuer}</ds:X509IssuerName><ds:X509SerialNumber>${BigInt(`0x${certificate.serialNumber}`).toString()}</ds:X509SerialNumber></ds:X509IssuerSerial></ds:X509Data>`)
    }
  }
}

/** The SignatureValue of SignedInfo as `text` holds it (exc-c14n in its place), put in its place. */
export function resign (text: string, key: string | KeyObject, method: keyof typeof METHODS = 'rsa-sha256', prefixList?: string): string {
  const view = readSigningView(text)
  const signedInfo = findFirst(view, DS, 'SignedInfo')
  const octets = exclusiveC14n(signedInfo, prefixList === undefined ? [] : prefixList.split(' '))
  const { hash } = METHODS[method]
  const signer = createSign(hash).update(octets, 'utf8')
  const value = method === 'ecdsa-sha256' ? signer.sign({ key: key as string, dsaEncoding: 'ieee-p1363' }) : signer.sign(key)
  return text.replace(SIGNATURE_VALUE, value.toString('base64'))
}

export function findFirst (root: SigningElement, namespace: string, localName: string): SigningElement {
  const stack = [root]
  while (stack.length > 0) {
    const e = stack.shift() as SigningElement
    if (e.namespace === namespace && e.localName === localName) return e
    for (const c of e.children) if (typeof c !== 'string') stack.push(c)
  }
  throw new Error(`no ${localName}`)
}

/** An envelope signed as `options` say, by a signer of the test's own (not lib/ws/security/sign.ts). */
export function signedRequest (options: SignOptions = {}): string {
  const version = options.version ?? '1.2'
  const certificatePem = options.certificate ?? CLIENT_PEM
  const certificate = new X509Certificate(certificatePem)
  const keyKind = options.keyKind ?? 'bst'
  const method = options.method ?? 'rsa-sha256'
  const digest = options.digest ?? 'sha256'
  const inclusive = options.prefixList === undefined ? '' : `<ec:InclusiveNamespaces xmlns:ec="${EXC}" PrefixList="${options.prefixList}"/>`
  const token = keyKind === 'bst'
    ? `<wsse:BinarySecurityToken wsu:Id="X509-1" ValueType="${X509V3}" EncodingType="${BASE64}">${certificate.raw.toString('base64')}</wsse:BinarySecurityToken>`
    : ''
  const body = options.body ?? `<t:Echo xmlns:t="${NS}"><t:text>hello</t:text></t:Echo>`
  const ts = (options.timestamp ?? timestampXml(instant(), instant(300_000))).replace('<wsu:Timestamp>', '<wsu:Timestamp wsu:Id="TS-1">')
  const security = `<wsse:Security xmlns:wsse="${WSSE}" xmlns:wsu="${WSU}" s:mustUnderstand="${version === '1.2' ? 'true' : '1'}"${options.securityAttributes ?? ''}>${ts}${token}${options.inSecurity ?? ''}<!--SIG--></wsse:Security>`
  let text = envelope(version, body, (options.headers ?? '') + security, ` xmlns:wsu="${WSU}"`).replace('<s:Body>', '<s:Body wsu:Id="Body-1">')
  const view = readSigningView(text)
  const prefixes = options.prefixList === undefined ? [] : options.prefixList.split(' ')
  let references = ''
  for (const id of options.sign ?? ['Body-1', 'TS-1']) {
    const element = byId(view, id)
    // The Signature is not in the text yet: an enveloped-signature transform has nothing to take out.
    const octets = exclusiveC14n(element, prefixes)
    const value = createHash(digest === 'md5' ? 'md5' : digest).update(octets, 'utf8').digest('base64')
    const transforms = (options.enveloped?.includes(id) === true ? `<ds:Transform Algorithm="${ENVELOPED}"/>` : '') + `<ds:Transform Algorithm="${EXC}">${inclusive}</ds:Transform>`
    references += `<ds:Reference URI="#${id}"><ds:Transforms>${transforms}</ds:Transforms><ds:DigestMethod Algorithm="${DIGESTS[digest]}"/><ds:DigestValue>${value}</ds:DigestValue></ds:Reference>`
  }
  const signature = `<ds:Signature xmlns:ds="${DS}" Id="SIG-1"><ds:SignedInfo><ds:CanonicalizationMethod Algorithm="${EXC}">${inclusive}</ds:CanonicalizationMethod>` +
    `<ds:SignatureMethod Algorithm="${METHODS[method].uri}"/>${references}</ds:SignedInfo><ds:SignatureValue>${SIGNATURE_VALUE}</ds:SignatureValue>${keyInfo(keyKind, certificate)}</ds:Signature>`
  text = text.replace('<!--SIG-->', signature)
  return method === 'hmac-sha256' ? text.replace(SIGNATURE_VALUE, 'AAAA') : resign(text, options.key ?? CLIENT_KEY, method, options.prefixList)
}

/** A service whose Echo answers the text, the signer's subject and the user; with `security` as given. */
export function signedService (security: Omit<Partial<SoapSecurityOptions>, 'x509'> & { x509?: Partial<SoapX509Options> } = {}): SoapServiceDefinition {
  const echo = { type: 'object', properties: { text: { type: 'string' } }, additionalProperties: false } as const
  const out = { type: 'object', properties: { text: { type: 'string' }, subject: { type: 'string' }, from: { type: 'string' } }, additionalProperties: false } as const
  return {
    path: '/signed',
    namespace: NS,
    name: 'Signed',
    operations: {
      Echo: {
        input: echo,
        output: out,
        async handler (input: { text?: string }, call: { soap: { principal?: { subject: string, from: string } } }) {
          return { text: input.text ?? '', subject: call.soap.principal?.subject ?? '(none)', from: call.soap.principal?.from ?? '(none)' }
        }
      } as never,
      Open: { input: echo, output: out, async handler () { return { text: 'open' } } } as never,
      Upload: {
        input: { type: 'object', properties: { data: { type: 'string', contentEncoding: 'base64' } }, required: ['data'], additionalProperties: false },
        output: out,
        async handler (input: { data: Buffer }) { return { text: createHash('sha256').update(input.data).digest('hex') } }
      } as never
    },
    security: { ...security, x509: { trust: CA_PEM, ...security.x509 } } as SoapSecurityOptions
  }
}

export async function buildSigned (t: TestContext, definition: SoapServiceDefinition = signedService()): Promise<FastifyInstance> {
  return await serviceApp(t, definition)
}

export type Response = Awaited<ReturnType<typeof post>>

export async function send (app: FastifyInstance, text: string, version: SoapVersion = '1.2'): Promise<Response> {
  return await post(app, version, text, { url: '/signed', headers: { soapaction: '""' } })
}

export type X509FaultName = 'FailedCheck' | 'SecurityTokenUnavailable' | 'UnsupportedAlgorithm' | 'InvalidSecurity' |
'InvalidSecurityToken' | 'UnsupportedSecurityToken' | 'FailedAuthentication' | 'MessageExpired'

/** WSS 1.1 §12: the fault `name`, Sender, its QName the 1.2 subcode and the 1.1 faultcode, no detail. */
export async function assertX509Fault (t: TestContext, response: { statusCode: number, body: string }, version: SoapVersion, name: X509FaultName, message = ''): Promise<void> {
  const ns = name === 'MessageExpired' ? WSU : WSSE
  const where = `${message}: ${response.body}`
  if (version === '1.2') {
    t.assert.strictEqual(response.statusCode, 400, where)
    t.assert.ok(response.body.includes(`<soap:Subcode><soap:Value xmlns:sc0="${ns}">sc0:${name}</soap:Value></soap:Subcode>`), where)
  } else {
    t.assert.strictEqual(response.statusCode, 500, where)
    t.assert.ok(response.body.includes(`<faultcode xmlns:fc="${ns}">fc:${name}</faultcode>`), where)
  }
  t.assert.doesNotMatch(response.body, /[Dd]etail>/, 'no detail')
  await assertValidEnvelope(t, response.body, version, message)
}

/** The subject the handler saw, or undefined. */
export const subjectOf = (body: string): string | undefined => /<tns:subject>([^<]*)<\/tns:subject>/.exec(body)?.[1]

/** An envelope signed by lib/ws/security/sign.ts: its Body and Timestamp, with the demo client's key (or another). */
export function signedByLib (options: { version?: SoapVersion, body?: string, key?: string, certificate?: string } = {}): string {
  const version = options.version ?? '1.2'
  const body = options.body ?? `<t:Echo xmlns:t="${NS}"><t:text>hello</t:text></t:Echo>`
  const ts = timestampXml(instant(), instant(300_000)).replace('<wsu:Timestamp>', '<wsu:Timestamp wsu:Id="TS-1">')
  const text = envelope(version, body, `<wsse:Security xmlns:wsse="${WSSE}" xmlns:wsu="${WSU}">${ts}<!--SIG--></wsse:Security>`, ` xmlns:wsu="${WSU}"`)
    .replace('<s:Body>', '<s:Body wsu:Id="Body-1">')
  const view = readSigningView(text)
  const signer = x509Signer(options.key ?? CLIENT_KEY, options.certificate ?? CLIENT_PEM)
  const parts = ['Body-1', 'TS-1'].map((id) => ({ element: byId(view, id), id }))
  return text.replace('<!--SIG-->', signElements(parts, signer))
}

export const FIXTURE_X509 = join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'x509')
export const fixture = (name: string): string => readFileSync(join(FIXTURE_X509, name), 'utf8')
