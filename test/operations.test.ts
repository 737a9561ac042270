/** Operations at run time: one-way, GET, header schemas and mustUnderstand, declared faults, output checks, timeouts. */
import { test, type TestContext } from 'node:test'
import Fastify, { type FastifyInstance } from 'fastify'
import soap, { SoapFault, defineOperation, type FastifySoapOptions, type SoapServiceDefinition } from '../lib/index'
import { assertEmpty, envelope, post, assertValidEnvelope } from './helper'

const NS = 'urn:test:ops'
const int = { type: 'integer' } as const
const pair = { type: 'object', properties: { a: int, b: int }, required: ['a', 'b'], additionalProperties: false } as const
const result = { type: 'object', properties: { result: int }, required: ['result'], additionalProperties: false } as const
const ADD = `<t:Add xmlns:t="${NS}"><t:a>1</t:a><t:b>2</t:b></t:Add>`

async function build (t: TestContext, operations: SoapServiceDefinition['operations'], extra: Partial<SoapServiceDefinition> = {}, options: FastifySoapOptions = {}, logs?: object[]): Promise<FastifyInstance> {
  const app = Fastify(logs === undefined ? {} : { logger: { level: 'debug', stream: { write: (line: string) => logs.push(JSON.parse(line)) } } })
  t.after(() => app.close())
  await app.register(soap, options)
  app.soap.service({ path: '/ops', namespace: NS, name: 'Ops', operations, ...extra })
  await app.ready()
  return app
}

const sum = defineOperation({ input: pair, output: result, async handler ({ a, b }) { return { result: a + b } } })

// ---------------------------------------------------------------- one-way ---

for (const version of ['1.1', '1.2'] as const) {
  test(`docs/protocol.md "Other answers" (${version}), BP R2714: a one-way operation that succeeded answers 202 with no body`, async (t: TestContext) => {
    const received: unknown[] = []
    const app = await build(t, { Log: defineOperation({ input: { type: 'object', properties: { line: { type: 'string' } }, required: ['line'] }, async handler (input) { received.push(input) } }) })
    const response = await post(app, version, envelope(version, `<t:Log xmlns:t="${NS}"><t:line>hi</t:line></t:Log>`), { url: '/ops' })
    assertEmpty(t, response, 202)
    t.assert.deepStrictEqual(received, [{ line: 'hi' }])
  })

  test(`docs/protocol.md "Faults" (${version}): a one-way operation that fails still answers its fault`, async (t: TestContext) => {
    const app = await build(t, { Log: { input: { type: 'object', properties: {} }, async handler () { throw new SoapFault({ code: 'Sender', reason: 'no' }) } } })
    const response = await post(app, version, envelope(version, `<t:Log xmlns:t="${NS}"/>`), { url: '/ops' })
    t.assert.strictEqual(response.statusCode, version === '1.2' ? 400 : 500)
    await assertValidEnvelope(t, response.body, version)
  })
}

// -------------------------------------------------------------------- GET ---

