import { test, type TestContext } from 'node:test'
import { buildApp, SHOP_NS } from '../src/app.js'

const API_KEY = 'test-key'
const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/'
const SOAP12 = 'http://www.w3.org/2003/05/soap-envelope'

type Version = '1.1' | '1.2'

/** A Quote call in an envelope of `version`. */
function quote (version: Version, lines: string): string {
  const env = version === '1.1' ? SOAP11 : SOAP12
  return `<s:Envelope xmlns:s="${env}"><s:Body>
    <q:Quote xmlns:q="${SHOP_NS}">
      <q:customer><q:name>Ada</q:name><q:country>GB</q:country></q:customer>
      ${lines}
    </q:Quote>
  </s:Body></s:Envelope>`
}

const TWO_LINES = '<q:line><q:sku>PEN-1</q:sku><q:quantity>4</q:quantity></q:line><q:line><q:sku>BOOK-7</q:sku><q:quantity>1</q:quantity></q:line>'

/** POSTs `payload` to /shop as a SOAP `version` call, with `apiKey` in X-API-Key (none when null). */
async function post (t: TestContext, version: Version, payload: string, apiKey: string | null = API_KEY) {
  const app = await buildApp({ apiKey: API_KEY })
  t.after(() => app.close())
  const headers: Record<string, string> = version === '1.1'
    ? { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${SHOP_NS}/Quote"` }
    : { 'content-type': `application/soap+xml; charset=utf-8; action="${SHOP_NS}/Quote"` }
  if (apiKey !== null) headers['x-api-key'] = apiKey
  return app.inject({ method: 'POST', url: '/shop', headers, payload })
}

for (const version of ['1.1', '1.2'] as const) {
  test(`SOAP ${version}: a quote with its lines and total`, async (t: TestContext) => {
    const response = await post(t, version, quote(version, TWO_LINES))
    t.assert.strictEqual(response.statusCode, 200, response.body)
    t.assert.match(response.headers['content-type'] as string, version === '1.1' ? /^text\/xml/ : /^application\/soap\+xml/)
    t.assert.match(response.body, new RegExp(`<tns:QuoteResponse xmlns:tns="${SHOP_NS}">`))
    t.assert.match(response.body, /<tns:customer>Ada<\/tns:customer><tns:line sku="PEN-1"><tns:quantity>4<\/tns:quantity><tns:amount>6<\/tns:amount><\/tns:line><tns:line sku="BOOK-7"><tns:quantity>1<\/tns:quantity><tns:amount>12.9<\/tns:amount><\/tns:line><tns:total>18.9<\/tns:total><tns:currency>EUR<\/tns:currency>/)
  })
}

// The hook runs before the body is read: the fault's version is the Content-Type's.
const KEY_FAULTS = [
  { version: '1.2', status: 400, code: /<soap:Value>soap:Sender<\/soap:Value><\/soap:Code><soap:Reason><soap:Text xml:lang="en">a valid X-API-Key header is required<\/soap:Text>/ },
  { version: '1.1', status: 500, code: /<faultcode>soap:Client<\/faultcode><faultstring>a valid X-API-Key header is required<\/faultstring>/ }
] as const

for (const { version, status, code } of KEY_FAULTS) {
  test(`SOAP ${version}: a missing or wrong API key is a ${version === '1.1' ? 'Client' : 'Sender'} fault, status ${status}`, async (t: TestContext) => {
    for (const apiKey of [null, 'wrong']) {
      const response = await post(t, version, quote(version, TWO_LINES), apiKey)
      t.assert.strictEqual(response.statusCode, status, response.body)
      t.assert.match(response.headers['content-type'] as string, version === '1.1' ? /^text\/xml/ : /^application\/soap\+xml/)
      t.assert.match(response.body, code)
    }
  })
}

test('the declared fault: an unknown product, with its detail', async (t: TestContext) => {
  const lines = '<q:line><q:sku>PEN-1</q:sku><q:quantity>1</q:quantity></q:line><q:line><q:sku>NOPE-9</q:sku><q:quantity>1</q:quantity></q:line>'
  const response = await post(t, '1.2', quote('1.2', lines))
  t.assert.strictEqual(response.statusCode, 400)
  t.assert.match(response.body, /<soap:Value>soap:Sender<\/soap:Value>/)
  t.assert.match(response.body, /unknown product NOPE-9/)
  t.assert.match(response.body, new RegExp(`<soap:Detail><tns:UnknownProduct xmlns:tns="${SHOP_NS}"><tns:sku>NOPE-9</tns:sku></tns:UnknownProduct></soap:Detail>`))
})

test('an input the schema refuses: a Sender fault naming the value', async (t: TestContext) => {
  const lines = '<q:line><q:sku>PEN-1</q:sku><q:quantity>0</q:quantity></q:line>'
  const response = await post(t, '1.1', quote('1.1', lines))
  t.assert.strictEqual(response.statusCode, 500)
  t.assert.match(response.body, /<faultcode>soap:Client<\/faultcode><faultstring>Invalid input: \/line\/0\/quantity must be &gt;= 1<\/faultstring>/)
})

test('GET /shop?wsdl: the WSDL, without an API key', async (t: TestContext) => {
  const app = await buildApp({ apiKey: API_KEY })
  t.after(() => app.close())
  const response = await app.inject({ method: 'GET', url: '/shop?wsdl' })
  t.assert.strictEqual(response.statusCode, 200)
  t.assert.match(response.headers['content-type'] as string, /xml/)
  t.assert.match(response.body, /<wsdl:definitions /)
  t.assert.match(response.body, /<wsdl:operation name="Quote">/)
  t.assert.match(response.body, /name="UnknownProduct"/)
})
