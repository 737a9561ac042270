/**
 * docs/service-page.md: the page a browser gets at a service's path with
 * `servicePage` on, its script and style sheet, and the answers that stay
 * as docs/protocol.md "GET" gives them without it.
 */
import { test, type TestContext } from 'node:test'
import { join } from 'node:path'
import Fastify, { type FastifyInstance } from 'fastify'
import soap, { type FastifySoapOptions } from '../lib/index'
import { buildDemo } from './demo/app'
import { contractWsdl, sharedFixture } from './helper'

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'

async function demo (t: TestContext): Promise<FastifyInstance> {
  const app = await buildDemo()
  t.after(() => app.close())
  await app.ready()
  return app
}

function page (app: FastifyInstance, url: string, accept = BROWSER) {
  return app.inject({ method: 'GET', url, headers: { accept } })
}

async function plainApp (t: TestContext, options: FastifySoapOptions): Promise<FastifyInstance> {
  const app = Fastify()
  await app.register(soap, options)
  const { calculator } = await import('./demo/app.js')
  app.soap.service(calculator)
  t.after(() => app.close())
  await app.ready()
  return app
}

test('docs/service-page.md "Turning it on": off by default, a browser\'s GET <path> is the 404 of docs/protocol.md "GET"', async (t: TestContext) => {
  const app = await plainApp(t, {})
  for (const url of ['/calculator', '/calculator?page.js', '/calculator?page.css']) {
    const res = await page(app, url)
    t.assert.strictEqual(res.statusCode, 404, url)
    t.assert.strictEqual(res.body, '')
  }
})

test('docs/service-page.md "Turning it on": "servicePage" is a boolean (SOAP_ERR_OPT_INVALID)', async (t: TestContext) => {
  const app = Fastify()
  t.after(() => app.close())
  await t.assert.rejects(async () => {
    await app.register(soap, { servicePage: 'yes' as unknown as boolean })
  }, { code: 'SOAP_ERR_OPT_INVALID', message: /servicePage.*a boolean/ })
})

test('docs/service-page.md "Who gets the page": a GET whose Accept lists no text/html keeps the answers of docs/protocol.md "GET"', async (t: TestContext) => {
  const app = await plainApp(t, { servicePage: true })
  for (const accept of ['', '*/*', 'text/xml', 'application/soap+xml', 'text/html;q=0', 'text/htmlx', 'TEXT/HTML; Q=0']) {
    const res = await app.inject({ method: 'GET', url: '/calculator', headers: accept === '' ? {} : { accept } })
    t.assert.strictEqual(res.statusCode, 404, accept)
    t.assert.strictEqual(res.body, '')
  }
  const wsdl = await page(app, '/calculator?wsdl')
  t.assert.strictEqual(wsdl.statusCode, 200)
  t.assert.match(wsdl.headers['content-type'] as string, /^text\/xml/)
  t.assert.strictEqual((await page(app, '/calculator?page.js&wsdl')).headers['content-type'], 'text/xml; charset=utf-8')
  t.assert.strictEqual((await page(app, '/calculator?other')).statusCode, 404)
  t.assert.strictEqual((await app.inject({ method: 'DELETE', url: '/calculator' })).statusCode, 405)
})

test('docs/service-page.md "The page": the service, an index, each operation\'s action, messages as trees, faults, links to ?wsdl and ?xsd=', async (t: TestContext) => {
  const app = await demo(t)
  const res = await page(app, '/orders', 'text/html; q=0.5, application/json')
  t.assert.strictEqual(res.statusCode, 200)
  t.assert.strictEqual(res.headers['content-type'], 'text/html; charset=utf-8')
  t.assert.strictEqual(res.headers.vary, 'accept')
  const html = res.body
  t.assert.match(html, /<h1>Orders<\/h1>/)
  t.assert.match(html, /<code>urn:example:orders<\/code>/)
  for (const op of ['PlaceOrder', 'GetOrder', 'CancelOrder']) {
    t.assert.match(html, new RegExp(`<li><a href="#op-${op}">${op}</a></li>`))
    t.assert.match(html, new RegExp(`<section id="op-${op}" class="operation">`))
    t.assert.match(html, new RegExp(`<code class="action">urn:example:orders/${op}</code>`))
  }
  t.assert.match(html, /<a href="\?wsdl">WSDL<\/a> · <a href="\?xsd=tns">schema tns<\/a>/)
  // A tree: names, types, occurrences, enumerations; an attribute, a header block, a wrapped array, a nillable element.
  t.assert.match(html, /<td class="name d0"><code title="\{urn:example:orders\}">Tenant<\/code><\/td><td>complex<\/td><td>0\.\.1<\/td>/)
  t.assert.match(html, /<td class="name d1"><code>@sku<\/code><\/td><td>string<\/td><td>1<\/td>/)
  t.assert.match(html, /line<\/code><\/td><td>complex<\/td><td>1\.\.100<\/td>/)
  t.assert.match(html, /priority<\/code><\/td><td>string<\/td><td>1<\/td><td class="values"><code>low<\/code><code>normal<\/code><code>high<\/code>/)
  t.assert.match(html, /deliveryDate<\/code><\/td><td>string \(date\)<\/td>/)
  t.assert.match(html, /tags<\/code><\/td><td>wrapper<\/td><td>0\.\.1<\/td>[^\n]*\n[^\n]*d1[^\n]*tags<\/code><\/td><td>string<\/td><td>0\.\.10<\/td>/)
  t.assert.match(html, /note<\/code><\/td><td>string<\/td><td>0\.\.1<\/td><td class="values"><\/td><td>nillable<\/td>/)
  t.assert.match(html, /<h3>Faults<\/h3>\n<h4><span class="fault">OrderNotFound<\/span>, detail: <code title="\{urn:example:orders\}">OrderNotFound<\/code><\/h4>/)
  t.assert.match(html, /one-way, answered <code>202 Accepted<\/code>/)
  // Sample envelopes in both versions, the 1.2 one hidden until chosen.
  t.assert.match(html, /<form class="try" data-action="urn:example:orders\/GetOrder">/)
  t.assert.match(html, /<textarea data-version="1\.1"[^>]*>&lt;soap:Envelope xmlns:soap="http:\/\/schemas\.xmlsoap\.org\/soap\/envelope\/"&gt;/)
  t.assert.match(html, /<textarea data-version="1\.2"[^>]* hidden>&lt;soap:Envelope xmlns:soap="http:\/\/www\.w3\.org\/2003\/05\/soap-envelope"&gt;/)
  t.assert.match(html, /&lt;soap:Header&gt;\n {4}&lt;tns:Tenant/)
})

