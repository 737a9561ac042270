/**
 * The bounds on WS-Addressing asynchronous replies (docs/addressing.md
 * "Bounds"): places in flight and the bytes they hold, per service and per
 * registration; past them a request is answered EndpointUnavailable on its
 * connection; faults of requests that were not authenticated stay on the
 * connection. Partners are loopback listeners.
 */
import { createServer as createHttpServer, type IncomingMessage } from 'node:http'
import { createServer, type Socket } from 'node:net'
import { once } from 'node:events'
import { test, type TestContext } from 'node:test'
import Fastify, { type FastifyInstance } from 'fastify'
import soap, { SoapFault, WSA04_NS, WSA_NS, defineService, type FastifySoapOptions, type SoapServiceDefinition, type SoapVersion } from '../../../lib/index'
import { envelope, post, validateWithVocabularies } from '../../helper'
import { security, usernameToken, WSSE } from '../security/ws-security-support'

const TNS = 'urn:example:calc'
const ACTION = `${TNS}/Add`
const ID = 'urn:uuid:6a1e7c2e-0000-4000-8000-000000000002'
const ADD = `<m:Add xmlns:m="${TNS}"><m:a>2</m:a><m:b>3</m:b></m:Add>`
const DIVIDE = `<m:Divide xmlns:m="${TNS}"><m:a>1</m:a><m:b>0</m:b></m:Divide>`

