/**
 * The captures of real SOAP clients (test/fixtures/wire) replayed byte for
 * byte, over raw TCP, against the demo's Calculator: every answer is checked
 * for what the operation must give, and for the request's SOAP version.
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import { buildDemo } from './demo/app'
import { mtomReply } from './interop'
import { FIXTURES, MEDIA, captureConnections, captureRequests, envNs, listen, rawExchange, assertValidEnvelope, type CapturedRequest, type RawResponse } from './helper'

type Version = '1.1' | '1.2'

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }

/** XML character data as text: CDATA sections kept, entity and character references decoded. */
function decodeText (xml: string): string {
  return xml.split(/(<!\[CDATA\[[\s\S]*?\]\]>)/).map((part) => part.startsWith('<![CDATA[')
    ? part.slice(9, -3)
    : part.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot|apos);/g, (_m, ref: string) => ref.startsWith('#x')
      ? String.fromCodePoint(parseInt(ref.slice(2), 16))
      : ref.startsWith('#') ? String.fromCodePoint(Number(ref.slice(1))) : ENTITIES[ref])
  ).join('')
}

/** The local name of the Body's first child element. */
function operationOf (body: string): string | undefined {
  return /<(?:[\w.-]+:)?Body(?:\s[^>]*)?>\s*<(?:[\w.-]+:)?([\w.-]+)[\s/>]/.exec(body)?.[1]
}

/** The decoded text of the first element with this local name, whatever its prefix. */
function textOf (body: string, localName: string): string | undefined {
  const match = new RegExp(`<((?:[\\w.-]+:)?${localName})(?:\\s[^>]*)?>([\\s\\S]*?)</\\1>`).exec(body)
  return match === null ? undefined : decodeText(match[2])
}

function versionOf (request: CapturedRequest): Version | undefined {
  const mediaType = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase()
  if (mediaType === 'application/soap+xml') return '1.2'
  if (mediaType === 'text/xml') return '1.1'
  return undefined
}

/** `request` rewritten for the demo: the path `/calc` becomes `/calculator`, and `Host` names the port it listens on. */
function rewrite (raw: Buffer, port: number): Buffer {
  return Buffer.from(raw.toString('latin1')
    // A keep-alive request may follow the previous body on the same line: the request line is not anchored.
    .replace(/(POST|GET) \/calc(\?wsdl)? HTTP\/1\.1\r\n/g, (_m, method: string, query: string | undefined) => `${method} /calculator${query ?? ''} HTTP/1.1\r\n`)
    .replace(/^Host: [^\r\n]*/gim, `Host: 127.0.0.1:${port}`), 'latin1')
}

const PROLOGUE = (version: Version): string => `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${envNs(version)}">`

/** A Sender (1.1: Client) fault with this reason, and no detail. */
function senderFault (version: Version, reason: string): string {
  const fault = version === '1.2'
    ? `<soap:Fault><soap:Code><soap:Value>soap:Sender</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">${reason}</soap:Text></soap:Reason></soap:Fault>`
    : `<soap:Fault><faultcode>soap:Client</faultcode><faultstring>${reason}</faultstring></soap:Fault>`
  return `${PROLOGUE(version)}<soap:Body>${fault}</soap:Body></soap:Envelope>`
}

