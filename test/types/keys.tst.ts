/**
 * Type tests of the lists of known keys (docs/architecture.md, codec
 * `keys.ts`): each list of an options object's or a declaration's keys is
 * a KeyRecord of its public type, so that a key the type gains or loses and
 * the list does not is a compile error.
 */
import { describe, expect, test } from 'tstyche'
import type { SoapContractDefinition, SoapSecurityOptions, SoapWsdlOptions } from 'fastify-soap'
import type { KeyRecord } from '../../lib/codec/keys'

describe('KeyRecord', () => {
  test('docs/architecture.md "Rooms", codec keys.ts: a list of every key of its type compiles', () => {
    expect({ address: true, splitSchemas: true, document: true, schemas: true } as const satisfies KeyRecord<SoapWsdlOptions>)
      .type.not.toRaiseError()
  })

  test('docs/architecture.md "Rooms", codec keys.ts: a list missing a key of its type, optional ones included, does not compile', () => {
    expect({ address: true, splitSchemas: true, document: true } as const satisfies KeyRecord<SoapWsdlOptions>)
      .type.toRaiseError('schemas')
  })

  test('docs/architecture.md "Rooms", codec keys.ts: a list naming a key its type lacks does not compile', () => {
    expect({ address: true, splitSchemas: true, document: true, schemas: true, adress: true } as const satisfies KeyRecord<SoapWsdlOptions>)
      .type.toRaiseError('adress')
  })

  test('docs/architecture.md "Rooms", codec keys.ts: the keys of a union are those of each of its members', () => {
    expect<'sampleSeed' | 'unimplemented' | 'operations' | 'path'>().type.toBeAssignableTo<keyof KeyRecord<SoapContractDefinition>>()
    expect<keyof KeyRecord<SoapSecurityOptions['timestamp']>>().type.toBe<'required' | 'reply'>()
  })
})
