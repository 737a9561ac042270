/** Building WS-Security headers for the tests: UsernameTokens (text or digest) and Timestamps, well formed or not. */
import { createHash, randomBytes } from 'node:crypto'

export const WSSE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd'
export const WSU = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd'
const PROFILE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0'
export const PASSWORD_TEXT = `${PROFILE}#PasswordText`
export const PASSWORD_DIGEST = `${PROFILE}#PasswordDigest`
export const BASE64_BINARY = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary'

/** An xs:dateTime in UTC, `offsetMs` from now, without milliseconds (as most clients write it). */
export function instant (offsetMs = 0): string {
  return new Date(Date.now() + offsetMs).toISOString().replace(/\.\d{3}Z$/, 'Z')
}

export interface TokenOptions {
  readonly user?: string
  readonly password?: string
  readonly digest?: boolean
  /** The Nonce's bytes (a fresh 16 by default), its raw text, or null for none. */
  readonly nonce?: Buffer | string | null
  /** The Created as written (now by default), or null for none. */
  readonly created?: string | null
  /** The Password's Type attribute as written; by default the one the mode names. */
  readonly type?: string | null
  /** More children of the token. */
  readonly extra?: string
}

/** A wsse:UsernameToken; a digest is computed over the Nonce and Created as sent. */
export function usernameToken (options: TokenOptions = {}): string {
  const user = options.user ?? 'demo'
  const password = options.password ?? 'demo'
  const nonce = options.nonce === undefined ? randomBytes(16) : options.nonce
  const nonceText = nonce === null ? undefined : typeof nonce === 'string' ? nonce : nonce.toString('base64')
  const created = options.created === undefined ? instant() : options.created
  let value = password
  if (options.digest === true) {
    const hash = createHash('sha1')
    if (nonce !== null) hash.update(typeof nonce === 'string' ? Buffer.from(nonce, 'base64') : nonce)
    if (created !== null) hash.update(created)
    value = hash.update(password).digest('base64')
  }
  const type = options.type === undefined ? (options.digest === true ? PASSWORD_DIGEST : PASSWORD_TEXT) : options.type
  return `<wsse:UsernameToken><wsse:Username>${user}</wsse:Username>` +
    `<wsse:Password${type === null ? '' : ` Type="${type}"`}>${value}</wsse:Password>` +
    (nonceText === undefined ? '' : `<wsse:Nonce EncodingType="${BASE64_BINARY}">${nonceText}</wsse:Nonce>`) +
    (created === null ? '' : `<wsu:Created>${created}</wsu:Created>`) +
    (options.extra ?? '') + '</wsse:UsernameToken>'
}

/** A wsu:Timestamp, its Created and Expires as written (null leaves one out). */
export function timestamp (created: string | null = instant(), expires: string | null = instant(300_000)): string {
  return `<wsu:Timestamp>${created === null ? '' : `<wsu:Created>${created}</wsu:Created>`}${expires === null ? '' : `<wsu:Expires>${expires}</wsu:Expires>`}</wsu:Timestamp>`
}

/** A wsse:Security header block around `content`, with more attributes (mustUnderstand, actor or role) as written. */
export function security (content: string, attributes = ''): string {
  return `<wsse:Security xmlns:wsse="${WSSE}" xmlns:wsu="${WSU}"${attributes}>${content}</wsse:Security>`
}
