import { test, type TestContext } from 'node:test'
import Fastify from 'fastify'
import fp from 'fastify-plugin'
import soap, { DEFAULTS, fastifySoap } from '../lib/index'
import { envelope, post } from './helper'

const CALL = '<m:Add xmlns:m="urn:example:calc"/>'

test('plugin: fastify-plugin metadata, default and named export', (t: TestContext) => {
  const meta = (soap as unknown as Record<symbol, { name: string, fastify: string }>)[Symbol.for('plugin-meta')]
  t.assert.strictEqual(meta.name, 'fastify-soap')
  t.assert.strictEqual(meta.fastify, '5.x')
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
