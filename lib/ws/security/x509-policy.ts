/**
 * WS-SecurityPolicy 1.2 for X.509 signatures (docs/wsdl.md "Policy"): the
 * assertions a generated WSDL states for a service's `security.x509`, an
 * `sp:AsymmetricBinding` at the endpoint and `sp:SignedParts` on its
 * messages; and what a contract's `sp:AsymmetricBinding` and `sp:SignedParts`
 * ask (docs/contract-first.md "WS-Security"), or why they cannot be applied.
 */
import type { Element as DomElement } from '@xmldom/xmldom'
import { SP_13_NS, SP_2005_NS, SP_NS } from '../../namespaces'
import { escapeAttribute } from '../../xml/escape'
import { nestedAssertions } from '../ws-policy'

const INCLUDE = `${SP_NS}/IncludeToken`

/** What the policy of a service's `security.x509` says. */
export interface X509PolicyInputs {
  /** `signed.headers`: `{namespace}localName`, or a namespace alone. */
  readonly signedHeaders: readonly string[]
  /** RSA-SHA1 and SHA-1 digests accepted: the Basic256 suite, unless replies are signed (with RSA-SHA256). */
  readonly allowSha1: boolean
  /** Whether replies are signed. */
  readonly replySigned: boolean
}

/** The assertions stated: at the endpoint (both bindings), on each operation's input, on each output. */
export interface X509Assertions {
  readonly endpoint: readonly string[]
  readonly input: readonly string[]
  readonly output: readonly string[]
}

function x509Token (include: string): string {
  return `<sp:X509Token sp:IncludeToken="${INCLUDE}/${include}"><wsp:Policy><sp:WssX509V3Token10/></wsp:Policy>` +
    '</sp:X509Token>'
}

/** An `sp:Header` of SignedParts for a `signed.headers` entry. */
function signedHeader (entry: string): string {
  const match = /^\{([^}]*)\}(.+)$/.exec(entry)
  const [namespace, name] = match === null ? [entry, undefined] : [match[1], match[2]]
  return `<sp:Header${name === undefined ? '' : ` Name="${escapeAttribute(name)}"`}` +
    ` Namespace="${escapeAttribute(namespace)}"/>`
}

/**
 * WS-SecurityPolicy 1.2 §7.5 `sp:AsymmetricBinding`: the client signs with
 * its X.509 certificate, sent in each request (InitiatorToken
 * AlwaysToRecipient); the service's certificate signs replies and is sent in
 * them (RecipientToken AlwaysToInitiator), or, with replies unsigned, is
 * never sent nor used (Never). The algorithm suite is SHA-1's (Basic256)
 * with `allowSha1`, unless replies are signed: they are signed with
 * RSA-SHA256 and SHA-256 digests, which a client of Basic256 may refuse. A
 * Timestamp signed, whole header blocks and Body only, the header laid out
 * in any order (Lax); `sp:Wss11` names the
 * references to a certificate the plugin resolves. §4.1.1 `sp:SignedParts`
 * on the messages: the Body and the `signed.headers` of a request, the Body
 * of a signed reply.
 */
export function x509Assertions ({ signedHeaders, allowSha1, replySigned }: X509PolicyInputs): X509Assertions {
  const sp = `xmlns:sp="${SP_NS}"`
  const binding = `<sp:AsymmetricBinding ${sp}><wsp:Policy>` +
    `<sp:InitiatorToken><wsp:Policy>${x509Token('AlwaysToRecipient')}</wsp:Policy></sp:InitiatorToken>` +
    `<sp:RecipientToken><wsp:Policy>${x509Token(replySigned ? 'AlwaysToInitiator' : 'Never')}</wsp:Policy>` +
    '</sp:RecipientToken>' +
    `<sp:AlgorithmSuite><wsp:Policy><sp:${allowSha1 && !replySigned ? 'Basic256' : 'Basic256Sha256'}/></wsp:Policy>` +
    '</sp:AlgorithmSuite>' +
    '<sp:Layout><wsp:Policy><sp:Lax/></wsp:Policy></sp:Layout>' +
    '<sp:IncludeTimestamp/><sp:OnlySignEntireHeadersAndBody/>' +
    '</wsp:Policy></sp:AsymmetricBinding>'
  const wss = `<sp:Wss11 ${sp}><wsp:Policy><sp:MustSupportRefKeyIdentifier/><sp:MustSupportRefIssuerSerial/>` +
    '<sp:MustSupportRefThumbprint/></wsp:Policy></sp:Wss11>'
  const parts = (headers: readonly string[]): string =>
    `<sp:SignedParts ${sp}><sp:Body/>${headers.map(signedHeader).join('')}</sp:SignedParts>`
  return { endpoint: [binding, wss], input: [parts(signedHeaders)], output: replySigned ? [parts([])] : [] }
}