test('docs/service-page.md "Security": a Content-Security-Policy with no inline script; the script and style sheet are resources of their own', async (t: TestContext) => {
  const app = await demo(t)
  const res = await page(app, '/calculator')
  const policy = res.headers['content-security-policy'] as string
  t.assert.match(policy, /default-src 'none'/)
  t.assert.match(policy, /script-src 'self'(;|$)/)
  t.assert.match(policy, /style-src 'self'(;|$)/)
  t.assert.match(policy, /connect-src 'self'(;|$)/)
  t.assert.match(policy, /frame-ancestors 'none'/)
  t.assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval/)
  t.assert.strictEqual(res.headers['x-content-type-options'], 'nosniff')
  // Every script has a src; no inline style or event handler.
  t.assert.deepStrictEqual(res.body.match(/<script[^>]*>/g), ['<script src="?page.js" defer>'])
  t.assert.doesNotMatch(res.body, /<style|\sstyle=|\son[a-z]+=/i)
  const script = await page(app, '/calculator?page.js', '*/*')
  t.assert.strictEqual(script.statusCode, 200)
  t.assert.strictEqual(script.headers['content-type'], 'text/javascript; charset=utf-8')
  t.assert.match(script.body, /fetch\(window\.location\.pathname/)
  const style = await page(app, '/calculator?page.css', 'text/css')
  t.assert.strictEqual(style.headers['content-type'], 'text/css; charset=utf-8')
  t.assert.match(style.body, /textarea/)
})

const HOSTILE = contractWsdl({
  extra: '<wsdl:documentation>Orders &amp; more <![CDATA[<script>alert(1)</script>]]> "quoted"</wsdl:documentation>',
  portType: '<wsdl:portType name="PT"><wsdl:documentation>  </wsdl:documentation><wsdl:operation name="Op"><wsdl:documentation>Does &lt;b&gt;things&lt;/b&gt;</wsdl:documentation><wsdl:input message="tns:In"/><wsdl:output message="tns:Out"/></wsdl:operation></wsdl:portType>'
})

test('docs/service-page.md "Security": everything from the WSDL is escaped, its documentation shown as text', async (t: TestContext) => {
  const app = Fastify()
  await app.register(soap, { servicePage: true })
  app.soap.contract({ path: '/svc', document: HOSTILE, operations: { Op: async () => ({ b: 'x' }) } })
  t.after(() => app.close())
  await app.ready()
  const res = await page(app, '/svc')
  t.assert.strictEqual(res.statusCode, 200)
  t.assert.match(res.body, /<p class="doc">Orders &amp; more &lt;script&gt;alert\(1\)&lt;\/script&gt; "quoted"<\/p>/)
  t.assert.match(res.body, /<section id="op-Op" class="operation">\n<h2>Op<\/h2>\n<p class="doc">Does &lt;b&gt;things&lt;\/b&gt;<\/p>/)
  t.assert.doesNotMatch(res.body, /<script>|<b>/)
})

test('docs/service-page.md "Large services": a 122-operation contract (Exchange) gets an index and one section per operation', async (t: TestContext) => {
  const ews = sharedFixture(t, 'wsdl', 'ews')
  if (ews === undefined) return
  const app = Fastify()
  await app.register(soap, { servicePage: true })
  app.soap.contract({ path: '/ews', wsdl: join(ews, 'services.wsdl'), operations: {}, unimplemented: 'fault' })
  t.after(() => app.close())
  await app.ready()
  const res = await page(app, '/ews')
  t.assert.strictEqual(res.statusCode, 200)
  const sections = res.body.match(/<section id="op-[^"]+" class="operation">/g) ?? []
  t.assert.strictEqual(sections.length, 122)
  t.assert.strictEqual((res.body.match(/<li><a href="#op-/g) ?? []).length, 122)
  t.assert.match(res.body, /<h2>Operations \(122\)<\/h2>/)
  t.assert.match(res.body, /<section id="op-FindItem" class="operation">/)
  // A message larger than a reader can take in is cut, and says so.
  t.assert.match(res.body, /more rows: the WSDL states them all/)
  t.assert.match(res.body, /contains itself: see above/)
  // A long enumeration shows its first 20 values; a table met again is a link to the first.
  t.assert.match(res.body, /<td class="values">(<code>[^<]*<\/code>){20} and \d+ more<\/td>/)
  t.assert.match(res.body, /<p class="same">The same as <a href="#op-[A-Za-z]+-(request|response)(-headers)?">[A-Za-z]+, (request|response)( headers)?<\/a> \(\d+ rows\)\.<\/p>/)
  t.assert.ok(res.body.length < 3_000_000, `${res.body.length} characters`)
  // Built once, then kept.
  t.assert.strictEqual((await page(app, '/ews')).body, res.body)
})
