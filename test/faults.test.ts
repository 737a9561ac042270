import { test, type TestContext } from 'node:test'
import Fastify from 'fastify'
import soap, { SOAP11_ENV, SOAP12_ENV, SoapFault, errorCodes } from '../lib/index'
import { CONTRACT_NS, buildApp, contractWsdl, decodedOf, echoRoutes, envelope, envNs, listen, post, rawExchange, assertValidEnvelope, validateEnvelope } from './helper'

const CALL = '<m:Add xmlns:m="urn:example:calc"><m:a>1</m:a></m:Add>'

function faultApp (t: TestContext, thrower: () => unknown, logs?: string[]) {
  const app = Fastify({
    logger: logs === undefined
      ? false
      : { level: 'debug', stream: { write: (line: string) => { logs.push(line) } } }
  })
  app.register(soap, {
    routes: async (scope) => {
      scope.post('/fault', async () => thrower())
    }
  })
  t.after(() => app.close())
  return app
}

for (const version of ['1.1', '1.2'] as const) {
  test(`docs/protocol.md "Faults": a handler's SoapFault is rendered in SOAP ${version} and validates against the envelope schema`, async (t: TestContext) => {
    const app = faultApp(t, () => {
      throw new SoapFault({
        code: 'Sender',
        subcodes: [{ namespace: 'urn:example:calc', localName: 'DivideByZero' }, '{urn:example:calc}Deeper'],
        reason: [{ text: 'division by zero <&>', lang: 'en' }, { text: 'division par zéro', lang: 'fr' }],
        node: 'http://example.org/node',
        role: 'http://example.org/role',
        detail: '<d:Info xmlns:d="urn:example:calc">7 / 0</d:Info>'
      })
    })
    const response = await post(app, version, envelope(version, CALL), { url: '/fault' })
    t.assert.strictEqual(response.statusCode, version === '1.2' ? 400 : 500, 'Part 2 Table 20: Sender → 400; SOAP 1.1 §6.2: 500')
    t.assert.strictEqual(response.headers['content-type'], version === '1.2' ? 'application/soap+xml; charset=utf-8' : 'text/xml; charset=utf-8')
    t.assert.strictEqual(Number(response.headers['content-length']), Buffer.byteLength(response.body))
    await assertValidEnvelope(t, response.body, version)
    if (version === '1.2') {
      t.assert.match(response.body, /<soap:Code><soap:Value>soap:Sender<\/soap:Value><soap:Subcode><soap:Value xmlns:sc0="urn:example:calc">sc0:DivideByZero<\/soap:Value><soap:Subcode><soap:Value xmlns:sc1="urn:example:calc">sc1:Deeper<\/soap:Value><\/soap:Subcode><\/soap:Subcode><\/soap:Code>/)
      t.assert.match(response.body, /<soap:Text xml:lang="en">division by zero &lt;&amp;&gt;<\/soap:Text><soap:Text xml:lang="fr">division par zéro<\/soap:Text>/)
      t.assert.match(response.body, /<soap:Node>http:\/\/example.org\/node<\/soap:Node><soap:Role>http:\/\/example.org\/role<\/soap:Role><soap:Detail><d:Info xmlns:d="urn:example:calc">7 \/ 0<\/d:Info><\/soap:Detail>/)
    } else {
      t.assert.match(response.body, /<soap:Fault><faultcode>soap:Client<\/faultcode><faultstring>division by zero &lt;&amp;&gt;<\/faultstring><faultactor>http:\/\/example.org\/node<\/faultactor><detail><d:Info xmlns:d="urn:example:calc">7 \/ 0<\/d:Info><\/detail><\/soap:Fault>/)
    }
  })

  test(`docs/protocol.md "Faults": each fault code has its status in SOAP ${version}`, async (t: TestContext) => {
    const expected = version === '1.2'
      ? { Sender: 400, Receiver: 500, MustUnderstand: 500, VersionMismatch: 500, DataEncodingUnknown: 500, Client: 400, Server: 500 }
      : { Sender: 500, Receiver: 500, MustUnderstand: 500, VersionMismatch: 500, DataEncodingUnknown: 500, Client: 500, Server: 500 }
    const names11: Record<string, string> = { Sender: 'Client', Client: 'Client', Receiver: 'Server', Server: 'Server', MustUnderstand: 'MustUnderstand', VersionMismatch: 'VersionMismatch', DataEncodingUnknown: 'Client' }
    const names12: Record<string, string> = { Client: 'Sender', Server: 'Receiver' }
    for (const [code, status] of Object.entries(expected)) {
      const app = faultApp(t, () => { throw new SoapFault({ code: code as 'Sender', reason: 'r' }) })
      const response = await post(app, version, envelope(version, CALL), { url: '/fault' })
      t.assert.strictEqual(response.statusCode, status, code)
      await assertValidEnvelope(t, response.body, version, code)
      const name = version === '1.1' ? names11[code] : (names12[code] ?? code)
      t.assert.ok(response.body.includes(version === '1.1' ? `<faultcode>soap:${name}</faultcode>` : `<soap:Value>soap:${name}</soap:Value>`), code)
    }
  })

  test(`docs/protocol.md "Faults": any other error is a generic Receiver fault in SOAP ${version}, logged with its stack, nothing internal on the wire`, async (t: TestContext) => {
    const logs: string[] = []
    const app = faultApp(t, () => { throw new Error('secret: db password is hunter2') }, logs)
    const response = await post(app, version, envelope(version, CALL), { url: '/fault' })
    t.assert.strictEqual(response.statusCode, 500)
    await assertValidEnvelope(t, response.body, version)
    t.assert.ok(response.body.includes(version === '1.1' ? '<faultcode>soap:Server</faultcode>' : '<soap:Value>soap:Receiver</soap:Value>'))
    t.assert.ok(!response.body.includes('hunter2'))
    t.assert.ok(!/at .*\.js:\d+/.test(response.body), 'no stack on the wire')
    const logged = logs.map((line) => JSON.parse(line)).find((entry) => entry.err?.message === 'secret: db password is hunter2')
    t.assert.ok(logged !== undefined, 'the error is logged')
    t.assert.strictEqual(logged.level, 50)
    t.assert.match(logged.err.stack, /faults\.test\.js/)
  })
}

