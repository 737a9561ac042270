/**
 * WS-SecurityPolicy 1.2 for X.509 signatures (docs/wsdl.md "Policy"): the
 * assertions a generated WSDL states for a service's `security.x509`, an
 * `sp:AsymmetricBinding` at the endpoint and `sp:SignedParts` on its
 * messages; and what a contract's `sp:AsymmetricBinding` and `sp:SignedParts`
 * ask (docs/contract-first.md "WS-Security"), or why they cannot be applied.
 */
import { SP_NS } from '../../namespaces'
import { escapeAttribute } from '../../xml/escape'

const INCLUDE = `${SP_NS}/IncludeToken`

/** What the policy of a service's `security.x509` says. */
export interface X509PolicyInputs {
  /** `signed.headers`: `{namespace}localName`, or a namespace alone. */
  readonly signedHeaders: readonly string[]
  /** RSA-SHA1 and SHA-1 digests accepted (and written in a signed reply): the Basic256 suite, else Basic256Sha256. */
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
 * never sent nor used (Never). A Timestamp signed, whole header blocks and
 * Body only, the header laid out in any order (Lax); `sp:Wss11` names the
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
    `<sp:AlgorithmSuite><wsp:Policy><sp:${allowSha1 ? 'Basic256' : 'Basic256Sha256'}/></wsp:Policy>` +
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
