/**
 * The `otel` contender's SDK (docs/observability.md): fastify-soap with a
 * tracer provider and a meter provider registered, so that every request
 * makes, records and hands over its span and measurements. The exporter
 * takes each batch and drops it, the reader is never asked: what is measured
 * is the plugin's work and the SDK's in the server, not an export's.
 */
import { context, metrics, propagation, trace } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics'
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base'

const dropping: SpanExporter = {
  export: (_spans, done) => { done({ code: 0 }) },
  shutdown: async () => {}
}

class IdleReader extends MetricReader {
  protected async onForceFlush (): Promise<void> {}
  protected async onShutdown (): Promise<void> {}
}

/** Registers the SDK globally; call it before the plugin is registered. */
export function registerSdk (): void {
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropping)] }))
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
  propagation.setGlobalPropagator(new W3CTraceContextPropagator())
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [new IdleReader()] }))
}
