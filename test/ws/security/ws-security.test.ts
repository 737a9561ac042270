/**
 * WS-Security (docs/security.md "WS-Security", docs/protocol.md "WS-Security"):
 * the UsernameToken (WSS UsernameToken Profile 1.1), the Timestamp (WSS 1.1
 * SOAP Message Security §10), replay, and the faults of §12, in both SOAP
 * versions, through fastify.inject.
 */
import { test, type TestContext } from 'node:test'
import { createHash } from 'node:crypto'
import Fastify, { type FastifyInstance } from 'fastify'
import soap, { errorCodes, memoryReplayStore, type SoapReplayStore, type SoapSecurityOptions, type SoapServiceDefinition, type SoapVersion } from '../../../lib/index'
import fc from 'fast-check'
import { assertServiceInvalid, assertValidEnvelope, envelope, post, serviceApp } from '../../helper'
import { mutations } from '../../internals/fuzzing'
import { BASE64_BINARY, PASSWORD_DIGEST, WSSE, WSU, instant, security, timestamp, usernameToken } from './ws-security-support'

const NS = 'urn:test:secure'
const none = { type: 'object', properties: {}, additionalProperties: false } as const
const who = { type: 'object', properties: { user: { type: 'string' } }, additionalProperties: false } as const
const int = { type: 'integer' } as const
const pair = { type: 'object', properties: { a: int, b: int }, required: ['a', 'b'], additionalProperties: false } as const

const USERS: Record<string, string> = { demo: 'demo', ann: 's3cret é' }

function secured (options: Partial<SoapSecurityOptions> = {}): SoapServiceDefinition {
  return {
    path: '/secure',
    namespace: NS,
    name: 'Secure',
    operations: {
      WhoAmI: { input: none, output: who, async handler (_input: unknown, call: { soap: { username?: string } }) { return { user: call.soap.username ?? '(none)' } } } as never,
      Add: { input: pair, output: { type: 'object', properties: { result: int }, required: ['result'], additionalProperties: false }, get: true, async handler ({ a, b }: { a: number, b: number }) { return { result: a + b } } } as never,
      GetSystemDateAndTime: { input: none, output: who, async handler (_input: unknown, call: { soap: { username?: string } }) { return { user: call.soap.username ?? '(none)' } } } as never
    },
    security: {
      usernameToken: { lookup: async (name: string) => USERS[name] },
      except: ['GetSystemDateAndTime'],
      ...options
    }
  }
}

async function build (t: TestContext, definition: SoapServiceDefinition = secured(), log?: (line: Record<string, unknown>) => void): Promise<FastifyInstance> {
  const stream = { write (line: string) { log?.(JSON.parse(line)) } }
  return await serviceApp(t, definition, log === undefined ? {} : { logger: { level: 'info', stream } })
}

const whoAmI = `<t:WhoAmI xmlns:t="${NS}"/>`
const add = `<t:Add xmlns:t="${NS}"><t:a>2</t:a><t:b>3</t:b></t:Add>`

async function call (app: FastifyInstance, version: SoapVersion, header: string | undefined, body = whoAmI): Promise<Awaited<ReturnType<typeof post>>> {
  return await post(app, version, envelope(version, body, header), { url: '/secure', headers: { soapaction: '""' } })
}

type FaultName = 'FailedAuthentication' | 'InvalidSecurity' | 'InvalidSecurityToken' | 'UnsupportedSecurityToken' | 'MessageExpired'

/** WSS 1.1 §12: a Sender fault whose 1.2 subcode, and 1.1 faultcode, is the wsse (or wsu) QName; no detail. */
async function assertSecurityFault (t: TestContext, response: Awaited<ReturnType<typeof post>>, version: SoapVersion, name: FaultName, message = ''): Promise<void> {
  const ns = name === 'MessageExpired' ? WSU : WSSE
  const where = `${message} ${response.body}`
  if (version === '1.2') {
    t.assert.strictEqual(response.statusCode, 400, where)
    t.assert.ok(response.body.includes(`<soap:Value>soap:Sender</soap:Value><soap:Subcode><soap:Value xmlns:sc0="${ns}">sc0:${name}</soap:Value></soap:Subcode>`), where)
  } else {
    t.assert.strictEqual(response.statusCode, 500, where)
    t.assert.ok(response.body.includes(`<faultcode xmlns:fc="${ns}">fc:${name}</faultcode>`), where)
  }
  t.assert.doesNotMatch(response.body, /[Dd]etail>/, 'no detail')
  await assertValidEnvelope(t, response.body, version, message)
}

const user = (body: string): string | undefined => /<tns:user>([^<]*)<\/tns:user>/.exec(body)?.[1]

