/**
 * docs/deploy.md: several instances of a WS-Security service. Two server
 * processes share a real Redis (Debian redis-server, started here on a free
 * loopback port, no persistence) as their replay store, so that a Nonce one
 * accepted is refused by the other; with the in-memory store each process
 * keeps its own, and the replay passes. docs/security.md "Replay": a Redis
 * outage during a request is a Receiver fault, never a pass.
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import Fastify, { type FastifyInstance } from 'fastify'
import { Redis } from 'ioredis'
import soap, { redisReplayStore } from '../lib/index'
import { UNDO_SCRIPT } from '../lib/ws/security/redis'
import { secureCalculator } from './demo/app'
import { envelope, MEDIA } from './helper'
import { freePort, startRedis, stop, waitFor } from './processes'
import { security, timestamp, usernameToken } from './ws/security/ws-security-support'

const ADD = '<c:Add xmlns:c="urn:example:calc"><c:a>2</c:a><c:b>3</c:b></c:Add>'

/** A server process of test/deploy/instance.ts; its URL. */
async function startInstance (t: TestContext, redisPort?: number): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env }
  if (redisPort === undefined) delete env.REDIS_PORT; else env.REDIS_PORT = String(redisPort)
  const child = spawn(process.execPath, [join(__dirname, 'deploy', 'instance.js')], { env, stdio: ['ignore', 'pipe', 'inherit'] })
  t.after(() => stop(child))
  const match = await waitFor(child, /\{"url":"([^"]+)"\}/, 15_000, 'the instance')
  return `${match[1]}/secure/calculator`
}

/** POSTs a SOAP 1.2 envelope, with a 10 s bound. */
async function send (url: string, header: string): Promise<{ status: number, body: string }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': MEDIA['1.2'] }, body: envelope('1.2', ADD, header), signal: AbortSignal.timeout(10_000) })
  return { status: response.status, body: await response.text() }
}

const REPLAYED = /sc0:InvalidSecurity/

test('docs/deploy.md "Shared state": two processes sharing Redis accept a Nonce once between them; the in-memory store lets the replay through', async (t: TestContext) => {
  const redis = await startRedis(t)
  if (redis === undefined) return
  const [a, b] = await Promise.all([startInstance(t, redis.port), startInstance(t, redis.port)])
  const header = security(timestamp() + usernameToken({ digest: true }))
  const first = await send(a, header)
  t.assert.strictEqual(first.status, 200, first.body)
  t.assert.match(first.body, /<tns:result>5<\/tns:result>/)
  const replay = await send(b, header)
  t.assert.strictEqual(replay.status, 400, replay.body)
  t.assert.match(replay.body, REPLAYED)
  const fresh = await send(b, security(usernameToken({ digest: true })))
  t.assert.strictEqual(fresh.status, 200, 'the other process serves a new Nonce')
  // One message sent to both at once, five times each: exactly one of the ten gets through.
  const burst = security(usernameToken({ digest: true }))
  const statuses = (await Promise.all(Array.from({ length: 10 }, async (_, i) => (await send(i % 2 === 0 ? a : b, burst)).status))).sort()
  t.assert.deepStrictEqual(statuses, [200, 400, 400, 400, 400, 400, 400, 400, 400, 400])

  // The reason for Redis: with each process's own memory, the replay to the other one passes.
  const [m1, m2] = await Promise.all([startInstance(t), startInstance(t)])
  const again = security(usernameToken({ digest: true }))
  t.assert.strictEqual((await send(m1, again)).status, 200)
  t.assert.strictEqual((await send(m2, again)).status, 200, 'replayed to the other process, and let through')
  t.assert.match((await send(m1, again)).body, REPLAYED, 'each process still refuses its own replays')
})

async function secured (t: TestContext, redis: Redis): Promise<FastifyInstance> {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.service({ ...secureCalculator, security: { ...secureCalculator.security, replay: redisReplayStore(redis, { prefix: 'test:' }) } })
  await app.ready()
  return app
}

async function inject (app: FastifyInstance): Promise<{ status: number, body: string, ms: number }> {
  const started = Date.now()
  const response = await app.inject({ method: 'POST', url: '/secure/calculator', headers: { 'content-type': MEDIA['1.2'] }, payload: envelope('1.2', ADD, security(usernameToken({ digest: true }))) })
  return { status: response.statusCode, body: response.body, ms: Date.now() - started }
}

