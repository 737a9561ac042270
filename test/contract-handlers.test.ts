/**
 * A contract's handlers written with defineContractOperations()
 * (docs/typescript.md "Exact results"): typed from the schemas that
 * `fastify-soap types` writes, and served as they are given. The type
 * rules themselves are checked by test/types/contract.tst.ts.
 */
import { test, type TestContext } from 'node:test'
import Fastify from 'fastify'
import soap, { defineContractOperations, type ContractOperations } from '../lib/index'
import { CONTRACT_NS, contractWsdl, envelope, MEDIA } from './helper'

/** The schemas of contractWsdl()'s operation, as `fastify-soap types` writes them. */
const schemas = {
  Op: {
    input: {
      type: 'object',
      properties: { a: { type: 'string', xml: { namespace: CONTRACT_NS } } },
      additionalProperties: false,
      required: ['a'],
      xml: { name: 'Op', namespace: CONTRACT_NS }
    },
    output: {
      type: 'object',
      properties: { b: { type: 'string', xml: { namespace: CONTRACT_NS } } },
      additionalProperties: false,
      required: ['b'],
      xml: { name: 'OpResponse', namespace: CONTRACT_NS }
    }
  }
} as const

test('docs/typescript.md "Exact results": defineContractOperations() returns the handlers it is given, and app.soap.contract() serves them', async (t: TestContext) => {
  const handlers = { Op: async ({ a }: { a: string }) => ({ b: a.toUpperCase() }) }
  const operations = defineContractOperations(schemas, handlers)
  t.assert.strictEqual(operations, handlers)
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.contract<ContractOperations<typeof schemas>>({ path: '/k', document: contractWsdl({}), operations })
  const res = await app.inject({
    method: 'POST',
    url: '/k',
    headers: { 'content-type': MEDIA['1.1'], soapaction: '"urn:svc/Op"' },
    payload: envelope('1.1', `<k:Op xmlns:k="${CONTRACT_NS}"><k:a>parcel</k:a></k:Op>`)
  })
  t.assert.strictEqual(res.statusCode, 200)
  t.assert.match(res.body, /<(\w+:)?b>PARCEL<\/(\w+:)?b>/)
})
