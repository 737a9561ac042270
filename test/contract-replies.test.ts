/**
 * Contract first, serving a contract as it is (docs/contract-first.md
 * "Options" and "What is served"): operations left without a handler
 * (`unimplemented: 'fault'`), replies with header blocks (`call.replyHeaders()`),
 * and replies whose output message has no Body part. Each through
 * `fastify.inject` in SOAP 1.1 and 1.2; the OCPP 1.6 Central System is read
 * from the shared fixtures.
 */
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify'
import soap, { readContract } from '../lib/index'
import { envelope, MEDIA, sharedFixture } from './helper'
import { CLIENTS, requireClient, runClient } from './interop'

const OCPP = 'urn://Ocpp/Cs/2015/10/'

/** An app that keeps its log lines, parsed. */
async function logged (t: TestContext): Promise<{ app: FastifyInstance, lines: Array<Record<string, unknown>> }> {
  const lines: Array<Record<string, unknown>> = []
  const app = Fastify({ logger: { level: 'info', stream: { write: (line: string) => { lines.push(JSON.parse(line) as Record<string, unknown>) } } } })
  t.after(() => app.close())
  await app.register(soap)
  return { app, lines }
}

test('docs/contract-first.md "Options": unimplemented: "fault" serves the OCPP 1.6 Central System with one handler; the others answer a Receiver fault saying they are not implemented, in the request\'s version', async (t: TestContext) => {
  const ocpp = sharedFixture(t, 'wsdl', 'ocpp16')
  if (ocpp === undefined) return
  const { app, lines } = await logged(t)
  app.soap.contract({
    path: '/ocpp',
    wsdl: join(ocpp, 'OCPP_CentralSystemService_1.6.wsdl'),
    unimplemented: 'fault',
    operations: { Heartbeat: async () => ({ currentTime: '2026-11-25T03:00:00Z' }) }
  })
  await app.ready()
  const notice = lines.find((l) => Array.isArray(l.unimplemented))
  t.assert.ok(notice !== undefined, 'a log line names the operations left unimplemented')
  t.assert.strictEqual(notice.level, 30)
  t.assert.ok((notice.unimplemented as string[]).includes('Authorize') && (notice.unimplemented as string[]).includes('StopTransaction'))
  t.assert.ok(!(notice.unimplemented as string[]).includes('Heartbeat'))
  t.assert.match(notice.msg as string, /Authorize.*not implemented/)
  const identity = `<o:chargeBoxIdentity xmlns:o="${OCPP}">CP1</o:chargeBoxIdentity>`
  for (const version of ['1.1', '1.2'] as const) {
    const heartbeat = await app.inject({ method: 'POST', url: '/ocpp', headers: { 'content-type': MEDIA[version] }, payload: envelope(version, `<o:heartbeatRequest xmlns:o="${OCPP}"/>`, identity) })
    t.assert.strictEqual(heartbeat.statusCode, 200, heartbeat.body)
    t.assert.match(heartbeat.body, /<tns:currentTime>2026-11-25T03:00:00Z<\/tns:currentTime>/)
    const authorize = await app.inject({ method: 'POST', url: '/ocpp', headers: { 'content-type': MEDIA[version] }, payload: envelope(version, `<o:authorizeRequest xmlns:o="${OCPP}"><o:idTag>T1</o:idTag></o:authorizeRequest>`, identity) })
    t.assert.strictEqual(authorize.statusCode, 500, authorize.body)
    if (version === '1.1') {
      t.assert.match(authorize.body, /<faultcode>soap:Server<\/faultcode><faultstring>The operation Authorize is not implemented<\/faultstring>/)
    } else {
      t.assert.match(authorize.body, /<soap:Value>soap:Receiver<\/soap:Value>/)
      t.assert.match(authorize.body, /<soap:Text xml:lang="en">The operation Authorize is not implemented<\/soap:Text>/)
    }
  }
  // The served WSDL is the one given: every operation is in it.
  t.assert.match((await app.inject('/ocpp?wsdl')).body, /<wsdl:operation name="StopTransaction">/)
})

