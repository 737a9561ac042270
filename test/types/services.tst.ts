/**
 * Type tests of services, run by tstyche against the built package: the
 * handler's input, result, headers and fault detail are typed from the
 * schemas, and wrong types do not compile.
 */
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify'
import { Type } from '@sinclair/typebox'
import { describe, expect, test } from 'tstyche'
import { Queue, Worker } from 'bullmq'
import soap, { SoapFault, bullmqReplyQueue, defineOperation, defineService, memoryReplayStore, memoryReplyQueue, redisReplayStore, type FastifySoapOptions, type Infer, type SoapContext, type SoapOperationInfo, type SoapReplayStore, type SoapReplyJob, type SoapReplyQueue, type SoapReplyReceipt, type SoapSecurityOptions, type SoapPrincipal, type SoapClientCertificateOptions } from 'fastify-soap'

const pair = { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'], additionalProperties: false } as const

describe('Infer', () => {
  test('scalars, enums, nullable, arrays and objects', () => {
    expect<Infer<{ type: 'string' }>>().type.toBe<string>()
    expect<Infer<{ type: 'integer' }>>().type.toBe<number>()
    expect<Infer<{ type: 'boolean' }>>().type.toBe<boolean>()
    expect<Infer<{ type: readonly ['string', 'null'] }>>().type.toBe<string | null>()
    expect<Infer<{ type: 'number', nullable: true }>>().type.toBe<number | null>()
    expect<Infer<{ type: 'string', enum: readonly ['low', 'high'] }>>().type.toBe<'low' | 'high'>()
    expect<Infer<{ type: 'array', items: { type: 'integer' } }>>().type.toBe<number[]>()
    expect<Infer<typeof pair>>().type.toBe<{ a: number, b: number }>()
    expect<Infer<{ type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } }, required: readonly ['a'] }>>().type.toBe<{ a: string, b?: number }>()
  })
})

describe('Infer, binary values (docs/binary.md)', () => {
  const blob = { type: 'string', contentEncoding: 'base64' } as const
  const record = { type: 'object', properties: { data: blob, hex: { type: ['string', 'null'], contentEncoding: 'base16' } }, required: ['data'] } as const

  test('a base64 or base16 string is a Buffer; with null in its type, Buffer | null', () => {
    expect<Infer<typeof blob>>().type.toBe<Buffer>()
    expect<Infer<{ type: 'string', contentEncoding: 'base16', nullable: true }>>().type.toBe<Buffer | null>()
    expect<Infer<typeof record>>().type.toBe<{ data: Buffer, hex?: Buffer | null }>()
    expect<Infer<{ type: 'string', contentEncoding: 'base64', enum: readonly ['AAEC'] }>>().type.toBe<Buffer>()
    expect<Infer<{ type: 'string', contentEncoding: 'quoted-printable' }>>().type.toBe<string>()
  })

  test('a handler gets a Buffer and answers a Buffer or any Uint8Array, never a string', () => {
    defineOperation({
      input: record,
      output: record,
      async handler (input) {
        expect(input.data).type.toBe<Buffer>()
        return { data: new Uint8Array(input.data), hex: input.hex }
      }
    })
    expect(defineOperation({
      output: record,
      async handler () {
        return { data: 'AAEC' }
      }
    })).type.toRaiseError()
  })
})

describe('Infer, named schemas', () => {
  const tree = {
    type: 'object',
    properties: { root: { $ref: '#/$defs/Node' } },
    required: ['root'],
    $defs: {
      Node: { type: 'object', properties: { v: { type: 'integer' }, kids: { type: 'array', items: { $ref: '#/$defs/Node' } }, up: { $ref: '#/$defs/Up' } }, required: ['v'] },
      Up: { type: 'string', nullable: true }
    }
  } as const
  interface Node { v: number, kids?: Node[], up?: string | null }

  test('a $ref is the named schema\'s type; one that uses itself is a type that contains itself', () => {
    expect<Infer<typeof tree>>().type.toBe<{ root: Node }>()
    expect<Infer<typeof tree>['root']['kids']>().type.toBe<Node[] | undefined>()
  })

  test('a wrong value deep inside is refused', () => {
    const handler = defineOperation({ output: tree, handler: () => ({ root: { v: 1, kids: [{ v: 2, kids: [{ v: 3 }] }] } }) })
    expect(handler).type.not.toBe<never>()
    expect(defineOperation).type.not.toBeCallableWith({ output: tree, handler: () => ({ root: { v: 1, kids: [{ v: 2, kids: [{ v: 'three' }] }] } }) })
  })
})

