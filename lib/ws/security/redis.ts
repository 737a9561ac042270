/**
 * A replay store in Redis, for several processes (docs/deploy.md): one
 * atomic `SET key <claim> NX PX ttl` per claim, the first writer winning,
 * each claim's value its own random one; a claim the plugin stops waiting
 * for is undone by a script that deletes the key if it still holds that
 * value. It takes a client you already have, ioredis (as @fastify/redis
 * decorates it) or node-redis 4+, told apart by their shape: no Redis client
 * is a dependency.
 */
import { randomBytes } from 'node:crypto'
import type { SoapReplayStore } from '../../types'

export interface RedisReplayStoreOptions {
  /** Put before every key; default `fastify-soap:replay:`. */
  readonly prefix?: string
}

/** ioredis: `call(command, ...args)`. */
interface IoRedisLike {
  call (command: string, ...args: Array<string | number>): Promise<unknown>
}

/** node-redis 4+: `sendCommand(args)`. */
interface NodeRedisLike {
  sendCommand (args: string[]): Promise<unknown>
}

/** Deletes KEYS[1] if it holds ARGV[1]: undoes one claim, never another's. */
export const UNDO_SCRIPT = "if redis.call('GET', KEYS[1]) == ARGV[1] then " +
  "return redis.call('DEL', KEYS[1]) end return 0"

/**
 * A replay store on a Redis client. The keys the plugin claims are SHA-256
 * digests already; each is stored under `prefix`, with the claim's ttl. Bound
 * the client's own waits (ioredis: `maxRetriesPerRequest`, `enableOfflineQueue:
 * false`, `commandTimeout`): a claim still pending after the plugin's timeout
 * fails the request with a Receiver fault, and is undone. The undo is sent
 * on the same client after the claim, so Redis runs it after the claim, and
 * before the client's resend of the failed request.
 */
export function redisReplayStore (client: unknown, options: RedisReplayStoreOptions = {}): SoapReplayStore {
  const prefix = options.prefix ?? 'fastify-soap:replay:'
  if (typeof prefix !== 'string') throw new TypeError('redisReplayStore: prefix must be a string')
  const c = client as Partial<IoRedisLike & NodeRedisLike> | null | undefined
  let set: (key: string, value: string, ttl: number) => Promise<unknown>
  let undo: (key: string, value: string) => Promise<unknown>
  if (typeof c?.call === 'function') {
    const io = c as IoRedisLike
    set = (key, value, ttl) => io.call('SET', key, value, 'PX', ttl, 'NX')
    undo = (key, value) => io.call('EVAL', UNDO_SCRIPT, 1, key, value)
  } else if (typeof c?.sendCommand === 'function') {
    const node = c as NodeRedisLike
    set = (key, value, ttl) => node.sendCommand(['SET', key, value, 'PX', String(ttl), 'NX'])
    undo = (key, value) => node.sendCommand(['EVAL', UNDO_SCRIPT, '1', key, value])
  } else {
    throw new TypeError('redisReplayStore: give an ioredis or node-redis client')
  }
  return {
    async claim (key: string, ttlMs: number, signal?: AbortSignal): Promise<boolean> {
      const stored = prefix + key
      // This claim's own value (96 random bits), so that the undo removes it and nothing else.
      const value = randomBytes(12).toString('base64')
      const answer = set(stored, value, Math.max(1, Math.ceil(ttlMs)))
      // An undo that fails too (Redis gone) leaves the claim: the resend is refused as a replay, never let through.
      const abandon = (): void => { undo(stored, value).catch(() => undefined) }
      signal?.addEventListener('abort', abandon, { once: true })
      try {
        // SET NX answers OK when it set the key, nil when the key was there.
        const answered = await answer
        if (answered === 'OK') return true
        if (answered === null) return false
        throw new Error(`unexpected answer to SET NX: ${String(answered)}`)
      } finally {
        signal?.removeEventListener('abort', abandon)
      }
    }
  }
}
