/**
 * Contract first, part 2: complex types as object schemas. Their content
 * (model groups, attributes) is gathered into a Content
 * (lib/contract/content.ts); complexContent and simpleContent add to their
 * base's (an extension) or restate it (a restriction).
 */
import type { Element as DomElement } from '@xmldom/xmldom'
import { SOAP_ERR_CONTRACT_INVALID, SOAP_ERR_CONTRACT_UNSUPPORTED } from '../errors'
import { SOAP_ENCODING_NAMESPACES, XSD_NS } from '../namespaces'
import { attr, childElements } from './dom'
import { restrict } from './simple-types'
import { Content, objectSchema } from './content'
import { contentRule } from './presence-rules'
import { key, xs, type QName, type SchemaContext } from './xsd-components'
import type { Schema, Translator } from './xsd-translation'

const ATTRIBUTES = ['attribute', 'attributeGroup', 'anyAttribute']

/**
 * An object schema from a complex type. Every element names its namespace, so the schema is the same wherever it
 * is used.
 */
export function complexType (t: Translator, node: DomElement, context: SchemaContext, where: string): Schema {
  const content = new Content()
  const complex = xs(node, 'complexContent')[0]
  content.mixed = attr(node, 'mixed') === 'true' || (complex !== undefined && attr(complex, 'mixed') === 'true')
  t.complexContent(node, context, content, where)
  const schema = objectSchema(content)
  // A strict wildcard requires an element the contract declares: lib/contract/wildcard-examples.ts finds one.
  if (content.needs.some((need) => need.strict)) {
    t.state.wildcards.set((schema.properties as Schema).$any as Schema, content.needs)
  }
  return schema
}

/** A complex type's (or a derivation step's) content, gathered into `content`. */
export function complexContent (
  t: Translator, node: DomElement, context: SchemaContext, content: Content, where: string
): void {
  for (const child of childElements(node)) {
    if (child.namespaceURI !== XSD_NS) continue
    switch (child.localName) {
      case 'sequence': case 'all': case 'choice': case 'group': {
        // The type's content is always there: what it requires of choices holds as it is.
        const before = new Map(content.met)
        const reach = t.particle(child, context, content, false, false, where)
        if (reach.some.length > 0) content.rules.push({ kind: 'some', sets: reach.some })
        // An element the group names twice, outside any one choice: the whole content's alternatives count it.
        const whole = contentRule(reach, content.metSince(before), content.rules)
        if (whole !== undefined) {
          t.state.bounds.spend('the content model', where, whole.branches.length * whole.props.length)
          content.rules.push(whole)
        }
        break
      }
      case 'attribute': case 'attributeGroup': case 'anyAttribute':
        t.attribute(child, context, content, where)
        break
      case 'complexContent':
        derived(t, child, context, content, false, where)
        break
      case 'simpleContent':
        derived(t, child, context, content, true, where)
        break
      // xs:annotation and xs:assert are no content.
    }
  }
}

/** complexContent or simpleContent: an extension adds to its base, a restriction restates it. */
function derived (
  t: Translator, node: DomElement, context: SchemaContext, content: Content, simple: boolean, where: string
): void {
  const derivation = childElements(node)
    .find((c) => c.namespaceURI === XSD_NS && (c.localName === 'extension' || c.localName === 'restriction'))
  if (derivation === undefined) {
    const why = `an xs:${node.localName as string} with no xs:extension or xs:restriction`
    throw new SOAP_ERR_CONTRACT_INVALID(where, why)
  }
  const base = t.components.qnameOf(derivation, 'base', context)
  const extension = derivation.localName === 'extension'
  if (SOAP_ENCODING_NAMESPACES.has(base[0])) {
    const what = `the SOAP encoding type ${key(...base)} as a base (encoded arrays and structs have no literal form)`
    throw new SOAP_ERR_CONTRACT_UNSUPPORTED(what, where)
  }
  if (simple) {
    if (base[0] === XSD_NS || t.components.has('simpleType', base)) {
      // The text of simple content is one scalar: a list type's text is read as the string it is.
      const text = t.typeByName(base, where).schema
      content.text = { schema: text.type === 'array' ? { type: 'string' } : text, list: false }
    } else {
      baseContent(t, base, content, where)
    }
    if (!extension && content.text !== undefined) {
      content.text = { schema: restrict(content.text.schema, derivation, where), list: false }
    }
    for (const child of childElements(derivation)) {
      if (child.namespaceURI === XSD_NS && ATTRIBUTES.includes(child.localName as string)) {
        t.attribute(child, context, content, where)
      }
    }
    return
  }
  const anyType = base[0] === XSD_NS && base[1] === 'anyType'
  if (extension && !anyType) baseContent(t, base, content, where)
  // A restriction restates the particles it keeps; the base's attributes are inherited unless prohibited.
  if (!extension && !anyType) {
    const inherited = new Content()
    baseContent(t, base, inherited, where)
    for (const [property, name] of inherited.names) {
      if (!name.startsWith('@')) continue
      const own = content.property(name, property)
      content.properties.set(own.property, inherited.properties.get(property) as Schema)
      if (inherited.required.includes(property)) content.required.push(own.property)
    }
    content.anyAttribute ||= inherited.anyAttribute
  }
  t.complexContent(derivation, context, content, where)
}

/** A base type's content, gathered into `content`; a type derived from itself is refused. */
function baseContent (t: Translator, base: QName, content: Content, where: string): void {
  const { state } = t
  const { node, context } = t.components.find('complexType', base, where)
  const id = key(...base)
  if (state.deriving.includes(id)) throw new SOAP_ERR_CONTRACT_INVALID(where, `the type ${id} is derived from itself`)
  state.deriving.push(id)
  try {
    const inner = `${where} > base ${id}`
    state.bounds.deeper(`the base ${id}`, where, () => t.complexContent(node, context, content, inner))
  } finally {
    state.deriving.pop()
  }
}
