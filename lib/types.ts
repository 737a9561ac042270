/**
 * The public types, in one place, with no runtime code. This file imports
 * only modules that import nothing back: the element view (xml/element.ts),
 * the fault (soap/fault.ts) and the schema-to-type mapping (infer.ts).
 */
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify'
import type { Exact, Infer, Readable } from './infer'
import type { SoapVersion } from './namespaces'
import type { SoapFault, SoapFaultOptions } from './soap/fault'
import type { SoapMtomOptions } from './soap/xop-write'
export type { SoapMtomMode, SoapMtomOptions } from './soap/xop-write'
import type { SoapSecurityOptions } from './security-types'
export type {
  SoapPrincipal, SoapReplayStore, SoapSecurityOptions, SoapUsernameTokenOptions, SoapUserSecret, SoapX509Options,
  SoapPrincipalLookup, SoapClientCertificateOptions, SoapClientTrust
} from './security-types'

import type { XmlElement } from './xml/element'

export type { XmlAttribute, XmlElement } from './xml/element'

// ---------------------------------------------------------------- hooks ---

/** The SOAP hooks, in the order they run (docs/hooks.md). */
export type SoapHookName = 'onEnvelope' | 'onOperation' | 'preValidation' | 'preHandler' | 'onResult' | 'onFault'

/**
 * A hook of every stage but `onFault`. End the request with `reply.send()` /
 * `reply.soap()`, or by throwing (a `SoapFault` is sent as it is).
 */
export type SoapHook = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown> | unknown

/**
 * An `onFault` hook: it sees the fault about to be sent; it may answer
 * otherwise with `reply`, or throw another fault.
 */
export type SoapFaultHook = (
  request: FastifyRequest, reply: FastifyReply, fault: SoapFault
) => Promise<unknown> | unknown

export type SoapHookFunction<Name extends SoapHookName> = Name extends 'onFault' ? SoapFaultHook : SoapHook

/**
 * Hooks given with an operation's declaration: a function or a list, per stage
 * (onEnvelope and onFault belong to the scope).
 */
export type SoapOperationHooks = {
  readonly [Name in Exclude<SoapHookName, 'onEnvelope' | 'onFault'>]?: SoapHook | readonly SoapHook[]
}

// ------------------------------------------------------------ operations ---

/** What a handler or hook learns of the operation it runs for. */
export interface SoapOperationInfo {
  readonly name: string
  readonly service: string
  /** The action URI (SOAPAction in 1.1, the `action` parameter in 1.2). */
  readonly action: string
  /** The input element as `{namespace}localName`; undefined when the operation takes an empty Body. */
  readonly element: string | undefined
  readonly oneWay: boolean
}

/**
 * A handler's second argument: the request, the reply, the decoded headers, a
 * signal, and a maker of the operation's declared faults.
 */
export interface SoapCall {
  readonly request: FastifyRequest
  readonly reply: FastifyReply
  readonly operation: SoapOperationInfo
  /** `request.soap`. */
  readonly soap: NonNullable<FastifyRequest['soap']>
  /** The header blocks the operation's header schema names, decoded and validated. */
  readonly headers: unknown
  readonly log: FastifyBaseLogger
  /**
   * Aborted when the client goes away before the answer is complete, or when
   * the operation's `timeout` passes: hand it to what the handler waits on.
   */
  readonly signal: AbortSignal
  /**
   * A fault the operation declares under `faults`, with `detail` written by
   * that fault's schema (checked against it first). Throw what it returns.
   */
  fault (name: string, detail: unknown, options: Omit<SoapFaultOptions, 'detail'>): SoapFault
  /**
   * The values of the reply's header blocks, by property of the operation's
   * `outputHeaders` schema: checked against it and written into the reply's
   * Header with the result (a later call replaces them).
   */
  replyHeaders (values: unknown): void
}

