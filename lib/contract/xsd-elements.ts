/**
 * Contract first, part 2: element declarations as the schemas of their
 * values: the type they name, or the anonymous type they hold (translated
 * once for each schema context), or any content; the types derived from it
 * (`xsi:type`), `fixed`, `nillable`.
 */
import type { Element as DomElement } from '@xmldom/xmldom'
import { attr } from './dom'
import { lexical } from './simple-types'
import { anyContent, simpleResult } from './content'
import { key, xs, type Component, type SchemaContext } from './xsd-components'
import { alternatives } from './xsd-named-types'
import type { Schema, Translator, Typed } from './xsd-translation'

/**
 * The value schema of an element declaration: its type, named or
 * anonymous, and nillable; a `oneOf` of the types derived from it too,
 * unless it is an operation's own element (`top`).
 */
export function elementType (
  t: Translator, node: DomElement, context: SchemaContext, where: string, top = false
): Typed {
  const typed = t.components.typed(node, context, where)
  const typeName = attr(typed.node, 'type')
  let result: Typed
  const types = typeName === undefined || top
    ? undefined
    : alternatives(t, node, t.components.qname(typed.node, typeName, typed.context), where)
  if (types !== undefined) {
    // nil is one more alternative: the set's nillable copy.
    return { schema: { $ref: `#/$defs/${types}${attr(node, 'nillable') === 'true' ? '.nil' : ''}` }, simple: false }
  }
  if (typeName !== undefined) {
    const type = t.components.qname(typed.node, typeName, typed.context)
    result = top ? t.plainType(type, where) : t.typeByName(type, where)
  } else {
    const complex = xs(typed.node, 'complexType')[0]
    const simple = xs(typed.node, 'simpleType')[0]
    if (complex !== undefined) result = { schema: anonymousType(t, complex, typed, where, top), simple: false }
    else if (simple !== undefined) result = simpleResult(t.simpleType(simple, typed.context, where))
    else result = { schema: anyContent(), simple: false }
  }
  const fixed = attr(node, 'fixed')
  let schema = result.schema
  if (fixed !== undefined && result.simple && !Array.isArray(schema.items)) {
    schema = { ...schema, const: lexical(schema, fixed, where) }
  }
  if (attr(node, 'nillable') === 'true' && typeof schema.$ref === 'string') {
    // A reference cannot take `nullable` beside it: the nillable use names a nillable copy of the type.
    schema = { $ref: `${schema.$ref}.nil` }
  } else if (attr(node, 'nillable') === 'true') {
    // nil is one more value: an enumeration or a fixed value takes null too.
    schema = { ...schema, nullable: true }
    if (Array.isArray(schema.enum)) schema.enum = [...schema.enum, null]
    if (schema.const !== undefined) {
      schema.enum = [schema.const, null]
      delete schema.const
    }
  }
  return { schema, simple: result.simple }
}

/**
 * An element's anonymous type, translated once for each schema context
 * (a chameleon schema is read in each includer's namespace). Used again (a
 * global element referred to, or the group holding it read again), it is a
 * `$ref` to it in `$defs` (lib/contract/defs.ts, MadeOnce), not written out
 * at each use. An element whose anonymous type contains the element again
 * is named after the element.
 */
function anonymousType (t: Translator, complex: DomElement, typed: Component, where: string, top: boolean): Schema {
  const { state } = t
  const local = attr(typed.node, 'name') as string
  const id = `element ${key(typed.context.targetNamespace, local)}`
  if (state.anonymous.has(complex)) return state.reference(id, local).schema
  const made = state.anonymousTypes.made(typed.context, complex)
  if (made !== undefined) {
    state.bounds.again(made, `the element ${local}`, where)
    return state.anonymousTypes.use(typed.context, complex, local, top)
  }
  state.anonymous.add(complex)
  const chain = state.deriving
  state.deriving = []
  let schema: Schema
  try {
    schema = state.bounds.measure(() => t.complexType(complex, typed.context, where))
  } finally {
    state.anonymous.delete(complex)
    state.deriving = chain
  }
  const def = state.named.known(id)
  if (def !== undefined) state.named.defs.set(def, schema)
  state.anonymousTypes.add(typed.context, complex, schema, def)
  return schema
}