test('docs/protocol.md "Faults": a rejected promise and a thrown non-Error (null and undefined included) are Receiver faults too', async (t: TestContext) => {
  // eslint-disable-next-line no-throw-literal, prefer-promise-reject-errors
  for (const thrower of [() => Promise.reject(new TypeError('x')), () => { throw 'a string' }, () => { throw null }, () => { throw undefined }, () => Promise.reject(null)]) {
    const app = faultApp(t, thrower)
    const response = await post(app, '1.2', envelope('1.2', CALL), { url: '/fault' })
    t.assert.strictEqual(response.statusCode, 500)
    t.assert.strictEqual(response.headers['content-type'], 'application/soap+xml; charset=utf-8')
    t.assert.match(response.body, /soap:Receiver/)
    await assertValidEnvelope(t, response.body, '1.2')
  }
})

test('docs/protocol.md "Faults": a client error (4xx) thrown in the SOAP scope is a generic Sender fault', async (t: TestContext) => {
  const app = faultApp(t, () => { throw Object.assign(new Error('internal detail'), { statusCode: 403 }) })
  const response = await post(app, '1.2', envelope('1.2', CALL), { url: '/fault' })
  t.assert.strictEqual(response.statusCode, 400)
  t.assert.match(response.body, /soap:Sender/)
  t.assert.ok(!response.body.includes('internal detail'))
})

