/**
 * A request signed as a WSS X.509 client signs it (WSS X.509 Token Profile
 * 1.1): the signer's certificate as a wsse:BinarySecurityToken, a
 * wsu:Timestamp, and one ds:Signature over the Body and the Timestamp
 * (exclusive C14N, RSA-SHA256, SHA-256 digests), made by xml-crypto, the
 * library node-soap's WSSecurityCert signs with. For the demo's tests and
 * the bench's signed workload; the real clients are in test/clients/.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { SignedXml } from 'xml-crypto'
import { SOAP11_ENV, SOAP12_ENV } from '../../../lib/index'

const WSSE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd'
const WSU = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd'
const TOKEN = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509v3'
const BASE64 = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary'
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#'

export interface SignedEnvelopeOptions {
  /** The folder holding `<signer>.pem` and `<signer>.key` (PEM). */
  readonly folder: string
  /** The file name of the key and certificate, without extension: 'test-client' by default. */
  readonly signer?: string
  /** The Timestamp's Created (ms since the epoch): now by default. */
  readonly now?: number
  /** How long after Created the Timestamp's Expires is (ms): 5 minutes by default. */
  readonly expiresIn?: number
}

/** A SOAP `version` envelope with `body` (the Body's content), signed as above. */
export function signedEnvelope (version: '1.1' | '1.2', body: string, options: SignedEnvelopeOptions): string {
  const signer = options.signer ?? 'test-client'
  const now = options.now ?? Date.now()
  const certificate = readFileSync(join(options.folder, `${signer}.pem`), 'utf8').replace(/-----[A-Z ]+-----|\s/g, '')
  const created = new Date(now).toISOString()
  const expires = new Date(now + (options.expiresIn ?? 300_000)).toISOString()
  const envelope = '<?xml version="1.0" encoding="utf-8"?>' +
    `<soap:Envelope xmlns:soap="${version === '1.1' ? SOAP11_ENV : SOAP12_ENV}" xmlns:wsse="${WSSE}" xmlns:wsu="${WSU}"><soap:Header>` +
    `<wsse:Security soap:mustUnderstand="${version === '1.1' ? '1' : 'true'}">` +
    `<wsse:BinarySecurityToken wsu:Id="token" ValueType="${TOKEN}" EncodingType="${BASE64}">${certificate}</wsse:BinarySecurityToken>` +
    `<wsu:Timestamp wsu:Id="timestamp"><wsu:Created>${created}</wsu:Created><wsu:Expires>${expires}</wsu:Expires></wsu:Timestamp>` +
    `</wsse:Security></soap:Header><soap:Body wsu:Id="body">${body}</soap:Body></soap:Envelope>`
  const signed = new SignedXml({
    privateKey: readFileSync(join(options.folder, `${signer}.key`)),
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: EXC_C14N,
    idMode: 'wssecurity',
    getKeyInfoContent: () => `<wsse:SecurityTokenReference><wsse:Reference URI="#token" ValueType="${TOKEN}"/></wsse:SecurityTokenReference>`
  })
  for (const part of ['Body', 'Timestamp']) {
    signed.addReference({ xpath: `//*[local-name(.)='${part}']`, transforms: [EXC_C14N], digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256' })
  }
  signed.computeSignature(envelope, { prefix: 'ds', location: { reference: "//*[local-name(.)='Security']", action: 'append' }, existingPrefixes: { wsse: WSSE } })
  return signed.getSignedXml()
}
