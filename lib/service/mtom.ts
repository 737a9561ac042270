/**
 * When a service's reply is an MTOM package, and which of its binary values
 * go as parts of their own (docs/binary.md "MTOM"): a service's `mtom` and
 * `mtomThreshold`, checked at `ready()`, each operation's over them.
 */
import { SOAP_ERR_SERVICE_INVALID } from '../errors'
import type { SoapMtomMode } from '../types'
import { KnownKeys, type KeyRecord } from '../codec/keys'
import type { FastifyRequest } from 'fastify'
import { kExchange } from './protocol'

const MODES = new KnownKeys({
  always: true, request: true, never: true
} as const satisfies KeyRecord<Record<SoapMtomMode, true>>)

/** A service's or an operation's MTOM rule. */
export interface MtomRule {
  readonly mode: SoapMtomMode
  /** The size in bytes from which a binary value goes as a part. */
  readonly threshold: number
}

/** A service's rule when its declaration sets none: in kind, from 768 bytes. */
export const DEFAULT_MTOM: MtomRule = { mode: 'request', threshold: 768 }

/**
 * The rule of `mode` and `threshold` as a declaration gives them (`what`
 * names the declaration in an error), each taken from `inherited` when unset.
 */
export function mtomRule (
  service: string, what: string, mode: unknown, threshold: unknown, inherited: MtomRule
): MtomRule {
  if (mode !== undefined && (typeof mode !== 'string' || !MODES.has(mode))) {
    throw new SOAP_ERR_SERVICE_INVALID(service, `${what}"mtom" must be one of ${MODES.list}`)
  }
  if (threshold !== undefined && (!Number.isSafeInteger(threshold) || (threshold as number) < 0)) {
    throw new SOAP_ERR_SERVICE_INVALID(service, `${what}"mtomThreshold" must be a non-negative integer of bytes`)
  }
  if (mode === undefined && threshold === undefined) return inherited
  return {
    mode: (mode ?? inherited.mode) as SoapMtomMode,
    threshold: (threshold ?? inherited.threshold) as number
  }
}

/**
 * What a service's description states of MTOM (docs/wsdl.md "MTOM"), from
 * the modes of its own rule and its operations': required when every one
 * is `'always'`, none when every one is `'never'`, else optional.
 */
export function mtomPolicy (modes: ReadonlySet<SoapMtomMode>): 'required' | 'optional' | undefined {
  if (modes.size === 1) {
    if (modes.has('always')) return 'required'
    if (modes.has('never')) return undefined
  }
  return 'optional'
}

/**
 * The MTOM rule a request's answer follows: its operation's once dispatched,
 * its service's before; null outside a service (plain routes).
 */
export const kMtomRule: unique symbol = Symbol('fastify-soap.mtom-rule')

declare module 'fastify' {
  interface FastifyRequest {
    [kMtomRule]: MtomRule | null
  }
}

/**
 * Whether the answer to `request` under `rule` is an MTOM package: always
 * with `'always'`, with `'request'` when the request was one (`inKind`),
 * never with `'never'`, nor when the answer leaves by another way than this
 * response (a protocol's asynchronous reply, written as one envelope).
 */
export function repliesInParts (rule: MtomRule, request: FastifyRequest, inKind: boolean): boolean {
  if (rule.mode === 'never' || request[kExchange]?.repliesAway === true) return false
  return rule.mode === 'always' || inKind
}
