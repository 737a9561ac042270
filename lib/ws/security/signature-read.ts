/**
 * A `ds:Signature` read strictly from the signing view (XMLDSig 1.0 §4; WSS
 * 1.1 SOAP Message Security §8): SignedInfo with exc-c14n and a signature
 * method allowed, References to `#id` only with exc-c14n (and at most an
 * enveloped-signature before it), the SignatureValue, and a KeyInfo that is
 * one wsse:SecurityTokenReference. Values are the elements' text (comments
 * are not in the view).
 */
import { DS_NS, WSSE_NS, WSU_NS } from '../../namespaces'
import type { SigningElement } from '../../xml/c14n'
import { isWhitespace, trimXmlSpace } from '../../xml/chars'
import { attributeIn, childElements, textOf } from './elements'
import { ENVELOPED, EXC_C14N, digestAlgorithm, signatureAlgorithm, type SignatureMethod } from './algorithms'
import { securityFault, type SecurityFaultName } from './faults'
import { decodeBase64 } from './token'
import type { CertificateReference } from './trust'

/** References a SignedInfo may hold (Apache Santuario's secure validation allows 30). */
const MAX_REFERENCES = 30
/** The longest DigestValue and SignatureValue read, in characters (a 16,384-bit RSA signature is 2,732). */
const MAX_DIGEST = 256
const MAX_SIGNATURE = 4096

export interface SignedReference {
  /** The Id the URI names (`#id`, without the `#`). */
  readonly id: string
  /** Whether an enveloped-signature transform comes before exc-c14n. */
  readonly enveloped: boolean
  /** The exc-c14n transform's PrefixList. */
  readonly prefixes: readonly string[]
  /** node:crypto's hash name. */
  readonly hash: string
  readonly digest: Buffer
}

/** How KeyInfo names the signer's certificate (WSS X.509 Token Profile 1.1 §3.2). */
export type KeyReference = { readonly kind: 'token', readonly id: string } | CertificateReference

export interface SignatureParts {
  readonly signedInfo: SigningElement
  /** SignedInfo's CanonicalizationMethod PrefixList. */
  readonly prefixes: readonly string[]
  readonly method: SignatureMethod
  readonly references: readonly SignedReference[]
  readonly value: Buffer
  readonly key: KeyReference
}

const X509_PROFILE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0'
export const X509V3 = `${X509_PROFILE}#X509v3`
export const SKI = `${X509_PROFILE}#X509SubjectKeyIdentifier`
export const THUMBPRINT = 'http://docs.oasis-open.org/wss/oasis-wss-soap-message-security-1.1#ThumbprintSHA1'

export function is (element: SigningElement, namespace: string, localName: string): boolean {
  return element.namespace === namespace && element.localName === localName
}

/** Whether an element's EncodingType is Base64Binary, or absent (WSS 1.1 §6.2; X.509 Token Profile 1.1 §3.1). */
export function base64Encoded (element: SigningElement): boolean {
  const encoding = attributeIn(element, 'EncodingType')
  return encoding === undefined || encoding.endsWith('#Base64Binary')
}

/** Base64 text as bytes; an empty or bad one is `fault`. */
function base64In (element: SigningElement, max: number, fault: SecurityFaultName): Buffer {
  const text = textOf(element, fault, max)
  const bytes = isWhitespace(text) ? undefined : decodeBase64(text)
  if (bytes === undefined) throw securityFault(fault)
  return bytes
}

/**
 * An exc-c14n method element (CanonicalizationMethod, or a Transform that named it): nothing but at most one
 * ec:InclusiveNamespaces, whose PrefixList is returned.
 */
function prefixList (method: SigningElement): string[] {
  const children = childElements(method, 'InvalidSecurity')
  if (children.length === 0) return []
  const list = children[0]
  if (children.length > 1 || !is(list, EXC_C14N, 'InclusiveNamespaces')) throw securityFault('InvalidSecurity')
  const value = attributeIn(list, 'PrefixList')
  if (value === undefined || childElements(list, 'InvalidSecurity').length > 0) throw securityFault('InvalidSecurity')
  return value.split(/[ \t\r\n]+/).filter((prefix) => prefix !== '')
}

/** The children of `parent`, each named in DS in the order given; `optional` ones may be absent. */
function sequence (
  parent: SigningElement, names: readonly string[], optional: ReadonlySet<string>
): Map<string, SigningElement> {
  const children = childElements(parent, 'InvalidSecurity')
  const found = new Map<string, SigningElement>()
  let at = 0
  for (const name of names) {
    const child = children[at]
    if (child !== undefined && is(child, DS_NS, name)) {
      found.set(name, child)
      at++
    } else if (!optional.has(name)) {
      throw securityFault('InvalidSecurity')
    }
  }
  if (at !== children.length) throw securityFault('InvalidSecurity')
  return found
}

/** An Algorithm attribute; a method with children is refused (none of those allowed has parameters). */
function algorithmOf (method: SigningElement, bare: boolean): string {
  const uri = attributeIn(method, 'Algorithm')
  if (uri === undefined || (bare && childElements(method, 'InvalidSecurity').length > 0)) {
    throw securityFault('InvalidSecurity')
  }
  return uri
}

/**
 * A Reference: `URI="#id"` only (an empty or absent URI, an XPointer, another document: FailedCheck), then
 * Transforms of exc-c14n last, an enveloped-signature at most before it (anything else: FailedCheck).
 */
