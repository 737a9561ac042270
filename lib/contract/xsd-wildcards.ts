/**
 * Contract first, part 2: wildcards. An xs:any adds the namespaces it
 * admits to its content's `$any`, and the elements it requires when it is
 * always there (and whether it is strict: lib/contract/wildcard-examples.ts);
 * a .NET DataSet's reference to xs:schema is a wildcard of the XML Schema
 * namespace; an xs:anyAttribute that takes unqualified attributes lets them
 * pass.
 */
import type { Element as DomElement } from '@xmldom/xmldom'
import { XSD_NS } from '../namespaces'
import { attr } from './dom'
import type { Content } from './content'
import { key, type SchemaComponents, type SchemaContext } from './xsd-components'

/**
 * An xs:any of `min` occurrences; `optional` when a group around it is. Required (XML Schema 1.0 Part 1 §3.9.1):
 * its minOccurs elements are, when no group around it is optional.
 */
export function elementWildcard (
  node: DomElement, context: SchemaContext, content: Content, optional: boolean, min: number
): void {
  const strict = (attr(node, 'processContents') ?? 'strict') === 'strict'
  content.addWildcard(attr(node, 'namespace'), context.targetNamespace, optional ? 0 : min, strict)
}

/**
 * Whether an element particle is a .NET DataSet's ref to xs:schema, then read as a wildcard: the schema it
 * carries, as raw elements (and what follows, in its own xs:any).
 */
export function schemaWildcard (
  components: SchemaComponents, node: DomElement, context: SchemaContext, content: Content
): boolean {
  if (attr(node, 'ref') === undefined || key(...components.qnameOf(node, 'ref', context)) !== key(XSD_NS, 'schema')) {
    return false
  }
  content.addWildcard(XSD_NS, context.targetNamespace)
  return true
}

/**
 * An xs:anyAttribute. The codec passes over attributes of other namespaces anyway: the wildcard matters when it
 * takes unqualified ones.
 */
export function attributeWildcard (node: DomElement, content: Content): void {
  const namespaces = (attr(node, 'namespace') ?? '##any').split(/\s+/)
  if (namespaces.includes('##any') || namespaces.includes('##local')) content.anyAttribute = true
}
