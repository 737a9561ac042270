/**
 * Asynchronous replies (WS-Addressing 1.0 SOAP Binding §5.2.1): a reply or
 * fault whose endpoint is not the anonymous one is POSTed to its address, a
 * new HTTP request, with a time limit on each try, a bounded number of
 * tries, no redirect followed, and one log line for the outcome. The
 * address was checked against the allow-list when the request was read, and
 * again when its job was read back from a reply queue (queue.ts).
 */
import { request as httpRequest } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { setTimeout as sleep } from 'node:timers/promises'
import { versionInfo, type SoapVersion } from '../../namespaces'
import { injectTraceContext } from '../../telemetry/api'

export interface Delivery {
  readonly url: URL
  /** The envelope in UTF-8: held as its own bytes, sharing nothing with the request, until the last try ends. */
  readonly envelope: Buffer
  readonly version: SoapVersion
  readonly action: string
  /** Aborted when the server closes: the try under way finishes (within its time limit), no other is made. */
  readonly signal: AbortSignal
}

/**
 * Deliveries in flight and the bytes they hold, against a cap on each
 * (docs/addressing.md "Bounds"): one per service, one per registration of
 * the plugin. A delivery holds its place from the read of its request's
 * addressing headers until its last try ends.
 */
export class DeliveryBudget {
  inFlight = 0
  bytes = 0
  constructor (readonly maxInFlight: number, readonly maxBytes: number) {}
}

/** One asynchronous reply's hold on the budgets it counts against: a place in each, and its bytes. */
export class DeliverySlot {
  #bytes: number
  /** Whether the request got past the service's WS-Security check (or has none to pass): its faults may be posted. */
  authenticated: boolean

  /** `postsAnyFault`: faults are posted whether the request was authenticated or not (`postSecurityFaults`). */
  private constructor (
    readonly budgets: readonly DeliveryBudget[],
    bytes: number,
    authenticated: boolean,
    readonly postsAnyFault: boolean
  ) {
    this.#bytes = bytes
    this.authenticated = authenticated
    for (const budget of budgets) {
      budget.inFlight++
      budget.bytes += bytes
    }
  }

  /** A place holding `bytes` in every budget; undefined when one of them is full. */
  static take (
    budgets: readonly DeliveryBudget[],
    bytes: number,
    authenticated: boolean,
    postsAnyFault: boolean
  ): DeliverySlot | undefined {
    if (budgets.some((b) => b.inFlight >= b.maxInFlight || b.bytes + bytes > b.maxBytes)) return undefined
    return new DeliverySlot(budgets, bytes, authenticated, postsAnyFault)
  }

  /** Holds `bytes` instead of what it held; false, holding what it held, when a budget has no room for them. */
  resize (bytes: number): boolean {
    const more = bytes - this.#bytes
    if (this.budgets.some((b) => b.bytes + more > b.maxBytes)) return false
    for (const budget of this.budgets) budget.bytes += more
    this.#bytes = bytes
    return true
  }

  /** Gives the place and the bytes back: once, when the reply is delivered, given up, or answered on the connection. */
  release (): void {
    for (const budget of this.budgets) {
      budget.inFlight--
      budget.bytes -= this.#bytes
    }
  }
}

/** Where the outcome is logged: a pino-like logger, Fastify's request.log. */
export interface DeliveryLog {
  info: (fields: object, message: string) => void
  warn: (fields: object, message: string) => void
}

/** How long each try may take, and how many come after the first. */
export interface Tries {
  readonly timeout: number
  readonly retries: number
}

/** Statuses worth another try: the destination is there but cannot take the message now. */
const RETRY: ReadonlySet<number> = new Set([502, 503, 504])

function headersOf (version: SoapVersion, action: string): Record<string, string> {
  const { contentType } = versionInfo(version)
  const quoted = `"${action.replace(/["\\]/g, (c) => '\\' + c)}"`
  const headers: Record<string, string> = version === '1.2'
    ? { 'content-type': `${contentType}; action=${quoted}` }
    : { 'content-type': contentType, soapaction: quoted }
  // The request's trace context, when the OpenTelemetry API is loaded (docs/observability.md "Trace context").
  injectTraceContext(headers)
  return headers
}

/**
 * One try: the envelope POSTed on a connection of its own (no agent, so no
 * socket outlives the try), within `timeout` ms from connecting to the
 * status line. Resolves with the status, and closes the connection without
 * reading the body; redirects are not followed.
 */
async function post (url: URL, headers: Record<string, string>, envelope: Buffer, timeout: number): Promise<number> {
  return await new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest
    const options = { method: 'POST', headers: { ...headers, 'content-length': envelope.length }, agent: false }
    const request = send(url, options)
    const timer = setTimeout(() => {
      request.destroy(Object.assign(new Error(`no answer in ${timeout} ms`), { name: 'TimeoutError' }))
    }, timeout)
    request.once('response', (response) => {
      clearTimeout(timer)
      resolve(response.statusCode as number)
      // What the body would say is not read: the connection goes, and with it whatever error that raises.
      response.on('error', () => {})
      response.destroy()
    })
    request.on('error', (err) => {
      clearTimeout(timer)
      reject(err)
    })
    request.end(envelope)
  })
}

/** The wait before the try after try number `tries` (200 ms, 400 ms, 800 ms..., at most 5 s). */
export function backoff (tries: number): number {
  return Math.min(100 * 2 ** tries, 5000)
}

/** What one try came to: taken (any 2xx), worth another (unreachable, 502, 503, 504), and what to log. */
export interface TryResult {
  readonly status: number | undefined
  readonly again: boolean
  readonly outcome: string
}

/** One try of a delivery; never rejects. */
export async function tryOnce (delivery: Omit<Delivery, 'signal'>, timeout: number): Promise<TryResult> {
  const { url, envelope, version, action } = delivery
  try {
    const status = await post(url, headersOf(version, action), envelope, timeout)
    return { status, again: RETRY.has(status), outcome: `HTTP ${status}` }
  } catch (err) {
    const { name, code, message } = err as NodeJS.ErrnoException
    const outcome = name === 'TimeoutError' ? `no answer in ${timeout} ms` : `${name}: ${code ?? message}`
    return { status: undefined, again: true, outcome }
  }
}

/** Whether a try's status says the reply was taken. */
export function taken (status: number | undefined): status is number {
  return status !== undefined && status >= 200 && status < 300
}

/** Sends one reply; resolves with whether it was taken (any 2xx), never rejects. */
export async function deliver (delivery: Delivery, options: Tries, log: DeliveryLog): Promise<boolean> {
  const { url, signal } = delivery
  const started = Date.now()
  let outcome = 'not tried'
  for (let attempt = 0; attempt <= options.retries && !signal.aborted; attempt++) {
    if (attempt > 0) {
      try {
        await sleep(backoff(attempt), undefined, { signal })
      } catch {
        break
      }
    }
    const result = await tryOnce(delivery, options.timeout)
    outcome = result.outcome
    if (taken(result.status)) {
      const ms = Date.now() - started
      log.info({ replyTo: url.href, status: result.status, attempts: attempt + 1, ms }, 'fastify-soap: reply delivered')
      return true
    }
    if (!result.again) break
  }
  log.warn({ replyTo: url.href, outcome, ms: Date.now() - started }, 'fastify-soap: reply not delivered')
  return false
}