function readReference (reference: SigningElement, allowSha1: boolean): SignedReference {
  const uri = attributeIn(reference, 'URI')
  const parts = sequence(reference, ['Transforms', 'DigestMethod', 'DigestValue'], new Set(['Transforms']))
  const hash = digestAlgorithm(algorithmOf(parts.get('DigestMethod') as SigningElement, true), allowSha1)
  const digest = base64In(parts.get('DigestValue') as SigningElement, MAX_DIGEST, 'InvalidSecurity')
  if (uri === undefined || !/^#[^#()]+$/.test(uri)) throw securityFault('FailedCheck')
  const transforms = parts.get('Transforms')
  const list = transforms === undefined ? [] : childElements(transforms, 'InvalidSecurity')
  let enveloped = false
  let prefixes: string[] | undefined
  for (const transform of list) {
    if (!is(transform, DS_NS, 'Transform') || prefixes !== undefined) throw securityFault('FailedCheck')
    const algorithm = algorithmOf(transform, false)
    if (algorithm === ENVELOPED && !enveloped && childElements(transform, 'InvalidSecurity').length === 0) {
      enveloped = true
    } else if (algorithm === EXC_C14N) {
      prefixes = prefixList(transform)
    } else {
      throw securityFault('FailedCheck')
    }
  }
  // Without exc-c14n last, the node-set would be made octets by inclusive C14N 1.0 (XMLDSig §4.3.3.2).
  if (prefixes === undefined) throw securityFault('FailedCheck')
  return { id: uri.slice(1), enveloped, prefixes, hash, digest }
}

/** The KeyInfo: one wsse:SecurityTokenReference (a raw KeyValue, bare X509Data or anything else is refused). */
function readKeyInfo (keyInfo: SigningElement): KeyReference {
  const children = childElements(keyInfo, 'UnsupportedSecurityToken')
  const str = children[0]
  if (children.length !== 1 || !is(str, WSSE_NS, 'SecurityTokenReference')) {
    throw securityFault('UnsupportedSecurityToken')
  }
  const inside = childElements(str, 'InvalidSecurity')
  const ref = inside[0]
  if (inside.length !== 1) throw securityFault('InvalidSecurity')
  if (is(ref, WSSE_NS, 'Reference')) {
    const uri = attributeIn(ref, 'URI')
    const valueType = attributeIn(ref, 'ValueType')
    if (uri === undefined || !/^#[^#()]+$/.test(uri)) throw securityFault('SecurityTokenUnavailable')
    if (valueType !== undefined && valueType !== X509V3) throw securityFault('UnsupportedSecurityToken')
    return { kind: 'token', id: uri.slice(1) }
  }
  if (is(ref, WSSE_NS, 'KeyIdentifier')) {
    const valueType = attributeIn(ref, 'ValueType')
    const kind = valueType === SKI ? 'subjectKeyIdentifier' : valueType === THUMBPRINT ? 'thumbprint' : undefined
    if (kind === undefined) throw securityFault('UnsupportedSecurityToken')
    if (!base64Encoded(ref)) throw securityFault('InvalidSecurityToken')
    return { kind, value: base64In(ref, MAX_DIGEST, 'InvalidSecurityToken') }
  }
  if (is(ref, DS_NS, 'X509Data')) {
    const data = childElements(ref, 'InvalidSecurity')
    if (data.length !== 1 || !is(data[0], DS_NS, 'X509IssuerSerial')) throw securityFault('UnsupportedSecurityToken')
    const parts = sequence(data[0], ['X509IssuerName', 'X509SerialNumber'], new Set())
    const issuer = trimXmlSpace(textOf(parts.get('X509IssuerName') as SigningElement, 'InvalidSecurity', 1024))
    const serial = trimXmlSpace(textOf(parts.get('X509SerialNumber') as SigningElement, 'InvalidSecurity', 128))
    if (!/^\d+$/.test(serial)) throw securityFault('InvalidSecurity')
    return { kind: 'issuerSerial', issuer, serial }
  }
  throw securityFault('UnsupportedSecurityToken')
}

/** Reads a ds:Signature element of the signing view. */
export function readSignature (signature: SigningElement, allowSha1: boolean): SignatureParts {
  const parts = sequence(signature, ['SignedInfo', 'SignatureValue', 'KeyInfo'], new Set())
  const signedInfo = parts.get('SignedInfo') as SigningElement
  const info = childElements(signedInfo, 'InvalidSecurity')
  if (info.length < 3 || info.length - 2 > MAX_REFERENCES) throw securityFault('InvalidSecurity')
  const [c14n, method] = info
  if (!is(c14n, DS_NS, 'CanonicalizationMethod') || !is(method, DS_NS, 'SignatureMethod')) {
    throw securityFault('InvalidSecurity')
  }
  if (algorithmOf(c14n, false) !== EXC_C14N) throw securityFault('UnsupportedAlgorithm')
  const prefixes = prefixList(c14n)
  const signatureMethod = signatureAlgorithm(algorithmOf(method, true), allowSha1)
  const references = info.slice(2).map((reference) => {
    if (!is(reference, DS_NS, 'Reference')) throw securityFault('InvalidSecurity')
    return readReference(reference, allowSha1)
  })
  const value = base64In(parts.get('SignatureValue') as SigningElement, MAX_SIGNATURE, 'InvalidSecurity')
  const key = readKeyInfo(parts.get('KeyInfo') as SigningElement)
  return { signedInfo, prefixes, method: signatureMethod, references, value, key }
}

/** The wsu:Id (or Id, or ID) values of an element, each once. */
export function idsOf (element: SigningElement): string[] {
  const ids: string[] = []
  for (const a of element.attributes) {
    const named = a.namespace === WSU_NS
      ? a.localName === 'Id'
      : a.namespace === '' && (a.name === 'Id' || a.name === 'ID')
    const value = trimXmlSpace(a.value)
    if (named && !ids.includes(value)) ids.push(value)
  }
  return ids
}
