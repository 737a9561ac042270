/**
 * Contract first, part 4: a contract definition bound to the contract read
 * from its WSDL (docs/contract-first.md): the definition's own keys checked,
 * the user's handlers bound by operation name (or the unimplemented ones
 * answered as `unimplemented` says), and the service declaration that is
 * compiled and served as a code-first one is, the WSDL as given.
 */
import { SOAP_ERR_CONTRACT_INVALID } from '../errors'
import { SoapFault } from '../soap/fault'
import type { SoapContractOptions, SoapOperationHooks } from '../types'
import type { OperationDeclaration, ServiceDeclaration } from '../service/declaration'
import type { KeyRecord } from '../codec/keys'
import { contractSecurity } from '../ws/security/security-policy'
import { CARRIED_KEYS, DEFINITION_KEYS, HANDLER_KEYS } from './keys'
import { sampleHandler } from './mock'
import type { Contract, ContractOperation, ContractSource } from './read'

/** A handler of a contract's operation, or the handler with the operation's own hooks and timeout. */
export type ContractHandler = ((input: never, call: never) => unknown) | {
  readonly handler: (input: never, call: never) => unknown
  readonly hooks?: SoapOperationHooks
  readonly timeout?: number
}

/**
 * A contract's definition: the public options (SoapContractOptions, with its
 * source keys as the reader takes them), its handlers by operation, and the
 * keys a protocol module or the MTOM rule checks when the service compiles.
 */
export interface ContractDefinition extends ContractSource, Omit<
  SoapContractOptions, keyof ContractSource | 'addressing' | 'security' | 'mtom' | 'mtomThreshold'
> {
  /** A handler for every operation of the binding, by operation name (with `unimplemented: 'fault'`, for some). */
  readonly operations: Readonly<Record<string, ContractHandler>>
  /**
   * What an operation with no handler is: `'error'` (the default), a startup
   * error; `'fault'`, served with a Receiver fault; `'sample'`, served with
   * sample answers (docs/mock.md).
   */
  readonly unimplemented?: 'error' | 'fault' | 'sample'
  /** With `unimplemented: 'sample'`: the seed of the samples answered (default 1). */
  readonly sampleSeed?: number
  /** When a reply is an MTOM package; by default as the contract's MTOM policy assertion says. */
  readonly mtom?: unknown
  readonly mtomThreshold?: unknown
  /** WS-Addressing: by default as the binding declares it; `false` turns it off, an object adds options. */
  readonly addressing?: unknown
  /** WS-Security, merged with what the contract's policy asks for. */
  readonly security?: unknown
}

/** The keys of a contract's operation, each carried into the operation's declaration. */
const CONTRACT_OPERATION_KEYS = Object.keys({
  input: true,
  output: true,
  headers: true,
  outputHeaders: true,
  faults: true,
  action: true,
  outputAction: true,
  faultActions: true
} as const satisfies KeyRecord<ContractOperation>) as Array<keyof ContractOperation>

/** Checks a contract definition's own keys, before its WSDL is read. */
export function checkDefinition (definition: ContractDefinition): void {
  if (typeof definition !== 'object' || definition === null) {
    throw new SOAP_ERR_CONTRACT_INVALID('(definition)', 'must be an object')
  }
  const unknown = DEFINITION_KEYS.unknownIn(definition)
  if (unknown !== undefined) {
    throw new SOAP_ERR_CONTRACT_INVALID('(definition)', `unknown key "${unknown}" (one of ${DEFINITION_KEYS.list})`)
  }
  const mode: unknown = definition.unimplemented
  if (mode !== undefined && mode !== 'error' && mode !== 'fault' && mode !== 'sample') {
    throw new SOAP_ERR_CONTRACT_INVALID(
      '(definition)', '"unimplemented" must be "error" (the default), "fault" or "sample"'
    )
  }
  const seed: unknown = definition.sampleSeed
  if (seed !== undefined && !Number.isSafeInteger(seed)) {
    throw new SOAP_ERR_CONTRACT_INVALID('(definition)', '"sampleSeed" must be an integer')
  }
  const ignored: unknown = definition.ignorePolicyAssertions
  const isName = (name: unknown): boolean => typeof name === 'string' && /^\{[^{}]+\}[^{}\s]+$/.test(name)
  if (ignored !== undefined && (!Array.isArray(ignored) || !ignored.every(isName))) {
    const problem = '"ignorePolicyAssertions" must be an array of assertion names, "{namespace}localName"'
    throw new SOAP_ERR_CONTRACT_INVALID('(definition)', problem)
  }
}

