/**
 * Logging (docs/security.md "Logging"): one line per SOAP request
 * through request.log with the operation, version, fault code and duration;
 * the message only with logBody, its `redact` elements hidden; raw XML never.
 */
import { test, type TestContext } from 'node:test'
import Fastify, { type FastifyInstance } from 'fastify'
import soap, { defineOperation, errorCodes, SoapFault, type FastifySoapOptions } from '../lib/index'
import { calculator } from './demo/app'
import { envelope, post, serviceApp } from './helper'

interface Line { level: number, msg: string, responseTime?: number, soap?: Record<string, unknown>, [key: string]: unknown }

const WSSE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd'
const PIN = 'urn:example:bank'

const bank = {
  path: '/bank',
  namespace: PIN,
  name: 'Bank',
  operations: {
    Login: defineOperation({
      input: { type: 'object', properties: { user: { type: 'string' }, Pin: { type: 'integer' } }, required: ['user', 'Pin'], additionalProperties: false },
      output: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'], additionalProperties: false },
      handler: () => ({ ok: true })
    })
  }
}

async function build (t: TestContext, options: FastifySoapOptions = {}, level = 'trace'): Promise<{ app: FastifyInstance, lines: Line[] }> {
  const lines: Line[] = []
  const app = Fastify({ logger: { level, stream: { write: (line: string) => { lines.push(JSON.parse(line) as Line) } } } })
  t.after(() => app.close())
  await app.register(soap, options)
  app.soap.service(calculator)
  app.soap.service(bank)
  await app.ready()
  return { app, lines }
}

/**
 * A line as text without the numbers pino and Fastify add (time, pid,
 * hostname, responseTime): a value searched for in a log must not be found
 * among their digits (a responseTime of 0.4111...).
 */
function logged (line: Line): string {
  const { time, pid, hostname, responseTime, ...rest } = line
  return JSON.stringify(rest)
}

const answered = (lines: Line[]): Line[] => lines.filter((l) => l.msg === 'fastify-soap: answered')
const add = (a: string): string => `<c:Add xmlns:c="urn:example:calc"><c:a>${a}</c:a><c:b>3</c:b></c:Add>`

test('docs/security.md "Logging": each SOAP request logs one line with its version, service, operation, action, status and duration', async (t: TestContext) => {
  const { app, lines } = await build(t)
  await post(app, '1.2', envelope('1.2', add('2')), { url: '/calculator', contentType: 'application/soap+xml; action="urn:example:calc/Add"' })
  await post(app, '1.1', envelope('1.1', add('2')), { url: '/calculator' })
  const [first, second] = answered(lines)
  t.assert.strictEqual(answered(lines).length, 2)
  t.assert.deepStrictEqual(first.soap, { status: 200, version: '1.2', service: 'Calculator', operation: 'Add', action: 'urn:example:calc/Add' })
  t.assert.deepStrictEqual(second.soap, { status: 200, version: '1.1', service: 'Calculator', operation: 'Add' })
  t.assert.strictEqual(first.level, 30, 'info, by default')
  t.assert.ok(typeof first.responseTime === 'number' && first.responseTime >= 0)
  t.assert.strictEqual(typeof first.reqId, 'string', 'through request.log, with the request id')
})

test('docs/security.md "Logging": a fault logs its code and reason; an undecodable request its error code; a GET of the WSDL or a 405 is no SOAP exchange and logs nothing', async (t: TestContext) => {
  const { app, lines } = await build(t)
  await post(app, '1.2', envelope('1.2', '<c:Divide xmlns:c="urn:example:calc"><c:a>1</c:a><c:b>0</c:b></c:Divide>'), { url: '/calculator' })
  await post(app, '1.1', '<!DOCTYPE x []><x/>', { url: '/calculator' })
  await post(app, '1.2', envelope('1.1', add('2')), { url: '/calculator' })
  await app.inject({ method: 'GET', url: '/calculator?wsdl' })
  await app.inject({ method: 'PUT', url: '/calculator' })
  const [fault, undecodable, mismatch] = answered(lines)
  t.assert.strictEqual(answered(lines).length, 3)
  t.assert.deepStrictEqual(fault.soap, { status: 400, version: '1.2', service: 'Calculator', operation: 'Divide', fault: 'Sender', reason: 'division by zero' })
  t.assert.deepStrictEqual(undecodable.soap, { status: 400, error: 'SOAP_ERR_DECODE_DTD' })
  t.assert.deepStrictEqual(mismatch.soap, { status: 500, version: '1.2', fault: 'VersionMismatch', reason: (mismatch.soap as { reason: string }).reason })
})

