/**
 * docs/addressing.md "Durable replies": the reply queue of a registration.
 * The 202 leaves once the queue has stored the reply's job, a job it cannot
 * store is a fault on the connection, a job handed back by a queue is data,
 * checked again before anything connects, and the in-memory default
 * delivers as the asynchronous replies always have. Partners are loopback
 * listeners; no Redis here (durable-replies.test.ts has it).
 */
import { test, type TestContext } from 'node:test'
import Fastify, { type FastifyInstance } from 'fastify'
import soap, {
  bullmqReplyQueue, memoryReplyQueue, type SoapReplyDeliverer, type SoapReplyJob, type SoapReplyQueue
} from '../../../lib/index'
import { post } from '../../helper'
import { repliesService } from '../../deploy/replies'
import { ACTION, addRequest, block, partner } from './replies-support'

const ID = 'urn:uuid:6a1e7c2e-0000-4000-8000-0000000000d1'

/** A queue that records what it is given and stores through `store` (by default, the in-memory queue's add). */
function recording (store?: (job: SoapReplyJob, signal: AbortSignal) => ReturnType<SoapReplyQueue['add']>): {
  queue: SoapReplyQueue, jobs: SoapReplyJob[], signals: AbortSignal[], deliverer: () => SoapReplyDeliverer
} {
  const memory = memoryReplyQueue()
  const jobs: SoapReplyJob[] = []
  const signals: AbortSignal[] = []
  let given: SoapReplyDeliverer | undefined
  const queue: SoapReplyQueue = {
    start (deliverer) {
      given = deliverer
      return memory.start(deliverer)
    },
    async add (job, signal) {
      jobs.push(job)
      signals.push(signal)
      return await (store ?? memory.add)(job, signal)
    },
    close: memory.close
  }
  return { queue, jobs, signals, deliverer: () => given as SoapReplyDeliverer }
}

async function app (t: TestContext, queue: SoapReplyQueue, allow: string, logs?: string[], maxBytes?: number): Promise<FastifyInstance> {
  const instance = Fastify({ logger: logs === undefined ? false : { level: 'info', stream: { write: (line: string) => { logs.push(line) } } } })
  await instance.register(soap, { replyQueue: queue })
  const service = repliesService(allow)
  instance.soap.service({ ...service, addressing: { asyncReplies: { allow: [allow], timeout: 300, retries: 2, maxInFlight: 1, maxBytes } } })
  t.after(() => instance.close())
  await instance.ready()
  return instance
}

const send = async (instance: FastifyInstance, replyTo: string) =>
  await post(instance, '1.2', addRequest('1.2', replyTo, ID), { url: '/calc' })

test('docs/addressing.md "Durable replies": the 202 leaves only once the queue has stored the job, which is the reply: its MessageID, service, address, envelope, version and action', async (t: TestContext) => {
  const listener = await partner(t)
  let open: () => void = () => {}
  const gate = new Promise<void>((resolve) => { open = resolve })
  const memory = memoryReplyQueue()
  const { queue, jobs } = recording(async (job, signal) => { await gate; return await memory.add(job, signal) })
  const start = queue.start.bind(queue)
  queue.start = (d) => { start(d); return memory.start(d) }
  const instance = await app(t, queue, listener.url)
  let answered = false
  const response = send(instance, listener.url).then((r) => { answered = true; return r })
  await new Promise((resolve) => setTimeout(resolve, 200))
  t.assert.strictEqual(jobs.length, 1, 'the job is being stored')
  t.assert.strictEqual(answered, false, 'no answer while the job is not stored')
  const arrived = listener.next()
  open()
  t.assert.strictEqual((await response).statusCode, 202)
  const delivered = await arrived
  const [job] = jobs
  t.assert.strictEqual(job.id, block(delivered.body, 'MessageID'))
  t.assert.match(job.id, /^urn:uuid:[0-9a-f-]{36}$/)
  t.assert.deepStrictEqual({ ...job, id: undefined }, {
    id: undefined, service: 'Calc', to: listener.url, envelope: delivered.body, version: '1.2', action: `${ACTION}Response`
  })
})

