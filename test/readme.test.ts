import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import Fastify from 'fastify'
import soap, { SoapFault, errorCodes, escapeXml, textContent } from '../lib/index'
import { envelope, post } from './helper'

const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8')

test('README: the usage example works as written', async (t: TestContext) => {
  // The example's body, taken from the README and run with the same imports.
  const block = /```ts\nimport Fastify from 'fastify'\n(?:.*\n)*?```/.exec(readme)?.[0]
  t.assert.ok(block !== undefined)
  const routes = /routes: (async \(app\) => \{\n(?:.*\n)*? {2}\})\n\}\)/.exec(block)?.[1]
  t.assert.ok(routes !== undefined, 'the routes plugin is in the example')
  // eslint-disable-next-line no-new-func
  const build = new Function('SoapFault', 'escapeXml', 'textContent', `return ${routes}`)
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap, { prefix: '/soap', routes: build(SoapFault, escapeXml, textContent) })
  const body = '<e:Echo xmlns:e="urn:example"><e:text>a &lt; b</e:text></e:Echo>'
  const response = await post(app, '1.2', envelope('1.2', body), { url: '/soap/echo' })
  t.assert.strictEqual(response.statusCode, 200)
  t.assert.match(response.body, /<e:text>a &lt; b<\/e:text>/)
  const wrong = await post(app, '1.1', envelope('1.1', '<x:Other xmlns:x="urn:x"/>'), { url: '/soap/echo' })
  t.assert.match(wrong.body, /<faultcode>soap:Client<\/faultcode><faultstring>unknown operation<\/faultstring>/)
})

test('README: the options table lists every option with the default in force', async (t: TestContext) => {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  const { limits, bodyLimit, maxXPathElements, maxAsyncReplies, maxAsyncReplyBytes } = app.soap.options
  const rows = new Map([...readme.matchAll(/^\| `(\w+)` \| `[^`]+` \| `?([^|`]+)`? .*\|$/gm)].map((m) => [m[1], m[2].trim()]))
  for (const [name, value] of Object.entries({ ...limits, bodyLimit, maxXPathElements, maxAsyncReplies, maxAsyncReplyBytes })) {
    t.assert.ok(rows.has(name), `${name} is documented`)
    if (name !== 'maxTextLength') t.assert.strictEqual(rows.get(name), String(value), name)
  }
  for (const name of ['routes', 'prefix', 'roles', 'understoodHeaders', 'namespaces']) t.assert.ok(rows.has(name), name)
})

test('README "Contract first: an existing WSDL": it names every SOAP_ERR_CONTRACT_* code of lib/errors.ts, ' +
  'and no other', (t: TestContext) => {
  const start = readme.indexOf('### Contract first: an existing WSDL')
  const section = readme.slice(start, readme.indexOf('\n#', start + 1))
  const named = new Set(section.match(/SOAP_ERR_CONTRACT_[A-Z_]+/g))
  const codes = Object.keys(errorCodes).filter((code) => code.startsWith('SOAP_ERR_CONTRACT_'))
  t.assert.ok(codes.length > 0)
  t.assert.deepStrictEqual([...named].sort(), codes.sort())
})
