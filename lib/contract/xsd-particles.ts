/**
 * Contract first, part 2: model groups and element particles (sequence,
 * all, choice, group references, elements, wildcards) as the properties of
 * their content, and what they say of which appear together
 * (lib/contract/choices.ts): a repeated element is an array, an element
 * named twice one too, a reference to a substitution group's head the
 * choice of the elements that may stand there.
 */
import type { Element as DomElement } from '@xmldom/xmldom'
import { SOAP_ERR_CONTRACT_UNSUPPORTED } from '../errors'
import { XSD_NS } from '../namespaces'
import { attr, childElements } from './dom'
import {
  addImplies, choice, elementReach, groupRule, NOTHING, optionalFlat, repeatedFlat, together, type Reach
} from './presence-rules'
import { namedAgain, withoutXml, type Content } from './content'
import { named, occurrences } from './checks'
import { key, type Component, type QName, type SchemaContext } from './xsd-components'
import { elementWildcard, schemaWildcard } from './xsd-wildcards'
import type { Schema, Translator } from './xsd-translation'

/** The XML Schema children of a model group, but its annotation. */
function parts (node: DomElement): DomElement[] {
  return childElements(node).filter((c) => c.namespaceURI === XSD_NS && c.localName !== 'annotation')
}

/**
 * A model group or element particle; `optional` and `repeated` come from the
 * groups around it. Returns what it reaches, relative to its being taken; an
 * optional one states its own rules (when any of it appears, what it
 * requires appears too).
 */
export function particle (
  t: Translator, node: DomElement, context: SchemaContext, content: Content, optional: boolean, repeated: boolean,
  where: string
): Reach {
  const what = `xs:${node.localName as string} ${attr(node, 'ref') ?? attr(node, 'name') ?? ''}`.trimEnd()
  return t.state.bounds.deeper(what, where, () => particleIn(t, node, context, content, optional, repeated, where))
}

function particleIn (
  t: Translator, node: DomElement, context: SchemaContext, content: Content, optional: boolean, repeated: boolean,
  where: string
): Reach {
  const { components, state } = t
  const { min, max } = occurrences(node, where)
  if (max === '0') return NOTHING
  const isOptional = optional || min === '0'
  const isRepeated = repeated || max === 'unbounded' || Number(max) > 1
  const most = max === 'unbounded' ? Infinity : Number(max)
  // A group taken a bounded number of times, or twice at least, says how many of its elements appear together.
  const takes = node.localName !== 'element' && !repeated && most > 1 && (most < Infinity || Number(min) > 1)
  const before = takes ? new Map(content.met) : undefined
  let reach: Reach
  switch (node.localName) {
    case 'element': {
      if (schemaWildcard(components, node, context, content)) return NOTHING
      const { name, declaration } = declarationOf(t, node, context, where)
      const group = attr(node, 'ref') === undefined
        ? undefined
        : components.groups.substitutes(key(...name), {
          node: (k) => components.get('element', k)?.node,
          appears: (k) => components.appears(k, where)
        })
      if (group === undefined) {
        const property = elementParticle(t, name, declaration, Number(min), max, content, optional, repeated, where)
        return elementReach(property, min, max, repeated)
      }
      // A reference to a substitution group's head (§3.3.6): the choice of the elements that may stand there, each
      // once.
      if (group.length === 0 && min !== '0') {
        const what = `the abstract element ${key(...name)}, for which no element may stand`
        throw new SOAP_ERR_CONTRACT_UNSUPPORTED(what, where)
      }
      const members = `the substitution group of ${key(...name)}`
      reach = choice(group.map((member) => () => {
        const { node: m, context: c } = components.get('element', member) as Component
        const memberName: QName = [c.targetNamespace, attr(m, 'name') as string]
        const property = elementParticle(t, memberName, { node: m, context: c }, 1, '1', content, true, isRepeated,
          where)
        return { props: [property], required: [property], some: [], emptiable: false }
      }), content.properties, content.rules, isRepeated, (pairs) => state.bounds.spend(members, where, pairs))
      break
    }
    case 'any':
      elementWildcard(node, context, content, isOptional, Number(min))
      return NOTHING
    case 'group': {
      const group = components.find('group', components.qnameOf(node, 'ref', context), where)
      const inner = `${where} > group ${attr(node, 'ref') as string}`
      const what = `the group ${attr(node, 'ref') as string}`
      reach = state.nesting.within(group.node, what, inner,
        () => sequence(t, parts(group.node), group.context, content, isOptional, isRepeated, inner))
      break
    }
    case 'choice':
      reach = choice(parts(node).map((branch) => () => t.particle(branch, context, content, true, isRepeated, where)),
        content.properties, content.rules, isRepeated, (pairs) => state.bounds.spend('xs:choice', where, pairs))
      break
    default:
      reach = sequence(t, parts(node), context, content, isOptional, isRepeated, where)
  }
  // A group taken more than once: its alternatives counted over its takes.
  if (most > 1) reach = { ...reach, flat: repeatedFlat(reach.flat, Number(min), most) }
  if (before !== undefined) {
    const rule = groupRule(reach, content.metSince(before), false)
    if (rule !== undefined) {
      state.bounds.spend('a repeated group', where, rule.branches.length * rule.props.length)
      content.rules.push(rule)
    }
  }
  if (min !== '0') return reach
  // An optional group: taken when any of it appears, and then whole. (A repeated one is arrays: only its own
  // occurrences say more.)
  if (!isRepeated) addImplies(content.rules, reach.props, reach.required, reach.some)
  return { props: reach.props, required: [], some: [], emptiable: true, flat: optionalFlat(reach) }
}

