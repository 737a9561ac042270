/**
 * Contract first, part 2: the XML Schemas of a WSDL read into the JSON
 * Schemas the codec follows (docs/contract-first.md, "The mapping"). Only
 * what an operation reaches is translated, once per named type; a construct
 * the codec cannot carry is SOAP_ERR_CONTRACT_UNSUPPORTED, and a name no
 * schema declares SOAP_ERR_CONTRACT_INVALID, each naming it and the place
 * that reaches it.
 */
import type { Element as DomElement } from '@xmldom/xmldom'
import { SOAP_ERR_CONTRACT_INVALID, SOAP_ERR_CONTRACT_UNSUPPORTED } from '../errors'
import { SOAP11_ENV, SOAP_ENCODING_NAMESPACES, XML_NS, XSD_NS, qnameKey } from '../namespaces'
import { attr, childElements } from './dom'
import { builtin, lexical, restrict, simpleTypeOf, type Simple, type SimpleTypes } from './simple-types'
import { addImplies, choice, NOTHING, together, type Reach } from './choices'
import { anyContent, Content, holderXml, objectSchema, simpleResult, withoutXml } from './content'
import { alternative, blocked, derivationOf, Derivations } from './derivation'
import { SubstitutionGroups } from './substitution'
import { isLarge, MadeOnce, NamedSchemas, withDefs } from './defs'
import { named, Nesting, occurrences, required, resolveQName } from './checks'
import { Bounds } from './bounds'

type Schema = Record<string, unknown>

/** What a schema document says of the names it declares. */
export interface SchemaContext {
  readonly targetNamespace: string
  readonly elementQualified: boolean
  readonly attributeQualified: boolean
  /** A schema with no target namespace included into one that has one: its unprefixed references mean the includer's namespace. */
  readonly chameleon: boolean
  /** The file it came from, for messages. */
  readonly file: string
}

interface Component {
  readonly node: DomElement
  readonly context: SchemaContext
}

export type QName = readonly [namespace: string, localName: string]

function key (namespace: string, localName: string): string {
  return qnameKey(namespace, localName)
}

function xs (node: DomElement, localName: string): DomElement[] {
  return childElements(node).filter((c) => c.namespaceURI === XSD_NS && c.localName === localName)
}

const KINDS = ['element', 'complexType', 'simpleType', 'group', 'attributeGroup', 'attribute'] as const
type Kind = typeof KINDS[number]

/** The global components of every schema a contract loads, and their translation. */
export class SchemaModel {
  private readonly components = Object.fromEntries(KINDS.map((kind) => [kind, new Map()])) as Record<Kind, Map<string, Component>>

  /** Which complex types derive from which: an element of a type others derive from takes them all (xsi:type). */
  private readonly derivations = new Derivations()
  /** Which elements may stand for which (XML Schema 1.0 Part 1 §3.3.6). */
  private readonly groups = new SubstitutionGroups()
  private readonly nesting = new Nesting()
  /** How deep and how much the translation reads. */
  private readonly bounds = new Bounds()
  /** Named types being translated, to find a recursive one. */
  private readonly stack: string[] = []
  /** The type whose content is being gathered, then its bases: a base met again is a type derived from itself. */
  private deriving: string[] = []
  /** Anonymous types being translated, to find one that contains itself through an element reference. */
  private readonly anonymous = new Set<DomElement>()
  /** The named schemas (`$defs`): types that contain themselves, large ones, and the alternatives of derived types. */
  private readonly named = new NamedSchemas()
  /** Anonymous types translated, by schema context and node. */
  private readonly anonymousTypes = new MadeOnce(this.named)

  /** A reference to a recursive type being translated. */
  private reference (id: string, local: string): { schema: Schema, simple: boolean } {
    return { schema: { $ref: `#/$defs/${this.named.name(id, local)}` }, simple: false }
  }

  /** `schema` with the `$defs` of every recursive type it reaches (lib/contract/defs.ts). */
  withDefs (schema: Schema): Schema {
    return withDefs(schema, this.named.defs)
  }

