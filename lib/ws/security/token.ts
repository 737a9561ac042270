/**
 * The UsernameToken (WSS UsernameToken Profile 1.1): read strictly from its
 * element, then authenticated against the user's secret in constant time,
 * with the same fault and the same work for an unknown user as for a wrong
 * password (docs/security.md "WS-Security").
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { WSSE_NS, WSU_NS } from '../../namespaces'
import type { SoapUserSecret, SoapUsernameTokenOptions } from '../../types'
import type { XmlElement } from '../../xml/element'
import { isWhitespace, trimXmlSpace } from '../../xml/chars'
import { securityFault } from './faults'
import { attributeIn, childElements, textOf } from './elements'
import { parseDateTime } from './timestamp'
import { bytesOf } from '../../codec/binary'

const PROFILE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0'
export const PASSWORD_TEXT = `${PROFILE}#PasswordText`
export const PASSWORD_DIGEST = `${PROFILE}#PasswordDigest`
// eslint-disable-next-line @stylistic/max-len -- a URI, kept whole to be found by search
export const BASE64_BINARY = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary'

/**
 * The longest values read, in characters: a username, a password (or its digest), a Base64 Nonce
 * (192 bytes), a Created.
 */
export const MAX_USERNAME = 256
export const MAX_PASSWORD = 1024
export const MAX_NONCE = 256
const MAX_CREATED = 64

export interface UsernameToken {
  readonly username: string
  readonly type: 'text' | 'digest'
  /** The Password element's text: the password, or the Base64 digest. */
  readonly password: string
  /** The Nonce's bytes, when one was sent. */
  readonly nonce: Buffer | undefined
  /** The Created as sent (the digest covers it as written) and the instant it names. */
  readonly created: { readonly text: string, readonly instant: number } | undefined
}

/** Base64 (xs:base64Binary, white space allowed) as bytes, read as the codec reads it; undefined when it is not. */
export function decodeBase64 (text: string): Buffer | undefined {
  const bytes = bytesOf('base64', text)
  return typeof bytes === 'string' ? undefined : bytes
}

/** The one child of each kind: a second, an unknown child, or text between them is InvalidSecurityToken. */
function parts (token: XmlElement): Map<string, XmlElement> {
  const found = new Map<string, XmlElement>()
  for (const child of childElements(token, 'InvalidSecurityToken')) {
    const kind = child.namespace === WSSE_NS && ['Username', 'Password', 'Nonce'].includes(child.localName)
      ? child.localName
      : child.namespace === WSU_NS && child.localName === 'Created' ? 'Created' : undefined
    if (kind === undefined || found.has(kind)) throw securityFault('InvalidSecurityToken')
    found.set(kind, child)
  }
  return found
}

/** Reads a wsse:UsernameToken element. */
export function readUsernameToken (token: XmlElement): UsernameToken {
  const found = parts(token)
  const user = found.get('Username')
  const pass = found.get('Password')
  if (user === undefined || pass === undefined) throw securityFault('InvalidSecurityToken')
  // XML white space only (space, tab, CR, LF): U+00A0 or U+3000 around a name make another name.
  const username = trimXmlSpace(textOf(user, 'InvalidSecurityToken', MAX_USERNAME))
  if (username === '') throw securityFault('InvalidSecurityToken')
  const typeUri = attributeIn(pass, 'Type')
  const type = typeUri === undefined || typeUri === PASSWORD_TEXT
    ? 'text'
    : typeUri === PASSWORD_DIGEST ? 'digest' : undefined
  if (type === undefined) throw securityFault('UnsupportedSecurityToken')
  const password = textOf(pass, 'InvalidSecurityToken', MAX_PASSWORD)
  let nonce: Buffer | undefined
  const nonceElement = found.get('Nonce')
  if (nonceElement !== undefined) {
    const encoding = attributeIn(nonceElement, 'EncodingType')
    if (encoding !== undefined && encoding !== BASE64_BINARY) throw securityFault('InvalidSecurityToken')
    const text = textOf(nonceElement, 'InvalidSecurityToken', MAX_NONCE)
    nonce = isWhitespace(text) ? undefined : decodeBase64(text)
    if (nonce === undefined) throw securityFault('InvalidSecurityToken')
  }
  let created: UsernameToken['created']
  const createdElement = found.get('Created')
  if (createdElement !== undefined) {
    const text = textOf(createdElement, 'InvalidSecurityToken', MAX_CREATED)
    const instant = parseDateTime(text)
    if (instant === undefined) throw securityFault('InvalidSecurityToken')
    created = { text, instant }
  }
  return { username, type, password, nonce, created }
}

/** Stands for the secret of a user the lookup does not know, so that both cases do the same work. */
const UNKNOWN = randomBytes(24).toString('base64')

function sha256 (data: Buffer | string): Buffer {
  return createHash('sha256').update(data).digest()
}

/** Password_Digest = Base64(SHA-1(nonce + created + password)) (UsernameToken Profile 1.1 §3.1), as bytes. */
export function passwordDigest (nonce: Buffer | undefined, created: string | undefined, password: string): Buffer {
  const hash = createHash('sha1')
  if (nonce !== undefined) hash.update(nonce)
  if (created !== undefined) hash.update(created, 'utf8')
  return hash.update(password, 'utf8').digest()
}

/** Equal, in time that does not depend on where they differ: both hashed to 32 bytes first. */
function same (a: Buffer | string, b: Buffer | string): boolean {
  return timingSafeEqual(sha256(a), sha256(b))
}

/**
 * Whether the token's password is the user's: the lookup's answer compared
 * in constant time. An unknown user, a verifier asked about a digest, or a
 * value the lookup should not give all fail after the same comparison.
 */
export async function authenticate (
  token: UsernameToken, lookup: SoapUsernameTokenOptions['lookup']
): Promise<boolean> {
  const secret: SoapUserSecret | undefined | null = await lookup(token.username)
  const known = secret !== undefined && secret !== null
  if (known && typeof secret !== 'string' && typeof secret?.verify !== 'function') {
    throw new TypeError('the UsernameToken lookup must give a string, an object with verify(), or undefined')
  }
  if (token.type === 'text' && known && typeof secret !== 'string') {
    return await secret.verify(token.password) === true
  }
  const password = typeof secret === 'string' ? secret : UNKNOWN
  let match: boolean
  if (token.type === 'digest') {
    const sent = decodeBase64(token.password)
    match = same(sent ?? '', passwordDigest(token.nonce, token.created?.text, password)) && sent !== undefined
  } else {
    match = same(token.password, password)
  }
  return match && typeof secret === 'string'
}
