/**
 * Replay (WSS UsernameToken Profile 1.1 §3.2; docs/security.md "Replay"):
 * each Nonce accepted is claimed in a store for as long as its message could
 * still be accepted; a second claim is refused. The in-memory store is the
 * default, for one process; several processes share one elsewhere (redis.ts).
 * A claim the plugin stops waiting for is undone by the store, so that the
 * client's resend of the failed request is not taken for a replay.
 */
import { createHash } from 'node:crypto'
import { SOAP_ERR_SECURITY_STORE } from '../../errors'
import type { SoapReplayStore } from '../../types'
import { withDeadline } from '../../deadline'

/**
 * The key a Nonce is claimed under: a SHA-256 (64 hex characters) of the
 * Nonce alone, so that a store is one replay domain, whichever service
 * claims in it. Nothing a replay could rewrite goes in: not the Created (a
 * text password does not cover it: `Z` rewritten as `+00:00` would dodge
 * the key), not the Username (a digest does not cover it: relabelled to
 * another user with the same password, a captured token would pass), not the
 * service (a token captured at one would pass at every other).
 */
export function replayKey (nonce: Buffer): string {
  return createHash('sha256').update(nonce).digest('hex')
}

/**
 * How much longer than its window a Nonce's key is kept, in milliseconds. A
 * message whose Created is `clockSkew` ahead when its Nonce is claimed is
 * fresh until `maxAge + clockSkew` after the claim, that instant included:
 * the key outlives it by this margin, so that no replay meets an expired key.
 */
export const REPLAY_MARGIN = 1000

/** The ttl of a Nonce's key: the window a Created is accepted in, and the margin. */
export function replayTtl (maxAge: number, clockSkew: number): number {
  return maxAge + clockSkew + REPLAY_MARGIN
}

/** The in-memory store's bound on keys, by default. */
export const MEMORY_MAX_ENTRIES = 100_000

export interface MemoryReplayStoreOptions {
  /** Keys kept at most (default 100,000, about 13 MB); a claim beyond them, all unexpired, is refused with an error. */
  readonly maxEntries?: number
}

/**
 * A replay store in this process's memory: at most `maxEntries` keys, each
 * kept until its time is over. Expired keys are let go as claims come; when
 * every key kept is live and the store is full, a claim fails (the request
 * gets a Receiver fault) rather than forget a Nonce that could be replayed.
 * It answers at once, never after the plugin has stopped waiting: it has no
 * use for a claim's signal.
 */
export function memoryReplayStore (options: MemoryReplayStoreOptions = {}): SoapReplayStore {
  const max = options.maxEntries ?? MEMORY_MAX_ENTRIES
  if (!Number.isSafeInteger(max) || max < 1) {
    throw new TypeError('memoryReplayStore: maxEntries must be a positive integer')
  }
  const expiries = new Map<string, number>()
  const sweep = (now: number, all: boolean): void => {
    for (const [key, expiry] of expiries) {
      if (expiry > now) {
        if (!all) return
      } else {
        expiries.delete(key)
      }
    }
  }
  return {
    async claim (key: string, ttlMs: number): Promise<boolean> {
      const now = Date.now()
      sweep(now, false)
      const expiry = expiries.get(key)
      if (expiry !== undefined && expiry > now) return false
      if (expiries.size >= max) sweep(now, true)
      if (expiries.size >= max) throw new SOAP_ERR_SECURITY_STORE(`the in-memory store holds ${max} live keys`)
      // Delete first: the key goes to the end. Claimed with one ttl, keys stand in the order of
      // their expiry and the sweep above stops at the first live one; a shorter ttl's key behind
      // a longer one (services of other windows sharing the store) goes in the full sweep.
      expiries.delete(key)
      expiries.set(key, now + ttlMs)
      return true
    }
  }
}

/**
 * Claims `key` in `store` within `timeoutMs`: a rejection, a timeout or an
 * answer that is not a boolean is SOAP_ERR_SECURITY_STORE. On a timeout the
 * claim's signal aborts, so that the store undoes a claim that lands later:
 * the request has failed, and the client's resend must not meet it.
 */
export async function claim (store: SoapReplayStore, key: string, ttlMs: number, timeoutMs: number): Promise<boolean> {
  const late = (): Error => new SOAP_ERR_SECURITY_STORE(`no answer in ${timeoutMs} ms`)
  try {
    const claimed: unknown = await withDeadline((signal) => store.claim(key, ttlMs, signal), timeoutMs, late)
    if (typeof claimed !== 'boolean') throw new SOAP_ERR_SECURITY_STORE('claim() did not resolve to a boolean')
    return claimed
  } catch (err) {
    if (err instanceof SOAP_ERR_SECURITY_STORE) throw err
    const failed = new SOAP_ERR_SECURITY_STORE(err instanceof Error ? err.message : String(err))
    failed.cause = err
    throw failed
  }
}