for (const version of ['1.1', '1.2'] as const) {
  test(`WSS UsernameToken Profile 1.1 §3.1: #PasswordText and #PasswordDigest (Nonce and Created) are accepted, and the user reaches the handler as call.soap.username (SOAP ${version})`, async (t: TestContext) => {
    const app = await build(t)
    const text = await call(app, version, security(usernameToken({ user: 'ann', password: 's3cret é', nonce: null, created: null })))
    t.assert.strictEqual(text.statusCode, 200, text.body)
    t.assert.strictEqual(user(text.body), 'ann')
    const digest = await call(app, version, security(usernameToken({ user: 'ann', password: 's3cret é', digest: true })))
    t.assert.strictEqual(digest.statusCode, 200, digest.body)
    t.assert.strictEqual(user(digest.body), 'ann')
    // A Password with no Type is a text password (§4.1); the Nonce's EncodingType may be left out.
    const untyped = await call(app, version, security(usernameToken({ type: null, nonce: 'AAECAwQFBgcICQoLDA0ODw==' }).replace(` EncodingType="${BASE64_BINARY}"`, '')))
    t.assert.strictEqual(untyped.statusCode, 200, untyped.body)
    const sum = await call(app, version, security(usernameToken({ digest: true }) + timestamp()), add)
    t.assert.match(sum.body, /<tns:result>5<\/tns:result>/)
  })

  test(`docs/security.md "WS-Security": a wrong password and an unknown user get the same wsse:FailedAuthentication fault (SOAP ${version})`, async (t: TestContext) => {
    const app = await build(t)
    const bodies: string[] = []
    for (const [name, options] of Object.entries({
      'wrong text password': { password: 'nope' },
      'unknown user, text': { user: 'mallory' },
      'wrong digest': { password: 'nope', digest: true },
      'unknown user, digest': { user: 'mallory', digest: true },
      'a digest that is not Base64': { type: PASSWORD_DIGEST, password: '!!' }
    })) {
      const response = await call(app, version, security(usernameToken(options)))
      await assertSecurityFault(t, response, version, 'FailedAuthentication', name)
      bodies.push(response.body)
    }
    t.assert.strictEqual(new Set(bodies).size, 1, 'one answer whatever failed')
  })

  test(`WSS 1.1 SOAP Message Security §10, §12: a stale or future Created, in the token or the Timestamp, is wsu:MessageExpired (SOAP ${version})`, async (t: TestContext) => {
    const app = await build(t)
    const cases: Record<string, string> = {
      'token Created 6 minutes old': security(usernameToken({ digest: true, created: instant(-360_000) })),
      'token Created 2 minutes ahead': security(usernameToken({ digest: true, created: instant(120_000) })),
      'Timestamp Created 6 minutes old': security(timestamp(instant(-360_000), null) + usernameToken()),
      'Timestamp Created 2 minutes ahead': security(timestamp(instant(120_000), instant(400_000)) + usernameToken()),
      'Timestamp Expires 2 minutes ago': security(timestamp(instant(-200_000), instant(-120_000)) + usernameToken())
    }
    for (const [name, header] of Object.entries(cases)) await assertSecurityFault(t, await call(app, version, header), version, 'MessageExpired', name)
    // Within the skew (60 s ahead, an Expires 30 s past) and the age (4 minutes): accepted.
    for (const header of [
      security(usernameToken({ digest: true, created: instant(50_000) })),
      security(timestamp(instant(-240_000), instant(-30_000)) + usernameToken()),
      security(timestamp(instant(40_000), null) + usernameToken({ created: instant(-240_000) }))
    ]) {
      const response = await call(app, version, header)
      t.assert.strictEqual(response.statusCode, 200, response.body)
    }
  })

  test(`WSS UsernameToken Profile 1.1 §3.2: a Nonce is accepted once; the replay gets wsse:InvalidSecurity (SOAP ${version})`, async (t: TestContext) => {
    const app = await build(t)
    for (const digest of [true, false]) {
      const header = security(usernameToken({ digest }))
      t.assert.strictEqual((await call(app, version, header)).statusCode, 200)
      await assertSecurityFault(t, await call(app, version, header), version, 'InvalidSecurity', `replayed ${digest ? 'digest' : 'text'}`)
    }
    // Sent at once, ten times: exactly one gets through.
    const burst = security(usernameToken({ digest: true }))
    const statuses = (await Promise.all(Array.from({ length: 10 }, async () => (await call(app, version, burst)).statusCode))).sort()
    t.assert.deepStrictEqual(statuses, [200, ...Array(9).fill(version === '1.2' ? 400 : 500)])
    // A text password does not cover the Created: rewritten, the replay is still one.
    const nonce0 = Buffer.from('fedcba9876543210')
    const at = instant()
    t.assert.strictEqual((await call(app, version, security(usernameToken({ nonce: nonce0, created: at })))).statusCode, 200)
    await assertSecurityFault(t, await call(app, version, security(usernameToken({ nonce: nonce0, created: at.replace('Z', '+00:00') }))), version, 'InvalidSecurity', 'Created rewritten')
    // A wrong password does not burn the Nonce: the right one with it still passes.
    const nonce = Buffer.from('0123456789abcdef')
    const created = instant()
    await assertSecurityFault(t, await call(app, version, security(usernameToken({ digest: true, nonce, created, password: 'x' }))), version, 'FailedAuthentication')
    t.assert.strictEqual((await call(app, version, security(usernameToken({ digest: true, nonce, created })))).statusCode, 200)
  })

  test(`WSS 1.1 SOAP Message Security §6.1, §12: a missing, duplicated or misplaced Security header, or one with more than it may hold, is wsse:InvalidSecurity (SOAP ${version})`, async (t: TestContext) => {
    const app = await build(t)
    const other = version === '1.1' ? ' s:actor="urn:another"' : ' s:role="urn:another"'
    const cases: Record<string, string | undefined> = {
      'no Header': undefined,
      'an empty Security header': security(''),
      'a Timestamp and no token': security(timestamp()),
      'two Security headers': security(usernameToken()) + security(usernameToken()),
      'two UsernameTokens': security(usernameToken() + usernameToken()),
      'two Timestamps': security(timestamp() + timestamp() + usernameToken()),
      'a token for another role': security(usernameToken(), other),
      'a Signature (not supported)': security(usernameToken() + '<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"/>'),
      'text in the Security header': security(usernameToken() + 'text'),
      'a Timestamp with no Created': security(timestamp(null) + usernameToken()),
      'a Timestamp with two Created': security(`<wsu:Timestamp><wsu:Created>${instant()}</wsu:Created><wsu:Created>${instant()}</wsu:Created></wsu:Timestamp>` + usernameToken()),
      'a Timestamp with another child': security(`<wsu:Timestamp><wsu:Created>${instant()}</wsu:Created><wsu:Other/></wsu:Timestamp>` + usernameToken()),
      'Expires before Created': security(timestamp(instant(), instant(-10_000)) + usernameToken()),
      'a Created with no zone': security(timestamp(instant().replace('Z', ''), null) + usernameToken()),
      'a Created of 30 February': security(timestamp('2030-02-30T00:00:00Z', null) + usernameToken()),
      'a Created with an element in it': security('<wsu:Timestamp><wsu:Created><x/></wsu:Created></wsu:Timestamp>' + usernameToken())
    }
    for (const [name, header] of Object.entries(cases)) await assertSecurityFault(t, await call(app, version, header), version, 'InvalidSecurity', name)
  })

  test(`WSS UsernameToken Profile 1.1 §3.1, §4: a malformed UsernameToken is wsse:InvalidSecurityToken (SOAP ${version})`, async (t: TestContext) => {
    const app = await build(t)
    const cases: Record<string, string> = {
      'no Username': security('<wsse:UsernameToken><wsse:Password>demo</wsse:Password></wsse:UsernameToken>'),
      'an empty Username': security(usernameToken({ user: ' ' })),
      'no Password': security('<wsse:UsernameToken><wsse:Username>demo</wsse:Username></wsse:UsernameToken>'),
      'two Passwords': security(usernameToken({ extra: '<wsse:Password>demo</wsse:Password>' })),
      'an unknown child': security(usernameToken({ extra: '<wsse11:Salt xmlns:wsse11="urn:x">AA==</wsse11:Salt>' })),
      'a Nonce that is not Base64': security(usernameToken({ nonce: 'not base64!' })),
      'a Nonce with bad padding': security(usernameToken({ nonce: 'AAA' })),
      'an empty Nonce': security(usernameToken({ nonce: '' })),
      'a huge Nonce': security(usernameToken({ nonce: 'A'.repeat(100_000) })),
      'a Nonce of another encoding': security(usernameToken().replace(BASE64_BINARY, 'urn:hex')),
      'a huge Username': security(usernameToken({ user: 'u'.repeat(10_000) })),
      'a Created that is no dateTime': security(usernameToken({ created: 'yesterday' })),
      'a Created with an hour 25': security(usernameToken({ created: '2030-01-01T25:00:00Z' })),
      'a Created with a zone of +15:00': security(usernameToken({ created: '2030-01-01T00:00:00+15:00' })),
      'a digest with no Nonce': security(usernameToken({ digest: true, nonce: null })),
      'a digest with no Created': security(usernameToken({ digest: true, created: null })),
      'a Username holding an element': security('<wsse:UsernameToken><wsse:Username><b/></wsse:Username><wsse:Password>demo</wsse:Password></wsse:UsernameToken>')
    }
    for (const [name, header] of Object.entries(cases)) await assertSecurityFault(t, await call(app, version, header), version, 'InvalidSecurityToken', name)
    await assertSecurityFault(t, await call(app, version, security(usernameToken({ type: 'urn:other#Password' }))), version, 'UnsupportedSecurityToken', 'an unknown Password Type')
  })

  test(`SOAP ${version} mustUnderstand: a wsse:Security header marked mustUnderstand is understood where WS-Security applies, and only there`, async (t: TestContext) => {
    const app = await build(t)
    const mu = version === '1.1' ? ' s:mustUnderstand="1"' : ' s:mustUnderstand="true"'
    const ok = await call(app, version, security(usernameToken(), mu))
    t.assert.strictEqual(ok.statusCode, 200, ok.body)
    const plain = Fastify()
    t.after(() => plain.close())
    await plain.register(soap)
    plain.soap.service({ ...secured(), security: undefined })
    const refused = await call(plain, version, security(usernameToken(), mu))
    t.assert.match(refused.body, /MustUnderstand/)
  })
}