/** The `wsdl` key of a service declaration (docs/wsdl.md). */
export interface SoapWsdlOptions {
  /**
   * The endpoint URL written in the ports; by default taken from each request
   * (Host; X-Forwarded-Proto and -Host under trustProxy).
   */
  readonly address?: string
  /**
   * Serve each namespace's schema at `?xsd=<prefix>`, imported by the WSDL,
   * instead of inline in `wsdl:types`. Default false.
   */
  readonly splitSchemas?: boolean
  /** A hand-written WSDL, served as given instead of the generated one. */
  readonly document?: string
  /** With `document`: the schemas it imports, served at `?xsd=<name>`. */
  readonly schemas?: Readonly<Record<string, string>>
}

// ----------------------------------------------------------- addressing ---

/** A WS-Addressing endpoint reference (WS-Addressing 1.0 Core §2), as a request carried it. */
export interface SoapEndpointReference {
  /** `wsa:Address`, white space trimmed. */
  readonly address: string
  /**
   * The children of `wsa:ReferenceParameters` (and, in 2004/08, of
   * `wsa:ReferenceProperties`): a message sent to this endpoint carries each as
   * a header block.
   */
  readonly referenceParameters: readonly XmlElement[]
  /** The whole element (`wsa:ReplyTo`, `wsa:FaultTo`, `wsa:From`), metadata included. */
  readonly element: XmlElement
}

/** The message addressing properties of a request (docs/addressing.md "What is read"). */
export interface SoapAddressing {
  /**
   * `'1.0'` (`http://www.w3.org/2005/08/addressing`) or `'2004/08'`
   * (`http://schemas.xmlsoap.org/ws/2004/08/addressing`): the version the
   * request used, and the reply uses.
   */
  readonly version: '1.0' | '2004/08'
  /** The namespace of that version. */
  readonly namespace: string
  /** `wsa:To`, the destination; undefined when absent (the anonymous address). */
  readonly to: string | undefined
  /** `wsa:Action`. */
  readonly action: string
  /** `wsa:MessageID`. */
  readonly messageId: string | undefined
  /** Each `wsa:RelatesTo`, with its relationship type (the reply type when the attribute is absent). */
  readonly relatesTo: ReadonlyArray<{ readonly id: string, readonly type: string }>
  readonly replyTo: SoapEndpointReference | undefined
  readonly faultTo: SoapEndpointReference | undefined
  readonly from: SoapEndpointReference | undefined
  /**
   * WS-Addressing 1.0: the header blocks marked
   * `wsa:IsReferenceParameter="true"`, the reference parameters of the endpoint
   * this request was sent to.
   */
  readonly referenceParameters: readonly XmlElement[]
}

/**
 * Where a reply may go when a request's ReplyTo or FaultTo is not the anonymous
 * address (docs/addressing.md "Asynchronous replies").
 */
export interface SoapAsyncReplyOptions {
  /**
   * The destinations replies may be sent to: URLs, each allowing its origin
   * and the paths under its path, regular expressions matching the whole
   * URL, or a function of the URL. Nothing else is ever connected to.
   */
  readonly allow: ReadonlyArray<string | RegExp> | ((url: URL) => boolean)
  /** Milliseconds one delivery may take, connecting included. Default 10,000. */
  readonly timeout?: number
  /** Tries after the first when the destination cannot be reached or answers 502, 503 or 504. Default 2, at most 10. */
  readonly retries?: number
  /**
   * Replies of this service in flight at once; past it a request with a
   * ReplyTo is answered EndpointUnavailable (docs/addressing.md "Bounds"). Default 64.
   */
  readonly maxInFlight?: number
  /** UTF-8 bytes those replies may hold at once, reference parameters included. Default 8 MiB. */
  readonly maxBytes?: number
  /**
   * Post faults of requests that did not pass WS-Security, and WS-Security
   * faults, to FaultTo as well. Default false: they come back on the connection.
   */
  readonly postSecurityFaults?: boolean
}

/** The `addressing` key of a service or contract (docs/addressing.md "Options"). */
export interface SoapAddressingOptions {
  /**
   * Refuse a request without WS-Addressing headers
   * (MessageAddressingHeaderRequired). Default false: such a request is served
   * as plain SOAP.
   */
  readonly required?: boolean
  /**
   * Send replies to a non-anonymous ReplyTo (and faults to FaultTo) on the
   * allow-list; off by default, when such a request is refused with
   * OnlyAnonymousAddressSupported.
   */
  readonly asyncReplies?: SoapAsyncReplyOptions
}