test('docs/security.md "Replay": Redis stopped during the requests gives a Receiver fault, not a pass', async (t: TestContext) => {
  const server = await startRedis(t)
  if (server === undefined) return
  const redis = new Redis({ host: '127.0.0.1', port: server.port, enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 1000, connectTimeout: 1000, retryStrategy: () => 200 })
  redis.on('error', () => {})
  t.after(() => redis.disconnect())
  await new Promise((resolve) => redis.once('ready', resolve))
  const app = await secured(t, redis)
  const before = await inject(app)
  t.assert.strictEqual(before.status, 200, before.body)
  t.assert.strictEqual((await redis.keys('test:*')).length, 1, 'the claim is in Redis, under the prefix')
  await stop(server.child)
  const during = await inject(app)
  t.assert.strictEqual(during.status, 500, during.body)
  t.assert.match(during.body, /<soap:Value>soap:Receiver<\/soap:Value>/)
  t.assert.ok(during.ms < 3000, `answered in ${during.ms} ms`)
})

test('docs/security.md "Replay": a Redis client pointed at a closed port gives a Receiver fault, bounded in time', async (t: TestContext) => {
  const port = await freePort()
  const redis = new Redis({ host: '127.0.0.1', port, lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, connectTimeout: 500, retryStrategy: () => null })
  redis.on('error', () => {})
  t.after(() => redis.disconnect())
  const app = await secured(t, redis)
  const answer = await inject(app)
  t.assert.strictEqual(answer.status, 500, answer.body)
  t.assert.match(answer.body, /soap:Receiver/)
  t.assert.ok(answer.ms < 3000, `answered in ${answer.ms} ms`)
})

test('docs/security.md "Replay": services on one Redis store are one replay domain: a token captured at one service is refused at another, and its key outlives the window by a second', async (t: TestContext) => {
  const server = await startRedis(t)
  if (server === undefined) return
  const redis = new Redis({ host: '127.0.0.1', port: server.port })
  t.after(() => redis.disconnect())
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  // Two services, each with a store of its own on the same Redis and prefix, as two processes would have.
  for (const path of ['/a', '/b']) {
    app.soap.service({ ...secureCalculator, name: path === '/a' ? 'A' : 'B', path, security: { ...secureCalculator.security, replay: redisReplayStore(redis) } })
  }
  await app.ready()
  const payload = (body: string): string => envelope('1.2', body, security(usernameToken({ digest: true, nonce: Buffer.from('captured at /a') })))
  const started = Date.now()
  const first = await app.inject({ method: 'POST', url: '/a', headers: { 'content-type': MEDIA['1.2'] }, payload: payload(ADD) })
  t.assert.strictEqual(first.statusCode, 200, first.body)
  const replay = await app.inject({ method: 'POST', url: '/b', headers: { 'content-type': MEDIA['1.2'] }, payload: payload('<c:Echo xmlns:c="urn:example:calc"><c:text>any Body</c:text></c:Echo>') })
  t.assert.strictEqual(replay.statusCode, 400, replay.body)
  t.assert.match(replay.body, REPLAYED)
  const keys = await redis.keys('fastify-soap:replay:*')
  t.assert.strictEqual(keys.length, 1, 'one key for the Nonce, whichever service claimed it')
  const pttl = await redis.pttl(keys[0])
  const elapsed = Date.now() - started
  // maxAge + clockSkew (6 minutes) is when its Created is last fresh: the key lives a second past it.
  t.assert.ok(pttl + elapsed >= 360_000 + 1000, `PTTL ${pttl} ms, ${elapsed} ms after the first request`)
})

