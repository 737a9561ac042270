/**
 * docs/observability.md "Without OpenTelemetry": the plugin works when
 * `@opentelemetry/api` cannot be loaded, and makes no span when the API is
 * there but nothing is registered; what is registered later counts. Each case
 * runs in a process of its own, so that what this file's process has
 * registered plays no part.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'

const ROOT = join(__dirname, '..', '..')
const LIB = join(ROOT, 'dist', 'lib', 'index.js')
const TELEMETRY = join(ROOT, 'dist', 'lib', 'plugin', 'telemetry.js')
const NODE_MODULES = join(ROOT, 'node_modules')

// Makes `@opentelemetry/api` (and anything under it) unresolvable, as in an install without it.
const UNRESOLVABLE = `
const Module = require('node:module')
const resolve = Module._resolveFilename
Module._resolveFilename = function (request, ...rest) {
  if (request === '@opentelemetry/api' || request.startsWith('@opentelemetry/api/')) {
    throw Object.assign(new Error("Cannot find module '" + request + "'"), { code: 'MODULE_NOT_FOUND' })
  }
  return resolve.call(this, request, ...rest)
}
`

/**
 * A script's app, in an async function where `Fastify`, `soap`, `api` (or undefined) and `seen` are defined:
 * the plugin (after `before`, a statement) and a service Calc whose Add records in `seen` what `record` says
 * of `span`, the active span or undefined, and fails for a negative b; `send(b)`, a POST of Add with a
 * trace context block that must be understood.
 */
function calcApp (record: string, before = ''): string {
  return `
  const int = { type: 'integer' }
  const pair = { type: 'object', properties: { a: int, b: int }, required: ['a', 'b'] }
  const app = Fastify()
  await app.register(soap)
  ${before}
  app.soap.service({
    path: '/calc', name: 'Calc', namespace: 'urn:c',
    operations: {
      Add: {
        input: pair, output: { type: 'object', properties: { sum: int } }, get: true,
        handler: ({ a, b }) => {
          const span = api?.trace.getActiveSpan()
          seen.push(${record})
          if (b < 0) throw new soap.SoapFault({ code: 'Sender', reason: 'negative' })
          return { sum: a + b }
        }
      }
    }
  })
  await app.ready()
  const env = (b, header) => '<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope"><s:Header>' + header +
    '</s:Header><s:Body><m:Add xmlns:m="urn:c"><m:a>1</m:a><m:b>' + b + '</m:b></m:Add></s:Body></s:Envelope>'
  const traced = '<traceparent xmlns="https://www.w3.org/TR/trace-context/" s:mustUnderstand="true">' +
    '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01</traceparent>'
  const headers = { 'content-type': 'application/soap+xml' }
  const send = (b) => app.inject({ method: 'POST', url: '/calc', headers, payload: env(b, traced) })
`
}

// A POST, a fault, a GET; what the handler saw, what the process loaded.
const SCRIPT = `
const Fastify = require('fastify')
const soap = require(${JSON.stringify(LIB)})
let resolvable = true
try { require.resolve('@opentelemetry/api') } catch { resolvable = false }
const seen = []
const api = resolvable ? require('@opentelemetry/api') : undefined
;(async () => {
  ${calcApp("span === undefined ? 'none' : span.isRecording() ? 'recording' : 'not recording'")}
  const ok = await send(2)
  const fault = await send(-1)
  const get = await app.inject({ method: 'GET', url: '/calc/Add?a=1&b=2' })
  await app.close()
  const loaded = Object.keys(require.cache).filter((path) => path.includes('@opentelemetry'))
  console.log(JSON.stringify({ resolvable, post: ok.statusCode, sum: /<[^>]*sum>3</.test(ok.body), fault: fault.statusCode, get: get.statusCode, seen, loaded }))
})().catch((err) => { console.error(err); process.exit(1) })
`

/**
 * With the API loaded and what MODE says registered (a context manager, before the plugin; a tracer
 * provider, after its services are ready): for a POST with a trace context block, a fault, a GET and a
 * request refused before decoding, whether the request had a span of the plugin's, and the trace id of
 * the span the handler ran in; the spans a tracer provider registered late recorded.
 */
