/**
 * A replay store in Redis, for several processes (docs/deploy.md): one
 * atomic `SET key 1 NX PX ttl` per claim, the first writer winning. It takes
 * a client you already have, ioredis (as @fastify/redis decorates it) or
 * node-redis 4+, told apart by their shape: no Redis client is a dependency.
 */
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

/**
 * A replay store on a Redis client. The keys the plugin claims are SHA-256
 * digests already; each is stored under `prefix`, with the claim's ttl. Bound
 * the client's own waits (ioredis: `maxRetriesPerRequest`, `enableOfflineQueue:
 * false`, `commandTimeout`): a claim still pending after the plugin's timeout
 * fails the request with a Receiver fault.
 */
export function redisReplayStore (client: unknown, options: RedisReplayStoreOptions = {}): SoapReplayStore {
  const prefix = options.prefix ?? 'fastify-soap:replay:'
  if (typeof prefix !== 'string') throw new TypeError('redisReplayStore: prefix must be a string')
  const c = client as Partial<IoRedisLike & NodeRedisLike> | null | undefined
  let set: (key: string, ttl: number) => Promise<unknown>
  if (typeof c?.call === 'function') {
    const io = c as IoRedisLike
    set = (key, ttl) => io.call('SET', key, '1', 'PX', ttl, 'NX')
  } else if (typeof c?.sendCommand === 'function') {
    const node = c as NodeRedisLike
    set = (key, ttl) => node.sendCommand(['SET', key, '1', 'PX', String(ttl), 'NX'])
  } else {
    throw new TypeError('redisReplayStore: give an ioredis or node-redis client')
  }
  return {
    async claim (key: string, ttlMs: number): Promise<boolean> {
      // SET NX answers OK when it set the key, nil when the key was there.
      const answer = await set(prefix + key, Math.max(1, Math.ceil(ttlMs)))
      if (answer === 'OK') return true
      if (answer === null) return false
      throw new Error(`unexpected answer to SET NX: ${String(answer)}`)
    }
  }
}
