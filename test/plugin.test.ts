import { test, type TestContext } from 'node:test'
import Fastify, { type FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import soap, { DEFAULTS, defineOperation, fastifySoap } from '../lib/index'
import { envelope, post } from './helper'

const CALL = '<m:Add xmlns:m="urn:example:calc"/>'

test('plugin: fastify-plugin metadata, default and named export', (t: TestContext) => {
  const meta = (soap as unknown as Record<symbol, { name: string, fastify: string }>)[Symbol.for('plugin-meta')]
  t.assert.strictEqual(meta.name, 'fastify-soap')
  t.assert.strictEqual(meta.fastify, '>=5.1.0 <6')
  t.assert.strictEqual(fastifySoap, soap)

  const required = require('../lib/index')
  t.assert.strictEqual(required.default, soap)
})

test('plugin: decorators are present; a plugin can depend on it by name', async (t: TestContext) => {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  await app.register(fp(async (instance) => {
    t.assert.strictEqual(instance.soap.options.limits.maxDepth, DEFAULTS.maxDepth)
    t.assert.strictEqual(instance.soap.options.bodyLimit, DEFAULTS.bodyLimit)
    t.assert.strictEqual(instance.soap.options.limits.maxTextLength, DEFAULTS.bodyLimit)
  }, { name: 'user-plugin', dependencies: ['fastify-soap'] }))
  await app.ready()
  t.assert.ok(app.hasRequestDecorator('soap'))
  t.assert.ok(app.hasReplyDecorator('soap'))
  t.assert.ok(app.hasDecorator('soap'))
})

test('plugin: registered at the root, it leaves the user\'s other routes their own parsers and error handler', async (t: TestContext) => {
  const app = Fastify()
  t.after(() => app.close())
  app.addContentTypeParser('text/xml', { parseAs: 'string' }, (_request, body, done) => { done(null, { mine: body }) })
  app.setErrorHandler(async (error: Error, _request, reply) => reply.code(418).send({ handledBy: 'user', message: error.message }))
  await app.register(soap, {
    prefix: '/soap',
    routes: async (scope) => {
      scope.post('/echo', async (_request, reply) => reply.soap())
      scope.post('/boom', async () => { throw new Error('x') })
    }
  })
  app.post('/json', async (request) => ({ got: request.body }))
  app.post('/xml', async (request) => request.body)
  app.post('/boom', async () => { throw new Error('user boom') })

  const json = await app.inject({ method: 'POST', url: '/json', payload: { a: 1 } })
  t.assert.deepStrictEqual(json.json(), { got: { a: 1 } })
  const xml = await app.inject({ method: 'POST', url: '/xml', headers: { 'content-type': 'text/xml' }, payload: '<not-soap/>' })
  t.assert.deepStrictEqual(xml.json(), { mine: '<not-soap/>' })
  const boom = await app.inject({ method: 'POST', url: '/boom' })
  t.assert.strictEqual(boom.statusCode, 418)
  t.assert.deepStrictEqual(boom.json(), { handledBy: 'user', message: 'user boom' })
  // and the SOAP routes under the prefix have theirs
  t.assert.strictEqual((await post(app, '1.1', envelope('1.1', CALL), { url: '/soap/echo' })).statusCode, 200)
  const soapBoom = await post(app, '1.1', envelope('1.1', CALL), { url: '/soap/boom' })
  t.assert.strictEqual(soapBoom.statusCode, 500)
  t.assert.match(soapBoom.body, /<faultcode>soap:Server<\/faultcode>/)
  t.assert.strictEqual((await app.inject({ method: 'POST', url: '/soap/echo', headers: { 'content-type': 'application/json' }, payload: '{}' })).statusCode, 415)
})

test('plugin: encapsulation: registered inside a prefixed plugin, routes live under that prefix', async (t: TestContext) => {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(async (child) => {
    await child.register(soap, { routes: async (scope) => { scope.post('/calc', async (_request, reply) => reply.soap()) } })
  }, { prefix: '/v1' })
  t.assert.strictEqual((await post(app, '1.2', envelope('1.2', CALL), { url: '/v1/calc' })).statusCode, 200)
  t.assert.strictEqual((await app.inject({ method: 'PUT', url: '/v1/calc' })).headers.allow, 'POST')
  t.assert.strictEqual((await post(app, '1.2', envelope('1.2', CALL), { url: '/calc' })).statusCode, 404)
})

test('plugin: a routes plugin may add hooks that see request.soap', async (t: TestContext) => {
  const app = Fastify()
  t.after(() => app.close())
  const seen: string[] = []
  await app.register(soap, {
    routes: async (scope) => {
      scope.addHook('preHandler', async (request) => { seen.push(request.soap?.payload?.localName ?? 'none') })
      scope.post('/x', async (_request, reply) => reply.soap())
    }
  })
  await post(app, '1.2', envelope('1.2', CALL), { url: '/x' })
  t.assert.deepStrictEqual(seen, ['Add'])
})

test('plugin: registered twice, in two scopes, with other options: both serve their routes', async (t: TestContext) => {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap, { prefix: '/a', routes: async (scope) => { scope.post('/x', async (_request, reply) => reply.soap('<a:A xmlns:a="urn:a"/>')) } })
  await app.register(soap, { prefix: '/b', bodyLimit: 200, routes: async (scope) => { scope.post('/x', async (_request, reply) => reply.soap('<b:B xmlns:b="urn:b"/>')) } })
  t.assert.match((await post(app, '1.2', envelope('1.2', CALL), { url: '/a/x' })).body, /a:A/)
  const big = envelope('1.2', `<m:E xmlns:m="urn:m">${'x'.repeat(200)}</m:E>`)
  t.assert.strictEqual((await post(app, '1.2', big, { url: '/a/x' })).statusCode, 200)
  t.assert.strictEqual((await post(app, '1.2', big, { url: '/b/x' })).statusCode, 413)
  t.assert.match((await post(app, '1.2', envelope('1.2'), { url: '/b/x' })).body, /b:B/)
})

