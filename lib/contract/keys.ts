/**
 * The keys of a contract definition (docs/contract-first.md "Options"),
 * each list tied to the public type it checks: a key the type gains or
 * loses and the list does not is a type error.
 */
import type { ContractOperations, ContractSchemas, SoapContractDefinition, SoapServiceDefinition } from '../types'
import { KnownKeys, type KeyRecord } from '../codec/keys'

/** The keys of a contract definition. */
export const DEFINITION_KEYS = new KnownKeys({
  path: true,
  wsdl: true,
  document: true,
  base: true,
  root: true,
  resolver: true,
  catalog: true,
  service: true,
  binding: true,
  operations: true,
  address: true,
  understoodHeaders: true,
  strictAction: true,
  validateOutput: true,
  timeout: true,
  addressing: true,
  security: true,
  unimplemented: true,
  ignorePolicyAssertions: true,
  sampleSeed: true,
  faultStatus: true,
  mtom: true,
  mtomThreshold: true
} as const satisfies KeyRecord<SoapContractDefinition>)

/** A handler given with its options (ContractOperations: a function, or this object). */
type HandlerWithOptions = Exclude<ContractOperations<ContractSchemas>[string], (...args: never) => unknown>
/** Its keys. */
export const HANDLER_KEYS = new KnownKeys({
  handler: true,
  hooks: true,
  timeout: true
} as const satisfies KeyRecord<HandlerWithOptions>)

/**
 * The keys a contract definition shares with a service declaration: true
 * for those carried into it as given; false for those that mean something
 * else there (`wsdl`, `operations`) or are merged with what the WSDL says
 * (`addressing`, `security`, `mtom`).
 */
const SHARED_KEYS = {
  path: true,
  understoodHeaders: true,
  strictAction: true,
  validateOutput: true,
  timeout: true,
  faultStatus: true,
  mtomThreshold: true,
  mtom: false,
  wsdl: false,
  operations: false,
  addressing: false,
  security: false
} as const satisfies { readonly [K in keyof SoapContractDefinition & keyof SoapServiceDefinition]: boolean }
export const CARRIED_KEYS = (Object.keys(SHARED_KEYS) as Array<keyof typeof SHARED_KEYS>).filter((k) => SHARED_KEYS[k])
