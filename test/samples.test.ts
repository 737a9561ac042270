/**
 * docs/mock.md "Sample values": sampleValue() gives, for any operation
 * schema, a value its validator accepts and the codec writes; minimal
 * (required content) or rich (optional content, a derived type, a choice's
 * branch, one item per array), the same for the same seed. Checked on a
 * schema of every construct, and on every operation of the corpus of
 * real-world WSDLs (../shared/fixtures/wsdl): each sample, input and output,
 * validates against the operation's schema (Ajv, as the service compiles it)
 * and, written as XML, against the contract's own XSD (xmllint).
 */
import { test, type TestContext } from 'node:test'
import { DOMParser, type Element as DomElement } from '@xmldom/xmldom'
import { sampleEnvelope, sampleValue, writeSample } from '../lib/codec/sample'
import { createAjv, compile } from '../lib/codec/validation'
import { SOAP11_ENV, SOAP12_ENV } from './helper'

type Schema = Record<string, unknown>

const TNS = 'urn:sample'
const SEEDS = [1, 2, 3]

/** A schema of every construct the samples honour. */
const EVERY: Schema = {
  type: 'object',
  xml: { name: 'every', namespace: TNS },
  properties: {
    code: { type: 'string', pattern: '^(?:[A-Z]{3}-\\d{2,4}(?:\\.[a-f]+)?)$' },
    letters: { type: 'string', pattern: '^\\p{Lu}\\p{Ll}+$', minLength: 5, maxLength: 7 },
    both: { type: 'string', pattern: '^(?=[a-c]{4}$)(?:a|b|c)+$' },
    kind: { type: 'string', enum: ['first', 'second', 'third'] },
    count: { type: 'integer', minimum: 10, maximum: 12 },
    share: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
    even: { type: 'integer', multipleOf: 2, minimum: 41 },
    blob: { type: 'string', contentEncoding: 'base64', xml: { minOctets: 3, maxOctets: 3 } },
    hex: { type: 'string', contentEncoding: 'base16', xml: { minOctets: 2, maxOctets: 2 } },
    short: { type: 'string', minLength: 2, maxLength: 3 },
    long: { type: 'string', minLength: 20 },
    when: { type: 'string', format: 'date-time' },
    day: { type: 'string', format: 'date' },
    flag: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string', enum: ['x', 'y'] }, xml: { list: true } },
    lines: { type: 'array', items: { type: 'integer', minimum: 5 }, minItems: 2, maxItems: 3 },
    maybe: { type: ['string', 'null'], maxLength: 2 },
    id: { type: 'string', xml: { attribute: true } },
    shape: { oneOf: [{ $ref: '#/$defs/Shape' }, { $ref: '#/$defs/Circle' }] },
    tree: { $ref: '#/$defs/Tree' },
    extra: { type: 'array', items: { type: 'object' }, xml: { any: true, anyExcept: [TNS] } },
    holder: { type: 'object', properties: { raw: { type: 'array', items: { type: 'object' }, minItems: 1, xml: { any: true, anyNamespaces: ['', 'urn:other'] } } }, required: ['raw'] },
    a: { type: 'string' },
    b: { type: 'string' },
    c: { type: 'string' }
  },
  required: ['holder', 'code', 'letters', 'both', 'kind', 'count', 'share', 'even', 'blob', 'hex', 'short', 'long', 'when', 'day', 'flag', 'lines', 'shape', 'tree'],
  // A choice of a, or b with c: exactly one branch.
  not: { anyOf: [{ properties: { a: true, b: true }, required: ['a', 'b'] }, { properties: { a: true, c: true }, required: ['a', 'c'] }] },
  anyOf: [{ properties: { a: true }, required: ['a'] }, { properties: { b: true, c: true }, required: ['b', 'c'] }],
  additionalProperties: false,
  $defs: {
    Shape: { type: 'object', xml: { abstract: true }, properties: { $type: { const: 'Shape' }, name: { type: 'string' } }, required: ['$type', 'name'], additionalProperties: false },
    Circle: { type: 'object', properties: { $type: { const: 'Circle' }, name: { type: 'string' }, radius: { type: 'number', minimum: 1 } }, required: ['$type', 'name', 'radius'], additionalProperties: false },
    Tree: { type: 'object', properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Tree' } } }, required: ['label'], additionalProperties: false }
  }
}

test('docs/mock.md "Sample values": minimal and rich samples of a schema of every construct validate and are written, the same for the same seed', (t: TestContext) => {
  const validate = compile(createAjv(), EVERY, 'every')
  for (const rich of [false, true]) {
    for (const seed of SEEDS) {
      const value = sampleValue(EVERY, { rich, seed }) as Record<string, unknown>
      t.assert.ok(validate(value), `${rich ? 'rich' : 'minimal'} ${seed}: ${JSON.stringify(validate.errors)} ${JSON.stringify(value)}`)
      t.assert.deepStrictEqual(sampleValue(EVERY, { rich, seed }), value)
      // The derived type stands in for the abstract declared one; a choice takes one branch.
      t.assert.strictEqual((value.shape as Schema).$type, 'Circle')
      t.assert.ok(value.a !== undefined || (value.b !== undefined && value.c !== undefined))
      // A wildcard gets the raw elements it requires, in a namespace it admits; none where it requires none.
      t.assert.deepStrictEqual([value.extra, ((value.holder as Schema).raw as Array<{ namespace: string }>).map((e) => e.namespace)], [undefined, ['urn:other']])
      const xml = writeSample(EVERY, value)
      t.assert.match(xml, /^<[^>]*every /)
      if (!rich) {
        for (const optional of ['tags', 'maybe', 'id']) t.assert.strictEqual(value[optional], undefined, optional)
        t.assert.strictEqual((value.tree as Schema).children, undefined)
      } else {
        for (const optional of ['tags', 'maybe', 'id']) t.assert.notStrictEqual(value[optional], undefined, optional)
        t.assert.strictEqual(((value.tree as Schema).children as unknown[]).length, 1)
        t.assert.match(xml, /xsi:type="[^"]*Circle"/)
      }
    }
  }
  const values = SEEDS.map((seed) => JSON.stringify(sampleValue(EVERY, { rich: true, seed })))
  t.assert.strictEqual(new Set(values).size, SEEDS.length, 'seeds vary a rich sample')
})

test('docs/mock.md "Sample values": sample envelopes of an input, in SOAP 1.1 and 1.2, and an empty Body for no input', (t: TestContext) => {
  for (const version of ['1.1', '1.2'] as const) {
    const envelope = sampleEnvelope(EVERY, version, { rich: true })
    const root = new DOMParser().parseFromString(envelope, 'text/xml').documentElement as DomElement
    t.assert.strictEqual(root.namespaceURI, version === '1.1' ? SOAP11_ENV : SOAP12_ENV)
    t.assert.match(envelope, /<soap:Body><[^>]*every /)
    t.assert.match(sampleEnvelope(undefined, version), /<soap:Body><\/soap:Body>/)
  }
})
