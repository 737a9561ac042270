/**
 * What the node-soap interop scripts share (test/clients/node-soap.ts,
 * contract-node-soap.ts): results as JSON, and an HTTP client that reaches
 * one origin only.
 */
import * as soap from 'soap'

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

/** node-soap's results as JSON: a Date as {"Date": ISO string}, undefined left out. */
export function plain (value: unknown): Json {
  if (value instanceof Date) return { Date: Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString() }
  if (Array.isArray(value)) return value.map(plain)
  if (value !== null && typeof value === 'object') {
    const out: Record<string, Json> = {}
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = plain(v)
    return out
  }
  if (value === undefined) return null
  return value as Json
}

/** An HTTP client that reaches one origin only (the WSDL's), with no proxy, and notes the URLs it gets. */
export class LoopbackOnly extends soap.HttpClient {
  readonly fetched: string[] = []

  /** `options`: the HttpClient's own, such as `parseResponseAttachments` (the client's are not passed to it). */
  constructor (private readonly origin: string, options: soap.IOptions = {}) {
    super(options)
  }

  override buildRequest (rurl: string, data: unknown, exheaders?: soap.IHeaders, exoptions?: soap.IExOptions): Record<string, unknown> {
    if (new URL(rurl).origin !== this.origin) throw new Error(`node-soap tried to reach ${rurl}, outside ${this.origin}`)
    if (data === null || data === undefined) this.fetched.push(rurl)
    const options = super.buildRequest(rurl, data, exheaders, exoptions) as Record<string, unknown>
    options.proxy = false
    options.timeout = 30_000
    return options
  }

  /**
   * node-soap cuts every response body down to the first `<x:Envelope>…</x:Envelope>`
   * it holds, a WSDL's too: wsi-scm's WSDLs carry example envelopes in comments,
   * and node-soap would parse one of them as the WSDL. The documents it GETs are
   * left whole.
   */
  override handleResponse (req: unknown, res: unknown, body: unknown): unknown {
    const method = (res as { config?: { method?: string } } | undefined)?.config?.method
    return method?.toLowerCase() === 'get' ? body : super.handleResponse(req as never, res as never, body)
  }
}
