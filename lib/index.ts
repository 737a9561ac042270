/**
 * fastify-soap: SOAP 1.1 and 1.2 over HTTP for Fastify.
 *
 * The fastify-plugin wrapped outer plugin owns the decorators; the encapsulated
 * `endpoint` plugin owns the parsers, the error handler and the SOAP routes.
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import type { SoapContext } from './service/context'
import type { ContractDefinition, ContractHandler } from './contract/bind'
import { contractEndpoint } from './plugin/contract'
import { endpoint, kRegistration, kSoapScope, type Registration } from './plugin/endpoint'
import { kAnswer } from './plugin/logging'
import { kPackageVersion } from './plugin/parser'
import { kMtomRule } from './service/mtom'
import { SOAP_ERR_OPT_INVALID } from './errors'
import { isQNameKey } from './namespaces'
import { checkHook, createScope, type SoapScope } from './service/hooks'
import { normalizeOptions, type FastifySoapOptions, type ResolvedOptions } from './options'
import { sendSoap, type SoapContent, type SoapReplyOptions } from './plugin/reply'
import type { ServiceDeclaration } from './service/declaration'
import type {
  ContractSchemas,
  SoapContractDefinition,
  SoapContractHandlers,
  SoapContractResults,
  SoapExactResult,
  SoapFaultHook,
  SoapHook,
  SoapHookName,
  SoapOperation,
  SoapResult,
  SoapSchema,
  SoapServiceDefinition
} from './types'
import { createAjv } from './codec/validation'
import { memoryReplayStore } from './ws/security/replay'
import { DeliveryBudget } from './ws/addressing/delivery'
import { memoryReplyQueue, ReplyDesk } from './ws/addressing/queue'
import { protocolModules } from './ws/protocols'
// The fields each protocol adds to `request.soap` (`addressing`, `username`, `principal`), typed where the protocol is.
import './ws/addressing/protocol'
import './ws/security/protocol'
import './ws/security/principal'
import { kExchange } from './service/protocol'
import { otelApi } from './telemetry/api'
import { kSpan } from './plugin/telemetry'

export interface SoapDecorator {
  /** The options in force, defaults applied. */
  readonly options: ResolvedOptions
  /** Adds a SOAP hook to this encapsulation context (docs/hooks.md). */
  addHook (name: 'onFault', hook: SoapFaultHook): SoapDecorator
  addHook (name: Exclude<SoapHookName, 'onFault'>, hook: SoapHook): SoapDecorator
  /** Declares header blocks (`{namespace}localName`) understood by the services of this context, for mustUnderstand. */
  understand (...qnames: string[]): SoapDecorator
  /** Declares a service in this context, under its prefix (docs/services.md). Checked and compiled at `ready()`. */
  service (definition: SoapServiceDefinition): FastifyInstance & PromiseLike<undefined>
  /**
   * Serves the operations of an existing WSDL with your handlers
   * (docs/contract-first.md). Read, checked and compiled before `ready()`
   * resolves.
   */
  contract<Operations extends Record<string, unknown> = Record<string, ContractHandler>> (
    definition: SoapContractDefinition<Operations>
  ): FastifyInstance & PromiseLike<undefined>
}

declare module 'fastify' {
  interface FastifyInstance {
    soap: SoapDecorator
  }
  interface FastifyRequest {
    /** The decoded envelope on a SOAP route; null elsewhere and before the body is parsed. */
    soap: SoapContext | null
  }
  interface FastifyReply {
    /** Sends a SOAP envelope in the request's version with `body` as the Body's content. */
    soap (body?: SoapContent, options?: SoapReplyOptions): FastifyReply
  }
}

function decoratorFor (instance: FastifyInstance): SoapDecorator {
  const scope = (): SoapScope => instance[kSoapScope] as SoapScope
  const decorator: SoapDecorator = {
    // The nearest registration's, as it stands when read.
    get options () {
      return (instance[kRegistration] as Registration).soap
    },
    addHook (name: SoapHookName, hook: SoapHook | SoapFaultHook) {
      checkHook(name, hook)
      scope().hooks[name].push(hook as never)
      return decorator
    },
    understand (...qnames) {
      for (const qname of qnames) {
        if (!isQNameKey(qname)) throw new SOAP_ERR_OPT_INVALID('understand()', 'given "{namespace}localName" strings')
      }
      scope().understood.push(...qnames)
      return decorator
    },
    service (definition) {
      return instance.register(endpoint, { service: definition as unknown as ServiceDeclaration })
    },
    contract (definition) {
      return instance.register(contractEndpoint, { definition: definition as unknown as ContractDefinition })
    }
  }
  return decorator
}

