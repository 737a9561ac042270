/**
 * The `security` key of a service declaration, checked and compiled once at
 * `ready()` (docs/security.md "WS-Security"): what its requests must carry,
 * the replay store (its own, or the registration's default), the operations
 * left out, and the policy assertions its WSDL states.
 */
import { SOAP_ERR_SERVICE_INVALID } from '../../errors'
import type { SoapReplayStore, SoapSecurityOptions, SoapUsernameTokenOptions } from '../../types'
import { isObject, KnownKeys, type KeyRecord } from '../../codec/keys'
import { usernameTokenAssertion } from './security-policy'
import { x509Assertions } from './x509-policy'
import type { Freshness } from './timestamp'
import type { ServiceX509 } from './signature-verify'
import { compileX509 } from './x509-options'
import { compileClientCertificate, type ClientCertificate } from './client-certificate'

export interface ServiceSecurity {
  readonly usernameToken: Required<SoapUsernameTokenOptions> | undefined
  readonly timestampRequired: boolean
  /**
   * Whether a request must carry a Security header: a UsernameToken or a Timestamp is required. With a client
   * certificate alone, one is checked when sent.
   */
  readonly headerRequired: boolean
  readonly replyTimestamp: boolean
  readonly freshness: Freshness
  readonly replay: SoapReplayStore | undefined
  /** Operations served without WS-Security. */
  readonly except: ReadonlySet<string>
  /** WS-Policy assertions for the description, each serialised with its namespaces. */
  readonly assertions: readonly string[]
  /** Those of each operation's input, and of each output. */
  readonly inputAssertions: readonly string[]
  readonly outputAssertions: readonly string[]
  /** The XML Signature required, when `x509` is given. */
  readonly x509: ServiceX509 | undefined
  /** The caller's certificate from TLS or a proxy's header, when required. */
  readonly clientCertificate: ClientCertificate | undefined
}

export const DEFAULT_MAX_AGE = 300_000
export const DEFAULT_CLOCK_SKEW = 60_000

const KEYS = new KnownKeys({
  usernameToken: true,
  timestamp: true,
  maxAge: true,
  clockSkew: true,
  replay: true,
  except: true,
  clientCertificate: true,
  x509: true
} as const satisfies KeyRecord<SoapSecurityOptions>)
const TOKEN_KEYS = new KnownKeys({
  lookup: true, password: true, requireNonce: true
} as const satisfies KeyRecord<SoapUsernameTokenOptions>)
const TIMESTAMP_FLAGS = { required: true, reply: true } as const satisfies KeyRecord<SoapSecurityOptions['timestamp']>
const TIMESTAMP_KEYS = new KnownKeys(TIMESTAMP_FLAGS)

/**
 * The compiled `security` of a service, or undefined when it has none; with
 * no `replay` of its own, it claims in `defaultStore`, the one its plugin
 * registration's services share. Throws SOAP_ERR_SERVICE_INVALID for a bad one.
 */
