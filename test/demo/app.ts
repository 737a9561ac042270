/**
 * The demo: two services declared by schema, and one of them again behind
 * WS-Security.
 *
 * - Calculator at /calculator (urn:example:calc): Add, Echo, Divide.
 * - The same Calculator at /secure/calculator, behind a UsernameToken (user
 *   `demo`, password `demo`, as text or digest; a Timestamp is checked when sent).
 * - The same Calculator at /secure/signed-calculator, requiring the Body and
 *   a Timestamp signed with a certificate the demo CA issued (test/demo/x509/:
 *   test keys only), its replies signed with the demo server's key.
 * - Orders at /orders (urn:example:orders): nested objects, repeated and
 *   wrapped arrays, optional and nil values, an enum, dates, an attribute,
 *   a header block, a declared fault with its detail, and a one-way operation.
 * - Files at /files (urn:example:files): Upload and Download of bytes
 *   (xs:base64Binary), sent inline or as MTOM parts, kept in memory, bounded.
 * - With `servicePage` on: a browser that opens a service's URL gets its page.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import Fastify, { type FastifyInstance, type FastifyPluginCallback, type FastifyServerOptions } from 'fastify'
import soap, { SoapFault, defineOperation, defineService, soapClientErrorHandler } from '../../lib/index'

export const CALC_NS = 'urn:example:calc'
export const ORDERS_NS = 'urn:example:orders'
export const FILES_NS = 'urn:example:files'

const int = { type: 'integer' } as const
const pair = { type: 'object', properties: { a: int, b: int }, required: ['a', 'b'], additionalProperties: false } as const
const result = { type: 'object', properties: { result: int }, required: ['result'], additionalProperties: false } as const

export const calculator = defineService({
  path: '/calculator',
  namespace: CALC_NS,
  name: 'Calculator',
  operations: {
    Add: defineOperation({
      input: pair,
      output: result,
      get: true,
      async handler ({ a, b }) {
        return { result: a + b }
      }
    }),
    Echo: defineOperation({
      input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
      output: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
      async handler ({ text }) {
        return { text }
      }
    }),
    Divide: defineOperation({
      input: pair,
      output: result,
      async handler ({ a, b }) {
        if (b === 0) throw new SoapFault({ code: 'Sender', reason: 'division by zero' })
        return { result: Math.trunc(a / b) }
      }
    })
  }
})

/** The demo's only user, and its password. */
export const DEMO_USER = 'demo'
export const DEMO_PASSWORD = 'demo'

/** The Calculator behind a UsernameToken (docs/security.md "WS-Security"). */
export const secureCalculator = defineService({
  ...calculator,
  path: '/secure/calculator',
  security: {
    usernameToken: {
      async lookup (username) {
        return username === DEMO_USER ? DEMO_PASSWORD : undefined
      }
    }
  }
})

/** The demo's X.509 files, in the source tree: a CA, a client and a server certificate with their keys (test keys only, made by make.sh). */
export const DEMO_X509 = join(__dirname, '..', '..', '..', 'test', 'demo', 'x509')
const x509File = (name: string): Buffer => readFileSync(join(DEMO_X509, name))

/**
 * The Calculator requiring an XML Signature over the Body and a Timestamp by
 * a certificate the demo CA issued (docs/security.md "X.509 signatures"),
 * its replies signed with the demo server's key and certificate
 * (docs/security.md "Signed replies").
 */
export const signedCalculator = defineService({
  ...calculator,
  path: '/secure/signed-calculator',
  security: {
    x509: {
      trust: x509File('test-ca.pem'),
      reply: { key: x509File('test-server.key'), certificate: x509File('test-server.pem') }
    }
  }
})

const line = {
  type: 'object',
  properties: {
    sku: { type: 'string', pattern: '^[A-Z0-9-]{1,32}$', xml: { attribute: true } },
    quantity: { type: 'integer', minimum: 1, maximum: 1000 },
    unitPrice: { type: 'number', minimum: 0 },
    note: { type: ['string', 'null'] }
  },
  required: ['sku', 'quantity', 'unitPrice'],
  additionalProperties: false
} as const