test('docs/security.md "WS-Security": an operation left out by `except` is served without a token, and its Security header is not read', async (t: TestContext) => {
  const app = await build(t)
  const body = `<t:GetSystemDateAndTime xmlns:t="${NS}"/>`
  for (const header of [undefined, security('garbage', ' s:mustUnderstand="1"')]) {
    const response = await call(app, '1.1', header, body)
    t.assert.strictEqual(response.statusCode, 200, response.body)
    t.assert.strictEqual(user(response.body), '(none)')
  }
})

test('docs/security.md "WS-Security": an operation invoked by GET carries no Security header and gets wsse:InvalidSecurity', async (t: TestContext) => {
  const app = await build(t)
  const response = await app.inject({ method: 'GET', url: '/secure/Add?a=1&b=2', headers: { accept: 'application/soap+xml' } })
  t.assert.strictEqual(response.statusCode, 400)
  t.assert.match(response.body, /sc0:InvalidSecurity/)
})

test('docs/security.md "WS-Security": `password` limits the types accepted, `requireNonce` when Nonce and Created are needed', async (t: TestContext) => {
  const digestOnly = await build(t, secured({ usernameToken: { lookup: async (n: string) => USERS[n], password: 'digest' } }))
  await assertSecurityFault(t, await call(digestOnly, '1.2', security(usernameToken())), '1.2', 'FailedAuthentication', 'text where only digest is accepted')
  t.assert.strictEqual((await call(digestOnly, '1.2', security(usernameToken({ digest: true })))).statusCode, 200)
  const textOnly = await build(t, secured({ usernameToken: { lookup: async (n: string) => USERS[n], password: 'text', requireNonce: 'always' } }))
  await assertSecurityFault(t, await call(textOnly, '1.2', security(usernameToken({ digest: true }))), '1.2', 'FailedAuthentication', 'digest where only text is accepted')
  await assertSecurityFault(t, await call(textOnly, '1.2', security(usernameToken({ nonce: null }))), '1.2', 'InvalidSecurityToken', 'text with no Nonce under "always"')
  const never = await build(t, secured({ usernameToken: { lookup: async (n: string) => USERS[n], requireNonce: 'never' }, replay: false }))
  const bare = security(usernameToken({ digest: true, nonce: null, created: null }))
  t.assert.strictEqual((await call(never, '1.2', bare)).statusCode, 200)
  // With no replay store, nothing is claimed: the same message passes twice.
  const again = security(usernameToken({ digest: true }))
  t.assert.strictEqual((await call(never, '1.2', again)).statusCode, 200)
  t.assert.strictEqual((await call(never, '1.2', again)).statusCode, 200)
})

