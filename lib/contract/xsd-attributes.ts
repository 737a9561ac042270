/**
 * Contract first, part 2: attributes as properties of their type's object
 * schema (`xml.attribute`): declared here or globally, of a simple type,
 * `fixed`, required, prohibited; attribute groups read in place, and
 * attribute wildcards (lib/contract/xsd-wildcards.ts).
 */
import type { Element as DomElement } from '@xmldom/xmldom'
import { SOAP_ERR_CONTRACT_INVALID } from '../errors'
import { SOAP11_ENV, XML_NS, XSD_NS } from '../namespaces'
import { attr, childElements } from './dom'
import { lexical } from './simple-types'
import { simpleResult, type Content } from './content'
import { named } from './checks'
import { key, xs, type Component, type QName, type SchemaContext } from './xsd-components'
import { attributeWildcard } from './xsd-wildcards'
import type { Schema, Translator, Typed } from './xsd-translation'

const ATTRIBUTES = ['attribute', 'attributeGroup', 'anyAttribute']

/** An xs:attribute, xs:attributeGroup or xs:anyAttribute, added to `content`. */
export function attribute (
  t: Translator, node: DomElement, context: SchemaContext, content: Content, where: string
): void {
  const { components, state } = t
  if (node.localName === 'anyAttribute') {
    attributeWildcard(node, content)
    return
  }
  if (node.localName === 'attributeGroup') {
    const group = components.find('attributeGroup', components.qnameOf(node, 'ref', context), where)
    const inner = `${where} > attributeGroup ${attr(node, 'ref') as string}`
    const what = `the attributeGroup ${attr(node, 'ref') as string}`
    state.nesting.within(group.node, what, inner, () => state.bounds.deeper(what, where, () => {
      for (const child of childElements(group.node)) {
        if (child.namespaceURI === XSD_NS && ATTRIBUTES.includes(child.localName as string)) {
          t.attribute(child, group.context, content, inner)
        }
      }
    }))
    return
  }
  state.bounds.spend(`xs:attribute ${attr(node, 'ref') ?? attr(node, 'name') ?? ''}`.trimEnd(), where)
  const use = attr(node, 'use')
  let name: QName
  let declaration: Component
  const ref = attr(node, 'ref')
  if (ref !== undefined) {
    name = components.qname(node, ref, context)
    // xml:lang and its kin are read by no codec: the reader passes over the xml namespace.
    if (name[0] === XML_NS) return
    if (name[0] === SOAP11_ENV) return
    declaration = components.find('attribute', name, where)
  } else {
    const form = attr(node, 'form')
    const qualified = form === undefined ? context.attributeQualified : form === 'qualified'
    name = [qualified ? context.targetNamespace : '', named(node, where)]
    declaration = { node, context }
  }
  const { property, known } = content.property(`@${key(...name)}`, name[1])
  if (use === 'prohibited') {
    content.properties.delete(property)
    content.names.delete(property)
    const at = content.required.indexOf(property)
    if (at !== -1) content.required.splice(at, 1)
    return
  }
  const simple = attributeType(t, declaration, where)
  if (!simple.simple) {
    const why = `the attribute ${key(...name)} of a complex type (an attribute's type is simple)`
    throw new SOAP_ERR_CONTRACT_INVALID(where, why)
  }
  const schema: Schema = { ...simple.schema }
  const fixed = attr(declaration.node, 'fixed') ?? attr(node, 'fixed')
  if (fixed !== undefined && schema.type !== 'array') schema.const = lexical(schema, fixed, where)
  const xml: Schema = { ...(schema.xml as object | undefined), attribute: true }
  if (name[0] !== '') xml.namespace = name[0]
  if (property !== name[1]) xml.name = name[1]
  content.properties.set(property, { ...schema, xml })
  if (use === 'required' && !known) content.required.push(property)
}

/** The type an attribute declaration names, or holds; a string when it states none. */
function attributeType (t: Translator, declaration: Component, where: string): Typed {
  const typeName = attr(declaration.node, 'type')
  if (typeName !== undefined) {
    return t.typeByName(t.components.qname(declaration.node, typeName, declaration.context), where)
  }
  const inline = xs(declaration.node, 'simpleType')[0]
  if (inline !== undefined) return simpleResult(t.simpleType(inline, declaration.context, where))
  return { schema: { type: 'string' }, simple: true }
}
