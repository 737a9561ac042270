import { test, type TestContext } from 'node:test'
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { createHash, randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { DEMO_X509, FILES_KEPT, FILE_MAX_OCTETS, buildDemo } from './demo/app'
import { envelope, post, assertValidEnvelope } from './helper'
import { mtomMessage } from './mtom-message'
import { mtomReply } from './interop'
import { instant, security, timestamp, usernameToken } from './ws/security/ws-security-support'
import { signedEnvelope } from './ws/security/x509-client'

const call = (op: string, args: Record<string, string>): string =>
  `<c:${op} xmlns:c="urn:example:calc">${Object.entries(args).map(([k, v]) => `<c:${k}>${v}</c:${k}>`).join('')}</c:${op}>`

for (const version of ['1.1', '1.2'] as const) {
  test(`demo: Add, Echo and Divide in SOAP ${version}`, async (t: TestContext) => {
    const app = await buildDemo()
    t.after(() => app.close())
    const add = await post(app, version, envelope(version, call('Add', { a: '2', b: '3' })), { url: '/calculator' })
    t.assert.strictEqual(add.statusCode, 200)
    t.assert.match(add.body, /<tns:AddResponse xmlns:tns="urn:example:calc"><tns:result>5<\/tns:result><\/tns:AddResponse>/)
    await assertValidEnvelope(t, add.body, version)
    const echo = await post(app, version, envelope(version, call('Echo', { text: 'héllo ✓ &lt;&amp;&gt; 𝄞' })), { url: '/calculator' })
    t.assert.match(echo.body, /<tns:text>héllo ✓ &lt;&amp;&gt; 𝄞<\/tns:text>/)
    const divide = await post(app, version, envelope(version, call('Divide', { a: '7', b: '0' })), { url: '/calculator' })
    t.assert.strictEqual(divide.statusCode, version === '1.2' ? 400 : 500)
    t.assert.match(divide.body, /division by zero/)
    await assertValidEnvelope(t, divide.body, version)
    const bad = await post(app, version, envelope(version, call('Add', { a: 'two', b: '3' })), { url: '/calculator' })
    t.assert.strictEqual(bad.statusCode, version === '1.2' ? 400 : 500)
    t.assert.match(bad.body, /Invalid input: \/a "two" is not an integer/)
    const unknown = await post(app, version, envelope(version, call('Pow', {})), { url: '/calculator' })
    t.assert.match(unknown.body, /No operation of Calculator takes the element \{urn:example:calc\}Pow/)
    const empty = await post(app, version, envelope(version), { url: '/calculator' })
    t.assert.match(empty.body, /The Body is empty and no action was given/)
  })
}

const XOP = 'http://www.w3.org/2004/08/xop/include'
const file = (op: string, fields: string): string => `<f:${op} xmlns:f="urn:example:files">${fields}</f:${op}>`
const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex')
/** 200 KB of random bytes, then every byte value once. */
const sample = (): Buffer => Buffer.concat([randomBytes(200_000), Buffer.from(Array.from({ length: 256 }, (_v, i) => i))])

for (const version of ['1.1', '1.2'] as const) {
  test(`demo, docs/binary.md "The /files demo": Upload answers the size and sha256 of bytes sent inline or as an MTOM part, Download gives them back (as an MTOM part to an MTOM request), a name never uploaded is the FileNotFound fault (SOAP ${version})`, async (t: TestContext) => {
    const app = await buildDemo()
    t.after(() => app.close())
    const inline = sample()
    const up = await post(app, version, envelope(version, file('Upload', `<f:name>a.bin</f:name><f:content>${inline.toString('base64')}</f:content>`)), { url: '/files' })
    t.assert.strictEqual(up.statusCode, 200, up.body)
    t.assert.match(up.body, new RegExp(`<tns:UploadResponse xmlns:tns="urn:example:files"><tns:size>${inline.length}</tns:size><tns:sha256>${sha256(inline)}</tns:sha256></tns:UploadResponse>`))
    await assertValidEnvelope(t, up.body, version)
    const attached = sample()
    const mtom = mtomMessage(version, envelope(version, file('Upload', `<f:name>b.bin</f:name><f:content><xop:Include xmlns:xop="${XOP}" href="cid:b.bin@example.org"/></f:content>`)), [{ id: 'b.bin@example.org', bytes: attached }])
    const upMtom = await post(app, version, mtom.body, { url: '/files', contentType: mtom.contentType })
    t.assert.strictEqual(upMtom.statusCode, 200, upMtom.body)
    t.assert.match(upMtom.body, new RegExp(`<tns:size>${attached.length}</tns:size><tns:sha256>${sha256(attached)}</tns:sha256>`))
    for (const [name, bytes] of [['a.bin', inline], ['b.bin', attached]] as const) {
      const down = await post(app, version, envelope(version, file('Download', `<f:name>${name}</f:name>`)), { url: '/files' })
      t.assert.strictEqual(down.statusCode, 200, down.body)
      const content = /<tns:DownloadResponse xmlns:tns="urn:example:files"><tns:content>([A-Za-z0-9+/=]*)<\/tns:content><\/tns:DownloadResponse>/.exec(down.body)
      t.assert.ok(content !== null, down.body.slice(0, 400))
      t.assert.ok(Buffer.from(content[1], 'base64').equals(bytes), `${name}: the bytes uploaded, byte for byte`)
    }
    // docs/protocol.md "MTOM replies": an MTOM request is answered in kind, the bytes as a part.
    const asMtom = mtomMessage(version, envelope(version, file('Download', '<f:name>b.bin</f:name>')), [])
    const downMtom = await post(app, version, asMtom.body, { url: '/files', contentType: asMtom.contentType })
    t.assert.strictEqual(downMtom.statusCode, 200)
    const reply = mtomReply({ responseType: downMtom.headers['content-type'] as string, responseBytes: downMtom.rawPayload })
    t.assert.strictEqual(reply?.startInfo, version === '1.1' ? 'text/xml' : 'application/soap+xml', String(downMtom.headers['content-type']))
    t.assert.match(reply.root, /<tns:content><xop:Include xmlns:xop="http:\/\/www\.w3\.org\/2004\/08\/xop\/include" href="cid:[^"]+"\/><\/tns:content>/)
    t.assert.ok(reply.parts.length === 1 && reply.parts[0].equals(attached), 'the bytes, as a part')
    t.assert.match(upMtom.headers['content-type'] as string, /^multipart\/related; /, 'the MTOM Upload answered in kind')
    const unknown = await post(app, version, envelope(version, file('Download', '<f:name>never.bin</f:name>')), { url: '/files' })
    t.assert.strictEqual(unknown.statusCode, version === '1.2' ? 400 : 500)
    t.assert.match(unknown.body, /no file never\.bin/)
    t.assert.match(unknown.body, /<tns:FileNotFound xmlns:tns="urn:example:files"><tns:name>never\.bin<\/tns:name><\/tns:FileNotFound>/)
    await assertValidEnvelope(t, unknown.body, version)
  })
}

test(`demo, docs/binary.md "The /files demo": the Files service keeps ${FILES_KEPT} files, the oldest dropped first, each of at most ${FILE_MAX_OCTETS} bytes, sent inline or as MTOM`, async (t: TestContext) => {
  const app = await buildDemo()
  t.after(() => app.close())
  const upload = (name: string, content: string): ReturnType<typeof post> => post(app, '1.2', envelope('1.2', file('Upload', `<f:name>${name}</f:name><f:content>${content}</f:content>`)), { url: '/files' })
  const download = (name: string): ReturnType<typeof post> => post(app, '1.2', envelope('1.2', file('Download', `<f:name>${name}</f:name>`)), { url: '/files' })
  for (let i = 0; i <= FILES_KEPT; i++) t.assert.strictEqual((await upload(`f${i}`, 'AAEC')).statusCode, 200)
  t.assert.match((await download('f0')).body, /no file f0/, 'the oldest is dropped')
  for (let i = 1; i <= FILES_KEPT; i++) t.assert.match((await download(`f${i}`)).body, /<tns:content>AAEC<\/tns:content>/)
  // Uploaded again, f1 is the newest: the next new name drops f2.
  t.assert.strictEqual((await upload('f1', 'AQ==')).statusCode, 200)
  t.assert.strictEqual((await upload('g', 'AQ==')).statusCode, 200)
  t.assert.match((await download('f2')).body, /no file f2/)
  t.assert.match((await download('f1')).body, /<tns:content>AQ==<\/tns:content>/)
  // A file of the largest size, inline: more than Fastify's default body limit (1 MiB).
  const largest = Buffer.alloc(FILE_MAX_OCTETS, 7)
  const big = await upload('big', largest.toString('base64'))
  t.assert.strictEqual(big.statusCode, 200, big.body.slice(0, 400))
  t.assert.match(big.body, new RegExp(`<tns:size>${FILE_MAX_OCTETS}</tns:size><tns:sha256>${sha256(largest)}</tns:sha256>`))
  const over = mtomMessage('1.2', envelope('1.2', file('Upload', `<f:name>over</f:name><f:content><xop:Include xmlns:xop="${XOP}" href="cid:over"/></f:content>`)), [{ id: 'over', bytes: Buffer.alloc(FILE_MAX_OCTETS + 1) }])
  const refused = await post(app, '1.2', over.body, { url: '/files', contentType: over.contentType })
  t.assert.strictEqual(refused.statusCode, 400)
  t.assert.match(refused.body, new RegExp(`/content must NOT have more than ${FILE_MAX_OCTETS} octets`))
})

for (const version of ['1.1', '1.2'] as const) {
  test(`demo, docs/security.md "WS-Security": /secure/calculator adds for user demo, password demo, as text or digest, with or without a Timestamp, and refuses anyone else (SOAP ${version})`, async (t: TestContext) => {
    const app = await buildDemo()
    t.after(() => app.close())
    const add = (header?: string): ReturnType<typeof post> => post(app, version, envelope(version, call('Add', { a: '2', b: '3' }), header), { url: '/secure/calculator' })
    for (const header of [
      security(usernameToken({ nonce: null, created: null })),
      security(usernameToken({ digest: true })),
      security(timestamp() + usernameToken({ digest: true }))
    ]) {
      const response = await add(header)
      t.assert.strictEqual(response.statusCode, 200, response.body)
      t.assert.match(response.body, /<tns:result>5<\/tns:result>/)
    }
    for (const [header, name] of [
      [undefined, 'InvalidSecurity'],
      [security(usernameToken({ password: 'wrong', digest: true })), 'FailedAuthentication'],
      [security(timestamp(instant(-3_600_000), null) + usernameToken()), 'MessageExpired']
    ] as const) {
      const response = await add(header)
      t.assert.strictEqual(response.statusCode, version === '1.2' ? 400 : 500)
      t.assert.match(response.body, new RegExp(`:${name}<`))
    }
  })
}

/** The demo server's certificate as a BinarySecurityToken holds it: base64 DER on one line. */
const serverToken = readFileSync(join(DEMO_X509, 'test-server.pem'), 'utf8').replace(/-----[A-Z ]+-----|\s/g, '')

for (const version of ['1.1', '1.2'] as const) {
  test(`demo, docs/security.md "X.509 signatures": /secure/signed-calculator adds for a request the demo client signed (Body and Timestamp) and signs its reply with the demo server's certificate; a replayed, a changed and an unsigned request get their WSS faults (SOAP ${version})`, async (t: TestContext) => {
    const app = await buildDemo()
    t.after(() => app.close())
    const add = (payload: string): ReturnType<typeof post> => post(app, version, payload, { url: '/secure/signed-calculator' })
    const message = signedEnvelope(version, call('Add', { a: '2', b: '3' }), { folder: DEMO_X509 })
    const signed = await add(message)
    t.assert.strictEqual(signed.statusCode, 200, signed.body)
    t.assert.match(signed.body, /<tns:result>5<\/tns:result>/)
    t.assert.match(signed.body, /<ds:Signature\b/, 'the reply is signed')
    t.assert.ok(signed.body.replace(/\s/g, '').includes(`>${serverToken}</`), 'by the demo server\'s certificate, sent as its token')
    const sender = version === '1.2' ? 400 : 500
    for (const [payload, name] of [
      [message, 'FailedCheck'],
      [signedEnvelope(version, call('Add', { a: '2', b: '3' }), { folder: DEMO_X509 }).replace('>3<', '>4<'), 'FailedCheck'],
      [envelope(version, call('Add', { a: '2', b: '3' }), security(timestamp())), 'InvalidSecurity']
    ] as const) {
      const response = await add(payload)
      t.assert.strictEqual(response.statusCode, sender, response.body)
      t.assert.match(response.body, new RegExp(`:${name}<`))
    }
  })
}

test('demo, docs/security.md "X.509 signatures": npm start\'s server prints the signed Calculator\'s URL and the folder of the demo\'s test keys; a request signed with the client key there gets the sum', async (t: TestContext) => {
  const child = spawn(process.execPath, [join(__dirname, 'demo', 'server.js')], { env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'ignore'] })
  t.after(() => { child.kill() })
  const [url, folder] = await new Promise<string[]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no X.509 lines printed in 10 s')), 10_000)
    let out = ''
    child.stdout.on('data', (chunk) => {
      out += chunk
      const match = /X\.509: (http:\/\/127\.0\.0\.1:\d+\/secure\/signed-calculator) [^]*X\.509 keys \(test keys only, never for production\): (\S+) \(/.exec(out)
      if (match !== null) { clearTimeout(timer); resolve([match[1], match[2]]) }
    })
  })
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/xml' }, body: signedEnvelope('1.1', call('Add', { a: '40', b: '2' }), { folder }) })
  t.assert.match(await response.text(), /<tns:result>42<\/tns:result>/)
})