test('docs/addressing.md "Durable replies": a job the queue fails to store is answered EndpointUnavailable on the connection, and gives its place back', async (t: TestContext) => {
  const listener = await partner(t)
  const logs: string[] = []
  let fail = true
  const memory = memoryReplyQueue()
  const { queue } = recording(async (job, signal) => {
    if (fail) throw new Error('the store is down')
    return await memory.add(job, signal)
  })
  const start = queue.start.bind(queue)
  queue.start = (d) => { start(d); return memory.start(d) }
  const instance = await app(t, queue, listener.url, logs)
  const refused = await send(instance, listener.url)
  t.assert.strictEqual(refused.statusCode, 500)
  t.assert.match(refused.body, /:EndpointUnavailable</)
  t.assert.match(refused.body, /<wsa:RetryAfter xmlns:wsa="[^"]+">300<\/wsa:RetryAfter>/)
  t.assert.match(refused.body, /the reply could not be stored for delivery/)
  t.assert.ok(logs.some((l) => JSON.parse(l).msg === 'fastify-soap: reply not queued: the reply queue did not store it'))
  fail = false
  const arrived = listener.next()
  t.assert.strictEqual((await send(instance, listener.url)).statusCode, 202, 'maxInFlight is 1: the refused reply gave its place back')
  await arrived
  t.assert.strictEqual(listener.posts.length, 1)
})

test('docs/addressing.md "Durable replies": a queue that has not stored the job within the service\'s timeout: the fault, and the queue\'s signal aborted so that it undoes the job', async (t: TestContext) => {
  const listener = await partner(t)
  const { queue, signals } = recording(async () => await new Promise<never>(() => {}))
  const instance = await app(t, queue, listener.url)
  const started = Date.now()
  const refused = await send(instance, listener.url)
  const ms = Date.now() - started
  t.assert.strictEqual(refused.statusCode, 500)
  t.assert.match(refused.body, /:EndpointUnavailable</)
  t.assert.ok(ms >= 290 && ms < 3000, `answered after ${ms} ms, the timeout being 300 ms`)
  t.assert.strictEqual(signals[0].aborted, true)
  t.assert.strictEqual(listener.connections(), 0)
})

test('docs/addressing.md "Durable replies": a job handed back by a queue is data, checked again before anything connects: its service, its address against the allow-list, its shape, its size against maxBytes', async (t: TestContext) => {
  const listener = await partner(t)
  const elsewhere = await partner(t)
  const logs: string[] = []
  const { queue, jobs, deliverer } = recording()
  const instance = await app(t, queue, listener.url, logs, 4096)
  let arrived = listener.next()
  t.assert.strictEqual((await send(instance, listener.url)).statusCode, 202)
  await arrived
  const job = jobs[0]
  const bad: unknown[] = [
    { ...job, to: elsewhere.url },
    { ...job, to: 'file:///etc/passwd' },
    { ...job, to: 'not a URL' },
    { ...job, to: 5 },
    { ...job, service: 'Other' },
    { ...job, service: 7 },
    { ...job, envelope: job.envelope + ' '.repeat(4096) },
    { ...job, version: '1.3' },
    { ...job, action: undefined },
    { ...job, envelope: Buffer.from(job.envelope) },
    null,
    'a string'
  ]
  for (const data of bad) {
    t.assert.strictEqual(await deliverer().deliver(data as SoapReplyJob), false, JSON.stringify(data)?.slice(0, 80))
    t.assert.strictEqual(await deliverer().attempt(data as SoapReplyJob, { attempt: 1, age: 0 }), 'given up')
  }
  t.assert.strictEqual(elsewhere.connections(), 0, 'nothing connects off the allow-list')
  t.assert.strictEqual(listener.posts.length, 1, 'only the request\'s own reply was sent')
  const refusals = logs.map((l) => JSON.parse(l)).filter((l) => l.msg === 'fastify-soap: reply not delivered')
  t.assert.strictEqual(refusals.length, bad.length * 2)
  t.assert.ok(refusals.some((l) => l.replyTo === elsewhere.url && /allow-list/.test(l.outcome)))
  t.assert.ok(refusals.some((l) => /maxBytes/.test(l.outcome)))
  // The same job as data (a copy, as read back from a store) passes the checks, and is sent.
  arrived = listener.next()
  t.assert.strictEqual(await deliverer().deliver(JSON.parse(JSON.stringify(job))), true)
  t.assert.strictEqual((await arrived).body, job.envelope)
})