test('docs/protocol.md "GET", SOAP 1.2 Part 2 §6.4: an operation that opts in takes its input from the query string and answers a SOAP 1.2 envelope', async (t: TestContext) => {
  const app = await build(t, {
    Add: { ...sum, get: true },
    List: defineOperation({
      input: { type: 'object', properties: { n: { type: 'array', items: int }, m: { type: 'array', items: int, xml: { list: true } }, flag: { type: 'boolean', xml: { attribute: true } } }, additionalProperties: false },
      output: { type: 'object', properties: { total: int, flag: { type: 'boolean' } }, required: ['total'] },
      get: true,
      async handler ({ n, m, flag }) { return { total: [...n ?? [], ...m ?? []].reduce((x, y) => x + y, 0), flag } }
    }),
    Post: sum,
    Ping: { output: result, get: true, async handler () { return { result: 1 } } }
  })
  t.assert.match((await app.inject({ method: 'GET', url: '/ops/Ping' })).body, /<tns:result>1<\/tns:result>/)
  const extra = await app.inject({ method: 'GET', url: '/ops/Ping?x=1' })
  t.assert.strictEqual(extra.statusCode, 400)
  t.assert.match(extra.body, /Invalid input: unexpected query parameter x/)
  const add = await app.inject({ method: 'GET', url: '/ops/Add?a=2&b=40' })
  t.assert.strictEqual(add.statusCode, 200)
  t.assert.strictEqual(add.headers['content-type'], 'application/soap+xml; charset=utf-8')
  t.assert.match(add.body, /<soap:Envelope xmlns:soap="http:\/\/www\.w3\.org\/2003\/05\/soap-envelope"><soap:Body><tns:AddResponse xmlns:tns="urn:test:ops"><tns:result>42<\/tns:result>/)
  await assertValidEnvelope(t, add.body, '1.2')
  const list = await app.inject({ method: 'GET', url: '/ops/List?n=1&n=2&n=3&flag=true' })
  t.assert.match(list.body, /<tns:total>6<\/tns:total><tns:flag>true<\/tns:flag>/)
  // An xs:list's items are given as a repeated element's are: the parameter once per item.
  t.assert.match((await app.inject({ method: 'GET', url: '/ops/List?m=10&m=20&n=1' })).body, /<tns:total>31<\/tns:total>/)
  const head = await app.inject({ method: 'HEAD', url: '/ops/Add?a=2&b=40' })
  t.assert.strictEqual(head.statusCode, 200)
  t.assert.strictEqual(head.body, '')
  for (const [url, reason] of [
    ['/ops/Add?a=2&b=x', /Invalid input: \/b "x" is not an integer/],
    ['/ops/Add?a=2', /Invalid input: \/b must have required property 'b'/],
    ['/ops/Add?a=2&b=3&c=4', /Invalid input: unexpected query parameter c/],
    ['/ops/Add?a=2&a=3&b=1', /Invalid input: \/a query parameter a is given more than once/],
    ['/ops/List?n=1&n=z', /Invalid input: \/n\/1 "z" is not an integer/]
  ] as const) {
    const response = await app.inject({ method: 'GET', url })
    t.assert.strictEqual(response.statusCode, 400, url)
    t.assert.match(response.body, reason)
  }
  // An operation that did not opt in has no GET route.
  t.assert.strictEqual((await app.inject({ method: 'GET', url: '/ops/Post?a=1&b=2' })).statusCode, 404)
})

// ---------------------------------------------------------------- headers ---

const tenant = defineOperation({
  input: pair,
  output: result,
  headers: {
    type: 'object',
    properties: {
      Tenant: { type: 'object', properties: { id: { type: 'string', minLength: 2 } }, required: ['id'], additionalProperties: false },
      Trace: { type: 'string', xml: { namespace: 'urn:trace' } },
      Hop: { type: 'array', items: int }
    },
    required: ['Tenant'],
    additionalProperties: false
  },
  async handler ({ a, b }, call) {
    return { result: a + b + call.headers.Tenant.id.length * 100 + (call.headers.Hop ?? []).length * 1000 }
  }
})