test('docs/security.md "WS-Security": a lookup may give a verifier for a store of password hashes (text passwords only)', async (t: TestContext) => {
  const sha = (s: string): string => createHash('sha256').update(s).digest('hex')
  const hashes: Record<string, string> = { ann: sha('pw') }
  const app = await build(t, secured({ usernameToken: { lookup: (n: string) => n in hashes ? { verify: (password: string) => sha(password) === hashes[n] } : undefined } }))
  t.assert.strictEqual((await call(app, '1.2', security(usernameToken({ user: 'ann', password: 'pw' })))).statusCode, 200)
  await assertSecurityFault(t, await call(app, '1.2', security(usernameToken({ user: 'ann', password: 'no' }))), '1.2', 'FailedAuthentication')
  await assertSecurityFault(t, await call(app, '1.2', security(usernameToken({ user: 'ann', password: 'pw', digest: true }))), '1.2', 'FailedAuthentication', 'a digest cannot be checked against a hash')
})

test('docs/security.md "WS-Security": a lookup that fails, or gives what it may not, is a Receiver fault, logged', async (t: TestContext) => {
  const lines: Array<Record<string, unknown>> = []
  const failing = await build(t, secured({ usernameToken: { lookup: async () => { throw new Error('database down') } } }), (line) => lines.push(line))
  const response = await call(failing, '1.2', security(usernameToken()))
  t.assert.strictEqual(response.statusCode, 500)
  t.assert.match(response.body, /soap:Receiver/)
  t.assert.doesNotMatch(response.body, /database down/)
  t.assert.ok(lines.some((l) => l.level === 50 && JSON.stringify(l.err).includes('database down')))
  const odd = await build(t, secured({ usernameToken: { lookup: (() => 42) as never } }))
  t.assert.match((await call(odd, '1.1', security(usernameToken()))).body, /soap:Server/)
})