test('docs/security.md "Logging": raw XML is never logged by default, at any level, whatever the answer', async (t: TestContext) => {
  const { app, lines } = await build(t)
  const secret = 'S3CRET-VALUE'
  await post(app, '1.2', envelope('1.2', `<c:Echo xmlns:c="urn:example:calc"><c:text>${secret}</c:text></c:Echo>`), { url: '/calculator' })
  await post(app, '1.2', envelope('1.2', `<c:Nope xmlns:c="urn:example:calc"><c:text>${secret}</c:text></c:Nope>`), { url: '/calculator' })
  await post(app, '1.2', `<!DOCTYPE x [<!ENTITY e "${secret}">]><x>&e;</x>`, { url: '/calculator' })
  await post(app, '1.2', envelope('1.2', `<c:Echo xmlns:c="urn:example:calc"><c:text>${secret}</c:text>`), { url: '/calculator' })
  const header = `<w:Security xmlns:w="${WSSE}" xmlns:s="http://www.w3.org/2003/05/soap-envelope" s:mustUnderstand="true"><w:UsernameToken><w:Password>${secret}</w:Password></w:UsernameToken></w:Security>`
  await post(app, '1.2', envelope('1.2', add('2'), header), { url: '/calculator' })
  t.assert.strictEqual(answered(lines).length, 5)
  t.assert.ok(lines.length > 10, 'Fastify\'s own lines are there too, at trace')
  for (const line of lines) t.assert.doesNotMatch(logged(line), /S3CRET|<c:|&lt;c:/, line.msg)
})

test('docs/security.md "Logging": logBody adds the header blocks and the Body, with the content of WS-Security\'s Password and of the `redact` elements hidden', async (t: TestContext) => {
  const { app, lines } = await build(t, { logBody: true, redact: [`{${PIN}}Pin`], understoodHeaders: [`{${WSSE}}Security`] })
  const header = `<w:Security xmlns:w="${WSSE}" xmlns:s="http://www.w3.org/2003/05/soap-envelope" s:mustUnderstand="true"><w:UsernameToken><w:Username>ann</w:Username><w:Password Type="PasswordText">hunter2</w:Password></w:UsernameToken></w:Security>`
  await post(app, '1.2', envelope('1.2', `<b:Login xmlns:b="${PIN}"><b:user>ann &amp; co</b:user><b:Pin>1234</b:Pin></b:Login>`, header), { url: '/bank' })
  const [line] = answered(lines)
  t.assert.strictEqual(line.soap?.operation, 'Login')
  t.assert.strictEqual(line.soap?.header, '<w:Security s:mustUnderstand="true"><w:UsernameToken><w:Username>ann</w:Username><w:Password Type="[redacted]">[redacted]</w:Password></w:UsernameToken></w:Security>')
  t.assert.strictEqual(line.soap?.body, '<b:Login><b:user>ann &amp; co</b:user><b:Pin>[redacted]</b:Pin></b:Login>')
  for (const l of lines) t.assert.doesNotMatch(logged(l), /hunter2|1234/, l.msg)
})

