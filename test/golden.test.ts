/**
 * Golden tests: each folder of test/fixtures/golden holds a request body
 * (request.xml), the exact bytes the demo must answer (response.xml, empty for
 * an empty answer) and case.json: the URL, the SOAP version, the action (the
 * SOAPAction header in 1.1, the `action` parameter in 1.2), the expected status
 * and Content-Type, the rule the case shows, and optionally the HTTP method
 * (GET) and the cases to run first on the same app (`before`, for state such
 * as an order placed). Every case runs on a fresh `buildDemo()`, through
 * `app.inject` and over loopback HTTP.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { buildDemo } from './demo/app'
import { FIXTURES, MEDIA, envNs, listen, assertValidEnvelope } from './helper'

interface GoldenCase {
  url: string
  version: '1.1' | '1.2'
  method?: 'GET' | 'POST'
  action?: string
  before?: string[]
  status: number
  contentType: string | null
  description: string
}

interface Golden {
  name: string
  spec: GoldenCase
  request: Buffer
  response: Buffer
}

interface Answer {
  status: number
  contentType: string | undefined
  contentLength: string | undefined
  transferEncoding: string | undefined
  body: Buffer
}

const GOLDEN = join(FIXTURES, 'golden')
const names = readdirSync(GOLDEN, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort()

function load (name: string): Golden {
  const dir = join(GOLDEN, name)
  return {
    name,
    spec: JSON.parse(readFileSync(join(dir, 'case.json'), 'utf8')) as GoldenCase,
    request: readFileSync(join(dir, 'request.xml')),
    response: readFileSync(join(dir, 'response.xml'))
  }
}

/** The request headers a case implies: its version's media type, and its action where SOAP puts it. */
function requestHeaders (spec: GoldenCase): Record<string, string> {
  if (spec.method === 'GET') return {}
  if (spec.version === '1.1') {
    return spec.action === undefined ? { 'content-type': MEDIA['1.1'] } : { 'content-type': MEDIA['1.1'], soapaction: `"${spec.action}"` }
  }
  return { 'content-type': spec.action === undefined ? MEDIA['1.2'] : `${MEDIA['1.2']}; action="${spec.action}"` }
}

function header (value: string | string[] | number | undefined): string | undefined {
  return value === undefined ? undefined : String(value)
}

async function viaInject (app: FastifyInstance, golden: Golden): Promise<Answer> {
  const method = golden.spec.method ?? 'POST'
  const response = await app.inject({
    method,
    url: golden.spec.url,
    headers: requestHeaders(golden.spec),
    ...(method === 'GET' ? {} : { payload: golden.request })
  })
  return {
    status: response.statusCode,
    contentType: header(response.headers['content-type']),
    contentLength: header(response.headers['content-length']),
    transferEncoding: header(response.headers['transfer-encoding']),
    body: response.rawPayload
  }
}

async function viaHttp (port: number, golden: Golden): Promise<Answer> {
  const method = golden.spec.method ?? 'POST'
  const response = await fetch(`http://127.0.0.1:${port}${golden.spec.url}`, {
    method,
    headers: requestHeaders(golden.spec),
    ...(method === 'GET' ? {} : { body: new Uint8Array(golden.request) }),
    signal: AbortSignal.timeout(10_000)
  })
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? undefined,
    contentLength: response.headers.get('content-length') ?? undefined,
    transferEncoding: response.headers.get('transfer-encoding') ?? undefined,
    body: Buffer.from(await response.arrayBuffer())
  }
}

/** Status, Content-Type, Content-Length (never chunked) and the exact body bytes. */
function assertGolden (t: TestContext, golden: Golden, answer: Answer, how: string): void {
  const what = `${golden.name} (${how})`
  t.assert.strictEqual(answer.status, golden.spec.status, `${what}: status; body ${answer.body.toString('utf8').slice(0, 300)}`)
  t.assert.strictEqual(answer.contentType, golden.spec.contentType ?? undefined, `${what}: Content-Type`)
  t.assert.strictEqual(answer.contentLength, String(golden.response.length), `${what}: Content-Length is the body's byte count`)
  t.assert.strictEqual(answer.transferEncoding, undefined, `${what}: never chunked`)
  t.assert.strictEqual(answer.body.toString('utf8'), golden.response.toString('utf8'), `${what}: body`)
  t.assert.ok(answer.body.equals(golden.response), `${what}: body bytes`)
}

const goldens = new Map(names.map((name) => [name, load(name)]))

test('golden: the cases are all here, each with request.xml, response.xml and case.json', (t: TestContext) => {
  t.assert.strictEqual(names.length, 48)
  for (const name of names) {
    for (const file of ['request.xml', 'response.xml', 'case.json']) t.assert.ok(existsSync(join(GOLDEN, name, file)), `${name}/${file}`)
    const { spec } = goldens.get(name) as Golden
    t.assert.ok(spec.version === '1.1' || spec.version === '1.2', `${name}: version`)
    t.assert.ok(typeof spec.description === 'string' && spec.description.startsWith('docs/protocol.md "'), `${name}: description names its rule`)
    for (const before of spec.before ?? []) t.assert.ok(goldens.has(before), `${name}: before ${before}`)
  }
})

for (const name of names) {
  const golden = goldens.get(name) as Golden
  const { spec } = golden
  const befores = (spec.before ?? []).map((before) => goldens.get(before) as Golden)

  test(`golden ${name}: ${spec.description}`, async (t: TestContext) => {
    // docs/protocol.md "Versions": a reply is always in the request's version, with that version's media type.
    if (golden.response.length === 0) {
      t.assert.strictEqual(spec.contentType, null, 'an empty answer has no Content-Type')
    } else {
      t.assert.strictEqual(spec.contentType, MEDIA[spec.version], 'the reply media type is the request version\'s')
      const text = golden.response.toString('utf8')
      t.assert.ok(text.startsWith(`<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${envNs(spec.version)}">`), 'the reply envelope is in the request version\'s namespace')
      await assertValidEnvelope(t, text, spec.version, `the response validates against the SOAP ${spec.version} envelope schema`)
    }

    await t.test('app.inject', async (t: TestContext) => {
      const app = await buildDemo()
      t.after(() => app.close())
      for (const before of befores) assertGolden(t, before, await viaInject(app, before), `before ${name}, inject`)
      assertGolden(t, golden, await viaInject(app, golden), 'inject')
    })

    await t.test('loopback HTTP', async (t: TestContext) => {
      const app = await buildDemo()
      t.after(() => app.close())
      const port = await listen(app)
      for (const before of befores) assertGolden(t, before, await viaHttp(port, before), `before ${name}, HTTP`)
      assertGolden(t, golden, await viaHttp(port, golden), 'HTTP')
    })
  })
}