test('docs/security.md "Replay": a replay store that fails, hangs or answers oddly fails the request with a Receiver fault, never lets it through', async (t: TestContext) => {
  const lines: Array<Record<string, unknown>> = []
  const stores: Record<string, SoapReplayStore> = {
    rejects: { claim: async () => { throw new Error('connection refused') } },
    'answers a string': { claim: async () => 'OK' as never },
    hangs: { claim: async () => await new Promise<boolean>(() => {}) }
  }
  for (const [name, store] of Object.entries(stores)) {
    const app = await build(t, secured({ replay: store }), (line) => lines.push(line))
    const started = Date.now()
    const response = await call(app, '1.2', security(usernameToken({ digest: true })))
    t.assert.strictEqual(response.statusCode, 500, name)
    t.assert.match(response.body, /soap:Receiver/, name)
    t.assert.ok(Date.now() - started < 5000, `${name}: answered within the store's timeout`)
  }
  const logged = lines.filter((l) => l.level === 50).map((l) => (l.err as { code?: string }).code)
  t.assert.deepStrictEqual(logged, ['SOAP_ERR_SECURITY_STORE', 'SOAP_ERR_SECURITY_STORE', 'SOAP_ERR_SECURITY_STORE'])
})

test('docs/security.md "Replay" (WSS UsernameToken Profile 1.1 §3.2): a Nonce is claimed once per replay store, whichever service sees it, with any Body; the default store is one per registration of the plugin, nested ones included', async (t: TestContext) => {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  const shared = memoryReplayStore()
  // Two users with one password: a digest does not cover the Username, so a captured token can be relabelled.
  const lookup = async (name: string): Promise<string | undefined> => ({ ann: 'same', bob: 'same' } as Record<string, string>)[name]
  const service = (name: string, options: Partial<SoapSecurityOptions> = {}): SoapServiceDefinition => ({ ...secured({ usernameToken: { lookup }, ...options }), name, path: `/${name}` })
  app.soap.service(service('A'))
  app.soap.service(service('B'))
  app.soap.service(service('C', { replay: shared }))
  app.soap.service(service('D', { replay: shared }))
  await app.register(async (child) => {
    await child.register(soap, { logLevel: 'silent' })
    child.soap.service(service('E'))
  })
  await app.ready()
  const send = async (path: string, header: string, body: string): Promise<Awaited<ReturnType<typeof post>>> =>
    await post(app, '1.2', envelope('1.2', body, header), { url: path })
  const captured = security(usernameToken({ user: 'ann', password: 'same', digest: true }))
  t.assert.strictEqual((await send('/A', captured, whoAmI)).statusCode, 200)
  await assertSecurityFault(t, await send('/B', captured, add), '1.2', 'InvalidSecurity', 'replayed to another service on the default store, with another Body')
  await assertSecurityFault(t, await send('/E', captured, whoAmI), '1.2', 'InvalidSecurity', 'replayed to a service of a nested registration')
  await assertSecurityFault(t, await send('/B', captured.replace('>ann<', '>bob<'), whoAmI), '1.2', 'InvalidSecurity', 'relabelled to another user with the same password')
  // A store is a domain: the other store has not seen it.
  t.assert.strictEqual((await send('/C', captured, whoAmI)).statusCode, 200)
  await assertSecurityFault(t, await send('/D', captured, add), '1.2', 'InvalidSecurity', 'replayed to another service on the store given to both')
})