for (const version of ['1.1', '1.2'] as const) {
  const mu = version === '1.2' ? 'true' : '1'
  test(`Headers (${version}): declared header blocks are decoded for the handler and understood for mustUnderstand`, async (t: TestContext) => {
    const app = await build(t, { Add: tenant })
    const header = `<t:Tenant xmlns:t="${NS}" s:mustUnderstand="${mu}"><t:id>acme</t:id></t:Tenant><t:Hop xmlns:t="${NS}">1</t:Hop><t:Hop xmlns:t="${NS}">2</t:Hop><x:Trace xmlns:x="urn:trace" s:mustUnderstand="${mu}">z</x:Trace><o:Other xmlns:o="urn:other">ignored</o:Other>`
    const response = await post(app, version, envelope(version, ADD, header), { url: '/ops' })
    t.assert.strictEqual(response.statusCode, 200, response.body)
    t.assert.match(response.body, /<tns:result>2403<\/tns:result>/)
  })

  test(`Headers (${version}): a missing or invalid declared header is a Sender fault naming its path`, async (t: TestContext) => {
    const app = await build(t, { Add: tenant })
    const missing = await post(app, version, envelope(version, ADD), { url: '/ops' })
    t.assert.strictEqual(missing.statusCode, version === '1.2' ? 400 : 500)
    t.assert.match(missing.body, /Invalid header: \/Tenant must have required property 'Tenant'/)
    const short = await post(app, version, envelope(version, ADD, `<t:Tenant xmlns:t="${NS}"><t:id>a</t:id></t:Tenant>`), { url: '/ops' })
    t.assert.match(short.body, /Invalid header: \/Tenant\/id must NOT have fewer than 2 characters/)
    const bad = await post(app, version, envelope(version, ADD, `<t:Hop xmlns:t="${NS}">x</t:Hop><t:Tenant xmlns:t="${NS}"><t:id>ab</t:id></t:Tenant>`), { url: '/ops' })
    t.assert.match(bad.body, /Invalid header: \/Hop\/0 "x" is not an integer/)
  })

  test(`docs/protocol.md "Faults" (${version}): a mustUnderstand block no operation, scope or option declares is one MustUnderstand fault`, async (t: TestContext) => {
    const block = `<u:Unknown xmlns:u="urn:unknown" s:mustUnderstand="${mu}"/>`
    const plain = await build(t, { Add: sum })
    const response = await post(plain, version, envelope(version, ADD, block), { url: '/ops' })
    t.assert.strictEqual(response.statusCode, 500)
    t.assert.match(response.body, /soap:MustUnderstand/)
    if (version === '1.2') t.assert.match(response.body, /<soap:NotUnderstood qname="nu:Unknown" xmlns:nu="urn:unknown"\/>/)
    await assertValidEnvelope(t, response.body, version)
    // Declared understood by the service, by the scope, or by the plugin's option: answered.
    const byService = await build(t, { Add: sum }, { understoodHeaders: ['{urn:unknown}Unknown'] })
    t.assert.strictEqual((await post(byService, version, envelope(version, ADD, block), { url: '/ops' })).statusCode, 200)
    const byOption = await build(t, { Add: sum }, {}, { understoodHeaders: ['{urn:unknown}Unknown'] })
    t.assert.strictEqual((await post(byOption, version, envelope(version, ADD, block), { url: '/ops' })).statusCode, 200)
    const app = Fastify()
    t.after(() => app.close())
    await app.register(soap)
    await app.register(async (scope) => {
      scope.soap.understand('{urn:unknown}Unknown')
      scope.soap.service({ path: '/ops', namespace: NS, name: 'Ops', operations: { Add: sum } })
    })
    await app.ready()
    t.assert.strictEqual((await post(app, version, envelope(version, ADD, block), { url: '/ops' })).statusCode, 200)
  })
}

test('Headers (1.2 Part 1 §2.6): blocks for a role this node does not play, or for none, are not read into call.headers', async (t: TestContext) => {
  const app = await build(t, { Add: tenant })
  const header = `<t:Tenant xmlns:t="${NS}"><t:id>acme</t:id></t:Tenant><t:Hop xmlns:t="${NS}" s:role="http://www.w3.org/2003/05/soap-envelope/role/none">1</t:Hop><t:Hop xmlns:t="${NS}" s:role="urn:elsewhere">x</t:Hop>`
  const response = await post(app, '1.2', envelope('1.2', ADD, header), { url: '/ops' })
  t.assert.strictEqual(response.statusCode, 200, response.body)
  t.assert.match(response.body, /<tns:result>403<\/tns:result>/)
})

