/**
 * The SOAP scope: an encapsulated (not fastify-plugin wrapped) plugin that owns
 * the content-type parsers (behind the preParsing hook that inflates a
 * compressed body), the error handler, the 405 answers and the user's
 * SOAP routes, so that routes outside it keep their own (as mercurius does).
 */
import type Ajv from 'ajv'
import type {
  FastifyError, FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions
} from 'fastify'
import { parseContentType, versionOfMediaType } from '../soap/content-type'
import { MULTIPART_RELATED } from '../soap/xop'
import { writeXopPackage, XopParts } from '../soap/xop-write'
import { kMtomRule, repliesInParts, type MtomRule } from '../service/mtom'
import { SOAP_ERR_DECODE_EMPTY, SOAP_ERR_SERVICE_INVALID } from '../errors'
import { SoapFault, renderFault, toSoapFault } from '../soap/fault'
import type { SoapScope } from '../service/hooks'
import { qnameKey, versionInfo, type SoapVersion } from '../namespaces'
import type { ResolvedOptions, SoapFaultStatus } from '../options'
import type { SoapReplayStore } from '../types'
import { buildAnswerLog, noteAnswer } from './logging'
import { buildGetContext, buildParser, kPackageVersion } from './parser'
import { buildInflate } from './inflate'
import { collectBody, Scratch, SCRATCH_BYTES } from './body'
import { replyBytes } from './reply-bytes'
import { getHandler, serviceHandler } from '../service/pipeline'
import { compileService, type Service } from '../service/compile'
import type { ServiceDeclaration } from '../service/declaration'
import { describeRoute } from '../wsdl/wsdl'
import { faultHeaders, type ProtocolModule, type ProtocolRoute } from '../service/protocol'
import type { OtelApi } from '../telemetry/api'
import { serviceTelemetry, TRACE_CONTEXT_BLOCKS, type ServiceTelemetry } from './telemetry'
import type { SoapContext } from '../service/context'

/**
 * On each Fastify instance that registers the plugin or is registered under it:
 * its SOAP scope (hooks, understood headers), linked to its parent's.
 */
export const kSoapScope: unique symbol = Symbol('fastify-soap.scope')

declare module 'fastify' {
  interface FastifyInstance {
    [kSoapScope]?: SoapScope
  }
}

/**
 * One registration of the plugin: its options, the Ajv instance its services'
 * validators are compiled with, the replay store its services share when
 * they name none (one replay domain: docs/security.md "Replay"), and the
 * protocol modules its services may turn on (which hold what the services
 * share: the replay store, the asynchronous replies in flight), and the
 * OpenTelemetry API when it loads (docs/observability.md).
 */
export interface Registration {
  readonly soap: ResolvedOptions
  readonly ajv: Ajv
  readonly replay: SoapReplayStore
  readonly protocols: readonly ProtocolModule[]
  readonly otel: OtelApi | undefined
}

/**
 * On the Fastify instance that registered the plugin: its registration. Child
 * contexts inherit it as they inherit everything of their parent's, so that
 * `instance[kRegistration]` is the nearest registration, the one whose options
 * apply to what is declared there.
 */
export const kRegistration: unique symbol = Symbol('fastify-soap.registration')

declare module 'fastify' {
  interface FastifyInstance {
    [kRegistration]?: Registration
  }
}

export interface EndpointOptions {
  /** Plain routes (the `routes` option). */
  readonly routes?: FastifyPluginAsync
  /** A declared service. */
  readonly service?: ServiceDeclaration
}

// And multipart/related: an MTOM/XOP package (docs/protocol.md "MTOM/XOP"), its root part one of these two.
const MEDIA_TYPES = ['application/soap+xml', 'text/xml'] as const

/** A compressed body that could not be inflated, or inflates too far: the rest of it is left unread. */
function isCodingError (code: string): boolean {
  return code.startsWith('SOAP_ERR_CODING_')
}

/**
 * The plugin's own decoding and media type errors: raised once the whole body has been read
 * (an unknown content coding, before any of it: Node then discards it).
 */
