/**
 * The checks of a request's `wsse:Security` header (WSS 1.1 SOAP Message
 * Security §5, §6, §8, §10; UsernameToken Profile 1.1; X.509 Token Profile
 * 1.1), in order: one Security header meant for this node, holding at most
 * one Timestamp and one UsernameToken (with `x509`, BinarySecurityTokens and
 * one Signature) and nothing else; the Timestamp fresh; the Signature
 * verified (signature-verify.ts); the token well formed, fresh,
 * authenticated, then its Nonce claimed once, and the Signature's value.
 * Each failure is its WSS fault (faults.ts); a lookup or store that fails is
 * a Receiver fault.
 */
import { DS_NS, WSSE_NS, WSU_NS, qnameKey } from '../../namespaces'
import type { SoapHeaderBlock } from '../../soap/headers'
import type { XmlElement } from '../../xml/element'
import type { SigningElement } from '../../xml/c14n'
import type { SoapPrincipal } from '../../types'
import type { ServiceSecurity } from './declaration'
import { childElements } from './elements'
import { securityFault } from './faults'
import { claim, replayKey, replayTtl } from './replay'
import { verifySignedRequest, type VerifiedSignature } from './signature-verify'
import { checkCreated, checkTimestamp, replyTimestamp } from './timestamp'
import { authenticate, readUsernameToken } from './token'

export const SECURITY_HEADER = qnameKey(WSSE_NS, 'Security')

/** Whether a header block is a Security header meant for this node (SOAP 1.2 Part 1 §2.6). */
export function isSecurityBlock (block: SoapHeaderBlock): boolean {
  return block.targeted && block.key === SECURITY_HEADER
}

/** How long a claim may take before the request fails, in milliseconds. */
export const STORE_TIMEOUT = 2000

/** What the checks read of a request. */
export interface SecuredRequest {
  /** The header blocks, in document order. */
  readonly headers: readonly SoapHeaderBlock[]
  /** The operation dispatched to. */
  readonly operation: string
  /** The Envelope of the request's signing view, read when a Signature is checked. */
  readonly view: () => SigningElement
}

export interface SecurityResult {
  /** The UsernameToken's user, once authenticated. */
  readonly username: string | undefined
  /** The signer, once the Signature is verified and its certificate trusted. */
  readonly principal: SoapPrincipal | undefined
  /** The reply's Security header block, when the service adds a Timestamp. */
  readonly replyHeader: string | undefined
}

interface Contents {
  timestamp: XmlElement | undefined
  token: XmlElement | undefined
  signature: XmlElement | undefined
}

/**
 * The Timestamp and the UsernameToken of a Security header, and with `signed` its Signature (and any
 * BinarySecurityTokens); anything else in it, or a second of any, is InvalidSecurity. WSS §8 allows several
 * Signatures: a second is an endorsing supporting token's, over the first, not supported rather than half checked.
 */
function contents (security: XmlElement, signed: boolean): Contents {
  const found: Contents = { timestamp: undefined, token: undefined, signature: undefined }
  for (const child of childElements(security, 'InvalidSecurity')) {
    const { namespace, localName } = child
    const kind = namespace === WSU_NS && localName === 'Timestamp'
      ? 'timestamp'
      : namespace === WSSE_NS && localName === 'UsernameToken'
        ? 'token'
        : signed && namespace === DS_NS && localName === 'Signature' ? 'signature' : undefined
    if (kind !== undefined && found[kind] === undefined) found[kind] = child
    else if (!signed || namespace !== WSSE_NS || localName !== 'BinarySecurityToken') {
      throw securityFault('InvalidSecurity')
    }
  }
  return found
}

/** Checks the Security header of a request against a service's `security`. */
export async function verifySecurity (
  security: ServiceSecurity, request: SecuredRequest, now: number = Date.now()
): Promise<SecurityResult> {
  const replyHeader = security.replyTimestamp ? replyTimestamp(now, security.freshness.maxAge) : undefined
  const { headers } = request
  // Only blocks meant for this node count (SOAP 1.2 Part 1 §2.6); WSS §6.1: at most one Security header per role.
  const blocks = headers.filter(isSecurityBlock)
  if (blocks.length === 0 && !security.headerRequired) return { username: undefined, principal: undefined, replyHeader }
  // A service's security asks for a token or a Timestamp (declaration.ts): none is a fault.
  if (blocks.length !== 1) throw securityFault('InvalidSecurity')
  const { x509 } = security
  const { timestamp, token, signature } = contents(blocks[0].element, x509 !== undefined)
  const { freshness } = security
  if (timestamp !== undefined) checkTimestamp(timestamp, now, freshness)
  else if (security.timestampRequired) throw securityFault('InvalidSecurity')
  let signed: VerifiedSignature | undefined
  if (x509 !== undefined) {
    if (signature === undefined) throw securityFault('InvalidSecurity')
    const at = headers.indexOf(blocks[0])
    const { operation } = request
    signed = await verifySignedRequest(x509, { view: request.view(), headers, security: at, operation, now })
  }
  const username = await checkToken(security, token, now)
  // Claimed last, once everything holds: a signed Timestamp is accepted once (WSS §10 leaves replay to the
  // receiver; its signer and canonical SignedInfo, which digests the Timestamp, stand for the message).
  if (signed !== undefined && security.replay !== undefined) {
    const ttl = replayTtl(freshness.maxAge, freshness.clockSkew)
    const key = replayKey(signed.claim)
    if (!await claim(security.replay, key, ttl, STORE_TIMEOUT)) throw securityFault('FailedCheck')
  }
  return { username, principal: signed?.principal, replyHeader }
}

/** The UsernameToken checked, when the service requires one: its user. */
async function checkToken (
  security: ServiceSecurity, token: XmlElement | undefined, now: number
): Promise<string | undefined> {
  const { freshness } = security
  const options = security.usernameToken
  if (options === undefined) return undefined
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
  return ut.username
}
