/** SOAP hooks (docs/hooks.md): order, what each stage sees, ending a request, onFault, encapsulation. */
import { test, type TestContext } from 'node:test'
import Fastify, { type FastifyInstance } from 'fastify'
import soap, { SoapFault, errorCodes, type SoapServiceDefinition } from '../lib/index'
import { envelope, post } from './helper'

const NS = 'urn:test:hooks'
const int = { type: 'integer' } as const
const pair = { type: 'object', properties: { a: int, b: int }, required: ['a', 'b'], additionalProperties: false } as const
const result = { type: 'object', properties: { result: int }, required: ['result'], additionalProperties: false } as const
const ADD = `<t:Add xmlns:t="${NS}"><t:a>1</t:a><t:b>2</t:b></t:Add>`
const STAGES = ['onEnvelope', 'onOperation', 'preValidation', 'preHandler', 'onResult'] as const

function definition (handler: (input: { a: number, b: number }) => Promise<unknown>, hooks?: object): SoapServiceDefinition {
  return { path: '/h', namespace: NS, name: 'Hooked', operations: { Add: { input: pair, output: result, handler, hooks } as never } }
}

async function build (t: TestContext, setup: (app: FastifyInstance) => void, handler = async ({ a, b }: { a: number, b: number }) => ({ result: a + b }), hooks?: object): Promise<FastifyInstance> {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  setup(app)
  app.soap.service(definition(handler, hooks))
  await app.ready()
  return app
}

test('Hooks: the stages run in order, each seeing what the pipeline has set on request.soap so far', async (t: TestContext) => {
  const seen: string[] = []
  const app = await build(t, (app) => {
    app.addHook('preHandler', async () => { seen.push('fastify:preHandler') })
    app.addHook('onSend', async () => { seen.push('fastify:onSend') })
    for (const stage of STAGES) {
      app.soap.addHook(stage, async (request) => {
        const s = request.soap
        seen.push(`${stage}:${s?.operation?.name ?? '-'}:${JSON.stringify(s?.input) ?? '-'}:${JSON.stringify(s?.result) ?? '-'}`)
      })
    }
  }, async ({ a, b }) => {
    seen.push('handler')
    return { result: a + b }
  })
  const response = await post(app, '1.2', envelope('1.2', ADD), { url: '/h' })
  t.assert.strictEqual(response.statusCode, 200)
  t.assert.deepStrictEqual(seen, [
    'fastify:preHandler',
    'onEnvelope:-:-:-',
    'onOperation:Add:-:-',
    'preValidation:Add:{"a":1,"b":2}:-',
    'preHandler:Add:{"a":1,"b":2}:-',
    'handler',
    'onResult:Add:{"a":1,"b":2}:{"result":3}',
    'fastify:onSend'
  ])
})

for (const stage of STAGES) {
  test(`Hooks: ${stage} ends the request with reply.soap(); the stages after it and the handler do not run`, async (t: TestContext) => {
    const ran: string[] = []
    const app = await build(t, (app) => {
      for (const s of STAGES) {
        app.soap.addHook(s, async (request, reply) => {
          ran.push(s)
          if (s === stage) return reply.soap(`<t:Ended xmlns:t="${NS}">${stage}</t:Ended>`)
        })
      }
    }, async () => { ran.push('handler'); return { result: 0 } })
    const response = await post(app, '1.1', envelope('1.1', ADD), { url: '/h' })
    t.assert.strictEqual(response.statusCode, 200)
    t.assert.match(response.body, new RegExp(`<t:Ended xmlns:t="${NS}">${stage}</t:Ended>`))
    const expected: string[] = STAGES.slice(0, STAGES.indexOf(stage) + 1)
    if (stage === 'onResult') expected.splice(4, 0, 'handler')
    t.assert.deepStrictEqual(ran, expected)
  })

  test(`Hooks: ${stage} throwing a SoapFault sends that fault, after onFault sees it`, async (t: TestContext) => {
    const faults: string[] = []
    const app = await build(t, (app) => {
      app.soap.addHook(stage, async () => { throw new SoapFault({ code: 'Sender', reason: `refused in ${stage}` }) })
      app.soap.addHook('onFault', async (_request, _reply, fault) => { faults.push(fault.message) })
    })
    const response = await post(app, '1.2', envelope('1.2', ADD), { url: '/h' })
    t.assert.strictEqual(response.statusCode, 400)
    t.assert.match(response.body, new RegExp(`<soap:Text xml:lang="en">refused in ${stage}</soap:Text>`))
    t.assert.deepStrictEqual(faults, [`refused in ${stage}`])
  })
}