function isOwnUndecodable (code: string): boolean {
  return code.startsWith('SOAP_ERR_DECODE_') || code.startsWith('SOAP_ERR_CT_') || code.startsWith('SOAP_ERR_MTOM_')
}

function faultVersion (request: FastifyRequest): SoapVersion {
  if (request.soap !== null) return request.soap.version
  if (request[kPackageVersion] !== null) return request[kPackageVersion]
  const header = request.headers['content-type']
  return (header === undefined ? undefined : versionOfMediaType(parseContentType(header).mediaType)?.version) ?? '1.2'
}

/**
 * `faultStatus`, and the service's MTOM rule (a fault before dispatch
 * follows it; none outside a service): the service's or contract's own,
 * else the registration's (docs/faults.md, docs/binary.md "MTOM").
 */
function buildErrorHandler (soap: ResolvedOptions, own: SoapFaultStatus | undefined, mtom: () => MtomRule | null) {
  const { faultFormatter } = soap
  // RFC 9110 §15.5.16, §12.5.3: the codings a request's content may come in.
  const acceptEncoding = [...soap.contentCodings, 'identity'].join(', ')
  const every500 = (own ?? soap.faultStatus) === 500
  function sendFault (request: FastifyRequest, reply: FastifyReply, fault: SoapFault): FastifyReply {
    if (faultFormatter !== undefined) {
      try {
        const formatted = faultFormatter(fault, request)
        if (!(formatted instanceof SoapFault)) throw new TypeError('faultFormatter must return a SoapFault')
        fault = formatted
      } catch (err) {
        request.log.error({ err }, 'fastify-soap: faultFormatter failed; the fault is sent as it was')
      }
    }
    const version = faultVersion(request)
    const first = fault.subcodes[0]
    const subcode = first === undefined ? undefined : qnameKey(first.namespace, first.localName)
    noteAnswer(request, { fault: fault.faultCode, subcode, reason: fault.message, version })
    const { status, contentType, body } = renderFault(fault, version, faultHeaders(request, fault))
    reply.code(every500 ? 500 : status)
    const rule = request[kMtomRule] ?? mtom()
    // A fault holds no binary value: as an MTOM package, its envelope is the only part.
    if (rule === null || !repliesInParts(rule, request, request[kPackageVersion] !== null)) {
      return reply.header('content-type', contentType).send(body)
    }
    const xop = writeXopPackage(versionInfo(version), body, new XopParts(0))
    return reply.header('content-type', xop.contentType).send(xop.body)
  }

  return function soapErrorHandler (thrown: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
    // Anything may be thrown, null included.
    const error = (typeof thrown === 'object' && thrown !== null ? thrown : {}) as Partial<FastifyError>
    const code = typeof error.code === 'string' ? error.code : ''
    if (thrown instanceof SoapFault || isOwnUndecodable(code)) {
      // Fastify closes the connection after a parser error in case the body was
      // not all read; the plugin's own errors come after the whole body was.
      reply.removeHeader('connection')
    }
    if (isOwnUndecodable(code) || code.startsWith('FST_ERR_CTP_') || isCodingError(code)) {
      request.log.debug({ err: error }, 'fastify-soap: request not decoded')
      noteAnswer(request, { error: code })
      if (code === 'SOAP_ERR_CT_ENCODING') reply.header('accept-encoding', acceptEncoding)
      return reply.code(error.statusCode as number).header('content-length', '0').send()
    }
    return sendFault(request, reply, toSoapFault(thrown, request.log))
  }
}

/**
 * The scope's first hook. It answers a POST with no body at all, which never
 * reaches the content-type parser (docs/protocol.md "Decoding": an empty body is a 400).
 */
function onSoapRequest (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const headers = request.headers
  if (request.method === 'POST' && headers['transfer-encoding'] === undefined &&
    (headers['content-length'] === undefined || headers['content-length'] === '0')) {
    done(new SOAP_ERR_DECODE_EMPTY())
  } else {
    done()
  }
}

type BodyParser = (request: FastifyRequest, body: Buffer, done: (err: Error | null, body?: SoapContext) => void) => void

