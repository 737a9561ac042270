/**
 * The checks of a request's `wsse:Security` header (WSS 1.1 SOAP Message
 * Security §5, §6, §10; UsernameToken Profile 1.1), in order: one Security
 * header meant for this node, holding at most one Timestamp and one
 * UsernameToken and nothing else; the Timestamp fresh; the token well formed,
 * fresh, authenticated, then its Nonce claimed once. Each failure is its WSS
 * fault (faults.ts); a lookup or store that fails is a Receiver fault.
 */
import { WSSE_NS, WSU_NS, qnameKey } from '../../namespaces'
import type { SoapHeaderBlock } from '../../soap/headers'
import type { XmlElement } from '../../xml/element'
import type { ServiceSecurity } from './declaration'
import { childElements } from './elements'
import { securityFault } from './faults'
import { claim, replayKey, replayTtl } from './replay'
import { checkCreated, checkTimestamp, replyTimestamp } from './timestamp'
import { authenticate, readUsernameToken } from './token'

export const SECURITY_HEADER = qnameKey(WSSE_NS, 'Security')

/** How long a claim may take before the request fails, in milliseconds. */
export const STORE_TIMEOUT = 2000

export interface SecurityResult {
  /** The UsernameToken's user, once authenticated. */
  readonly username: string | undefined
  /** The reply's Security header block, when the service adds a Timestamp. */
  readonly replyHeader: string | undefined
}

/**
 * The Timestamp and the UsernameToken of a Security header; anything else in it, or a second of either,
 * is InvalidSecurity.
 */
function contents (security: XmlElement): { timestamp: XmlElement | undefined, token: XmlElement | undefined } {
  let timestamp: XmlElement | undefined
  let token: XmlElement | undefined
  for (const child of childElements(security, 'InvalidSecurity')) {
    if (child.namespace === WSU_NS && child.localName === 'Timestamp' && timestamp === undefined) timestamp = child
    else if (child.namespace === WSSE_NS && child.localName === 'UsernameToken' && token === undefined) token = child
    else throw securityFault('InvalidSecurity')
  }
  return { timestamp, token }
}

/** Checks the Security header of a request's header blocks against a service's `security`. */
export async function verifySecurity (
  security: ServiceSecurity, headers: readonly SoapHeaderBlock[], now: number = Date.now()
): Promise<SecurityResult> {
  const replyHeader = security.replyTimestamp ? replyTimestamp(now, security.freshness.maxAge) : undefined
  // Only blocks meant for this node count (SOAP 1.2 Part 1 §2.6); WSS §6.1: at most one Security header per role.
  const blocks = headers.filter((block) => block.targeted && block.key === SECURITY_HEADER)
  // A service's security asks for a token or a Timestamp (declaration.ts): none is a fault.
  if (blocks.length !== 1) throw securityFault('InvalidSecurity')
  const { timestamp, token } = contents(blocks[0].element)
  const { freshness } = security
  if (timestamp !== undefined) checkTimestamp(timestamp, now, freshness)
  else if (security.timestampRequired) throw securityFault('InvalidSecurity')
  const options = security.usernameToken
  if (options === undefined) return { username: undefined, replyHeader }
  if (token === undefined) throw securityFault('InvalidSecurity')

  const ut = readUsernameToken(token)
  if (options.password !== 'any' && options.password !== ut.type) throw securityFault('FailedAuthentication')
  const needsNonce = options.requireNonce === 'always' || (options.requireNonce === 'digest' && ut.type === 'digest')
  if (needsNonce && (ut.nonce === undefined || ut.created === undefined)) throw securityFault('InvalidSecurityToken')
  if (ut.created !== undefined) checkCreated(ut.created.instant, now, freshness)
  if (!await authenticate(ut, options.lookup)) throw securityFault('FailedAuthentication')
  // Claimed once authenticated, so that no one without a password fills the store.
  if (ut.nonce !== undefined && security.replay !== undefined) {
    const ttl = replayTtl(freshness.maxAge, freshness.clockSkew)
    if (!await claim(security.replay, replayKey(ut.nonce), ttl, STORE_TIMEOUT)) throw securityFault('InvalidSecurity')
  }
  return { username: ut.username, replyHeader }
}