test('Hooks: onFault sees the generic fault of an unexpected error, with the error as its cause; nothing of it reaches the wire', async (t: TestContext) => {
  let cause: unknown
  const app = await build(t, (app) => {
    app.soap.addHook('onFault', async (_request, _reply, fault) => { cause = fault.cause })
  }, async () => { throw new Error('secret database password') })
  const response = await post(app, '1.1', envelope('1.1', ADD), { url: '/h' })
  t.assert.strictEqual(response.statusCode, 500)
  t.assert.match(response.body, /<faultcode>soap:Server<\/faultcode><faultstring>The server could not process the request<\/faultstring>/)
  t.assert.doesNotMatch(response.body, /secret/)
  t.assert.strictEqual((cause as Error).message, 'secret database password')
})

test('Hooks: onFault sees the dispatcher\'s Sender fault (no operation takes the element), with no onEnvelope hook before it', async (t: TestContext) => {
  const seen: string[] = []
  const app = await build(t, (app) => {
    app.soap.addHook('onFault', async (_request, _reply, fault) => { seen.push(`${fault.faultCode}: ${fault.message}`) })
  })
  const response = await post(app, '1.2', envelope('1.2', `<t:Subtract xmlns:t="${NS}"/>`), { url: '/h' })
  t.assert.strictEqual(response.statusCode, 400)
  t.assert.match(response.body, /<soap:Value>soap:Sender<\/soap:Value>/)
  t.assert.deepStrictEqual(seen, [`Sender: No operation of Hooked takes the element {${NS}}Subtract`])
})

test('Hooks: onFault may answer otherwise, or throw another fault that replaces the first', async (t: TestContext) => {
  const answered = await build(t, (app) => {
    app.soap.addHook('onFault', async (_request, reply) => reply.code(503).header('retry-after', '5').soap(`<t:Busy xmlns:t="${NS}"/>`))
  }, async () => { throw new Error('overloaded') })
  const busy = await post(answered, '1.2', envelope('1.2', ADD), { url: '/h' })
  t.assert.strictEqual(busy.statusCode, 503)
  t.assert.strictEqual(busy.headers['retry-after'], '5')
  const replaced = await build(t, (app) => {
    app.soap.addHook('onFault', async () => { throw new SoapFault({ code: 'Receiver', reason: 'try later', subcodes: ['{urn:x}Busy'] }) })
    app.soap.addHook('onFault', async () => { throw new Error('never runs') })
  }, async () => { throw new SoapFault({ code: 'Sender', reason: 'first' }) })
  const response = await post(replaced, '1.2', envelope('1.2', ADD), { url: '/h' })
  t.assert.strictEqual(response.statusCode, 500)
  t.assert.match(response.body, /try later/)
  t.assert.match(response.body, /sc0:Busy/)
})

test('Hooks: a hook that answers (return reply.soap(...)) stops the pipeline even while an async onSend hook holds the response', async (t: TestContext) => {
  const ran: string[] = []
  const app = await build(t, (app) => {
    app.addHook('onSend', async () => { await new Promise((resolve) => setTimeout(resolve, 20)) })
    app.soap.addHook('preHandler', async (_request, reply) => reply.code(401).soap(`<t:Denied xmlns:t="${NS}"/>`))
  }, async () => { ran.push('handler'); return { result: 0 } })
  const response = await post(app, '1.2', envelope('1.2', ADD), { url: '/h' })
  t.assert.strictEqual(response.statusCode, 401)
  t.assert.deepStrictEqual(ran, [])
})