test('demo: npm start\'s server prints its URL and its WSDL URL, and answers on both', async (t: TestContext) => {
  const child = spawn(process.execPath, [join(__dirname, 'demo', 'server.js')], { env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'ignore'] })
  t.after(() => { child.kill() })
  const [url, wsdlUrl, secureUrl] = await new Promise<string[]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no URLs printed in 10 s')), 10_000)
    let out = ''
    child.stdout.on('data', (chunk) => {
      out += chunk
      const match = /(http:\/\/127\.0\.0\.1:\d+\/calculator)\b[^]*WSDL: (http:\/\/127\.0\.0\.1:\d+\/calculator\?wsdl)[^]*WS-Security: (http:\/\/127\.0\.0\.1:\d+\/secure\/calculator) /.exec(out)
      if (match !== null) { clearTimeout(timer); resolve([match[1], match[2], match[3]]) }
    })
  })
  const secured = await fetch(secureUrl, { method: 'POST', headers: { 'content-type': 'text/xml' }, body: envelope('1.1', call('Add', { a: '40', b: '2' }), security(usernameToken({ digest: true }))) })
  t.assert.match(await secured.text(), /<tns:result>42<\/tns:result>/)
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/xml' }, body: envelope('1.1', call('Add', { a: '40', b: '2' })) })
  t.assert.match(await response.text(), /<tns:result>42<\/tns:result>/)
  const wsdl = await fetch(wsdlUrl)
  t.assert.strictEqual(wsdl.status, 200)
  t.assert.match(await wsdl.text(), new RegExp(`<soap12:address location="${url.replaceAll('.', '\\.')}"/>`))
})

