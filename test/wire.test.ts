import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import Fastify from 'fastify'
import soap from '../lib/index'
import { FIXTURES, captureConnections, captureRequests, decodedOf, echoRoutes, listen, rawExchange } from './helper'

function expectedAction (headers: Record<string, string>): string | null {
  const param = /;\s*action="?([^";]+)"?/.exec(headers['content-type'] ?? '')?.[1]
  const header = headers.soapaction?.replace(/^"(.*)"$/, '$1')
  return param ?? (header === '' || header === undefined ? null : header)
}

const files = readdirSync(join(FIXTURES, 'wire')).filter((name) => name.endsWith('.txt'))

test('the wire fixtures are all here', (t: TestContext) => {
  t.assert.strictEqual(files.length, 17)
})

for (const name of files) {
  test(`docs/protocol.md "Be liberal": ${name} replayed byte for byte decodes to its version, action and payload`, async (t: TestContext) => {
    const app = Fastify()
    await app.register(soap, { routes: async (scope) => { await scope.register(echoRoutes, { prefix: '/calc' }) } })
    t.after(() => app.close())
    const port = await listen(app)
    const version = name.includes('-1.1') ? '1.1' : '1.2'
    let posts = 0
    for (const raw of captureConnections(readFileSync(join(FIXTURES, 'wire', name)))) {
      const sent = captureRequests(raw)
      const bytes = Buffer.from(raw.toString('latin1').replace(/(POST|GET) \/calc(\?wsdl)? HTTP\/1\.1\r\n/g, (_m, method, query) => `${method} /calc/echo${query ?? ''} HTTP/1.1\r\n`).replace(/^Host: .*$/gim, `Host: 127.0.0.1:${port}`), 'latin1')
      const answers = await rawExchange(port, bytes, sent.length)
      t.assert.strictEqual(answers.length, sent.length, 'one answer per request on the connection')
      sent.forEach((request, i) => {
        const answer = answers[i]
        if (request.method === 'GET') {
          t.assert.strictEqual(answer.status, 405, 'no WSDL is served yet: GET is not allowed')
          t.assert.strictEqual(answer.headers.allow, 'POST')
          return
        }
        posts++
        t.assert.strictEqual(answer.status, 200, `${request.method} ${JSON.stringify(request.headers)} → ${answer.body.toString()}`)
        t.assert.strictEqual(answer.headers['content-type'], version === '1.1' ? 'text/xml; charset=utf-8' : 'application/soap+xml; charset=utf-8')
        const body = request.body.toString('utf8')
        const operation = /<(?:[\w-]+:)?(Add|Echo|Divide|Subtract)[\s>]/.exec(body.slice(body.search(/Body[\s>]/)))?.[1]
        t.assert.deepStrictEqual(decodedOf(answer.body.toString('utf8')), {
          version,
          action: expectedAction(request.headers),
          payload: `{urn:example:calc}${operation}`,
          headers: []
        })
      })
    }
    t.assert.ok(posts >= 2, `${posts} POSTs replayed`)
  })
}