const customer = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1 },
    email: { type: 'string', format: 'email' },
    vip: { type: 'boolean' }
  },
  required: ['name'],
  additionalProperties: false
} as const

const priority = { type: 'string', enum: ['low', 'normal', 'high'] } as const

/** The header block naming whose orders a request is about. */
const tenantHeader = {
  type: 'object',
  properties: {
    Tenant: { type: 'object', properties: { id: { type: 'string', minLength: 1 } }, required: ['id'], additionalProperties: false }
  },
  additionalProperties: false
} as const

/** A tiny in-memory store, per app. */
interface Order { id: string, customer: { name: string, email?: string, vip?: boolean }, lines: Array<{ sku: string, quantity: number, unitPrice: number, note?: string | null }>, priority: 'low' | 'normal' | 'high', deliveryDate: string, placedAt: string, total: number, tags: string[] }

export function orders (): ReturnType<typeof defineService> {
  const store = new Map<string, Order>()
  let next = 1
  return defineService({
    path: '/orders',
    namespace: ORDERS_NS,
    name: 'Orders',
    operations: {
      PlaceOrder: defineOperation({
        input: {
          type: 'object',
          properties: {
            customer,
            line: { type: 'array', items: line, minItems: 1, maxItems: 100 },
            priority,
            deliveryDate: { type: 'string', format: 'date' },
            tags: { type: 'array', items: { type: 'string' }, xml: { wrapped: true }, maxItems: 10 },
            giftMessage: { type: ['string', 'null'], maxLength: 200 }
          },
          required: ['customer', 'line', 'priority', 'deliveryDate'],
          additionalProperties: false
        },
        output: {
          type: 'object',
          properties: {
            orderId: { type: 'string', xml: { attribute: true } },
            status: { type: 'string', enum: ['accepted', 'backordered'] },
            placedAt: { type: 'string', format: 'date-time' },
            total: { type: 'number' }
          },
          required: ['orderId', 'status', 'placedAt', 'total'],
          additionalProperties: false
        },
        headers: tenantHeader,
        async handler (input, call) {
          const id = `${call.headers.Tenant?.id ?? 'public'}-${next++}`
          const total = input.line.reduce((sum, l) => sum + l.quantity * l.unitPrice, 0)
          const order: Order = {
            id,
            customer: input.customer,
            lines: input.line,
            priority: input.priority,
            deliveryDate: input.deliveryDate,
            placedAt: new Date(0).toISOString(),
            total: Math.round(total * 100) / 100,
            tags: input.tags ?? []
          }
          store.set(id, order)
          const status = input.line.some((l) => l.quantity > 100) ? 'backordered' : 'accepted'
          return { orderId: id, status, placedAt: order.placedAt, total: order.total }
        }
      }),
      GetOrder: defineOperation({
        input: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'], additionalProperties: false },
        output: {
          type: 'object',
          properties: {
            order: {
              type: 'object',
              properties: {
                id: { type: 'string', xml: { attribute: true } },
                customer,
                line: { type: 'array', items: line },
                priority,
                deliveryDate: { type: 'string', format: 'date' },
                tags: { type: 'array', items: { type: 'string', xml: { name: 'tag' } }, xml: { wrapped: true } },
                total: { type: 'number' }
              },
              required: ['id', 'customer', 'line', 'priority', 'deliveryDate', 'tags', 'total'],
              additionalProperties: false
            }
          },
          required: ['order'],
          additionalProperties: false
        },
        headers: tenantHeader,
        faults: {
          OrderNotFound: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'], additionalProperties: false }
        },
        async handler ({ orderId }, call) {
          const order = store.get(orderId)
          // With a Tenant header, only that tenant's orders are found.
          const tenant = call.headers.Tenant?.id
          if (order === undefined || (tenant !== undefined && !orderId.startsWith(`${tenant}-`))) throw call.fault('OrderNotFound', { orderId }, { code: 'Sender', reason: `no order ${orderId}` })
          return {
            order: {
              id: order.id,
              customer: order.customer,
              line: order.lines,
              priority: order.priority,
              deliveryDate: order.deliveryDate,
              tags: order.tags,
              total: order.total
            }
          }
        }
      }),
      // One-way: answered 202 with no body once the handler has run.
      CancelOrder: defineOperation({
        input: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'], additionalProperties: false },
        async handler ({ orderId }) {
          store.delete(orderId)
        }
      })
    }
  })
}