test('SoapFault: characters XML cannot carry never break the fault; defaults; unknown codes are refused', (t: TestContext) => {
  const fault = new SoapFault({ reason: 'bad \u0000 char \uD800 here' })
  t.assert.strictEqual(fault.faultCode, 'Receiver')
  t.assert.strictEqual(fault.statusCode, 500)
  t.assert.strictEqual(fault.statusFor('1.1'), 500)
  t.assert.ok(fault instanceof Error)
  t.assert.throws(() => new SoapFault({ code: 'Nope' as 'Sender', reason: 'x' }), errorCodes.SOAP_ERR_FAULT_INVALID)
  t.assert.throws(() => new SoapFault({ reason: 'x', subcodes: ['{urn:x}a b'] }), errorCodes.SOAP_ERR_FAULT_INVALID)
  t.assert.throws(() => new SoapFault({ reason: 'x', subcodes: [{ namespace: 'urn:x', localName: '1a' }] }), errorCodes.SOAP_ERR_FAULT_INVALID)
  t.assert.throws(() => new SoapFault({ reason: [{ text: 'x', lang: 'en us' }] }), errorCodes.SOAP_ERR_FAULT_INVALID)
  t.assert.strictEqual(new SoapFault({ reason: [{ text: 'x', lang: '' }, { text: 'y', lang: 'pt-BR' }] }).reasons.length, 2)
  const sender = new SoapFault({ code: 'Client', reason: 'x', cause: new Error('inner') })
  t.assert.strictEqual(sender.faultCode, 'Sender')
  t.assert.strictEqual(sender.statusCode, 400)
  t.assert.strictEqual((sender.cause as Error).message, 'inner')
})

test('SoapFault: invalid characters in a reason are replaced, and the fault still validates', async (t: TestContext) => {
  for (const version of ['1.1', '1.2'] as const) {
    const app = faultApp(t, () => { throw new SoapFault({ code: 'Sender', reason: 'bad \u0000 char \uD800 here', subcodes: ['Local'] }) })
    const response = await post(app, version, envelope(version, CALL), { url: '/fault' })
    await assertValidEnvelope(t, response.body, version, response.body)
    t.assert.ok(response.body.includes('bad \uFFFD char \uFFFD here'))
  }
})

// ------------------------------------------------------------ VersionMismatch

for (const [sentAs, inside] of [['1.1', SOAP12_ENV], ['1.2', SOAP11_ENV], ['1.1', 'urn:not-soap'], ['1.2', 'urn:not-soap'], ['1.2', '']] as const) {
  test(`docs/protocol.md "Faults": an Envelope in ${inside || 'no namespace'} sent as SOAP ${sentAs} → VersionMismatch (Part 1 §5.4.7) with an Upgrade block`, async (t: TestContext) => {
    const app = await buildApp(t)
    const body = inside === '' ? '<Envelope><Body/></Envelope>' : `<e:Envelope xmlns:e="${inside}"><e:Body/></e:Envelope>`
    const response = await post(app, sentAs, body)
    t.assert.strictEqual(response.statusCode, 500)
    t.assert.strictEqual(response.headers['content-type'], sentAs === '1.1' ? 'text/xml; charset=utf-8' : 'application/soap+xml; charset=utf-8')
    t.assert.ok(response.body.includes(`<soap:Envelope xmlns:soap="${envNs(sentAs)}">`))
    t.assert.ok(response.body.includes(`<upg:Upgrade xmlns:upg="${SOAP12_ENV}"><upg:SupportedEnvelope qname="e12:Envelope" xmlns:e12="${SOAP12_ENV}"/><upg:SupportedEnvelope qname="e11:Envelope" xmlns:e11="${SOAP11_ENV}"/></upg:Upgrade>`))
    t.assert.ok(response.body.includes(sentAs === '1.1' ? '<faultcode>soap:VersionMismatch</faultcode>' : '<soap:Value>soap:VersionMismatch</soap:Value>'))
    await assertValidEnvelope(t, response.body, sentAs)
  })
}

// -------------------------------------------------------- Sender: the envelope