test('docs/security.md "Logging": the Password, Nonce and BinarySecurityToken of every WS-Security namespace (OASIS 1.0 and 1.1, the 2002/04, 2002/07, 2002/12 and 2003/06 drafts) are hidden by logBody and never quoted in a fault', async (t: TestContext) => {
  const { app, lines } = await build(t, { logBody: true })
  const drafts = ['2002/04', '2002/07', '2002/12', '2003/06'].map((d) => `http://schemas.xmlsoap.org/ws/${d}/secext`)
  const namespaces = [WSSE, 'http://docs.oasis-open.org/wss/oasis-wss-wssecurity-secext-1.1.xsd', ...drafts]
  for (const [i, ns] of namespaces.entries()) {
    const header = `<w:Security xmlns:w="${ns}"><w:UsernameToken><w:Username>ann</w:Username><w:Password>hunter${i}</w:Password><w:Nonce>bm9uY2U${i}</w:Nonce></w:UsernameToken><w:BinarySecurityToken>c2Vzc2lvbg${i}</w:BinarySecurityToken></w:Security>`
    await post(app, '1.2', envelope('1.2', `<b:Login xmlns:b="${PIN}"><b:user>ann</b:user><b:Pin>1</b:Pin></b:Login>`, header), { url: '/bank' })
    t.assert.strictEqual(answered(lines)[i].soap?.header, '<w:Security><w:UsernameToken><w:Username>ann</w:Username><w:Password>[redacted]</w:Password><w:Nonce>[redacted]</w:Nonce></w:UsernameToken><w:BinarySecurityToken>[redacted]</w:BinarySecurityToken></w:Security>', ns)
  }
  t.assert.strictEqual(answered(lines).length, namespaces.length)
  for (const l of lines) t.assert.doesNotMatch(JSON.stringify(l), /hunter|bm9uY2U|c2Vzc2lvbg/, l.msg)

  // A Body element named so in a draft namespace: the value it refuses is not quoted either.
  const legacy = Fastify({ logger: { level: 'trace', stream: { write: (line: string) => { lines.push(JSON.parse(line) as Line) } } } })
  t.after(() => legacy.close())
  await legacy.register(soap, { logBody: true })
  legacy.soap.service({ ...bank, name: 'Legacy', path: '/legacy', namespace: drafts[1], operations: { Login: defineOperation({ input: { type: 'object', properties: { Password: { type: 'integer' } }, additionalProperties: false }, handler: () => undefined }) } })
  await legacy.ready()
  const refused = await post(legacy, '1.1', envelope('1.1', `<w:Login xmlns:w="${drafts[1]}"><w:Password>hunter2</w:Password></w:Login>`), { url: '/legacy' })
  t.assert.strictEqual(refused.statusCode, 500, refused.body)
  t.assert.match(refused.body, /\/Password not an integer/)
  for (const text of [refused.body, ...lines.map((l) => JSON.stringify(l))]) t.assert.doesNotMatch(text, /hunter2/)
})

test('docs/security.md "Logging": logBody cuts a large message at 8,192 characters', async (t: TestContext) => {
  const { app, lines } = await build(t, { logBody: true })
  await post(app, '1.2', envelope('1.2', `<c:Echo xmlns:c="urn:example:calc"><c:text>${'x'.repeat(20_000)}</c:text></c:Echo>`), { url: '/calculator' })
  await post(app, '1.2', envelope('1.2', `<c:Echo xmlns:c="urn:example:calc">${'<c:text>y</c:text>'.repeat(1000)}</c:Echo>`), { url: '/calculator' })
  for (const line of answered(lines)) {
    const body = line.soap?.body as string
    t.assert.strictEqual(body.length, 8193)
    t.assert.ok(body.endsWith('…'))
  }
})

test('docs/security.md "Logging": a value the codec refuses is quoted in the fault and the log, unless its element is redacted', async (t: TestContext) => {
  const { app, lines } = await build(t, { redact: [`{${PIN}}Pin`] })
  const quoted = await post(app, '1.2', envelope('1.2', add('two')), { url: '/calculator' })
  t.assert.match(quoted.body, /Invalid input: \/a "two" is not an integer/)
  const hidden = await post(app, '1.2', envelope('1.2', `<b:Login xmlns:b="${PIN}"><b:user>ann</b:user><b:Pin>12ab</b:Pin></b:Login>`), { url: '/bank' })
  t.assert.strictEqual(hidden.statusCode, 400)
  t.assert.match(hidden.body, /Invalid input: \/Pin not an integer/)
  t.assert.match(hidden.body, /<fs:Problem path="\/Pin">not an integer<\/fs:Problem>/)
  t.assert.doesNotMatch(hidden.body, /12ab/)
  for (const l of lines) t.assert.doesNotMatch(logged(l), /12ab/, l.msg)
  t.assert.strictEqual(answered(lines)[1].soap?.fault, 'Sender')
})

test('docs/security.md "Logging": logLevel sets the line\'s level; "silent" logs none', async (t: TestContext) => {
  const debug = await build(t, { logLevel: 'debug' })
  await post(debug.app, '1.2', envelope('1.2', add('2')), { url: '/calculator' })
  t.assert.deepStrictEqual(answered(debug.lines).map((l) => l.level), [20])
  const quiet = await build(t, { logLevel: 'debug' }, 'info')
  await post(quiet.app, '1.2', envelope('1.2', add('2')), { url: '/calculator' })
  t.assert.strictEqual(answered(quiet.lines).length, 0, 'below the logger\'s level')
  const silent = await build(t, { logLevel: 'silent' })
  await post(silent.app, '1.2', envelope('1.2', add('2')), { url: '/calculator' })
  t.assert.strictEqual(answered(silent.lines).length, 0)
})