describe('Infer, derived types (xsi:type)', () => {
  const shapes = {
    type: 'object',
    properties: { shape: { oneOf: [{ $ref: '#/$defs/Shape' }, { $ref: '#/$defs/Circle' }, { type: 'null' }] } },
    required: ['shape'],
    $defs: {
      Shape: { type: 'object', xml: { abstract: true }, properties: { $type: { const: 'Shape' }, name: { type: 'string' } }, required: ['$type', 'name'] },
      Circle: { type: 'object', properties: { $type: { const: 'Circle' }, name: { type: 'string' }, radius: { type: 'number' } }, required: ['$type', 'name', 'radius'] }
    }
  } as const

  test('a "oneOf" of types is the union of their values, told apart by $type', () => {
    expect<Infer<typeof shapes>['shape']>().type.toBe<{ $type: 'Shape', name: string } | { $type: 'Circle', name: string, radius: number } | null>()
  })

  test('a handler narrows on $type, and a value of no listed type is refused', () => {
    defineOperation({
      input: shapes,
      output: shapes,
      handler (input) {
        if (input.shape?.$type === 'Circle') expect(input.shape.radius).type.toBe<number>()
        return { shape: { $type: 'Circle', name: 'c', radius: 1 } }
      }
    })
    expect(defineOperation).type.not.toBeCallableWith({ output: shapes, handler: () => ({ shape: { $type: 'Square', name: 's' } }) })
  })
})

describe('defineOperation', () => {
  test('the handler\'s input is typed from the input schema', () => {
    defineOperation({
      input: pair,
      output: { type: 'object', properties: { result: { type: 'integer' } }, required: ['result'] },
      async handler (input) {
        expect(input).type.toBe<{ a: number, b: number }>()
        return { result: input.a + input.b }
      }
    })
  })

  test('a result the output schema does not allow does not compile', () => {
    expect(defineOperation({
      input: pair,
      output: { type: 'object', properties: { result: { type: 'integer' } }, required: ['result'] },
      async handler () {
        return { result: 'three' }
      }
    })).type.toRaiseError()
    expect(defineOperation({
      input: pair,
      output: { type: 'object', properties: { result: { type: 'integer' } }, required: ['result'] },
      async handler () {
        return {}
      }
    })).type.toRaiseError()
  })

  test('an enum result takes its literals', () => {
    defineOperation({
      output: { type: 'object', properties: { status: { type: 'string', enum: ['ok', 'late'] } }, required: ['status'] },
      async handler () {
        return { status: 'ok' as const }
      }
    })
    expect(defineOperation({
      output: { type: 'object', properties: { status: { type: 'string', enum: ['ok', 'late'] } }, required: ['status'] },
      async handler () {
        return { status: 'never' as const }
      }
    })).type.toRaiseError()
  })

  test('using an input property that is not declared does not compile', () => {
    expect(defineOperation({
      input: pair,
      async handler (input) {
        // @ts-expect-error Property 'c' does not exist
        return input.c
      }
    })).type.not.toRaiseError()
  })

  test('headers and fault details are typed from their schemas', () => {
    defineOperation({
      input: pair,
      headers: { type: 'object', properties: { Tenant: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } } },
      faults: { NotFound: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
      async handler (_input, call) {
        expect(call.headers).type.toBe<{ Tenant?: { id: string } }>()
        expect(call.operation).type.toBe<SoapOperationInfo>()
        expect(call.signal).type.toBe<AbortSignal>()
        expect(call.soap).type.toBe<SoapContext>()
        expect(call.fault('NotFound', { id: 'x' }, { code: 'Sender', reason: 'no' })).type.toBe<SoapFault>()
        expect(call.fault).type.not.toBeCallableWith('Gone', { id: 'x' }, { code: 'Sender', reason: 'no' })
        expect(call.fault).type.not.toBeCallableWith('NotFound', { id: 1 }, { code: 'Sender', reason: 'no' })
        expect(call.fault).type.not.toBeCallableWith('NotFound', {}, { code: 'Sender', reason: 'no' })
      }
    })
  })

  test('an operation without input gets undefined; a one-way operation returns nothing', () => {
    defineOperation({
      async handler (input) {
        expect(input).type.toBe<undefined>()
      }
    })
  })
})