/**
 * One asynchronous reply, as a reply queue stores it (docs/addressing.md
 * "Durable replies"): plain data, which a shared queue keeps in its store
 * and which the delivering process checks again as untrusted input.
 */
export interface SoapReplyJob {
  /** The reply's own `wsa:MessageID` (`urn:uuid:...`): the job's id, so that storing it twice stores it once. */
  readonly id: string
  /** The name of the service that answered; the deliverer applies that service's allow-list, time limit and retries. */
  readonly service: string
  /** The address it is POSTed to: the ReplyTo, or the FaultTo of a fault. */
  readonly to: string
  /** The envelope, as written. */
  readonly envelope: string
  readonly version: SoapVersion
  /** The reply's `wsa:Action`, sent as the SOAP action. */
  readonly action: string
}

/** What storing a job gives back to the plugin. */
export interface SoapReplyReceipt {
  /**
   * The delivery, when it runs in this process and holds the job in its
   * memory (the in-memory queue): its place under the caps is held until
   * it settles. Absent when the job is stored elsewhere.
   */
  readonly delivery?: Promise<unknown>
}

/** What a queue's deliverer is told of one try: its number, from 1, and the ms since the job was stored. */
export interface SoapReplyTry {
  readonly attempt: number
  readonly age: number
}

/** What one try of a job came to. */
export type SoapReplyOutcome = 'delivered' | 'retry' | 'given up'

/** What the plugin gives a queue when it starts: how to deliver. */
export interface SoapReplyDeliverer {
  /** Delivers a job with every try the service allows, waiting between them (in memory); true when taken. */
  readonly deliver: (job: SoapReplyJob) => Promise<boolean>
  /**
   * One try of a job (a shared queue schedules the next itself, after
   * `backoff(attempt)` ms): `retry` when another may follow.
   */
  readonly attempt: (job: SoapReplyJob, attempt: SoapReplyTry) => Promise<SoapReplyOutcome>
  /** The wait after try number `attempt` (200 ms, 400 ms, 800 ms..., at most 5 s). */
  readonly backoff: (attempt: number) => number
  /** Jobs a process may deliver at once: the registration's `maxAsyncReplies`. */
  readonly concurrency: number
  /** Aborted when the server closes: no new try starts. */
  readonly signal: AbortSignal
  /** The server's logger, for the queue's own troubles (a lost connection to its store). */
  readonly log: FastifyBaseLogger
}

/**
 * Where the asynchronous replies of a registration wait for delivery
 * (docs/addressing.md "Durable replies"): `memoryReplyQueue()` by default,
 * `bullmqReplyQueue()` to survive the process.
 */
export interface SoapReplyQueue {
  /** Called once, when the server is ready; from then on the queue delivers its jobs with `deliverer`. */
  start (deliverer: SoapReplyDeliverer): void | Promise<void>
  /**
   * Stores a job; resolves once it is stored, rejects when it cannot be.
   * The plugin answers 202 only then. `signal` is aborted when the plugin
   * stops waiting (the service's `timeout`): the queue should then undo the
   * job if it can.
   */
  add (job: SoapReplyJob, signal: AbortSignal): Promise<SoapReplyReceipt | undefined>
  /** Called when the server closes, after `deliverer.signal` is aborted: resolves once no delivery runs here. */
  close (): Promise<void>
}

// ------------------------------------------------------------- services ---

/** A JSON Schema, as the codec reads it (docs/services.md). Write it inline or `as const` for types. */
export type SoapSchema = { readonly [keyword: string]: unknown }

type InputOf<I> = I extends SoapSchema ? Infer<I> : undefined
/** What the handler of an operation with this output schema returns. */
export type SoapResult<O> = O extends SoapSchema ? Readable<Infer<O>> : undefined | void
type OutputOf<O> = SoapResult<O>
/**
 * What a handler that returns R (or a promise of it) may return for this
 * output schema: R itself, less any property a closed object schema
 * (`additionalProperties: false`) does not declare (docs/typescript.md "Exact results").
 */
