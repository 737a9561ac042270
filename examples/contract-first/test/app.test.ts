import { test, type TestContext } from 'node:test'
import { buildApp } from '../src/app.js'

const SOAP11 = 'http://schemas.xmlsoap.org/soap/envelope/'
const TYPES_NS = 'urn:ec.europa.eu:taxud:vies:services:checkVat:types'

/** A SOAP 1.1 call of the service, as a VIES client sends it (the WSDL's soapAction is ""). */
async function call (t: TestContext, body: string) {
  const app = await buildApp()
  t.after(() => app.close())
  return app.inject({
    method: 'POST',
    url: '/vies',
    headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '""' },
    payload: `<s:Envelope xmlns:s="${SOAP11}"><s:Body>${body}</s:Body></s:Envelope>`
  })
}

test('checkVat: a known VAT number, with its name and address', async (t: TestContext) => {
  const response = await call(t, `<v:checkVat xmlns:v="${TYPES_NS}"><v:countryCode>DE</v:countryCode><v:vatNumber>123456789</v:vatNumber></v:checkVat>`)
  t.assert.strictEqual(response.statusCode, 200, response.body)
  t.assert.match(response.headers['content-type'] as string, /^text\/xml/)
  t.assert.match(response.body, new RegExp(`<tns:checkVatResponse xmlns:tns="${TYPES_NS}"[^>]*><tns:countryCode>DE</tns:countryCode><tns:vatNumber>123456789</tns:vatNumber><tns:requestDate>\\d{4}-\\d{2}-\\d{2}Z</tns:requestDate><tns:valid>true</tns:valid><tns:name>Muster GmbH</tns:name><tns:address>Musterstraße 1\n10115 Berlin</tns:address></tns:checkVatResponse>`))
})

test('checkVat: an unknown VAT number is not valid, its name and address nil', async (t: TestContext) => {
  const response = await call(t, `<v:checkVat xmlns:v="${TYPES_NS}"><v:countryCode>DE</v:countryCode><v:vatNumber>000000000</v:vatNumber></v:checkVat>`)
  t.assert.strictEqual(response.statusCode, 200, response.body)
  t.assert.match(response.body, /<tns:valid>false<\/tns:valid><tns:name xsi:nil="true"\/><tns:address xsi:nil="true"\/>/)
})

test('checkVatApprox: the trader, with match codes for what was given', async (t: TestContext) => {
  const response = await call(t, `<v:checkVatApprox xmlns:v="${TYPES_NS}"><v:countryCode>DE</v:countryCode><v:vatNumber>123456789</v:vatNumber><v:traderName>muster gmbh</v:traderName><v:traderCity>Hamburg</v:traderCity></v:checkVatApprox>`)
  t.assert.strictEqual(response.statusCode, 200, response.body)
  t.assert.match(response.body, /<tns:traderName>Muster GmbH<\/tns:traderName><tns:traderCompanyType>DE-1<\/tns:traderCompanyType>/)
  t.assert.match(response.body, /<tns:traderNameMatch>1<\/tns:traderNameMatch><tns:traderCityMatch>2<\/tns:traderCityMatch><tns:requestIdentifier>WAPIAAAA\d{8}<\/tns:requestIdentifier>/)
})

test('a malformed country code: the fault VIES answers, INVALID_INPUT', async (t: TestContext) => {
  const response = await call(t, `<v:checkVat xmlns:v="${TYPES_NS}"><v:countryCode>Germany</v:countryCode><v:vatNumber>123456789</v:vatNumber></v:checkVat>`)
  t.assert.strictEqual(response.statusCode, 500)
  t.assert.match(response.body, /<soap:Fault><faultcode>soap:Client<\/faultcode><faultstring>INVALID_INPUT<\/faultstring><\/soap:Fault>/)
})

test('an element the WSDL does not have: a Client fault from the plugin', async (t: TestContext) => {
  const response = await call(t, `<v:checkVat xmlns:v="${TYPES_NS}"><v:countryCode>DE</v:countryCode><v:vatNumber>123456789</v:vatNumber><v:extra>1</v:extra></v:checkVat>`)
  t.assert.strictEqual(response.statusCode, 500)
  t.assert.match(response.body, /<faultcode>soap:Client<\/faultcode><faultstring>Invalid input: /)
})

test('GET /vies?wsdl: the WSDL as given, with the live address', async (t: TestContext) => {
  const app = await buildApp()
  t.after(() => app.close())
  const response = await app.inject({ method: 'GET', url: '/vies?wsdl', headers: { host: '127.0.0.1:3000' } })
  t.assert.strictEqual(response.statusCode, 200)
  t.assert.match(response.body, /<wsdl:service name="checkVatService">/)
  t.assert.match(response.body, /<wsdlsoap:address location="http:\/\/127\.0\.0\.1:3000\/vies"\/>/)
})