describe('fastify.soap', () => {
  const app = Fastify()
  app.register(soap)

  test('service() takes a definition and returns the instance to await', () => {
    const calc = defineService({ path: '/calc', namespace: 'urn:calc', name: 'Calc', operations: { Add: defineOperation({ input: pair, async handler () {} }) } })
    expect(app.soap.service(calc)).type.toBeAssignableTo<PromiseLike<undefined>>()
    expect(app.soap.service).type.not.toBeCallableWith({ path: '/calc', namespace: 'urn:calc', operations: {} })
  })

  test('addHook types its arguments per stage', () => {
    app.soap.addHook('preHandler', async (request, reply) => {
      expect(request).type.toBe<FastifyRequest>()
      expect(reply).type.toBe<FastifyReply>()
    })
    app.soap.addHook('onFault', async (_request, _reply, fault) => {
      expect(fault).type.toBe<SoapFault>()
    })
    expect(app.soap.addHook).type.not.toBeCallableWith('onSend', async () => {})
  })

  test('the options take faultFormatter', () => {
    expect(app.register).type.toBeCallableWith(soap, { faultFormatter: (fault: SoapFault) => fault })
    expect(app.register).type.not.toBeCallableWith(soap, { faultFormatter: 'x' })
  })
})

describe('TypeBox schemas', () => {
  test('a TypeBox schema types the handler as the same JSON Schema written out does', () => {
    const Pair = Type.Object({ a: Type.Integer(), b: Type.Integer(), note: Type.Optional(Type.String()) })
    expect<Infer<typeof Pair>>().type.toBe<{ a: number, b: number, note?: string }>()
    defineOperation({
      input: Pair,
      output: Type.Object({ result: Type.Integer(), status: Type.Union([Type.Literal('ok'), Type.Literal('late')]) }),
      async handler (input) {
        expect(input).type.toBe<{ a: number, b: number, note?: string }>()
        return { result: input.a + input.b, status: 'ok' }
      }
    })
  })

  test('a result its TypeBox output schema does not allow does not compile', () => {
    expect(defineOperation({
      output: Type.Object({ result: Type.Integer() }),
      async handler () { return { result: 'three' } }
    })).type.toRaiseError()
  })
})

describe('results', () => {
  test('an enum value and a list in a result need no `as const`', () => {
    defineOperation({
      output: { type: 'object', properties: { status: { type: 'string', enum: ['ok', 'late'] }, items: { type: 'array', items: { type: 'integer' } } }, required: ['status'] },
      handler () {
        return { status: 'late', items: [1, 2] }
      }
    })
    expect(defineOperation({
      output: { type: 'object', properties: { status: { type: 'string', enum: ['ok', 'late'] } }, required: ['status'] },
      async handler () { return { status: 'early' } }
    })).type.toRaiseError()
  })
})

