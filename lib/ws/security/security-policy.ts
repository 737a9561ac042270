/**
 * WS-SecurityPolicy 1.2 (docs/wsdl.md "Policy"): the assertion a generated
 * WSDL states for a service's UsernameToken, and what a contract's WSDL asks
 * of each operation (docs/contract-first.md "WS-Security"): each assertion of
 * its policies applied, or refused at startup unless the user ignores it.
 */
import type { Element as DomElement } from '@xmldom/xmldom'
import { SOAP_ERR_CONTRACT_UNSUPPORTED, SOAP_ERR_SECURITY_LOOKUP, SOAP_ERR_SECURITY_TRUST } from '../../errors'
import { SP_13_NS, SP_2005_NS, SP_NS } from '../../namespaces'
import { nestedAssertions, type AttachedAssertion } from '../ws-policy'
import { judgeAsymmetricBinding, judgeSignedParts } from './x509-policy'

const ALWAYS_TO_RECIPIENT = `${SP_NS}/IncludeToken/AlwaysToRecipient`

/**
 * `sp:SupportingTokens` with an `sp:UsernameToken` the client always sends
 * (WS-SecurityPolicy 1.2 §5.4.1, §8.2), and `sp:HashPassword` when only a
 * digest is accepted; `sp:SignedSupportingTokens` (§8.3) when the X.509
 * signature must cover it. The `wsp` prefix is the one the WSDL's policy binds.
 */
export function usernameTokenAssertion (digest: boolean, signed = false): string {
  const inner = `${digest ? '<sp:HashPassword/>' : ''}<sp:WssUsernameToken10/>`
  const token = `<sp:UsernameToken sp:IncludeToken="${ALWAYS_TO_RECIPIENT}">` +
    `<wsp:Policy>${inner}</wsp:Policy></sp:UsernameToken>`
  const name = signed ? 'sp:SignedSupportingTokens' : 'sp:SupportingTokens'
  return `<${name} xmlns:sp="${SP_NS}"><wsp:Policy>${token}</wsp:Policy></${name}>`
}

/** What a policy alternative asks of a request, as far as the plugin checks it. */
export interface SecurityRequirement {
  /** An `sp:UsernameToken`, and whether it has `sp:HashPassword`. */
  readonly usernameToken: { readonly digest: boolean } | undefined
  /** An `sp:IncludeTimestamp`. */
  readonly timestamp: boolean
  /** An X.509 signature (`sp:AsymmetricBinding`): SHA-1 allowed, the header blocks signed (`sp:SignedParts`). */
  readonly x509: X509Requirement | undefined
  /** Of a reply: signed (an output's `sp:SignedParts`). */
  readonly replySigned: boolean
}

export interface X509Requirement {
  readonly sha1: boolean
  readonly headers: readonly string[]
  /** The UsernameToken signed too (`sp:SignedSupportingTokens`). */
  readonly usernameToken: boolean
}

interface X509Alternative {
  readonly name: string
  readonly sha1: boolean
  readonly parts: ReadonlyArray<{ readonly name: string, readonly headers: readonly string[] }>
  /** The names of the `sp:SignedSupportingTokens` whose UsernameToken it signs. */
  readonly signedTokens: readonly string[]
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
  /** An `sp:AsymmetricBinding` served, by name, and the header blocks each `sp:SignedParts` names. */
  readonly x509: X509Alternative | undefined
  /** The name of a reply's `sp:SignedParts`. */
  readonly replySigned: string | undefined
  readonly unapplied: readonly UnappliedAssertion[]
}

