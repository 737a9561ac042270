/**
 * Type tests of contract-first services (docs/contract-first.md "Types"), run by tstyche against the
 * built package: `contract-ocpp.ts` is what `fastify-soap types` writes for
 * OCPP 1.6's Central System WSDL (test/contract-types.test.ts checks that it
 * still does), and the handlers of `app.soap.contract<Operations>()` are typed
 * by it: input, header blocks, result, and refused mistakes.
 */
import Fastify from 'fastify'
import { describe, expect, test } from 'tstyche'
import soap, { defineContractOperations, type ContractOperations } from 'fastify-soap'
import { schemas as ocpp, type AuthorizeHeaders, type AuthorizeInput, type AuthorizeOutput, type Operations } from './contract-ocpp'

const app = Fastify()
app.register(soap)

describe('fastify-soap types', () => {
  test('the input, header blocks and result of an operation', () => {
    expect<AuthorizeInput>().type.toBe<{ idTag: string }>()
    expect<AuthorizeHeaders>().type.toBe<{ chargeBoxIdentity?: string }>()
    expect<AuthorizeOutput['idTagInfo']['status']>().type.toBe<'Accepted' | 'Blocked' | 'Expired' | 'Invalid' | 'ConcurrentTx'>()
  })

  test('the handlers given to app.soap.contract<Operations>() are typed by operation', () => {
    const handlers = {} as Operations
    app.soap.contract<Operations>({
      path: '/ocpp',
      wsdl: 'OCPP_CentralSystemService_1.6.wsdl',
      operations: {
        ...handlers,
        Authorize: async (input, call) => {
          expect(input.idTag).type.toBe<string>()
          expect(call.headers.chargeBoxIdentity).type.toBe<string | undefined>()
          return { idTagInfo: { status: 'Accepted' as const } }
        }
      }
    })
  })

  test('a result the contract does not allow does not compile', () => {
    const handlers = {} as Operations
    expect(app.soap.contract<Operations>({
      path: '/ocpp',
      wsdl: 'OCPP_CentralSystemService_1.6.wsdl',
      operations: { ...handlers, Authorize: async () => ({ idTagInfo: { status: 'Maybe' as const } }) }
    })).type.toRaiseError()
  })

  test('an operation left out, or one the contract does not have, does not compile', () => {
    const { Authorize, ...others } = {} as Operations
    expect(app.soap.contract<Operations>({ path: '/ocpp', wsdl: 'x.wsdl', operations: others })).type.toRaiseError()
    expect(app.soap.contract<Operations>({ path: '/ocpp', wsdl: 'x.wsdl', operations: { ...others, Authorize, Unknown: async () => ({}) } })).type.toRaiseError()
  })
})

describe('docs/contract-first.md "Options": unimplemented', () => {
  test('with unimplemented: "fault", handlers for some operations are enough, and stay typed', () => {
    expect(app.soap.contract<Operations>({
      path: '/ocpp',
      wsdl: 'OCPP_CentralSystemService_1.6.wsdl',
      unimplemented: 'fault',
      operations: {
        Heartbeat: async (input, call) => {
          expect(call.headers.chargeBoxIdentity).type.toBe<string | undefined>()
          return { currentTime: new Date().toISOString() }
        }
      }
    })).type.not.toRaiseError()
  })

  test('docs/mock.md "Sample answers": with unimplemented: "sample" and a sampleSeed, handlers for some operations (or none) are enough; a seed of another type does not compile', () => {
    expect(app.soap.contract<Operations>({ path: '/ocpp', wsdl: 'x.wsdl', unimplemented: 'sample', sampleSeed: 3, operations: {} })).type.not.toRaiseError()
    expect(app.soap.contract<Operations>({ path: '/ocpp', wsdl: 'x.wsdl', unimplemented: 'sample', operations: { Heartbeat: async () => ({ currentTime: '2026-01-01T00:00:00Z' }) } })).type.not.toRaiseError()
    expect(app.soap.contract<Operations>({ path: '/ocpp', wsdl: 'x.wsdl', unimplemented: 'sample', sampleSeed: '3', operations: {} })).type.toRaiseError()
  })

  test('with unimplemented: "fault", a wrong result or an unknown operation still does not compile', () => {
    expect(app.soap.contract<Operations>({
      path: '/ocpp',
      wsdl: 'x.wsdl',
      unimplemented: 'fault',
      operations: { Authorize: async () => ({ idTagInfo: { status: 'Maybe' as const } }) }
    })).type.toRaiseError()
    expect(app.soap.contract<Operations>({ path: '/ocpp', wsdl: 'x.wsdl', unimplemented: 'fault', operations: { Unknown: async () => ({}) } })).type.toRaiseError()
  })

  test('without it, or with unimplemented: "error", every operation needs a handler; no other value compiles', () => {
    const { Authorize, ...others } = {} as Operations
    expect(app.soap.contract<Operations>({ path: '/ocpp', wsdl: 'x.wsdl', unimplemented: 'error', operations: others })).type.toRaiseError()
    expect(app.soap.contract<Operations>({ path: '/ocpp', wsdl: 'x.wsdl', unimplemented: 'error', operations: { ...others, Authorize } })).type.not.toRaiseError()
    expect(app.soap.contract<Operations>({ path: '/ocpp', wsdl: 'x.wsdl', unimplemented: 'stub', operations: { ...others, Authorize } })).type.toRaiseError()
  })
})