export type SoapExactResult<R, O> = O extends SoapSchema
  ? (R extends PromiseLike<infer V> ? Promise<Exact<V, O>> : Exact<R, O>)
  : R
type HeadersOf<H> = H extends SoapSchema ? Infer<H> : undefined
/** What `call.replyHeaders()` takes: the output header blocks' values; never for an operation that declares none. */
type ReplyHeadersOf<H> = H extends SoapSchema ? Readable<Infer<H>> : never
type FaultsOf<F> = F extends Readonly<Record<string, SoapSchema>>
  ? { [K in keyof F]: Infer<F[K]> }
  : Record<never, never>

/** V checked against the schema S, when there is one: see `Exact`. */
type ExactFor<V, S> = S extends SoapSchema ? Exact<V, S> : V
type FaultSchemaOf<F, Name> = F extends Readonly<Record<string, SoapSchema>>
  ? (Name extends keyof F ? F[Name] : undefined)
  : undefined

/**
 * A handler's second argument, typed from the operation's header and fault
 * schemas. `FaultSchemas` and `ReplyHeadersSchema`, the schemas themselves,
 * make a fault's detail and the reply's header values exact
 * (docs/typescript.md "Exact results").
 */
export interface SoapHandlerCall<
  Headers = unknown,
  Faults = Record<string, unknown>,
  ReplyHeaders = unknown,
  FaultSchemas = undefined,
  ReplyHeadersSchema = undefined
> extends Omit<SoapCall, 'headers' | 'fault' | 'replyHeaders'> {
  /** The header blocks the operation's `headers` schema names, decoded and validated. */
  readonly headers: Headers
  /** A declared fault, its detail written by its schema. Throw what it returns. */
  fault<Name extends keyof Faults & string, const Detail extends Faults[Name]> (
    name: Name,
    detail: Detail & ExactFor<Detail, FaultSchemaOf<FaultSchemas, Name>>,
    options: Omit<SoapFaultOptions, 'detail'>
  ): SoapFault
  /** The values of the reply's header blocks (the `outputHeaders` schema's properties), written into its Header. */
  replyHeaders<const Values extends ReplyHeaders> (values: Values & ExactFor<Values, ReplyHeadersSchema>): void
}

/** One operation of a service (docs/services.md). */
export interface SoapOperation<
  Input extends SoapSchema | undefined = SoapSchema | undefined,
  Output extends SoapSchema | undefined = SoapSchema | undefined,
  Headers extends SoapSchema | undefined = SoapSchema | undefined,
  Faults extends Readonly<Record<string, SoapSchema>> | undefined = Readonly<Record<string, SoapSchema>> | undefined,
  OutputHeaders extends SoapSchema | undefined = SoapSchema | undefined
> extends SoapMtomOptions {
  /** The operation element's schema (an object); absent for an operation whose Body is empty, routed by its action. */
  readonly input?: Input
  /** The response element's schema (an object); absent for a one-way operation, answered 202. */
  readonly output?: Output
  /** An object schema whose properties are the header blocks the operation reads. */
  readonly headers?: Headers
  /**
   * An object schema whose properties are the header blocks the reply carries,
   * given by `call.replyHeaders()`. With no `output`, the reply's Body is empty
   * (not a one-way operation).
   */
  readonly outputHeaders?: OutputHeaders
  /** Fault detail schemas by fault name, for `call.fault()`. */
  readonly faults?: Faults
  /** The action URI; default `<namespace>/<operation>`. */
  readonly action?: string
  /**
   * The action of the reply (WS-Addressing `wsa:Action`, the WSDL's
   * `wsam:Action`); default the action followed by `Response`.
   */
  readonly outputAction?: string
  /** The action of each declared fault; default `<action>/Fault/<name>`. */
  readonly faultActions?: { readonly [Name in keyof Faults]?: string }
  /** Also serve the operation at `GET <path>/<operation>?<input>` (SOAP 1.2 Web Method feature). */
  readonly get?: boolean
  /** Milliseconds the handler may take before a Receiver fault; 0 (the default) for no limit. */
  readonly timeout?: number
  /** Hooks of this operation, run after the scope's. */
  readonly hooks?: SoapOperationHooks
  handler (
    input: InputOf<Input>,
    call: SoapHandlerCall<HeadersOf<Headers>, FaultsOf<Faults>, ReplyHeadersOf<OutputHeaders>, Faults, OutputHeaders>
  ): Promise<OutputOf<Output>> | OutputOf<Output>
}

