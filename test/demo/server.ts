/**
 * `npm start`: the demo service on 127.0.0.1:3000 (HOST and PORT override).
 * With OTEL_TRACES_EXPORTER=console, the spans of each call are printed
 * (docs/observability.md "Demo").
 */
import { context, propagation, trace } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { BasicTracerProvider, ConsoleSpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { FastifyOtelInstrumentation } from '@fastify/otel'
import type { FastifyPluginCallback } from 'fastify'
import { DEMO_X509, buildDemo } from './app'

/** The SDK, registered before the plugin: spans printed as they end, @fastify/otel's HTTP spans with them. */
function consoleTracing (): FastifyPluginCallback | undefined {
  if (process.env.OTEL_TRACES_EXPORTER !== 'console') return undefined
  trace.setGlobalTracerProvider(new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter())]
  }))
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
  propagation.setGlobalPropagator(new W3CTraceContextPropagator())
  return new FastifyOtelInstrumentation({ instrumentHooks: false, instrumentHandler: false }).plugin()
}

async function main (): Promise<void> {
  const app = await buildDemo({ logger: { level: 'info' } }, consoleTracing())
  const host = process.env.HOST ?? '127.0.0.1'
  const port = Number(process.env.PORT ?? 3000)
  await app.listen({ host, port })
  const address = app.server.address()
  const bound = address !== null && typeof address === 'object' ? address.port : port
  const shown = host.includes(':') ? `[${host}]` : host
  const base = `http://${shown}:${bound}`
  console.log(`fastify-soap demo: POST SOAP 1.1 (text/xml) or 1.2 (application/soap+xml) to ${base}/calculator (Calculator), ${base}/orders (Orders) or ${base}/files (Files)`)
  console.log(`Pages (open in a browser): ${base}/calculator, ${base}/orders, ${base}/files, ${base}/secure/calculator and ${base}/secure/signed-calculator`)
  console.log(`WSDL: ${base}/calculator?wsdl, ${base}/orders?wsdl and ${base}/files?wsdl`)
  console.log(`Files: ${base}/files (Upload and Download of bytes, inline or as MTOM; up to 4 files of 4 MiB, in memory)`)
  if (process.env.OTEL_TRACES_EXPORTER === 'console') console.log('OpenTelemetry: the spans of each call are printed below')
  console.log(`WS-Security: ${base}/secure/calculator (Calculator behind a UsernameToken: user demo, password demo, text or digest), WSDL ${base}/secure/calculator?wsdl`)
  console.log(`X.509: ${base}/secure/signed-calculator (Calculator requiring the Body and a Timestamp signed by a certificate the demo CA issued; replies signed), WSDL ${base}/secure/signed-calculator?wsdl`)
  console.log(`X.509 keys (test keys only, never for production): ${DEMO_X509} (test-ca.pem: the CA trusted; test-client.pem/.key: sign with these; test-server.pem: the replies' signer)`)
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => { app.close().then(() => process.exit(0), () => process.exit(1)) })
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
