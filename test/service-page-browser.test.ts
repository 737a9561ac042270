/**
 * docs/service-page.md in a real browser: headless Chromium (the system's,
 * Debian `chromium`) driven by playwright-core opens the demo's pages on a
 * loopback port and uses their "try it" forms.
 */
import { test, type TestContext } from 'node:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Fastify, { type FastifyInstance } from 'fastify'
import { chromium, type BrowserContext, type Locator } from 'playwright-core'
import soap from '../lib/index'
import { buildDemo } from './demo/app'
import { contractWsdl } from './helper'
import { requireClient } from './interop'

const CHROMIUM = '/usr/bin/chromium'
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']

/** A browser with a fresh profile, closed and removed after the test; undefined (missing()) without chromium. */
async function browser (t: TestContext): Promise<BrowserContext | undefined> {
  if (!requireClient(t, 'Chromium (chromium)', CHROMIUM, ['--version'])) return undefined
  const profile = await mkdtemp(join(tmpdir(), 'fastify-soap-chromium-'))
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, headless: true, timeout: 30_000 })
  context.setDefaultTimeout(15_000)
  t.after(async () => {
    await context.close()
    await rm(profile, { recursive: true, force: true })
  })
  return context
}

async function listening (t: TestContext, app: FastifyInstance): Promise<string> {
  t.after(() => app.close())
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address() as { port: number }
  return `http://127.0.0.1:${address.port}`
}

/** Sets an element's value in a sample envelope: the text of its first element of that local name. */
async function setValue (area: Locator, name: string, value: string): Promise<void> {
  const text = await area.inputValue()
  const edited = text.replace(new RegExp(`(<([\\w.-]+:)?${name}(\\s[^>]*)?>)[^<]*(</)`), `$1${value}$4`)
  if (edited === text) throw new Error(`no <${name}> in the sample:\n${text}`)
  await area.fill(edited)
}

test('docs/service-page.md "Try it": in Chromium, Calculator\'s Add with 2 and 3 shows 5 in the reply, in SOAP 1.1 and 1.2', async (t: TestContext) => {
  const context = await browser(t)
  if (context === undefined) return
  const base = await listening(t, await buildDemo())
  const page = await context.newPage()
  const errors: string[] = []
  // The browser's own request for /favicon.ico (a 404 of the app's) is not the page's.
  page.on('console', (message) => { if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) errors.push(message.text()) })
  const response = await page.goto(`${base}/calculator`)
  t.assert.strictEqual(response?.status(), 200)
  t.assert.strictEqual(await page.title(), 'Calculator: SOAP service')
  await page.click('nav a[href="#op-Add"]')
  const add = page.locator('#op-Add')
  t.assert.strictEqual(await add.locator('.action').textContent(), 'urn:example:calc/Add')
  for (const version of ['1.1', '1.2']) {
    await add.locator(`input[name="version"][value="${version}"]`).check()
    const area = add.locator(`textarea[data-version="${version}"]`)
    t.assert.strictEqual(await area.isVisible(), true)
    t.assert.strictEqual(await add.locator(`textarea[data-version="${version === '1.1' ? '1.2' : '1.1'}"]`).isVisible(), false)
    await setValue(area, 'a', '2')
    await setValue(area, 'b', '3')
    await add.locator('button[type="submit"]').click()
    await add.locator('.status', { hasText: '200' }).waitFor()
    t.assert.strictEqual(await add.locator('.status').textContent(), '200 OK')
    t.assert.match(await add.locator('.reply').textContent() as string, /<([\w-]+:)?result>5<\/([\w-]+:)?result>/)
  }
  // The policy held: the page's own script ran, and nothing was refused.
  t.assert.deepStrictEqual(errors, [])
})

test('docs/service-page.md "Try it": in Chromium, Orders\' GetOrder (a header block, a declared fault) shows the fault and its status', async (t: TestContext) => {
  const context = await browser(t)
  if (context === undefined) return
  const base = await listening(t, await buildDemo())
  const page = await context.newPage()
  await page.goto(`${base}/orders#op-GetOrder`)
  const section = page.locator('#op-GetOrder')
  t.assert.match(await section.locator('h3 + h4, h4').first().textContent() as string, /Header blocks/)
  t.assert.strictEqual(await section.locator('.fault').textContent(), 'OrderNotFound')
  const area = section.locator('textarea[data-version="1.1"]')
  t.assert.match(await area.inputValue(), /<soap:Header>\s*<tns:Tenant/)
  await setValue(area, 'orderId', 'nobody-1')
  await section.locator('button[type="submit"]').click()
  await section.locator('.status', { hasText: '500' }).waitFor()
  t.assert.strictEqual(await section.locator('.status').textContent(), '500 Internal Server Error')
  const reply = await section.locator('.reply').textContent() as string
  t.assert.match(reply, /<faultcode>soap:Client<\/faultcode>/)
  t.assert.match(reply, /<faultstring[^>]*>no order nobody-1<\/faultstring>/)
  t.assert.match(reply, /OrderNotFound/)
})

test('docs/service-page.md "Security": in Chromium, a WSDL\'s documentation holding <script> is shown as text and never runs', async (t: TestContext) => {
  const context = await browser(t)
  if (context === undefined) return
  const app = Fastify()
  await app.register(soap, { servicePage: true })
  const documentation = '<script>window.injected = 1</script><img src=x onerror="window.injected = 2">'
  app.soap.contract({
    path: '/svc',
    document: contractWsdl({ extra: `<wsdl:documentation><![CDATA[${documentation}]]></wsdl:documentation>` }),
    operations: { Op: async () => ({ b: 'x' }) }
  })
  const base = await listening(t, app)
  const page = await context.newPage()
  await page.goto(`${base}/svc`)
  t.assert.strictEqual(await page.locator('header .doc').textContent(), documentation)
  t.assert.strictEqual(await page.evaluate(() => (window as unknown as { injected?: number }).injected), undefined)
  t.assert.strictEqual(await page.locator('header script, header img').count(), 0)
})