/** A one-operation echo service at `path`: its Body element `<e:Echo>` with a `text` child, answered with the same text. */
function echoService (path: string): Parameters<FastifyInstance['soap']['service']>[0] {
  return {
    path,
    namespace: 'urn:echo',
    name: 'EchoService',
    operations: {
      Echo: defineOperation({
        input: { type: 'object', properties: { text: { type: 'string' } }, additionalProperties: false },
        output: { type: 'object', properties: { text: { type: 'string' } } },
        handler: ({ text }) => ({ text })
      })
    }
  }
}

const ECHO = '<e:Echo xmlns:e="urn:echo"><e:text>hi</e:text></e:Echo>'
/** An Echo whose content nests `depth` elements deeper: `text` holds nothing but an element in an element… */
const deepEcho = (depth: number): string => `<e:Echo xmlns:e="urn:echo">${'<e:x>'.repeat(depth)}${'</e:x>'.repeat(depth)}</e:Echo>`

test('README "Registration": the plugin\'s prefix applies to the services declared in its scope', async (t: TestContext) => {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap, { prefix: '/soap' })
  app.soap.service(echoService('/echo'))
  await app.register(async (api) => { api.soap.service(echoService('/echo')) }, { prefix: '/api' })
  t.assert.match((await post(app, '1.2', envelope('1.2', ECHO), { url: '/soap/echo' })).body, /<tns:text>hi<\/tns:text>|>hi</)
  t.assert.strictEqual((await post(app, '1.2', envelope('1.2', ECHO), { url: '/api/soap/echo' })).statusCode, 200)
  t.assert.strictEqual((await post(app, '1.2', envelope('1.2', ECHO), { url: '/echo' })).statusCode, 404)
  t.assert.strictEqual((await app.inject({ method: 'GET', url: '/soap/echo?wsdl' })).statusCode, 200)
})

test('README "Registration": a service takes the options of the nearest registration of the plugin, awaited or not', async (t: TestContext) => {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.service(echoService('/outer'))
  await app.register(async (child) => {
    // Not awaited: the registration still loads before the service does.
    child.register(soap, { maxDepth: 4, prefix: '/strict' })
    child.soap.service(echoService('/inner'))
  })
  // SOAP 1.1: a limit exceeded is a 400 with no body, an element the schema does not have a Client fault (500).
  // Envelope 1, Body 2, Echo 3, x 4, x 5: over a maxDepth of 4.
  const deep = envelope('1.1', deepEcho(2))
  t.assert.strictEqual((await post(app, '1.1', deep, { url: '/strict/inner' })).statusCode, 400)
  t.assert.strictEqual((await post(app, '1.1', envelope('1.1', deepEcho(1)), { url: '/strict/inner' })).statusCode, 500)
  t.assert.strictEqual((await post(app, '1.1', deep, { url: '/outer' })).statusCode, 500, 'the outer service keeps the default limits')
  t.assert.strictEqual((await post(app, '1.1', envelope('1.1', ECHO), { url: '/inner' })).statusCode, 404)
  t.assert.strictEqual(app.soap.options.limits.maxDepth, 100)
})