describe('docs/services.md "Header blocks": outputHeaders', () => {
  const quota = { type: 'object', properties: { Quota: { type: 'object', properties: { left: { type: 'integer' } }, required: ['left'], additionalProperties: false }, Trace: { type: 'array', items: { type: 'string' } } }, additionalProperties: false } as const

  test('call.replyHeaders() takes the outputHeaders schema\'s values', () => {
    defineOperation({
      input: pair,
      output: pair,
      outputHeaders: quota,
      handler (input, call) {
        expect(call.replyHeaders).type.toBeCallableWith({ Quota: { left: 1 }, Trace: ['a'] })
        expect(call.replyHeaders).type.toBeCallableWith({ Trace: [] as readonly string[] })
        expect(call.replyHeaders).type.toBeCallableWith({})
        call.replyHeaders({ Quota: { left: 1 }, Trace: ['a'] })
        return input
      }
    })
  })

  test('a wrong value, or replyHeaders() on an operation without outputHeaders, does not compile', () => {
    defineOperation({
      input: pair,
      output: pair,
      outputHeaders: quota,
      handler (input, call) {
        expect(call.replyHeaders).type.not.toBeCallableWith({ Quota: { left: 'many' } })
        expect(call.replyHeaders).type.not.toBeCallableWith({ Other: 1 })
        return input
      }
    })
    defineOperation({
      input: pair,
      output: pair,
      handler (input, call) {
        expect(call.replyHeaders).type.not.toBeCallableWith({})
        return input
      }
    })
  })

  test('with outputHeaders and no output, the handler returns nothing', () => {
    defineOperation({
      input: pair,
      outputHeaders: quota,
      handler (_input, call) {
        call.replyHeaders({ Quota: { left: 0 } })
      }
    })
    expect(defineOperation).type.not.toBeCallableWith({ input: pair, outputHeaders: quota, handler: () => ({ a: 1 }) })
  })
})

describe('WS-Security', () => {
  test('the authenticated user is call.soap.username; `security` is typed', () => {
    defineService({
      path: '/s',
      namespace: 'urn:s',
      name: 'S',
      operations: {
        Add: defineOperation({
          input: pair,
          async handler (_input, call) {
            expect(call.soap.username).type.toBe<string | undefined>()
          }
        })
      },
      security: {
        usernameToken: { lookup: async (username) => username === 'a' ? 'pw' : undefined, password: 'digest', requireNonce: 'always' },
        timestamp: { required: true, reply: true },
        replay: memoryReplayStore({ maxEntries: 10 }),
        except: ['Add']
      }
    })
    expect<SoapSecurityOptions>().type.toBeAssignableFrom({ usernameToken: { lookup: () => ({ verify: (password: string) => password === 'x' }) } })
    expect<SoapSecurityOptions>().type.not.toBeAssignableFrom({ usernameToken: { lookup: () => 'pw', password: 'hash' } })
    expect<SoapSecurityOptions>().type.not.toBeAssignableFrom({ usernameToken: {} })
    expect(redisReplayStore).type.toBeCallableWith({ call: async () => 'OK' })
    expect<SoapReplayStore>().type.toBeAssignableFrom(redisReplayStore({}))
  })

  test('docs/security.md "Client certificates": the principal is call.soap.principal; `clientCertificate` is typed', () => {
    defineService({
      path: '/s',
      namespace: 'urn:s',
      name: 'S',
      operations: {
        Add: defineOperation({
          input: pair,
          async handler (_input, call) {
            expect(call.soap.principal).type.toBe<SoapPrincipal | undefined>()
          }
        })
      },
      security: {
        clientCertificate: {
          from: 'header',
          header: 'x-ssl-client-cert',
          proxies: ['10.0.0.2'],
          trust: ['-----BEGIN CERTIFICATE-----'],
          lookup: async (principal, { operation }) => principal.from === 'proxy' && operation === 'Add'
        }
      }
    })
    expect<SoapPrincipal['from']>().type.toBe<'signature' | 'tls' | 'proxy'>()
    expect<SoapSecurityOptions>().type.toBeAssignableFrom({ clientCertificate: { from: 'tls' } } as const)
    expect<SoapSecurityOptions>().type.not.toBeAssignableFrom({ clientCertificate: { from: 'header', header: 'x' } } as const)
    expect<SoapSecurityOptions>().type.not.toBeAssignableFrom({ clientCertificate: { from: 'socket' } } as const)
    expect<SoapClientCertificateOptions>().type.not.toBeAssignableFrom({ from: 'tls', lookup: () => 'yes' } as const)
  })
})

