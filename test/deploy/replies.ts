/**
 * One instance of a service with asynchronous replies in a BullMQ queue, for
 * docs/addressing.md "Durable replies": a server process on a loopback port
 * that prints `{"url": ...}` once listening. REDIS_PORT: the Redis on
 * 127.0.0.1 its queue lives in; PARTNER: the one address its replies may go
 * to. Its worker's lock is short, so that another instance takes up a job
 * this one held when it died within a second or two.
 */
import Fastify from 'fastify'
import { Queue, Worker } from 'bullmq'
import soap, { bullmqReplyQueue, defineService } from '../../lib/index'

export const repliesService = (partner: string) => defineService({
  path: '/calc',
  name: 'Calc',
  namespace: 'urn:example:calc',
  addressing: { asyncReplies: { allow: [partner], timeout: 2000, retries: 3 } },
  operations: {
    Add: {
      input: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'] },
      output: { type: 'object', properties: { sum: { type: 'integer' } }, required: ['sum'] },
      handler: ({ a, b }) => ({ sum: a + b })
    }
  }
})

async function main (): Promise<void> {
  const app = Fastify()
  const connection = { host: '127.0.0.1', port: Number(process.env.REDIS_PORT), maxRetriesPerRequest: null }
  const replyQueue = bullmqReplyQueue({
    Queue,
    Worker,
    connection,
    workerOptions: { lockDuration: 1000, stalledInterval: 500 }
  })
  await app.register(soap, { replyQueue })
  app.soap.service(repliesService(process.env.PARTNER as string))
  const url = await app.listen({ host: '127.0.0.1', port: 0 })
  console.log(JSON.stringify({ url }))
  process.once('SIGTERM', () => { app.close().then(() => process.exit(0), () => process.exit(1)) })
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err)
    process.exit(1)
  })
}