test('docs/contract-first.md "Options": without unimplemented (or with "error") an operation left out is a startup error; another value is SOAP_ERR_CONTRACT_INVALID', async (t: TestContext) => {
  const ocpp = sharedFixture(t, 'wsdl', 'ocpp16')
  if (ocpp === undefined) return
  for (const unimplemented of [undefined, 'error', 'stub', true]) {
    const app = Fastify()
    t.after(() => app.close())
    await app.register(soap)
    app.soap.contract({ path: '/ocpp', wsdl: join(ocpp, 'OCPP_CentralSystemService_1.6.wsdl'), unimplemented: unimplemented as 'error', operations: { Heartbeat: async () => ({ currentTime: '2026-11-25T03:00:00Z' }) } })
    const err = await app.ready().then(() => undefined, (e: unknown) => e as { code: string, message: string })
    t.assert.strictEqual(err?.code, 'SOAP_ERR_CONTRACT_INVALID', String(unimplemented))
    t.assert.match(err.message, unimplemented === undefined || unimplemented === 'error'
      ? /no handler for Authorize, BootNotification, .*StopTransaction: every operation of the binding needs one, unless "unimplemented" is "fault" or "sample"/
      : /"unimplemented" must be "error" \(the default\), "fault" or "sample"/)
  }
})

// ------------------------------------------------- output header blocks ---

const R = 'urn:r'

/**
 * Four operations of one portType: Greet answers a Body element and two
 * header blocks (one complex, a part of its own message; one of simple type,
 * of another message); Ack only a header block (its output message has no
 * part); Touch nothing (an output message with no part and no header); Note
 * is one-way.
 */
const REPLIES = `<?xml version="1.0" encoding="UTF-8"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:r="${R}" xmlns:tns="urn:replies" targetNamespace="urn:replies">
  <wsdl:types>
    <xs:schema targetNamespace="${R}" elementFormDefault="qualified">
      <xs:element name="Greet"><xs:complexType><xs:sequence><xs:element name="name" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
      <xs:element name="GreetResponse"><xs:complexType><xs:sequence><xs:element name="text" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
      <xs:element name="Session"><xs:complexType><xs:sequence><xs:element name="id" type="xs:string"/><xs:element name="ttl" type="xs:int" minOccurs="0"/></xs:sequence><xs:attribute name="scope" type="xs:string"/></xs:complexType></xs:element>
      <xs:element name="Trace" type="xs:string"/>
      <xs:element name="Ack"><xs:complexType><xs:sequence><xs:element name="id" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
      <xs:element name="Receipt"><xs:complexType><xs:sequence><xs:element name="at" type="xs:dateTime"/></xs:sequence></xs:complexType></xs:element>
      <xs:element name="Touch"><xs:complexType/></xs:element>
      <xs:element name="Note"><xs:complexType><xs:sequence><xs:element name="text" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
    </xs:schema>
  </wsdl:types>
  <wsdl:message name="GreetIn"><wsdl:part name="p" element="r:Greet"/></wsdl:message>
  <wsdl:message name="GreetOut"><wsdl:part name="p" element="r:GreetResponse"/><wsdl:part name="session" element="r:Session"/></wsdl:message>
  <wsdl:message name="TraceHeader"><wsdl:part name="trace" element="r:Trace"/></wsdl:message>
  <wsdl:message name="AckIn"><wsdl:part name="p" element="r:Ack"/></wsdl:message>
  <wsdl:message name="AckOut"/>
  <wsdl:message name="ReceiptHeader"><wsdl:part name="receipt" element="r:Receipt"/></wsdl:message>
  <wsdl:message name="TouchIn"><wsdl:part name="p" element="r:Touch"/></wsdl:message>
  <wsdl:message name="TouchOut"/>
  <wsdl:message name="NoteIn"><wsdl:part name="p" element="r:Note"/></wsdl:message>
  <wsdl:portType name="PT">
    <wsdl:operation name="Greet"><wsdl:input message="tns:GreetIn"/><wsdl:output message="tns:GreetOut"/></wsdl:operation>
    <wsdl:operation name="Ack"><wsdl:input message="tns:AckIn"/><wsdl:output message="tns:AckOut"/></wsdl:operation>
    <wsdl:operation name="Touch"><wsdl:input message="tns:TouchIn"/><wsdl:output message="tns:TouchOut"/></wsdl:operation>
    <wsdl:operation name="Note"><wsdl:input message="tns:NoteIn"/></wsdl:operation>
  </wsdl:portType>
  <wsdl:binding name="B" type="tns:PT"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <wsdl:operation name="Greet"><soap:operation soapAction="urn:replies/Greet"/><wsdl:input><soap:body use="literal"/></wsdl:input>
      <wsdl:output><soap:body use="literal" parts="p"/><soap:header message="tns:GreetOut" part="session" use="literal"/><soap:header message="tns:TraceHeader" part="trace" use="literal"/></wsdl:output></wsdl:operation>
    <wsdl:operation name="Ack"><soap:operation soapAction="urn:replies/Ack"/><wsdl:input><soap:body use="literal"/></wsdl:input>
      <wsdl:output><soap:body use="literal"/><soap:header message="tns:ReceiptHeader" part="receipt" use="literal"/></wsdl:output></wsdl:operation>
    <wsdl:operation name="Touch"><soap:operation soapAction="urn:replies/Touch"/><wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation>
    <wsdl:operation name="Note"><soap:operation soapAction="urn:replies/Note"/><wsdl:input><soap:body use="literal"/></wsdl:input></wsdl:operation>
  </wsdl:binding>
  <wsdl:service name="Replies"><wsdl:port name="P" binding="tns:B"><soap:address location="http://example.invalid/r"/></wsdl:port></wsdl:service>
</wsdl:definitions>`

