/**
 * Making an XML Signature for a Security header (WSS 1.1 SOAP Message
 * Security §8, X.509 Token Profile 1.1 §3.2.1): the signer's certificate as a
 * wsse:BinarySecurityToken, and a ds:Signature whose References digest the
 * given elements of a signing view (exc-c14n, SHA-256), signed with
 * RSA-SHA256 (ECDSA-SHA256 for an EC key), its KeyInfo a Reference to the
 * token. What verify.ts checks, it can make.
 */
import { createHash, createPrivateKey, createSign, KeyObject, randomBytes, X509Certificate } from 'node:crypto'
import { DS_NS, WSSE_NS, WSU_NS } from '../../namespaces'
import { exclusiveC14n, type SigningElement } from '../../xml/c14n'
import { isNCName } from '../../xml/chars'
import { DIGEST_SHA256, ECDSA_SHA256, EXC_C14N, RSA_SHA256 } from './algorithms'
import { X509V3 } from './signature-read'
import { BASE64_BINARY } from './token'

/** A private key and its certificate, ready to sign with. */
export interface X509Signer {
  readonly key: KeyObject
  readonly certificate: X509Certificate
  /** The certificate's DER in Base64: a BinarySecurityToken's text, made once. */
  readonly token: string
  /** The SignatureMethod: RSA-SHA256, or ECDSA-SHA256 for an EC key. */
  readonly method: string
}

/** A signer of a PEM (or DER) private key and its PEM certificate; throws when either cannot be read. */
export function x509Signer (
  key: string | Buffer | KeyObject, certificate: string | Buffer | X509Certificate
): X509Signer {
  const privateKey = key instanceof KeyObject ? key : createPrivateKey(key)
  const cert = certificate instanceof X509Certificate ? certificate : new X509Certificate(certificate)
  const type = privateKey.asymmetricKeyType
  if (type !== 'rsa' && type !== 'ec') throw new TypeError(`an X.509 signer's key must be RSA or EC, not ${type}`)
  if (!cert.checkPrivateKey(privateKey)) throw new TypeError('the key is not the certificate\'s')
  const method = type === 'ec' ? ECDSA_SHA256 : RSA_SHA256
  return { key: privateKey, certificate: cert, token: cert.raw.toString('base64'), method }
}

/** An element to sign, and the wsu:Id (or Id) it carries in the view: an NCName. */
export interface SignedElement {
  readonly element: SigningElement
  readonly id: string
}

/** An Id of its own, for a token or a signature. */
function freshId (kind: string): string {
  return `${kind}-${randomBytes(12).toString('hex')}`
}

/**
 * SignedInfo written in its canonical form already (exc-c14n of it is itself, wherever it is put: it uses the
 * ds prefix alone and declares it), so that what is signed is what is sent.
 */
function signedInfoOf (method: string, parts: readonly SignedElement[]): string {
  const algorithm = (name: string, uri: string): string => `<ds:${name} Algorithm="${uri}"></ds:${name}>`
  let out = `<ds:SignedInfo xmlns:ds="${DS_NS}">` + algorithm('CanonicalizationMethod', EXC_C14N) +
    algorithm('SignatureMethod', method)
  for (const { element, id } of parts) {
    if (!isNCName(id)) throw new TypeError(`an Id signed must be an NCName, not ${JSON.stringify(id)}`)
    const digest = createHash('sha256').update(exclusiveC14n(element), 'utf8').digest('base64')
    out += `<ds:Reference URI="#${id}"><ds:Transforms>${algorithm('Transform', EXC_C14N)}` +
      `</ds:Transforms>${algorithm('DigestMethod', DIGEST_SHA256)}<ds:DigestValue>${digest}</ds:DigestValue>` +
      '</ds:Reference>'
  }
  return out + '</ds:SignedInfo>'
}

/**
 * The wsse:BinarySecurityToken and ds:Signature over `parts`, to be put in the Security header the view's
 * envelope will carry (where the elements signed stay as they are in the view), each declaring the
 * namespaces it uses.
 */
export function signElements (parts: readonly SignedElement[], signer: X509Signer): string {
  const tokenId = freshId('X509')
  const signedInfo = signedInfoOf(signer.method, parts)
  const sign = createSign('sha256').update(signedInfo, 'utf8')
  const value = signer.method === ECDSA_SHA256
    ? sign.sign({ key: signer.key, dsaEncoding: 'ieee-p1363' })
    : sign.sign(signer.key)
  return `<wsse:BinarySecurityToken xmlns:wsse="${WSSE_NS}" xmlns:wsu="${WSU_NS}" wsu:Id="${tokenId}" ` +
    `ValueType="${X509V3}" EncodingType="${BASE64_BINARY}">${signer.token}` +
    `</wsse:BinarySecurityToken><ds:Signature xmlns:ds="${DS_NS}" Id="${freshId('SIG')}">${signedInfo}` +
    `<ds:SignatureValue>${value.toString('base64')}</ds:SignatureValue><ds:KeyInfo>` +
    `<wsse:SecurityTokenReference xmlns:wsse="${WSSE_NS}"><wsse:Reference URI="#${tokenId}" ValueType="${X509V3}"/>` +
    '</wsse:SecurityTokenReference></ds:KeyInfo></ds:Signature>'
}
