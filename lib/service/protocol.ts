/**
 * The one interface a header protocol (WS-Addressing, WS-Security) plugs
 * into a service through (docs/architecture.md "Protocols"). A module owns a
 * key of the service declaration; `compile` turns that key's value into the
 * service's `Protocol`, or into nothing when it is off. The runtime knows no
 * protocol by name: it loops over a service's protocols at each stage, and
 * keeps what they note of a request in its `Exchange`, not on `request.soap`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { SoapFault } from '../soap/fault'
import type { SoapContext } from './context'
import type { SoapOperationInfo } from '../types'
import type { VersionInfo } from '../namespaces'

/** What a protocol's steps read of an operation (compile.ts makes the whole of it). */
export interface Operation {
  readonly info: SoapOperationInfo
  /** The action of the operation's reply. */
  readonly outputAction: string
}

/** What a protocol's steps read of the service a request is for (compile.ts makes the whole of it). */
export interface Service {
  readonly name: string
  /** Its operations by action. */
  readonly byAction: ReadonlyMap<string, Operation>
  /** The protocols its declaration turns on. */
  readonly protocols: readonly Protocol[]
  readonly stages: ProtocolStages
}

/** What a protocol's `compile` is told of the service it is compiled for. */
export interface ProtocolTarget {
  /** The service's name, for the errors a bad declaration raises. */
  readonly name: string
  /** Its operations' names, in declaration order. */
  readonly operations: readonly string[]
}

/** What a protocol adds to a service's routes, once, when they are declared. */
export interface ProtocolRoute {
  /** An onSend hook of the service's POST route. */
  readonly onSend?: (request: FastifyRequest, reply: FastifyReply, payload: unknown) => Promise<unknown>
}

/** A protocol's steps, each run in its stage of a request (docs/hooks.md gives the order). */
export interface ProtocolSteps {
  /** Once the envelope is decoded, before the onEnvelope hooks (POST only). */
  readonly afterDecode?: (exchange: Exchange) => void
  /**
   * Before dispatch: the action that routes the request instead of the SOAP action, which the operation's must
   * match.
   */
  readonly beforeDispatch?: (exchange: Exchange) => string | undefined
  /** Once the operation is known, before the onOperation hooks. */
  readonly afterDispatch?: (exchange: Exchange, op: Operation) => void | Promise<void>
  /** After the preHandler hooks, before the handler. */
  readonly beforeHandler?: (exchange: Exchange, op: Operation) => void
  /** The header blocks the reply's Header starts with. */
  readonly onReply?: (exchange: Exchange, op: Operation) => string
  /**
   * The whole envelope of a reply around its Body content and header blocks, written by the protocol (signed);
   * a reply so written is never an MTOM package. The first protocol's, when several have one.
   */
  readonly writeReply?: (exchange: Exchange, version: VersionInfo, body: string, headers: string | undefined) => string
  /** The header blocks of a fault answering the request; undefined for none. */
  readonly onFault?: (exchange: Exchange, fault: SoapFault) => string | undefined
  /** Whether the answer leaves by another way than this response, as it stands now (the protocol sends it). */
  readonly repliesAway?: (exchange: Exchange) => boolean
}

/** A protocol as one service uses it. */
export interface Protocol extends ProtocolSteps {
  /** Header blocks (`{namespace}localName`) it understands (SOAP mustUnderstand). */
  readonly understood: readonly string[]
  /** WS-Policy assertions the service's description states, each serialised with its namespaces. */
  readonly policies: readonly string[]
  /** Those it states of each operation's input message, and of each output (WS-PolicyAttachment §4.1). */
  readonly inputPolicies?: readonly string[]
  readonly outputPolicies?: readonly string[]
  /** Whether the description states each message's `wsam:Action`. */
  readonly statesActions?: boolean
  /** Whether it authenticates the sender of some operation's requests. */
  readonly authenticates?: boolean
}