test('Hooks: faults the parser raises (MustUnderstand) come before any SOAP hook, onFault included', async (t: TestContext) => {
  const ran: string[] = []
  const app = await build(t, (app) => {
    for (const stage of STAGES) app.soap.addHook(stage, async () => { ran.push(stage) })
    app.soap.addHook('onFault', async () => { ran.push('onFault') })
  })
  const header = '<x:Secret xmlns:x="urn:x" s:mustUnderstand="true"/>'
  const response = await post(app, '1.2', envelope('1.2', ADD, header), { url: '/h' })
  t.assert.strictEqual(response.statusCode, 500)
  t.assert.match(response.body, /soap:MustUnderstand/)
  t.assert.deepStrictEqual(ran, [])
})

test('Hooks: an operation\'s own hooks (a function or a list) run after the scope\'s', async (t: TestContext) => {
  const ran: string[] = []
  const app = await build(t, (app) => {
    app.soap.addHook('preHandler', async () => { ran.push('scope') })
  }, undefined, {
    preHandler: [async () => { ran.push('own 1') }, async () => { ran.push('own 2') }],
    onResult: async (request: { soap: { result: unknown } }) => { ran.push('own result'); request.soap.result = { result: 42 } }
  })
  const response = await post(app, '1.2', envelope('1.2', ADD), { url: '/h' })
  t.assert.deepStrictEqual(ran, ['scope', 'own 1', 'own 2', 'own result'])
  t.assert.match(response.body, /<tns:result>42<\/tns:result>/, 'onResult may replace the result')
})

test('Hooks: preValidation may complete the input before it is validated', async (t: TestContext) => {
  const app = await build(t, (app) => {
    app.soap.addHook('preValidation', async (request) => {
      const soapContext = request.soap
      if (soapContext !== null) soapContext.input = { b: 10, ...(soapContext.input as object) }
    })
  })
  const response = await post(app, '1.2', envelope('1.2', `<t:Add xmlns:t="${NS}"><t:a>1</t:a></t:Add>`), { url: '/h' })
  t.assert.strictEqual(response.statusCode, 200)
  t.assert.match(response.body, /<tns:result>11<\/tns:result>/)
})

test('Hooks: header blocks added to request.soap.responseHeaders are sent in the response Header', async (t: TestContext) => {
  const app = await build(t, (app) => {
    app.soap.addHook('onResult', async (request) => { request.soap?.responseHeaders.push(`<t:Trace xmlns:t="${NS}">abc</t:Trace>`) })
  })
  const response = await post(app, '1.1', envelope('1.1', ADD), { url: '/h' })
  t.assert.match(response.body, /<soap:Header><t:Trace xmlns:t="urn:test:hooks">abc<\/t:Trace><\/soap:Header><soap:Body>/)
})

test('Hooks: addHook refuses an unknown stage or a non-function with SOAP_ERR_HOOK_INVALID, at once', async (t: TestContext) => {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  t.assert.throws(() => app.soap.addHook('onSend' as 'preHandler', async () => {}), errorCodes.SOAP_ERR_HOOK_INVALID)
  t.assert.throws(() => app.soap.addHook('preHandler', 'nope' as never), /the preHandler hook must be a function/)
  t.assert.strictEqual(app.soap.addHook('preHandler', async () => {}), app.soap, 'chainable')
})

test('Hooks: a hook added in a child scope never runs for a service of its parent or sibling', async (t: TestContext) => {
  const ran: string[] = []
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.service(definition(async ({ a, b }) => ({ result: a + b })))
  await app.register(async (child) => {
    child.soap.addHook('preHandler', async () => { ran.push('child') })
  })
  await app.ready()
  t.assert.strictEqual((await post(app, '1.2', envelope('1.2', ADD), { url: '/h' })).statusCode, 200)
  t.assert.deepStrictEqual(ran, [])
})

test('Hooks: a hook added to the parent after a child service is declared still applies to it, as Fastify\'s own do', async (t: TestContext) => {
  const ran: string[] = []
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.register(async (child) => { child.soap.service(definition(async ({ a, b }) => ({ result: a + b }))) })
  app.soap.addHook('preHandler', async () => { ran.push('parent') })
  await app.ready()
  t.assert.strictEqual((await post(app, '1.2', envelope('1.2', ADD), { url: '/h' })).statusCode, 200)
  t.assert.deepStrictEqual(ran, ['parent'])
})
