/**
 * A code-first SOAP service: the operations are declared by JSON Schema, the
 * plugin reads each request into a typed value, validates it, and writes the
 * result back as XML, in SOAP 1.1 or 1.2. The WSDL is served at `/shop?wsdl`.
 *
 * Shop at /shop (urn:example:shop), one operation, Quote:
 * - its input holds a nested object (the customer) and an array (the lines);
 * - an unknown product is a declared fault, UnknownProduct, with its detail;
 * - every call needs an API key (the X-API-Key header), checked in a Fastify
 *   onRequest hook that throws a SoapFault.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify'
import soap, { SoapFault, defineOperation, defineService } from 'fastify-soap'

export const SHOP_NS = 'urn:example:shop'

/** Unit prices by product, in euros. */
const PRICES = new Map<string, number>([
  ['PEN-1', 1.5],
  ['BOOK-7', 12.9],
  ['DESK-2', 149]
])

const line = {
  type: 'object',
  properties: {
    sku: { type: 'string', pattern: '^[A-Z0-9-]{1,16}$' },
    quantity: { type: 'integer', minimum: 1, maximum: 1000 }
  },
  required: ['sku', 'quantity'],
  additionalProperties: false
} as const

export const shop = defineService({
  path: '/shop',
  namespace: SHOP_NS,
  name: 'Shop',
  operations: {
    Quote: defineOperation({
      input: {
        type: 'object',
        properties: {
          customer: {
            type: 'object',
            properties: {
              name: { type: 'string', minLength: 1 },
              country: { type: 'string', pattern: '^[A-Z]{2}$' }
            },
            required: ['name', 'country'],
            additionalProperties: false
          },
          // An unwrapped array: one <line> element per item.
          line: { type: 'array', items: line, minItems: 1, maxItems: 100 }
        },
        required: ['customer', 'line'],
        additionalProperties: false
      },
      output: {
        type: 'object',
        properties: {
          customer: { type: 'string' },
          line: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                sku: { type: 'string', xml: { attribute: true } },
                quantity: { type: 'integer' },
                amount: { type: 'number' }
              },
              required: ['sku', 'quantity', 'amount'],
              additionalProperties: false
            }
          },
          total: { type: 'number' },
          currency: { type: 'string', enum: ['EUR'] }
        },
        required: ['customer', 'line', 'total', 'currency'],
        additionalProperties: false
      },
      faults: {
        UnknownProduct: {
          type: 'object',
          properties: { sku: { type: 'string' } },
          required: ['sku'],
          additionalProperties: false
        }
      },
      // input: { customer: { name: string, country: string }, line: { sku: string, quantity: number }[] }
      async handler ({ customer, line }, call) {
        const quoted = line.map(({ sku, quantity }) => {
          const price = PRICES.get(sku)
          if (price === undefined) {
            throw call.fault('UnknownProduct', { sku }, { code: 'Sender', reason: `unknown product ${sku}` })
          }
          return { sku, quantity, amount: cents(price * quantity) }
        })
        const total = cents(quoted.reduce((sum, l) => sum + l.amount, 0))
        return { customer: customer.name, line: quoted, total, currency: 'EUR' }
      }
    })
  }
})

function cents (value: number): number {
  return Math.round(value * 100) / 100
}

/**
 * A Fastify onRequest hook that checks the X-API-Key header of every call.
 * It runs before the body is read; the SoapFault it throws is answered in the
 * request's SOAP version, told by its Content-Type: SOAP 1.2
 * (application/soap+xml) gets a Sender fault with status 400, SOAP 1.1
 * (text/xml) a Client fault with status 500. The WSDL (GET) stays public.
 */
function requireApiKey (apiKey: string) {
  const expected = createHash('sha256').update(apiKey).digest()
  return async function checkApiKey (request: FastifyRequest): Promise<void> {
    if (request.method !== 'POST') return
    const given = request.headers['x-api-key']
    const digest = createHash('sha256').update(typeof given === 'string' ? given : '').digest()
    if (typeof given !== 'string' || !timingSafeEqual(digest, expected)) {
      throw new SoapFault({ code: 'Sender', reason: 'a valid X-API-Key header is required' })
    }
  }
}

export interface AppOptions {
  /** The key clients send in X-API-Key; API_KEY in the environment, else `demo-key`. */
  apiKey?: string
  /** Fastify's own options (logger, timeouts...). */
  fastify?: FastifyServerOptions
}

export async function buildApp (options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    // Bound every connection (fastify-soap's docs/security.md).
    requestTimeout: 30_000,
    connectionTimeout: 10_000,
    ...options.fastify
  })
  await app.register(soap)
  // The hook and the service in a plugin of their own: the hook guards the
  // service, not the routes the app declares elsewhere.
  await app.register(async (api) => {
    api.addHook('onRequest', requireApiKey(options.apiKey ?? process.env.API_KEY ?? 'demo-key'))
    api.soap.service(shop)
  })
  app.get('/health', async () => ({ ok: true }))
  return app
}