for (const version of ['1.1', '1.2'] as const) {
  test(`docs/protocol.md "Be liberal" (${version}): an optional header block sent empty with xsi:nil="true" though it cannot be null (Metro's unset header parameter) is read as absent`, async (t: TestContext) => {
    const seen: unknown[] = []
    const app = await build(t, {
      Add: defineOperation({
        input: pair,
        output: result,
        headers: { type: 'object', properties: { Tenant: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] }, Trace: { type: 'string' } } },
        async handler ({ a, b }, call) { seen.push(call.headers); return { result: a + b } }
      })
    })
    const xsi = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"'
    for (const header of [`<t:Tenant xmlns:t="${NS}" ${xsi} xsi:nil="true"/>`, `<t:Tenant xmlns:t="${NS}" ${xsi} xsi:nil="1"> </t:Tenant><t:Trace xmlns:t="${NS}" ${xsi} xsi:nil="true"/>`]) {
      const response = await post(app, version, envelope(version, ADD, header), { url: '/ops' })
      t.assert.strictEqual(response.statusCode, 200, response.body)
    }
    t.assert.deepStrictEqual(seen, [{}, {}])
    // Not empty, or nil="false": read as sent, and refused as before
    for (const [header, reason] of [
      [`<t:Tenant xmlns:t="${NS}" ${xsi} xsi:nil="true"><t:id>x</t:id></t:Tenant>`, '/Tenant element t:Tenant is xsi:nil but cannot be null'],
      [`<t:Tenant xmlns:t="${NS}" ${xsi} xsi:nil="true"> <t:id>x</t:id></t:Tenant>`, '/Tenant element t:Tenant is xsi:nil but cannot be null'],
      [`<t:Trace xmlns:t="${NS}" ${xsi} xsi:nil="true">x</t:Trace>`, '/Trace element t:Trace is xsi:nil but cannot be null'],
      [`<t:Tenant xmlns:t="${NS}" ${xsi} xsi:nil="false"/>`, "/Tenant/id must have required property 'id'"],
      [`<t:Tenant xmlns:t="${NS}" ${xsi} xsi:nil="maybe"/>`, '/Tenant xsi:nil="maybe" is not a boolean']
    ]) {
      const response = await post(app, version, envelope(version, ADD, header), { url: '/ops' })
      t.assert.strictEqual(response.statusCode, version === '1.2' ? 400 : 500, header)
      t.assert.ok(response.body.includes(`>Invalid header: ${reason}</`), response.body)
    }
  })

  test(`docs/protocol.md "Be liberal" (${version}): a required header block sent empty with xsi:nil="true" is absent, and gets the Sender fault`, async (t: TestContext) => {
    const app = await build(t, { Add: tenant })
    const response = await post(app, version, envelope(version, ADD, `<t:Tenant xmlns:t="${NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:nil="true"/>`), { url: '/ops' })
    t.assert.strictEqual(response.statusCode, version === '1.2' ? 400 : 500)
    t.assert.match(response.body, version === '1.2' ? /<soap:Value>soap:Sender<\/soap:Value>/ : /<faultcode>soap:Client<\/faultcode>/)
    t.assert.ok(response.body.includes(">Invalid header: /Tenant must have required property 'Tenant'</"), response.body)
  })
}

test('Headers: understand() refuses what is not a {namespace}localName', async (t: TestContext) => {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  t.assert.throws(() => app.soap.understand('Security'), /understand\(\)/)
})

// ----------------------------------------------------------------- faults ---

const lookup = defineOperation({
  input: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  output: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  faults: {
    NotFound: { type: 'object', properties: { id: { type: 'string' }, code: { type: 'integer', xml: { attribute: true } } }, required: ['id'] }
  },
  async handler ({ id }, call) {
    if (id === 'bad-detail') throw call.fault('NotFound', { id: 5 } as never, { code: 'Sender', reason: 'x' })
    if (id === 'unknown-fault') throw call.fault('Missing' as 'NotFound', { id }, { code: 'Sender', reason: 'x' })
    throw call.fault('NotFound', { id, code: 404 }, { code: 'Sender', reason: [{ text: `no ${id}` }, { text: `kein ${id}`, lang: 'de' }] })
  }
})

for (const version of ['1.1', '1.2'] as const) {
  test(`docs/protocol.md "Faults" (${version}): call.fault() writes a declared fault's detail by its schema`, async (t: TestContext) => {
    const app = await build(t, { Lookup: lookup })
    const response = await post(app, version, envelope(version, `<t:Lookup xmlns:t="${NS}"><t:id>a&amp;b</t:id></t:Lookup>`), { url: '/ops' })
    t.assert.strictEqual(response.statusCode, version === '1.2' ? 400 : 500)
    const detail = '<tns:NotFound xmlns:tns="urn:test:ops" code="404"><tns:id>a&amp;b</tns:id></tns:NotFound>'
    t.assert.ok(response.body.includes(version === '1.2' ? `<soap:Detail>${detail}</soap:Detail>` : `<detail>${detail}</detail>`), response.body)
    if (version === '1.2') t.assert.match(response.body, /<soap:Text xml:lang="en">no a&amp;b<\/soap:Text><soap:Text xml:lang="de">kein a&amp;b<\/soap:Text>/)
    else t.assert.match(response.body, /<faultstring>no a&amp;b<\/faultstring>/)
    await assertValidEnvelope(t, response.body, version)
  })
}