  private readonly translated = new Map<string, Schema>()
  /** Alternatives waiting for a type being translated, by `{namespace}localName`. */
  private readonly translating = new Map<string, Array<(schema: Schema) => void>>()
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
      if (derivation !== undefined) this.derivations.add([context.targetNamespace, name], this.qname(derivation.step, derivation.base, context), derivation.method)
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

  private find (kind: Kind, name: QName, where: string): Component {
    const found = this.components[kind].get(key(...name))
    if (found === undefined) {
      if (SOAP_ENCODING_NAMESPACES.has(name[0])) throw new SOAP_ERR_CONTRACT_UNSUPPORTED(`the SOAP encoding ${kind} ${key(...name)} (encoded types have no literal form)`, where)
      throw new SOAP_ERR_CONTRACT_INVALID(where, `the ${kind} ${key(...name)} is declared by no schema of the contract`)
    }
    return found
  }

  /** A global element, as a top-level one: its schema (with `xml.name` and `xml.namespace`). */
  topElement (name: QName, where: string): { schema: Schema, simple: boolean } {
    const { node, context } = this.find('element', name, where)
    // A part's element is what the message carries (WS-I Basic Profile R2712): its group's members do not stand for it there.
    if (attr(node, 'abstract') === 'true') throw new SOAP_ERR_CONTRACT_UNSUPPORTED(`the abstract element ${key(...name)} as a message part (a part's element is the one the message carries)`, where)
    this.checkHeads(node, context, where)
    const { schema, simple } = this.elementType(node, context, `${where} > element ${key(...name)}`, true)
    return { schema: { ...schema, xml: { ...(schema.xml as object), name: name[1], namespace: name[0] } }, simple }
  }

  /** A named type as the content of an element named elsewhere (rpc/literal parts). */
  namedType (name: QName, where: string): Schema {
    return this.plainType(name, where).schema
  }

  /** The heads a global element's `substitutionGroup` names (one in XML Schema 1.0, a list in 1.1). */
  private heads (node: DomElement, context: SchemaContext): QName[] {
    return (attr(node, 'substitutionGroup') ?? '').split(/\s+/).filter((h) => h !== '').map((h) => this.qname(node, h, context))
  }

  /** The heads an element declaration names must be declared. */
  private checkHeads (node: DomElement, context: SchemaContext, where: string): void {
    for (const head of this.heads(node, context)) this.find('element', head, where)
  }

  /** The element declaration that states an element's type: itself, or for a member of a substitution group that states none, its head's (XML Schema 1.0 Part 1 §3.3.2). */
  private typed (node: DomElement, context: SchemaContext, where: string): Component {
    let typed: Component = { node, context }
    for (const met = new Set<DomElement>(); attr(typed.node, 'type') === undefined && xs(typed.node, 'complexType').length + xs(typed.node, 'simpleType').length === 0;) {
      const head = this.heads(typed.node, typed.context)[0]
      if (head === undefined) break
      met.add(typed.node)
      typed = this.find('element', head, where)
      if (met.has(typed.node)) throw new SOAP_ERR_CONTRACT_INVALID(where, `the substitution group of element ${key(...head)} comes back to it`)
    }
    return typed
  }

  /** Whether a global element may appear as itself where its head is referred to: not abstract, nor of an abstract type that no type derives from (`xsi:type` names one that does). */
  private appears (name: string, where: string): boolean {
    const { node, context } = this.components.element.get(name) as Component
    if (attr(node, 'abstract') === 'true') return false
    const typed = this.typed(node, context, where)
    const typeName = attr(typed.node, 'type')
    const typeQName = typeName === undefined ? undefined : this.qname(typed.node, typeName, typed.context)
    const type = typeQName === undefined ? undefined : this.components.complexType.get(key(...typeQName))
    return typeQName === undefined || type === undefined || attr(type.node, 'abstract') !== 'true' || this.derivations.of(typeQName, blocked(attr(type.node, 'block'))).length > 0
  }