test('docs/contract-first.md "What is served": header parts of the output are the operation\'s outputHeaders; an output with no Body part has them (none for an empty message), and no output schema', async (t: TestContext) => {
  const contract = await readContract({ document: REPLIES })
  const { Greet, Ack, Touch, Note } = contract.operations
  t.assert.deepStrictEqual(Object.keys(Greet.outputHeaders?.properties as object), ['Session', 'Trace'])
  t.assert.strictEqual((Greet.outputHeaders?.properties as Record<string, { xml: { namespace: string } }>).Trace.xml.namespace, R)
  t.assert.strictEqual(Greet.outputHeaders?.required, undefined)
  t.assert.deepStrictEqual((Greet.output?.xml as { name: string }).name, 'GreetResponse')
  t.assert.strictEqual(Ack.output, undefined)
  t.assert.deepStrictEqual(Object.keys(Ack.outputHeaders?.properties as object), ['Receipt'])
  t.assert.strictEqual(Touch.output, undefined)
  t.assert.deepStrictEqual(Touch.outputHeaders, { type: 'object', properties: {}, additionalProperties: false })
  t.assert.strictEqual(Note.output, undefined)
  t.assert.strictEqual(Note.outputHeaders, undefined)
})

async function replies (t: TestContext, operations: Record<string, unknown>, options: Record<string, unknown> = {}): Promise<FastifyInstance> {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.contract({ path: '/r', document: REPLIES, operations, ...options })
  await app.ready()
  return app
}

async function call (app: FastifyInstance, version: '1.1' | '1.2', body: string): Promise<LightMyRequestResponse> {
  return await app.inject({ method: 'POST', url: '/r', headers: { 'content-type': MEDIA[version] }, payload: envelope(version, body) })
}

const GREET = `<r:Greet xmlns:r="${R}"><r:name>Ann</r:name></r:Greet>`

test('docs/contract-first.md "What is served": call.replyHeaders() gives the output header blocks, written into the reply\'s Header (each declaring its namespaces) beside the Body', async (t: TestContext) => {
  const app = await replies(t, {
    Greet: async (input: { name: string }, c: { replyHeaders: (v: unknown) => void }) => {
      c.replyHeaders({ Trace: 'ignored: replaced by the next call' })
      c.replyHeaders({ Session: { scope: 'user', id: `s-${input.name}`, ttl: 60 }, Trace: 'a & b' })
      return { text: `hi ${input.name}` }
    },
    Ack: async () => {},
    Touch: async () => {},
    Note: async () => {}
  })
  for (const version of ['1.1', '1.2'] as const) {
    const res = await call(app, version, GREET)
    t.assert.strictEqual(res.statusCode, 200, res.body)
    t.assert.match(res.body, new RegExp('<soap:Header><tns:Session xmlns:tns="urn:r" scope="user"><tns:id>s-Ann</tns:id><tns:ttl>60</tns:ttl></tns:Session>' +
      '<tns:Trace xmlns:tns="urn:r">a &amp; b</tns:Trace></soap:Header><soap:Body><tns:GreetResponse xmlns:tns="urn:r"><tns:text>hi Ann</tns:text></tns:GreetResponse></soap:Body>'))
  }
})