test('demo, docs/binary.md "The /files demo": npm start\'s server prints the Files URL, and a file uploaded there of more than 1 MiB comes back', async (t: TestContext) => {
  const child = spawn(process.execPath, [join(__dirname, 'demo', 'server.js')], { env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'ignore'] })
  t.after(() => { child.kill() })
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no Files URL printed in 10 s')), 10_000)
    let out = ''
    child.stdout.on('data', (chunk) => {
      out += chunk
      const match = /Files: (http:\/\/127\.0\.0\.1:\d+\/files) /.exec(out)
      if (match !== null) { clearTimeout(timer); resolve(match[1]) }
    })
  })
  const bytes = randomBytes(3 * 1024 * 1024)
  const upload = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/xml' }, body: envelope('1.1', file('Upload', `<f:name>big</f:name><f:content>${bytes.toString('base64')}</f:content>`)) })
  t.assert.match(await upload.text(), new RegExp(`<tns:size>${bytes.length}</tns:size><tns:sha256>${sha256(bytes)}</tns:sha256>`))
  const download = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/xml' }, body: envelope('1.1', file('Download', '<f:name>big</f:name>')) })
  const content = /<tns:content>([^<]*)<\/tns:content>/.exec(await download.text())
  t.assert.ok(content !== null && Buffer.from(content[1], 'base64').equals(bytes), 'the bytes uploaded, byte for byte')
})