test('docs/security.md "Replay" (WSS UsernameToken Profile 1.1 §3.2, WSS 1.1 §10): a Nonce\'s key outlives the last instant its message is fresh by at least a second: a replay at the exact edge of the window is refused', async (t: TestContext) => {
  const app = await build(t)
  // The clock of this test (Date only: timers run as they do).
  t.mock.timers.enable({ apis: ['Date'], now: Math.ceil(Date.now() / 1000) * 1000 })
  const nonce = Buffer.from('at the very edge')
  // The latest Created the window takes (clockSkew ahead); it stays fresh until it is maxAge old.
  const header = security(usernameToken({ nonce, created: instant(60_000) }))
  t.assert.strictEqual((await call(app, '1.2', header)).statusCode, 200)
  t.mock.timers.tick(60_000 + 300_000)
  await assertSecurityFault(t, await call(app, '1.2', header), '1.2', 'InvalidSecurity', 'replayed when its Created is exactly maxAge old')
  t.mock.timers.tick(999)
  // Stale now; with a fresh Created (a text password does not cover it), still a replay.
  await assertSecurityFault(t, await call(app, '1.2', security(usernameToken({ nonce, created: instant() }))), '1.2', 'InvalidSecurity', 'a second later, Created rewritten')
})

test('docs/security.md "Replay": a claim the store answers after the timeout does not land: the request gets a Receiver fault, and the client\'s identical resend is accepted', async (t: TestContext) => {
  const inner = memoryReplayStore()
  const calls: Array<{ aborted: boolean | undefined }> = []
  let settled: Promise<void> = Promise.resolve()
  // A store whose first answer comes after the plugin's 2 s, and that keeps to the interface: an aborted claim is not made.
  const late: SoapReplayStore = {
    async claim (key: string, ttlMs: number, signal?: AbortSignal): Promise<boolean> {
      const call = { aborted: signal?.aborted }
      calls.push(call)
      if (calls.length > 1) return await inner.claim(key, ttlMs)
      let done = (): void => {}
      settled = new Promise((resolve) => { done = resolve })
      await new Promise((resolve) => setTimeout(resolve, 2300))
      call.aborted = signal?.aborted
      done()
      return signal?.aborted === true ? false : await inner.claim(key, ttlMs)
    }
  }
  const lines: Array<Record<string, unknown>> = []
  const app = await build(t, secured({ replay: late }), (line) => lines.push(line))
  const header = security(usernameToken({ digest: true }))
  const first = await call(app, '1.2', header)
  t.assert.strictEqual(first.statusCode, 500, first.body)
  t.assert.match(first.body, /<soap:Value>soap:Receiver<\/soap:Value>/)
  t.assert.ok(lines.some((l) => l.level === 50 && (l.err as { code?: string }).code === 'SOAP_ERR_SECURITY_STORE'))
  await settled
  const resend = await call(app, '1.2', header)
  t.assert.strictEqual(resend.statusCode, 200, resend.body)
  t.assert.deepStrictEqual(calls, [{ aborted: true }, { aborted: false }], 'the plugin gave up the claim it stopped waiting for')
  await assertSecurityFault(t, await call(app, '1.2', header), '1.2', 'InvalidSecurity', 'the resend\'s own replay')
})

test('WSS UsernameToken Profile 1.1 §3.1 (XML 1.0 §2.3): only XML white space (space, tab, CR, LF) around a Username or a Type is let go; U+00A0 or U+3000 make another name', async (t: TestContext) => {
  const asked: string[] = []
  const app = await build(t, secured({ usernameToken: { lookup: async (name: string) => { asked.push(name); return USERS[name] } } }))
  const ok = await call(app, '1.2', security(usernameToken({ user: ' \t&#13;\ndemo\n ' })))
  t.assert.strictEqual(ok.statusCode, 200, ok.body)
  t.assert.strictEqual(user(ok.body), 'demo')
  for (const name of ['\u00a0demo', 'demo\u3000', '\u2003demo\u2028']) {
    await assertSecurityFault(t, await call(app, '1.2', security(usernameToken({ user: name }))), '1.2', 'FailedAuthentication', JSON.stringify(name))
  }
  t.assert.deepStrictEqual(asked, ['demo', '\u00a0demo', 'demo\u3000', '\u2003demo\u2028'])
  t.assert.strictEqual((await call(app, '1.2', security(usernameToken({ digest: true, type: ` ${PASSWORD_DIGEST} ` })))).statusCode, 200)
  await assertSecurityFault(t, await call(app, '1.2', security(usernameToken({ digest: true, type: `${PASSWORD_DIGEST}\u00a0` }))), '1.2', 'UnsupportedSecurityToken', 'a Type with U+00A0')
  await assertSecurityFault(t, await call(app, '1.2', security(usernameToken({ nonce: 'AAECAwQFBgcICQoLDA0ODw==' }).replace(`EncodingType="${BASE64_BINARY}"`, `EncodingType="\u3000${BASE64_BINARY}"`))), '1.2', 'InvalidSecurityToken', 'an EncodingType with U+3000')
})

