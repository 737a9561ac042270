/** The `addressing` key of a service or contract, checked once (docs/addressing.md "Options"). */
import { SOAP_ERR_SERVICE_INVALID } from '../../errors'
import type { SoapAddressingOptions, SoapAsyncReplyOptions } from '../../types'
import { KnownKeys, type KeyRecord } from '../../codec/keys'
import { WSAM_NS } from '../../namespaces'
import { DeliveryBudget } from './delivery'

export interface AsyncReplies {
  /** Whether a reply may be sent to this URL. */
  readonly allows: (url: URL) => boolean
  readonly timeout: number
  readonly retries: number
  /** Post faults of requests that did not pass the WS-Security check, and WS-Security faults, to FaultTo too. */
  readonly postSecurityFaults: boolean
  /** The service's deliveries in flight and their bytes, against `maxInFlight` and `maxBytes`. */
  readonly budget: DeliveryBudget
}

/** Defaults of the caps on a service's asynchronous replies (docs/addressing.md "Bounds"). */
export const ASYNC_DEFAULTS = Object.freeze({ maxInFlight: 64, maxBytes: 8 * 1024 * 1024 })

export interface AddressingPolicy {
  readonly required: boolean
  readonly asyncReplies: AsyncReplies | undefined
}

const KEYS = new KnownKeys({ required: true, asyncReplies: true } as const satisfies KeyRecord<SoapAddressingOptions>)
const ASYNC_KEYS = new KnownKeys({
  allow: true, timeout: true, retries: true, maxInFlight: true, maxBytes: true, postSecurityFaults: true
} as const satisfies KeyRecord<SoapAsyncReplyOptions>)

/**
 * An allow-list entry as a test: a URL allows its origin and the paths under
 * its path; a RegExp must match the whole URL, as if written between `^` and
 * `$` (a search would let `/^http:\/\/h:4111/` admit port 41110).
 */
function allowOne (entry: string | RegExp, bad: (problem: string) => never): (url: URL) => boolean {
  if (entry instanceof RegExp) {
    const whole = new RegExp(`^(?:${entry.source})$`, entry.flags.replace(/[gmy]/g, ''))
    return (url) => whole.test(url.href)
  }
  let base: URL | undefined
  try { base = new URL(entry) } catch {}
  if (base === undefined || (base.protocol !== 'http:' && base.protocol !== 'https:')) {
    bad(`.asyncReplies.allow: "${entry}" is not an http or https URL`)
  }
  const { origin, pathname } = base as URL
  const under = pathname.endsWith('/') ? pathname : pathname + '/'
  return (url) => url.origin === origin && (url.pathname === pathname || url.pathname.startsWith(under))
}

function asyncReplies (value: unknown, bad: (problem: string) => never): AsyncReplies | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'object' || value === null) bad('.asyncReplies must be an object')
  const options = value as Record<string, unknown>
  const problem = ASYNC_KEYS.problemIn(options, '.asyncReplies')
  if (problem !== undefined) bad(problem)
  let allows: (url: URL) => boolean
  const allow = options.allow
  if (typeof allow === 'function') {
    allows = (url) => (allow as (url: URL) => unknown)(url) === true
  } else if (Array.isArray(allow)) {
    const tests = allow.map((entry: unknown) => {
      if (typeof entry !== 'string' && !(entry instanceof RegExp)) {
        bad('.asyncReplies.allow lists URLs and regular expressions')
      }
      return allowOne(entry as string | RegExp, bad)
    })
    allows = (url) => tests.some((test) => test(url))
  } else {
    return bad('.asyncReplies.allow must be a list of URLs and regular expressions, or a function')
  }
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const v = options[name]
    if (v === undefined) return fallback
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min || v > max) {
      bad(`.asyncReplies.${name} must be an integer from ${min} to ${max}`)
    }
    return v as number
  }
  if (options.postSecurityFaults !== undefined && typeof options.postSecurityFaults !== 'boolean') {
    bad('.asyncReplies.postSecurityFaults must be a boolean')
  }
  const budget = new DeliveryBudget(
    integer('maxInFlight', ASYNC_DEFAULTS.maxInFlight, 1, 1_000_000),
    integer('maxBytes', ASYNC_DEFAULTS.maxBytes, 1, Number.MAX_SAFE_INTEGER)
  )
  return {
    allows,
    timeout: integer('timeout', 10_000, 1, 600_000),
    retries: integer('retries', 2, 0, 10),
    postSecurityFaults: options.postSecurityFaults === true,
    budget
  }
}

/**
 * The URL of `address` when a reply may be sent there: http or https, and on
 * the allow-list. Checked when the request is read, and again by whoever
 * delivers a stored reply.
 */
export function replyUrl (options: AsyncReplies, address: string): URL | undefined {
  let url: URL | undefined
  try { url = new URL(address) } catch {}
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) return undefined
  return options.allows(url) ? url : undefined
}

/** The policy of a service; undefined when addressing is off (the key absent or false). */
export function addressingPolicy (service: string, value: unknown): AddressingPolicy | undefined {
  if (value === undefined || value === false) return undefined
  if (value === true) return { required: false, asyncReplies: undefined }
  const bad = (problem: string): never => { throw new SOAP_ERR_SERVICE_INVALID(service, `"addressing"${problem}`) }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) bad(' must be true, false or an object')
  const options = value as SoapAddressingOptions & Record<string, unknown>
  const problem = KEYS.problemIn(options, '')
  if (problem !== undefined) bad(problem)
  if (options.required !== undefined && typeof options.required !== 'boolean') bad('.required must be a boolean')
  return { required: options.required === true, asyncReplies: asyncReplies(options.asyncReplies, bad) }
}

/**
 * The policy assertion a generated WSDL states (WS-Addressing 1.0 Metadata
 * §3.1): `wsam:Addressing`, optional unless required. The `wsp` prefix is the
 * one the WSDL's policy binds.
 */
export function addressingAssertion (policy: AddressingPolicy): string {
  const optional = policy.required ? '' : ' wsp:Optional="true"'
  return `<wsam:Addressing xmlns:wsam="${WSAM_NS}"${optional}><wsp:Policy/></wsam:Addressing>`
}
