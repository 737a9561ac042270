/**
 * fastify-soap as the benchmarks serve it: the demo's services (the Calculator
 * and the orders) and the List service of the large workload. The bench's
 * server runs it (benchmarks/http/server.ts); the peers are given the WSDLs it
 * writes (benchmarks/http/peers.ts); bench:micro's serializer writes the List's answer.
 * The upload workload has a server of its own (buildUpload), its body limit raised.
 */
import { createHash } from 'node:crypto'
import Fastify, { type FastifyInstance } from 'fastify'
import soap, { defineOperation, defineService } from '../../lib/index'
import { buildDemo, serverOptions } from '../../test/demo/app'
import { LIST_NS, UPLOAD_BYTES, UPLOAD_NS } from '../fixtures'
import { signedBenchCalculator, signedReplyBenchCalculator } from './signed'

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

/** fastify-soap with both services, as the bench and the peers' WSDLs use it; and the signed workload's Calculators. */
export async function buildSoap (): Promise<FastifyInstance> {
  const app = await buildDemo()
  app.soap.service(listService)
  app.soap.service(signedBenchCalculator)
  app.soap.service(signedReplyBenchCalculator)
  return app
}

/** The upload workload: one base64Binary element in (inline or an MTOM part), its byte count and SHA-256 (hex) out. */
export const uploadService = defineService({
  path: '/upload',
  namespace: UPLOAD_NS,
  name: 'Upload',
  operations: {
    Upload: defineOperation({
      input: { type: 'object', properties: { Data: { type: 'string', contentEncoding: 'base64' } }, required: ['Data'], additionalProperties: false },
      output: { type: 'object', properties: { Size: { type: 'integer' }, Sha256: { type: 'string' } }, required: ['Size', 'Sha256'], additionalProperties: false },
      async handler ({ Data }) {
        return { Size: Data.length, Sha256: createHash('sha256').update(Data).digest('hex') }
      }
    })
  }
})

/**
 * The plugin's body limit for the upload server alone: the base64 envelope
 * of the 10 MiB upload is about 13.3 MiB. The other servers keep theirs.
 */
export const UPLOAD_BODY_LIMIT = 2 * UPLOAD_BYTES

/** fastify-soap serving the upload alone, with the demo's server settings. */
export async function buildUpload (): Promise<FastifyInstance> {
  const app = Fastify({ ...serverOptions })
  await app.register(soap, { bodyLimit: UPLOAD_BODY_LIMIT })
  app.soap.service(uploadService)
  return app
}
