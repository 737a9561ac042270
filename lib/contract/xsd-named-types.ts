/**
 * Contract first, part 2: named types as the schemas of the values that
 * use them. A complex type is translated once, a `$ref` where it is met
 * inside itself or where it is large; a built-in or simple type is read by
 * lib/contract/simple-types.ts; the types derived from one an element
 * declares are its alternatives (`xsi:type`), each made once in `$defs`.
 */
import type { Element as DomElement } from '@xmldom/xmldom'
import { SOAP_ERR_CONTRACT_UNSUPPORTED } from '../errors'
import { XSD_NS } from '../namespaces'
import { attr } from './dom'
import { builtin } from './simple-types'
import { anyContent, simpleResult } from './content'
import { alternative, blocked } from './derivation'
import { isLarge } from './defs'
import { key, type QName } from './xsd-components'
import type { Schema, Translator, Typed } from './xsd-translation'

/**
 * A named type where an element uses it: its schema, or a `$ref` to it in
 * `$defs` when it is large (HL7 V3's types, nested and used everywhere,
 * would otherwise be written out at every use).
 */
export function typeByName (t: Translator, name: QName, where: string): Typed {
  const result = t.plainType(name, where)
  if (result.simple || typeof result.schema.$ref === 'string' || !isLarge(result.schema)) return result
  const def = t.state.named.name(key(...name), name[1])
  t.state.named.defs.set(def, result.schema)
  return { schema: { $ref: `#/$defs/${def}` }, simple: false }
}

/** A named type's own schema; an abstract one only as an alternative (`xsi:type`). */
export function plainType (t: Translator, name: QName, where: string, alternative = false): Typed {
  const { components, state } = t
  if (name[0] === XSD_NS) {
    if (name[1] === 'anyType') return { schema: anyContent(), simple: false }
    return simpleResult(builtin(name[1], where))
  }
  const id = key(...name)
  const known = state.translated.get(id)
  if (known !== undefined) return { schema: state.bounds.again(known, `the type ${id}`, where), simple: false }
  if (components.has('simpleType', name)) {
    const { node, context } = components.find('simpleType', name, where)
    return simpleResult(t.simpleType(node, context, `${where} > type ${id}`))
  }
  const { node, context } = components.find('complexType', name, where)
  // A type met again inside itself: a reference to it, declared in `$defs` once it is translated.
  if (state.stack.includes(id)) return state.reference(id, name[1])
  if (attr(node, 'abstract') === 'true' && !alternative) {
    throw new SOAP_ERR_CONTRACT_UNSUPPORTED(`the abstract type ${id}, from which no type derives`, where)
  }
  state.stack.push(id)
  const chain = state.deriving
  state.deriving = [id]
  try {
    const schema = state.bounds.measure(() => t.complexType(node, context, `${where} > type ${id}`))
    state.translated.set(id, schema)
    const def = state.named.known(id)
    if (def !== undefined) state.named.defs.set(def, schema)
    for (const fill of state.translating.get(id) ?? []) fill(schema)
    return { schema, simple: false }
  } finally {
    state.stack.pop()
    state.deriving = chain
  }
}

/**
 * The alternatives of an element of a complex type others derive from: the
 * `$defs` name of a `oneOf` of a `$ref` to each type's alternative (each
 * made once), the declared type first; undefined when none derives from it
 * (or `block` keeps them out).
 */
export function alternatives (t: Translator, node: DomElement, type: QName, where: string): string | undefined {
  const { components, state } = t
  if (!components.has('complexType', type)) return undefined
  const declared = components.find('complexType', type, where)
  const block = new Set([...blocked(attr(node, 'block')), ...blocked(attr(declared.node, 'block'))])
  const derived = components.derivations.of(type, block)
  if (derived.length === 0) return undefined
  const id = `xsi:types ${key(...type)} ${[...block].sort().join(' ')}`
  const known = state.named.known(id)
  if (known !== undefined) return known
  const def = state.named.name(id, `${type[1]}.types`)
  const oneOf = [type, ...derived].map((name) => ({ $ref: `#/$defs/${alternativeDef(t, name, where)}` }))
  state.named.defs.set(def, { oneOf })
  return def
}

/**
 * The `$defs` name of a type's alternative, translated once (a type that contains its own element finds the name
 * taken).
 */
function alternativeDef (t: Translator, name: QName, where: string): string {
  const { components, state } = t
  const id = `xsi:type ${key(...name)}`
  const known = state.named.known(id)
  if (known !== undefined) return known
  const def = state.named.name(id, name[1])
  const { node } = components.find('complexType', name, where)
  const abstract = attr(node, 'abstract') === 'true'
  const fill = (schema: Schema): void => {
    state.named.defs.set(def, alternative(schema, components.derivations.tag(name), name, abstract))
  }
  const { schema } = t.plainType(name, where, true)
  // A type still being translated (one of its own elements is of a type it derives from) is filled in once it is.
  const waiting = key(...name)
  if (typeof schema.$ref === 'string') state.translating.set(waiting, [...(state.translating.get(waiting) ?? []), fill])
  else fill(schema)
  return def
}