/** The bounds of the Files service's memory: the files kept (the oldest dropped first) and the bytes of each. */
export const FILES_KEPT = 4
export const FILE_MAX_OCTETS = 4 * 1024 * 1024

const fileName = { type: 'string', minLength: 1, maxLength: 255 } as const
const fileContent = { type: 'string', contentEncoding: 'base64', xml: { maxOctets: FILE_MAX_OCTETS } } as const

/**
 * Files: the bytes last uploaded under each name, in memory, at most
 * FILES_KEPT of them (an upload under a new name drops the oldest), each at
 * most FILE_MAX_OCTETS. A name never uploaded (or dropped) is the declared
 * FileNotFound fault, a Sender fault.
 */
export function files (): ReturnType<typeof defineService> {
  const store = new Map<string, Buffer>()
  return defineService({
    path: '/files',
    namespace: FILES_NS,
    name: 'Files',
    operations: {
      Upload: defineOperation({
        input: { type: 'object', properties: { name: fileName, content: fileContent }, required: ['name', 'content'], additionalProperties: false },
        output: {
          type: 'object',
          properties: { size: { type: 'integer' }, sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
          required: ['size', 'sha256'],
          additionalProperties: false
        },
        async handler ({ name, content }) {
          // An MTOM part is a view of the request's body: copied to be kept.
          const bytes = Buffer.from(content)
          store.delete(name)
          store.set(name, bytes)
          if (store.size > FILES_KEPT) store.delete(store.keys().next().value as string)
          return { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') }
        }
      }),
      Download: defineOperation({
        input: { type: 'object', properties: { name: fileName }, required: ['name'], additionalProperties: false },
        output: { type: 'object', properties: { content: fileContent }, required: ['content'], additionalProperties: false },
        faults: {
          FileNotFound: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false }
        },
        async handler ({ name }, call) {
          const content = store.get(name)
          if (content === undefined) throw call.fault('FileNotFound', { name }, { code: 'Sender', reason: `no file ${name}` })
          return { content }
        }
      })
    }
  })
}

/** The demo's body limit: a file of FILE_MAX_OCTETS as base64 text (4/3 of it) in an envelope. */
export const DEMO_BODY_LIMIT = 8 * 1024 * 1024

/** Bound every connection: see docs/security.md. */
export const serverOptions = {
  requestTimeout: 30_000,
  connectionTimeout: 10_000,
  keepAliveTimeout: 5_000
} as const satisfies FastifyServerOptions

export async function buildDemo (
  options: FastifyServerOptions = {}, instrumentation?: FastifyPluginCallback
): Promise<FastifyInstance> {
  const app = Fastify({
    ...serverOptions,
    // HTTP framing errors answered like any undecodable request: status only, no body
    clientErrorHandler: soapClientErrorHandler,
    ...options
  })
  // @fastify/otel, when the demo traces (docs/observability.md "Demo"): registered first, it sees every route.
  if (instrumentation !== undefined) await app.register(instrumentation)
  await app.register(soap, { servicePage: true, bodyLimit: DEMO_BODY_LIMIT })
  app.soap.service(calculator)
  app.soap.service(orders())
  app.soap.service(files())
  app.soap.service(secureCalculator)
  app.soap.service(signedCalculator)
  return app
}
