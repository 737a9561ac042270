/**
 * The Ajv keyword that validates a value of a type with derived types
 * (docs/contract-first.md "Derived types"): the "oneOf" of the types becomes
 * `xsiTypes`, the list of them, and a value is validated as the one its
 * `$type` names, found in a map made when the schema is compiled. Each type
 * is a validator of its own (a named schema, compiled once, or one compiled
 * here for a type written in place), called as a `$ref` is: the cost of a
 * value does not grow with the number of types, nor the code with their size.
 */
import { _, nil, type CodeKeywordDefinition, type KeywordCxt, type ValidateFunction } from 'ajv'
import { resolveRef, SchemaEnv } from 'ajv/dist/compile'
import N from 'ajv/dist/compile/names'
import { callValidateCode } from 'ajv/dist/vocabularies/code'
import { TYPE_PROPERTY } from './shapes'

export const XSI_TYPES = 'xsiTypes'

type Schema = Record<string, any>

/** What a type's validator is called through: a named schema's, compiled by the time a value comes. */
interface Validator { readonly validate?: ValidateFunction }

/**
 * A type of the list: its `$type` (lib/codec/shapes.ts has checked that each type has one, its own) and its
 * validator. A `$ref` names a schema Ajv holds (validation.ts, namedOnce()): one being compiled (a type that
 * contains itself) has its validator once it is.
 */
function typeOf (cxt: KeywordCxt, branch: Schema): [string, Validator] {
  const { it } = cxt
  const { root } = it.schemaEnv
  const named = typeof branch.$ref === 'string' ? resolveRef.call(it.self, root, it.baseId, branch.$ref) : undefined
  if (named instanceof SchemaEnv) return [(named.schema as Schema).properties[TYPE_PROPERTY].const, named]
  return [branch.properties[TYPE_PROPERTY].const, { validate: it.self.compile(branch) }]
}

export const xsiTypes: CodeKeywordDefinition = {
  keyword: XSI_TYPES,
  type: 'object',
  schemaType: 'array',
  error: { message: 'must name the element\'s type or one derived from it' },
  code (cxt: KeywordCxt): void {
    const { gen, data, schema } = cxt
    const types = new Map((schema as Schema[]).map((branch) => typeOf(cxt, branch)))
    const table = gen.scopeValue('obj', { ref: types })
    const tag = gen.const('tag', _`${data}[${TYPE_PROPERTY}]`)
    const type = gen.const('type', _`typeof ${tag} == "string" ? ${table}.get(${tag}) : undefined`)
    const valid = gen.let('valid', false)
    gen.if(_`${type} === undefined`, () => cxt.error(false), () => {
      const validate = _`${type}.validate`
      gen.assign(valid, callValidateCode(cxt, validate, nil))
      gen.if(_`!${valid}`, () => {
        gen.assign(N.vErrors, _`${N.vErrors} === null ? ${validate}.errors : ${N.vErrors}.concat(${validate}.errors)`)
        gen.assign(N.errors, _`${N.vErrors}.length`)
      })
    })
    cxt.ok(valid)
  }
}
