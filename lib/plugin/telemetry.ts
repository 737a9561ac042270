/**
 * OpenTelemetry for a service's requests (docs/observability.md), made when
 * `@opentelemetry/api` loads (telemetry/api.ts) and the service is compiled:
 * one SERVER span a request, named `<service>/<operation>` after the RPC
 * semantic conventions, the events of the stages that cost time, and the
 * requests, faults and durations as metrics. Without the API the endpoint
 * adds none of this: no hook, no wrapper, nothing a request runs. With the
 * API and nothing registered behind it, a request makes no span (`idle`).
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Attributes, Context, Span, SpanContext } from '@opentelemetry/api'
import type { OtelApi } from '../telemetry/api'
import { TRACE_CONTEXT_NS, qnameKey } from '../namespaces'
import type { SoapContext } from '../service/context'
import type { SoapCall } from '../types'
import { textContent } from '../xml/element'
import { kAnswer, type AnswerNote } from './logging'

/** The header blocks of a trace context, understood by every service (docs/observability.md "Trace context"). */
const TRACEPARENT_BLOCK = qnameKey(TRACE_CONTEXT_NS, 'traceparent')
const TRACESTATE_BLOCK = qnameKey(TRACE_CONTEXT_NS, 'tracestate')
export const TRACE_CONTEXT_BLOCKS: readonly string[] = Object.freeze([TRACEPARENT_BLOCK, TRACESTATE_BLOCK])

/** The events of a span, each recorded when its stage ends (docs/observability.md "Stages"). */
export const STAGE_EVENTS = Object.freeze({
  decode: 'soap.decoded', validate: 'soap.validated', handler: 'soap.handled', write: 'soap.written'
})

const SCOPE = 'fastify-soap'
// W3C Trace Context §3.2: version, trace-id, parent-id, flags; a version after 00 may add fields.
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-[^]*)?$/
// W3C Trace Context §3.3.1.1: at most 32 list members, a header of at most 512 characters is kept.
const MAX_TRACESTATE = 512

/**
 * One request's span: the span, the context it runs in, when it started. Its
 * times are all of performance.now(), the clock of its start, which the span
 * is given.
 */
interface RequestSpan {
  readonly span: Span
  readonly context: Context
  readonly start: number
}

/** On a service's request: its span, once it has begun (a request decorator, declared by the plugin). */
export const kSpan: unique symbol = Symbol('fastify-soap.span')

declare module 'fastify' {
  interface FastifyRequest {
    [kSpan]: RequestSpan | null
  }
}

type SendDone = (err: Error | null, payload?: unknown) => void

/** What the endpoint of one service does with the API. */
export interface ServiceTelemetry {
  /** When a request's decoding starts: now, or undefined when the API is idle (no span is made). */
  started (): number | undefined
  /** The span begins, once the envelope of `bytes` bytes, decoding since `start`, is decoded (or refused). */
  decoded (request: FastifyRequest, start: number, bytes: number): void
  /** The span of a GET operation (SOAP Response MEP) begins: there is no envelope to decode. */
  begin (request: FastifyRequest): void
  /** The handler, run in its request's span's context, its start and end noted. */
  instrument (handler: (input: unknown, call: unknown) => unknown): (input: unknown, call: unknown) => unknown
  /** The route's first onSend hook: the span's answer, its end, the metrics. */
  readonly onSend: (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: SendDone) => void
}

/**
 * The trace context a request's `traceparent` and `tracestate` header blocks
 * carry; undefined when there is none, or one not exactly once, or not valid.
 */
function soapTraceContext (api: OtelApi, soap: SoapContext): SpanContext | undefined {
  const parents = soap.headersByName.get(TRACEPARENT_BLOCK)
  if (parents === undefined || parents.length !== 1 || !parents[0].targeted) return undefined
  const match = TRACEPARENT.exec(textContent(parents[0].element).trim())
  if (match === null || match[1] === 'ff' || (match[1] === '00' && match[5] !== undefined)) return undefined
  const flags = parseInt(match[4], 16) & 1
  const context: SpanContext = { traceId: match[2], spanId: match[3], traceFlags: flags, isRemote: true }
  if (!api.trace.isSpanContextValid(context)) return undefined
  const states = soap.headersByName.get(TRACESTATE_BLOCK)
  if (states?.length === 1 && states[0].targeted) {
    const state = textContent(states[0].element).trim()
    if (state.length <= MAX_TRACESTATE) context.traceState = api.createTraceState(state)
  }
  return context
}

/** The HTTP span's context: @fastify/otel's request span when it made one, else the active context. */
function httpContext (api: OtelApi, request: FastifyRequest): Context {
  const otel = (request as { opentelemetry?: () => { context?: Context | null } }).opentelemetry
  return otel?.call(request).context ?? api.context.active()
}

function byteLength (payload: unknown): number {
  if (typeof payload === 'string') return Buffer.byteLength(payload)
  return Buffer.isBuffer(payload) ? payload.length : 0
}

/** What a span records of its request's answer, besides what its metrics record too. */
function answerAttributes (soap: SoapContext | null, note: AnswerNote | null, payload: unknown): Attributes {
  const attributes: Attributes = { 'soap.response.size': byteLength(payload) }
  if (soap?.action !== undefined) attributes['soap.action'] = soap.action
  if (soap?.username !== undefined) attributes['soap.username'] = soap.username
  if (soap?.principal !== undefined) attributes['soap.principal.subject'] = soap.principal.subject
  const failure = note?.fault ?? note?.error
  if (failure !== undefined) attributes['error.type'] = failure
  if (note?.fault !== undefined) attributes['soap.fault.code'] = note.fault
  if (note?.subcode !== undefined) attributes['soap.fault.subcode'] = note.subcode
  return attributes
}