test('docs/addressing.md "Durable replies": one try of a job: delivered on a 2xx, retry on 503 while tries remain, given up on the last try or on a 400, none once the server closes; waits of 200 ms doubling to 5 s', async (t: TestContext) => {
  const statuses = [200, 503, 503, 400, 503]
  const listener = await partner(t, (n) => n === 0 ? 202 : statuses[(n - 1) % statuses.length])
  const logs: string[] = []
  const { queue, jobs, deliverer } = recording()
  const instance = await app(t, queue, listener.url, logs)
  const arrived = listener.next()
  t.assert.strictEqual((await send(instance, listener.url)).statusCode, 202)
  await arrived
  const data = JSON.parse(JSON.stringify(jobs[0])) as SoapReplyJob
  const d = deliverer()
  const outcomes = []
  for (const attempt of [1, 1, 3, 1, Number.NaN]) outcomes.push(await d.attempt(data, { attempt, age: 5 }))
  // retries is 2: try 3 is the last.
  t.assert.deepStrictEqual(outcomes, ['delivered', 'retry', 'given up', 'given up', 'given up'])
  const lines = logs.map((l) => JSON.parse(l))
  t.assert.ok(lines.some((l) => l.msg === 'fastify-soap: reply delivered' && l.attempts === 1 && l.ms === 5))
  t.assert.ok(lines.some((l) => l.msg === 'fastify-soap: reply not delivered' && l.outcome === 'HTTP 400'))
  t.assert.deepStrictEqual([1, 2, 3, 4, 5, 6, 10].map(d.backoff), [200, 400, 800, 1600, 3200, 5000, 5000])
  t.assert.strictEqual(d.concurrency, 256, 'the registration\'s maxAsyncReplies')
  const posts = listener.posts.length
  await instance.close()
  t.assert.strictEqual(d.signal.aborted, true)
  t.assert.strictEqual(await d.attempt(data, { attempt: 1, age: 0 }), 'retry', 'closed: left to another process')
  t.assert.strictEqual(listener.posts.length, posts, 'no try once closed')
})

test('docs/addressing.md "Durable replies": memoryReplyQueue stores nothing before it starts, and its close waits for the deliveries under way', async (t: TestContext) => {
  const memory = memoryReplyQueue()
  await t.assert.rejects(memory.add({} as SoapReplyJob, new AbortController().signal), /has not started/)
  let finish: (v: boolean) => void = () => {}
  const signal = new AbortController().signal
  memory.start({ deliver: async () => await new Promise<boolean>((resolve) => { finish = resolve }), attempt: async () => 'delivered', backoff: () => 0, concurrency: 1, signal, log: Fastify().log })
  const receipt = await memory.add({} as SoapReplyJob, signal)
  let closed = false
  const closing = memory.close().then(() => { closed = true })
  await new Promise((resolve) => setTimeout(resolve, 50))
  t.assert.strictEqual(closed, false)
  finish(true)
  await closing
  t.assert.strictEqual(await receipt?.delivery, true)
})

test('docs/addressing.md "Options": replyQueue must be a queue, and with one, services with asynchronous replies have names of their own', async (t: TestContext) => {
  for (const replyQueue of [null, {}, { start () {}, add () {} }]) {
    const instance = Fastify()
    t.after(() => instance.close())
    await t.assert.rejects(async () => { await instance.register(soap, { replyQueue: replyQueue as unknown as SoapReplyQueue }) }, { code: 'SOAP_ERR_OPT_INVALID' })
  }
  const instance = Fastify()
  t.after(() => instance.close())
  await instance.register(soap, { replyQueue: memoryReplyQueue() })
  const service = repliesService('http://127.0.0.1:1/replies')
  instance.soap.service(service)
  instance.soap.service({ ...service, path: '/other' })
  await t.assert.rejects(async () => { await instance.ready() }, { code: 'SOAP_ERR_SERVICE_INVALID', message: /another service with asyncReplies has this name/ })
})

