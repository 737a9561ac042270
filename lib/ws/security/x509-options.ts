/**
 * The `security.x509` key, checked and compiled at `ready()` (docs/security.md
 * "X.509 signatures"): its keys and their types, the trust store, what must
 * be signed, SHA-1, the key and certificate replies are signed with.
 */
import type { SoapX509Options } from '../../types'
import { isObject, KnownKeys, type KeyRecord } from '../../codec/keys'
import { signedHeaders } from './coverage'
import { x509Signer } from './sign'
import type { ServiceX509 } from './signature-verify'
import { TokenCertificates } from './key-info'
import { compileTrust } from './trust'

const X509_KEYS = new KnownKeys({
  trust: true, lookup: true, signed: true, allowSha1: true, reply: true
} as const satisfies KeyRecord<SoapX509Options>)
const SIGNED_KEYS = new KnownKeys({
  headers: true, usernameToken: true
} as const satisfies KeyRecord<NonNullable<SoapX509Options['signed']>>)
const REPLY_KEYS = new KnownKeys({
  key: true, certificate: true
} as const satisfies KeyRecord<NonNullable<SoapX509Options['reply']>>)

/** What a service needs to know of the rest of its `security` to compile `x509`. */
export interface X509Context {
  /** Whether the service requires a UsernameToken. */
  readonly usernameToken: boolean
  readonly clockSkew: number
}

/** The compiled `security.x509`; `bad` throws SOAP_ERR_SERVICE_INVALID with the problem. */
export function compileX509 (bad: (problem: string) => never, value: unknown, context: X509Context): ServiceX509 {
  if (!isObject(value)) return bad('.x509 must be an object')
  const unknownKey = (object: Record<string, unknown>, known: KnownKeys, where: string): void => {
    const problem = known.problemIn(object, `.x509${where}`)
    if (problem !== undefined) bad(problem)
  }
  unknownKey(value, X509_KEYS, '')
  if (value.allowSha1 !== undefined && typeof value.allowSha1 !== 'boolean') bad('.x509.allowSha1 must be a boolean')
  const signed = value.signed ?? {}
  if (!isObject(signed)) return bad('.x509.signed must be an object')
  unknownKey(signed, SIGNED_KEYS, '.signed')
  const headers = signed.headers ?? []
  if (!Array.isArray(headers) || !headers.every((h) => typeof h === 'string' && h !== '')) {
    bad('.x509.signed.headers must be an array of "{namespace}localName" or namespace strings')
  }
  const usernameToken = signed.usernameToken ?? false
  if (typeof usernameToken !== 'boolean') bad('.x509.signed.usernameToken must be a boolean')
  if (usernameToken === true && !context.usernameToken) {
    bad('.x509.signed.usernameToken asks for a signed UsernameToken, but usernameToken is not required')
  }
  let reply: ServiceX509['reply']
  if (value.reply !== undefined) {
    const given = value.reply
    if (!isObject(given)) return bad('.x509.reply must be an object { key, certificate }')
    unknownKey(given, REPLY_KEYS, '.reply')
    try {
      reply = x509Signer(given.key as string, given.certificate as string)
    } catch (err) {
      bad(`.x509.reply: ${err instanceof Error ? err.message : String(err)}`)
    }
  }
  return {
    trust: compileTrust(bad, value, context.clockSkew),
    tokens: new TokenCertificates(),
    allowSha1: value.allowSha1 === true,
    signedHeaders: signedHeaders(headers as string[]),
    signedUsernameToken: usernameToken === true,
    reply
  }
}