/**
 * Whether the API is idle: nothing registered behind it that a request's
 * span or metrics could reach. No tracer provider behind the API's proxy, so
 * that a span would be a non-recording one; no-op instruments, made when no
 * meter provider was registered (`instruments`); no context manager, so that
 * no code could see the span as the active one. A request then makes no span.
 */
function idleCheck (api: OtelApi, instruments: readonly unknown[]): () => boolean {
  const { trace, context } = api
  const noop = api.createNoopMeter()
  const noops: unknown[] = [noop.createCounter(''), noop.createHistogram('')]
  if (instruments.some((instrument) => !noops.includes(instrument))) return () => false
  const untraced = new api.ProxyTracerProvider().getDelegate()
  // A context that only a context manager makes active.
  const probe = api.ROOT_CONTEXT.setValue(api.createContextKey('fastify-soap.idle'), true)
  const inProbe = (): boolean => context.active() === probe
  return function idle () {
    const provider = trace.getTracerProvider()
    return provider instanceof api.ProxyTracerProvider && provider.getDelegate() === untraced &&
      !context.with(probe, inProbe)
  }
}

/** A service's telemetry: its spans through the global tracer, its metrics through the global meter. */
export function serviceTelemetry (api: OtelApi, service: string): ServiceTelemetry {
  const { trace, context } = api
  const tracer = trace.getTracer(SCOPE)
  const meter = api.metrics.getMeter(SCOPE)
  const duration = meter.createHistogram('rpc.server.call.duration', {
    unit: 's',
    description: 'The duration of a SOAP request to a service, from its decoding to its answer',
    advice: { explicitBucketBoundaries: [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10] }
  })
  const requests = meter.createCounter('soap.server.requests', {
    unit: '{request}', description: 'SOAP requests to a service answered'
  })
  const faults = meter.createCounter('soap.server.faults', {
    unit: '{fault}', description: 'SOAP faults answered, by code'
  })
  const idle = idleCheck(api, [duration, requests, faults])

  function start (request: FastifyRequest, started: number, bytes: number | undefined): RequestSpan {
    const http = httpContext(api, request)
    let parent = http
    let links
    // A trace context in header blocks is the parent when the HTTP request carried none (docs/observability.md).
    const remote = request.soap === null || request.headers.traceparent !== undefined
      ? undefined
      : soapTraceContext(api, request.soap)
    if (remote !== undefined) {
      parent = trace.setSpanContext(http, remote)
      const local = trace.getSpanContext(http)
      if (local !== undefined) links = [{ context: local }]
    }
    const attributes: Attributes = { 'rpc.system': 'soap', 'rpc.service': service }
    if (bytes !== undefined) attributes['soap.request.size'] = bytes
    const span = tracer.startSpan(service, { kind: api.SpanKind.SERVER, startTime: started, attributes, links }, parent)
    const state: RequestSpan = { span, context: trace.setSpan(parent, span), start: started }
    request[kSpan] = state
    return state
  }

  function onSend (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: SendDone): void {
    let state = request[kSpan]
    if (state === null && idle()) {
      done(null, payload)
      return
    }
    const now = performance.now()
    // A request refused before its envelope was decoded (an empty body, one over the limit) begins here.
    state ??= start(request, now - reply.elapsedTime, undefined)
    const { span } = state
    span.addEvent(STAGE_EVENTS.write, now)
    const soap = request.soap
    const note = request[kAnswer]
    const common: Attributes = { 'rpc.system': 'soap', 'rpc.service': service }
    const operation = soap?.operation?.name
    if (operation !== undefined) common['rpc.method'] = operation
    const version = soap?.version ?? note?.version
    if (version !== undefined) common['soap.version'] = version
    const failure = note?.fault ?? note?.error
    if (note?.fault !== undefined) faults.add(1, { ...common, 'soap.fault.code': note.fault })
    // A span the SDK does not record (none registered, or not sampled) is given nothing more.
    if (span.isRecording()) {
      if (operation !== undefined) span.updateName(`${service}/${operation}`)
      span.setAttributes(common)
      span.setAttributes(answerAttributes(soap, note, payload))
      // Only a failure of the server's own is an error of a server span: a Receiver fault.
      if (note?.fault === 'Receiver') span.setStatus({ code: api.SpanStatusCode.ERROR, message: note.reason })
    }
    span.end(now)
    requests.add(1, common)
    // The span's duration, in seconds (semantic conventions: the metric SHOULD equal the span's duration).
    duration.record((now - state.start) / 1000, failure === undefined ? common : { ...common, 'error.type': failure })
    // The hooks after this one (an asynchronous reply's delivery) run in the request's context.
    context.with(state.context, () => done(null, payload))
  }

  return {
    started () {
      return idle() ? undefined : performance.now()
    },
    decoded (request, started, bytes) {
      start(request, started, bytes).span.addEvent(STAGE_EVENTS.decode, performance.now())
    },
    begin (request) {
      if (!idle()) start(request, performance.now(), undefined)
    },
    instrument (handler) {
      return function tracedHandler (input, call) {
        const state = (call as SoapCall).request[kSpan]
        if (state === null) return handler(input, call)
        state.span.addEvent(STAGE_EVENTS.validate, performance.now())
        return context.with(state.context, async () => {
          try {
            return await handler(input, call)
          } finally {
            state.span.addEvent(STAGE_EVENTS.handler, performance.now())
          }
        })
      }
    },
    onSend
  }
}