/** The operations of the contract the definition gives no handler for. */
export function unimplementedOf (contract: Contract, definition: ContractDefinition): string[] {
  return Object.keys(contract.operations).filter((name) => !Object.hasOwn(definition.operations, name))
}

/** The handler of an operation left unimplemented (`unimplemented: 'fault'`): a Receiver fault that says so. */
function notImplemented (name: string): () => never {
  return () => { throw new SoapFault({ code: 'Receiver', reason: `The operation ${name} is not implemented` }) }
}

/** The service declaration of a contract, its operations bound to the user's handlers. */
export function bindContract (contract: Contract, definition: ContractDefinition): ServiceDeclaration {
  const where = contract.name
  const given: unknown = definition.operations
  if (typeof given !== 'object' || given === null) {
    throw new SOAP_ERR_CONTRACT_INVALID(where, '"operations" must map operation names to handlers')
  }
  const unknown = Object.keys(given).filter((name) => !Object.hasOwn(contract.operations, name))
  if (unknown.length > 0) {
    const has = Object.keys(contract.operations).join(', ')
    throw new SOAP_ERR_CONTRACT_INVALID(where, `the contract has no operation ${unknown.join(', ')} (it has ${has})`)
  }
  const missing = unimplementedOf(contract, definition)
  if (missing.length > 0 && definition.unimplemented !== 'fault' && definition.unimplemented !== 'sample') {
    throw new SOAP_ERR_CONTRACT_INVALID(
      where,
      `no handler for ${missing.join(', ')}: ` +
        'every operation of the binding needs one, unless "unimplemented" is "fault" or "sample"'
    )
  }
  const operations: Record<string, OperationDeclaration> = {}
  for (const [name, op] of Object.entries(contract.operations)) {
    const unbound = definition.unimplemented === 'sample'
      ? sampleHandler(name, op, definition.sampleSeed ?? 1)
      : notImplemented(name)
    const bound = Object.hasOwn(given, name) ? (given as Record<string, unknown>)[name] : unbound
    const own = typeof bound === 'function' ? { handler: bound } : bound
    if (typeof own !== 'object' || own === null || HANDLER_KEYS.unknownIn(own) !== undefined) {
      throw new SOAP_ERR_CONTRACT_INVALID(where, `operation ${name} must be a handler, or { ${HANDLER_KEYS.list} }`)
    }
    const declared: { -readonly [K in keyof OperationDeclaration]?: unknown } = { ...own }
    for (const k of CONTRACT_OPERATION_KEYS) if (op[k] !== undefined) declared[k] = op[k]
    operations[name] = declared as unknown as OperationDeclaration
  }
  const declaration: Record<string, unknown> = {
    namespace: contract.namespace === '' ? 'urn:unknown' : contract.namespace,
    name: contract.name,
    operations,
    wsdl: { ...contract.wsdl, ...(definition.address === undefined ? {} : { address: definition.address }) }
  }
  for (const k of CARRIED_KEYS) if (definition[k] !== undefined) declaration[k] = definition[k]
  const addressing = contractAddressing(contract, definition.addressing)
  if (addressing !== undefined) declaration.addressing = addressing
  const mtom = definition.mtom ?? contract.mtom
  if (mtom !== undefined) declaration.mtom = mtom
  const ignored = new Set(definition.ignorePolicyAssertions)
  const security = contractSecurity(where, contract.security ?? {}, definition.security, ignored)
  if (security !== undefined) declaration.security = security
  return declaration as unknown as ServiceDeclaration
}

/**
 * A contract's addressing: the definition's `false` turns it off, `true` on;
 * an object is taken with the WSDL's `required` unless it sets its own; by
 * default, as the binding declares it.
 */
function contractAddressing (contract: Contract, given: unknown): unknown {
  const declared = contract.addressing
  if (given === undefined) return declared
  if (given === true) return declared ?? true
  if (
    typeof given === 'object' && given !== null && !Array.isArray(given) &&
    declared !== undefined && !('required' in given)
  ) return { required: declared.required, ...given }
  return given
}