/** Checks one answer to one captured POST; returns the operation it called. */
async function checkPost (t: TestContext, where: string, request: CapturedRequest, answer: RawResponse, fileVersion: Version): Promise<string> {
  const version = versionOf(request)
  t.assert.strictEqual(version, fileVersion, `${where}: the request's media type is its file's SOAP version`)
  const v = version as Version
  const sent = request.body.toString('utf8')
  const body = answer.body.toString('utf8')
  // docs/protocol.md "Versions": a reply is always in the request's version.
  t.assert.strictEqual(answer.headers['content-type'], MEDIA[v], `${where}: Content-Type; status ${answer.status}, body ${body.slice(0, 300)}`)
  t.assert.ok(body.startsWith(PROLOGUE(v)), `${where}: the envelope namespace is ${envNs(v)}: ${body.slice(0, 200)}`)
  t.assert.strictEqual(answer.headers['content-length'], String(answer.body.length), `${where}: Content-Length`)
  t.assert.strictEqual(answer.headers['transfer-encoding'], undefined, `${where}: never chunked`)
  await assertValidEnvelope(t, body, v, `${where}: the reply validates against the SOAP ${v} envelope schema`)
  const faultStatus = v === '1.2' ? 400 : 500
  const operation = operationOf(sent)
  switch (operation) {
    case 'Add':
      t.assert.strictEqual(textOf(sent, 'a'), '2')
      t.assert.strictEqual(textOf(sent, 'b'), '3')
      t.assert.strictEqual(answer.status, 200, `${where}: Add(2, 3): ${body}`)
      t.assert.strictEqual(body, `${PROLOGUE(v)}<soap:Body><tns:AddResponse xmlns:tns="urn:example:calc"><tns:result>5</tns:result></tns:AddResponse></soap:Body></soap:Envelope>`, `${where}: Add(2, 3) is 5`)
      break
    case 'Echo': {
      const text = textOf(sent, 'text')
      t.assert.strictEqual(text, 'héllo ✓ <&>', `${where}: the captured Echo text`)
      t.assert.strictEqual(answer.status, 200, `${where}: Echo: ${body}`)
      t.assert.match(body, /<tns:EchoResponse xmlns:tns="urn:example:calc"><tns:text>[^<]*<\/tns:text><\/tns:EchoResponse><\/soap:Body><\/soap:Envelope>$/)
      t.assert.strictEqual(textOf(body, 'text'), text, `${where}: Echo returns the text it was sent`)
      break
    }
    case 'Divide':
      t.assert.strictEqual(textOf(sent, 'a'), '7')
      t.assert.strictEqual(textOf(sent, 'b'), '0')
      t.assert.strictEqual(answer.status, faultStatus, `${where}: Divide(7, 0) is a Sender fault: ${body}`)
      t.assert.strictEqual(body, senderFault(v, 'division by zero'), `${where}: Divide(7, 0)`)
      break
    case 'Subtract':
      t.assert.strictEqual(answer.status, faultStatus, `${where}: Subtract is an unknown operation: ${body}`)
      t.assert.strictEqual(body, senderFault(v, 'No operation of Calculator takes the element {urn:example:calc}Subtract'), `${where}: Subtract`)
      break
    default:
      t.assert.fail(`${where}: a capture calls an operation this test does not know: ${String(operation)}`)
  }
  return String(operation)
}

const files = readdirSync(join(FIXTURES, 'wire')).filter((name) => name.endsWith('.txt')).sort()

test('wire-demo: the wire fixtures are all here', (t: TestContext) => {
  t.assert.strictEqual(files.length, 17)
})

for (const name of files) {
  const fileVersion: Version = name.includes('-1.1') ? '1.1' : '1.2'
  test(`docs/protocol.md "Be liberal": ${name} replayed against the demo gets Add, Echo, Divide (a Sender fault) and Subtract (unknown) answered in SOAP ${fileVersion}; GET ?wsdl gets the WSDL`, async (t: TestContext) => {
    const app = await buildDemo()
    t.after(() => app.close())
    const port = await listen(app)
    const called = new Set<string>()
    const capture = captureConnections(readFileSync(join(FIXTURES, 'wire', name)))
    t.assert.ok(capture.length > 0, 'the capture holds connections')
    for (const [c, raw] of capture.entries()) {
      const sent = captureRequests(raw)
      const answers = await rawExchange(port, rewrite(raw, port), sent.length)
      t.assert.strictEqual(answers.length, sent.length, `connection ${c + 1}: one answer per request`)
      for (const [i, request] of sent.entries()) {
        const answer = answers[i]
        const where = `${name}, connection ${c + 1}, request ${i + 1} (${request.method} ${request.target})`
        if (request.method === 'GET') {
          // docs/protocol.md "GET": ?wsdl returns the service's WSDL 1.1, its ports at the address the client used.
          t.assert.strictEqual(request.target, '/calc?wsdl')
          t.assert.strictEqual(answer.status, 200, where)
          t.assert.strictEqual(answer.headers['content-type'], 'text/xml; charset=utf-8', `${where}: Content-Type`)
          t.assert.strictEqual(answer.headers['content-length'], String(answer.body.length), `${where}: Content-Length`)
          const wsdl = answer.body.toString('utf8')
          t.assert.match(wsdl, /<wsdl:definitions [^>]*targetNamespace="urn:example:calc"/, where)
          t.assert.match(wsdl, new RegExp(`<soap:address location="http://127\\.0\\.0\\.1:${port}/calculator"/>`), `${where}: the port's address`)
          continue
        }
        t.assert.strictEqual(request.method, 'POST', where)
        t.assert.strictEqual(request.target, '/calc', where)
        called.add(await checkPost(t, where, request, answer, fileVersion))
      }
    }
    t.assert.deepStrictEqual([...called].filter((op) => op !== 'Subtract').sort(), ['Add', 'Divide', 'Echo'], 'the capture calls Add, Echo and Divide')
  })
}