const IDLE_SCRIPT = `
const Fastify = require('fastify')
const api = require('@opentelemetry/api')
const soap = require(${JSON.stringify(LIB)})
const { kSpan } = require(${JSON.stringify(TELEMETRY)})
const mode = process.env.MODE
const need = (name) => require(require.resolve(name, { paths: [${JSON.stringify(NODE_MODULES)}] }))
if (mode === 'context') {
  const { AsyncLocalStorageContextManager } = need('@opentelemetry/context-async-hooks')
  api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
}
const spans = []
const seen = []
;(async () => {
  ${calcApp("span === undefined ? 'none' : span.spanContext().traceId", "app.addHook('onResponse', async (request) => { spans.push(request[kSpan] !== null) })")}
  let exporter
  if (mode === 'tracer') {
    const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = need('@opentelemetry/sdk-trace-base')
    exporter = new InMemorySpanExporter()
    api.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }))
  }
  const ok = await send(2)
  const fault = await send(-1)
  const get = await app.inject({ method: 'GET', url: '/calc/Add?a=1&b=2' })
  const empty = await app.inject({ method: 'POST', url: '/calc', headers, payload: '' })
  await app.close()
  const statuses = [ok.statusCode, fault.statusCode, get.statusCode, empty.statusCode]
  const recorded = exporter === undefined ? [] : exporter.getFinishedSpans().map((span) => span.name)
  console.log(JSON.stringify({ statuses, spans, seen, recorded }))
})().catch((err) => { console.error(err); process.exit(1) })
`

async function run (
  t: TestContext, preload: string | undefined, script = SCRIPT, env: Record<string, string> = {}
): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'fastify-soap-otel-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const args = ['-e', script]
  if (preload !== undefined) {
    writeFileSync(join(dir, 'preload.js'), preload)
    args.unshift('-r', join(dir, 'preload.js'))
  }
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(process.execPath, args, { cwd: ROOT, timeout: 30_000, env: { ...process.env, ...env } }, (err, out, errors) => {
      if (err !== null) reject(new Error(`${err.message}\n${errors}`)); else resolve(out)
    })
  })
  return JSON.parse(stdout.trim().split('\n').at(-1) as string)
}

test('docs/observability.md "Without OpenTelemetry": with @opentelemetry/api not resolvable the plugin works, loads none of it, and understands the trace context blocks', async (t: TestContext) => {
  const result = await run(t, UNRESOLVABLE)
  t.assert.deepStrictEqual(result, {
    resolvable: false, post: 200, sum: true, fault: 400, get: 200, seen: ['none', 'none', 'none'], loaded: []
  })
})

test('docs/observability.md "Without OpenTelemetry": with the API and no SDK registered, the plugin works and no span is recorded (the API\'s no-op)', async (t: TestContext) => {
  const result = await run(t, undefined)
  t.assert.deepStrictEqual({ ...result, loaded: undefined }, {
    resolvable: true,
    post: 200,
    sum: true,
    fault: 400,
    get: 200,
    seen: ['none', 'none', 'none'],
    loaded: undefined
  })
})

const STATUSES = [200, 400, 200, 400]
const TRACE_ID = '0af7651916cd43dd8448eb211c80319c'

test('docs/observability.md "Without OpenTelemetry": with the API and nothing registered, a request makes no span at all', async (t: TestContext) => {
  const result = await run(t, undefined, IDLE_SCRIPT, { MODE: 'none' })
  t.assert.deepStrictEqual(result, {
    statuses: STATUSES, spans: [false, false, false, false], seen: ['none', 'none', 'none'], recorded: []
  })
})

test('docs/observability.md "Without OpenTelemetry": with a context manager alone, the handler runs in the span of the trace context block (a GET in an invalid one)', async (t: TestContext) => {
  const result = await run(t, undefined, IDLE_SCRIPT, { MODE: 'context' })
  t.assert.deepStrictEqual(result, {
    statuses: STATUSES, spans: [true, true, true, true], seen: [TRACE_ID, TRACE_ID, '0'.repeat(32)], recorded: []
  })
})

test('docs/observability.md "Turning it on": a tracer provider registered after the services are ready records their spans', async (t: TestContext) => {
  const result = await run(t, undefined, IDLE_SCRIPT, { MODE: 'tracer' })
  t.assert.deepStrictEqual(result, {
    statuses: STATUSES,
    spans: [true, true, true, true],
    seen: ['none', 'none', 'none'],
    recorded: ['Calc/Add', 'Calc/Add', 'Calc/Add', 'Calc']
  })
})