/** A service: operations under one path and one target namespace. */
export interface SoapServiceDefinition extends SoapMtomOptions {
  /** The URL path, under the prefix of the scope that declares it. */
  readonly path: string
  /** The target namespace: operation elements and their children are qualified in it. */
  readonly namespace: string
  /** The service's name (the WSDL service). */
  readonly name: string
  readonly operations: { readonly [name: string]: SoapOperation }
  /** More header blocks the service understands, as `{namespace}localName`. */
  readonly understoodHeaders?: readonly string[]
  /** Refuse, with a Sender fault, an action that does not match the Body's operation. Default false. */
  readonly strictAction?: boolean
  /** Validate handlers' results against the output schema (a failure is a Receiver fault). Default true. */
  readonly validateOutput?: boolean
  /** Default `timeout` of the service's operations, in milliseconds; 0 for none. */
  readonly timeout?: number
  /** `GET <path>?wsdl`: generated (the default, `true`), tuned, hand-written, or `false` for none (docs/wsdl.md). */
  readonly wsdl?: boolean | SoapWsdlOptions
  /** WS-Addressing: read, checked and answered (docs/addressing.md). Default off. */
  readonly addressing?: boolean | SoapAddressingOptions
  /** The status of the service's faults: the plugin's `faultStatus` unless set (docs/faults.md). */
  readonly faultStatus?: 'spec' | 500
  /**
   * WS-Security: the UsernameToken and Timestamp the service's requests must
   * carry (docs/security.md "WS-Security").
   */
  readonly security?: SoapSecurityOptions
}

// ------------------------------------------------------- contract first ---

/** The operations of a contract as `fastify-soap types` writes them: each operation's schemas, `as const`. */
export type ContractSchemas = {
  readonly [name: string]: {
    readonly input?: SoapSchema
    readonly output?: SoapSchema
    readonly headers?: SoapSchema
    readonly outputHeaders?: SoapSchema
    readonly faults?: Readonly<Record<string, SoapSchema>>
  }
}

type HandlerOf<O> = O extends {
  readonly input?: infer I
  readonly output?: infer Out
  readonly headers?: infer H
  readonly outputHeaders?: infer OH
  readonly faults?: infer F
}
  ? SoapOperation<
    I extends SoapSchema ? I : undefined,
    Out extends SoapSchema ? Out : undefined,
    H extends SoapSchema ? H : undefined,
    F extends Readonly<Record<string, SoapSchema>> ? F : undefined,
    OH extends SoapSchema ? OH : undefined
  >['handler']
  : never

/**
 * The handlers of a contract's operations, typed from the schemas `fastify-soap
 * types` writes (docs/contract-first.md).
 */
export type ContractOperations<S extends ContractSchemas> = {
  readonly [K in keyof S]: HandlerOf<S[K]> | {
    readonly handler: HandlerOf<S[K]>
    readonly hooks?: SoapOperationHooks
    readonly timeout?: number
  }
}

/** An operation's output schema; undefined for a one-way operation. */
type ContractOutputOf<O> = O extends { readonly output: infer Out } ? Out : undefined

/**
 * Handlers of a contract's operations, given to `defineContractOperations()`
 * with the schemas `fastify-soap types` writes: `R` is what each handler
 * returns, inferred, then checked against its output schema and to have no
 * property a closed object schema does not name (docs/typescript.md "Exact results").
 */
export type SoapContractHandlers<S extends ContractSchemas, R> = {
  readonly [K in keyof R]: K extends keyof S
    ? (...args: Parameters<HandlerOf<S[K]>>) => R[K] & SoapExactResult<R[K], ContractOutputOf<S[K]>>
    : never
}

