/**
 * OpenTelemetry (docs/observability.md): a service's requests as spans and
 * metrics, recorded through the global API with an in-memory exporter and
 * reader, through fastify.inject, real loopback HTTP and @fastify/otel.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http'
import { X509Certificate } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { once } from 'node:events'
import { test, type TestContext } from 'node:test'
import { context, metrics, propagation, trace, SpanKind, SpanStatusCode } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base'
import { MeterProvider, MetricReader, type DataPoint, type Histogram } from '@opentelemetry/sdk-metrics'
import { FastifyOtelInstrumentation } from '@fastify/otel'
import Fastify, { type FastifyInstance } from 'fastify'
import soap, { SoapFault, WSA_NS, defineService, type SoapServiceDefinition, type SoapVersion } from '../lib/index'
import { FIXTURES, envelope, listen, MEDIA, post } from './helper'
import { security, usernameToken, WSSE } from './ws/security/ws-security-support'

// The SDK, registered once for the file, before any app: spans in memory, metrics on demand.
const exporter = new InMemorySpanExporter()
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }))
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
propagation.setGlobalPropagator(new W3CTraceContextPropagator())
class TestReader extends MetricReader {
  protected async onForceFlush (): Promise<void> {}
  protected async onShutdown (): Promise<void> {}
}
const reader = new TestReader()
metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }))

const NS = 'urn:example:otel'
const TRACE_NS = 'https://www.w3.org/TR/trace-context/'
const VERSIONS: readonly SoapVersion[] = ['1.1', '1.2']
const int = { type: 'integer' } as const
const pair = { type: 'object', properties: { a: int, b: int }, required: ['a', 'b'] } as const
const sum = { type: 'object', properties: { sum: int }, required: ['sum'] } as const
const handlerTracer = trace.getTracer('handler')

const calc = defineService({
  path: '/calc',
  name: 'Calc',
  namespace: NS,
  operations: {
    Add: {
      input: pair,
      output: sum,
      get: true,
      // A span of the handler's own: a child of the SOAP span when the handler runs in its context.
      handler: ({ a, b }) => handlerTracer.startActiveSpan('lookup', (span) => { span.end(); return { sum: a + b } })
    },
    Divide: {
      input: pair,
      output: sum,
      handler: ({ a, b }) => {
        if (b === 0) throw new SoapFault({ code: 'Sender', reason: 'division by zero' })
        return { sum: Math.trunc(a / b) }
      }
    },
    Crash: { input: pair, output: sum, handler: () => { throw new Error('the database is away') } },
    Notify: { input: pair, handler: () => undefined }
  }
})

const USERS: Record<string, string> = { demo: 'demo' }
const secure: SoapServiceDefinition = {
  ...calc,
  path: '/secure',
  name: 'Secure',
  security: { usernameToken: { lookup: async (name: string) => USERS[name] } }
} as SoapServiceDefinition

async function build (t: TestContext, options: { otel?: boolean, services?: readonly SoapServiceDefinition[] } = {}): Promise<FastifyInstance> {
  const app = Fastify()
  if (options.otel === true) {
    const instrumentation = new FastifyOtelInstrumentation()
    await app.register(instrumentation.plugin())
  }
  await app.register(soap)
  for (const service of options.services ?? [calc]) app.soap.service(service)
  t.after(() => app.close())
  await app.ready()
  exporter.reset()
  return app
}

const body = (operation: string, a: number, b: number): string => `<m:${operation} xmlns:m="${NS}"><m:a>${a}</m:a><m:b>${b}</m:b></m:${operation}>`

function call (app: FastifyInstance, version: SoapVersion, operation: string, a: number, b: number, header?: string, url = '/calc') {
  // The action, as each version carries it: SOAPAction, or the media type's action parameter.
  const headers: Record<string, string> = version === '1.1' ? { soapaction: `"${NS}/${operation}"` } : {}
  const contentType = version === '1.1' ? undefined : `${MEDIA[version]}; action="${NS}/${operation}"`
  return post(app, version, envelope(version, body(operation, a, b), header), { url, headers, contentType })
}

/** The one span of the plugin's scope. */
function soapSpan (t: TestContext): ReadableSpan {
  const spans = exporter.getFinishedSpans().filter((span) => span.instrumentationScope.name === 'fastify-soap')
  t.assert.strictEqual(spans.length, 1, `SOAP spans: ${spans.map((span) => span.name).join(', ')}`)
  return spans[0]
}