/**
 * The content-type parser of the SOAP media types, or of an MTOM package (`packaged`); with telemetry, it also
 * notes when decoding began and how many bytes it read.
 */
function bodyParser (
  parse: ReturnType<typeof buildParser>, packaged: boolean, telemetry: ServiceTelemetry | undefined
): BodyParser {
  return function parseSoapBody (request, body, done) {
    const start = telemetry?.started()
    let parsed: SoapContext | undefined
    let error: Error | null = null
    try {
      parsed = parse(request, body, packaged)
    } catch (err) {
      error = err as Error
    }
    if (start !== undefined) telemetry?.decoded(request, start, body.length)
    done(error, parsed)
  }
}

/** Hands the parsed request's context the response it is answered on. */
function respondsOn (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  request.soap?.respondsOn(reply.raw)
  done()
}

/**
 * The SOAP scope of a registration's routes or of one service. The options
 * are the nearest registration's when it loads: a service declared in a
 * plugin that registers fastify-soap again takes that registration's options
 * and prefix, however the calls were ordered or awaited.
 */
export async function endpoint (instance: FastifyInstance, { routes, service }: EndpointOptions): Promise<void> {
  const { soap, ajv, protocols, otel } = instance[kRegistration] as Registration
  // A service's understood header blocks are known at ready(), when its scope's are.
  const understood = service === undefined ? soap.understoodHeaders : new Set<string>()
  const parse = buildParser(soap, understood)
  // A service's spans and metrics, when the OpenTelemetry API loaded (docs/observability.md).
  const telemetry = service === undefined || otel === undefined
    ? undefined
    : serviceTelemetry(otel, String(service?.name))
  instance.removeAllContentTypeParsers()
  // An envelope's bytes, read into characters as soon as they have come, joined where the last one's were.
  const parseEnvelope = bodyParser(parse, false, telemetry)
  const scratch = new Scratch(Math.min(soap.bodyLimit, SCRATCH_BYTES))
  instance.addContentTypeParser(MEDIA_TYPES as unknown as string[], (request, payload, done) => collectBody(
    request, payload, soap.bodyLimit,
    (err, body) => err === null ? parseEnvelope(request, body as Buffer, done) : done(err),
    scratch
  ))
  // An MTOM body, often large, collected into one Buffer without holding it twice (body.ts).
  const parsePackage = bodyParser(parse, true, telemetry)
  instance.addContentTypeParser(MULTIPART_RELATED, (request, payload, done) => collectBody(
    request, payload, soap.bodyLimit,
    (err, body) => err === null ? parsePackage(request, body as Buffer, done) : done(err)
  ))
  // An invalid `faultStatus` refuses the service when it is compiled, before any request; a fault before
  // dispatch follows the compiled service's MTOM rule.
  let compiled: () => Service | undefined = () => undefined
  const mtom = (): MtomRule | null => compiled()?.mtom ?? null
  instance.setErrorHandler(buildErrorHandler(soap, service?.faultStatus as SoapFaultStatus | undefined, mtom))
  instance.addHook('onRequest', onSoapRequest)
  instance.addHook('preParsing', buildInflate(soap))
  const logAnswer = buildAnswerLog(soap, instance.log)
  if (logAnswer !== undefined) instance.addHook('onResponse', logAnswer)

  // docs/protocol.md "Other answers": a method a SOAP path does not serve gets 405 with Allow.
  const methodsByUrl = new Map<string, Set<string>>()
  let collecting = true
  const collect = (url: string, route: RouteOptions): void => {
    const methods = methodsByUrl.get(url) ?? new Set<string>()
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) methods.add(method)
    methodsByUrl.set(url, methods)
  }
  instance.addHook('onRoute', (route: RouteOptions & { routePath?: string }) => {
    if (!collecting) return
    collect(route.url, route)
    // A '/' route under a prefix is served with and without the trailing slash.
    if (route.routePath === '' && route.prefixTrailingSlash !== 'no-slash' && route.url !== '/') {
      collect(route.url + '/', route)
    }
  })

  if (routes !== undefined) {
    // Your routes' `request.soap.signal` follows the response they answer on.
    instance.addHook('preValidation', respondsOn)
    await instance.register(routes)
  }
  if (service !== undefined) {
    compiled = serviceRoutes(instance, soap, service, ajv, understood as Set<string>, protocols, telemetry)
  }

  collecting = false
  const supported = instance.supportedMethods
  for (const [url, methods] of methodsByUrl) {
    const others = supported.filter((method) => !methods.has(method))
    if (others.length === 0) continue
    const allow = [...methods].sort().join(', ')
    const relative = url.slice(instance.prefix.length)
    instance.route({
      method: others,
      url: relative,
      // '/' is the prefix's trailing-slash variant; '' is the prefix itself
      prefixTrailingSlash: relative === '/' ? 'slash' : 'both',
      onRequest: async (_request, reply) => reply.code(405).header('allow', allow).header('content-length', '0').send(),
      handler: async () => undefined
    })
  }
}