export function compileSecurity (
  service: string, value: unknown, operations: readonly string[], defaultStore: SoapReplayStore
): ServiceSecurity | undefined {
  if (value === undefined) return undefined
  const bad = (problem: string): never => { throw new SOAP_ERR_SERVICE_INVALID(service, `"security"${problem}`) }
  if (!isObject(value)) bad(' must be an object')
  const options = value as SoapSecurityOptions & Record<string, unknown>
  const unknownKey = (object: Record<string, unknown>, known: KnownKeys, where: string): void => {
    const problem = known.problemIn(object, where)
    if (problem !== undefined) bad(problem)
  }
  unknownKey(options, KEYS, '')

  let usernameToken: ServiceSecurity['usernameToken']
  if (options.usernameToken !== undefined) {
    const token = options.usernameToken as unknown
    if (!isObject(token)) return bad('.usernameToken must be an object')
    unknownKey(token, TOKEN_KEYS, '.usernameToken')
    if (typeof token.lookup !== 'function') bad('.usernameToken.lookup must be a function (username) => secret')
    const password = token.password ?? 'any'
    if (password !== 'text' && password !== 'digest' && password !== 'any') {
      bad('.usernameToken.password must be "text", "digest" or "any"')
    }
    const requireNonce = token.requireNonce ?? 'digest'
    if (requireNonce !== 'digest' && requireNonce !== 'always' && requireNonce !== 'never') {
      bad('.usernameToken.requireNonce must be "digest", "always" or "never"')
    }
    const lookup = token.lookup as SoapUsernameTokenOptions['lookup']
    usernameToken = { lookup, password, requireNonce } as ServiceSecurity['usernameToken']
  }

  const timestamp = options.timestamp as unknown
  if (timestamp !== undefined) {
    if (!isObject(timestamp)) return bad('.timestamp must be an object')
    unknownKey(timestamp, TIMESTAMP_KEYS, '.timestamp')
    for (const key of Object.keys(TIMESTAMP_FLAGS)) {
      const flag = timestamp[key]
      if (flag !== undefined && typeof flag !== 'boolean') bad(`.timestamp.${key} must be a boolean`)
    }
  }
  // With x509, a Timestamp is required: it is signed with the Body, and its signature claimed once.
  const timestampRequired = (timestamp as { required?: boolean } | undefined)?.required === true ||
    options.x509 !== undefined
  if (usernameToken === undefined && !timestampRequired && options.clientCertificate === undefined) {
    bad(' asks for nothing: give usernameToken, x509, clientCertificate, or timestamp: { required: true }')
  }

  const ms = (key: 'maxAge' | 'clockSkew', fallback: number): number => {
    const given = options[key]
    if (given === undefined) return fallback
    if (typeof given !== 'number' || !Number.isSafeInteger(given) || given < 0) {
      bad(`.${key} must be a non-negative integer of milliseconds`)
    }
    return given as number
  }
  const freshness = { maxAge: ms('maxAge', DEFAULT_MAX_AGE), clockSkew: ms('clockSkew', DEFAULT_CLOCK_SKEW) }
  const x509 = options.x509 === undefined
    ? undefined
    : compileX509(bad, options.x509, { usernameToken: usernameToken !== undefined, clockSkew: freshness.clockSkew })
  const client = options.clientCertificate as unknown
  if (client !== undefined && !isObject(client)) bad('.clientCertificate must be an object')
  const clientCertificate = client === undefined
    ? undefined
    : compileClientCertificate(bad, client as Record<string, unknown>, x509?.trust, freshness.clockSkew)

  let replay: SoapReplayStore | undefined
  if (options.replay === undefined) replay = defaultStore
  else if (options.replay !== false) {
    if (typeof (options.replay as { claim?: unknown } | null)?.claim !== 'function') {
      bad('.replay must be a store with claim(key, ttlMs), or false')
    }
    replay = options.replay
  }

  const except = options.except ?? []
  if (!Array.isArray(except) || !except.every((name) => typeof name === 'string')) {
    return bad('.except must be an array of operation names')
  }
  for (const name of except) {
    if (!operations.includes(name)) bad(`.except names ${String(name)}, which is no operation of the service`)
  }

  return {
    usernameToken,
    timestampRequired,
    headerRequired: usernameToken !== undefined || timestampRequired,
    // A signed reply carries its own Timestamp, signed.
    replyTimestamp: (timestamp as { reply?: boolean } | undefined)?.reply === true && x509?.reply === undefined,
    freshness,
    replay,
    except: new Set(except as string[]),
    ...policyAssertions(usernameToken, x509 === undefined ? undefined : options.x509),
    x509,
    clientCertificate
  }
}

/** The WS-Policy assertions of the description (docs/wsdl.md "Policy"), of a `security.x509` already checked. */
function policyAssertions (
  usernameToken: ServiceSecurity['usernameToken'], x509: SoapSecurityOptions['x509']
): Pick<ServiceSecurity, 'assertions' | 'inputAssertions' | 'outputAssertions'> {
  const signed = x509?.signed?.usernameToken === true
  const token = usernameToken === undefined ? [] : [usernameTokenAssertion(usernameToken.password === 'digest', signed)]
  if (x509 === undefined) return { assertions: token, inputAssertions: [], outputAssertions: [] }
  const signedHeaders = x509.signed?.headers ?? []
  const { endpoint, input, output } =
    x509Assertions({ signedHeaders, allowSha1: x509.allowSha1 === true, replySigned: x509.reply !== undefined })
  return { assertions: [...endpoint, ...token], inputAssertions: input, outputAssertions: output }
}
