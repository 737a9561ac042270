/**
 * Contract first, part 2: the XML Schemas of a WSDL read into the JSON
 * Schemas the codec follows (docs/contract-first.md, "The mapping"). Only
 * what an operation reaches is translated, once per named type; a construct
 * the codec cannot carry is SOAP_ERR_CONTRACT_UNSUPPORTED, and a name no
 * schema declares SOAP_ERR_CONTRACT_INVALID, each naming it and the place
 * that reaches it. The schemas' components are kept in
 * lib/contract/xsd-components.ts; each construct is translated in a file of
 * its own (xsd-elements.ts, xsd-named-types.ts, xsd-complex.ts,
 * xsd-particles.ts, xsd-attributes.ts, xsd-wildcards.ts, simple-types.ts),
 * which ask one another through the Translator this model is
 * (lib/contract/xsd-translation.ts).
 */
import type { Element as DomElement } from '@xmldom/xmldom'
import { SOAP_ERR_CONTRACT_UNSUPPORTED } from '../errors'
import { attr } from './dom'
import { simpleTypeOf, type Simple, type SimpleTypes } from './simple-types'
import type { Content } from './content'
import type { Reach } from './presence-rules'
import { withDefs } from './defs'
import { key, SchemaComponents, type QName, type SchemaContext } from './xsd-components'
import { TranslationState, type Schema, type Translator, type Typed } from './xsd-translation'
import { elementType } from './xsd-elements'
import { plainType, typeByName } from './xsd-named-types'
import { complexContent, complexType } from './xsd-complex'
import { particle } from './xsd-particles'
import { attribute } from './xsd-attributes'

export type { QName, SchemaContext } from './xsd-components'

/** The global components of every schema a contract loads, and their translation. */
export class SchemaModel implements Translator {
  readonly components = new SchemaComponents()
  readonly state = new TranslationState()
  readonly namespaces = this.components.namespaces

  /** Adds the global declarations of one `xs:schema` element. */
  add (schema: DomElement, context: SchemaContext): void {
    this.components.add(schema, context)
  }

  /** A QName written in a schema or WSDL attribute, resolved against the namespaces in scope there. */
  qname (node: DomElement, value: string, context?: SchemaContext): QName {
    return this.components.qname(node, value, context)
  }

  /** The QName an attribute gives, which the element must have. */
  qnameOf (node: DomElement, attribute: string, context?: SchemaContext): QName {
    return this.components.qnameOf(node, attribute, context)
  }

  /** `schema` with the `$defs` of every recursive type it reaches (lib/contract/defs.ts). */
  withDefs (schema: Schema): Schema {
    return withDefs(schema, this.state.named.defs)
  }

  /** A global element, as a top-level one: its schema (with `xml.name` and `xml.namespace`). */
  topElement (name: QName, where: string): Typed {
    const { node, context } = this.components.find('element', name, where)
    // A part's element is what the message carries (WS-I Basic Profile R2712): its group's members do not stand for
    // it there.
    if (attr(node, 'abstract') === 'true') {
      const what = `the abstract element ${key(...name)} as a message part ` +
        '(a part\'s element is the one the message carries)'
      throw new SOAP_ERR_CONTRACT_UNSUPPORTED(what, where)
    }
    this.components.checkHeads(node, context, where)
    const { schema, simple } = this.elementType(node, context, `${where} > element ${key(...name)}`, true)
    return { schema: { ...schema, xml: { ...(schema.xml as object), name: name[1], namespace: name[0] } }, simple }
  }

  /** A named type as the content of an element named elsewhere (rpc/literal parts). */
  namedType (name: QName, where: string): Schema {
    return this.plainType(name, where).schema
  }

  // ------------------------------------------------ the translators ---

  elementType (node: DomElement, context: SchemaContext, where: string, top = false): Typed {
    return elementType(this, node, context, where, top)
  }

  typeByName (name: QName, where: string): Typed {
    return typeByName(this, name, where)
  }

  plainType (name: QName, where: string, alternative = false): Typed {
    return plainType(this, name, where, alternative)
  }

  complexType (node: DomElement, context: SchemaContext, where: string): Schema {
    return complexType(this, node, context, where)
  }

  complexContent (node: DomElement, context: SchemaContext, content: Content, where: string): void {
    complexContent(this, node, context, content, where)
  }

  particle (
    node: DomElement, context: SchemaContext, content: Content, optional: boolean, repeated: boolean, where: string
  ): Reach {
    return particle(this, node, context, content, optional, repeated, where)
  }

  attribute (node: DomElement, context: SchemaContext, content: Content, where: string): void {
    attribute(this, node, context, content, where)
  }

  simpleType (node: DomElement, context: SchemaContext, where: string): Simple {
    return simpleTypeOf(this.simpleTypes, node, context, where)
  }

  /** How a simple type names others: resolved here, read in lib/contract/simple-types.ts. */
  private readonly simpleTypes: SimpleTypes<SchemaContext> = {
    qname: (node, value, context) => this.components.qname(node, value, context),
    declaration: (name, where) =>
      this.components.find('simpleType', name, this.state.bounds.spend(`the type ${key(...name)}`, where)),
    depth: () => this.state.bounds.depth
  }
}