test('docs/protocol.md "Faults": env:encodingStyle on a SOAP 1.2 Envelope, Header or Body (Part 1 §5.1.1, T28, T72) → Sender', async (t: TestContext) => {
  const app = await buildApp(t)
  const style = ' s:encodingStyle="http://www.w3.org/2003/05/soap-encoding"'
  const bodies = [
    envelope('1.2', CALL, undefined, style),
    `<s:Envelope xmlns:s="${SOAP12_ENV}"><s:Header${style}/><s:Body>${CALL}</s:Body></s:Envelope>`,
    `<s:Envelope xmlns:s="${SOAP12_ENV}"><s:Body${style}>${CALL}</s:Body></s:Envelope>`
  ]
  for (const body of bodies) {
    const response = await post(app, '1.2', body)
    t.assert.strictEqual(response.statusCode, 400)
    t.assert.match(response.body, /<soap:Value>soap:Sender<\/soap:Value>.*encodingStyle is not allowed/)
  }
  // allowed on a header block and in the payload
  const fine = `<s:Envelope xmlns:s="${SOAP12_ENV}"><s:Header><h:A xmlns:h="urn:h"${style}/></s:Header><s:Body><m:Add xmlns:m="urn:m"${style}/></s:Body></s:Envelope>`
  t.assert.strictEqual((await post(app, '1.2', fine)).statusCode, 200)
})

test('docs/protocol.md "Be liberal": encodingStyle on a SOAP 1.1 Envelope (SOAP::Lite) is accepted', async (t: TestContext) => {
  const app = await buildApp(t)
  const response = await post(app, '1.1', envelope('1.1', CALL, undefined, ' s:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"'))
  t.assert.strictEqual(response.statusCode, 200)
})

test('docs/protocol.md "Faults": an unqualified header block (Part 1 §5.2.1) → Sender / Client', async (t: TestContext) => {
  const app = await buildApp(t)
  for (const version of ['1.1', '1.2'] as const) {
    const response = await post(app, version, envelope(version, CALL, '<Token>x</Token>'))
    t.assert.strictEqual(response.statusCode, version === '1.2' ? 400 : 500)
    t.assert.match(response.body, version === '1.2' ? /soap:Sender.*header block Token is not namespace-qualified/ : /soap:Client.*header block Token is not namespace-qualified/)
  }
})

for (const [version, value] of [['1.2', 'yes'], ['1.2', 'TRUE'], ['1.2', ''], ['1.2', '\u00A0true'], ['1.2', '1\u3000'], ['1.2', '\uFEFF1'], ['1.1', 'true'], ['1.1', 'false'], ['1.1', '2'], ['1.1', '\u00A01']] as const) {
  test(`docs/protocol.md "Faults": mustUnderstand="${value}" in SOAP ${version} (Part 1 §5.2.3, T23) → Sender / Client`, async (t: TestContext) => {
    const app = await buildApp(t, { understoodHeaders: ['{urn:h}A'] })
    const header = `<h:A xmlns:h="urn:h" s:mustUnderstand="${value}"/>`
    const response = await post(app, version, envelope(version, CALL, header))
    t.assert.strictEqual(response.statusCode, version === '1.2' ? 400 : 500)
    t.assert.match(response.body, /invalid mustUnderstand value/)
  })
}

test('docs/protocol.md "Faults": a relay value that is not a boolean (SOAP 1.2) → Sender', async (t: TestContext) => {
  const app = await buildApp(t)
  const response = await post(app, '1.2', envelope('1.2', CALL, '<h:A xmlns:h="urn:h" s:relay="maybe"/>'))
  t.assert.strictEqual(response.statusCode, 400)
  t.assert.match(response.body, /invalid relay value/)
})

// -------------------------------------------------------------- MustUnderstand