const plugin: FastifyPluginAsync<FastifySoapOptions> = async function fastifySoap (
  fastify: FastifyInstance, options: FastifySoapOptions
) {
  const soap = normalizeOptions(options, fastify.initialConfig.bodyLimit)
  // Registered again (another scope, other options), the plugin adds its
  // routes and its options, not decorators: what is declared in this scope
  // and below takes this registration's options (kRegistration). The default
  // replay store is the outer registration's: one replay domain for all.
  const outer = fastify[kRegistration]
  const deliveries = new DeliveryBudget(soap.maxAsyncReplies, soap.maxAsyncReplyBytes)
  const replies = new ReplyDesk(deliveries, soap.replyQueue ?? memoryReplyQueue(), soap.replyQueue !== undefined)
  fastify.addHook('onReady', async () => { await replies.start(fastify.log) })
  fastify.addHook('onClose', async () => { await replies.close() })
  const replay = outer?.replay ?? memoryReplayStore()
  // The OpenTelemetry API, an optional peer dependency, loaded here if it can be (docs/observability.md).
  const otel = otelApi()
  fastify[kRegistration] = { soap, ajv: createAjv(), replay, protocols: protocolModules(replay, replies), otel }
  if (!fastify.hasDecorator('soap')) {
    const decorators = new WeakMap<FastifyInstance, SoapDecorator>()
    fastify.decorate('soap', {
      getter (this: FastifyInstance) {
        let decorator = decorators.get(this)
        if (decorator === undefined) decorators.set(this, decorator = decoratorFor(this))
        return decorator
      }
    })
  }
  // Each encapsulation context gets its own hooks, linked to its parent's, as Fastify's own are.
  if (fastify[kSoapScope] === undefined) {
    fastify[kSoapScope] = createScope(undefined)
    fastify.addHook('onRegister', (instance: FastifyInstance) => {
      instance[kSoapScope] = createScope(instance[kSoapScope])
    })
  }
  if (!fastify.hasRequestDecorator('soap')) fastify.decorateRequest('soap', null)
  if (!fastify.hasReplyDecorator('soap')) fastify.decorateReply('soap', sendSoap)
  if (!fastify.hasRequestDecorator(kAnswer)) fastify.decorateRequest(kAnswer, null)
  if (!fastify.hasRequestDecorator(kExchange)) fastify.decorateRequest(kExchange, null)
  if (!fastify.hasRequestDecorator(kPackageVersion)) fastify.decorateRequest(kPackageVersion, null)
  if (!fastify.hasRequestDecorator(kMtomRule)) fastify.decorateRequest(kMtomRule, null)
  if (otel !== undefined && !fastify.hasRequestDecorator(kSpan)) fastify.decorateRequest(kSpan, null)
  await fastify.register(endpoint, { routes: soap.routes, prefix: soap.prefix })
}

const fastifySoap = fp(plugin, {
  // Fastify 5.0.0 matched media types case-sensitively (Application/SOAP+XML was a 415).
  fastify: '>=5.1.0 <6',
  name: 'fastify-soap'
})

/**
 * Types an operation from its schemas (written inline, or `as const`): the
 * handler's input, result, headers and faults. The handler's result is typed
 * on its own (`Result`) and checked against the output schema's type, so
 * that an enum value or a list it returns needs no `as const`, then checked
 * to have no property a closed object schema does not name (`SoapExactResult`).
 */
export function defineOperation<
  const Input extends SoapSchema | undefined = undefined,
  const Output extends SoapSchema | undefined = undefined,
  const Headers extends SoapSchema | undefined = undefined,
  const Faults extends Readonly<Record<string, SoapSchema>> | undefined = undefined,
  const Result extends SoapResult<Output> | Promise<SoapResult<Output>> =
    SoapResult<Output> | Promise<SoapResult<Output>>,
  const OutputHeaders extends SoapSchema | undefined = undefined
