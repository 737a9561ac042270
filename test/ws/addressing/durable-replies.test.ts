/**
 * docs/addressing.md "Durable replies": asynchronous replies in a BullMQ
 * queue on a real Redis (Debian redis-server, started here on a free
 * loopback port, no persistence). An instance that accepted a reply and is
 * killed (SIGKILL) while delivering it leaves it to another instance, which
 * delivers it once; a job read back from Redis is checked again before
 * anything connects; a Redis that cannot be reached is a fault on the
 * connection, never a 202; a reply stored twice is one job.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { test, type TestContext } from 'node:test'
import Fastify, { type FastifyInstance } from 'fastify'
import { Queue, Worker } from 'bullmq'
import soap, { bullmqReplyQueue, type SoapReplyJob } from '../../../lib/index'
import { MEDIA, post } from '../../helper'
import { repliesService } from '../../deploy/replies'
import { freePort, startRedis, stop, waitFor } from '../../processes'
import { addRequest, block, partner } from './replies-support'

const ID = 'urn:uuid:6a1e7c2e-0000-4000-8000-0000000000d2'

/** A server process of test/deploy/replies.ts on the Redis at `redisPort`; its URL and the child. */
async function startInstance (t: TestContext, redisPort: number, partnerUrl: string): Promise<{ url: string, child: ChildProcess }> {
  const env = { ...process.env, REDIS_PORT: String(redisPort), PARTNER: partnerUrl }
  const child = spawn(process.execPath, [join(__dirname, '..', '..', 'deploy', 'replies.js')], { env, stdio: ['ignore', 'pipe', 'inherit'] })
  t.after(() => stop(child))
  const match = await waitFor(child, /\{"url":"([^"]+)"\}/, 15_000, 'the instance')
  return { url: `${match[1]}/calc`, child }
}

/** An instance in this process, its queue in the Redis at `port` under `name`. */
async function inProcess (t: TestContext, port: number, partnerUrl: string, logs: string[], options: { name?: string, worker?: boolean, maxBytes?: number } = {}): Promise<FastifyInstance> {
  const app = Fastify({ logger: { level: 'info', stream: { write: (line: string) => { logs.push(line) } } } })
  const connection = { host: '127.0.0.1', port, maxRetriesPerRequest: null, connectTimeout: 500 }
  const replyQueue = bullmqReplyQueue({ Queue, Worker, connection, name: options.name, worker: options.worker, prefix: 'test' })
  await app.register(soap, { replyQueue })
  const service = repliesService(partnerUrl)
  app.soap.service({ ...service, addressing: { asyncReplies: { allow: [partnerUrl], timeout: 1000, retries: 2, maxBytes: options.maxBytes } } })
  t.after(() => app.close())
  await app.ready()
  return app
}

/** The log lines with message `msg`, once there are `count` of them (waiting at most 10 s). */
async function logged (logs: string[], msg: string, count: number): Promise<Array<Record<string, unknown>>> {
  const lines = (): Array<Record<string, unknown>> => logs.map((l) => JSON.parse(l)).filter((l) => l.msg === msg)
  const deadline = Date.now() + 10_000
  while (Date.now() < deadline && lines().length < count) await sleep(50)
  return lines()
}

test('docs/addressing.md "Durable replies": a reply accepted by an instance killed (SIGKILL) while delivering it is delivered by another instance, exactly once', async (t: TestContext) => {
  const redis = await startRedis(t)
  if (redis === undefined) return
  // The first POST is held unanswered: the instance that made it is killed meanwhile. Every later one is taken.
  const listener = await partner(t, (n) => n === 0 ? 'held' : 200)
  const a = await startInstance(t, redis.port, listener.url)
  const firstPost = listener.next(15_000)
  const response = await fetch(a.url, { method: 'POST', headers: { 'content-type': MEDIA['1.2'] }, body: addRequest('1.2', listener.url, ID), signal: AbortSignal.timeout(10_000) })
  t.assert.strictEqual(response.status, 202)
  t.assert.strictEqual(await response.text(), '')
  const first = await firstPost
  t.assert.strictEqual(block(first.body, 'RelatesTo'), ID)
  a.child.kill('SIGKILL')
  await once(a.child, 'exit')
  t.assert.strictEqual(listener.accepted.length, 0, 'not delivered before the instance died')

  const redelivered = listener.next(15_000)
  await startInstance(t, redis.port, listener.url)
  const second = await redelivered
  t.assert.strictEqual(second.status, 200)
  t.assert.strictEqual(block(second.body, 'MessageID'), block(first.body, 'MessageID'), 'the same reply, from the queue: the handler did not run again')
  t.assert.strictEqual(second.body, first.body)
  // Long enough for another instance's lock (1 s) to expire and its stalled-job check (0.5 s) to run twice over.
  await sleep(4000)
  t.assert.deepStrictEqual(listener.accepted, [first.body], 'the partner took the reply once')
  t.assert.strictEqual(listener.posts.length, 2)
})

