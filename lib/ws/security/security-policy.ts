/**
 * WS-SecurityPolicy 1.2 (docs/wsdl.md "Policy"): the assertion a generated
 * WSDL states for a service's UsernameToken, and what a contract's WSDL asks
 * of each operation (docs/contract-first.md "WS-Security"): each assertion of
 * its policies applied, or refused at startup unless the user ignores it.
 */
import type { Element as DomElement } from '@xmldom/xmldom'
import { SOAP_ERR_CONTRACT_UNSUPPORTED, SOAP_ERR_SECURITY_LOOKUP } from '../../errors'
import { SP_13_NS, SP_2005_NS, SP_NS } from '../../namespaces'
import { nestedAssertions, type AttachedAssertion } from '../ws-policy'

const ALWAYS_TO_RECIPIENT = `${SP_NS}/IncludeToken/AlwaysToRecipient`

/**
 * `sp:SupportingTokens` with an `sp:UsernameToken` the client always sends
 * (WS-SecurityPolicy 1.2 §5.4.1, §8.2), and `sp:HashPassword` when only a
 * digest is accepted. The `wsp` prefix is the one the WSDL's policy binds.
 */
export function usernameTokenAssertion (digest: boolean): string {
  const inner = `${digest ? '<sp:HashPassword/>' : ''}<sp:WssUsernameToken10/>`
  const token = `<sp:UsernameToken sp:IncludeToken="${ALWAYS_TO_RECIPIENT}">` +
    `<wsp:Policy>${inner}</wsp:Policy></sp:UsernameToken>`
  return `<sp:SupportingTokens xmlns:sp="${SP_NS}"><wsp:Policy>${token}</wsp:Policy></sp:SupportingTokens>`
}

/** What a policy alternative asks of a request, as far as the plugin checks it. */
export interface SecurityRequirement {
  /** An `sp:UsernameToken`, and whether it has `sp:HashPassword`. */
  readonly usernameToken: { readonly digest: boolean } | undefined
  /** An `sp:IncludeTimestamp`. */
  readonly timestamp: boolean
}

/** An assertion the plugin cannot apply: `{namespace}localName`, where it is attached, and why. */
export interface UnappliedAssertion {
  readonly name: string
  readonly where: string
  readonly why: string
}

/**
 * One alternative of a policy: the assertions the plugin applies (by name,
 * for `ignorePolicyAssertions`), and those it cannot.
 */
export interface PolicyAlternative {
  readonly usernameToken: { readonly digest: boolean, readonly name: string } | undefined
  /** The name of the `sp:IncludeTimestamp` asked for. */
  readonly timestamp: string | undefined
  readonly unapplied: readonly UnappliedAssertion[]
}

/** The alternatives of an operation's effective policies: its request's, and its replies' (output and faults). */
export interface OperationSecurityPolicy {
  readonly request: readonly PolicyAlternative[]
  readonly reply: readonly PolicyAlternative[]
}

const TRANSPORT = 'HTTPS is the transport\'s: the plugin cannot see it'
const SP_NAMESPACES: ReadonlySet<string> = new Set([SP_NS, SP_2005_NS, SP_13_NS])
const BINDINGS: ReadonlySet<string> = new Set(['TransportBinding', 'SymmetricBinding', 'AsymmetricBinding'])
const SUPPORTING = /^(Signed)?(Endorsing)?(Encrypted)?SupportingTokens$/
const NOTHING_ASKED: ReadonlySet<string> = new Set(['Wss10', 'Wss11', 'Trust10', 'Trust13'])
const USERNAME_TOKEN_PARAMETERS: ReadonlySet<string> = new Set([
  'HashPassword', 'WssUsernameToken10', 'WssUsernameToken11', 'Created', 'Nonce'
])

function isSp (node: DomElement): boolean {
  return SP_NAMESPACES.has(node.namespaceURI ?? '')
}

function nameOf (node: DomElement): string {
  return `{${node.namespaceURI ?? ''}}${node.localName ?? ''}`
}

/**
 * What one alternative of a request's policy asks (the table of
 * docs/contract-first.md "WS-Security"). Assertions of other namespaces are
 * other protocols' (WS-Addressing, MTOM): not read here. A reply's policy
 * asks what the plugin never does to a reply: each of its assertions is
 * unapplied.
 */
export function judgeAlternative (alternative: readonly AttachedAssertion[], reply: boolean): PolicyAlternative {
  let usernameToken: { digest: boolean, name: string } | undefined
  let timestamp: string | undefined
  const unapplied: UnappliedAssertion[] = []
  const refuse = (node: DomElement, where: string, why: string): void => {
    unapplied.push({ name: nameOf(node), where, why })
  }
  const token = (node: DomElement, where: string): void => {
    if (!isSp(node) || node.localName !== 'UsernameToken') {
      refuse(node, where, 'a token other than a UsernameToken')
      return
    }
    let digest = false
    for (const parameter of nestedAssertions(node)) {
      if (isSp(parameter) && parameter.localName === 'HashPassword') digest = true
      else if (!isSp(parameter) || !USERNAME_TOKEN_PARAMETERS.has(parameter.localName ?? '')) {
        refuse(parameter, where, 'a UsernameToken the plugin does not check')
      }
    }
    usernameToken = { digest: digest || usernameToken?.digest === true, name: nameOf(node) }
  }
  for (const { assertion, subject, unresolved } of alternative) {
    if (unresolved !== undefined) {
      const why = `a policy (${unresolved.uri}) the contract's documents do not hold`
      unapplied.push({ name: unresolved.name, where: subject, why })
      continue
    }
    if (!isSp(assertion)) continue
    const local = assertion.localName ?? ''
    if (reply) {
      refuse(assertion, subject, 'the plugin adds no token, signature or encryption to a reply')
    } else if (BINDINGS.has(local)) {
      refuse(assertion, subject, local === 'TransportBinding' ? TRANSPORT : 'message signatures and encryption')
      // Its tokens, algorithm suite and layout describe the binding; a Timestamp the plugin checks.
      const included = nestedAssertions(assertion).find((p) => isSp(p) && p.localName === 'IncludeTimestamp')
      if (included !== undefined) timestamp = nameOf(included)
    } else if (SUPPORTING.test(local)) {
      if (local !== 'SupportingTokens') refuse(assertion, subject, 'supporting tokens signed, endorsing or encrypted')
      for (const nested of nestedAssertions(assertion)) token(nested, subject)
    } else if (local === 'UsernameToken') {
      token(assertion, subject)
    } else if (local === 'IncludeTimestamp') {
      timestamp = nameOf(assertion)
    } else if (!NOTHING_ASKED.has(local)) {
      refuse(assertion, subject, 'an assertion the plugin does not implement')
    }
  }
  return { usernameToken, timestamp, unapplied }
}