test('Faults: a detail its schema refuses, or an undeclared fault name, is a generic Receiver fault, logged', async (t: TestContext) => {
  const logs: Array<{ msg?: string, err?: { code?: string, message?: string } }> = []
  const app = await build(t, { Lookup: lookup }, {}, {}, logs)
  for (const id of ['bad-detail', 'unknown-fault']) {
    const response = await post(app, '1.2', envelope('1.2', `<t:Lookup xmlns:t="${NS}"><t:id>${id}</t:id></t:Lookup>`), { url: '/ops' })
    t.assert.strictEqual(response.statusCode, 500)
    t.assert.match(response.body, /The server could not process the request/)
  }
  const codes = logs.filter((l) => l.msg === 'fastify-soap: error answered as a Receiver fault').map((l) => l.err?.code)
  t.assert.deepStrictEqual(codes, ['SOAP_ERR_OUTPUT_INVALID', 'SOAP_ERR_FAULT_UNKNOWN'])
})

test('Faults: faultFormatter sees every fault, with the error behind a generic one as its cause, and returns the one sent', async (t: TestContext) => {
  class NotAllowed extends Error {}
  const app = await build(t, {
    Add: { ...sum, async handler ({ a }: { a: number }) { if (a === 1) throw new NotAllowed('a may not be 1'); if (a === 2) throw new SoapFault({ code: 'Sender', reason: 'two' }); return { result: a } } } as never
  }, {}, {
    faultFormatter (fault) {
      if (fault.cause instanceof NotAllowed) return new SoapFault({ code: 'Sender', reason: fault.cause.message, subcodes: ['{urn:app}NotAllowed'] })
      if (fault.message === 'two') throw new Error('formatter bug')
      return fault
    }
  })
  const mapped = await post(app, '1.2', envelope('1.2', ADD), { url: '/ops' })
  t.assert.strictEqual(mapped.statusCode, 400)
  t.assert.match(mapped.body, /<soap:Subcode><soap:Value xmlns:sc0="urn:app">sc0:NotAllowed<\/soap:Value><\/soap:Subcode>.*a may not be 1/)
  const kept = await post(app, '1.2', envelope('1.2', ADD.replace('<t:a>1', '<t:a>2')), { url: '/ops' })
  t.assert.strictEqual(kept.statusCode, 400)
  t.assert.match(kept.body, /<soap:Text xml:lang="en">two<\/soap:Text>/, 'a formatter that throws leaves the fault as it was')
  // Parser faults go through the formatter too.
  const mu = await post(app, '1.2', envelope('1.2', ADD, '<u:U xmlns:u="urn:u" s:mustUnderstand="1"/>'), { url: '/ops' })
  t.assert.match(mu.body, /soap:MustUnderstand/)
})

test('Faults: a faultFormatter that returns something else than a SoapFault is ignored', async (t: TestContext) => {
  const app = await build(t, { Add: { ...sum, async handler () { throw new SoapFault({ code: 'Sender', reason: 'kept' }) } } as never }, {}, { faultFormatter: () => 'nope' as never })
  const response = await post(app, '1.1', envelope('1.1', ADD), { url: '/ops' })
  t.assert.match(response.body, /<faultstring>kept<\/faultstring>/)
})

test('Faults: a handler error with a 4xx status is a generic Sender fault; any other a generic Receiver fault', async (t: TestContext) => {
  const app = await build(t, {
    Add: { ...sum, async handler ({ a }: { a: number }) { throw Object.assign(new Error('internal detail'), { statusCode: a === 1 ? 404 : 503 }) } } as never
  })
  const four = await post(app, '1.2', envelope('1.2', ADD), { url: '/ops' })
  t.assert.strictEqual(four.statusCode, 400)
  t.assert.match(four.body, /The request is not valid/)
  const five = await post(app, '1.2', envelope('1.2', ADD.replace('<t:a>1', '<t:a>5')), { url: '/ops' })
  t.assert.strictEqual(five.statusCode, 500)
  t.assert.doesNotMatch(five.body, /internal detail/)
})