const eventNames = (span: ReadableSpan): string[] => span.events.map((event) => event.name)

/** The sum of a metric's points whose attributes include `attributes` (a histogram's count). */
async function measured (name: string, attributes: Record<string, unknown>): Promise<number> {
  const { resourceMetrics } = await reader.collect()
  let total = 0
  for (const scope of resourceMetrics.scopeMetrics) {
    for (const metric of scope.metrics) {
      if (metric.descriptor.name !== name) continue
      for (const point of metric.dataPoints as Array<DataPoint<number | Histogram>>) {
        if (!Object.entries(attributes).every(([key, value]) => point.attributes[key] === value)) continue
        total += typeof point.value === 'number' ? point.value : point.value.count
      }
    }
  }
  return total
}

for (const version of VERSIONS) {
  test(`docs/observability.md "Spans": a successful call in SOAP ${version} is one SERVER span <service>/<operation> with the stages as events, the handler's spans its children`, async (t: TestContext) => {
    const app = await build(t)
    const common = { 'rpc.system': 'soap', 'rpc.service': 'Calc', 'rpc.method': 'Add', 'soap.version': version }
    const before = await measured('soap.server.requests', common)
    const timed = await measured('rpc.server.call.duration', common)
    const request = envelope(version, body('Add', 2, 3))
    const response = await call(app, version, 'Add', 2, 3)
    t.assert.strictEqual(response.statusCode, 200)
    const span = soapSpan(t)
    t.assert.strictEqual(span.name, 'Calc/Add')
    t.assert.strictEqual(span.kind, SpanKind.SERVER)
    t.assert.deepStrictEqual(span.attributes, {
      ...common,
      'soap.action': `${NS}/Add`,
      'soap.request.size': Buffer.byteLength(request),
      'soap.response.size': Buffer.byteLength(response.body)
    })
    t.assert.deepStrictEqual(eventNames(span), ['soap.decoded', 'soap.validated', 'soap.handled', 'soap.written'])
    t.assert.strictEqual(span.status.code, SpanStatusCode.UNSET)
    const child = exporter.getFinishedSpans().find((other) => other.name === 'lookup') as ReadableSpan
    t.assert.strictEqual(child.parentSpanContext?.spanId, span.spanContext().spanId)
    t.assert.strictEqual(child.spanContext().traceId, span.spanContext().traceId)
    // docs/observability.md "Metrics"
    t.assert.strictEqual(await measured('soap.server.requests', common) - before, 1)
    t.assert.strictEqual(await measured('rpc.server.call.duration', common) - timed, 1)
  })

  test(`docs/observability.md "Status": a Sender fault in SOAP ${version} records its code and error.type and leaves the status unset; a Receiver fault is an error`, async (t: TestContext) => {
    const app = await build(t)
    const sender = { 'rpc.service': 'Calc', 'rpc.method': 'Divide', 'soap.fault.code': 'Sender' }
    const before = await measured('soap.server.faults', sender)
    const failed = await measured('rpc.server.call.duration', { 'rpc.method': 'Divide', 'error.type': 'Sender' })
    const response = await call(app, version, 'Divide', 1, 0)
    t.assert.strictEqual(response.statusCode, version === '1.1' ? 500 : 400)
    let span = soapSpan(t)
    t.assert.strictEqual(span.name, 'Calc/Divide')
    t.assert.strictEqual(span.attributes['soap.fault.code'], 'Sender')
    t.assert.strictEqual(span.attributes['error.type'], 'Sender')
    t.assert.strictEqual(span.status.code, SpanStatusCode.UNSET)
    t.assert.deepStrictEqual(eventNames(span), ['soap.decoded', 'soap.validated', 'soap.handled', 'soap.written'])
    t.assert.strictEqual(await measured('soap.server.faults', sender) - before, 1)
    t.assert.strictEqual(await measured('rpc.server.call.duration', { 'rpc.method': 'Divide', 'error.type': 'Sender' }) - failed, 1)

    exporter.reset()
    const crash = await call(app, version, 'Crash', 1, 1)
    t.assert.strictEqual(crash.statusCode, 500)
    span = soapSpan(t)
    t.assert.strictEqual(span.name, 'Calc/Crash')
    t.assert.strictEqual(span.attributes['soap.fault.code'], 'Receiver')
    t.assert.strictEqual(span.attributes['error.type'], 'Receiver')
    t.assert.strictEqual(span.status.code, SpanStatusCode.ERROR)
    // Nothing of the body, nor the error's own message, is in the span.
    t.assert.ok(!JSON.stringify(span.attributes).includes('database'))
    t.assert.ok(!String(span.status.message).includes('database'), span.status.message)
  })

  test(`docs/observability.md "Attributes": a WS-Security failure in SOAP ${version} is a Sender fault with its subcode and no username; the principal of an accepted token is soap.username`, async (t: TestContext) => {
    const app = await build(t, { services: [secure] })
    const bad = await call(app, version, 'Add', 2, 3, security(usernameToken({ user: 'demo', password: 'wrong' })), '/secure')
    t.assert.strictEqual(bad.statusCode, version === '1.1' ? 500 : 400)
    let span = soapSpan(t)
    t.assert.strictEqual(span.name, 'Secure/Add')
    t.assert.strictEqual(span.attributes['soap.fault.code'], 'Sender')
    t.assert.strictEqual(span.attributes['soap.fault.subcode'], `{${WSSE}}FailedAuthentication`)
    t.assert.strictEqual(span.attributes['error.type'], 'Sender')
    t.assert.strictEqual(span.attributes['soap.username'], undefined)
    t.assert.strictEqual(span.status.code, SpanStatusCode.UNSET)
    // The check runs after dispatch, before the handler: no handler event.
    t.assert.deepStrictEqual(eventNames(span), ['soap.decoded', 'soap.written'])

    exporter.reset()
    const good = await call(app, version, 'Add', 2, 3, security(usernameToken()), '/secure')
    t.assert.strictEqual(good.statusCode, 200)
    span = soapSpan(t)
    t.assert.strictEqual(span.attributes['soap.username'], 'demo')
    t.assert.strictEqual(span.attributes['error.type'], undefined)
  })

  test(`docs/observability.md "Attributes": the subject of a client certificate's principal is soap.principal.subject (SOAP ${version})`, async (t: TestContext) => {
    const ca = readFileSync(join(FIXTURES, '..', 'demo', 'x509', 'test-ca.pem'), 'latin1')
    const client = new X509Certificate(readFileSync(join(FIXTURES, '..', 'demo', 'x509', 'test-client.pem')))
    const trusted = {
      ...calc,
      path: '/tls',
      name: 'Tls',
      security: { clientCertificate: { from: 'header', header: 'x-client-cert', proxies: ['127.0.0.1'], trust: ca } }
    } as SoapServiceDefinition
    const app = await build(t, { services: [trusted] })
    const headers: Record<string, string> = {
      'x-client-cert': encodeURIComponent(client.toString()),
      ...(version === '1.1' ? { soapaction: `"${NS}/Add"` } : {})
    }
    const contentType = version === '1.1' ? MEDIA[version] : `${MEDIA[version]}; action="${NS}/Add"`
    const good = await app.inject({
      method: 'POST', url: '/tls', headers: { 'content-type': contentType, ...headers }, payload: envelope(version, body('Add', 2, 3))
    })
    t.assert.strictEqual(good.statusCode, 200, good.body)
    t.assert.strictEqual(soapSpan(t).attributes['soap.principal.subject'], client.subject)
    exporter.reset()
    const refused = await app.inject({
      method: 'POST', url: '/tls', headers: { 'content-type': contentType, ...(version === '1.1' ? { soapaction: `"${NS}/Add"` } : {}) }, payload: envelope(version, body('Add', 2, 3))
    })
    t.assert.strictEqual(refused.statusCode, version === '1.1' ? 500 : 400)
    t.assert.strictEqual(soapSpan(t).attributes['soap.principal.subject'], undefined)
  })

  test(`docs/observability.md "Spans": a one-way operation in SOAP ${version} (202) has its span`, async (t: TestContext) => {
    const app = await build(t)
    const response = await call(app, version, 'Notify', 1, 2)
    t.assert.strictEqual(response.statusCode, 202)
    const span = soapSpan(t)
    t.assert.strictEqual(span.name, 'Calc/Notify')
    t.assert.strictEqual(span.attributes['rpc.method'], 'Notify')
    t.assert.strictEqual(span.attributes['soap.response.size'], 0)
    t.assert.deepStrictEqual(eventNames(span), ['soap.decoded', 'soap.validated', 'soap.handled', 'soap.written'])
  })
}

