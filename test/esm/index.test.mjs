// An ES module consumer of the built package, through package.json "exports".
import { test } from 'node:test'
import assert from 'node:assert/strict'
import Fastify from 'fastify'
import soap, { fastifySoap, SoapFault, errorCodes } from 'fastify-soap'

test('ESM: default and named imports', async () => {
  assert.equal(typeof soap, 'function')
  assert.equal(fastifySoap, soap)
  assert.equal(typeof SoapFault, 'function')
  assert.equal(typeof errorCodes.SOAP_ERR_OPT_INVALID, 'function')
  const app = Fastify()
  await app.register(soap, { routes: async (scope) => { scope.post('/x', async (_request, reply) => reply.soap()) } })
  const response = await app.inject({
    method: 'POST',
    url: '/x',
    headers: { 'content-type': 'text/xml' },
    payload: '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body/></s:Envelope>'
  })
  assert.equal(response.statusCode, 200)
  await app.close()
})