test('Faults: an input with more than 20 problems lists the first 20 in the Detail', async (t: TestContext) => {
  const properties: Record<string, unknown> = {}
  for (let i = 0; i < 30; i++) properties[`p${i}`] = { type: 'string' }
  const app = await build(t, { Many: { input: { type: 'object', properties, required: Object.keys(properties) }, async handler () {} } })
  const response = await post(app, '1.2', envelope('1.2', `<t:Many xmlns:t="${NS}"/>`), { url: '/ops' })
  t.assert.strictEqual(response.statusCode, 400)
  t.assert.strictEqual(response.body.match(/<fs:Problem /g)?.length, 20)
})

test('Faults: onFault runs for an operation invoked by GET too', async (t: TestContext) => {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  const seen: string[] = []
  app.soap.addHook('onFault', async (_request, _reply, fault) => { seen.push(fault.message) })
  app.soap.service({ path: '/ops', namespace: NS, name: 'Ops', operations: { Add: { ...sum, get: true } } })
  const response = await app.inject({ method: 'GET', url: '/ops/Add?a=1&b=x' })
  t.assert.strictEqual(response.statusCode, 400)
  t.assert.deepStrictEqual(seen, ['Invalid input: /b "x" is not an integer'])
})

test('Handlers: call.log is the request\'s logger and call.signal, with no timeout, the client\'s', async (t: TestContext) => {
  const app = await build(t, {
    Add: defineOperation({
      input: pair,
      output: result,
      async handler ({ a, b }, call) {
        t.assert.strictEqual(call.log, call.request.log)
        t.assert.strictEqual(call.signal, call.soap.signal)
        t.assert.strictEqual(call.signal, call.signal, 'made once')
        return { result: a + b }
      }
    })
  })
  t.assert.strictEqual((await post(app, '1.2', envelope('1.2', ADD), { url: '/ops' })).statusCode, 200)
})

// ----------------------------------------------------------------- output ---

test('Output: a result with a property its schema does not allow is logged naming that property', async (t: TestContext) => {
  const logs: Array<{ msg?: string, err?: { code?: string, message?: string } }> = []
  const extra = { ...sum, async handler () { return { result: 5, carry: 1 } } } as unknown as typeof sum
  const app = await build(t, { Add: extra }, {}, {}, logs)
  t.assert.strictEqual((await post(app, '1.1', envelope('1.1', ADD), { url: '/ops' })).statusCode, 500)
  t.assert.ok(logs.some((l) => l.err?.code === 'SOAP_ERR_OUTPUT_INVALID' && /the result at "\/carry" must NOT have additional properties/.test(l.err.message ?? '')), JSON.stringify(logs.map((l) => l.err?.message)))
})

test('Output: a result the output schema refuses is a Receiver fault, logged with its path; validateOutput: false skips the check', async (t: TestContext) => {
  const logs: Array<{ msg?: string, err?: { code?: string, message?: string } }> = []
  const wrong = { ...sum, async handler () { return { result: 'three' } } } as unknown as typeof sum
  const missing = { ...sum, async handler () { return {} } } as unknown as typeof sum
  const app = await build(t, { Add: wrong, Sub: { ...missing, input: { ...pair, xml: { name: 'Sub' } } } }, {}, {}, logs)
  const response = await post(app, '1.1', envelope('1.1', ADD), { url: '/ops' })
  t.assert.strictEqual(response.statusCode, 500)
  t.assert.match(response.body, /<faultcode>soap:Server<\/faultcode><faultstring>The server could not process the request<\/faultstring>/)
  t.assert.ok(logs.some((l) => l.err?.code === 'SOAP_ERR_OUTPUT_INVALID' && /the result at "\/result" must be integer/.test(l.err.message ?? '')))
  const lax = await build(t, { Add: wrong, Sub: { ...missing, input: { ...pair, xml: { name: 'Sub' } } } }, { validateOutput: false })
  // Unchecked, a missing element is simply not written...
  const sub = await post(lax, '1.1', envelope('1.1', `<t:Sub xmlns:t="${NS}"><t:a>1</t:a><t:b>2</t:b></t:Sub>`), { url: '/ops' })
  t.assert.strictEqual(sub.statusCode, 200)
  t.assert.match(sub.body, /<tns:SubResponse xmlns:tns="urn:test:ops"\/>/)
  // ...but a value its XML cannot carry is still refused by the writer.
  t.assert.strictEqual((await post(lax, '1.1', envelope('1.1', ADD), { url: '/ops' })).statusCode, 500)
})