describe('docs/security.md "X.509 signatures"', () => {
  test('`security.x509` is typed: trust, lookup with the operation, signed parts, allowSha1, reply', () => {
    expect<SoapSecurityOptions>().type.toBeAssignableFrom({
      x509: {
        trust: ['-----BEGIN CERTIFICATE-----', Buffer.from('')],
        lookup: async (principal: SoapPrincipal, { operation }: { operation: string }) => principal.from === 'signature' && operation === 'Add',
        signed: { headers: ['{http://www.w3.org/2005/08/addressing}To', 'urn:x'], usernameToken: false },
        allowSha1: false,
        reply: { key: '-----BEGIN PRIVATE KEY-----', certificate: Buffer.from('') }
      }
    })
    expect<SoapSecurityOptions>().type.not.toBeAssignableFrom({ x509: {} })
    expect<SoapSecurityOptions>().type.not.toBeAssignableFrom({ x509: { trust: 'pem', allowSha1: 'yes' } })
    expect<SoapSecurityOptions>().type.not.toBeAssignableFrom({ x509: { trust: 'pem', signed: { body: true } } })
    expect<SoapSecurityOptions>().type.not.toBeAssignableFrom({ x509: { trust: 'pem', reply: { key: 'k' } } })
  })
})

describe('docs/addressing.md "Durable replies"', () => {
  test('replyQueue takes a SoapReplyQueue; bullmqReplyQueue takes BullMQ\'s classes and gives one', () => {
    expect<FastifySoapOptions>().type.toBeAssignableFrom({ replyQueue: memoryReplyQueue() })
    expect<FastifySoapOptions>().type.toBeAssignableFrom({ replyQueue: bullmqReplyQueue({ Queue, Worker, connection: { maxRetriesPerRequest: null } }) })
    expect<FastifySoapOptions>().type.not.toBeAssignableFrom({ replyQueue: { add: async () => undefined } })
    expect(bullmqReplyQueue).type.not.toBeCallableWith({ Queue, Worker })
    expect<SoapReplyQueue['add']>().type.toBe<(job: SoapReplyJob, signal: AbortSignal) => Promise<SoapReplyReceipt | undefined>>()
  })
})