test('docs/observability.md "Spans": a GET operation (SOAP 1.2 Response MEP) has its span, with no decoding', async (t: TestContext) => {
  const app = await build(t)
  const response = await app.inject({ method: 'GET', url: '/calc/Add?a=2&b=5' })
  t.assert.strictEqual(response.statusCode, 200)
  const span = soapSpan(t)
  t.assert.strictEqual(span.name, 'Calc/Add')
  t.assert.strictEqual(span.attributes['soap.version'], '1.2')
  t.assert.strictEqual(span.attributes['soap.request.size'], undefined)
  t.assert.strictEqual(span.attributes['soap.response.size'], Buffer.byteLength(response.body))
  t.assert.deepStrictEqual(eventNames(span), ['soap.validated', 'soap.handled', 'soap.written'])
})

test('docs/observability.md "Spans": a request refused before its envelope is decoded has a span of the service, with the error code', async (t: TestContext) => {
  const app = await build(t)
  const response = await post(app, '1.2', '<not-xml', { url: '/calc' })
  t.assert.strictEqual(response.statusCode, 400)
  const span = soapSpan(t)
  t.assert.strictEqual(span.name, 'Calc')
  t.assert.strictEqual(span.attributes['rpc.method'], undefined)
  t.assert.strictEqual(span.attributes['error.type'], 'SOAP_ERR_DECODE_XML')
  t.assert.strictEqual(span.status.code, SpanStatusCode.UNSET)

  exporter.reset()
  const empty = await app.inject({ method: 'POST', url: '/calc', headers: { 'content-type': MEDIA['1.2'] } })
  t.assert.strictEqual(empty.statusCode, 400)
  t.assert.strictEqual(soapSpan(t).attributes['error.type'], 'SOAP_ERR_DECODE_EMPTY')
})

