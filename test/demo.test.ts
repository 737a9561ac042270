import { test, type TestContext } from 'node:test'
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { buildDemo } from './demo/app'
import { envelope, post, assertValidEnvelope } from './helper'
import { instant, security, timestamp, usernameToken } from './ws/security/ws-security-support'

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

test('docs/service-page.md "Turning it on": npm start\'s server prints the pages\' URLs, and a browser gets each page there', async (t: TestContext) => {
  const child = spawn(process.execPath, [join(__dirname, 'demo', 'server.js')], { env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'ignore'] })
  t.after(() => { child.kill() })
  const pages = await new Promise<string[]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no page URLs printed in 10 s')), 10_000)
    let out = ''
    child.stdout.on('data', (chunk) => {
      out += chunk
      const match = /Pages \(open in a browser\): (\S+), (\S+) and (\S+)\n/.exec(out)
      if (match !== null) { clearTimeout(timer); resolve(match.slice(1)) }
    })
  })
  t.assert.deepStrictEqual(pages.map((url) => new URL(url).pathname), ['/calculator', '/orders', '/secure/calculator'])
  for (const [url, name] of [[pages[0], 'Calculator'], [pages[1], 'Orders'], [pages[2], 'Calculator']]) {
    const response = await fetch(url, { headers: { accept: 'text/html' } })
    t.assert.strictEqual(response.status, 200, url)
    t.assert.match(await response.text(), new RegExp(`<h1>${name}</h1>`))
  }
})