describe('docs/contract-first.md "What is served": output header blocks', () => {
  type Schemas = {
    readonly Ack: {
      readonly input: { type: 'object', properties: { id: { type: 'integer' } }, required: readonly ['id'], additionalProperties: false, xml: { name: 'Ack', namespace: 'urn:r' } }
      readonly outputHeaders: { type: 'object', properties: { Receipt: { type: 'object', properties: { at: { type: 'string' } }, required: readonly ['at'], additionalProperties: false, xml: { namespace: 'urn:r' } } }, additionalProperties: false }
    }
  }

  test('a contract operation\'s call.replyHeaders() is typed from its outputHeaders; with no output, the handler returns nothing', () => {
    expect(app.soap.contract<ContractOperations<Schemas>>({
      path: '/r',
      wsdl: 'r.wsdl',
      operations: {
        Ack: async (input, call) => {
          expect(input.id).type.toBe<number>()
          call.replyHeaders({ Receipt: { at: '2026-11-25T03:00:00Z' } })
        }
      }
    })).type.not.toRaiseError()
    expect(app.soap.contract<ContractOperations<Schemas>>({
      path: '/r',
      wsdl: 'r.wsdl',
      operations: { Ack: async (_input, call) => { call.replyHeaders({ Receipt: { at: 1 } }) } }
    })).type.toRaiseError()
  })
})