test('docs/addressing.md "Durable replies": bullmqReplyQueue takes BullMQ\'s classes and a queue name without ":"', async (t: TestContext) => {
  class Queue {}
  for (const options of [{}, { Queue }, { Queue: 1, Worker: Queue }]) {
    t.assert.throws(() => bullmqReplyQueue({ connection: {}, ...options } as never), /Queue and Worker classes/)
  }
  for (const name of ['', 'a:b', 3]) {
    t.assert.throws(() => bullmqReplyQueue({ Queue, Worker: Queue, connection: {}, name: name as string }), /name must be/)
  }
  const queue = bullmqReplyQueue({ Queue, Worker: Queue, connection: {} })
  await t.assert.rejects(queue.add({} as SoapReplyJob, new AbortController().signal), /has not started/)
  await queue.close()
})

test('docs/addressing.md "Durable replies": bullmqReplyQueue stores each reply under its MessageID (":" made "_"), with the tries and waits of the deliverer, removed once done; a job the plugin stopped waiting for is removed', async (t: TestContext) => {
  const calls: unknown[][] = []
  let store: (value: unknown) => void = () => {}
  class Queue {
    constructor (...args: unknown[]) { calls.push(['Queue', ...args]) }
    on () {}
    async add (...args: unknown[]) { calls.push(['add', ...args]); return await new Promise((resolve) => { store = resolve }) }
    async remove (id: string) { calls.push(['remove', id]); throw new Error('gone already') }
    async close () { calls.push(['close queue']) }
  }
  let worker: { processor: (job: unknown) => Promise<void>, options: { settings: { backoffStrategy: (n: number) => number }, concurrency: number, lockDuration: number } } | undefined
  const listeners = new Map<string, (job: unknown) => void>()
  class Worker {
    constructor (_name: string, processor: never, options: never) { worker = { processor, options } }
    on (event: string, listener: (job: unknown) => void) { listeners.set(event, listener) }
    async close (force: boolean) { calls.push(['close worker', force]) }
  }
  const queue = bullmqReplyQueue({ Queue, Worker, connection: { port: 1 }, prefix: 'p', workerOptions: { lockDuration: 500, concurrency: 1 } })
  const outcomes: string[] = ['retry', 'delivered']
  const tries: unknown[] = []
  const signal = new AbortController().signal
  await queue.start({ deliver: async () => true, attempt: async (job, attempt) => { tries.push([job, attempt]); return outcomes.shift() as never }, backoff: (n) => n * 1000, concurrency: 7, signal, log: Fastify().log })
  t.assert.deepStrictEqual(calls[0], ['Queue', 'fastify-soap-replies', { connection: { port: 1 }, prefix: 'p' }])
  t.assert.strictEqual(worker?.options.concurrency, 7)
  t.assert.strictEqual(worker?.options.lockDuration, 500)
  t.assert.strictEqual(worker?.options.settings.backoffStrategy(2), 2000)
  const job = { id: 'urn:uuid:1', service: 'Calc', to: 'http://127.0.0.1:1/r', envelope: '<e/>', version: '1.2', action: 'a' } as const
  const stored = queue.add(job, signal)
  store({})
  t.assert.strictEqual(await stored, undefined, 'stored elsewhere: nothing held here')
  t.assert.deepStrictEqual(calls[1], ['add', 'reply', job, { jobId: 'urn_uuid_1', attempts: 11, backoff: { type: 'custom' }, removeOnComplete: true, removeOnFail: true }])
  const late = new AbortController()
  const abandoned = queue.add(job, late.signal)
  late.abort()
  store({})
  await abandoned
  t.assert.deepStrictEqual(calls[3], ['remove', 'urn_uuid_1'])
  await t.assert.rejects((worker as NonNullable<typeof worker>).processor({ id: '9', data: job, attemptsMade: 2, timestamp: Date.now() - 10 }), /not taken yet/)
  await (worker as NonNullable<typeof worker>).processor({ id: '9', data: job, attemptsMade: 3, timestamp: 0 })
  t.assert.deepStrictEqual(tries.map((tr) => (tr as [unknown, { attempt: number }])[1].attempt), [3, 4])
  // Close waits for the jobs taken here to be written back: BullMQ says so with 'completed' or 'failed'.
  let closed = false
  const closing = queue.close().then(() => { closed = true })
  await new Promise((resolve) => setTimeout(resolve, 100))
  t.assert.strictEqual(closed, false, 'job 9 is not written back yet')
  listeners.get('failed')?.({ id: '9' })
  await closing
  t.assert.deepStrictEqual(calls.slice(-2), [['close worker', true], ['close queue']])
})