test('docs/contract-first.md "What is served": output header blocks are optional, checked against their schema before they are written (a Receiver fault), and not written when validateOutput is false', async (t: TestContext) => {
  let given: unknown
  const handlers = {
    Greet: async (_input: unknown, c: { replyHeaders: (v: unknown) => void }) => { if (given !== undefined) c.replyHeaders(given); return { text: 'x' } },
    Ack: async () => {},
    Touch: async () => {},
    Note: async () => {}
  }
  const app = await replies(t, handlers)
  for (const version of ['1.1', '1.2'] as const) {
    given = undefined
    const none = await call(app, version, GREET)
    t.assert.strictEqual(none.statusCode, 200)
    t.assert.doesNotMatch(none.body, /Header/)
    given = { Session: { id: 5 } }
    const bad = await call(app, version, GREET)
    t.assert.strictEqual(bad.statusCode, 500)
    t.assert.match(bad.body, version === '1.1' ? /<faultcode>soap:Server<\/faultcode>/ : /<soap:Value>soap:Receiver<\/soap:Value>/)
    t.assert.doesNotMatch(bad.body, /GreetResponse/)
    for (const wrong of [[1], 'text', null]) {
      given = wrong
      t.assert.strictEqual((await call(app, version, GREET)).statusCode, 500, JSON.stringify(wrong))
    }
  }
  // Unchecked, a value the schema's XML cannot carry is still refused by the writer.
  const unchecked = await replies(t, handlers, { validateOutput: false })
  given = { Session: { id: 's', ttl: 'many' } }
  const written = await call(unchecked, '1.1', GREET)
  t.assert.strictEqual(written.statusCode, 500, written.body)
  given = [1]
  t.assert.strictEqual((await call(unchecked, '1.1', GREET)).statusCode, 500)
  given = { Trace: 'ok' }
  t.assert.match((await call(unchecked, '1.1', GREET)).body, /<soap:Header><tns:Trace xmlns:tns="urn:r">ok<\/tns:Trace><\/soap:Header>/)
})

test('docs/contract-first.md "What is served": an output message with no Body part is answered with an empty Body (and its header blocks); a one-way operation is still 202', async (t: TestContext) => {
  let returned: unknown
  const app = await replies(t, {
    Greet: async () => ({ text: 'x' }),
    Ack: async (input: { id: number }, c: { replyHeaders: (v: unknown) => void }) => { c.replyHeaders({ Receipt: { at: `2026-11-25T03:0${input.id}:00Z` } }) },
    Touch: async () => returned,
    Note: async () => {}
  })
  for (const version of ['1.1', '1.2'] as const) {
    const ack = await call(app, version, `<r:Ack xmlns:r="${R}"><r:id>5</r:id></r:Ack>`)
    t.assert.strictEqual(ack.statusCode, 200, ack.body)
    t.assert.match(ack.body, /<soap:Header><tns:Receipt xmlns:tns="urn:r"><tns:at>2026-11-25T03:05:00Z<\/tns:at><\/tns:Receipt><\/soap:Header><soap:Body><\/soap:Body><\/soap:Envelope>$/)
    for (const value of [undefined, { ignored: true }]) {
      returned = value
      const touch = await call(app, version, `<r:Touch xmlns:r="${R}"/>`)
      t.assert.strictEqual(touch.statusCode, 200, touch.body)
      t.assert.match(touch.headers['content-type'] as string, version === '1.1' ? /^text\/xml/ : /^application\/soap\+xml/)
      t.assert.match(touch.body, /<soap:Envelope xmlns:soap="[^"]+"><soap:Body><\/soap:Body><\/soap:Envelope>$/)
    }
    const note = await call(app, version, `<r:Note xmlns:r="${R}"><r:text>t</r:text></r:Note>`)
    t.assert.strictEqual(note.statusCode, 202)
    t.assert.strictEqual(note.body, '')
  }
})

