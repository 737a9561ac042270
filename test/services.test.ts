/** Services: the declaration, checked at ready(); dispatch (docs/protocol.md "Dispatch"); encapsulation and prefixes. */
import { test, type TestContext } from 'node:test'
import { Type } from '@sinclair/typebox'
import Fastify, { type FastifyInstance } from 'fastify'
import soap, { errorCodes, defineOperation, type SoapServiceDefinition } from '../lib/index'
import { envelope, post, serviceApp } from './helper'

const NS = 'urn:test:svc'
const int = { type: 'integer' } as const
const pair = { type: 'object', properties: { a: int, b: int }, required: ['a', 'b'], additionalProperties: false } as const
const result = { type: 'object', properties: { result: int }, required: ['result'], additionalProperties: false } as const

function add (extra: object = {}): ReturnType<typeof defineOperation> {
  return { input: pair, output: result, async handler ({ a, b }: { a: number, b: number }) { return { result: a + b } }, ...extra } as never
}

function service (operations: SoapServiceDefinition['operations'], extra: Partial<SoapServiceDefinition> = {}): SoapServiceDefinition {
  return { path: '/svc', namespace: NS, name: 'Svc', operations, ...extra }
}

async function build (t: TestContext, definition: SoapServiceDefinition): Promise<FastifyInstance> {
  return await serviceApp(t, definition)
}

async function readyError (t: TestContext, definition: unknown): Promise<Error & { code?: string }> {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.service(definition as SoapServiceDefinition)
  return await app.ready().then(() => { throw new Error('ready() resolved') }, (err: Error) => err)
}

const call = (op: string, body = '<t:a>1</t:a><t:b>2</t:b>', ns = NS): string => `<t:${op} xmlns:t="${ns}">${body}</t:${op}>`

// ------------------------------------------------------------ declaration ---