test('docs/observability.md "With @fastify/otel": the SOAP span is a child of its HTTP request span', async (t: TestContext) => {
  const app = await build(t, { otel: true })
  const response = await call(app, '1.2', 'Add', 1, 2)
  t.assert.strictEqual(response.statusCode, 200)
  const span = soapSpan(t)
  const http = exporter.getFinishedSpans().find((other) => other.instrumentationScope.name === '@fastify/otel' && other.name === 'request') as ReadableSpan
  t.assert.ok(http !== undefined, 'an HTTP span of @fastify/otel')
  t.assert.strictEqual(span.parentSpanContext?.spanId, http.spanContext().spanId)
  t.assert.strictEqual(span.spanContext().traceId, http.spanContext().traceId)
})

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c'
const PARENT_ID = 'b7ad6b7169203331'

/** The header blocks a WCF client with OpenTelemetry's WCF instrumentation sends (and mustUnderstand, which it may add). */
function wcfTraceHeaders (mustUnderstand = ''): string {
  const must = mustUnderstand === '' ? '' : ` s:mustUnderstand="${mustUnderstand}"`
  return `<traceparent xmlns="${TRACE_NS}"${must}>00-${TRACE_ID}-${PARENT_ID}-01</traceparent>` +
    `<tracestate xmlns="${TRACE_NS}">congo=t61rcWkgMzE</tracestate>`
}

for (const version of VERSIONS) {
  test(`docs/observability.md "Trace context": a traceparent header block, as a WCF client sends it, is the parent of the SOAP ${version} span, over loopback HTTP`, async (t: TestContext) => {
    const app = await build(t)
    const port = await listen(app)
    const headers: Record<string, string> = { 'content-type': MEDIA[version] }
    if (version === '1.1') headers.soapaction = `"${NS}/Add"`
    const response = await fetch(`http://127.0.0.1:${port}/calc`, {
      method: 'POST',
      headers,
      body: envelope(version, body('Add', 4, 5), wcfTraceHeaders('1'))
    })
    t.assert.strictEqual(response.status, 200, await response.text())
    const span = soapSpan(t)
    t.assert.strictEqual(span.spanContext().traceId, TRACE_ID)
    t.assert.strictEqual(span.parentSpanContext?.spanId, PARENT_ID)
    t.assert.strictEqual(span.parentSpanContext?.isRemote, true)
    t.assert.strictEqual(span.spanContext().traceState?.serialize(), 'congo=t61rcWkgMzE')
  })
}