/** What the handlers of a contract's operations may return, by operation. */
export type SoapContractResults<S extends ContractSchemas> = { readonly [K in keyof S]?: ReturnType<HandlerOf<S[K]>> }

/** What a contract definition says besides its handlers (docs/contract-first.md "Options"). */
export interface SoapContractOptions extends SoapMtomOptions {
  /** The URL path, under the prefix of the scope that declares it. */
  readonly path: string
  /** The WSDL's file (a path or a `file:` URL); its imports are read relative to it. */
  readonly wsdl?: string | URL
  /** The WSDL itself, instead of `wsdl`. */
  readonly document?: string | Uint8Array
  /** With `document`: the directory its relative imports are read from. */
  readonly base?: string
  /** Gives the documents named by absolute URL (never fetched otherwise). */
  readonly resolver?: (url: string) => string | Uint8Array | Promise<string | Uint8Array>
  /**
   * Where documents are read from instead of where they are named: a location
   * as a document writes it (`'/cpl/x.xsd'`), or the absolute URL it resolves
   * to, mapped to a file path (relative to the root WSDL's folder, or
   * absolute), a `file:` URL, or a URL given to `resolver`. Consulted first.
   * Or an XML catalog file (OASIS XML Catalogs: `system`, `uri`,
   * `rewriteSystem`, `rewriteURI`, `systemSuffix`, `uriSuffix`): its path,
   * from the working directory, or its `file:` URL.
   */
  readonly catalog?: Readonly<Record<string, string | URL>> | string | URL
  /**
   * The folder the contract's files must be in (a path relative to the root
   * WSDL's folder, an absolute path or a `file:` URL): by default the root
   * WSDL's folder. A file the catalog maps to may be anywhere.
   */
  readonly root?: string | URL
  /** The wsdl:service to serve, when there are several. */
  readonly service?: string
  /** The wsdl:binding to serve, when the service's ports bind several portTypes or there is no service. */
  readonly binding?: string
  /** The endpoint URL written in the served WSDL; by default the one each request came to. */
  readonly address?: string
  readonly understoodHeaders?: readonly string[]
  readonly strictAction?: boolean
  readonly validateOutput?: boolean
  readonly timeout?: number
  /** As for a service: the plugin's `faultStatus` unless set. */
  readonly faultStatus?: 'spec' | 500
  /**
   * WS-Addressing; by default on when the WSDL says the binding uses it,
   * required when it says so (docs/addressing.md).
   */
  readonly addressing?: boolean | SoapAddressingOptions
  /**
   * WS-Security (docs/security.md "WS-Security"). A WSDL whose policy asks
   * an operation for a UsernameToken (WS-SecurityPolicy, attached to its
   * service, port, binding, operation or message) turns it on for that
   * operation, and then needs `usernameToken.lookup` here; what you give here
   * wins over the policy.
   */
  readonly security?: SoapSecurityOptions
  /**
   * WS-Policy assertions served without being applied, as
   * `{namespace}localName` (`'{http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200702}TransportBinding'`):
   * an assertion the plugin cannot apply refuses the contract at startup
   * unless named here (docs/contract-first.md "WS-Security").
   */
  readonly ignorePolicyAssertions?: readonly string[]
}

/**
 * An existing WSDL served with your handlers (docs/contract-first.md): a
 * handler for every operation, or, with `unimplemented: 'fault'` or
 * `'sample'`, for some, the others answered with a Receiver fault or samples.
 */
export type SoapContractDefinition<Operations = Record<string, unknown>> = SoapContractOptions & (
  | {
    /** A handler for every operation, by name. */
    readonly operations: Operations
    /** Every operation has a handler: one left out is a startup error (the default). */
    readonly unimplemented?: 'error'
  }
  | {
    /** Handlers for some operations, by name. */
    readonly operations: Partial<Operations>
    /**
     * The operations with no handler are served, each answering a Receiver
     * fault that says it is not implemented (`'fault'`), or a sample of its
     * output (`'sample'`, docs/mock.md "Sample answers").
     */
    readonly unimplemented: 'fault' | 'sample'
    /** With `'sample'`: the seed of the samples answered (default 1). */
    readonly sampleSeed?: number
  }
)
