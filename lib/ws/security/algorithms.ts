/**
 * The algorithms an XML Signature may name here (XMLDSig 1.1 §6; RFC 6931),
 * by URI: the canonicalization and transforms, the digests, the signature
 * methods. Any other is UnsupportedAlgorithm (transforms: FailedCheck); SHA-1
 * only with `allowSha1`.
 */
import { createVerify, type X509Certificate } from 'node:crypto'
import { securityFault } from './faults'

export const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#'
export const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature'
const MORE = 'http://www.w3.org/2001/04/xmldsig-more#'
const ENC = 'http://www.w3.org/2001/04/xmlenc#'

/** Digest methods by URI: node:crypto's hash name. */
const DIGESTS: Readonly<Record<string, string>> = {
  __proto__: null as never,
  'http://www.w3.org/2000/09/xmldsig#sha1': 'sha1',
  [`${ENC}sha256`]: 'sha256',
  [`${MORE}sha384`]: 'sha384',
  [`${ENC}sha512`]: 'sha512'
}

export interface SignatureMethod {
  /** node:crypto's hash name. */
  readonly hash: string
  readonly key: 'rsa' | 'ec'
}

/** Signature methods by URI. */
const SIGNATURES: Readonly<Record<string, SignatureMethod>> = {
  __proto__: null as never,
  'http://www.w3.org/2000/09/xmldsig#rsa-sha1': { hash: 'sha1', key: 'rsa' },
  [`${MORE}rsa-sha256`]: { hash: 'sha256', key: 'rsa' },
  [`${MORE}rsa-sha384`]: { hash: 'sha384', key: 'rsa' },
  [`${MORE}rsa-sha512`]: { hash: 'sha512', key: 'rsa' },
  [`${MORE}ecdsa-sha256`]: { hash: 'sha256', key: 'ec' }
}

export const DIGEST_SHA256 = `${ENC}sha256`
export const RSA_SHA256 = `${MORE}rsa-sha256`
export const ECDSA_SHA256 = `${MORE}ecdsa-sha256`

/** The hash of a DigestMethod; one not allowed is UnsupportedAlgorithm. */
export function digestAlgorithm (uri: string, allowSha1: boolean): string {
  const hash = DIGESTS[uri]
  if (hash === undefined || (hash === 'sha1' && !allowSha1)) throw securityFault('UnsupportedAlgorithm')
  return hash
}

/** A SignatureMethod; one not allowed is UnsupportedAlgorithm. */
export function signatureAlgorithm (uri: string, allowSha1: boolean): SignatureMethod {
  const method = SIGNATURES[uri]
  if (method === undefined || (method.hash === 'sha1' && !allowSha1)) throw securityFault('UnsupportedAlgorithm')
  return method
}

/**
 * Whether `signature` is the key of `certificate`'s over `data` by `method`: false for a key of the other kind
 * (an RSA method with an EC key) or one node:crypto cannot read (an algorithm it does not know), never a throw.
 * An ECDSA SignatureValue is r || s (XMLDSig 1.1 §6.4.3), IEEE P1363's form.
 */
export function verifySignature (
  method: SignatureMethod, certificate: X509Certificate, data: Buffer, signature: Buffer
): boolean {
  try {
    // The key is decoded when first asked for: a certificate's DER reads without it.
    const key = certificate.publicKey
    if (key.asymmetricKeyType !== method.key) return false
    const verifier = createVerify(method.hash).update(data)
    return method.key === 'ec'
      ? verifier.verify({ key, dsaEncoding: 'ieee-p1363' }, signature)
      : verifier.verify(key, signature)
  } catch {
    return false
  }
}
