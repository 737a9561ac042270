/**
 * The check of the ds:Signature of a Security header (WSS 1.1 SOAP Message
 * Security §8; docs/security.md "X.509 signatures"), in order: the
 * Signature read strictly; the signer's certificate found; every Reference
 * digested and the SignatureValue verified, before any verdict; the Body,
 * the Timestamp and the other required parts each the very element a
 * verified Reference digested; the certificate trusted.
 */
import { createHash, type X509Certificate } from 'node:crypto'
import { DS_NS, WSSE_NS, WSU_NS } from '../../namespaces'
import type { SoapPrincipal } from '../../types'
import type { SoapHeaderBlock } from '../../soap/headers'
import { exclusiveC14n, type SigningElement } from '../../xml/c14n'
import { verifySignature } from './algorithms'
import { checkCoverage, envelopeParts, idIndex, type SignedHeaders } from './coverage'
import { securityFault } from './faults'
import { signerCertificate, type TokenCertificates } from './key-info'
import { childElements } from './elements'
import { is, readSignature, type SignatureParts } from './signature-read'
import type { X509Signer } from './sign'
import type { TrustStore } from './trust'

/** `security.x509` compiled. */
export interface ServiceX509 {
  readonly trust: TrustStore
  /** The certificates of the BinarySecurityTokens last read. */
  readonly tokens: TokenCertificates
  readonly allowSha1: boolean
  readonly signedHeaders: SignedHeaders
  readonly signedUsernameToken: boolean
  /** The key and certificate replies are signed with, when given. */
  readonly reply: X509Signer | undefined
}

/** What the check reads of a request. */
export interface SignedRequest {
  /** The Envelope of the signing view. */
  readonly view: SigningElement
  /** The header blocks, in document order: the Header's element children in the view, one for one. */
  readonly headers: readonly SoapHeaderBlock[]
  /** The index in `headers` of the Security block checked. */
  readonly security: number
  readonly operation: string
  readonly now: number
}

export interface VerifiedSignature {
  readonly principal: SoapPrincipal
  /**
   * What is claimed once: the SHA-256 of the signer's certificate, then the canonical SignedInfo. What the
   * signature is over, and by whom, not the SignatureValue: an ECDSA (r, s) verifies as (r, n - s) too.
   */
  readonly claim: Buffer
}

/**
 * The elements the References of `parts` digested right, and whether every one did and the SignatureValue is
 * the certificate's key's over SignedInfo: all of them computed, whichever fails.
 */
function digestAll (
  parts: SignatureParts, signature: SigningElement, ids: ReadonlyMap<string, readonly SigningElement[]>,
  certificate: X509Certificate
): { covered: Set<SigningElement>, valid: boolean, signedInfo: Buffer } {
  const covered = new Set<SigningElement>()
  const named = new Set<string>()
  let valid = true
  for (const reference of parts.references) {
    const found = ids.get(reference.id) ?? []
    // An Id on no element or on two (a wrapped copy beside the original), an Id named twice: none digests
    // anything. An enveloped-signature transform takes the Signature out of what it digests, and nothing from an
    // element the Signature is not in (XMLDSig 1.0 §6.6.4), as node-soap sends for the Body.
    const element = found.length === 1 && !named.has(reference.id) ? found[0] : undefined
    named.add(reference.id)
    if (element === undefined) {
      valid = false
      continue
    }
    const octets = exclusiveC14n(element, reference.prefixes, reference.enveloped ? signature : undefined)
    if (createHash(reference.hash).update(octets, 'utf8').digest().equals(reference.digest)) covered.add(element)
    else valid = false
  }
  const signedInfo = Buffer.from(exclusiveC14n(parts.signedInfo, parts.prefixes), 'utf8')
  const signed = verifySignature(parts.method, certificate, signedInfo, parts.value)
  return { covered, valid: valid && signed, signedInfo }
}

/**
 * Checks the Signature of the request's Security block with `x509`: FailedCheck, UnsupportedAlgorithm,
 * InvalidSecurity, InvalidSecurityToken, SecurityTokenUnavailable or FailedAuthentication as the table of
 * docs/protocol.md "WS-Security" says.
 */
export async function verifySignedRequest (x509: ServiceX509, request: SignedRequest): Promise<VerifiedSignature> {
  const { header, body } = envelopeParts(request.view)
  const blocks = childElements(header as SigningElement, 'InvalidSecurity')
  const security = blocks[request.security]
  const children = childElements(security, 'InvalidSecurity')
  const signature = children.find((child) => is(child, DS_NS, 'Signature')) as SigningElement
  const timestamp = children.find((child) => is(child, WSU_NS, 'Timestamp')) as SigningElement
  const token = children.find((child) => is(child, WSSE_NS, 'UsernameToken'))

  const parts = readSignature(signature, x509.allowSha1)
  const ids = idIndex(request.view)
  const certificate = signerCertificate(parts.key, security, ids, x509.trust, x509.tokens)
  const { covered, valid, signedInfo } = digestAll(parts, signature, ids, certificate)
  if (!valid) throw securityFault('FailedCheck')
  checkCoverage({
    body,
    timestamp,
    headers: blocks.filter((_, i) => x509.signedHeaders(request.headers[i])),
    usernameToken: x509.signedUsernameToken ? token : undefined
  }, covered)
  const principal = await x509.trust.check(certificate, request.now, request.operation, 'signature')
  const claim = Buffer.concat([createHash('sha256').update(certificate.raw).digest(), signedInfo])
  return { principal, claim }
}
