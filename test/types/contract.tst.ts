/**
 * Type tests of contract-first services (docs/contract-first.md "Types"), run by tstyche against the
 * built package: `contract-ocpp.ts` is what `fastify-soap types` writes for
 * OCPP 1.6's Central System WSDL (test/contract-types.test.ts checks that it
 * still does), and the handlers of `app.soap.contract<Operations>()` are typed
 * by it: input, header blocks, result, and refused mistakes.
 */
import Fastify from 'fastify'
import { describe, expect, test } from 'tstyche'
import soap, { type ContractOperations } from 'fastify-soap'
import type { AuthorizeHeaders, AuthorizeInput, AuthorizeOutput, Operations } from './contract-ocpp'

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