test('docs/protocol.md "Faults": not-understood mustUnderstand blocks → one MustUnderstand fault with a NotUnderstood block each (1.2)', async (t: TestContext) => {
  let ran = false
  const app = Fastify()
  app.register(soap, {
    routes: async (scope) => {
      scope.addHook('preHandler', async () => { ran = true })
      scope.post('/echo', async () => { ran = true })
    }
  })
  t.after(() => app.close())
  const header = '<a:One xmlns:a="urn:a" s:mustUnderstand="true"/><b:Two xmlns:b="urn:b" s:mustUnderstand=" 1 "/><c:Three xmlns:c="urn:c" s:mustUnderstand="false"/>'
  const response = await post(app, '1.2', envelope('1.2', CALL, header))
  t.assert.strictEqual(response.statusCode, 500)
  t.assert.strictEqual(ran, false, 'no hook or handler ran')
  await assertValidEnvelope(t, response.body, '1.2')
  t.assert.ok(response.body.includes('<soap:Header><soap:NotUnderstood qname="nu:One" xmlns:nu="urn:a"/><soap:NotUnderstood qname="nu:Two" xmlns:nu="urn:b"/></soap:Header>'))
  t.assert.ok(response.body.includes('<soap:Value>soap:MustUnderstand</soap:Value>'))
  t.assert.ok(!response.body.includes('Three'))
})

test('docs/protocol.md "Faults": MustUnderstand in SOAP 1.1 (§4.2.3): faultcode, no NotUnderstood block', async (t: TestContext) => {
  const app = await buildApp(t)
  const response = await post(app, '1.1', envelope('1.1', CALL, '<a:One xmlns:a="urn:a" s:mustUnderstand="1"/>'))
  t.assert.strictEqual(response.statusCode, 500)
  t.assert.ok(response.body.includes('<faultcode>soap:MustUnderstand</faultcode>'))
  t.assert.ok(!response.body.includes('NotUnderstood'))
  await assertValidEnvelope(t, response.body, '1.1')
})

test('docs/protocol.md "Faults": blocks for role none, or a role this node does not play, are never checked (T19, T29)', async (t: TestContext) => {
  const app = await buildApp(t, { roles: ['urn:my-role'] })
  const blocks = (version: '1.1' | '1.2', role: string) =>
    `<a:One xmlns:a="urn:a" s:mustUnderstand="${version === '1.1' ? '1' : 'true'}" s:${version === '1.1' ? 'actor' : 'role'}="${role}"/>`
  const cases: Array<['1.1' | '1.2', string, number]> = [
    ['1.2', 'http://www.w3.org/2003/05/soap-envelope/role/none', 200],
    ['1.2', 'urn:someone-else', 200],
    ['1.2', 'http://www.w3.org/2003/05/soap-envelope/role/next', 500],
    ['1.2', 'http://www.w3.org/2003/05/soap-envelope/role/ultimateReceiver', 500],
    ['1.2', 'urn:my-role', 500],
    ['1.1', 'urn:someone-else', 200],
    ['1.1', 'http://schemas.xmlsoap.org/soap/actor/next', 500],
    ['1.1', 'urn:my-role', 500]
  ]
  for (const [version, role, status] of cases) {
    const response = await post(app, version, envelope(version, CALL, blocks(version, role)))
    t.assert.strictEqual(response.statusCode, status, `${version} ${role}`)
  }
})

test('docs/protocol.md "Faults": a block named in understoodHeaders is understood', async (t: TestContext) => {
  const app = await buildApp(t, { understoodHeaders: ['{urn:a}One'] })
  const response = await post(app, '1.2', envelope('1.2', CALL, '<a:One xmlns:a="urn:a" s:mustUnderstand="true"/>'))
  t.assert.strictEqual(response.statusCode, 200)
  t.assert.deepStrictEqual(decodedOf(response.body).headers, ['{urn:a}One'])
})

test('docs/protocol.md "Faults": mustUnderstand values are xs:boolean, whitespace (space, tab, CR, LF) collapsed', async (t: TestContext) => {
  const app = await buildApp(t, { understoodHeaders: ['{urn:h}A'] })
  for (const [version, value] of [['1.2', ' true '], ['1.2', '\t0\n'], ['1.1', ' 1 '], ['1.1', '\r\n0']] as const) {
    const response = await post(app, version, envelope(version, CALL, `<h:A xmlns:h="urn:h" s:mustUnderstand="${value}"/>`))
    t.assert.strictEqual(response.statusCode, 200, JSON.stringify(value))
  }
})