test('Declaration, BP R2710, docs/protocol.md "Dispatch": two operations with one Body QName and one action fail ready() with SOAP_ERR_SERVICE_DUPLICATE naming both', async (t: TestContext) => {
  const err = await readyError(t, service({ Add: add({ action: 'urn:x' }), Plus: add({ input: { ...pair, xml: { name: 'Add' } }, action: 'urn:x' }) }))
  t.assert.ok(err instanceof errorCodes.SOAP_ERR_SERVICE_DUPLICATE)
  t.assert.match(err.message, /Add and Plus share the input element \{urn:test:svc\}Add and the action urn:x \(WS-I BP R2710/)
})

/** Add, and Plus (a + b + 100) taking Add's element too, told apart by their actions. */
function sharing (extra: Partial<SoapServiceDefinition> = {}): SoapServiceDefinition {
  const plus = { input: { ...pair, xml: { name: 'Add' } }, output: result, async handler ({ a, b }: { a: number, b: number }) { return { result: a + b + 100 } } }
  return service({ Add: add(), Plus: plus as never }, extra)
}

for (const version of ['1.1', '1.2'] as const) {
  test(`docs/protocol.md "Dispatch" (${version}): operations sharing an input element are told apart by their actions (SOAPAction, the action parameter); no action, or one naming none of them, is a Sender fault`, async (t: TestContext) => {
    const app = await build(t, sharing())
    const send = async (action?: string, header = version === '1.1'): Promise<{ statusCode: number, body: string }> => await post(app, version, envelope(version, call('Add')), {
      url: '/svc',
      headers: action !== undefined && header ? { soapaction: `"${action}"` } : {},
      contentType: version === '1.2' ? `application/soap+xml${action !== undefined && !header ? `; action="${action}"` : ''}` : undefined
    })
    t.assert.match((await send(`${NS}/Add`)).body, /<tns:result>3<\/tns:result>/, 'Add by its action')
    t.assert.match((await send(`${NS}/Plus`)).body, /<tns:result>103<\/tns:result>/, 'Plus by its action')
    if (version === '1.2') t.assert.match((await send(`${NS}/Plus`, true)).body, /<tns:result>103<\/tns:result>/, 'SOAPAction sent with SOAP 1.2 (docs/protocol.md "Be liberal")')
    for (const action of [undefined, 'urn:nope']) {
      const response = await send(action)
      t.assert.strictEqual(response.statusCode, version === '1.2' ? 400 : 500)
      t.assert.match(response.body, version === '1.2' ? /<soap:Value>soap:Sender<\/soap:Value>/ : /<faultcode>soap:Client<\/faultcode>/)
      const named = action === undefined ? 'no action was given' : `the action ${action} names none of them`
      t.assert.ok(response.body.includes(`Operations Add and Plus of Svc take the element {${NS}}Add; ${named}`), response.body)
    }
  })
}

test('docs/protocol.md "Dispatch": with addressing on, wsa:Action tells apart operations sharing an input element; an action of no operation is ActionNotSupported', async (t: TestContext) => {
  const app = await build(t, sharing({ addressing: true }))
  const wsa = (action: string): string => `<wsa:Action xmlns:wsa="http://www.w3.org/2005/08/addressing">${action}</wsa:Action><wsa:MessageID xmlns:wsa="http://www.w3.org/2005/08/addressing">urn:uuid:1</wsa:MessageID>`
  const send = async (action: string): Promise<{ statusCode: number, body: string }> => await post(app, '1.2', envelope('1.2', call('Add'), wsa(action)), { url: '/svc', contentType: `application/soap+xml; action="${action}"` })
  t.assert.match((await send(`${NS}/Plus`)).body, /<tns:result>103<\/tns:result>/)
  t.assert.match((await send(`${NS}/Add`)).body, /<tns:result>3<\/tns:result>/)
  const unknown = await send('urn:nope')
  t.assert.strictEqual(unknown.statusCode, 400)
  t.assert.match(unknown.body, /<soap:Value xmlns:sc0="http:\/\/www.w3.org\/2005\/08\/addressing">sc0:ActionNotSupported<\/soap:Value>/)
})

test('Declaration, BP R2710: two operations without input that share an action fail ready() with SOAP_ERR_SERVICE_DUPLICATE', async (t: TestContext) => {
  const ping = { output: result, async handler () { return { result: 0 } } }
  const err = await readyError(t, service({ Ping: { ...ping, action: 'urn:x' }, Pong: { ...ping, action: 'urn:x' } } as never))
  t.assert.ok(err instanceof errorCodes.SOAP_ERR_SERVICE_DUPLICATE)
  t.assert.match(err.message, /operations Ping and Pong share the action urn:x, and neither takes a Body element \(WS-I BP R2710/)
})

test('Declaration: a missing handler fails ready() with SOAP_ERR_SERVICE_HANDLER naming the operation', async (t: TestContext) => {
  const err = await readyError(t, service({ Add: { input: pair, output: result } as never }))
  t.assert.ok(err instanceof errorCodes.SOAP_ERR_SERVICE_HANDLER)
  t.assert.match(err.message, /service Svc: operation Add has no handler/)
})

test('Declaration: a schema Ajv refuses fails ready() with SOAP_ERR_SERVICE_SCHEMA naming the schema', async (t: TestContext) => {
  const err = await readyError(t, service({ Add: add({ input: { type: 'object', properties: { a: { type: 'integer', minimum: 'zero' } } } }) }))
  t.assert.ok(err instanceof errorCodes.SOAP_ERR_SERVICE_SCHEMA)
  t.assert.match(err.message, /schema Svc\.Add\.input: /)
})

test('Declaration: an unknown keyword in an operation schema fails ready() with its JSON Pointer', async (t: TestContext) => {
  const cases: Array<[object, RegExp]> = [
    [{ type: 'object', properties: { a: { type: 'string', enm: ['x'] } } }, /schema Svc\.Add\.input\/properties\/a: unknown keyword "enm"$/],
    // A property named like the keyword is a name, not the keyword.
    [
      { type: 'object', properties: { enm: { type: 'array', items: { type: 'string', enm: ['x'] } } } },
      /schema Svc\.Add\.input\/properties\/enm\/items: unknown keyword "enm"$/
    ],
    [
      { type: 'object', properties: { p: { $ref: '#/$defs/P' } }, $defs: { P: { type: 'object', properties: { b: { type: 'integer', minimun: 0 } } } } },
      /schema Svc\.Add\.input\/\$defs\/P\/properties\/b: unknown keyword "minimun"$/
    ],
    // Presence rules and a schema used twice are passed through on the way.
    [
      {
        type: 'object',
        anyOf: [{ properties: { a: true }, required: ['a'] }, { properties: { c: true }, required: ['c'] }],
        properties: { a: int, c: int, d: { type: 'string', enm: ['x'] } }
      },
      /schema Svc\.Add\.input\/properties\/d: unknown keyword "enm"$/
    ]
  ]
  for (const [input, message] of cases) {
    const err = await readyError(t, service({ Add: add({ input }) }))
    t.assert.ok(err instanceof errorCodes.SOAP_ERR_SERVICE_SCHEMA, String(err))
    t.assert.match(err.message, message)
  }
})

test('Declaration: a construct the codec cannot map fails ready() with its JSON Pointer', async (t: TestContext) => {
  const err = await readyError(t, service({ Add: add({ input: { type: 'object', properties: { a: { anyOf: [int, { type: 'string' }] } } } }) }))
  t.assert.ok(err instanceof errorCodes.SOAP_ERR_SERVICE_SCHEMA)
  t.assert.match(err.message, /schema Svc\.Add\.input\/properties\/a: "anyOf" is supported only to say which properties are present/)
})

test('Declaration: every malformed key is refused at ready() with SOAP_ERR_SERVICE_INVALID', async (t: TestContext) => {
  const cases: Array<[unknown, RegExp]> = [
    [{ ...service({ Add: add() }), path: 'svc' }, /"path" must be a string starting with "\/"/],
    [{ ...service({ Add: add() }), name: 'not a name' }, /"name" must be an XML NCName/],
    [{ ...service({ Add: add() }), namespace: '' }, /"namespace" must be a non-empty URI/],
    [service({}), /"operations" must name at least one operation/],
    [{ ...service({ Add: add() }), wsdls: true }, /unknown key "wsdls"/],
    [service({ 'Add Two': add() }), /operation name "Add Two" is not an XML NCName/],
    [service({ Add: 3 as never }), /operation Add must be an object/],
    [service({ Add: add({ inputs: pair }) }), /operation Add: unknown key "inputs"/],
    [service({ Add: add({ action: '' }) }), /"action" must be a non-empty string/],
    [service({ Add: add({ get: 'yes' }) }), /"get" must be a boolean/],
    [service({ Add: add({ timeout: -1 }) }), /"timeout" must be a non-negative integer/],
    [service({ Add: add() }, { timeout: 1.5 }), /"timeout" must be a non-negative integer/],
    [service({ Add: add() }, { strictAction: 'yes' as never }), /"strictAction" must be a boolean/],
    [service({ Add: add() }, { understoodHeaders: ['Security'] }), /"understoodHeaders" must be an array of "\{namespace\}localName"/],
    [service({ Add: add({ faults: { 'Bad Fault': result } }) }), /fault name "Bad Fault" is not an XML NCName/],
    [service({ Add: add({ faults: [] }) }), /"faults" must map fault names to schemas/]
  ]
  for (const [definition, message] of cases) {
    const err = await readyError(t, definition)
    t.assert.ok(err instanceof errorCodes.SOAP_ERR_SERVICE_INVALID, `${String(err)} for ${message}`)
    t.assert.match(err.message, message)
  }
})

test('Declaration: an operation hook with a wrong stage or a non-function fails ready() with SOAP_ERR_HOOK_INVALID', async (t: TestContext) => {
  for (const [hooks, message] of [
    [{ onFault: async () => {} }, /"onFault" is not an operation hook/],
    [{ onEnvelope: async () => {} }, /"onEnvelope" is not an operation hook/],
    [{ preHandler: 'x' }, /Svc\.Add: the preHandler hook must be a function/],
    [{ preHandler: [async () => {}, 3] }, /the preHandler hook must be a function/],
    [[], /"hooks" must be an object/]
  ] as const) {
    const err = await readyError(t, service({ Add: add({ hooks }) }))
    t.assert.ok(err instanceof errorCodes.SOAP_ERR_HOOK_INVALID, String(err))
    t.assert.match(err.message, message)
  }
})

test('Declaration: an output, header or fault schema that is not an object is refused at ready()', async (t: TestContext) => {
  for (const extra of [{ output: int }, { headers: int }, { faults: { Oops: { type: ['object', 'null'], properties: {} } } }, { headers: { type: 'object', properties: { h: { type: 'string', xml: { attribute: true } } } } }]) {
    const err = await readyError(t, service({ Add: add(extra) }))
    t.assert.ok(err instanceof errorCodes.SOAP_ERR_SERVICE_SCHEMA, String(err))
  }
})

test('Declaration: a GET operation whose input is not flat is refused at ready()', async (t: TestContext) => {
  const err = await readyError(t, service({ Add: add({ get: true, input: { type: 'object', properties: { p: pair } } }) }))
  t.assert.ok(err instanceof errorCodes.SOAP_ERR_SERVICE_SCHEMA)
  t.assert.match(err.message, /Svc\.Add\.input\/properties\/p: an operation invoked by GET takes scalar/)
  const lists = { type: 'array', items: { type: 'array', items: int, xml: { list: true } } }
  const repeated = await readyError(t, service({ Add: add({ get: true, input: { type: 'object', properties: { l: lists } } }) }))
  t.assert.match(repeated.message, /Svc\.Add\.input\/properties\/l: an operation invoked by GET takes scalar/)
})

test('Declaration: a declaration that is not an object, or operations that are not, is refused at ready()', async (t: TestContext) => {
  t.assert.ok(await readyError(t, null) instanceof errorCodes.SOAP_ERR_SERVICE_INVALID)
  const err = await readyError(t, { ...service({}), operations: null })
  t.assert.match(err.message, /"operations" must name at least one operation/)
})

test('Declaration: xml.prefix chooses the prefixes written; two prefixes for one namespace, or one for two, are refused', async (t: TestContext) => {
  const output = {
    type: 'object',
    xml: { prefix: 'ns1' },
    properties: {
      result: int,
      other: { type: 'string', xml: { namespace: 'urn:other', prefix: 'tns' } },
      third: { type: 'string', xml: { namespace: 'urn:third' } }
    },
    required: ['result']
  }
  const app = await build(t, service({ Add: add({ output, async handler () { return { result: 1, other: 'o', third: 'x' } } }) }))
  const response = await post(app, '1.2', envelope('1.2', call('Add')), { url: '/svc' })
  t.assert.match(response.body, /<ns1:AddResponse xmlns:ns1="urn:test:svc" xmlns:tns="urn:other" xmlns:ns2="urn:third"><ns1:result>1<\/ns1:result><tns:other>o<\/tns:other><ns2:third>x<\/ns2:third><\/ns1:AddResponse>/)
  for (const [properties, message] of [
    [{ a: { type: 'string', xml: { prefix: 'p' } }, b: { type: 'string', xml: { prefix: 'q' } } }, /namespace urn:test:svc is given two prefixes, p and q/],
    [{ a: { type: 'string', xml: { namespace: 'urn:a', prefix: 'p' } }, b: { type: 'string', xml: { namespace: 'urn:b', prefix: 'p' } } }, /prefix p is given to two namespaces, urn:a and urn:b/]
  ] as const) {
    const err = await readyError(t, service({ Add: add({ output: { type: 'object', properties } }) }))
    t.assert.ok(err instanceof errorCodes.SOAP_ERR_SERVICE_SCHEMA)
    t.assert.match(err.message, message)
  }
})

// --------------------------------------------------------------- dispatch ---

for (const version of ['1.1', '1.2'] as const) {
  const sender = version === '1.2' ? 400 : 500
  const code = version === '1.2' ? /<soap:Value>soap:Sender<\/soap:Value>/ : /<faultcode>soap:Client<\/faultcode>/

  test(`docs/protocol.md "Dispatch" (${version}): the Body's first child picks the operation, whatever the action says`, async (t: TestContext) => {
    const app = await build(t, service({ Add: add(), Sub: add({ async handler ({ a, b }: { a: number, b: number }) { return { result: a - b } } }) }))
    const response = await post(app, version, envelope(version, call('Sub')), { url: '/svc', headers: { soapaction: `${NS}/Add` }, contentType: version === '1.2' ? `application/soap+xml; action="${NS}/Add"` : undefined })
    t.assert.strictEqual(response.statusCode, 200)
    t.assert.match(response.body, /<tns:SubResponse xmlns:tns="urn:test:svc"><tns:result>-1<\/tns:result><\/tns:SubResponse>/)
  })

  test(`docs/protocol.md "Dispatch" (${version}): no matching operation is a Sender/Client fault naming the element received`, async (t: TestContext) => {
    const app = await build(t, service({ Add: add() }))
    const response = await post(app, version, envelope(version, call('Add', '', 'urn:other')), { url: '/svc' })
    t.assert.strictEqual(response.statusCode, sender)
    t.assert.match(response.body, code)
    t.assert.match(response.body, /No operation of Svc takes the element \{urn:other\}Add/)
  })

  test(`docs/protocol.md "Dispatch" (${version}): the action routes an empty Body to an operation without input`, async (t: TestContext) => {
    const app = await build(t, service({ Add: add(), Ping: { output: { type: 'object', properties: { ok: { type: 'boolean' } } }, async handler () { return { ok: true } } } }))
    const headers: Record<string, string> = version === '1.1' ? { soapaction: `"${NS}/Ping"` } : {}
    const contentType = version === '1.2' ? `application/soap+xml; charset=utf-8; action="${NS}/Ping"` : undefined
    const ping = await post(app, version, envelope(version), { url: '/svc', headers, contentType })
    t.assert.strictEqual(ping.statusCode, 200)
    t.assert.match(ping.body, /<tns:PingResponse xmlns:tns="urn:test:svc"><tns:ok>true<\/tns:ok><\/tns:PingResponse>/)
    const none = await post(app, version, envelope(version), { url: '/svc' })
    t.assert.strictEqual(none.statusCode, sender)
    t.assert.match(none.body, /The Body is empty and no action was given/)
    const unknown = await post(app, version, envelope(version), { url: '/svc', headers: { soapaction: 'urn:nothing' }, contentType: version === '1.2' ? 'application/soap+xml; action="urn:nothing"' : undefined })
    t.assert.match(unknown.body, /The Body is empty and no operation of Svc has the action urn:nothing/)
    const needsInput = await post(app, version, envelope(version), { url: '/svc', headers: { soapaction: `${NS}/Add` }, contentType: version === '1.2' ? `application/soap+xml; action="${NS}/Add"` : undefined })
    t.assert.strictEqual(needsInput.statusCode, sender)
    t.assert.match(needsInput.body, /Operation Add expects the element \{urn:test:svc\}Add; the Body is empty/)
  })

  test(`docs/protocol.md "Dispatch" (${version}): operations that share an action are told apart by their Body elements, and an empty Body goes to the one without input`, async (t: TestContext) => {
    const sub = add({ action: 'urn:x', async handler ({ a, b }: { a: number, b: number }) { return { result: a - b } } })
    const ping = { output: result, action: 'urn:x', async handler () { return { result: 0 } } }
    const app = await build(t, service({ Add: add({ action: 'urn:x' }), Sub: sub, Ping: ping } as never, { strictAction: true }))
    const options = { url: '/svc', headers: { soapaction: 'urn:x' }, contentType: version === '1.2' ? 'application/soap+xml; action="urn:x"' : undefined }
    const added = await post(app, version, envelope(version, call('Add')), options)
    t.assert.match(added.body, /<tns:AddResponse xmlns:tns="urn:test:svc"><tns:result>3<\/tns:result><\/tns:AddResponse>/)
    const subtracted = await post(app, version, envelope(version, call('Sub')), options)
    t.assert.match(subtracted.body, /<tns:SubResponse xmlns:tns="urn:test:svc"><tns:result>-1<\/tns:result><\/tns:SubResponse>/)
    const pinged = await post(app, version, envelope(version), options)
    t.assert.match(pinged.body, /<tns:PingResponse xmlns:tns="urn:test:svc"><tns:result>0<\/tns:result><\/tns:PingResponse>/)
    const shared = await build(t, service({ Add: add({ action: 'urn:x' }), Sub: sub }))
    const empty = await post(shared, version, envelope(version), options)
    t.assert.strictEqual(empty.statusCode, sender)
    t.assert.match(empty.body, /Operation Add expects the element \{urn:test:svc\}Add; the Body is empty/)
  })

  test(`docs/protocol.md "Dispatch" (${version}): an action/Body mismatch is tolerated by default and a Sender fault with strictAction`, async (t: TestContext) => {
    const lenient = await build(t, service({ Add: add() }))
    const options = { url: '/svc', headers: { soapaction: 'urn:odd' }, contentType: version === '1.2' ? 'application/soap+xml; action="urn:odd"' : undefined }
    t.assert.strictEqual((await post(lenient, version, envelope(version, call('Add')), options)).statusCode, 200)
    const strict = await build(t, service({ Add: add() }, { strictAction: true }))
    const refused = await post(strict, version, envelope(version, call('Add')), options)
    t.assert.strictEqual(refused.statusCode, sender)
    t.assert.match(refused.body, /The action urn:odd does not match operation Add, whose action is urn:test:svc\/Add/)
    // No action at all is not a mismatch.
    t.assert.strictEqual((await post(strict, version, envelope(version, call('Add')), { url: '/svc' })).statusCode, 200)
    const right = { url: '/svc', headers: { soapaction: `${NS}/Add` }, contentType: version === '1.2' ? `application/soap+xml; action="${NS}/Add"` : undefined }
    t.assert.strictEqual((await post(strict, version, envelope(version, call('Add')), right)).statusCode, 200)
  })

  test(`docs/protocol.md "Dispatch" (${version}): a Body with a second element after the operation's is a Sender fault`, async (t: TestContext) => {
    const app = await build(t, service({ Add: add() }))
    const response = await post(app, version, envelope(version, call('Add') + call('Add')), { url: '/svc' })
    t.assert.strictEqual(response.statusCode, sender)
    t.assert.match(response.body, /The Body holds 2 elements; operation Add takes one/)
  })
}

test('docs/protocol.md "Dispatch": __proto__, constructor, toString and hasOwnProperty are ordinary operation and element names', async (t: TestContext) => {
  const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']
  // The `__proto__` key must be an own key, as JSON.parse or a computed key makes it.
  const operations: Record<string, unknown> = {}
  for (const name of names) {
    Object.defineProperty(operations, name, {
      enumerable: true,
      value: {
        // A property cannot be called __proto__ (Ajv never validates one), but its element can.
        input: { type: 'object', properties: { value: { type: 'string', xml: { name } } }, required: ['value'], additionalProperties: false },
        output: { type: 'object', properties: { got: { type: 'string' } }, required: ['got'] },
        async handler (input: { value: string }) { return { got: `${name}=${input.value}` } }
      }
    })
  }
  const app = await build(t, service(operations as SoapServiceDefinition['operations']))
  for (const name of names) {
    const response = await post(app, '1.2', envelope('1.2', call(name, `<t:${name}>v</t:${name}>`)), { url: '/svc' })
    t.assert.strictEqual(response.statusCode, 200, response.body)
    t.assert.match(response.body, new RegExp(`<tns:${name}Response xmlns:tns="urn:test:svc"><tns:got>${name}=v</tns:got>`))
  }
  // Names that are on Object.prototype but not declared are unknown, never found by a prototype look-up.
  const app2 = await build(t, service({ Add: add() }))
  for (const name of names) {
    const response = await post(app2, '1.2', envelope('1.2', call(name)), { url: '/svc', contentType: `application/soap+xml; action="${NS}/${name}"` })
    t.assert.strictEqual(response.statusCode, 400)
    t.assert.match(response.body, new RegExp(`No operation of Svc takes the element \\{urn:test:svc\\}${name}`))
    const empty = await post(app2, '1.2', envelope('1.2'), { url: '/svc', contentType: `application/soap+xml; action="${name}"` })
    t.assert.match(empty.body, new RegExp(`no operation of Svc has the action ${name}`))
  }
})

test('Declaration: a property named __proto__ is refused at ready() (Ajv would never validate it)', async (t: TestContext) => {
  const input = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}')
  const err = await readyError(t, service({ Add: add({ input }) }))
  t.assert.ok(err instanceof errorCodes.SOAP_ERR_SERVICE_SCHEMA)
  t.assert.match(err.message, /a property cannot be named "__proto__"/)
})

test('docs/protocol.md "Dispatch": the default action is <namespace>/<operation>, with no extra separator after / : or #', async (t: TestContext) => {
  for (const [namespace, action] of [['urn:a', 'urn:a/Ping'], ['http://x/', 'http://x/Ping'], ['urn:b:', 'urn:b:Ping'], ['urn:c#', 'urn:c#Ping']]) {
    const app = await build(t, service({ Ping: { async handler () {} } }, { namespace }))
    const response = await post(app, '1.2', envelope('1.2'), { url: '/svc', contentType: `application/soap+xml; action="${action}"` })
    t.assert.strictEqual(response.statusCode, 202, `${namespace} → ${action}`)
  }
})

// ---------------------------------------------------------- encapsulation ---

test('Services: several on one server, each with its path, namespace, prefix and encapsulated hooks', async (t: TestContext) => {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  const seen: string[] = []
  app.soap.addHook('preHandler', async (request) => { seen.push(`root:${request.soap?.operation?.service}`) })
  await app.register(async (v1) => {
    v1.soap.addHook('preHandler', async (request) => { seen.push(`v1:${request.soap?.operation?.service}`) })
    v1.soap.service(service({ Add: add() }, { name: 'One', namespace: 'urn:one', path: '/calc' }))
  }, { prefix: '/v1' })
  await app.register(async (v2) => {
    v2.soap.service(service({ Add: add() }, { name: 'Two', namespace: 'urn:two', path: '/calc' }))
  }, { prefix: '/v2' })
  await app.ready()
  const one = await post(app, '1.1', envelope('1.1', call('Add', '<t:a>1</t:a><t:b>1</t:b>', 'urn:one')), { url: '/v1/calc' })
  t.assert.match(one.body, /<tns:AddResponse xmlns:tns="urn:one"><tns:result>2<\/tns:result>/)
  const two = await post(app, '1.1', envelope('1.1', call('Add', '<t:a>1</t:a><t:b>2</t:b>', 'urn:two')), { url: '/v2/calc' })
  t.assert.match(two.body, /<tns:AddResponse xmlns:tns="urn:two"><tns:result>3<\/tns:result>/)
  // Each service answers its own namespace only.
  const crossed = await post(app, '1.1', envelope('1.1', call('Add', '<t:a>1</t:a><t:b>2</t:b>', 'urn:one')), { url: '/v2/calc' })
  t.assert.match(crossed.body, /No operation of Two takes the element \{urn:one\}Add/)
  t.assert.deepStrictEqual(seen, ['root:One', 'v1:One', 'root:Two'])
  // Other methods on a service path: 405 with Allow, as for plain routes (GET and HEAD serve the WSDL).
  const put = await app.inject({ method: 'PUT', url: '/v1/calc' })
  t.assert.strictEqual(put.statusCode, 405)
  t.assert.strictEqual(put.headers.allow, 'GET, HEAD, POST')
})

test('Services: a service declared in a plugin with its own parsers leaves routes outside the SOAP scope alone', async (t: TestContext) => {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.post('/json', async (request) => ({ got: request.body }))
  app.soap.service(service({ Add: add() }))
  await app.ready()
  const json = await app.inject({ method: 'POST', url: '/json', payload: { a: 1 } })
  t.assert.deepStrictEqual(json.json(), { got: { a: 1 } })
  const refused = await app.inject({ method: 'POST', url: '/svc', payload: { a: 1 } })
  t.assert.strictEqual(refused.statusCode, 415)
})

test('Services: fastify.soap.service() returns the instance, so that it can be awaited', async (t: TestContext) => {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  const returned = app.soap.service(service({ Add: add() }))
  t.assert.strictEqual(typeof returned.then, 'function')
  await returned
  t.assert.strictEqual((await post(app, '1.2', envelope('1.2', call('Add')), { url: '/svc' })).statusCode, 200)
})

// --------------------------------------------------------------- TypeBox ---

test('docs/typescript.md "TypeBox": a service written with TypeBox schemas is served as its JSON Schema is', async (t: TestContext) => {
  const Order = Type.Object({
    id: Type.Integer(),
    note: Type.Optional(Type.String()),
    lines: Type.Array(Type.Object({ sku: Type.String(), quantity: Type.Integer({ minimum: 1 }) }))
  }, { additionalProperties: false })
  const Status = Type.Unsafe<'accepted' | 'rejected'>({ type: 'string', enum: ['accepted', 'rejected'] })
  const app = await build(t, service({
    Place: defineOperation({
      input: Order,
      output: Type.Object({ status: Status, count: Type.Integer() }),
      async handler (order) {
        return { status: order.lines.length > 0 ? 'accepted' : 'rejected', count: order.lines.length }
      }
    })
  }))
  const order = call('Place', '<t:id>7</t:id><t:lines><t:sku>A</t:sku><t:quantity>2</t:quantity></t:lines><t:lines><t:sku>B</t:sku><t:quantity>1</t:quantity></t:lines>')
  const response = await post(app, '1.2', envelope('1.2', order), { url: '/svc' })
  t.assert.strictEqual(response.statusCode, 200)
  t.assert.match(response.body, /<tns:status>accepted<\/tns:status><tns:count>2<\/tns:count>/)
  const zero = call('Place', '<t:id>7</t:id><t:lines><t:sku>A</t:sku><t:quantity>0</t:quantity></t:lines>')
  t.assert.strictEqual((await post(app, '1.2', envelope('1.2', zero), { url: '/svc' })).statusCode, 400, 'minimum: 1 is checked')
  t.assert.strictEqual((await app.inject({ method: 'GET', url: '/svc?wsdl' })).statusCode, 200)
})