describe('docs/typescript.md "Exact results"', () => {
  const parcel = { type: 'object', properties: { id: { type: 'string' }, trackingNumber: { type: 'string' } }, required: ['id'], additionalProperties: false } as const
  const open = { type: 'object', properties: { id: { type: 'string' }, trackingNumber: { type: 'string' } }, required: ['id'] } as const

  test('a property a closed output schema does not declare does not compile: in an async method, an arrow, a variable', () => {
    expect(defineOperation({ output: parcel, async handler () { return { id: 'p1', trackingNo: '1Z' } } })).type.toRaiseError('trackingNo')
    expect(defineOperation({ output: parcel, handler: () => ({ id: 'p1', trackingNumber: '1Z', carrier: 'UPS' }) })).type.toRaiseError('carrier')
    expect(defineOperation({
      output: parcel,
      handler (_input, call) {
        const parcel = { id: 'p1', trackingNo: '1Z' }
        return call.signal.aborted ? { id: 'p1' } : parcel
      }
    })).type.toRaiseError('trackingNo')
    expect(defineOperation({ output: parcel, async handler () { return { id: 'p1', trackingNumber: '1Z' } } })).type.not.toRaiseError()
    expect(defineOperation({ output: parcel, handler: (_input, call) => call.signal.aborted ? { id: 'p1' } : { id: 'p1', trackingNumber: '1Z' } })).type.not.toRaiseError()
  })

  test('at any depth: a nested object, the items of a list, a named schema, a "oneOf" branch', () => {
    const nested = { type: 'object', properties: { parcel, parcels: { type: 'array', items: parcel } }, required: ['parcel'], additionalProperties: false } as const
    expect(defineOperation({ output: nested, handler: () => ({ parcel: { id: 'p1', weight: 2 } }) })).type.toRaiseError('weight')
    expect(defineOperation({ output: nested, handler: () => ({ parcel: { id: 'p1' }, parcels: [{ id: 'p2' }, { id: 'p3', weight: 2 }] }) })).type.toRaiseError('weight')
    expect(defineOperation({ output: nested, handler: () => ({ parcel: { id: 'p1' }, parcels: [{ id: 'p2' }, { id: 'p3', trackingNumber: '1Z' }] }) })).type.not.toRaiseError()

    const tree = {
      type: 'object',
      properties: { root: { $ref: '#/$defs/Node' } },
      required: ['root'],
      additionalProperties: false,
      $defs: { Node: { type: 'object', properties: { v: { type: 'integer' }, kids: { type: 'array', items: { $ref: '#/$defs/Node' } } }, required: ['v'], additionalProperties: false } }
    } as const
    expect(defineOperation({ output: tree, handler: () => ({ root: { v: 1, kids: [{ v: 2, kids: [{ v: 3, depth: 4 }] }] } }) })).type.toRaiseError('depth')
    expect(defineOperation({ output: tree, handler: () => ({ root: { v: 1, kids: [{ v: 2, kids: [{ v: 3 }] }] } }) })).type.not.toRaiseError()

    const shapes = {
      type: 'object',
      properties: { shape: { oneOf: [{ $ref: '#/$defs/Shape' }, { $ref: '#/$defs/Circle' }] } },
      required: ['shape'],
      additionalProperties: false,
      $defs: {
        Shape: { type: 'object', properties: { $type: { const: 'Shape' }, name: { type: 'string' } }, required: ['$type', 'name'], additionalProperties: false },
        Circle: { type: 'object', properties: { $type: { const: 'Circle' }, name: { type: 'string' }, radius: { type: 'number' } }, required: ['$type', 'name', 'radius'], additionalProperties: false }
      }
    } as const
    expect(defineOperation({ output: shapes, handler: () => ({ shape: { $type: 'Shape', name: 's', radius: 1 } }) })).type.toRaiseError('radius')
    expect(defineOperation({ output: shapes, handler: () => ({ shape: { $type: 'Circle', name: 'c', radius: 1 } }) })).type.not.toRaiseError()
  })

  test('a fault\'s detail and the reply\'s header values are exact too, given as a literal or a variable', () => {
    defineOperation({
      output: parcel,
      outputHeaders: { type: 'object', properties: { Quota: { type: 'object', properties: { left: { type: 'integer' } }, required: ['left'], additionalProperties: false } }, additionalProperties: false },
      faults: { NotFound: parcel },
      handler (_input, call) {
        const detail = { id: 'p1', reason: 'gone' }
        expect(call.fault).type.not.toBeCallableWith('NotFound', detail, { code: 'Sender', reason: 'no' })
        expect(call.fault).type.not.toBeCallableWith('NotFound', { id: 'p1', trackingNo: '1Z' }, { code: 'Sender', reason: 'no' })
        expect(call.fault).type.toBeCallableWith('NotFound', { id: 'p1', trackingNumber: '1Z' }, { code: 'Sender', reason: 'no' })
        const quota = { Quota: { left: 1, right: 2 } }
        expect(call.replyHeaders).type.not.toBeCallableWith(quota)
        expect(call.replyHeaders).type.toBeCallableWith({ Quota: { left: 1 } })
        return { id: 'p1' }
      }
    })
  })

  test('where additionalProperties is absent, other properties compile, in a result, a fault\'s detail and header values', () => {
    defineOperation({
      output: open,
      outputHeaders: { type: 'object', properties: { Quota: open } },
      faults: { NotFound: open },
      handler (_input, call) {
        expect(call.fault).type.toBeCallableWith('NotFound', { id: 'p1', reason: 'gone' }, { code: 'Sender', reason: 'no' })
        expect(call.replyHeaders).type.toBeCallableWith({ Quota: { id: 'q', left: 1 } })
        return { id: 'p1', carrier: 'UPS' }
      }
    })
  })

  test('services made of such operations stay exact', () => {
    expect(defineService({
      path: '/p',
      namespace: 'urn:p',
      name: 'P',
      operations: { Track: defineOperation({ output: parcel, async handler () { return { id: 'p1', trackingNo: '1Z' } } }) }
    })).type.toRaiseError('trackingNo')
    const app = Fastify()
    expect(app.soap.service({
      path: '/p',
      namespace: 'urn:p',
      name: 'P',
      operations: { Track: defineOperation({ output: parcel, async handler () { return { id: 'p1', trackingNumber: '1Z' } } }) }
    })).type.not.toRaiseError()
  })
})
