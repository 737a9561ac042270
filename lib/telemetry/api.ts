/**
 * The OpenTelemetry API (`@opentelemetry/api`), an optional peer dependency:
 * loaded once, the first time a registration of the plugin asks for it, with
 * a guarded require, so that a process without it loads nothing and each
 * place that would record something checks one value (docs/observability.md).
 * This room imports nothing of the plugin's.
 */
import type * as Api from '@opentelemetry/api'

/** The parts of the API the plugin uses. */
export type OtelApi = Pick<
  typeof Api, 'context' | 'trace' | 'metrics' | 'propagation' | 'createTraceState' | 'SpanKind' | 'SpanStatusCode' |
  'ProxyTracerProvider' | 'createNoopMeter' | 'createContextKey' | 'ROOT_CONTEXT'
>

// The module, once asked for: null when it cannot be loaded (docs/architecture.md "What is kept between requests").
let loaded: OtelApi | null | undefined

/** The API, or undefined when `@opentelemetry/api` is not installed (or fails to load). */
export function otelApi (): OtelApi | undefined {
  if (loaded === undefined) {
    try {
      loaded = require('@opentelemetry/api') as OtelApi
    } catch {
      loaded = null
    }
  }
  return loaded ?? undefined
}

/**
 * Adds the active context's trace headers (`traceparent`, `tracestate`, as the
 * global propagator writes them) to the headers of a request the plugin sends.
 */
export function injectTraceContext (headers: Record<string, string>): void {
  if (loaded != null) loaded.propagation.inject(loaded.context.active(), headers)
}