test('docs/protocol.md "Faults": the envelope\'s own faults come before any hook, a parent scope\'s included, and keep the connection open', async (t: TestContext) => {
  const app = Fastify()
  const ran: string[] = []
  app.addHook('preValidation', async (request) => { ran.push(`root preValidation ${request.url}`) })
  app.addHook('preHandler', async (request) => { ran.push(`root preHandler ${request.url}`) })
  await app.register(soap, { routes: echoRoutes })
  t.after(() => app.close())
  const port = await listen(app)
  const bodies = [
    envelope('1.2', CALL, '<a:One xmlns:a="urn:a" s:mustUnderstand="true"/>'),
    envelope('1.2', CALL, '<a:One xmlns:a="urn:a" s:mustUnderstand="maybe"/>'),
    envelope('1.1', CALL)
  ]
  const requests = bodies.map((body) => `POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/soap+xml\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`)
  const answers = await rawExchange(port, requests.join(''), 3)
  t.assert.deepStrictEqual(answers.map((a) => a.status), [500, 400, 500])
  t.assert.match(answers[0].body.toString(), /soap:MustUnderstand/)
  t.assert.match(answers[1].body.toString(), /soap:Sender/)
  t.assert.match(answers[2].body.toString(), /soap:VersionMismatch/)
  t.assert.ok(answers.every((a) => a.headers.connection !== 'close'), 'the connection stays open')
  t.assert.deepStrictEqual(ran, [])
})

test('docs/protocol.md "Faults": a fault with no reason text still has one (empty) Text, and validates', async (t: TestContext) => {
  for (const version of ['1.1', '1.2'] as const) {
    const app = faultApp(t, () => { throw new SoapFault({ code: 'Sender', reason: [] }) })
    const response = await post(app, version, envelope(version, CALL), { url: '/fault' })
    await assertValidEnvelope(t, response.body, version, response.body)
    t.assert.ok(response.body.includes(version === '1.2' ? '<soap:Text xml:lang="en"></soap:Text>' : '<faultstring></faultstring>'))
  }
})

test('docs/protocol.md "Faults": an error on a GET route of the SOAP scope (no media type) is a SOAP 1.2 fault', async (t: TestContext) => {
  const app = Fastify()
  await app.register(soap, { routes: async (scope) => { scope.get('/g', async () => { throw new Error('x') }) } })
  t.after(() => app.close())
  const response = await app.inject({ method: 'GET', url: '/g' })
  t.assert.strictEqual(response.statusCode, 500)
  t.assert.strictEqual(response.headers['content-type'], 'application/soap+xml; charset=utf-8')
  await assertValidEnvelope(t, response.body, '1.2')
})

test('the schema check itself refuses broken faults (so the checks above can fail)', async (t: TestContext) => {
  const fault = '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope"><soap:Body><soap:Fault><soap:Code><soap:Value>soap:Sender</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">x</soap:Text></soap:Reason></soap:Fault></soap:Body></soap:Envelope>'
  const valid = async (xml: string, version: '1.1' | '1.2'): Promise<boolean | undefined> => (await validateEnvelope(t, xml, version))?.valid
  const checked = await valid(fault, '1.2')
  if (checked === undefined) return
  t.assert.strictEqual(checked, true)
  t.assert.strictEqual(await valid(fault.replace('soap:Sender', 'soap:Nope'), '1.2'), false, 'an unknown code')
  t.assert.strictEqual(await valid(fault.replace(' xml:lang="en"', ''), '1.2'), false, 'a Text without xml:lang')
  t.assert.strictEqual(await valid(fault, '1.1'), false, 'a 1.2 envelope is no 1.1 envelope')
  const fault11 = '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>x</faultstring></soap:Fault></soap:Body></soap:Envelope>'
  t.assert.strictEqual(await valid(fault11, '1.1'), true)
  t.assert.strictEqual(await valid(fault11.replace('<faultstring>x</faultstring>', ''), '1.1'), false, 'no faultstring')
})

