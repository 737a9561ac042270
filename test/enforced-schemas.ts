/**
 * What the tests of docs/services.md "Reading" and "Writing" (Ajv left out where the codec enforces the schema)
 * generate their schemas from: the scalar types, nullable or not, a few property names (two of them
 * Object.prototype's), and a recursive named schema used through "$ref".
 */
import fc from 'fast-check'

export type Schema = Record<string, unknown>
export type Scalar = 'string' | 'integer' | 'number' | 'boolean'

export const SCALARS: Scalar[] = ['string', 'integer', 'number', 'boolean']
const PROPERTIES = ['a', 'b', 'constructor', 'x-y', 'toString']

/** A recursive named schema, used through "$ref". */
export const $defs = {
  Node: {
    type: 'object',
    properties: {
      name: { type: 'string', xml: { attribute: true } },
      child: { type: 'array', items: { $ref: '#/$defs/Node' } }
    },
    required: ['name'],
    additionalProperties: false
  }
}

/** A scalar's schema: `nullable` 0, not null; 1, a type array with 'null'; 2, `nullable: true`. */
export function scalarSchema (type: Scalar, nullable: 0 | 1 | 2): Schema {
  if (nullable === 1) return { type: [type, 'null'] }
  return nullable === 2 ? { type, nullable: true } : { type }
}

export const scalar = fc.constantFrom(...SCALARS)
export const nullable = fc.constantFrom<0 | 1 | 2>(0, 0, 1, 2)

/** An object's schema: some of the properties, each of `property`, some required, closed or open. */
export function objectSchema (property: fc.Arbitrary<Schema>): fc.Arbitrary<Schema> {
  return fc.tuple(
    fc.subarray(PROPERTIES),
    fc.array(property, { minLength: PROPERTIES.length, maxLength: PROPERTIES.length }),
    fc.array(fc.boolean(), { minLength: PROPERTIES.length, maxLength: PROPERTIES.length }),
    fc.boolean()
  ).map(([names, schemas, required, closed]) => {
    const properties = Object.fromEntries(names.map((name, i) => [name, schemas[i]]))
    return {
      type: 'object',
      properties,
      required: names.filter((_, i) => required[i]),
      ...(closed ? { additionalProperties: false } : {}),
      title: 'generated'
    }
  })
}