test('docs/contract-first.md "What is served", zeep: a reply with header blocks beside its Body, one with a header block and an empty Body, and an empty envelope are each accepted and decoded', async (t: TestContext) => {
  if (!requireClient(t, 'zeep (python3-zeep)', '/usr/bin/python3', ['-c', 'import zeep'])) return
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  const seen: unknown[] = []
  app.soap.contract({
    path: '/r',
    document: REPLIES,
    operations: {
      Greet: async (input: { name: string }, c: { replyHeaders: (v: unknown) => void }) => {
        seen.push(input)
        c.replyHeaders({ Session: { scope: 'user', id: 's1', ttl: 60 }, Trace: 't-1' })
        return { text: `hi ${input.name}` }
      },
      Ack: async (input: { id: number }, c: { replyHeaders: (v: unknown) => void }) => { seen.push(input); c.replyHeaders({ Receipt: { at: '2026-11-25T03:00:00Z' } }) },
      Touch: async (input: unknown) => { seen.push(input) }
    },
    unimplemented: 'fault'
  })
  const url = await app.listen({ host: '127.0.0.1', port: 0 })
  const zeep = async (operation: string, args: Record<string, unknown>): Promise<Record<string, unknown>> =>
    await runClient('/usr/bin/python3', [join(CLIENTS, 'contract_zeep.py'), JSON.stringify({ wsdl: `${url}/r?wsdl`, service: 'Replies', port: 'P', operation, args })])
  const greet = await zeep('Greet', { name: 'Ann' })
  t.assert.strictEqual(greet.error, undefined, String(greet.error))
  t.assert.deepStrictEqual(greet.result, { header: { session: { scope: 'user', id: 's1', ttl: 60 }, trace: 't-1' }, body: { text: 'hi Ann' } })
  const ack = await zeep('Ack', { id: 3 })
  t.assert.strictEqual(ack.error, undefined, String(ack.error))
  t.assert.strictEqual(ack.result, null)
  t.assert.match(ack.received as string, /<soap:Header><tns:Receipt xmlns:tns="urn:r"><tns:at>2026-11-25T03:00:00Z<\/tns:at><\/tns:Receipt><\/soap:Header><soap:Body\/>/)
  const touch = await zeep('Touch', {})
  t.assert.strictEqual(touch.error, undefined, String(touch.error))
  t.assert.strictEqual(touch.result, null)
  t.assert.deepStrictEqual(seen, [{ name: 'Ann' }, { id: 3 }, {}])
  t.assert.deepStrictEqual([greet.warnings, ack.warnings, touch.warnings], [[], [], []])
})

test('docs/contract-first.md "What is served": the SOAP 1.2 test suite\'s document binding (outputs of header blocks only, inputs with an empty Body) is served: echoOk echoes its header block as responseOk, emptyBody answers an empty Body', async (t: TestContext) => {
  const suite = sharedFixture(t, 'wsdl', 'soap12-testsuite')
  if (suite === undefined) return
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.contract({
    path: '/suite',
    wsdl: join(suite, 'soap12-test.wsdl'),
    binding: 'Soap12TestDocBinding',
    operations: {
      echoOk: async (_input: unknown, c: { headers: { echoOk?: string }, replyHeaders: (v: unknown) => void }) => { c.replyHeaders({ responseOk: c.headers.echoOk ?? '' }) },
      emptyBody: async () => {}
    }
  })
  await app.ready()
  const action = (name: string): Record<string, string> => ({ 'content-type': `application/soap+xml; charset=utf-8; action="http://whitemesa.net/wsdl/soap12-test/${name}"` })
  const echo = await app.inject({ method: 'POST', url: '/suite', headers: action('echoOk'), payload: envelope('1.2', '', '<t:echoOk xmlns:t="http://example.org/ts-tests">foo</t:echoOk>') })
  t.assert.strictEqual(echo.statusCode, 200, echo.body)
  t.assert.match(echo.body, /<soap:Header><tns:responseOk xmlns:tns="http:\/\/example\.org\/ts-tests">foo<\/tns:responseOk><\/soap:Header><soap:Body><\/soap:Body>/)
  const empty = await app.inject({ method: 'POST', url: '/suite', headers: action('emptyBody'), payload: envelope('1.2') })
  t.assert.strictEqual(empty.statusCode, 200, empty.body)
  t.assert.match(empty.body, /<soap:Envelope xmlns:soap="http:\/\/www\.w3\.org\/2003\/05\/soap-envelope"><soap:Body><\/soap:Body><\/soap:Envelope>$/)
})