test('docs/security.md "Replay": the in-memory store holds at most maxEntries live keys and lets expired ones go', async (t: TestContext) => {
  t.assert.throws(() => memoryReplayStore({ maxEntries: 0 }), TypeError)
  const store = memoryReplayStore({ maxEntries: 2 })
  t.assert.strictEqual(await store.claim('a', 50), true)
  t.assert.strictEqual(await store.claim('a', 50), false)
  t.assert.strictEqual(await store.claim('b', 10_000), true)
  await t.assert.rejects(store.claim('c', 10_000), errorCodes.SOAP_ERR_SECURITY_STORE)
  await new Promise((resolve) => setTimeout(resolve, 80))
  // 'a' has expired: it may be claimed again, and 'c' finds room.
  t.assert.strictEqual(await store.claim('c', 10_000), true)
  t.assert.strictEqual(await store.claim('b', 10_000), false)
  await t.assert.rejects(store.claim('d', 10_000), errorCodes.SOAP_ERR_SECURITY_STORE)
})

test('docs/security.md "WS-Security" (XML Schema 1.0 §3.2.7): a Created may have any zone and fraction of a second; one with no zone, a lowercase z or a year of five digits is refused', async (t: TestContext) => {
  const app = await build(t)
  const now = new Date()
  const zoned = (minutes: number): string => {
    const local = new Date(now.getTime() + minutes * 60_000).toISOString().slice(0, 19)
    const sign = minutes < 0 ? '-' : '+'
    const abs = Math.abs(minutes)
    return `${local}${sign}${String(Math.trunc(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
  }
  for (const created of [zoned(120), zoned(-330), zoned(0), now.toISOString().replace('Z', '123456Z'), now.toISOString().slice(0, 19) + '.5Z']) {
    const response = await call(app, '1.2', security(timestamp(created, null) + usernameToken()))
    t.assert.strictEqual(response.statusCode, 200, `${created}: ${response.body}`)
  }
  for (const created of [now.toISOString().replace('Z', 'z'), '0' + now.toISOString(), now.toISOString().slice(0, 19), now.toISOString().replace('T', ' '), now.toISOString().replace(/\.\d+Z$/, '.1234567890Z')]) {
    await assertSecurityFault(t, await call(app, '1.2', security(timestamp(created, null) + usernameToken())), '1.2', 'InvalidSecurity', created)
  }
})

test('docs/security.md "WS-Security": maxAge and clockSkew set the window a Created must fall in', async (t: TestContext) => {
  const app = await build(t, secured({ maxAge: 10_000, clockSkew: 0 }))
  await assertSecurityFault(t, await call(app, '1.2', security(usernameToken({ created: instant(-20_000) }))), '1.2', 'MessageExpired', '20 s old')
  await assertSecurityFault(t, await call(app, '1.2', security(usernameToken({ created: instant(5_000) }))), '1.2', 'MessageExpired', '5 s ahead')
  t.assert.strictEqual((await call(app, '1.2', security(usernameToken({ created: instant(-5_000) })))).statusCode, 200)
})

test('docs/security.md "WS-Security": timestamp.required refuses a message with none; timestamp.reply adds one to each reply', async (t: TestContext) => {
  const app = await build(t, secured({ timestamp: { required: true, reply: true } }))
  await assertSecurityFault(t, await call(app, '1.2', security(usernameToken())), '1.2', 'InvalidSecurity', 'no Timestamp')
  const response = await call(app, '1.2', security(timestamp() + usernameToken()))
  t.assert.strictEqual(response.statusCode, 200, response.body)
  const match = /<wsse:Security xmlns:wsse="[^"]+" xmlns:wsu="[^"]+"><wsu:Timestamp><wsu:Created>([^<]+)<\/wsu:Created><wsu:Expires>([^<]+)<\/wsu:Expires><\/wsu:Timestamp><\/wsse:Security>/.exec(response.body)
  t.assert.ok(match !== null, response.body)
  t.assert.strictEqual(Date.parse(match[2]) - Date.parse(match[1]), 300_000)
  await assertValidEnvelope(t, response.body, '1.2')
  // A Timestamp alone may be all a service asks for.
  const only = await build(t, { ...secured(), security: { timestamp: { required: true } } })
  t.assert.strictEqual(user((await call(only, '1.1', security(timestamp()))).body), '(none)')
})

test('docs/security.md "Logging": the answer line names the authenticated user, never the password or the Nonce', async (t: TestContext) => {
  const lines: Array<Record<string, unknown>> = []
  const app = await build(t, secured(), (line) => lines.push(line))
  const nonce = Buffer.from('a nonce to hide!')
  await call(app, '1.2', security(usernameToken({ user: 'ann', password: 's3cret é', nonce })))
  const answered = lines.find((l) => l.msg === 'fastify-soap: answered') as { soap: Record<string, unknown> }
  t.assert.strictEqual(answered.soap.username, 'ann')
  const all = JSON.stringify(lines)
  t.assert.ok(!all.includes('s3cret') && !all.includes(nonce.toString('base64')), all)
})

test('docs/security.md "WS-Security": a bad `security` declaration is SOAP_ERR_SERVICE_INVALID at ready()', async (t: TestContext) => {
  const lookup = async (): Promise<undefined> => undefined
  const cases: Record<string, unknown> = {
    'must be an object': 'on',
    'unknown key "password"': { password: 'x', usernameToken: { lookup } },
    '.usernameToken must be an object': { usernameToken: true },
    '.usernameToken has an unknown key "digest"': { usernameToken: { lookup, digest: true } },
    '.usernameToken.lookup must be a function': { usernameToken: {} },
    '.usernameToken.password must be': { usernameToken: { lookup, password: 'hash' } },
    '.usernameToken.requireNonce must be': { usernameToken: { lookup, requireNonce: true } },
    '.timestamp must be an object': { timestamp: true },
    '.timestamp has an unknown key "max"': { timestamp: { max: 1 } },
    '.timestamp.reply must be a boolean': { timestamp: { reply: 1 } },
    'asks for nothing': { timestamp: { reply: true } },
    '.maxAge must be a non-negative integer': { usernameToken: { lookup }, maxAge: -1 },
    '.clockSkew must be a non-negative integer': { usernameToken: { lookup }, clockSkew: 1.5 },
    '.replay must be a store': { usernameToken: { lookup }, replay: {} },
    '.except must be an array': { usernameToken: { lookup }, except: 'Add' },
    '.except names Nope': { usernameToken: { lookup }, except: ['Nope'] }
  }
  await assertServiceInvalid(t, cases, (value) => ({ ...secured(), security: value as SoapSecurityOptions }))
})

test('docs/wsdl.md "Policy": the WSDL of a service with security states a WS-SecurityPolicy 1.2 UsernameToken, referenced by both bindings; sp:HashPassword for digests only', async (t: TestContext) => {
  for (const password of ['any', 'digest'] as const) {
    const app = await build(t, secured({ usernameToken: { lookup: async () => undefined, password } }))
    const wsdl = (await app.inject({ method: 'GET', url: '/secure?wsdl' })).body
    t.assert.match(wsdl, /<wsdl:definitions [^>]*xmlns:wsp="http:\/\/www\.w3\.org\/ns\/ws-policy" xmlns:wsu="[^"]+wssecurity-utility-1\.0\.xsd"/)
    t.assert.match(wsdl, /<wsp:Policy wsu:Id="SecurePolicy">\s*<wsp:ExactlyOne>\s*<wsp:All>\s*<sp:SupportingTokens xmlns:sp="http:\/\/docs\.oasis-open\.org\/ws-sx\/ws-securitypolicy\/200702"><wsp:Policy><sp:UsernameToken sp:IncludeToken="http:\/\/docs\.oasis-open\.org\/ws-sx\/ws-securitypolicy\/200702\/IncludeToken\/AlwaysToRecipient">/)
    t.assert.strictEqual(wsdl.includes('<sp:HashPassword/>'), password === 'digest')
    t.assert.strictEqual(wsdl.match(/<wsdl:binding [^>]*>\s*<wsp:PolicyReference URI="#SecurePolicy"\/>/g)?.length, 2)
  }
  const plain = await build(t, { ...secured(), security: undefined })
  t.assert.doesNotMatch((await plain.inject({ method: 'GET', url: '/secure?wsdl' })).body, /wsp:|ws-policy/)
})

test('docs/protocol.md "WS-Security" (property): whatever a Security header is made of, the answer is a result or a Sender fault, never a Receiver fault', async (t: TestContext) => {
  const app = await build(t, secured({ timestamp: { reply: true } }))
  const seeds = [
    security(timestamp() + usernameToken({ digest: true })),
    security(usernameToken({ user: 'ann', password: 's3cret é', nonce: null })),
    security(timestamp(instant(-1000), instant(5000)) + usernameToken({ type: null }))
  ]
  const alphabet = ['<', '>', '/', '"', '=', ' ', 'Z', '+', '-', ':', 'T', '.', '9', '==', 'A', '&amp;', '&#0;', '\u00e9', 'wsse:', 'wsu:', 'Nonce', 'Created', 'Expires', 'Password', 'Username', 'UsernameToken', 'Timestamp', 'Type="x"', ' s:role="urn:x"']
  await fc.assert(fc.asyncProperty(mutations(seeds, alphabet), async (header) => {
    const response = await call(app, '1.2', header)
    if (response.statusCode === 200) return
    t.assert.strictEqual(response.statusCode, 400, `${header}\n${response.body}`)
    if (response.body !== '') t.assert.match(response.body, /<soap:Value>soap:Sender<\/soap:Value>/, header)
  }), { numRuns: Number(process.env.FUZZ_RUNS ?? 300) })
})