/** A sequence or all: its particles' reach together. */
function sequence (
  t: Translator, particles: readonly DomElement[], context: SchemaContext, content: Content, optional: boolean,
  repeated: boolean, where: string
): Reach {
  return together(particles.map((part) => t.particle(part, context, content, optional, repeated, where)))
}

/** An element particle's name and declaration: the global one it refers to, or its own. */
function declarationOf (
  t: Translator, node: DomElement, context: SchemaContext, where: string
): { name: QName, declaration: Component } {
  const ref = attr(node, 'ref')
  if (ref === undefined) {
    const form = attr(node, 'form')
    const qualified = form === undefined ? context.elementQualified : form === 'qualified'
    return { name: [qualified ? context.targetNamespace : '', named(node, where)], declaration: { node, context } }
  }
  const name = t.components.qname(node, ref, context)
  return { name, declaration: t.components.find('element', name, where) }
}

/**
 * An element of `min` to `max` occurrences: its property (an array when the element repeats, or is met twice),
 * whose name it returns.
 */
function elementParticle (
  t: Translator, name: QName, declaration: Component, min: number, max: string, content: Content, optional: boolean,
  repeated: boolean, where: string
): string {
  t.components.checkHeads(declaration.node, declaration.context, where)
  const { property, known } = content.property(key(...name), name[1])
  const inner = `${where} > element ${name[1]}`
  const { schema } = t.state.nesting.apart(() => t.elementType(declaration.node, declaration.context, inner))
  const xmlName: Schema = property === name[1] ? { namespace: name[0] } : { name: name[1], namespace: name[0] }
  if (known) {
    // The same element named twice (in a sequence, or in two branches of a choice): an array of its values.
    const earlier = content.properties.get(property) as Schema
    content.properties.set(property, namedAgain(earlier))
    const at = content.required.indexOf(property)
    if (at !== -1) content.required.splice(at, 1)
    return property
  }
  if (!repeated && max === '1') {
    content.properties.set(property, { ...schema, xml: { ...(schema.xml as object | undefined), ...xmlName } })
    if (!optional && min > 0) content.required.push(property)
    return property
  }
  // A repeated element: an array of its values, as many as its own occurrences allow when no group repeats it.
  const array: Schema = { type: 'array', items: withoutXml(schema), xml: xmlName }
  if (!optional && min > 0) array.minItems = min
  if (!repeated && max !== 'unbounded') array.maxItems = Number(max)
  content.properties.set(property, array)
  return property
}
