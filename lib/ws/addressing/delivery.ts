/**
 * Asynchronous replies (WS-Addressing 1.0 SOAP Binding §5.2.1): a reply or
 * fault whose endpoint is not the anonymous one is POSTed to its address, a
 * new HTTP request, with a time limit on each try, a bounded number of
 * tries, no redirect followed, and one log line for the outcome. The
 * address was checked against the allow-list when the request was read.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { versionInfo, type SoapVersion } from '../../namespaces'
import type { AsyncReplies } from './policy'

export interface Delivery {
  readonly url: URL
  readonly envelope: string
  readonly version: SoapVersion
  readonly action: string
  /** Aborted when the server closes: the try under way finishes (within its time limit), no other is made. */
  readonly signal: AbortSignal
}

/** Where the outcome is logged: a pino-like logger, Fastify's request.log. */
export interface DeliveryLog {
  info: (fields: object, message: string) => void
  warn: (fields: object, message: string) => void
}

/** Statuses worth another try: the destination is there but cannot take the message now. */
const RETRY: ReadonlySet<number> = new Set([502, 503, 504])

function headersOf (version: SoapVersion, action: string): Record<string, string> {
  const { contentType } = versionInfo(version)
  const quoted = `"${action.replace(/["\\]/g, (c) => '\\' + c)}"`
  return version === '1.2'
    ? { 'content-type': `${contentType}; action=${quoted}` }
    : { 'content-type': contentType, soapaction: quoted }
}

/** Sends one reply; resolves with whether it was taken (any 2xx), never rejects. */
export async function deliver (delivery: Delivery, options: AsyncReplies, log: DeliveryLog): Promise<boolean> {
  const { url, envelope, version, action, signal } = delivery
  const started = Date.now()
  const headers = headersOf(version, action)
  let outcome = 'not tried'
  for (let attempt = 0; attempt <= options.retries && !signal.aborted; attempt++) {
    if (attempt > 0) {
      try {
        await sleep(Math.min(100 * 2 ** attempt, 5000), undefined, { signal })
      } catch {
        break
      }
    }
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body: envelope,
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeout)
      })
      await response.body?.cancel()
      outcome = `HTTP ${response.status}`
      if (response.status >= 200 && response.status < 300) {
        log.info({ replyTo: url.href, status: response.status, attempts: attempt + 1, ms: Date.now() - started }, 'fastify-soap: reply delivered')
        return true
      }
      if (!RETRY.has(response.status)) break
    } catch (err) {
      outcome = (err as Error).name === 'TimeoutError' ? `no answer in ${options.timeout} ms` : `${(err as Error).name}: ${((err as { cause?: { code?: string } }).cause?.code) ?? (err as Error).message}`
    }
  }
  log.warn({ replyTo: url.href, outcome, ms: Date.now() - started }, 'fastify-soap: reply not delivered')
  return false
}
