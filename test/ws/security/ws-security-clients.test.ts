/**
 * docs/security.md "Settings per client": the recommended `security`
 * settings for each kind of client, and what each leaves open, through
 * fastify.inject. Tokens are written as the clients write them
 * (test/clients/zeep_wsse.py, node-soap's WSSecurity): a digest with a Nonce
 * and a Created, a text password with both, and zeep's text token (no Nonce,
 * no Created) beside a wsu:Timestamp.
 */
import { createHash } from 'node:crypto'
import { test, type TestContext } from 'node:test'
import Fastify, { type FastifyInstance } from 'fastify'
import soap, { type SoapSecurityOptions } from '../../../lib/index'
import { envelope, post } from '../../helper'
import { instant, security, timestamp, usernameToken } from './ws-security-support'

const NS = 'urn:test:clients'
const none = { type: 'object', properties: {}, additionalProperties: false } as const
const who = { type: 'object', properties: { user: { type: 'string' } }, required: ['user'], additionalProperties: false } as const

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex')
/** A store of passwords, and one of their hashes (lookup gives `{ verify }`). */
const PASSWORDS: Record<string, string> = { demo: 'demo' }
const HASHES: Record<string, string> = { demo: sha256('demo') }
const passwordStore = async (name: string): Promise<string | undefined> => PASSWORDS[name]
const hashStore = async (name: string): Promise<{ verify: (password: string) => boolean } | undefined> =>
  name in HASHES ? { verify: (password: string) => sha256(password) === HASHES[name] } : undefined

async function build (t: TestContext, settings: SoapSecurityOptions): Promise<FastifyInstance> {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.service({
    path: '/secure',
    namespace: NS,
    name: 'Secure',
    operations: {
      WhoAmI: { input: none, output: who, async handler (_input: unknown, call: { soap: { username?: string } }) { return { user: call.soap.username ?? '(none)' } } } as never
    },
    security: settings
  })
  await app.ready()
  return app
}

/** The status of a WhoAmI call with `header` as its header content, in SOAP 1.2 (200, or 400 for a Sender fault). */
async function status (app: FastifyInstance, header: string): Promise<number> {
  const response = await post(app, '1.2', envelope('1.2', `<t:WhoAmI xmlns:t="${NS}"/>`, header), { url: '/secure' })
  if (response.statusCode === 200) return 200
  if (response.statusCode !== 400 || !response.body.includes('wss-wssecurity')) throw new Error(`not a WS-Security fault: ${response.statusCode} ${response.body}`)
  return response.statusCode
}

const digest = (): string => security(usernameToken({ digest: true }))
const textWithNonce = (): string => security(usernameToken())
/** zeep's UsernameToken without use_digest, with a timestamp_token: no Nonce, no Created. */
const zeepText = (created = instant()): string => security(usernameToken({ nonce: null, created: null }) + timestamp(created, null))

test('docs/security.md "Settings per client": digest-capable clients, a store of passwords, password \'digest\' and requireNonce \'always\': accepted once, a replay refused, a text token refused; a store of hashes cannot check a digest', async (t: TestContext) => {
  const app = await build(t, { usernameToken: { lookup: passwordStore, password: 'digest', requireNonce: 'always' } })
  const message = digest()
  t.assert.strictEqual(await status(app, message), 200)
  t.assert.strictEqual(await status(app, message), 400, 'the replay')
  t.assert.strictEqual(await status(app, textWithNonce()), 400, 'a text password')
  const hashed = await build(t, { usernameToken: { lookup: hashStore, password: 'any' } })
  t.assert.strictEqual(await status(hashed, digest()), 400, 'a digest against a store of hashes')
})

test('docs/security.md "Settings per client": text with a Nonce, a store of hashes, password \'text\' and requireNonce \'always\': accepted once, a replay refused; zeep\'s text token, with no Nonce, is locked out', async (t: TestContext) => {
  const app = await build(t, { usernameToken: { lookup: hashStore, password: 'text', requireNonce: 'always' } })
  const message = textWithNonce()
  t.assert.strictEqual(await status(app, message), 200)
  t.assert.strictEqual(await status(app, message), 400, 'the replay')
  t.assert.strictEqual(await status(app, zeepText()), 400, 'zeep\'s text token')
})

test('docs/security.md "Settings per client": text-only clients (zeep), a store of hashes, requireNonce \'digest\' and a required Timestamp: accepted, and a replay too until the Timestamp is maxAge old; with no Timestamp, refused; with none required, a replay is accepted whenever', async (t: TestContext) => {
  const app = await build(t, { usernameToken: { lookup: hashStore, password: 'text' }, timestamp: { required: true }, maxAge: 60_000 })
  const message = zeepText()
  t.assert.strictEqual(await status(app, message), 200)
  t.assert.strictEqual(await status(app, message), 200, 'the replay, within maxAge: the window the table states')
  t.assert.strictEqual(await status(app, zeepText(instant(-61_000))), 400, 'a Timestamp older than maxAge')
  t.assert.strictEqual(await status(app, security(usernameToken({ nonce: null, created: null }))), 400, 'no Timestamp')
  // With the default maxAge, the window is 5 minutes.
  const defaults = await build(t, { usernameToken: { lookup: hashStore, password: 'text' }, timestamp: { required: true } })
  t.assert.strictEqual(await status(defaults, zeepText(instant(-290_000))), 200, 'a Timestamp 4 min 50 s old')
  t.assert.strictEqual(await status(defaults, zeepText(instant(-310_000))), 400, 'a Timestamp 5 min 10 s old')
  // With no Timestamp required, nothing dates the token: its replay is accepted whenever.
  const open = await build(t, { usernameToken: { lookup: hashStore, password: 'text' } })
  const bare = security(usernameToken({ nonce: null, created: null }))
  t.assert.strictEqual(await status(open, bare), 200)
  t.assert.strictEqual(await status(open, bare), 200, 'its replay')
})