/** A protocol module: the declaration key it owns, and what it makes of the key's value. */
export interface ProtocolModule {
  /** The service declaration's key it reads (`addressing`, `security`). */
  readonly key: string
  /**
   * The protocol of a service, or undefined when the key leaves it off; a bad value throws
   * SOAP_ERR_SERVICE_INVALID.
   */
  readonly compile: (value: unknown, target: ProtocolTarget) => Protocol | undefined
  /** What the protocol adds to a service's routes when its key is given, before the service is compiled. */
  readonly route?: (instance: FastifyInstance, value: unknown) => ProtocolRoute | undefined
}

/** The steps of a service's protocols, stage by stage, in the order of its protocols. */
export interface ProtocolStages {
  readonly afterDecode: ReadonlyArray<NonNullable<ProtocolSteps['afterDecode']>>
  readonly beforeDispatch: ReadonlyArray<NonNullable<ProtocolSteps['beforeDispatch']>>
  readonly afterDispatch: ReadonlyArray<NonNullable<ProtocolSteps['afterDispatch']>>
  readonly beforeHandler: ReadonlyArray<NonNullable<ProtocolSteps['beforeHandler']>>
  readonly onReply: ReadonlyArray<NonNullable<ProtocolSteps['onReply']>>
  /** The first protocol's that writes the reply's envelope; undefined when none does. */
  readonly writeReply: ProtocolSteps['writeReply']
  readonly onFault: ReadonlyArray<NonNullable<ProtocolSteps['onFault']>>
  readonly repliesAway: ReadonlyArray<NonNullable<ProtocolSteps['repliesAway']>>
}

/** Groups the steps of `protocols` by stage. */
export function stagesOf (protocols: readonly Protocol[]): ProtocolStages {
  const steps = <K extends keyof ProtocolSteps>(stage: K): Array<NonNullable<ProtocolSteps[K]>> => protocols.flatMap(
    (protocol) => protocol[stage] === undefined ? [] : [protocol[stage].bind(protocol) as NonNullable<ProtocolSteps[K]>]
  )
  return {
    afterDecode: steps('afterDecode'),
    beforeDispatch: steps('beforeDispatch'),
    afterDispatch: steps('afterDispatch'),
    beforeHandler: steps('beforeHandler'),
    onReply: steps('onReply'),
    writeReply: steps('writeReply')[0],
    onFault: steps('onFault'),
    repliesAway: steps('repliesAway')
  }
}

/** A key to a protocol's state in an exchange: one constant per protocol. */
export type StateKey<T> = symbol & { readonly __state?: T }

/**
 * One request to a service with protocols, as the pipeline runs it: the
 * request, its service, and what each protocol notes of it on the way.
 */
export class Exchange {
  readonly request: FastifyRequest
  readonly soap: SoapContext
  readonly service: Service
  readonly #states = new Map<symbol, unknown>()

  constructor (request: FastifyRequest, service: Service) {
    this.request = request
    this.soap = request.soap as SoapContext
    this.service = service
  }

  /** Whether the answer leaves by another way than this response (a protocol sends it): never an MTOM package. */
  get repliesAway (): boolean {
    return this.service.stages.repliesAway.some((step) => step(this))
  }

  /** A protocol's state for this request, once it set one. */
  state<T> (key: StateKey<T>): T | undefined {
    return this.#states.get(key) as T | undefined
  }

  setState<T> (key: StateKey<T>, value: T): void {
    this.#states.set(key, value)
  }
}

/** On each request a service with protocols runs: its exchange (null otherwise). */
export const kExchange: unique symbol = Symbol('fastify-soap.exchange')

declare module 'fastify' {
  interface FastifyRequest {
    [kExchange]: Exchange | null
  }
}

/** The header blocks of a fault answering `request`, from its service's protocols; undefined for none. */
export function faultHeaders (request: FastifyRequest, fault: SoapFault): string | undefined {
  const exchange = request[kExchange]
  if (exchange === null || exchange === undefined) return undefined
  let headers: string | undefined
  for (const step of exchange.service.stages.onFault) {
    const blocks = step(exchange, fault)
    if (blocks !== undefined) headers = (headers ?? '') + blocks
  }
  return headers
}
