/**
 * One instance of the secured Calculator for docs/deploy.md's test: a server
 * process on a loopback port that prints `{"url": ...}` once listening.
 * REDIS_PORT set: its replay store is Redis on 127.0.0.1 at that port;
 * unset: the in-memory default.
 */
import Fastify from 'fastify'
import { Redis } from 'ioredis'
import soap, { redisReplayStore } from '../../lib/index'
import { secureCalculator } from '../demo/app'

async function main (): Promise<void> {
  const app = Fastify()
  await app.register(soap)
  const port = process.env.REDIS_PORT
  if (port === undefined) {
    app.soap.service(secureCalculator)
  } else {
    // Bounded waits: no offline queue, one try per command, a command timeout.
    const redis = new Redis({ host: '127.0.0.1', port: Number(port), enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 1000, connectTimeout: 2000 })
    app.addHook('onClose', async () => { redis.disconnect() })
    await new Promise((resolve, reject) => { redis.once('ready', resolve); redis.once('error', reject) })
    app.soap.service({ ...secureCalculator, security: { ...secureCalculator.security, replay: redisReplayStore(redis) } })
  }
  const url = await app.listen({ host: '127.0.0.1', port: 0 })
  console.log(JSON.stringify({ url }))
  process.once('SIGTERM', () => { app.close().then(() => process.exit(0), () => process.exit(1)) })
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