/** A partner that accepts connections and never answers: how many are open now, and the most at once. */
async function silentPartner (t: TestContext): Promise<{ url: string, open: () => number, most: () => number }> {
  const sockets = new Set<Socket>()
  let most = 0
  const server = createServer((socket) => {
    sockets.add(socket)
    most = Math.max(most, sockets.size)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    socket.resume()
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.after(() => {
    for (const socket of sockets) socket.destroy()
    server.close()
  })
  const { port } = server.address() as { port: number }
  return { url: `http://127.0.0.1:${port}/replies`, open: () => sockets.size, most: () => most }
}

/** A partner that takes every message (202): the bodies it got. */
async function takingPartner (t: TestContext): Promise<{ url: string, received: string[] }> {
  const received: string[] = []
  const server = createHttpServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = []
    request.on('data', (c: Buffer) => chunks.push(c))
    request.on('end', () => {
      received.push(Buffer.concat(chunks).toString('utf8'))
      response.statusCode = 202
      response.end()
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.after(() => server.close())
  const { port } = server.address() as { port: number }
  return { url: `http://127.0.0.1:${port}/replies`, received }
}

/** Waits, at most `ms`, for `condition`. */
async function until (condition: () => boolean, ms = 3000): Promise<boolean> {
  const deadline = Date.now() + ms
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10))
  return condition()
}

let handled = 0

const calc = (path: string, addressing: SoapServiceDefinition['addressing'], extra: Partial<SoapServiceDefinition> = {}) => defineService({
  path,
  name: 'Calc',
  namespace: TNS,
  addressing,
  operations: {
    Add: {
      input: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'] },
      output: { type: 'object', properties: { sum: { type: 'integer' } }, required: ['sum'] },
      handler: ({ a, b }) => { handled++; return { sum: a + b } }
    },
    Divide: {
      input: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'] },
      output: { type: 'object', properties: { quotient: { type: 'integer' } }, required: ['quotient'] },
      handler: ({ a, b }) => {
        if (b === 0) throw new SoapFault({ code: 'Sender', reason: 'division by zero' })
        return { quotient: Math.trunc(a / b) }
      }
    },
    Guarded: {
      input: { type: 'object', properties: {} },
      output: { type: 'object', properties: {} },
      // A check of the service's own that fails as WS-Security does.
      handler: () => { throw new SoapFault({ code: 'Sender', subcodes: [{ namespace: WSSE, localName: 'FailedAuthentication' }], reason: 'not you' }) }
    }
  },
  ...extra
})

async function build (t: TestContext, services: readonly SoapServiceDefinition[], options: FastifySoapOptions = {}, logs?: string[]): Promise<FastifyInstance> {
  const app = Fastify({ logger: logs === undefined ? false : { level: 'warn', stream: { write: (line: string) => { logs.push(line) } } } })
  await app.register(soap, options)
  for (const service of services) app.soap.service(service)
  t.after(() => app.close())
  await app.ready()
  return app
}

/** The addressing headers of a request whose reply goes to `replyTo` (and its faults to `faultTo`). */
function headers (ns: string, replyTo: string, options: { parameters?: string, faultTo?: string, action?: string } = {}): string {
  const block = (name: string, content: string): string => `<wsa:${name} xmlns:wsa="${ns}">${content}</wsa:${name}>`
  const epr = (address: string, parameters = ''): string => `<wsa:Address>${address}</wsa:Address>${parameters === '' ? '' : `<wsa:ReferenceParameters>${parameters}</wsa:ReferenceParameters>`}`
  return block('Action', options.action ?? ACTION) + block('MessageID', ID) + block('To', 'http://localhost/calc') +
    block('ReplyTo', epr(replyTo, options.parameters)) + (options.faultTo === undefined ? '' : block('FaultTo', epr(options.faultTo)))
}

function send (app: FastifyInstance, path: string, header: string, version: SoapVersion = '1.2', body = ADD) {
  return post(app, version, envelope(version, body, header), { url: path })
}

/** A reference parameter of about `bytes` bytes. */
const parameter = (bytes: number): string => `<c:Corr xmlns:c="urn:client">${'x'.repeat(bytes)}</c:Corr>`

test('docs/addressing.md "Bounds": past maxInFlight a request with a ReplyTo is answered EndpointUnavailable on its connection, its handler not run; deliveries in flight never pass the cap', async (t: TestContext) => {
  const partner = await silentPartner(t)
  const app = await build(t, [calc('/calc', { asyncReplies: { allow: [partner.url], maxInFlight: 3, timeout: 4000, retries: 0 } })])
  handled = 0
  const answers = await Promise.all(Array.from({ length: 10 }, async () => await send(app, '/calc', headers(WSA_NS, partner.url))))
  t.assert.deepStrictEqual(answers.map((a) => a.statusCode).sort(), [202, 202, 202, 500, 500, 500, 500, 500, 500, 500])
  t.assert.strictEqual(handled, 3, 'the handler runs only for the requests whose reply has a place')
  const refused = answers.find((a) => a.statusCode === 500)?.body as string
  t.assert.match(refused, /<(\w+):Value>\1:Receiver<\/\1:Value><\1:Subcode><\1:Value[^>]*>\w+:EndpointUnavailable<\/\1:Value>/)
  t.assert.match(refused, new RegExp(`<wsa:RetryAfter xmlns:wsa="${WSA_NS}">4000</wsa:RetryAfter>`))
  t.assert.ok(!refused.includes(partner.url), 'the fault comes back on the connection, addressed as such')
  const valid = validateWithVocabularies(t, refused, '1.2')
  if (valid !== undefined) t.assert.ok(valid.valid, valid.output + refused)
  t.assert.ok(await until(() => partner.open() === 3), `${partner.open()} connections`)
  // Each version, each SOAP version: the same fault, while the three places are taken.
  for (const ns of [WSA_NS, WSA04_NS]) {
    for (const version of ['1.1', '1.2'] as const) {
      const response = await send(app, '/calc', headers(ns, partner.url), version)
      t.assert.strictEqual(response.statusCode, 500, response.body)
      t.assert.match(response.body, version === '1.1' ? /<faultcode[^>]*>\w+:EndpointUnavailable<\/faultcode>/ : /:EndpointUnavailable</)
      t.assert.strictEqual(response.body.includes('RetryAfter'), !(version === '1.1' && ns === WSA04_NS), response.body)
    }
  }
  t.assert.strictEqual(partner.most(), 3)
  // Once the tries end, the places are free again.
  t.assert.ok(await until(() => partner.open() === 0, 10_000), 'the tries end within their timeout')
  t.assert.strictEqual((await send(app, '/calc', headers(WSA_NS, partner.url))).statusCode, 202)
  t.assert.strictEqual(partner.most(), 3)
})

test('docs/addressing.md "Bounds": maxAsyncReplies and maxAsyncReplyBytes cap the replies in flight of all the services of a registration together', async (t: TestContext) => {
  const partner = await silentPartner(t)
  const async = { asyncReplies: { allow: [partner.url], timeout: 5000, retries: 0 } }
  const app = await build(t, [calc('/a', async), calc('/b', async)], { maxAsyncReplies: 2 })
  t.assert.strictEqual((await send(app, '/a', headers(WSA_NS, partner.url))).statusCode, 202)
  t.assert.strictEqual((await send(app, '/b', headers(WSA_NS, partner.url))).statusCode, 202)
  for (const path of ['/a', '/b']) {
    const response = await send(app, path, headers(WSA_NS, partner.url))
    t.assert.strictEqual(response.statusCode, 500)
    t.assert.match(response.body, /:EndpointUnavailable</)
  }
  // A reply on the connection takes no place.
  t.assert.strictEqual((await send(app, '/a', headers(WSA_NS, `${WSA_NS}/anonymous`))).statusCode, 200)
  // maxAsyncReplyBytes, likewise, under a service's own 8 MiB.
  const small = await build(t, [calc('/a', async)], { maxAsyncReplyBytes: 3000 })
  t.assert.strictEqual((await send(small, '/a', headers(WSA_NS, partner.url, { parameters: parameter(4000) }))).statusCode, 500)
  t.assert.strictEqual((await send(small, '/a', headers(WSA_NS, partner.url, { parameters: parameter(100) }))).statusCode, 202)
})

test('docs/addressing.md "Bounds": a reference parameter\'s size counts against maxBytes, and a reply larger than what is left is answered on the connection', async (t: TestContext) => {
  const partner = await silentPartner(t)
  const logs: string[] = []
  const app = await build(t, [calc('/calc', { asyncReplies: { allow: [partner.url], maxBytes: 4096, timeout: 5000, retries: 0 } })], {}, logs)
  handled = 0
  // Refused before the handler runs: the echo alone would not fit.
  const big = await send(app, '/calc', headers(WSA_NS, partner.url, { parameters: parameter(5000) }))
  t.assert.strictEqual(big.statusCode, 500)
  t.assert.match(big.body, /:EndpointUnavailable</)
  t.assert.strictEqual(handled, 0)
  // Taken, handled, then too large once written: the client gets the fault, nothing is sent.
  const grown = await send(app, '/calc', headers(WSA_NS, partner.url, { parameters: parameter(3800) }))
  t.assert.strictEqual(grown.statusCode, 500)
  t.assert.match(grown.body, /:EndpointUnavailable</)
  t.assert.strictEqual(handled, 1)
  t.assert.ok(logs.some((l) => JSON.parse(l).msg === 'fastify-soap: reply not queued: over the byte cap of replies in flight'))
  // One reply in flight holds its bytes: the next one's parameter no longer fits beside it.
  t.assert.strictEqual((await send(app, '/calc', headers(WSA_NS, partner.url, { parameters: parameter(2500) }))).statusCode, 202)
  t.assert.ok(await until(() => partner.open() === 1))
  t.assert.strictEqual((await send(app, '/calc', headers(WSA_NS, partner.url, { parameters: parameter(1000) }))).statusCode, 500)
  t.assert.strictEqual((await send(app, '/calc', headers(WSA_NS, partner.url))).statusCode, 202, 'a reply without parameters still fits')
  t.assert.ok(await until(() => partner.open() === 2))
  t.assert.strictEqual(partner.most(), 2)
})

test('docs/addressing.md "Bounds": the fault of a request that is not authenticated is not posted to its FaultTo, unless postSecurityFaults', async (t: TestContext) => {
  const partner = await takingPartner(t)
  const users: Record<string, string> = { demo: 'demo' }
  const secured = (postSecurityFaults?: boolean) => calc('/calc', { asyncReplies: { allow: [partner.url], postSecurityFaults } }, {
    security: { usernameToken: { lookup: async (name: string) => users[name] } }
  })
  const app = await build(t, [secured()])
  const faultTo = (token: string, body: string, action: string) => post(app, '1.2', envelope('1.2', body, headers(WSA_NS, partner.url, { faultTo: partner.url, action }) + security(token)), { url: '/calc' })
  const bad = usernameToken({ password: 'wrong' })
  for (const [what, response] of [
    ['a wrong password', await faultTo(bad, ADD, ACTION)],
    ['an unknown operation, before the check', await faultTo(usernameToken(), `<m:Other xmlns:m="${TNS}"/>`, `${TNS}/Other`)],
    ['a WS-Security fault of the service\'s own, after the check', await faultTo(usernameToken(), `<m:Guarded xmlns:m="${TNS}"/>`, `${TNS}/Guarded`)]
  ] as const) {
    t.assert.strictEqual(response.statusCode, 400, what)
    t.assert.ok(!response.body.includes(partner.url), `${what}: answered on the connection, addressed as such`)
  }
  // An authenticated request's fault goes to its FaultTo.
  t.assert.strictEqual((await faultTo(usernameToken(), DIVIDE, `${TNS}/Divide`)).statusCode, 202)
  t.assert.ok(await until(() => partner.received.length === 1))
  t.assert.match(partner.received[0], /division by zero/)

  const open = await build(t, [secured(true)])
  const posted = await post(open, '1.2', envelope('1.2', ADD, headers(WSA_NS, partner.url, { faultTo: partner.url }) + security(bad)), { url: '/calc' })
  t.assert.strictEqual(posted.statusCode, 202)
  t.assert.ok(await until(() => partner.received.length === 2))
  t.assert.match(partner.received[1], /FailedAuthentication/)
})