  /**
   * The value schema of an element declaration: its type, named or
   * anonymous, and nillable; a `oneOf` of the types derived from it too,
   * unless it is an operation's own element (`top`).
   */
  private elementType (node: DomElement, context: SchemaContext, where: string, top = false): { schema: Schema, simple: boolean } {
    const typed = this.typed(node, context, where)
    const typeName = attr(typed.node, 'type')
    let result: { schema: Schema, simple: boolean }
    const types = typeName === undefined || top ? undefined : this.alternatives(node, this.qname(typed.node, typeName, typed.context), where)
    if (types !== undefined) {
      // nil is one more alternative: the set's nillable copy.
      return { schema: { $ref: `#/$defs/${types}${attr(node, 'nillable') === 'true' ? '.nil' : ''}` }, simple: false }
    }
    if (typeName !== undefined) {
      const type = this.qname(typed.node, typeName, typed.context)
      result = top ? this.plainType(type, where) : this.typeByName(type, where)
    } else {
      const complex = xs(typed.node, 'complexType')[0]
      const simple = xs(typed.node, 'simpleType')[0]
      if (complex !== undefined) result = { schema: this.anonymousType(complex, typed, where, top), simple: false }
      else if (simple !== undefined) result = simpleResult(this.simpleType(simple, typed.context, where))
      else result = { schema: anyContent(), simple: false }
    }
    const fixed = attr(node, 'fixed')
    let schema = result.schema
    if (fixed !== undefined && result.simple && !Array.isArray(schema.items)) schema = { ...schema, const: lexical(schema, fixed, where) }
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
  private anonymousType (complex: DomElement, typed: Component, where: string, top: boolean): Schema {
    const local = attr(typed.node, 'name') as string
    const id = `element ${key(typed.context.targetNamespace, local)}`
    if (this.anonymous.has(complex)) return this.reference(id, local).schema
    const made = this.anonymousTypes.made(typed.context, complex)
    if (made !== undefined) {
      this.bounds.again(made, `the element ${local}`, where)
      return this.anonymousTypes.use(typed.context, complex, local, top)
    }
    this.anonymous.add(complex)
    const chain = this.deriving
    this.deriving = []
    let schema: Schema
    try {
      schema = this.bounds.measure(() => this.complexType(complex, typed.context, where))
    } finally {
      this.anonymous.delete(complex)
      this.deriving = chain
    }
    const def = this.named.known(id)
    if (def !== undefined) this.named.defs.set(def, schema)
    this.anonymousTypes.add(typed.context, complex, schema, def)
    return schema
  }

  /**
   * The alternatives of an element of a complex type others derive from: the
   * `$defs` name of a `oneOf` of a `$ref` to each type's alternative (each
   * made once), the declared type first; undefined when none derives from it
   * (or `block` keeps them out).
   */
  private alternatives (node: DomElement, type: QName, where: string): string | undefined {
    if (!this.components.complexType.has(key(...type))) return undefined
    const declared = this.find('complexType', type, where)
    const block = new Set([...blocked(attr(node, 'block')), ...blocked(attr(declared.node, 'block'))])
    const derived = this.derivations.of(type, block)
    if (derived.length === 0) return undefined
    const id = `xsi:types ${key(...type)} ${[...block].sort().join(' ')}`
    const known = this.named.known(id)
    if (known !== undefined) return known
    const def = this.named.name(id, `${type[1]}.types`)
    this.named.defs.set(def, { oneOf: [type, ...derived].map((name) => ({ $ref: `#/$defs/${this.alternativeDef(name, where)}` })) })
    return def
  }

  /** The `$defs` name of a type's alternative, translated once (a type that contains its own element finds the name taken). */
  private alternativeDef (name: QName, where: string): string {
    const id = `xsi:type ${key(...name)}`
    const known = this.named.known(id)
    if (known !== undefined) return known
    const def = this.named.name(id, name[1])
    const { node } = this.find('complexType', name, where)
    const abstract = attr(node, 'abstract') === 'true'
    const fill = (schema: Schema): void => { this.named.defs.set(def, alternative(schema, this.derivations.tag(name), name, abstract)) }
    const { schema } = this.plainType(name, where, true)
    // A type still being translated (one of its own elements is of a type it derives from) is filled in once it is.
    if (typeof schema.$ref === 'string') this.translating.set(key(...name), [...(this.translating.get(key(...name)) ?? []), fill]); else fill(schema)
    return def
  }

  /**
   * A named type where an element uses it: its schema, or a `$ref` to it in
   * `$defs` when it is large (HL7 V3's types, nested and used everywhere,
   * would otherwise be written out at every use).
   */
  private typeByName (name: QName, where: string): { schema: Schema, simple: boolean } {
    const result = this.plainType(name, where)
    if (result.simple || typeof result.schema.$ref === 'string' || !isLarge(result.schema)) return result
    const id = key(...name)
    const def = this.named.name(id, name[1])
    this.named.defs.set(def, result.schema)
    return { schema: { $ref: `#/$defs/${def}` }, simple: false }
  }

  /** A named type's own schema; an abstract one only as an alternative (`xsi:type`). */
  private plainType (name: QName, where: string, alternative = false): { schema: Schema, simple: boolean } {
    if (name[0] === XSD_NS) {
      if (name[1] === 'anyType') return { schema: anyContent(), simple: false }
      return simpleResult(builtin(name[1], where))
    }
    const id = key(...name)
    const known = this.translated.get(id)
    if (known !== undefined) return { schema: this.bounds.again(known, `the type ${id}`, where), simple: false }
    if (this.components.simpleType.has(key(...name))) {
      const { node, context } = this.find('simpleType', name, where)
      return simpleResult(this.simpleType(node, context, `${where} > type ${key(...name)}`))
    }
    const { node, context } = this.find('complexType', name, where)
    // A type met again inside itself: a reference to it, declared in `$defs` once it is translated.
    if (this.stack.includes(id)) return this.reference(id, name[1])
    if (attr(node, 'abstract') === 'true' && !alternative) throw new SOAP_ERR_CONTRACT_UNSUPPORTED(`the abstract type ${key(...name)}, from which no type derives`, where)
    this.stack.push(id)
    const chain = this.deriving
    this.deriving = [id]
    try {
      const schema = this.bounds.measure(() => this.complexType(node, context, `${where} > type ${key(...name)}`))
      this.translated.set(id, schema)
      const def = this.named.known(id)
      if (def !== undefined) this.named.defs.set(def, schema)
      for (const fill of this.translating.get(id) ?? []) fill(schema)
      return { schema, simple: false }
    } finally {
      this.stack.pop()
      this.deriving = chain
    }
  }

  // ------------------------------------------------------------ complex ---

  /** An object schema from a complex type. Every element names its namespace, so the schema is the same wherever it is used. */
  private complexType (node: DomElement, context: SchemaContext, where: string): Schema {
    const content = new Content()
    const complex = xs(node, 'complexContent')[0]
    content.mixed = attr(node, 'mixed') === 'true' || (complex !== undefined && attr(complex, 'mixed') === 'true')
    this.complexContent(node, context, content, where)
    return objectSchema(content)
  }

  private complexContent (node: DomElement, context: SchemaContext, content: Content, where: string): void {
    for (const child of childElements(node)) {
      if (child.namespaceURI !== XSD_NS) continue
      switch (child.localName) {
        case 'sequence': case 'all': case 'choice': case 'group': {
          // The type's content is always there: what it requires of choices holds as it is.
          const reach = this.particle(child, context, content, false, false, where)
          if (reach.some.length > 0) content.rules.push({ kind: 'some', sets: reach.some })
          break
        }
        case 'attribute': case 'attributeGroup': case 'anyAttribute':
          this.attribute(child, context, content, where)
          break
        case 'complexContent':
          this.derived(child, context, content, false, where)
          break
        case 'simpleContent':
          this.derived(child, context, content, true, where)
          break
        // xs:annotation and xs:assert are no content.
      }
    }
  }

  /** complexContent or simpleContent: an extension adds to its base, a restriction restates it. */
  private derived (node: DomElement, context: SchemaContext, content: Content, simple: boolean, where: string): void {
    const derivation = childElements(node).find((c) => c.namespaceURI === XSD_NS && (c.localName === 'extension' || c.localName === 'restriction'))
    if (derivation === undefined) throw new SOAP_ERR_CONTRACT_INVALID(where, `an xs:${node.localName as string} with no xs:extension or xs:restriction`)
    const base = this.qnameOf(derivation, 'base', context)
    const extension = derivation.localName === 'extension'
    if (SOAP_ENCODING_NAMESPACES.has(base[0])) throw new SOAP_ERR_CONTRACT_UNSUPPORTED(`the SOAP encoding type ${key(...base)} as a base (encoded arrays and structs have no literal form)`, where)
    if (simple) {
      if (base[0] === XSD_NS || this.components.simpleType.has(key(...base))) {
        // The text of simple content is one scalar: a list type's text is read as the string it is.
        const text = this.typeByName(base, where).schema
        content.text = { schema: text.type === 'array' ? { type: 'string' } : text, list: false }
      } else {
        this.baseContent(base, content, where)
      }
      if (!extension && content.text !== undefined) content.text = { schema: restrict(content.text.schema, derivation, where), list: false }
      for (const child of childElements(derivation)) {
        if (child.namespaceURI === XSD_NS && ['attribute', 'attributeGroup', 'anyAttribute'].includes(child.localName as string)) this.attribute(child, context, content, where)
      }
      return
    }
    if (extension && !(base[0] === XSD_NS && base[1] === 'anyType')) this.baseContent(base, content, where)
    // A restriction restates the particles it keeps; the base's attributes are inherited unless prohibited.
    if (!extension && !(base[0] === XSD_NS && base[1] === 'anyType')) {
      const inherited = new Content()
      this.baseContent(base, inherited, where)
      for (const [property, name] of inherited.names) {
        if (!name.startsWith('@')) continue
        const own = content.property(name, property)
        content.properties.set(own.property, inherited.properties.get(property) as Schema)
        if (inherited.required.includes(property)) content.required.push(own.property)
      }
      content.anyAttribute ||= inherited.anyAttribute
    }
    this.complexContent(derivation, context, content, where)
  }

  /** A base type's content, gathered into `content`; a type derived from itself is refused. */
  private baseContent (base: QName, content: Content, where: string): void {
    const { node, context } = this.find('complexType', base, where)
    if (this.deriving.includes(key(...base))) throw new SOAP_ERR_CONTRACT_INVALID(where, `the type ${key(...base)} is derived from itself`)
    this.deriving.push(key(...base))
    try {
      const inner = `${where} > base ${key(...base)}`
      this.bounds.deeper(`the base ${key(...base)}`, where, () => this.complexContent(node, context, content, inner))
    } finally {
      this.deriving.pop()
    }
  }

  /**
   * A model group or element particle; `optional` and `repeated` come from the
   * groups around it. Returns what it reaches, relative to its being taken; an
   * optional one states its own rules (when any of it appears, what it
   * requires appears too).
   */
  private particle (node: DomElement, context: SchemaContext, content: Content, optional: boolean, repeated: boolean, where: string): Reach {
    const what = `xs:${node.localName as string} ${attr(node, 'ref') ?? attr(node, 'name') ?? ''}`.trimEnd()
    return this.bounds.deeper(what, where, () => this.particleIn(node, context, content, optional, repeated, where))
  }

  private particleIn (
    node: DomElement, context: SchemaContext, content: Content, optional: boolean, repeated: boolean, where: string
  ): Reach {
    const { min, max } = occurrences(node, where)
    if (max === '0') return NOTHING
    const isOptional = optional || min === '0'
    const isRepeated = repeated || max === 'unbounded' || Number(max) > 1
    let reach: Reach
    switch (node.localName) {
      case 'element': {
        // A .NET DataSet's ref to xs:schema: the schema it carries, as raw elements (and what follows, in its own xs:any).
        if (attr(node, 'ref') !== undefined && key(...this.qnameOf(node, 'ref', context)) === key(XSD_NS, 'schema')) { content.addWildcard(XSD_NS, context.targetNamespace); return NOTHING }
        const { name, declaration } = this.declaration(node, context, where)
        const group = attr(node, 'ref') === undefined ? undefined : this.groups.substitutes(key(...name), { node: (k) => this.components.element.get(k)?.node, appears: (k) => this.appears(k, where) })
        if (group === undefined) {
          const property = this.elementParticle(name, declaration, Number(min), max, content, optional, repeated, where)
          return { props: [property], required: min === '0' ? [] : [property], some: [], emptiable: min === '0' }
        }
        // A reference to a substitution group's head (§3.3.6): the choice of the elements that may stand there, each once.
        if (group.length === 0 && min !== '0') throw new SOAP_ERR_CONTRACT_UNSUPPORTED(`the abstract element ${key(...name)}, for which no element may stand`, where)
        const members = `the substitution group of ${key(...name)}`
        reach = choice(group.map((member) => () => {
          const { node: m, context: c } = this.components.element.get(member) as Component
          const property = this.elementParticle([c.targetNamespace, attr(m, 'name') as string], { node: m, context: c }, 1, '1', content, true, isRepeated, where)
          return { props: [property], required: [property], some: [], emptiable: false }
        }), content.properties, content.rules, isRepeated, (pairs) => this.bounds.spend(members, where, pairs))
        break
      }
      case 'any':
        // Required (XML Schema 1.0 Part 1 §3.9.1): its minOccurs elements are, when no group around it is optional.
        content.addWildcard(attr(node, 'namespace'), context.targetNamespace, isOptional ? 0 : Number(min))
        return NOTHING
      case 'group': {
        const group = this.find('group', this.qnameOf(node, 'ref', context), where)
        const parts = childElements(group.node).filter((c) => c.namespaceURI === XSD_NS && c.localName !== 'annotation')
        const inner = `${where} > group ${attr(node, 'ref') as string}`
        reach = this.nesting.within(group.node, `the group ${attr(node, 'ref') as string}`, inner, () => this.sequence(parts, group.context, content, isOptional, isRepeated, inner))
        break
      }
      case 'choice':
        reach = choice(childElements(node).filter((c) => c.namespaceURI === XSD_NS && c.localName !== 'annotation')
          .map((branch) => () => this.particle(branch, context, content, true, isRepeated, where)),
        content.properties, content.rules, isRepeated, (pairs) => this.bounds.spend('xs:choice', where, pairs))
        break
      default:
        reach = this.sequence(childElements(node).filter((c) => c.namespaceURI === XSD_NS && c.localName !== 'annotation'), context, content, isOptional, isRepeated, where)
    }
    if (min !== '0') return reach
    // An optional group: taken when any of it appears, and then whole. (A repeated one is arrays: only its own occurrences say more.)
    if (!isRepeated) addImplies(content.rules, reach.props, reach.required, reach.some)
    return { props: reach.props, required: [], some: [], emptiable: true }
  }

  /** A sequence or all: its particles' reach together. */
  private sequence (parts: readonly DomElement[], context: SchemaContext, content: Content, optional: boolean, repeated: boolean, where: string): Reach {
    return together(parts.map((part) => this.particle(part, context, content, optional, repeated, where)))
  }

  /** An element particle's name and declaration: the global one it refers to, or its own. */
  private declaration (node: DomElement, context: SchemaContext, where: string): { name: QName, declaration: Component } {
    const ref = attr(node, 'ref')
    if (ref === undefined) {
      const form = attr(node, 'form')
      const qualified = form === undefined ? context.elementQualified : form === 'qualified'
      return { name: [qualified ? context.targetNamespace : '', named(node, where)], declaration: { node, context } }
    }
    const name = this.qname(node, ref, context)
    return { name, declaration: this.find('element', name, where) }
  }

  /** An element of `min` to `max` occurrences: its property (an array when the element repeats, or is met twice), whose name it returns. */
  private elementParticle (name: QName, declaration: Component, min: number, max: string, content: Content, optional: boolean, repeated: boolean, where: string): string {
    this.checkHeads(declaration.node, declaration.context, where)
    const { property, known } = content.property(key(...name), name[1])
    const { schema } = this.nesting.apart(() => this.elementType(declaration.node, declaration.context, `${where} > element ${name[1]}`))
    const named: Schema = property === name[1] ? { namespace: name[0] } : { name: name[1], namespace: name[0] }
    if (known) {
      // The same element named twice (in a sequence, or in two branches of a choice): an array of its values.
      const earlier = content.properties.get(property) as Schema
      if (earlier.type !== 'array' || (earlier.xml as Schema).list === true) content.properties.set(property, { type: 'array', items: withoutXml(earlier), xml: holderXml(earlier) })
      const at = content.required.indexOf(property)
      if (at !== -1) content.required.splice(at, 1)
      return property
    }
    if (!repeated && max === '1') {
      content.properties.set(property, { ...schema, xml: { ...(schema.xml as object | undefined), ...named } })
      if (!optional && min > 0) content.required.push(property)
      return property
    }
    // A repeated element: an array of its values, as many as its own occurrences allow when no group repeats it.
    const array: Schema = { type: 'array', items: withoutXml(schema), xml: named }
    if (!optional && min > 0) array.minItems = min
    if (!repeated && max !== 'unbounded') array.maxItems = Number(max)
    content.properties.set(property, array)
    return property
  }

  private attribute (node: DomElement, context: SchemaContext, content: Content, where: string): void {
    if (node.localName === 'anyAttribute') {
      // The codec passes over attributes of other namespaces anyway: the wildcard matters when it takes unqualified ones.
      const namespaces = (attr(node, 'namespace') ?? '##any').split(/\s+/)
      if (namespaces.includes('##any') || namespaces.includes('##local')) content.anyAttribute = true
      return
    }
    if (node.localName === 'attributeGroup') {
      const group = this.find('attributeGroup', this.qnameOf(node, 'ref', context), where)
      const inner = `${where} > attributeGroup ${attr(node, 'ref') as string}`
      const what = `the attributeGroup ${attr(node, 'ref') as string}`
      this.nesting.within(group.node, what, inner, () => this.bounds.deeper(what, where, () => {
        for (const child of childElements(group.node)) {
          if (child.namespaceURI === XSD_NS && ['attribute', 'attributeGroup', 'anyAttribute'].includes(child.localName as string)) this.attribute(child, group.context, content, inner)
        }
      }))
      return
    }
    this.bounds.spend(`xs:attribute ${attr(node, 'ref') ?? attr(node, 'name') ?? ''}`.trimEnd(), where)
    const use = attr(node, 'use')
    let name: QName
    let declaration: Component
    const ref = attr(node, 'ref')
    if (ref !== undefined) {
      name = this.qname(node, ref, context)
      // xml:lang and its kin are read by no codec: the reader passes over the xml namespace.
      if (name[0] === XML_NS) return
      if (name[0] === SOAP11_ENV) return
      declaration = this.find('attribute', name, where)
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
    const typeName = attr(declaration.node, 'type')
    const inline = xs(declaration.node, 'simpleType')[0]
    const simple = typeName !== undefined
      ? this.typeByName(this.qname(declaration.node, typeName, declaration.context), where)
      : inline !== undefined ? simpleResult(this.simpleType(inline, declaration.context, where)) : { schema: { type: 'string' }, simple: true }
    if (!simple.simple) throw new SOAP_ERR_CONTRACT_INVALID(where, `the attribute ${key(...name)} of a complex type (an attribute's type is simple)`)
    const schema: Schema = { ...simple.schema }
    const fixed = attr(declaration.node, 'fixed') ?? attr(node, 'fixed')
    if (fixed !== undefined && schema.type !== 'array') schema.const = lexical(schema, fixed, where)
    const xml: Schema = { ...(schema.xml as object | undefined), attribute: true }
    if (name[0] !== '') xml.namespace = name[0]
    if (property !== name[1]) xml.name = name[1]
    content.properties.set(property, { ...schema, xml })
    if (use === 'required' && !known) content.required.push(property)
  }

  // ------------------------------------------------------------- simple ---

  private simpleType (node: DomElement, context: SchemaContext, where: string): Simple {
    return simpleTypeOf(this.simpleTypes, node, context, where)
  }

  /** How a simple type names others: resolved here, read in lib/contract/simple-types.ts. */
  private readonly simpleTypes: SimpleTypes<SchemaContext> = {
    qname: (node, value, context) => this.qname(node, value, context),
    declaration: (name, where) => this.find('simpleType', name, this.bounds.spend(`the type ${key(...name)}`, where)),
    depth: () => this.bounds.depth
  }
}

/** A built-in XML Schema simple type. */
