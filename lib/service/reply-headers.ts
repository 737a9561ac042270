/**
 * Registration and the reply: an operation's output header blocks (its
 * `outputHeaders` schema, a contract's `soap:header` parts of the output),
 * compiled once into a validator and a writer of each block, and written
 * into the reply's Header from the values the handler gave to
 * `call.replyHeaders()` (docs/services.md "Header blocks").
 */
import type Ajv from 'ajv'
import type { ValidateFunction } from 'ajv'
import { compileElement } from '../codec/write'
import { SOAP_ERR_OUTPUT_INVALID } from '../errors'
import { XSI_NS } from '../namespaces'
import { escapeAttribute } from '../xml/escape'
import { fail, usesXsi, type Field, type ObjectShape } from '../codec/shapes'
import { prefixesFor } from '../codec/prefixes'
import type { JsonSchema } from './declaration'
import { compile, problemsOf } from '../codec/validation'

/** The output header blocks of an operation, compiled. */
export interface ReplyHeaders {
  /** An object shape whose element properties are the blocks. */
  readonly shape: ObjectShape
  readonly schema: JsonSchema
  /** The values' validator; undefined when the service does not validate what handlers give (`validateOutput: false`). */
  readonly validate: ValidateFunction | undefined
  /** The blocks of the values given, each declaring the namespaces it uses, in schema order. */
  readonly write: (values: unknown) => string
}

const NO_FIELDS = new Map()

/** The writer of one block (one item of a repeated block): an element of the block's shape, or xsi:nil. */
function blockWriter (field: Field, schema: JsonSchema, where: string): (value: unknown) => string {
  if (field.list || field.wrapped) fail(where, 'a header block is one element: it cannot be an xs:list or a wrapped array')
  if (field.alternatives !== undefined) fail(where, 'a header block written in a reply has one type: it cannot be a "oneOf" of types')
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
        prefixes: []
      }
  const prefixes = prefixesFor(shape, field.namespace, field.array ? schema.items : schema, where)
  const write = compileElement(shape, field.name, field.namespace, prefixes, usesXsi(shape))
  const prefix = prefixes.get(field.namespace)
  const nil = prefix === undefined
    ? `<${field.name} xmlns:xsi="${XSI_NS}" xsi:nil="true"/>`
    : `<${prefix}:${field.name} xmlns:${prefix}="${escapeAttribute(field.namespace)}" xmlns:xsi="${XSI_NS}" xsi:nil="true"/>`
  const nullable = field.shape.nullable
  return (value) => {
    if (value === null && nullable) return nil
    return write(simple ? { $value: value } : value)
  }
}

/** Compiles the output header blocks of an operation; `shape` is the `outputHeaders` schema's. */
export function compileReplyHeaders (ajv: Ajv, schema: JsonSchema, shape: ObjectShape, validateOutputs: boolean, where: string): ReplyHeaders {
  if (shape.attributes.length !== 0 || shape.text !== undefined || shape.any !== undefined) fail(where, 'header blocks are elements: no property may be an attribute, text or raw elements')
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>
  const blocks = shape.elements.map((field) => ({
    property: field.property,
    array: field.array,
    write: blockWriter(field, properties[field.property], `${where}/properties/${field.property}`)
  }))
  return {
    shape,
    schema,
    validate: validateOutputs ? compile(ajv, schema, where) : undefined,
    write (values) {
      if (typeof values !== 'object' || values === null || Array.isArray(values)) throw new SOAP_ERR_OUTPUT_INVALID('(reply headers)', 'must be an object')
      const object = values as Record<string, unknown>
      let out = ''
      for (const block of blocks) {
        const value = Object.hasOwn(object, block.property) ? object[block.property] : undefined
        if (value === undefined) continue
        if (!block.array) {
          out += block.write(value)
          continue
        }
        if (!Array.isArray(value)) throw new SOAP_ERR_OUTPUT_INVALID(`(reply headers)/${block.property}`, 'must be an array')
        for (const item of value) out += block.write(item)
      }
      return out
    }
  }
}

/** The blocks to write into a reply's Header: the values checked against their schema, then written. */
export function writeReplyHeaders (headers: ReplyHeaders, values: unknown): string {
  if (values === undefined) return ''
  if (headers.validate !== undefined && !headers.validate(values)) {
    const problem = problemsOf(headers.validate.errors)[0]
    throw new SOAP_ERR_OUTPUT_INVALID(`(reply headers)${problem.path}`, problem.message)
  }
  return headers.write(values)
}