test('docs/faults.md: a SoapFault thrown by an onRequest hook is a fault in the version the Content-Type names (SOAP 1.2 when it names none)', async (t: TestContext) => {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap, {
    routes: async (scope) => {
      scope.addHook('onRequest', async (request) => {
        if (request.headers['x-api-key'] !== 'k') throw new SoapFault({ code: 'Sender', reason: 'missing or wrong API key' })
      })
      scope.post('/x', async (_request, reply) => reply.soap())
    }
  })
  const v11 = await post(app, '1.1', envelope('1.1', CALL), { url: '/x' })
  t.assert.strictEqual(v11.statusCode, 500)
  t.assert.match(v11.body, /<faultcode>soap:Client<\/faultcode><faultstring>missing or wrong API key<\/faultstring>/)
  await assertValidEnvelope(t, v11.body, '1.1')
  const v12 = await post(app, '1.2', envelope('1.2', CALL), { url: '/x' })
  t.assert.strictEqual(v12.statusCode, 400)
  t.assert.match(v12.body, /<soap:Value>soap:Sender<\/soap:Value>/)
  await assertValidEnvelope(t, v12.body, '1.2')
  const none = await app.inject({ method: 'POST', url: '/x', payload: 'x' })
  t.assert.strictEqual(none.statusCode, 400)
  t.assert.match(none.headers['content-type'] as string, /^application\/soap\+xml/)
  const passed = await post(app, '1.2', envelope('1.2', CALL), { url: '/x', headers: { 'x-api-key': 'k' } })
  t.assert.strictEqual(passed.statusCode, 200)
})

test('docs/faults.md, SOAP 1.1 §4.4.1: SoapFault `code11` sends a qualified faultcode of its own; it needs a namespace other than the envelope\'s', async (t: TestContext) => {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap, {
    routes: async (r) => {
      r.post('/f', async () => { throw new SoapFault({ code: 'Sender', code11: '{urn:x}Mine', subcodes: ['{urn:x}Mine'], reason: 'mine' }) })
    }
  })
  const v11 = await post(app, '1.1', envelope('1.1'), { url: '/f' })
  t.assert.match(v11.body, /<faultcode xmlns:fc="urn:x">fc:Mine<\/faultcode>/)
  await assertValidEnvelope(t, v11.body, '1.1')
  const v12 = await post(app, '1.2', envelope('1.2'), { url: '/f' })
  t.assert.match(v12.body, /<soap:Value>soap:Sender<\/soap:Value><soap:Subcode><soap:Value xmlns:sc0="urn:x">sc0:Mine/)
  t.assert.throws(() => new SoapFault({ reason: 'x', code11: 'Mine' }), errorCodes.SOAP_ERR_FAULT_INVALID)
  t.assert.throws(() => new SoapFault({ reason: 'x', code11: { namespace: 'http://schemas.xmlsoap.org/soap/envelope/', localName: 'Client' } }), errorCodes.SOAP_ERR_FAULT_INVALID)
})

/** A service whose Op throws the fault of its input's code, with the given `faultStatus`. */
function statusService (path: string, faultStatus?: 'spec' | 500): Record<string, unknown> {
  return {
    path,
    namespace: 'urn:example:status',
    name: 'Status',
    ...(faultStatus === undefined ? {} : { faultStatus }),
    operations: {
      Op: {
        input: { type: 'object', properties: { code: { type: 'string' } }, required: ['code'], additionalProperties: false },
        output: { type: 'object', properties: {}, additionalProperties: false },
        async handler ({ code }: { code: 'Sender' | 'Receiver' }) { throw new SoapFault({ code, reason: code }) }
      }
    }
  }
}
const opCall = (code: string): string => `<s:Op xmlns:s="urn:example:status"><s:code>${code}</s:code></s:Op>`

