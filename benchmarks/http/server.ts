/**
 * One server of `npm run bench` and `npm run soak`, alone in its process on 127.0.0.1.
 * Every kind but soap-upload serves the same three operations:
 *   POST /calculator  Add(a, b) → result (about 400 bytes in); Echo(text) → the same text
 *                     (the JSON routes: Echo at POST /echo)
 *   POST /list        EchoList(item*) → the same items (1,000 records: about 100 KB)
 * Kinds:
 *   json         plain Fastify JSON routes doing the same work (the ceiling)
 *   json-schema  the same routes, each declaring the SOAP operation's JSON Schemas as
 *                Fastify's own `schema` (body: ajv; 200 response: fast-json-stringify)
 *   xml-echo     plain Fastify answering each SOAP request with its own bytes: no XML
 *                read or written, the floor of any SOAP server on Fastify
 *   soap         fastify-soap: the demo Calculator and a declared List service
 *                (benchmarks/http/services.ts); @opentelemetry/api is installed, no SDK
 *   otel         the same, with an OpenTelemetry SDK registered (benchmarks/http/otel.ts)
 *   node-soap    node-soap's server, from the WSDL fastify-soap writes for the same services
 *   strong-soap  strong-soap's server, likewise (benchmarks/http/peers.ts)
 *   soap-upload  fastify-soap serving only POST /upload, Upload(Data: base64Binary) →
 *                its byte count and SHA-256, its body limit raised for the 10 MiB upload
 * Prints `listening <port>` once ready. On SIGUSR2 it prints `stats <JSON>`:
 * CPU time (user + system, µs) and the event loop's delay (ms, p99 and max)
 * since the previous SIGUSR2, the memory in use now and the peak resident set
 * size of the process so far (bytes), so that the runner measures the window it chooses.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import { calculator, serverOptions } from '../../test/demo/app'
import { buildPeer } from './peers'
import { buildSoap, buildUpload, listService } from './services'
import { registerSdk } from './otel'

/** The JSON routes: the same work as the SOAP operations, with JSON bodies; `schemas` given, each route declares them (ajv in, fast-json-stringify out). */
function jsonRoutes (schemas: boolean): FastifyInstance {
  // The demo's server settings (timeouts): the ratios then measure the plugin, not the settings.
  // The SOAP schemas' `xml` keyword (the codec's) is known to ajv, as it is to the plugin's.
  const app = Fastify({ ...serverOptions, bodyLimit: 16 * 1024 * 1024, ajv: { customOptions: { keywords: ['xml'] } } })
  const schema = (input: unknown, output: unknown): { schema?: { body: unknown, response: { 200: unknown } } } =>
    schemas ? { schema: { body: input, response: { 200: output } } } : {}
  const { Add, Echo } = calculator.operations
  const { EchoList } = listService.operations
  app.post('/calculator', schema(Add.input, Add.output), async (request) => {
    const { a, b } = request.body as { a: number, b: number }
    return { result: a + b }
  })
  app.post('/list', schema(EchoList.input, EchoList.output), async (request) => {
    const { item } = request.body as { item: unknown[] }
    return { item }
  })
  app.post('/echo', schema(Echo.input, Echo.output), async (request) => {
    const { text } = request.body as { text: string }
    return { text }
  })
  return app
}

async function build (kind: string | undefined): Promise<FastifyInstance | { listen: () => Promise<number>, close: () => Promise<void> }> {
  if (kind === 'json' || kind === 'json-schema') return jsonRoutes(kind === 'json-schema')
  if (kind === 'xml-echo') {
    const app = Fastify({ ...serverOptions, bodyLimit: 16 * 1024 * 1024 })
    app.addContentTypeParser(['application/soap+xml', 'text/xml'], { parseAs: 'buffer' }, (_request, body, done) => { done(null, body) })
    const echo = (request: FastifyRequest, reply: FastifyReply): FastifyReply =>
      reply.header('content-type', 'application/soap+xml; charset=utf-8').send(request.body)
    app.post('/calculator', echo)
    app.post('/list', echo)
    return app
  }
  if (kind === 'soap') return await buildSoap()
  if (kind === 'soap-upload') return await buildUpload()
  if (kind === 'otel') {
    registerSdk()
    return await buildSoap()
  }
  if (kind === 'node-soap' || kind === 'strong-soap') return await buildPeer(kind)
  throw new Error(`unknown contender ${String(kind)}`)
}

async function main (): Promise<void> {
  const kind = process.argv[2]
  const app = await build(kind)
  let port: number
  if ('server' in app) {
    await app.listen({ host: '127.0.0.1', port: 0 })
    const address = app.server.address()
    port = typeof address === 'object' && address !== null ? address.port : 0
  } else {
    port = await app.listen()
  }
  let last = process.cpuUsage()
  const delay = monitorEventLoopDelay({ resolution: 10 })
  delay.enable()
  process.on('SIGUSR2', () => {
    const used = process.cpuUsage(last)
    last = process.cpuUsage()
    const { rss, heapUsed } = process.memoryUsage()
    const stats = { cpu: used.user + used.system, rss, heapUsed, maxRss: process.resourceUsage().maxRSS * 1024, delayP99: delay.percentile(99) / 1e6, delayMax: delay.max / 1e6 }
    delay.reset()
    console.log(`stats ${JSON.stringify(stats)}`)
  })
  process.once('SIGTERM', () => { app.close().then(() => process.exit(0), () => process.exit(1)) })
  // Once its handlers are in place: a SIGUSR2 sent as soon as this line is read would otherwise end the process.
  console.log(`listening ${port}`)
}

if (require.main === module) main().catch((err) => { console.error(err); process.exit(1) })