/** How much a requirement asks: the alternative chosen is the one that asks most. */
function weight ({ usernameToken, timestamp }: SecurityRequirement): number {
  return (usernameToken === undefined ? 0 : 4) + (timestamp ? 2 : 0) + (usernameToken?.digest === true ? 1 : 0)
}

/**
 * The requirement served: an ignored assertion is neither refused nor
 * applied; of the alternatives whose every unapplied assertion is ignored,
 * the one that asks most (the first of equals). None:
 * SOAP_ERR_CONTRACT_UNSUPPORTED naming the first alternative's first
 * assertion not ignored, and where it is attached.
 */
export function chooseAlternative (
  alternatives: readonly PolicyAlternative[], ignored: ReadonlySet<string>
): SecurityRequirement {
  let chosen: SecurityRequirement | undefined
  for (const alternative of alternatives) {
    if (!alternative.unapplied.every((u) => ignored.has(u.name))) continue
    const token = alternative.usernameToken
    const requirement = {
      usernameToken: token === undefined || ignored.has(token.name) ? undefined : { digest: token.digest },
      timestamp: alternative.timestamp !== undefined && !ignored.has(alternative.timestamp)
    }
    if (chosen === undefined || weight(requirement) > weight(chosen)) chosen = requirement
  }
  if (chosen !== undefined) return chosen
  const first = alternatives[0].unapplied.find((u) => !ignored.has(u.name)) as UnappliedAssertion
  const what = `the WS-Policy assertion ${first.name} (${first.why}; ` +
    'name it in "ignorePolicyAssertions" to serve the contract without it)'
  throw new SOAP_ERR_CONTRACT_UNSUPPORTED(what, first.where)
}

function isObject (value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

/**
 * A contract's `security`: the user's, with what its policy asks of each
 * operation filled in. The operations that ask for something ask for the
 * most any of them does (a UsernameToken, digests only, a Timestamp); the
 * others are left out (`except`) unless the user gives `except`. A
 * UsernameToken needs the user's lookup (SOAP_ERR_SECURITY_LOOKUP without
 * one). What the user gives wins.
 */
export function contractSecurity (
  contract: string,
  policies: Readonly<Record<string, OperationSecurityPolicy>>,
  given: unknown,
  ignored: ReadonlySet<string>
): unknown {
  const open: string[] = []
  let asked = false
  let digest = false
  let usernameToken = false
  let timestamp = false
  for (const [operation, policy] of Object.entries(policies)) {
    const request = chooseAlternative(policy.request, ignored)
    chooseAlternative(policy.reply, ignored)
    if (request.usernameToken === undefined && !request.timestamp) {
      open.push(operation)
      continue
    }
    asked = true
    usernameToken ||= request.usernameToken !== undefined
    digest ||= request.usernameToken?.digest === true
    timestamp ||= request.timestamp
  }
  if (!asked) return given
  const own = isObject(given) ? given : {}
  const ownToken = isObject(own.usernameToken) ? own.usernameToken : {}
  if (usernameToken && typeof ownToken.lookup !== 'function') {
    throw new SOAP_ERR_SECURITY_LOOKUP(contract, digest ? 'with sp:HashPassword' : 'text or digest')
  }
  const ownTimestamp = isObject(own.timestamp) ? own.timestamp : {}
  return {
    ...(open.length === 0 ? {} : { except: open }),
    ...own,
    ...(usernameToken ? { usernameToken: { password: digest ? 'digest' : 'any', ...ownToken } } : {}),
    ...(timestamp ? { timestamp: { required: true, ...ownTimestamp } } : {})
  }
}

const PASSWORDS: Readonly<Record<string, string>> = { text: 'text', digest: 'digest' }

/**
 * What a declaration's `security` asks of each operation, for the log line
 * at startup: the operations grouped by what they require.
 */
export function describeSecurity (operations: readonly string[], security: unknown): Record<string, string[]> {
  const options = isObject(security) ? security : undefined
  const except = new Set(Array.isArray(options?.except) ? options.except : [])
  const token = isObject(options?.usernameToken) ? options.usernameToken : undefined
  const parts = [
    ...(token === undefined ? [] : [`UsernameToken (${PASSWORDS[String(token.password)] ?? 'text or digest'})`]),
    ...(isObject(options?.timestamp) && options.timestamp.required === true ? ['Timestamp'] : [])
  ]
  const asked = parts.length === 0 ? 'nothing' : parts.join(' and ')
  const out: Record<string, string[]> = {}
  for (const operation of operations) (out[except.has(operation) ? 'nothing' : asked] ??= []).push(operation)
  return out
}