for (const version of ['1.1', '1.2'] as const) {
  const name = `wcf-mono-${version}.txt`
  test(`docs/protocol.md "Be liberal": ${name} (WCF on Mono, MTOM: no boundary in the Content-Type, the body's own MIME header, a root part of type="") replayed byte for byte against the demo's /files: the Upload answers the part's size and sha256 in SOAP ${version}, the Download gives the bytes back as an MTOM reply's part`, async (t: TestContext) => {
    const app = await buildDemo()
    t.after(() => app.close())
    const port = await listen(app)
    const [raw] = captureConnections(readFileSync(join(FIXTURES, 'mtom', name)))
    const sent = captureRequests(raw)
    t.assert.deepStrictEqual(sent.map((r) => [r.method, r.target, r.headers['content-type'], r.headers.soapaction]), [
      ['POST', '/files', 'multipart/related; type=application/xop+xml', '"urn:example:files/Upload"'],
      ['POST', '/files', 'multipart/related; type=application/xop+xml', '"urn:example:files/Download"']
    ], 'the capture: an Upload, then a Download, framed as Mono frames them')
    // The attachment's bytes, cut from the capture by hand: after its header block, up to the close delimiter.
    const upload = sent[0].body
    const head = Buffer.from('Content-Type: application/octet-stream\r\n\r\n')
    const bytes = upload.subarray(upload.indexOf(head) + head.length, upload.lastIndexOf('\r\n--'))
    t.assert.strictEqual(bytes.length, 1280)
    t.assert.deepStrictEqual([...bytes.subarray(1024)], Array.from({ length: 256 }, (_v, i) => i), 'every byte value, after 1024 random bytes')
    // Mono sends Expect: 100-continue: each request gets a 100 Continue first.
    const answers = (await rawExchange(port, raw, 4)).filter((answer) => answer.status !== 100)
    t.assert.deepStrictEqual(answers.map((answer) => answer.status), [200, 200])
    // docs/protocol.md "MTOM replies": answered in kind, in the Envelope's version.
    const [uploaded, downloaded] = answers.map((answer) => mtomReply({ responseType: answer.headers['content-type'], responseBytes: answer.body }))
    const media = MEDIA[version].split(';')[0]
    t.assert.deepStrictEqual([uploaded?.startInfo, uploaded?.parts.length, downloaded?.startInfo, downloaded?.parts.length], [media, 0, media, 1])
    const sha256 = createHash('sha256').update(bytes).digest('hex')
    t.assert.match(uploaded?.root ?? '', new RegExp(`<tns:UploadResponse xmlns:tns="urn:example:files"><tns:size>1280</tns:size><tns:sha256>${sha256}</tns:sha256></tns:UploadResponse>`))
    t.assert.ok(downloaded?.parts[0].equals(bytes), 'Download: the same bytes, as a part')
  })
}
