/**
 * Contract first, part 2: the global components of every XML Schema a
 * contract loads (elements, complex and simple types, groups, attribute
 * groups, attributes), by QName, and what they say of one another: which
 * types derive from which, which elements stand for which. The translators
 * (lib/contract/xsd-*.ts) look them up here; a name no schema declares is
 * SOAP_ERR_CONTRACT_INVALID, naming it and the place that reaches it.
 */
import type { Element as DomElement } from '@xmldom/xmldom'
import { SOAP_ERR_CONTRACT_INVALID, SOAP_ERR_CONTRACT_UNSUPPORTED } from '../errors'
import { SOAP_ENCODING_NAMESPACES, XSD_NS, qnameKey } from '../namespaces'
import { attr, childElements } from './dom'
import { blocked, derivationOf, Derivations } from './derivation'
import { SubstitutionGroups } from './substitution'
import { required, resolveQName } from './checks'

/** What a schema document says of the names it declares. */
export interface SchemaContext {
  readonly targetNamespace: string
  readonly elementQualified: boolean
  readonly attributeQualified: boolean
  /**
   * A schema with no target namespace included into one that has one: its unprefixed references mean the
   * includer's namespace.
   */
  readonly chameleon: boolean
  /** The file it came from, for messages. */
  readonly file: string
}

/** A declaration or definition, and the schema document it is written in. */
export interface Component {
  readonly node: DomElement
  readonly context: SchemaContext
}

export type QName = readonly [namespace: string, localName: string]

export function key (namespace: string, localName: string): string {
  return qnameKey(namespace, localName)
}

/** The children of an XML Schema element that are XML Schema's `localName`. */
export function xs (node: DomElement, localName: string): DomElement[] {
  return childElements(node).filter((c) => c.namespaceURI === XSD_NS && c.localName === localName)
}

const KINDS = ['element', 'complexType', 'simpleType', 'group', 'attributeGroup', 'attribute'] as const
export type Kind = typeof KINDS[number]

/** The global components of every schema a contract loads. */
export class SchemaComponents {
  private readonly components = Object.fromEntries(KINDS.map((kind) => [kind, new Map()])) as
    Record<Kind, Map<string, Component>>

  /** Which complex types derive from which: an element of a type others derive from takes them all (xsi:type). */
  readonly derivations = new Derivations()
  /** Which elements may stand for which (XML Schema 1.0 Part 1 §3.3.6). */
  readonly groups = new SubstitutionGroups()
  readonly namespaces = new Set<string>()

  /** Adds the global declarations of one `xs:schema` element. */
  add (schema: DomElement, context: SchemaContext): void {
    this.namespaces.add(context.targetNamespace)
    for (const child of childElements(schema)) {
      if (child.namespaceURI !== XSD_NS) continue
      if (child.localName === 'redefine' || child.localName === 'override') {
        throw new SOAP_ERR_CONTRACT_UNSUPPORTED(`xs:${child.localName}`, context.file)
      }
      if (!(KINDS as readonly string[]).includes(child.localName as string)) continue
      const name = attr(child, 'name') as string
      this.components[child.localName as Kind].set(key(context.targetNamespace, name), { node: child, context })
      const derivation = child.localName === 'complexType' ? derivationOf(child) : undefined
      if (derivation !== undefined) {
        const base = this.qname(derivation.step, derivation.base, context)
        this.derivations.add([context.targetNamespace, name], base, derivation.method)
      }
      for (const head of this.heads(child, context)) this.groups.add(key(...head), key(context.targetNamespace, name))
    }
  }

  /** A QName written in a schema or WSDL attribute, resolved against the namespaces in scope there. */
  qname (node: DomElement, value: string, context?: SchemaContext): QName {
    return resolveQName(node, value, context)
  }

  /** The QName an attribute gives, which the element must have. */
  qnameOf (node: DomElement, attribute: string, context?: SchemaContext): QName {
    return resolveQName(node, required(node, attribute, context?.file ?? 'the WSDL'), context)
  }

  /** Whether a schema declares the component. */
  has (kind: Kind, name: QName): boolean {
    return this.components[kind].has(key(...name))
  }

  /** A component by its `{namespace}localName`, when declared. */
  get (kind: Kind, name: string): Component | undefined {
    return this.components[kind].get(name)
  }

  /** The global element declarations, in the order the schemas were read. */
  elements (): Component[] {
    return [...this.components.element.values()]
  }

  /** A component the schemas must declare. */
  find (kind: Kind, name: QName, where: string): Component {
    const found = this.components[kind].get(key(...name))
    if (found === undefined) {
      if (SOAP_ENCODING_NAMESPACES.has(name[0])) {
        const what = `the SOAP encoding ${kind} ${key(...name)} (encoded types have no literal form)`
        throw new SOAP_ERR_CONTRACT_UNSUPPORTED(what, where)
      }
      throw new SOAP_ERR_CONTRACT_INVALID(where, `the ${kind} ${key(...name)} is declared by no schema of the contract`)
    }
    return found
  }

  /** The heads a global element's `substitutionGroup` names (one in XML Schema 1.0, a list in 1.1). */
  heads (node: DomElement, context: SchemaContext): QName[] {
    return (attr(node, 'substitutionGroup') ?? '').split(/\s+/).filter((h) => h !== '')
      .map((h) => this.qname(node, h, context))
  }

  /** The heads an element declaration names must be declared. */
  checkHeads (node: DomElement, context: SchemaContext, where: string): void {
    for (const head of this.heads(node, context)) this.find('element', head, where)
  }

  /**
   * The element declaration that states an element's type: itself, or for a member of a substitution group that
   * states none, its head's (XML Schema 1.0 Part 1 §3.3.2).
   */
  typed (node: DomElement, context: SchemaContext, where: string): Component {
    let typed: Component = { node, context }
    const untyped = (n: DomElement): boolean =>
      attr(n, 'type') === undefined && xs(n, 'complexType').length + xs(n, 'simpleType').length === 0
    for (const met = new Set<DomElement>(); untyped(typed.node);) {
      const head = this.heads(typed.node, typed.context)[0]
      if (head === undefined) break
      met.add(typed.node)
      typed = this.find('element', head, where)
      if (met.has(typed.node)) {
        throw new SOAP_ERR_CONTRACT_INVALID(where, `the substitution group of element ${key(...head)} comes back to it`)
      }
    }
    return typed
  }

  /**
   * Whether a global element may appear as itself where its head is referred to: not abstract, nor of an abstract
   * type that no type derives from (`xsi:type` names one that does).
   */
  appears (name: string, where: string): boolean {
    const { node, context } = this.components.element.get(name) as Component
    if (attr(node, 'abstract') === 'true') return false
    const typed = this.typed(node, context, where)
    const typeName = attr(typed.node, 'type')
    const typeQName = typeName === undefined ? undefined : this.qname(typed.node, typeName, typed.context)
    const type = typeQName === undefined ? undefined : this.components.complexType.get(key(...typeQName))
    return typeQName === undefined || type === undefined || attr(type.node, 'abstract') !== 'true' ||
      this.derivations.of(typeQName, blocked(attr(type.node, 'block'))).length > 0
  }
}