describe('docs/typescript.md "Exact results": contracts', () => {
  type Schemas = {
    readonly Track: {
      readonly input: { type: 'object', properties: { id: { type: 'string' } }, required: readonly ['id'], additionalProperties: false, xml: { name: 'Track', namespace: 'urn:p' } }
      readonly output: { type: 'object', properties: { id: { type: 'string' }, trackingNumber: { type: 'string' } }, required: readonly ['id'], additionalProperties: false, xml: { name: 'TrackResponse', namespace: 'urn:p' } }
      readonly outputHeaders: { type: 'object', properties: { Receipt: { type: 'object', properties: { at: { type: 'string' } }, required: readonly ['at'], additionalProperties: false, xml: { namespace: 'urn:p' } } }, additionalProperties: false }
      readonly faults: { readonly NotFound: { type: 'object', properties: { id: { type: 'string' } }, required: readonly ['id'], additionalProperties: false, xml: { name: 'NotFound', namespace: 'urn:p' } } }
    }
  }

  test('a contract handler\'s fault detail and reply header values, as a literal or a variable, have no property their schema does not declare', () => {
    expect(app.soap.contract<ContractOperations<Schemas>>({
      path: '/p',
      wsdl: 'p.wsdl',
      operations: {
        Track: async (input, call) => {
          call.replyHeaders({ Receipt: { at: '2026-11-26T21:00:00Z' } })
          if (input.id === '') throw call.fault('NotFound', { id: input.id }, { code: 'Sender', reason: 'no such parcel' })
          return { id: input.id }
        }
      }
    })).type.not.toRaiseError()
    const detail = { id: 'p1', gone: true }
    expect(app.soap.contract<ContractOperations<Schemas>>({
      path: '/p',
      wsdl: 'p.wsdl',
      operations: { Track: async (_input, call) => { throw call.fault('NotFound', detail, { code: 'Sender', reason: 'no such parcel' }) } }
    })).type.toRaiseError('gone')
    const receipt = { Receipt: { at: '2026-11-26T21:00:00Z', clerk: 'desk' } }
    expect(app.soap.contract<ContractOperations<Schemas>>({
      path: '/p',
      wsdl: 'p.wsdl',
      operations: { Track: async (input, call) => { call.replyHeaders(receipt); return { id: input.id } } }
    })).type.toRaiseError('clerk')
  })

  test('defineContractOperations(): a handler\'s result is inferred, then has no property its closed schema does not declare', () => {
    const schemas = {} as Schemas
    const operations = defineContractOperations(schemas, {
      async Track (input) {
        expect(input.id).type.toBe<string>()
        return { id: input.id, trackingNumber: '1Z' }
      }
    })
    expect(app.soap.contract<ContractOperations<Schemas>>({ path: '/p', wsdl: 'p.wsdl', operations })).type.not.toRaiseError()
    expect(defineContractOperations(schemas, { Track: (input) => ({ id: input.id }) })).type.not.toRaiseError()
    expect(defineContractOperations(schemas, { async Track (input) { return { id: input.id, trackingNo: '1Z' } } })).type.toRaiseError('trackingNo')
    expect(defineContractOperations(schemas, { Track: (input) => ({ id: input.id, trackingNo: '1Z' }) }))
      .type.toRaiseError("Type 'string' is not assignable to type 'never'")
    const built = { id: 'p1', trackingNo: '1Z' }
    expect(defineContractOperations(schemas, { Track: async () => built })).type.toRaiseError('trackingNo')
  })

  test('defineContractOperations(): a result not of the output schema\'s type, or an operation the contract lacks, does not compile', () => {
    expect(defineContractOperations({} as Schemas, { Track: (input) => ({ id: input.id.length }) })).type.toRaiseError()
    expect(defineContractOperations({} as Schemas, { Trace: () => ({ id: 'p1' }) })).type.toRaiseError('Trace')
  })

  test('defineContractOperations() with the schemas fastify-soap types writes: some operations, given with unimplemented: \'fault\'', () => {
    const operations = defineContractOperations(ocpp, {
      async Heartbeat () {
        return { currentTime: '2026-11-26T21:00:00Z' }
      },
      Authorize: (input, call) => {
        expect(call.headers.chargeBoxIdentity).type.toBe<string | undefined>()
        return { idTagInfo: { status: input.idTag === '' ? 'Invalid' : 'Accepted' } }
      }
    })
    expect(app.soap.contract<Operations>({ path: '/ocpp', wsdl: 'ocpp.wsdl', unimplemented: 'fault', operations })).type.not.toRaiseError()
    expect(app.soap.contract<Operations>({ path: '/ocpp', wsdl: 'ocpp.wsdl', operations })).type.toRaiseError()
    expect(defineContractOperations(ocpp, { async Heartbeat () { return { currentTime: '2026-11-26T21:00:00Z', uptime: 3 } } })).type.toRaiseError('uptime')
  })
})

describe('docs/contract-first.md "Options": ignorePolicyAssertions', () => {
  test('names assertions as strings; nothing else compiles', () => {
    const { Authorize, ...others } = {} as Operations
    const operations = { ...others, Authorize }
    const names = ['{http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200702}TransportBinding'] as const
    expect(app.soap.contract<Operations>({ path: '/ocpp', wsdl: 'x.wsdl', ignorePolicyAssertions: names, operations })).type.not.toRaiseError()
    expect(app.soap.contract<Operations>({ path: '/ocpp', wsdl: 'x.wsdl', ignorePolicyAssertions: [1], operations })).type.toRaiseError()
    expect(app.soap.contract<Operations>({ path: '/ocpp', wsdl: 'x.wsdl', ignorePolicyAssertions: 'TransportBinding', operations })).type.toRaiseError()
  })
})
