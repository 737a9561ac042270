/**
 * WS-SecurityPolicy 1.2 (docs/wsdl.md "Policy"): the assertion a generated
 * WSDL states for a service's UsernameToken, and what a contract's WSDL asks
 * for, read from the policies attached to its binding or port.
 */
import type { Element as DomElement } from '@xmldom/xmldom'
import { SOAP_ERR_SECURITY_LOOKUP } from '../../errors'
import { SP_2005_NS, SP_NS } from '../../namespaces'
import { walkPolicies } from '../policy'

const ALWAYS_TO_RECIPIENT = `${SP_NS}/IncludeToken/AlwaysToRecipient`

/**
 * `sp:SupportingTokens` with an `sp:UsernameToken` the client always sends
 * (WS-SecurityPolicy 1.2 §5.4.1, §8.2), and `sp:HashPassword` when only a
 * digest is accepted. The `wsp` prefix is the one the WSDL's policy binds.
 */
export function usernameTokenAssertion (digest: boolean): string {
  const inner = `${digest ? '<sp:HashPassword/>' : ''}<sp:WssUsernameToken10/>`
  return `<sp:SupportingTokens xmlns:sp="${SP_NS}"><wsp:Policy><sp:UsernameToken sp:IncludeToken="${ALWAYS_TO_RECIPIENT}"><wsp:Policy>${inner}</wsp:Policy></sp:UsernameToken></wsp:Policy></sp:SupportingTokens>`
}

/** What a contract's policy asks of its requests. */
export interface SecurityPolicy {
  /** An `sp:UsernameToken`, and whether it has `sp:HashPassword`. */
  readonly usernameToken: { readonly digest: boolean } | undefined
  /** An `sp:IncludeTimestamp`. */
  readonly timestamp: boolean
}

const SP_NAMESPACES: ReadonlySet<string> = new Set([SP_NS, SP_2005_NS])

/**
 * What the policies attached to `subjects` (a binding, the ports that serve
 * it: inline `wsp:Policy` or `wsp:PolicyReference` to a policy of the
 * definitions) ask for. Alternatives are not weighed: a UsernameToken in any
 * of them turns it on. Undefined when they ask for neither.
 */
export function securityPolicyOf (definitions: readonly DomElement[], subjects: readonly DomElement[]): SecurityPolicy | undefined {
  let usernameToken: { digest: boolean } | undefined
  let timestamp = false
  walkPolicies(definitions, subjects, (node) => {
    if (!SP_NAMESPACES.has(node.namespaceURI ?? '')) return
    if (node.localName === 'UsernameToken') {
      const hash = node.getElementsByTagNameNS(node.namespaceURI as string, 'HashPassword').length > 0
      usernameToken = { digest: hash || usernameToken?.digest === true }
    } else if (node.localName === 'IncludeTimestamp') {
      timestamp = true
    }
  })
  return usernameToken === undefined && !timestamp ? undefined : { usernameToken, timestamp }
}

/**
 * A contract's `security`: the user's, with what its policy asks for filled
 * in. A policy with a UsernameToken turns WS-Security on, and then needs the
 * user's lookup (SOAP_ERR_SECURITY_LOOKUP without one); `sp:HashPassword`
 * makes the default `password` 'digest', `sp:IncludeTimestamp` makes a
 * Timestamp required. A policy with no UsernameToken (a Timestamp under an
 * X.509 binding, say) turns nothing on. What the user gives wins.
 */
export function contractSecurity (contract: string, policy: SecurityPolicy | undefined, given: unknown): unknown {
  const token = policy?.usernameToken
  if (token === undefined) return given
  const own = (typeof given === 'object' && given !== null ? given : {}) as Record<string, unknown>
  const ownToken = (typeof own.usernameToken === 'object' && own.usernameToken !== null ? own.usernameToken : {}) as Record<string, unknown>
  if (typeof ownToken.lookup !== 'function') throw new SOAP_ERR_SECURITY_LOOKUP(contract, token.digest ? 'with sp:HashPassword' : 'text or digest')
  const ownTimestamp = (typeof own.timestamp === 'object' && own.timestamp !== null ? own.timestamp : {}) as Record<string, unknown>
  return {
    ...own,
    usernameToken: { password: token.digest ? 'digest' : 'any', ...ownToken },
    ...(policy?.timestamp === true || own.timestamp !== undefined ? { timestamp: { ...(policy?.timestamp === true ? { required: true } : {}), ...ownTimestamp } } : {})
  }
}

/** What a contract's policy turned on, for the log line at startup. */
export function describePolicy (policy: SecurityPolicy): string {
  const token = policy.usernameToken
  if (token === undefined) return 'its WS-SecurityPolicy has no UsernameToken: WS-Security is not turned on'
  return `its WS-SecurityPolicy turns on WS-Security: a UsernameToken (${token.digest ? 'digest only, sp:HashPassword' : 'text or digest'})${policy.timestamp ? ' and a Timestamp (sp:IncludeTimestamp)' : ''}; transport and signature assertions are not enforced`
}