> (
  operation: SoapOperation<Input, Output, Headers, Faults, OutputHeaders> & {
    handler: (
      ...args: Parameters<SoapOperation<Input, Output, Headers, Faults, OutputHeaders>['handler']>
    ) => Result & SoapExactResult<Result, Output>
  }
): SoapOperation<Input, Output, Headers, Faults, OutputHeaders> {
  return operation
}

/**
 * Returns the handlers as they are, typed from a contract's schemas (the
 * `schemas` that `fastify-soap types` writes): each handler's input, call
 * and result, its result inferred, then checked to be exact, as
 * `defineOperation()` checks a code-first one (docs/typescript.md "Exact results").
 * Give what it returns as `operations` to `app.soap.contract<Operations>()`.
 */
export function defineContractOperations<
  const Schemas extends ContractSchemas,
  Results extends SoapContractResults<Schemas>
> (schemas: Schemas, operations: SoapContractHandlers<Schemas, Results>): SoapContractHandlers<Schemas, Results> {
  return operations
}

/** Returns the definition as it is: a typed place to write a service. */
export function defineService<const Definition extends SoapServiceDefinition> (definition: Definition): Definition {
  return definition
}

export default fastifySoap
export { fastifySoap }
export { soapClientErrorHandler } from './plugin/client-error'
export { SoapContext } from './service/context'
export { textContent } from './xml/element'
export { errorCodes } from './errors'
export {
  FAULT_NS, SoapFault, type FaultCode, type FaultSubcode, type FaultText, type SoapFaultOptions
} from './soap/fault'
export type { SoapHeaderBlock } from './soap/headers'
export {
  SOAP11_ENV,
  SOAP12_ENV,
  SOAP12_ROLE_NEXT,
  SOAP12_ROLE_NONE,
  SOAP12_ROLE_ULTIMATE,
  SOAP11_ACTOR_NEXT,
  WSA_NS,
  WSA04_NS,
  type SoapVersion
} from './namespaces'
export { HOOK_NAMES } from './service/hooks'
export type { Infer } from './infer'
export {
  DEFAULTS, type FastifySoapOptions, type FaultFormatter, type ResolvedOptions, type SoapContentCoding,
  type SoapFaultStatus, type SoapLimits, type SoapMultipartLimits
} from './options'
export type { SoapContent, SoapReplyOptions } from './plugin/reply'
export { escapeAttribute, escapeXml } from './xml/escape'
export type {
  ContractOperations,
  ContractSchemas,
  SoapAddressing,
  SoapAddressingOptions,
  SoapAsyncReplyOptions,
  SoapClientCertificateOptions,
  SoapClientTrust,
  SoapCall,
  SoapEndpointReference,
  SoapContractDefinition,
  SoapContractHandlers,
  SoapContractOptions,
  SoapContractResults,
  SoapFaultHook,
  SoapHandlerCall,
  SoapHook,
  SoapHookFunction,
  SoapHookName,
  SoapMtomMode,
  SoapOperation,
  SoapOperationHooks,
  SoapOperationInfo,
  SoapReplayStore,
  SoapReplyDeliverer,
  SoapReplyJob,
  SoapReplyOutcome,
  SoapReplyQueue,
  SoapReplyReceipt,
  SoapReplyTry,
  SoapSchema,
  SoapPrincipal,
  SoapPrincipalLookup,
  SoapSecurityOptions,
  SoapServiceDefinition,
  SoapUsernameTokenOptions,
  SoapUserSecret,
  SoapX509Options,
  SoapWsdlOptions,
  XmlAttribute,
  XmlElement
} from './types'
export { memoryReplayStore, type MemoryReplayStoreOptions } from './ws/security/replay'
export { redisReplayStore, type RedisReplayStoreOptions } from './ws/security/redis'
export { memoryReplyQueue } from './ws/addressing/queue'
export { bullmqReplyQueue, type BullmqReplyQueueOptions } from './ws/addressing/bullmq'
export { readContract, type Contract, type ContractOperation, type ContractSource } from './contract/read'
export type { ContractResolver } from './contract/documents'

// CommonJS and ES module consumers alike get the plugin itself as the module's
// value (`require('fastify-soap')`, `import soap from 'fastify-soap'`), with the
// named exports on it, as Fastify's own packages do.
module.exports = Object.assign(fastifySoap, exports)
