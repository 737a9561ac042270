/**
 * The signer's certificate, as a Signature's KeyInfo names it (WSS X.509
 * Token Profile 1.1 §3.2): a wsse:BinarySecurityToken of this Security
 * header its wsse:Reference points at, or a trusted certificate a
 * KeyIdentifier or an X509IssuerSerial names. Never a key the message
 * merely carries elsewhere.
 */
import { X509Certificate } from 'node:crypto'
import { WSSE_NS } from '../../namespaces'
import type { SigningElement } from '../../xml/c14n'
import { securityFault } from './faults'
import { attributeIn, textOf } from './elements'
import { base64Encoded, X509V3, type KeyReference } from './signature-read'
import type { TrustStore } from './trust'
import { decodeBase64 } from './token'

/** The longest BinarySecurityToken read, in characters. */
const MAX_TOKEN = 65_536

/** How many BinarySecurityTokens' certificates a service keeps parsed. */
export const KEPT_TOKENS = 32

/** The certificate of a token's text, its DER in Base64; undefined when the text is no certificate. */
function base64Certificate (text: string): X509Certificate | undefined {
  const der = decodeBase64(text)
  if (der === undefined) return undefined
  try {
    return new X509Certificate(der)
  } catch {
    return undefined
  }
}

/**
 * The certificates of the last texts a service read them from (BinarySecurityTokens, a proxy's header), by
 * their text: a partner's certificate is parsed once, not on each request (parsing one and decoding its key
 * cost more than verifying an RSA signature). Each is only what its text says; trust is decided on each request
 * all the same. At most KEPT_TOKENS, the one read longest ago let go first.
 */
export class TokenCertificates {
  readonly #kept = new Map<string, X509Certificate>()

  /** `read` makes a text's certificate, or undefined when the text is none: by default, Base64 DER. */
  constructor (private readonly read: (text: string) => X509Certificate | undefined = base64Certificate) {}

  /** The certificate of a text; undefined when the text is no certificate. */
  of (text: string): X509Certificate | undefined {
    const kept = this.#kept.get(text)
    if (kept !== undefined) {
      this.#kept.delete(text)
      this.#kept.set(text, kept)
      return kept
    }
    const certificate = this.read(text)
    if (certificate === undefined) return undefined
    if (this.#kept.size === KEPT_TOKENS) this.#kept.delete(this.#kept.keys().next().value as string)
    this.#kept.set(text, certificate)
    return certificate
  }
}

/**
 * A wsse:BinarySecurityToken's certificate: ValueType X509v3, EncodingType Base64Binary (or absent), a DER
 * certificate; anything else is InvalidSecurityToken.
 */
export function tokenCertificate (token: SigningElement, tokens: TokenCertificates): X509Certificate {
  if (attributeIn(token, 'ValueType') !== X509V3 || !base64Encoded(token)) throw securityFault('InvalidSecurityToken')
  const certificate = tokens.of(textOf(token, 'InvalidSecurityToken', MAX_TOKEN))
  if (certificate === undefined) throw securityFault('InvalidSecurityToken')
  return certificate
}

/**
 * The certificate `key` names. A token must be the one element of the message with that Id (a second one is
 * FailedCheck) and a BinarySecurityToken child of `security`; a certificate named by a KeyIdentifier or
 * IssuerSerial must be one `trust` holds. Otherwise SecurityTokenUnavailable.
 */
export function signerCertificate (
  key: KeyReference, security: SigningElement, ids: ReadonlyMap<string, readonly SigningElement[]>, trust: TrustStore,
  tokens: TokenCertificates
): X509Certificate {
  if (key.kind !== 'token') {
    const found = trust.find(key)
    if (found === undefined) throw securityFault('SecurityTokenUnavailable')
    return found
  }
  const named = ids.get(key.id) ?? []
  if (named.length > 1) throw securityFault('FailedCheck')
  const token = named[0]
  if (token?.parent !== security || token.namespace !== WSSE_NS || token.localName !== 'BinarySecurityToken') {
    throw securityFault('SecurityTokenUnavailable')
  }
  return tokenCertificate(token, tokens)
}