test('docs/addressing.md "Durable replies": a job read back from Redis is data: off the allow-list, an unknown service or over maxBytes, it is not sent; a reply not taken is tried again after the waits, by the worker', async (t: TestContext) => {
  const redis = await startRedis(t)
  if (redis === undefined) return
  const listener = await partner(t, (n) => n === 0 ? 503 : 200)
  const elsewhere = await partner(t)
  const logs: string[] = []
  // One instance stores (no worker); the other delivers: the job reaches the worker through Redis only.
  const front = await inProcess(t, redis.port, listener.url, [], { name: 'checks', worker: false, maxBytes: 4096 })
  const arrived = listener.next()
  t.assert.strictEqual((await post(front, '1.2', addRequest('1.2', listener.url, ID), { url: '/calc' })).statusCode, 202)
  await inProcess(t, redis.port, listener.url, logs, { name: 'checks', maxBytes: 4096 })
  t.assert.strictEqual((await arrived).status, 503)
  const taken = await listener.next()
  t.assert.strictEqual(taken.status, 200, 'tried again after 200 ms')
  const [delivered] = await logged(logs, 'fastify-soap: reply delivered', 1)
  t.assert.strictEqual(delivered?.attempts, 2)

  // Jobs written to Redis by someone else, under the queue's name.
  const writer = new Queue('checks', { connection: { host: '127.0.0.1', port: redis.port }, prefix: 'test' })
  t.after(() => writer.close())
  const job: SoapReplyJob = { id: 'x', service: 'Calc', to: listener.url, envelope: taken.body, version: '1.2', action: 'urn:example:calc/AddResponse' }
  const forged: unknown[] = [{ ...job, to: elsewhere.url }, { ...job, service: 'Other' }, { ...job, envelope: taken.body + ' '.repeat(4096) }, 'data']
  for (const data of forged) await writer.add('reply', data)
  const refused = await logged(logs, 'fastify-soap: reply not delivered', forged.length)
  t.assert.deepStrictEqual(refused.map((l) => l.outcome).sort(), [
    'no service of that name has asynchronous replies',
    'the address is not on the service\'s allow-list',
    'the envelope is larger than the service\'s maxBytes',
    'no service of that name has asynchronous replies'
  ].sort())
  t.assert.strictEqual(elsewhere.connections(), 0, 'nothing connects off the allow-list')
  t.assert.strictEqual(listener.posts.length, 2)
  const counts = await writer.getJobCounts('wait', 'active', 'delayed', 'failed')
  t.assert.deepStrictEqual(counts, { wait: 0, active: 0, delayed: 0, failed: 0 }, 'every job was taken and done')
  const ours = (block(taken.body, 'MessageID') as string).replaceAll(':', '_')
  t.assert.strictEqual(await writer.getJob(ours), undefined, 'the reply\'s own job, under its MessageID, is gone once delivered')
})

test('docs/addressing.md "Durable replies": with Redis out of reach, a request with a ReplyTo is answered EndpointUnavailable within the service\'s timeout, never 202', async (t: TestContext) => {
  // No redis-server needed: a port nothing listens on.
  const port = await freePort()
  const listener = await partner(t)
  const logs: string[] = []
  const app = await inProcess(t, port, listener.url, logs, { name: 'down' })
  const started = Date.now()
  const response = await post(app, '1.2', addRequest('1.2', listener.url, ID), { url: '/calc' })
  const ms = Date.now() - started
  t.assert.strictEqual(response.statusCode, 500)
  t.assert.match(response.body, /:EndpointUnavailable</)
  t.assert.match(response.body, /the reply could not be stored for delivery/)
  t.assert.ok(ms < 5000, `answered in ${ms} ms`)
  t.assert.ok(logs.some((l) => JSON.parse(l).msg === 'fastify-soap: reply not queued: the reply queue did not store it'))
  await Promise.race([app.close(), new Promise((_resolve, reject) => setTimeout(() => reject(new Error('close did not end in 10 s')), 10_000).unref())])
  t.assert.strictEqual(listener.connections(), 0)
})

test('docs/addressing.md "Durable replies": a reply stored twice while it waits is one job, under its MessageID', async (t: TestContext) => {
  const redis = await startRedis(t)
  if (redis === undefined) return
  const connection = { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null }
  const queue = bullmqReplyQueue({ Queue, Worker, connection, name: 'twice', worker: false })
  const app = Fastify()
  t.after(() => app.close())
  await queue.start({ deliver: async () => false, attempt: async () => 'given up', backoff: () => 0, concurrency: 1, signal: new AbortController().signal, log: app.log })
  t.after(() => queue.close())
  const job: SoapReplyJob = { id: ID, service: 'Calc', to: 'http://127.0.0.1:1/replies', envelope: '<e/>', version: '1.2', action: 'a' }
  await queue.add(job, new AbortController().signal)
  await queue.add({ ...job, envelope: '<other/>' }, new AbortController().signal)
  const reader = new Queue('twice', { connection })
  t.after(() => reader.close())
  t.assert.strictEqual(await reader.count(), 1)
  const stored = await reader.getJob(ID.replaceAll(':', '_'))
  t.assert.deepStrictEqual(stored?.data, job, 'the first one stored stays')
})
