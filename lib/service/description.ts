/**
 * A service's description: what compile (compile.ts) learns of a declared
 * service that its documents state (the WSDL, its schemas and the service
 * page, lib/wsdl/). Pure data: no handler, hook, validator, writer or
 * timeout; the runtime's `Service` carries it (docs/architecture.md).
 */
import type { ObjectShape } from '../codec/shapes'
import type { SoapWsdlOptions } from '../types'
import type { JsonSchema } from './declaration'

/** A top-level element of an operation's messages. */
export interface ElementDescription {
  readonly name: string
  readonly namespace: string
  readonly shape: ObjectShape
  readonly schema: JsonSchema
}

/** Header blocks: an object schema whose (element) properties are the blocks. */
export interface BlocksDescription {
  readonly shape: ObjectShape
  readonly schema: JsonSchema
}

export interface OperationDescription {
  readonly name: string
  /** The action of its request (SOAPAction, `wsa:Action`). */
  readonly action: string
  /** The action of its reply: the WS-Addressing `wsa:Action` of its output, and its `wsam:Action` in the WSDL. */
  readonly outputAction: string
  /** The action of each declared fault, likewise. */
  readonly faultActions: ReadonlyMap<string, string>
  /** Its Body element; undefined when it takes an empty Body. */
  readonly input: ElementDescription | undefined
  /** Its reply's Body element; undefined when the reply has an empty Body, or none. */
  readonly output: ElementDescription | undefined
  readonly headers: BlocksDescription | undefined
  /** The header blocks of the reply. */
  readonly outputHeaders: BlocksDescription | undefined
  /** Each declared fault's detail element, by the fault's name. */
  readonly faults: ReadonlyMap<string, ElementDescription>
  /** Whether it has no reply: answered 202 with no body. */
  readonly oneWay: boolean
  /** Whether it is also invoked by `GET <path>/<name>`. */
  readonly get: boolean
}

export interface ServiceDescription {
  readonly name: string
  readonly namespace: string
  readonly path: string
  /** How `GET <path>?wsdl` is answered; false when it is not. */
  readonly wsdl: SoapWsdlOptions | false
  /** WS-Policy assertions stated, each serialised with its namespaces (`wsp` bound by the WSDL). */
  readonly policies: readonly string[]
  /** Those stated of each operation's input message, and of each output. */
  readonly inputPolicies: readonly string[]
  readonly outputPolicies: readonly string[]
  /** Whether each message's `wsam:Action` is stated (a protocol asks for it). */
  readonly statesActions: boolean
  /**
   * MTOM's policy assertion (docs/wsdl.md "MTOM"): required when every reply is a package, optional when some
   * may be; undefined when none is.
   */
  readonly mtom: 'required' | 'optional' | undefined
  readonly operations: readonly OperationDescription[]
}

/** A service's description, from what compile made of its declaration, its operations and its protocols. */
export function serviceDescription (
  service: Pick<ServiceDescription, 'name' | 'namespace' | 'path' | 'wsdl' | 'mtom'>,
  operations: readonly OperationDescription[],
  protocols: ReadonlyArray<{
    readonly policies: readonly string[]
    readonly inputPolicies?: readonly string[]
    readonly outputPolicies?: readonly string[]
    readonly statesActions?: boolean
  }>
): ServiceDescription {
  return {
    ...service,
    policies: protocols.flatMap((protocol) => protocol.policies),
    inputPolicies: protocols.flatMap((protocol) => protocol.inputPolicies ?? []),
    outputPolicies: protocols.flatMap((protocol) => protocol.outputPolicies ?? []),
    statesActions: protocols.some((protocol) => protocol.statesActions === true),
    operations
  }
}