test('docs/service-page.md "Turning it on": npm start\'s server prints the pages\' URLs, and a browser gets each page there', async (t: TestContext) => {
  const child = spawn(process.execPath, [join(__dirname, 'demo', 'server.js')], { env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'ignore'] })
  t.after(() => { child.kill() })
  const pages = await new Promise<string[]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no page URLs printed in 10 s')), 10_000)
    let out = ''
    child.stdout.on('data', (chunk) => {
      out += chunk
      const match = /Pages \(open in a browser\): (\S+), (\S+), (\S+), (\S+) and (\S+)\n/.exec(out)
      if (match !== null) { clearTimeout(timer); resolve(match.slice(1)) }
    })
  })
  t.assert.deepStrictEqual(pages.map((url) => new URL(url).pathname), ['/calculator', '/orders', '/files', '/secure/calculator', '/secure/signed-calculator'])
  for (const [url, name] of [[pages[0], 'Calculator'], [pages[1], 'Orders'], [pages[2], 'Files'], [pages[3], 'Calculator'], [pages[4], 'Calculator']]) {
    const response = await fetch(url, { headers: { accept: 'text/html' } })
    t.assert.strictEqual(response.status, 200, url)
    t.assert.match(await response.text(), new RegExp(`<h1>${name}</h1>`))
  }
})
