/**
 * Header blocks written: an object schema whose element properties are the
 * blocks (an operation's `outputHeaders`, or its request's `headers` in a
 * sample), written one after another from an object of values, each block
 * declaring the namespaces it uses, in schema order (docs/services.md
 * "Header blocks").
 */
import { compileElement } from './write'
import { SOAP_ERR_OUTPUT_INVALID } from '../errors'
import { XSI_NS } from '../namespaces'
import { escapeAttribute } from '../xml/escape'
import { usesXsi, type Field, type ObjectShape } from './shapes'
import { fail } from './xml-keyword'
import { prefixesFor } from './prefixes'

type Schema = Readonly<Record<string, unknown>>

const NO_FIELDS = new Map()

/** The writer of one block (one item of a repeated block): an element of the block's shape, or xsi:nil. */
function blockWriter (field: Field, schema: Schema, where: string): (value: unknown) => string {
  if (field.list || field.wrapped) {
    fail(where, 'a header block is one element: it cannot be an xs:list or a wrapped array')
  }
  if (field.alternatives !== undefined) {
    fail(where, 'a header block written in a reply has one type: it cannot be a "oneOf" of types')
  }
  // A block of simple type is written as an element whose text is the value.
  const simple = field.shape.kind === 'scalar'
  const shape: ObjectShape = field.shape.kind === 'object'
    ? field.shape
    : {
        kind: 'object',
        nullable: false,
        elements: [],
        attributes: [],
        elementsByName: NO_FIELDS,
        attributesByName: NO_FIELDS,
        text: { ...field, property: '$value', array: false },
        xsiType: undefined,
        any: undefined,
        anyAttribute: false,
        mixed: false,
        required: [],
        closed: false,
        prefixes: []
      }
  const prefixes = prefixesFor(shape, field.namespace, field.array ? schema.items : schema, where)
  const write = compileElement(shape, field.name, field.namespace, prefixes, usesXsi(shape))
  const prefix = prefixes.get(field.namespace)
  const nil = prefix === undefined
    ? `<${field.name} xmlns:xsi="${XSI_NS}" xsi:nil="true"/>`
    : `<${prefix}:${field.name} xmlns:${prefix}="${escapeAttribute(field.namespace)}" ` +
      `xmlns:xsi="${XSI_NS}" xsi:nil="true"/>`
  const nullable = field.shape.nullable
  return (value) => {
    if (value === null && nullable) return nil
    return write(simple ? { $value: value } : value)
  }
}

/** The writer of the blocks of `shape` (`schema`'s): the blocks of the values given, absent ones left out. */
export function compileBlocks (shape: ObjectShape, schema: Schema, where: string): (values: unknown) => string {
  if (shape.attributes.length !== 0 || shape.text !== undefined || shape.any !== undefined) {
    fail(where, 'header blocks are elements: no property may be an attribute, text or raw elements')
  }
  const properties = (schema.properties ?? {}) as Record<string, Schema>
  const blocks = shape.elements.map((field) => ({
    property: field.property,
    array: field.array,
    write: blockWriter(field, properties[field.property], `${where}/properties/${field.property}`)
  }))
  return (values) => {
    if (typeof values !== 'object' || values === null || Array.isArray(values)) {
      throw new SOAP_ERR_OUTPUT_INVALID('(reply headers)', 'must be an object')
    }
    const object = values as Record<string, unknown>
    let out = ''
    for (const block of blocks) {
      const value = Object.hasOwn(object, block.property) ? object[block.property] : undefined
      if (value === undefined) continue
      if (!block.array) {
        out += block.write(value)
        continue
      }
      if (!Array.isArray(value)) {
        throw new SOAP_ERR_OUTPUT_INVALID(`(reply headers)/${block.property}`, 'must be an array')
      }
      for (const item of value) out += block.write(item)
    }
    return out
  }
}