test('docs/observability.md "Trace context": with @fastify/otel, the header blocks are the parent when the HTTP headers carry none, the HTTP span a link; an HTTP traceparent wins', async (t: TestContext) => {
  const app = await build(t, { otel: true })
  await call(app, '1.2', 'Add', 1, 2, wcfTraceHeaders())
  let span = soapSpan(t)
  const http = exporter.getFinishedSpans().find((other) => other.name === 'request') as ReadableSpan
  t.assert.strictEqual(span.spanContext().traceId, TRACE_ID)
  t.assert.strictEqual(span.parentSpanContext?.spanId, PARENT_ID)
  t.assert.deepStrictEqual(span.links.map((link) => link.context.spanId), [http.spanContext().spanId])

  exporter.reset()
  const other = '4bf92f3577b34da6a3ce929d0e0e4736'
  await post(app, '1.2', envelope('1.2', body('Add', 1, 2), wcfTraceHeaders()), {
    url: '/calc', headers: { traceparent: `00-${other}-00f067aa0ba902b7-01` }
  })
  span = soapSpan(t)
  t.assert.strictEqual(span.spanContext().traceId, other)
  t.assert.deepStrictEqual(span.links, [])
})

test('docs/observability.md "Trace context": a malformed or repeated traceparent block is no parent', async (t: TestContext) => {
  const app = await build(t)
  const block = (value: string): string => `<traceparent xmlns="${TRACE_NS}">${value}</traceparent>`
  for (const header of [
    block(`00-${TRACE_ID}-${PARENT_ID}`),
    block(`00-${'0'.repeat(32)}-${PARENT_ID}-01`),
    block(`ff-${TRACE_ID}-${PARENT_ID}-01`),
    block(`00-${TRACE_ID}-${PARENT_ID}-01-more`),
    block(`00-${TRACE_ID}-${PARENT_ID}-01`) + block(`00-${TRACE_ID}-${PARENT_ID}-01`),
    `<traceparent xmlns="urn:other">00-${TRACE_ID}-${PARENT_ID}-01</traceparent>`
  ]) {
    exporter.reset()
    const response = await call(app, '1.2', 'Add', 1, 1, header)
    t.assert.strictEqual(response.statusCode, 200)
    const span = soapSpan(t)
    t.assert.notStrictEqual(span.spanContext().traceId, TRACE_ID, header)
    t.assert.strictEqual(span.parentSpanContext, undefined, header)
  }
  // A later version may add fields; a tracestate past 512 characters is dropped.
  exporter.reset()
  await call(app, '1.2', 'Add', 1, 1, block(`01-${TRACE_ID}-${PARENT_ID}-01-more`) +
    `<tracestate xmlns="${TRACE_NS}">k=${'v'.repeat(512)}</tracestate>`)
  const span = soapSpan(t)
  t.assert.strictEqual(span.spanContext().traceId, TRACE_ID)
  t.assert.strictEqual(span.spanContext().traceState, undefined)
})

test('docs/observability.md "Trace context": an asynchronous WS-Addressing reply carries the request\'s context as an HTTP traceparent', async (t: TestContext) => {
  const received: IncomingHttpHeaders[] = []
  const partner = createServer((request, response) => {
    received.push(request.headers)
    request.resume()
    request.on('end', () => { response.statusCode = 202; response.end() })
  })
  partner.listen(0, '127.0.0.1')
  await once(partner, 'listening')
  t.after(() => partner.close())
  const replyTo = `http://127.0.0.1:${(partner.address() as { port: number }).port}/replies`
  const app = await build(t, { services: [{ ...calc, addressing: { asyncReplies: { allow: [replyTo] } } } as SoapServiceDefinition] })
  const block = (name: string, content: string): string => `<wsa:${name} xmlns:wsa="${WSA_NS}">${content}</wsa:${name}>`
  const header = block('Action', `${NS}/Add`) + block('MessageID', 'urn:uuid:6a1e7c2e-0000-4000-8000-000000000009') +
    block('To', 'http://localhost/calc') + block('ReplyTo', `<wsa:Address>${replyTo}</wsa:Address>`)
  const response = await call(app, '1.2', 'Add', 2, 3, header)
  t.assert.strictEqual(response.statusCode, 202)
  const deadline = Date.now() + 3000
  while (received.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10))
  t.assert.strictEqual(received.length, 1)
  const span = soapSpan(t)
  t.assert.strictEqual(received[0].traceparent, `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`)
})