test('Output: null where the schema allows none, at any depth, is a Receiver fault even with validateOutput: false', async (t: TestContext) => {
  const nested = { type: 'object', properties: { inner: { type: 'object', properties: { v: int } }, list: { type: 'array', items: int } } } as const
  const app = await build(t, {
    Obj: { input: { type: 'object', properties: { which: { type: 'string' } } }, output: nested, async handler ({ which }: { which: string }) { return which === 'inner' ? { inner: null } : { list: [1, null] } } } as never
  }, { validateOutput: false })
  for (const which of ['inner', 'list']) {
    const response = await post(app, '1.2', envelope('1.2', `<t:Obj xmlns:t="${NS}"><t:which>${which}</t:which></t:Obj>`), { url: '/ops' })
    t.assert.strictEqual(response.statusCode, 500, which)
  }
})

test('Output: a string holding a character XML 1.0 cannot carry is a Receiver fault, never broken XML', async (t: TestContext) => {
  const app = await build(t, { Echo: defineOperation({ input: { type: 'object', properties: { s: { type: 'string' } }, required: ['s'] }, output: { type: 'object', properties: { s: { type: 'string' } }, required: ['s'] }, async handler ({ s }) { return { s: s + '\u0001' } } }) })
  const response = await post(app, '1.2', envelope('1.2', `<t:Echo xmlns:t="${NS}"><t:s>x</t:s></t:Echo>`), { url: '/ops' })
  t.assert.strictEqual(response.statusCode, 500)
  await assertValidEnvelope(t, response.body, '1.2')
})

test('Output: a handler may answer by itself through call.reply', async (t: TestContext) => {
  const app = await build(t, { Add: { ...sum, async handler (_input: unknown, call: { reply: { soap: (x: string) => unknown } }) { return call.reply.soap(`<t:Own xmlns:t="${NS}"/>`) } } as never })
  const response = await post(app, '1.2', envelope('1.2', ADD), { url: '/ops' })
  t.assert.match(response.body, /<soap:Body><t:Own xmlns:t="urn:test:ops"\/><\/soap:Body>/)
})

// --------------------------------------------------------------- timeouts ---

test('Timeouts: a handler that outlives its operation\'s timeout is a Receiver fault, and its signal is aborted', async (t: TestContext) => {
  let aborted: unknown
  const app = await build(t, {
    Add: {
      ...sum,
      timeout: 50,
      async handler (_input: unknown, call: { signal: AbortSignal }) {
        await new Promise((resolve) => call.signal.addEventListener('abort', resolve))
        aborted = call.signal.reason
        return { result: 1 }
      }
    } as never,
    Fast: { input: { type: 'object', properties: {} }, output: result, async handler () { return { result: 7 } } }
  }, { timeout: 10_000 })
  const response = await post(app, '1.2', envelope('1.2', ADD), { url: '/ops' })
  t.assert.strictEqual(response.statusCode, 500)
  t.assert.match(response.body, /The operation did not finish in time/)
  t.assert.strictEqual((aborted as { code?: string }).code, 'SOAP_ERR_OPERATION_TIMEOUT')
  // The service's default applies to the others; a quick handler is not affected.
  const fast = await post(app, '1.2', envelope('1.2', `<t:Fast xmlns:t="${NS}"/>`), { url: '/ops' })
  t.assert.match(fast.body, /<tns:result>7<\/tns:result>/)
})