/**
 * A service's routes: POST at its path, and GET at `<path>/<Operation>` for
 * the operations that opt in. The service is compiled at `ready()`, when
 * every hook and understood header of its scopes is known.
 */
function serviceRoutes (
  instance: FastifyInstance, soap: ResolvedOptions, declaration: ServiceDeclaration, ajv: Ajv,
  understood: Set<string>, protocols: readonly ProtocolModule[], telemetry: ServiceTelemetry | undefined
): () => Service | undefined {
  const own: unknown = declaration?.path
  if (typeof own !== 'string' || !own.startsWith('/')) {
    throw new SOAP_ERR_SERVICE_INVALID(String(declaration?.name), '"path" must be a string starting with "/"')
  }
  // Under the plugin's own prefix, as its `routes` are.
  const path = (soap.prefix ?? '') + own
  type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>
  let post: Handler | undefined
  let compiled: Service | undefined
  const gets = new Map<string, Handler>()
  const context = buildGetContext(soap)
  const keys = declaration as unknown as Record<string, unknown>
  const onSend = protocols.flatMap((module) => module.route?.(instance, keys[module.key]) ?? [] as ProtocolRoute[])
    .flatMap((route) => route.onSend === undefined ? [] : [route.onSend])
  // The span ends first: the hooks after it (an asynchronous reply's delivery) run in its context.
  if (telemetry !== undefined) onSend.unshift(telemetry.onSend as never)
  // Last: every hook before it sees the reply as written.
  onSend.push(replyBytes as never)
  instance.addHook('onReady', async function compileSoapService () {
    // A trace context's header blocks are understood (docs/observability.md "Trace context").
    const understoodHeaders = new Set([...soap.understoodHeaders, ...TRACE_CONTEXT_BLOCKS])
    const options = { understoodHeaders, redact: soap.redact, protocols, instrument: telemetry?.instrument }
    const service = compileService(ajv, declaration, instance[kSoapScope] as SoapScope, options)
    for (const key of service.understood) understood.add(key)
    post = serviceHandler(service)
    compiled = service
    for (const op of service.operations) {
      if (op.queryFields !== undefined) gets.set(op.info.name, getHandler(service, op, context))
    }
  })
  const handler: Handler = (request, reply) => (post as Handler)(request, reply)
  instance.post(path, { onSend }, handler)
  // docs/protocol.md "GET": the WSDL at `?wsdl`, its schemas at `?xsd=`; `wsdl: false` serves none.
  // docs/service-page.md: with `servicePage`, a browser's GET there is the service's page.
  if ((declaration as { wsdl?: unknown }).wsdl !== false) {
    instance.get(path, describeRoute(() => (compiled as Service).description, soap.servicePage))
  }
  const operations: unknown = declaration.operations
  if (typeof operations !== 'object' || operations === null) return () => compiled
  for (const [name, op] of Object.entries(operations)) {
    if ((op as { get?: unknown } | null)?.get !== true) continue
    const getSend = telemetry === undefined ? [replyBytes] : [telemetry.onSend, replyBytes]
    instance.get(`${path}/${name}`, { onSend: getSend }, (request, reply) => {
      telemetry?.begin(request)
      return (gets.get(name) as Handler)(request, reply)
    })
  }
  return () => compiled
}
