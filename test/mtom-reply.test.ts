/**
 * docs/binary.md "MTOM", docs/protocol.md "MTOM/XOP" (replies): when a reply
 * is an MTOM package (the request was one, or the service or operation says
 * `mtom: 'always'`), its binary values from `mtomThreshold` bytes go as
 * parts; each package is read back with the plugin's own multipart reader.
 * Through fastify.inject and real loopback HTTP.
 */
import { test, type TestContext } from 'node:test'
import Fastify, { type FastifyInstance } from 'fastify'
import soap, { defineOperation, errorCodes, type SoapServiceDefinition } from '../lib/index'

const NS = 'urn:test:mtom-out'
const blob = { type: 'string', contentEncoding: 'base64' } as const

const Fetch = defineOperation({
  input: { type: 'object', properties: { size: { type: 'integer' } }, required: ['size'], additionalProperties: false },
  output: {
    type: 'object',
    properties: { name: { type: 'string' }, data: blob, more: { type: 'array', items: blob } },
    additionalProperties: false,
    xml: { name: 'FetchResponse' }
  },
  handler: (input) => ({ name: 'n', data: bytesOf(input.size), more: [] })
})

/** `size` bytes, none the same as its neighbour's position would make it: 0..250 repeating. */
function bytesOf (size: number): Buffer {
  return Buffer.from(Array.from({ length: size }, (_, i) => i % 251))
}

async function service (t: TestContext, extra: Partial<SoapServiceDefinition> = {}): Promise<FastifyInstance> {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.service({ path: '/files', namespace: NS, name: 'Files', operations: { Fetch }, ...extra })
  await app.ready()
  return app
}

test('docs/binary.md "MTOM" (options): mtom is \'always\', \'request\' or \'never\' and mtomThreshold a non-negative integer, on a service or an operation; anything else fails ready() with SOAP_ERR_SERVICE_INVALID naming the key', async (t: TestContext) => {
  for (const mtom of ['always', 'request', 'never'] as const) {
    const app = await service(t, { mtom, mtomThreshold: 0, operations: { Fetch: { ...Fetch, mtom, mtomThreshold: 10 } } })
    t.assert.ok(app.soap !== undefined, mtom)
  }
  const bad: Array<[Partial<SoapServiceDefinition>, RegExp]> = [
    [{ mtom: 'yes' as never }, /"mtom" must be one of always, request, never/],
    [{ mtom: true as never }, /"mtom" must be one of always, request, never/],
    [{ mtomThreshold: -1 }, /"mtomThreshold" must be a non-negative integer of bytes/],
    [{ mtomThreshold: 1.5 }, /"mtomThreshold" must be a non-negative integer of bytes/],
    [{ mtomThreshold: '768' as never }, /"mtomThreshold" must be a non-negative integer of bytes/],
    [{ operations: { Fetch: { ...Fetch, mtom: 'sometimes' as never } } }, /operation Fetch: "mtom" must be one of/],
    [{ operations: { Fetch: { ...Fetch, mtomThreshold: -5 } } }, /operation Fetch: "mtomThreshold" must be a non-negative/]
  ]
  for (const [extra, message] of bad) {
    const app = Fastify()
    await app.register(soap)
    app.soap.service({ path: '/files', namespace: NS, name: 'Files', operations: { Fetch }, ...extra })
    await t.assert.rejects(async () => { await app.ready() }, (err: Error) => {
      t.assert.ok(err instanceof errorCodes.SOAP_ERR_SERVICE_INVALID, err.message)
      t.assert.match(err.message, message)
      return true
    }, JSON.stringify(extra))
    await app.close()
  }
})
