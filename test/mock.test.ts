/**
 * docs/mock.md "Sample answers": `contract({ unimplemented: 'sample' })`
 * answers every operation without a handler with a sample of its output,
 * checked as any reply, that validates against the contract's own XSD
 * (xmllint); a declared fault is answered when the request asks for it
 * (`x-soap-mock-fault`); an invalid request gets the Sender fault a real
 * service gives. Through fastify.inject.
 */
import { test, type TestContext } from 'node:test'
import Fastify, { type FastifyInstance } from 'fastify'
import soap, { readContract, type Contract } from '../lib/index'
import { sampleEnvelope } from '../lib/codec/sample'
import { invalidAgainstXsd, mockRequest } from './contract-xsd'
import { sharedFixture } from './helper'

async function mock (t: TestContext, wsdl: string, options: Record<string, unknown> = {}): Promise<{ app: FastifyInstance, contract: Contract }> {
  const contract = await readContract({ wsdl, ...options })
  const app = Fastify()
  await app.register(soap)
  app.register(async (scope) => { scope.soap.contract({ path: '/mock', wsdl, ...options, operations: {}, unimplemented: 'sample' }) })
  await app.ready()
  t.after(() => app.close())
  return { app, contract }
}

test('docs/mock.md "Sample answers": every operation of OCPP 1.6 (SOAP 1.2) and CMIS (SOAP 1.1) answers 200 a sample of its output, the same for the same request, valid against the contract\'s XSD', async (t: TestContext) => {
  const ocpp = sharedFixture(t, 'wsdl', 'ocpp16', 'OCPP_CentralSystemService_1.6.wsdl')
  const cmis = sharedFixture(t, 'wsdl', 'cmis11', 'CMISWS-Service.wsdl')
  if (ocpp === undefined || cmis === undefined) return
  for (const [wsdl, options] of [[ocpp, {}], [cmis, { service: 'ObjectService' }]] as const) {
    const { app, contract } = await mock(t, wsdl, options)
    const answers: Array<[string, string]> = []
    for (const name of Object.keys(contract.operations)) {
      const response = await app.inject(mockRequest(contract, name))
      t.assert.strictEqual(response.statusCode, 200, `${name}: ${response.body}`)
      t.assert.strictEqual((await app.inject(mockRequest(contract, name))).body, response.body, `${name}: the same answer again`)
      answers.push([name, response.body])
    }
    t.assert.ok(answers.length >= 10)
    const invalid = invalidAgainstXsd(t, contract, answers)
    if (invalid !== undefined) t.assert.deepStrictEqual(invalid, [])
  }
})

test('docs/mock.md "Sample answers": the sampleSeed option varies the answers', async (t: TestContext) => {
  const ocpp = sharedFixture(t, 'wsdl', 'ocpp16', 'OCPP_CentralSystemService_1.6.wsdl')
  if (ocpp === undefined) return
  const one = await mock(t, ocpp)
  const two = await mock(t, ocpp, { sampleSeed: 7 })
  const a = await one.app.inject(mockRequest(one.contract, 'Authorize'))
  const b = await two.app.inject(mockRequest(two.contract, 'Authorize'))
  t.assert.strictEqual(b.statusCode, 200)
  t.assert.notStrictEqual(a.body, b.body)
})

test('docs/mock.md "Declared faults": x-soap-mock-fault answers the operation\'s declared fault, its detail a sample valid against the XSD; an undeclared name is a Sender fault naming those declared', async (t: TestContext) => {
  const cmis = sharedFixture(t, 'wsdl', 'cmis11', 'CMISWS-Service.wsdl')
  if (cmis === undefined) return
  const { app, contract } = await mock(t, cmis, { service: 'RepositoryService' })
  const fault = await app.inject(mockRequest(contract, 'getRepositories', { 'x-soap-mock-fault': 'cmisException' }))
  t.assert.strictEqual(fault.statusCode, 500)
  t.assert.match(fault.body, /<faultcode>soap:Server<\/faultcode><faultstring>The fault cmisException of getRepositories, as asked by x-soap-mock-fault<\/faultstring><detail><[^>]*cmisFault /)
  const detail = /<detail>(.*)<\/detail>/.exec(fault.body)?.[1] as string
  const invalid = invalidAgainstXsd(t, contract, [['detail', `<e xmlns="http://schemas.xmlsoap.org/soap/envelope/"><Body>${detail}</Body></e>`]])
  if (invalid !== undefined) t.assert.deepStrictEqual(invalid, [])
  const unknown = await app.inject(mockRequest(contract, 'getRepositories', { 'x-soap-mock-fault': 'nope' }))
  t.assert.strictEqual(unknown.statusCode, 500)
  t.assert.match(unknown.body, /<faultcode>soap:Client<\/faultcode><faultstring>The operation getRepositories has no fault nope \(it declares cmisException\)<\/faultstring>/)
})

test('docs/mock.md "Sample answers", "Declared faults": a request invalid against the contract gets the Sender fault a real service gives, not a sample; a fault asked of an operation declaring none is a Sender fault', async (t: TestContext) => {
  const ocpp = sharedFixture(t, 'wsdl', 'ocpp16', 'OCPP_CentralSystemService_1.6.wsdl')
  if (ocpp === undefined) return
  const { app, contract } = await mock(t, ocpp)
  const empty = sampleEnvelope({ type: 'object', properties: {}, xml: { name: 'authorizeRequest', namespace: 'urn://Ocpp/Cs/2015/10/' } }, '1.2')
  const response = await app.inject(mockRequest(contract, 'Authorize', {}, empty))
  t.assert.strictEqual(response.statusCode, 400)
  t.assert.match(response.body, /<soap:Value>soap:Sender<\/soap:Value>.*idTag/)
  const none = await app.inject(mockRequest(contract, 'Authorize', { 'x-soap-mock-fault': 'AnyFault' }))
  t.assert.strictEqual(none.statusCode, 400)
  t.assert.match(none.body, /<soap:Text xml:lang="en">The operation Authorize has no fault AnyFault \(it declares none\)<\/soap:Text>/)
})

test('docs/mock.md "Sample answers": output header blocks are answered with a sample too: the SOAP 1.2 test suite\'s echoOk answers its responseOk block beside an empty Body', async (t: TestContext) => {
  const suite = sharedFixture(t, 'wsdl', 'soap12-testsuite', 'soap12-test.wsdl')
  if (suite === undefined) return
  const { app, contract } = await mock(t, suite, { binding: 'Soap12TestDocBinding' })
  const response = await app.inject(mockRequest(contract, 'echoOk'))
  t.assert.strictEqual(response.statusCode, 200, response.body)
  t.assert.match(response.body, /<soap:Header><[^>]*responseOk [^>]*>[^<]+<\/[^>]*responseOk><\/soap:Header><soap:Body><\/soap:Body>/)
})