test('docs/security.md "Replay": a claim Redis answers after the timeout does not land: the request gets a Receiver fault, and the identical resend is accepted', async (t: TestContext) => {
  const server = await startRedis(t)
  if (server === undefined) return
  const redis = new Redis({ host: '127.0.0.1', port: server.port })
  const admin = new Redis({ host: '127.0.0.1', port: server.port })
  t.after(() => { redis.disconnect(); admin.disconnect() })
  const app = await secured(t, redis)
  const payload = envelope('1.2', ADD, security(usernameToken({ digest: true })))
  const send = async (): Promise<{ status: number, body: string }> => {
    const response = await app.inject({ method: 'POST', url: '/secure/calculator', headers: { 'content-type': MEDIA['1.2'] }, payload })
    return { status: response.statusCode, body: response.body }
  }
  // Redis holds every command for 2.8 s: the claim is answered 0.8 s after the plugin stopped waiting.
  t.assert.strictEqual(await admin.call('CLIENT', 'PAUSE', '2800', 'ALL'), 'OK')
  const first = await send()
  t.assert.strictEqual(first.status, 500, first.body)
  t.assert.match(first.body, /<soap:Value>soap:Receiver<\/soap:Value>/)
  const resend = await send()
  t.assert.strictEqual(resend.status, 200, resend.body)
  t.assert.strictEqual((await send()).status, 400, 'the resend\'s own replay is refused')
  t.assert.strictEqual((await redis.keys('test:*')).length, 1)
})

test('docs/security.md "Replay": redisReplayStore takes an ioredis client (call) or a node-redis one (sendCommand), by shape; each claim has a value of its own, which an abandoned claim\'s undo names', async (t: TestContext) => {
  const sent: string[][] = []
  const answers: unknown[] = ['OK', null, 42, 'OK', 1, 'OK']
  const nodeRedis = { sendCommand: async (args: string[]) => { sent.push(args); return answers.shift() } }
  const store = redisReplayStore(nodeRedis, { prefix: 'p:' })
  t.assert.strictEqual(await store.claim('k', 1500.5), true)
  t.assert.strictEqual(await store.claim('k', 0), false)
  await t.assert.rejects(store.claim('k', 10), /unexpected answer to SET NX: 42/)
  const values = sent.map((command) => command[2])
  t.assert.deepStrictEqual(sent, [['SET', 'p:k', values[0], 'PX', '1501', 'NX'], ['SET', 'p:k', values[1], 'PX', '1', 'NX'], ['SET', 'p:k', values[2], 'PX', '10', 'NX']])
  t.assert.strictEqual(new Set(values).size, 3)
  for (const value of values) t.assert.match(value, /^[A-Za-z0-9+/]{16}$/)
  // Abandoned before its answer: the undo follows the claim, naming its value; an undo that fails is let go.
  const abandoned = new AbortController()
  const pending = store.claim('u', 10, abandoned.signal)
  abandoned.abort()
  t.assert.strictEqual(await pending, true)
  t.assert.deepStrictEqual(sent.slice(3), [['SET', 'p:u', sent[3][2], 'PX', '10', 'NX'], ['EVAL', UNDO_SCRIPT, '1', 'p:u', sent[3][2]]])
  const failing = redisReplayStore({ sendCommand: async (args: string[]) => { if (args[0] === 'EVAL') throw new Error('gone'); return 'OK' } })
  const dropped = new AbortController()
  const claimed = failing.claim('v', 10, dropped.signal)
  dropped.abort()
  t.assert.strictEqual(await claimed, true)
  // Answered before any abort: nothing is undone.
  const answered = new AbortController()
  t.assert.strictEqual(await store.claim('w', 10, answered.signal), true)
  answered.abort()
  t.assert.strictEqual(sent.length, 6)
  const called: unknown[][] = []
  const ioredis = { call: async (...args: unknown[]) => { called.push(args); return 'OK' } }
  const io = redisReplayStore(ioredis)
  t.assert.strictEqual(await io.claim('k', 5), true)
  const gaveUp = new AbortController()
  const late = io.claim('k', 5, gaveUp.signal)
  gaveUp.abort()
  await late
  t.assert.deepStrictEqual(called, [['SET', 'fastify-soap:replay:k', called[0][2], 'PX', 5, 'NX'], ['SET', 'fastify-soap:replay:k', called[1][2], 'PX', 5, 'NX'], ['EVAL', UNDO_SCRIPT, 1, 'fastify-soap:replay:k', called[1][2]]])
  for (const client of [undefined, null, {}, { set: () => {} }]) t.assert.throws(() => redisReplayStore(client), TypeError)
  t.assert.throws(() => redisReplayStore(ioredis, { prefix: 1 as never }), TypeError)
})
