/**
 * fastify-soap as the benchmarks serve it: the demo's services (the Calculator
 * and the orders) and the List service of the large workload. The bench's
 * server runs it (benchmarks/http/server.ts); the peers are given the WSDLs it
 * writes (benchmarks/http/peers.ts); bench:micro's serializer writes the List's answer.
 */
import type { FastifyInstance } from 'fastify'
import { defineOperation, defineService } from '../../lib/index'
import { buildDemo } from '../../test/demo/app'
import { LIST_NS } from '../fixtures'

const item = {
  type: 'object',
  properties: {
    id: { type: 'integer', xml: { attribute: true } },
    name: { type: 'string' },
    price: { type: 'number' },
    tags: { type: 'string' }
  },
  required: ['id', 'name', 'price', 'tags'],
  additionalProperties: false
} as const

const items = { type: 'object', properties: { item: { type: 'array', items: item } }, required: ['item'], additionalProperties: false } as const

/** The large workload: a list of records in, the same list out, through the schema codec. */
export const listService = defineService({
  path: '/list',
  namespace: LIST_NS,
  name: 'List',
  operations: {
    EchoList: defineOperation({
      input: items,
      output: items,
      async handler ({ item }) {
        return { item }
      }
    })
  }
})

/** fastify-soap with both services, as the bench and the peers' WSDLs use it. */
export async function buildSoap (): Promise<FastifyInstance> {
  const app = await buildDemo()
  app.soap.service(listService)
  return app
}