/** The alternatives of an operation's effective policies: its request's, its output's and its faults'. */
export interface OperationSecurityPolicy {
  readonly request: readonly PolicyAlternative[]
  readonly reply: readonly PolicyAlternative[]
  readonly fault: readonly PolicyAlternative[]
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
 * other protocols' (WS-Addressing, MTOM): not read here. Of an output's
 * policy, an `sp:SignedParts` of the Body alone is a signed reply; any other
 * assertion of a reply's (output or fault) is unapplied.
 */
export function judgeAlternative (
  alternative: readonly AttachedAssertion[], message: 'request' | 'output' | 'fault'
): PolicyAlternative {
  const reply = message !== 'request'
  let usernameToken: { digest: boolean, name: string } | undefined
  let timestamp: string | undefined
  let x509: X509Alternative | undefined
  let replySigned: string | undefined
  const signedParts: Array<{ node: DomElement, subject: string, headers: readonly string[] }> = []
  const signedTokens: Array<{ node: DomElement, subject: string }> = []
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
  const binding = (assertion: DomElement, subject: string): void => {
    const local = assertion.localName ?? ''
    const judged = local === 'AsymmetricBinding' ? judgeAsymmetricBinding(assertion) : undefined
    if (judged?.why === undefined && judged !== undefined) {
      x509 = { name: nameOf(assertion), sha1: judged.sha1 || x509?.sha1 === true, parts: [], signedTokens: [] }
    } else {
      const why = local === 'TransportBinding' ? TRANSPORT : judged?.why ?? 'message signatures and encryption'
      refuse(assertion, subject, why)
    }
    // Its tokens, algorithm suite and layout describe the binding; a Timestamp the plugin checks.
    const included = nestedAssertions(assertion).find((p) => isSp(p) && p.localName === 'IncludeTimestamp')
    if (included !== undefined) timestamp = nameOf(included)
  }
  for (const { assertion, subject, unresolved } of alternative) {
    if (unresolved !== undefined) {
      const why = `a policy (${unresolved.uri}) the contract's documents do not hold`
      unapplied.push({ name: unresolved.name, where: subject, why })
      continue
    }
    if (!isSp(assertion)) continue
    const local = assertion.localName ?? ''
    if (local === 'SignedParts') {
      const { headers, why } = judgeSignedParts(assertion)
      if (why !== undefined) refuse(assertion, subject, why)
      else if (message === 'fault') refuse(assertion, subject, 'the plugin does not sign faults')
      else if (reply && headers.length > 0) refuse(assertion, subject, 'header blocks of a reply signed')
      else if (reply) replySigned = nameOf(assertion)
      else signedParts.push({ node: assertion, subject, headers })
    } else if (reply) {
      refuse(assertion, subject, 'the plugin adds no token or encryption to a reply, and signs only its Body')
    } else if (BINDINGS.has(local)) {
      binding(assertion, subject)
    } else if (SUPPORTING.test(local)) {
      // Signed supporting tokens are the X.509 signature's, once the alternative is read.
      if (local === 'SignedSupportingTokens') signedTokens.push({ node: assertion, subject })
      else if (local !== 'SupportingTokens') refuse(assertion, subject, 'supporting tokens endorsing or encrypted')
      for (const nested of nestedAssertions(assertion)) token(nested, subject)
    } else if (local === 'UsernameToken') {
      token(assertion, subject)
    } else if (local === 'IncludeTimestamp') {
      timestamp = nameOf(assertion)
    } else if (!NOTHING_ASKED.has(local)) {
      refuse(assertion, subject, 'an assertion the plugin does not implement')
    }
  }
  // Signed parts of a request are the X.509 signature's: with none, nothing signs them.
  for (const parts of signedParts) {
    if (x509 === undefined) refuse(parts.node, parts.subject, 'signed parts with no X.509 signature asked for')
    else x509 = { ...x509, parts: [...x509.parts, { name: nameOf(parts.node), headers: parts.headers }] }
  }
  for (const { node, subject } of signedTokens) {
    if (x509 === undefined) refuse(node, subject, 'supporting tokens signed with no X.509 signature asked for')
    else x509 = { ...x509, signedTokens: [...x509.signedTokens, nameOf(node)] }
  }
  return { usernameToken, timestamp, x509, replySigned, unapplied }
}

/** How much a requirement asks: the alternative chosen is the one that asks most. */
function weight ({ usernameToken, timestamp, x509, replySigned }: SecurityRequirement): number {
  return (x509 === undefined ? 0 : 16) + (replySigned ? 8 : 0) + (usernameToken === undefined ? 0 : 4) +
    (timestamp ? 2 : 0) + (usernameToken?.digest === true ? 1 : 0)
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
    const { x509, replySigned } = alternative
    const requirement = {
      usernameToken: token === undefined || ignored.has(token.name) ? undefined : { digest: token.digest },
      timestamp: alternative.timestamp !== undefined && !ignored.has(alternative.timestamp),
      x509: x509 === undefined || ignored.has(x509.name)
        ? undefined
        : {
            sha1: x509.sha1,
            headers: x509.parts.flatMap((p) => ignored.has(p.name) ? [] : p.headers),
            usernameToken: token !== undefined && !ignored.has(token.name) &&
              x509.signedTokens.some((name) => !ignored.has(name))
          },
      replySigned: replySigned !== undefined && !ignored.has(replySigned)
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
 * most any of them does (a UsernameToken, digests only, a Timestamp, an
 * X.509 signature and the header blocks it covers, SHA-1, a signed reply);
 * the others are left out (`except`) unless the user gives `except`. A
 * UsernameToken needs the user's lookup (SOAP_ERR_SECURITY_LOOKUP without
 * one), an X.509 signature the user's trust, a signed reply the user's key
 * (SOAP_ERR_SECURITY_TRUST). What the user gives wins.
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
  let x509: { sha1: boolean, headers: Set<string>, reply: boolean, usernameToken: boolean } | undefined
  for (const [operation, policy] of Object.entries(policies)) {
    const request = chooseAlternative(policy.request, ignored)
    const { replySigned } = chooseAlternative(policy.reply, ignored)
    chooseAlternative(policy.fault, ignored)
    if (request.usernameToken === undefined && !request.timestamp && request.x509 === undefined && !replySigned) {
      open.push(operation)
      continue
    }
    asked = true
    usernameToken ||= request.usernameToken !== undefined
    digest ||= request.usernameToken?.digest === true
    timestamp ||= request.timestamp
    if (request.x509 !== undefined || replySigned) {
      x509 ??= { sha1: false, headers: new Set(), reply: false, usernameToken: false }
      x509.sha1 ||= request.x509?.sha1 === true
      x509.usernameToken ||= request.x509?.usernameToken === true
      x509.reply ||= replySigned
      for (const header of request.x509?.headers ?? []) x509.headers.add(header)
    }
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
    ...(timestamp ? { timestamp: { required: true, ...ownTimestamp } } : {}),
    ...(x509 === undefined ? {} : { x509: contractX509(contract, x509, own.x509) })
  }
}

/** A contract's `security.x509`: the user's, its trust (and key, for signed replies) required. */
function contractX509 (
  contract: string, asked: { sha1: boolean, headers: ReadonlySet<string>, reply: boolean, usernameToken: boolean },
  given: unknown
): Record<string, unknown> {
  const own = isObject(given) ? given : {}
  if (own.trust === undefined) {
    throw new SOAP_ERR_SECURITY_TRUST(contract, 'X.509 signatures (sp:AsymmetricBinding)', 'security.x509.trust')
  }
  if (asked.reply && own.reply === undefined) {
    throw new SOAP_ERR_SECURITY_TRUST(contract, 'signed replies (sp:SignedParts of an output)', 'security.x509.reply')
  }
  return {
    ...(asked.headers.size === 0 && !asked.usernameToken
      ? {}
      : { signed: { headers: [...asked.headers], ...(asked.usernameToken ? { usernameToken: true } : {}) } }),
    ...(asked.sha1 ? { allowSha1: true } : {}),
    ...own
  }
}

const PASSWORDS: Readonly<Record<string, string>> = { text: 'text', digest: 'digest' }

/** `X.509 signature (Body, Timestamp, {urn:h}H, UsernameToken; SHA-1 allowed; replies signed)`. */
function describeX509 (x509: Record<string, unknown>): string {
  const signed = isObject(x509.signed) ? x509.signed : {}
  const headers = Array.isArray(signed.headers) ? signed.headers as unknown[] : []
  const token = signed.usernameToken === true ? ['UsernameToken'] : []
  const notes = [
    ['Body', 'Timestamp', ...headers.map(String), ...token].join(', '),
    ...(x509.allowSha1 === true ? ['SHA-1 allowed'] : []),
    ...(x509.reply === undefined ? [] : ['replies signed'])
  ]
  return `X.509 signature (${notes.join('; ')})`
}

/**
 * What a declaration's `security` asks of each operation, for the log line
 * at startup: the operations grouped by what they require.
 */
export function describeSecurity (operations: readonly string[], security: unknown): Record<string, string[]> {
  const options = isObject(security) ? security : undefined
  const except = new Set(Array.isArray(options?.except) ? options.except : [])
  const token = isObject(options?.usernameToken) ? options.usernameToken : undefined
  const x509 = isObject(options?.x509) ? options.x509 : undefined
  // An X.509 signature covers a Timestamp, always required with it.
  const timestamp = x509 === undefined && isObject(options?.timestamp) && options.timestamp.required === true
  const parts = [
    ...(token === undefined ? [] : [`UsernameToken (${PASSWORDS[String(token.password)] ?? 'text or digest'})`]),
    ...(timestamp ? ['Timestamp'] : []),
    ...(x509 === undefined ? [] : [describeX509(x509)])
  ]
  const asked = parts.length === 0 ? 'nothing' : parts.join(' and ')
  const out: Record<string, string[]> = {}
  for (const operation of operations) (out[except.has(operation) ? 'nothing' : asked] ??= []).push(operation)
  return out
}
