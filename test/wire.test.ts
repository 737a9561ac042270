import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import Fastify from 'fastify'
import soap from '../lib/index'
import { FIXTURES, decodedOf, echoRoutes, listen, rawExchange } from './helper'

/** One request as the capture shows it: enough to know what the server must have decoded. */
interface CapturedRequest {
  method: string
  headers: Record<string, string>
  body: string
}

/** Splits a capture file into its connections' raw bytes (README: `# connection N (B bytes)` then B bytes). */
function connections (file: Buffer): Buffer[] {
  const out: Buffer[] = []
  let at = 0
  for (;;) {
    const mark = file.indexOf('# connection ', at)
    if (mark === -1) return out
    const eol = file.indexOf('\n', mark)
    const size = Number(/\((\d+) bytes\)/.exec(file.subarray(mark, eol).toString())?.[1])
    out.push(file.subarray(eol + 1, eol + 1 + size))
    at = eol + 1 + size
  }
}

/** Reads the HTTP/1.1 requests in a connection's bytes, de-chunking bodies. */
function requests (bytes: Buffer): CapturedRequest[] {
  const out: CapturedRequest[] = []
  let at = 0
  while (at < bytes.length) {
    const end = bytes.indexOf('\r\n\r\n', at)
    const lines = bytes.subarray(at, end).toString('latin1').split('\r\n')
    const headers: Record<string, string> = {}
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':')
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
    }
    at = end + 4
    let body: Buffer = Buffer.alloc(0)
    if (headers['transfer-encoding'] === 'chunked') {
      for (;;) {
        const lineEnd = bytes.indexOf('\r\n', at)
        const size = parseInt(bytes.subarray(at, lineEnd).toString(), 16)
        at = lineEnd + 2
        if (size === 0) { at += 2; break }
        body = Buffer.concat([body, bytes.subarray(at, at + size)])
        at += size + 2
      }
    } else {
      const length = Number(headers['content-length'] ?? 0)
      body = bytes.subarray(at, at + length)
      at += length
    }
    out.push({ method: lines[0].split(' ')[0], headers, body: body.toString('utf8') })
  }
  return out
}

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
  test(`PROTOCOL Be liberal: ${name} replayed byte for byte decodes to its version, action and payload`, async (t: TestContext) => {
    const app = Fastify()
    await app.register(soap, { routes: async (scope) => { await scope.register(echoRoutes, { prefix: '/calc' }) } })
    t.after(() => app.close())
    const port = await listen(app)
    const version = name.includes('-1.1') ? '1.1' : '1.2'
    let posts = 0
    for (const raw of connections(readFileSync(join(FIXTURES, 'wire', name)))) {
      const sent = requests(raw)
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
        const operation = /<(?:[\w-]+:)?(Add|Echo|Divide|Subtract)[\s>]/.exec(request.body.slice(request.body.search(/Body[\s>]/)))?.[1]
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