test('docs/security.md "Logging": with no logger given to Fastify there is nothing to log to, and a SOAP route has no hook for it', async (t: TestContext) => {
  const hooksOf = async (app: FastifyInstance): Promise<string> => {
    t.assert.strictEqual((await post(app, '1.2', envelope('1.2', add('2')), { url: '/calculator' })).statusCode, 200)
    return app.printRoutes({ includeHooks: true })
  }
  t.assert.doesNotMatch(await hooksOf(await serviceApp(t, calculator)), /logSoapAnswer/)
  t.assert.doesNotMatch(await hooksOf(await serviceApp(t, calculator, { logger: false })), /logSoapAnswer/)
  const { app } = await build(t)
  t.assert.match(app.printRoutes({ includeHooks: true }), /\(onResponse\) \["logSoapAnswer\(\)"\]/)
})

test('Options: a bad logLevel, logBody or redact fails ready() with SOAP_ERR_OPT_INVALID', async (t: TestContext) => {
  for (const [options, message] of [
    [{ logLevel: 'loud' }, /"logLevel" must be one of fatal, error, warn, info, debug, trace, silent/],
    [{ logBody: 'yes' }, /"logBody" must be a boolean/],
    [{ redact: ['Password'] }, /"redact" must be an array of "\{namespace\}localName" strings/]
  ] as const) {
    const app = Fastify()
    t.after(() => app.close())
    const err = await app.register(soap, options as never).ready().then(() => undefined, (e: Error) => e)
    t.assert.ok(err instanceof errorCodes.SOAP_ERR_OPT_INVALID, String(err))
    t.assert.match(err.message, message)
  }
})

test('docs/security.md "Logging": a refused value anywhere inside a redacted element (a child, an attribute, xsi:nil) is never quoted; logBody hides its attribute values', async (t: TestContext) => {
  const lines: Line[] = []
  const app = Fastify({ logger: { level: 'trace', stream: { write: (line: string) => { lines.push(JSON.parse(line) as Line) } } } })
  t.after(() => app.close())
  await app.register(soap, { logBody: true, redact: [`{${PIN}}Card`] })
  const card = { type: 'object', properties: { number: { type: 'integer' }, cvc: { type: 'integer', xml: { attribute: true } } }, additionalProperties: false } as const
  app.soap.service({ ...bank, name: 'Pay', path: '/pay', operations: { Pay: defineOperation({ input: { type: 'object', properties: { Card: { ...card, nullable: true } }, additionalProperties: false }, handler: () => undefined }) } })
  await app.ready()
  for (const inner of ['<b:number>4111x</b:number>', '', '<b:number>1</b:number>']) {
    const attributes = inner === '' ? ' cvc="9x9"' : inner.includes('1<') ? ' xsi:nil="4111x" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"' : ''
    const response = await post(app, '1.2', envelope('1.2', `<b:Pay xmlns:b="${PIN}"><b:Card${attributes}>${inner}</b:Card></b:Pay>`), { url: '/pay' })
    t.assert.strictEqual(response.statusCode, 400, response.body)
    t.assert.doesNotMatch(response.body, /4111|9x9/)
  }
  t.assert.strictEqual(answered(lines).length, 3)
  for (const l of lines) t.assert.doesNotMatch(logged(l), /4111|9x9/, l.msg)
})

test('docs/security.md "Logging": a fault raised before the body is parsed is logged with the version it was sent in', async (t: TestContext) => {
  const lines: Line[] = []
  const app = Fastify({ logger: { level: 'info', stream: { write: (line: string) => { lines.push(JSON.parse(line) as Line) } } } })
  t.after(() => app.close())
  await app.register(soap, {
    routes: async (scope) => {
      scope.addHook('onRequest', async () => { throw new SoapFault({ code: 'Sender', reason: 'no API key' }) })
      scope.post('/x', async (_request, reply) => reply.soap())
    }
  })
  await post(app, '1.1', envelope('1.1', add('2')), { url: '/x' })
  await post(app, '1.2', envelope('1.2', add('2')), { url: '/x' })
  t.assert.deepStrictEqual(answered(lines).map((l) => l.soap), [
    { status: 500, version: '1.1', fault: 'Sender', reason: 'no API key' },
    { status: 400, version: '1.2', fault: 'Sender', reason: 'no API key' }
  ])
})