test('docs/faults.md "Clients and fault status codes": faultStatus: 500 answers every fault 500 (a SOAP 1.2 Sender fault, a failed validation, an unknown operation), plugin-wide, for services, contracts and routes; decoding errors stay 400', async (t: TestContext) => {
  const app = Fastify({ logger: false })
  t.after(() => app.close())
  await app.register(soap, { faultStatus: 500, routes: async (scope) => { scope.post('/route', async () => { throw new SoapFault({ code: 'Sender', reason: 'no' }) }) } })
  app.soap.service(statusService('/plugin') as never)
  app.soap.contract({ path: '/contract', document: contractWsdl({}), operations: { Op: async () => { throw new SoapFault({ code: 'Sender', reason: 'no' }) } } })
  for (const version of ['1.1', '1.2'] as const) {
    for (const [url, body] of [['/plugin', opCall('Sender')], ['/plugin', opCall('Receiver')], ['/plugin', '<s:Op xmlns:s="urn:example:status"/>'], ['/plugin', '<s:Nope xmlns:s="urn:example:status"/>'], ['/route', CALL], ['/contract', `<k:Op xmlns:k="${CONTRACT_NS}"><k:a>x</k:a></k:Op>`]]) {
      const response = await post(app, version, envelope(version, body), { url })
      t.assert.strictEqual(response.statusCode, 500, `${url} ${body} in SOAP ${version}`)
      t.assert.match(response.body, /<soap:Fault>/)
    }
    const sender = await post(app, version, envelope(version, opCall('Sender')), { url: '/plugin' })
    t.assert.match(sender.body, version === '1.2' ? /<soap:Value>soap:Sender<\/soap:Value>/ : /<faultcode>soap:Client<\/faultcode>/, 'the fault keeps its code')
    const undecodable = await post(app, version, '<soap:Envelope', { url: '/plugin' })
    t.assert.strictEqual(undecodable.statusCode, 400, 'an undecodable request is no fault: 400, empty')
  }
})

test('docs/faults.md "Clients and fault status codes": a service\'s and a contract\'s faultStatus wins over the plugin\'s; the default is the spec\'s (400 for a SOAP 1.2 Sender fault)', async (t: TestContext) => {
  const app = Fastify({ logger: false })
  t.after(() => app.close())
  await app.register(soap)
  app.soap.service(statusService('/default') as never)
  app.soap.service(statusService('/own', 500) as never)
  app.soap.contract({ path: '/contract', document: contractWsdl({}), faultStatus: 500, operations: { Op: async () => { throw new SoapFault({ code: 'Sender', reason: 'no' }) } } })
  await app.register(async (child) => {
    await child.register(soap, { faultStatus: 500 })
    child.soap.service(statusService('/spec', 'spec') as never)
  }, { prefix: '/child' })
  const status = async (url: string, body: string): Promise<number> => (await post(app, '1.2', envelope('1.2', body), { url })).statusCode
  t.assert.strictEqual(await status('/default', opCall('Sender')), 400)
  t.assert.strictEqual(await status('/default', opCall('Receiver')), 500)
  t.assert.strictEqual(await status('/own', opCall('Sender')), 500)
  t.assert.strictEqual(await status('/contract', `<k:Op xmlns:k="${CONTRACT_NS}"><k:a>x</k:a></k:Op>`), 500)
  t.assert.strictEqual(await status('/child/spec', opCall('Sender')), 400, 'the service\'s \'spec\' over its registration\'s 500')
})

test('docs/faults.md "Clients and fault status codes": a faultStatus other than \'spec\' or 500 refuses the service at startup', async (t: TestContext) => {
  for (const faultStatus of [400, '500', true]) {
    const app = Fastify({ logger: false })
    t.after(() => app.close())
    await app.register(soap)
    app.soap.service({ ...statusService('/bad'), faultStatus } as never)
    await t.assert.rejects(async () => { await app.ready() }, (err: Error & { code?: string }) => {
      t.assert.strictEqual(err.code, 'SOAP_ERR_SERVICE_INVALID')
      t.assert.match(err.message, /"faultStatus" must be 'spec' or 500/)
      return true
    })
  }
})