const SP_NAMESPACES: ReadonlySet<string> = new Set([SP_NS, SP_2005_NS, SP_13_NS])

function spName (node: DomElement): string | undefined {
  return SP_NAMESPACES.has(node.namespaceURI ?? '') ? node.localName ?? '' : undefined
}

/** The parameters of an sp:X509Token the plugin serves: the token kinds and references its verifier reads. */
const X509_PARAMETERS: ReadonlySet<string> = new Set([
  'WssX509V3Token10', 'WssX509V3Token11', 'RequireKeyIdentifierReference', 'RequireIssuerSerialReference',
  'RequireEmbeddedTokenReference', 'RequireThumbprintReference'
])
/** WS-SecurityPolicy 1.2 §6.1 algorithm suites: SHA-256 ones, and SHA-1 ones (RSA-SHA1, SHA-1 digests). */
const SHA256_SUITE = /^(Basic(256|192|128)|TripleDes)(Sha256)(Rsa15)?$/
const SHA1_SUITE = /^(Basic(256|192|128)|TripleDes)(Rsa15)?$/
/** What else an sp:AsymmetricBinding may say and the plugin serve: it asks nothing of a signature it checks. */
const BINDING_ACCEPTED: ReadonlySet<string> = new Set([
  'Layout', 'IncludeTimestamp', 'OnlySignEntireHeadersAndBody', 'EncryptBeforeSigning', 'SignBeforeEncrypting'
])
const TOKEN_ROLES: ReadonlySet<string> = new Set([
  'InitiatorToken', 'InitiatorSignatureToken', 'RecipientToken', 'RecipientSignatureToken'
])

/** Why an sp:X509Token role cannot be served, or undefined when it can. */
function judgeToken (role: DomElement): string | undefined {
  for (const token of nestedAssertions(role)) {
    if (spName(token) !== 'X509Token') return 'a token other than an X.509 certificate'
    const other = nestedAssertions(token).find((p) => !X509_PARAMETERS.has(spName(p) ?? ''))
    if (other !== undefined) return `an X.509 token with ${other.localName ?? ''}`
  }
  return undefined
}

/**
 * What an sp:AsymmetricBinding (WS-SecurityPolicy 1.2 §7.5) asks of a
 * request: an X.509 signature, SHA-1 allowed when its algorithm suite is a
 * SHA-1 one; `why` it cannot be served otherwise (encryption, a token other
 * than X.509, an algorithm suite or transform the verifier does not have).
 * Its sp:IncludeTimestamp is the caller's.
 */
export function judgeAsymmetricBinding (
  binding: DomElement
): { readonly sha1: boolean, readonly why: string | undefined } {
  let sha1 = false
  let why: string | undefined
  for (const assertion of nestedAssertions(binding)) {
    const name = spName(assertion) ?? ''
    if (TOKEN_ROLES.has(name)) why ??= judgeToken(assertion)
    else if (name === 'AlgorithmSuite') {
      for (const suite of nestedAssertions(assertion)) {
        const suiteName = spName(suite) ?? ''
        if (SHA1_SUITE.test(suiteName)) sha1 = true
        else if (!SHA256_SUITE.test(suiteName)) why ??= `the algorithm suite ${suite.localName ?? ''}`
      }
    } else if (!BINDING_ACCEPTED.has(name)) {
      why ??= name.endsWith('EncryptionToken') || name === 'EncryptSignature'
        ? 'message encryption'
        : `${assertion.localName ?? ''} in an asymmetric binding`
    }
  }
  return { sha1, why }
}

/**
 * The header blocks an sp:SignedParts (§4.1.1) names, as
 * `signed.headers` entries; `why` the plugin cannot serve it: attachments,
 * or no part named (which asks for every header block signed).
 */
export function judgeSignedParts (
  parts: DomElement
): { readonly headers: readonly string[], readonly why: string | undefined } {
  const headers: string[] = []
  let named = false
  let why: string | undefined
  for (let child = parts.firstChild; child !== null; child = child.nextSibling) {
    if (child.nodeType !== 1) continue
    const part = child as DomElement
    const name = spName(part)
    named = true
    if (name === 'Header') {
      const local = part.getAttribute('Name') ?? ''
      const namespace = part.getAttribute('Namespace') ?? ''
      if (namespace === '') why ??= 'an sp:Header with no Namespace'
      headers.push(local === '' ? namespace : `{${namespace}}${local}`)
    } else if (name !== 'Body') why ??= `signed ${part.localName ?? ''}`
  }
  return { headers, why: why ?? (named ? undefined : 'every header block signed') }
}
