/**
 * Description, part 1: the XML Schema of a service's messages, generated from
 * the same shapes the codec reads and writes (docs/wsdl.md, "The mapping"),
 * so that the schema a client is given describes exactly the XML the codec
 * writes and accepts.
 *
 * Each namespace gets one `xs:schema`. An element or attribute in another
 * namespace than its parent's cannot be declared in place, so it is declared
 * once, globally, in its own namespace's schema, and referenced (`ref`).
 * Two different declarations of one global name cannot both be written:
 * that is the one construct the codec maps and XSD cannot express.
 */
import { SOAP_ERR_WSDL_CONFLICT } from '../errors'
import { replaceInvalidXmlChars } from '../xml/chars'
import type { Alternatives, Field, ObjectShape, ScalarShape, ScalarType, Shape, XsiTypeName } from '../codec/shapes'
import { XMIME_NS, XSD_NS } from '../namespaces'
import { statedChoices, type StatedChoice } from './stated-choices'
import { Prefixes, node, render, type XmlNode } from './xml-nodes'

type Schema = Readonly<Record<string, unknown>>

// ---------------------------------------------------------- simple types ---

const SAFE = Number.MAX_SAFE_INTEGER
const MAX_DOUBLE = '1.7976931348623157E308'
/** ajv-formats' `date` is a full-date without a time zone; its `date-time` requires one. */
const DATE_PATTERN = '[0-9]{4}-[0-9]{2}-[0-9]{2}'
const DATE_TIME_PATTERN = '.+(Z|z|[+\\-][0-9]{2}:[0-9]{2})'

function numberOf (schema: Schema, keyword: string): number | undefined {
  const value = schema[keyword]
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}

/** The enum (or const) values that can be written in XML, as text. */
function enumeration (schema: Schema): string[] | undefined {
  const values = schema.enum ?? (Object.hasOwn(schema, 'const') ? [schema.const] : undefined)
  if (!Array.isArray(values)) return undefined
  return values.filter((v) => v !== null).map((v) => replaceInvalidXmlChars(String(v)))
}

const BOUNDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']

function facet (name: string, value: string | number): XmlNode {
  return node(`xs:${name}`, { value: String(value) })
}

/**
 * The built-in type of a scalar, where XSD needs a type's name (a list's items, simple content's base): the
 * facets stay Ajv's.
 */
const BUILT_IN: Readonly<Record<ScalarType, string>> = {
  string: 'xs:string', integer: 'xs:long', number: 'xs:double', boolean: 'xs:boolean'
}

/** An element's or attribute's simple type: a built-in type's QName, or an anonymous restriction. */
function simpleType (schema: Schema, type: ScalarType): string | XmlNode {
  let base: string
  const facets: XmlNode[] = []
  const values = enumeration(schema)
  if (type === 'boolean') {
    // xs:boolean takes no enumeration facet: an enum of booleans is Ajv's alone to check.
    return 'xs:boolean'
  } else if (type === 'integer') {
    base = 'xs:long'
    // Unbounded (docs/wsdl.md "The mapping"): the built-in type every importer maps; the safe range is the codec's.
    if (values === undefined && !BOUNDS.some((k) => numberOf(schema, k) !== undefined)) return base
    const minimum = Math.max(
      -SAFE,
      Math.ceil(numberOf(schema, 'minimum') ?? -SAFE),
      Math.floor(numberOf(schema, 'exclusiveMinimum') ?? -SAFE - 1) + 1
    )
    const maximum = Math.min(
      SAFE,
      Math.floor(numberOf(schema, 'maximum') ?? SAFE),
      Math.ceil(numberOf(schema, 'exclusiveMaximum') ?? SAFE + 1) - 1
    )
    facets.push(facet('minInclusive', minimum), facet('maxInclusive', maximum))
  } else if (type === 'number') {
    base = 'xs:double'
    // Unbounded: the built-in type; INF, -INF and NaN are the codec's to refuse.
    if (values === undefined && !BOUNDS.some((k) => numberOf(schema, k) !== undefined)) return base
    const exclusiveMinimum = numberOf(schema, 'exclusiveMinimum')
    const exclusiveMaximum = numberOf(schema, 'exclusiveMaximum')
    // The bounds also keep out INF, -INF and NaN, which the codec refuses.
    facets.push(exclusiveMinimum === undefined
      ? facet('minInclusive', numberOf(schema, 'minimum') ?? `-${MAX_DOUBLE}`)
      : facet('minExclusive', exclusiveMinimum))
    facets.push(exclusiveMaximum === undefined
      ? facet('maxInclusive', numberOf(schema, 'maximum') ?? MAX_DOUBLE)
      : facet('maxExclusive', exclusiveMaximum))
  } else if (schema.format === 'date' || schema.format === 'date-time') {
    base = schema.format === 'date' ? 'xs:date' : 'xs:dateTime'
    facets.push(facet('pattern', schema.format === 'date' ? DATE_PATTERN : DATE_TIME_PATTERN))
    return node('xs:simpleType', {}, [node('xs:restriction', { base }, facets)])
  } else {
    base = stringBase(schema)
    // A binary type's lengths count its octets (`xml.minOctets`, `xml.maxOctets`); its characters have no facet.
    const binary = base === 'xs:base64Binary' || base === 'xs:hexBinary'
    const xml = (schema.xml ?? {}) as Schema
    const minLength = binary ? numberOf(xml, 'minOctets') : numberOf(schema, 'minLength')
    const maxLength = binary ? numberOf(xml, 'maxOctets') : numberOf(schema, 'maxLength')
    if (minLength !== undefined && minLength > 0) facets.push(facet('minLength', minLength))
    if (maxLength !== undefined) facets.push(facet('maxLength', maxLength))
  }
  if (values !== undefined) facets.unshift(...values.map((v) => facet('enumeration', v)))
  if (facets.length === 0) return base
  return node('xs:simpleType', {}, [node('xs:restriction', { base }, facets)])
}

/**
 * The built-in type a string is: xs:base64Binary or xs:hexBinary for its
 * `contentEncoding`, else as its `xml.whiteSpace` normalises it (XML Schema
 * Part 2 §4.3.6): xs:normalizedString (replace), xs:token (collapse), xs:string.
 */
function stringBase (schema: Schema): string {
  if (schema.contentEncoding === 'base64') return 'xs:base64Binary'
  if (schema.contentEncoding === 'base16') return 'xs:hexBinary'
  const whiteSpace = (schema.xml as { whiteSpace?: string } | undefined)?.whiteSpace
  return whiteSpace === 'collapse' ? 'xs:token' : whiteSpace === 'replace' ? 'xs:normalizedString' : 'xs:string'
}

function annotation (schema: Schema): XmlNode[] {
  const text = typeof schema.description === 'string'
    ? schema.description
    : typeof schema.title === 'string' ? schema.title : undefined
  return text === undefined
    ? []
    : [node('xs:annotation', {}, [node('xs:documentation', {}, replaceInvalidXmlChars(text))])]
}

// ---------------------------------------------------------------- schemas ---

/** The context of a top-level declaration: no schema, so never an element's namespace (which is never empty). */
const TOP = ''

interface Declaration {
  readonly node: XmlNode
  readonly text: string
  readonly where: string
}

interface SchemaDocument {
  readonly namespace: string
  readonly imports: Set<string>
  /** Named complex types: the `$defs` of the schemas, declared where first used. */
  readonly types: Map<string, Declaration>
  readonly elements: Map<string, Declaration>
  readonly attributes: Map<string, Declaration>
}

function withoutAnnotations (declaration: XmlNode): XmlNode {
  if (typeof declaration.children === 'string') return declaration
  const children = declaration.children.filter((c) => c.name !== 'xs:annotation').map(withoutAnnotations)
  return { ...declaration, children }
}

function occurs (min: string | undefined, max: string | undefined): Record<string, string | undefined> {
  return { minOccurs: min === '1' ? undefined : min, maxOccurs: max === '1' ? undefined : max }
}

/**
 * The `namespace` of an xs:any: the namespaces it admits when it lists them
 * (`##local` for none), else `##other` (which XSD 1.0 says as "not the
 * target namespace, nor none": what a list of exceptions can be said as), or
 * `##any`; `##other` too beside named elements, so that the content model
 * stays deterministic (UPA).
 */
function wildcardNamespace (any: Field, named: boolean): string {
  const wildcard = any.wildcard
  if (wildcard !== undefined && wildcard.allow) {
    return [...wildcard.namespaces].map((ns) => ns === '' ? '##local' : ns).join(' ')
  }
  return wildcard !== undefined || named ? '##other' : '##any'
}

/** The `$defs` (or `definitions`) of a schema. */
function defsOf (schema: Schema): Readonly<Record<string, Schema>> {
  const defs = schema.$defs ?? schema.definitions
  return typeof defs === 'object' && defs !== null ? defs as Record<string, Schema> : {}
}

/** The name a `$ref` gives (`#/$defs/Name`), or undefined. */
function refName (schema: Schema): string | undefined {
  const ref = schema.$ref
  if (typeof ref !== 'string') return undefined
  return ref.slice(ref.lastIndexOf('/') + 1).replace(/~1/g, '/').replace(/~0/g, '~')
}

/** The schemas of one service: its global elements by namespace, each declared once. */
export class SchemaSet {
  private readonly documents = new Map<string, SchemaDocument>()

  constructor (readonly service: string, readonly targetNamespace: string, readonly prefixes: Prefixes) {
    this.document(targetNamespace)
  }

  private document (namespace: string): SchemaDocument {
    let doc = this.documents.get(namespace)
    if (doc === undefined) {
      this.prefixes.of(namespace)
      doc = { namespace, imports: new Set(), types: new Map(), elements: new Map(), attributes: new Map() }
      this.documents.set(namespace, doc)
    }
    return doc
  }

  /** The `$defs` of the schema whose elements are being declared. */
  private defs: Readonly<Record<string, Schema>> = {}
  /**
   * Named types being declared, by `{namespace}name`: a type met again inside itself is referenced, not declared
   * again.
   */
  private readonly declaring = new Set<string>()
  base64 = false // whether an element of the messages is a base64 value, which an MTOM reply may send as a part

  /**
   * Declares a global element, attribute or complex type; the same declaration twice is one, two different ones
   * cannot be written.
   */
  private global (
    kind: 'element' | 'attribute' | 'complexType', namespace: string, name: string, declaration: XmlNode, where: string
  ): void {
    const doc = this.document(namespace)
    const declarations = kind === 'element' ? doc.elements : kind === 'attribute' ? doc.attributes : doc.types
    // Documentation is no part of the declaration: the first one's is kept.
    const text = render(withoutAnnotations(declaration))
    const known = declarations.get(name)
    if (known === undefined) {
      declarations.set(name, { node: declaration, text, where })
    } else if (known.text !== text) {
      throw new SOAP_ERR_WSDL_CONFLICT(
        this.service,
        `the ${kind} {${namespace}}${name} is declared two different ways, at ${known.where} and at ${where}`
      )
    }
  }

  /** A top-level element of a message (an operation's input or output, a fault's detail, a header block). */
  topElement (name: string, namespace: string, shape: Shape, schema: Schema, where: string): string {
    if (namespace === '') {
      throw new SOAP_ERR_WSDL_CONFLICT(
        this.service, `the element ${name} at ${where} is in no namespace: a top-level element needs one`
      )
    }
    this.defs = defsOf(schema)
    this.global('element', namespace, name, this.elementBody(name, namespace, shape, schema, undefined, where), where)
    return this.prefixes.qname(namespace, name)
  }

  /**
   * A header block: a property of the `headers` schema (`root`), declared
   * globally as its element (repeated or wrapped as any property is), for a
   * message part.
   */
  topField (field: Field, schema: Schema, root: Schema, where: string): string {
    this.defs = defsOf(root)
    this.field(TOP, field, schema, true, where)
    return this.prefixes.qname(field.namespace, field.name)
  }

  /**
   * A named schema (a `$ref` to `$defs`) as a global complex type, in the
   * namespace of the element that uses it (or the target namespace, for an
   * unqualified one): its QName, for the element's `type`.
   */
  private namedType (namespace: string, name: string, shape: ObjectShape, schema: Schema, where: string): string {
    const ns = namespace === '' ? this.targetNamespace : namespace
    const local = name.replace(/[^-.\w\u00B7\u00C0-\uFFFD]/gu, '_').replace(/^[^A-Za-z_\u00C0-\uFFFD]/u, '_$&')
    const id = `{${ns}}${local}`
    if (!this.declaring.has(id)) {
      this.declaring.add(id)
      try {
        const type = this.complexType(ns, shape, schema, `${where} ($defs/${name})`)
        this.global('complexType', ns, local, { ...type, attributes: [['name', local], ...type.attributes] }, where)
      } finally {
        this.declaring.delete(id)
      }
    }
    return this.prefixes.qname(ns, local)
  }

  /**
   * An element named in the schema of `context`: declared in place when in that namespace, else globally and
   * referenced.
   */
  private element (
    context: string, name: string, namespace: string, min: string | undefined, max: string | undefined,
    body: (occurrence: Record<string, string | undefined> | undefined) => XmlNode, where: string
  ): XmlNode {
    // An element in no namespace is a local one, unqualified; a schema with a target namespace has no global one.
    if (namespace === '') {
      if (context === TOP) {
        throw new SOAP_ERR_WSDL_CONFLICT(
          this.service, `the header block ${name} at ${where} is in no namespace: a top-level element needs one`
        )
      }
      return body({ form: 'unqualified', ...occurs(min, max) })
    }
    if (namespace === context) return body(occurs(min, max))
    this.global('element', namespace, name, body(undefined), where)
    if (context !== TOP) this.document(context).imports.add(namespace)
    return node('xs:element', { ref: this.prefixes.qname(namespace, name), ...occurs(min, max) })
  }

  private elementBody (
    name: string, namespace: string, shape: Shape, schema: Schema,
    occurrence: Record<string, string | undefined> | undefined, where: string, alternatives?: Alternatives
  ): XmlNode {
    const children = annotation(schema)
    let type: string | undefined
    const ref = refName(schema)
    const content = ref === undefined ? schema : this.defs[ref]
    if (alternatives !== undefined) {
      type = this.derivedTypes(alternatives, content, where)
      const nillable = alternatives.nullable ? 'true' : undefined
      return node('xs:element', { name, ...occurrence, nillable, type }, children)
    }
    if (shape.kind === 'scalar') {
      const simple = simpleType(content, shape.type)
      if (typeof simple === 'string') type = simple; else children.push(simple)
      this.base64 ||= shape.binary === 'base64'
    } else if (ref !== undefined) {
      type = this.namedType(namespace, ref, shape, content, where)
    } else {
      children.push(this.complexType(namespace, shape, schema, where))
    }
    // XML Media Types §2.1: the media types of a binary element's content (docs/wsdl.md "MTOM").
    const media = shape.kind === 'scalar' && shape.binary !== undefined ? content.contentMediaType as string : undefined
    const xmime = media === undefined ? {} : { 'xmlns:xmime': XMIME_NS, 'xmime:expectedContentTypes': media }
    const nillable = shape.nullable ? 'true' : undefined
    return node('xs:element', { name, ...occurrence, nillable, type, ...xmime }, children)
  }

  /**
   * The types of an element that may carry `xsi:type`, each a global complex
   * type in its own namespace: the declared one as any object, every other
   * an extension (XML Schema 1.0 Part 1 §3.4.2) of the alternative whose
   * properties it begins with, the most of them. Returns the declared type's QName.
   */
  private derivedTypes (alternatives: Alternatives, schema: Schema, where: string): string {
    const branches = (schema.oneOf as Schema[]).filter((b) => !(b.type === 'null' && Object.keys(b).length === 1))
    const shapes = [...alternatives.byTag.values()]
    shapes.forEach((shape, i) => {
      const ref = refName(branches[i])
      const content = ref === undefined ? branches[i] : this.defs[ref]
      const at = `${where}/oneOf/${i}`
      const base = shape === alternatives.declared ? undefined : this.baseOf(shape, shapes, at)
      this.derivedType(shape, base, content, at)
    })
    const declared = alternatives.declared.xsiType as XsiTypeName
    return this.prefixes.qname(declared.namespace, declared.name)
  }

  /**
   * The alternative a type extends: the one whose elements begin its own and whose attributes it has, the most
   * of them.
   */
  private baseOf (shape: ObjectShape, shapes: readonly ObjectShape[], where: string): ObjectShape {
    // Scalars are compared by type (each property has its own shape); objects are the same named schema.
    const sameShape = (a: Shape, b: Shape): boolean => a === b ||
      (a.kind === 'scalar' && b.kind === 'scalar' && a.type === b.type && a.nullable === b.nullable)
    const same = (a: Field, b: Field): boolean => a.property === b.property && a.name === b.name &&
      a.namespace === b.namespace && sameShape(a.shape, b.shape) &&
      a.array === b.array && a.list === b.list && a.wrapped === b.wrapped
    const size = (s: ObjectShape): number => s.elements.length + s.attributes.length
    let found: ObjectShape | undefined
    for (const other of shapes) {
      if (other === shape || size(other) >= size(shape)) continue
      if (!other.elements.every((field, i) => shape.elements[i] !== undefined && same(field, shape.elements[i]))) {
        continue
      }
      if (!other.attributes.every((field) => shape.attributes.some((own) => same(field, own)))) continue
      if (found === undefined || size(other) > size(found)) found = other
    }
    const type = shape.xsiType as XsiTypeName
    if (found === undefined) {
      throw new SOAP_ERR_WSDL_CONFLICT(
        this.service,
        `the type ${type.name} at ${where} extends none of the element's other types: ` +
        'a type derived by extension begins with its base\'s elements, and has its attributes'
      )
    }
    return found
  }

  /** One type of an element that may carry `xsi:type`, declared globally: its base's content is not repeated. */
  private derivedType (shape: ObjectShape, base: ObjectShape | undefined, content: Schema, where: string): void {
    const type = shape.xsiType as XsiTypeName
    const id = `{${type.namespace}}${type.name}`
    if (this.declaring.has(id)) return
    if (shape.text !== undefined || shape.any !== undefined) {
      throw new SOAP_ERR_WSDL_CONFLICT(
        this.service,
        `the type ${type.name} at ${where} has text or raw elements ("xml.text", "xml.any"): ` +
        'the types of an element that may carry xsi:type have element and attribute content only'
      )
    }
    this.declaring.add(id)
    try {
      const properties = (content.properties ?? {}) as Record<string, Schema>
      const required = new Set(Array.isArray(content.required) ? content.required as string[] : [])
      const sequence = this.particles(type.namespace, shape, content, where, base?.elements.length ?? 0)
      const attributes = shape.attributes
        .filter((field) => base?.attributes.some((inherited) => inherited.property === field.property) !== true)
        .map((field) => this.attribute(
          type.namespace, field, properties[field.property], required.has(field.property),
          `${where}/properties/${field.property}`
        ))
      if (shape.anyAttribute && base?.anyAttribute !== true) {
        attributes.push(node('xs:anyAttribute', { processContents: 'lax' }))
      }
      const particles = [node('xs:sequence', {}, sequence), ...attributes]
      const body = base === undefined
        ? particles
        : [node('xs:complexContent', {}, [node('xs:extension', {
            base: this.prefixes.qname((base.xsiType as XsiTypeName).namespace, (base.xsiType as XsiTypeName).name)
          }, particles)])]
      const abstract = type.abstract ? 'true' : undefined
      const declaration = node('xs:complexType', { name: type.name, abstract }, body)
      this.global('complexType', type.namespace, type.name, declaration, where)
    } finally {
      this.declaring.delete(id)
    }
  }

  private complexType (context: string, shape: ObjectShape, schema: Schema, where: string): XmlNode {
    const properties = (schema.properties ?? {}) as Record<string, Schema>
    const required = new Set(Array.isArray(schema.required) ? schema.required as string[] : [])
    const sequence = this.particles(context, shape, schema, where)
    // xsi:nil carries no attribute: a nullable object's attributes are optional in XSD, whatever `required` says
    // of the object.
    const attributes = shape.attributes.map((field) => this.attribute(
      context, field, properties[field.property], required.has(field.property) && !shape.nullable,
      `${where}/properties/${field.property}`
    ))
    // Attributes the schema does not name are passed over by the codec, as lax wildcards are.
    if (shape.anyAttribute) attributes.push(node('xs:anyAttribute', { processContents: 'lax' }))
    if (shape.text !== undefined && !shape.mixed) {
      // Simple content: the text's built-in type (its facets stay Ajv's to check).
      const type = (shape.text.shape as ScalarShape).type
      const base = type === 'string' ? stringBase(properties[shape.text.property]) : BUILT_IN[type]
      return node('xs:complexType', {}, [node('xs:simpleContent', {}, [node('xs:extension', { base }, attributes)])])
    }
    // Elements the schema does not name: of other namespaces only, so that the content model stays deterministic (UPA).
    if (shape.any !== undefined) {
      const namespace = wildcardNamespace(shape.any, shape.elements.length > 0)
      sequence.push(node('xs:any', { namespace, processContents: 'lax', minOccurs: '0', maxOccurs: 'unbounded' }))
    }
    return node('xs:complexType', { mixed: shape.mixed ? 'true' : undefined }, [
      node('xs:sequence', {}, sequence), ...attributes
    ])
  }

  /**
   * The particles of an object's elements from `from` on, in property order:
   * each element's, and an `xs:choice` where it states a presence rule of
   * the object (lib/wsdl/stated-choices.ts).
   */
  private particles (context: string, shape: ObjectShape, schema: Schema, where: string, from = 0): XmlNode[] {
    const properties = (schema.properties ?? {}) as Record<string, Schema>
    const required = new Set(Array.isArray(schema.required) ? schema.required as string[] : [])
    const particle = (field: Field, present: boolean): XmlNode => this.field(
      context, field, properties[field.property], required.has(field.property),
      `${where}/properties/${field.property}`, present
    )
    const choices = statedChoices(shape, schema)
    const out: XmlNode[] = []
    for (let i = from; i < shape.elements.length; i++) {
      const choice = choices.find((c) => c.start === i)
      if (choice === undefined) {
        out.push(particle(shape.elements[i], false))
        continue
      }
      out.push(...this.choice(choice, particle))
      i += choice.branches.length - 1
    }
    return out
  }

  /**
   * A presence rule as an `xs:choice`: exactly one of its elements (`oneOf`),
   * or one at least, in property order (`anyOf`: a sequence for each element
   * it may begin with, the later ones optional). An element in several
   * branches must be of one named type (XML Schema 1.0 Part 1 §3.8.6,
   * Element Declarations Consistent): else the rule is not stated.
   */
  private choice (choice: StatedChoice, particle: (field: Field, present: boolean) => XmlNode): XmlNode[] {
    if (choice.kind === 'one') return [node('xs:choice', {}, choice.branches.map((b) => particle(b.field, b.present)))]
    const sequences = choice.branches.map((b, i) => node('xs:sequence', {}, [
      particle(b.field, true), ...choice.branches.slice(i + 1).map((later) => particle(later.field, false))
    ]))
    const named = (element: XmlNode): boolean =>
      element.attributes.some(([key, value]) => (key === 'ref' || key === 'type') && value !== undefined)
    if (sequences.slice(1).every((s) => (s.children as XmlNode[]).every(named))) {
      return [node('xs:choice', {}, sequences)]
    }
    return choice.branches.map((b) => particle(b.field, false))
  }

  /** An xs:list of the items' built-in type. */
  private list (field: Field): XmlNode {
    return node('xs:simpleType', {}, [node('xs:list', { itemType: BUILT_IN[(field.shape as ScalarShape).type] })])
  }

  /** An element property's particle; `present` when a choice's branch has it (at least one item, for an array). */
  private field (
    context: string, field: Field, schema: Schema, required: boolean, where: string, present = false
  ): XmlNode {
    required ||= present
    const list = (min: string, max: string, annotated: Schema): XmlNode => this.element(
      context, field.name, field.namespace, min, max,
      (o) => node('xs:element', { name: field.name, ...o, nillable: field.shape.nullable ? 'true' : undefined }, [
        ...annotation(annotated), this.list(field)
      ]),
      where
    )
    if (field.list && !field.array) return list(required ? '1' : '0', '1', schema)
    if (!field.array) {
      return this.element(
        context, field.name, field.namespace, required ? '1' : '0', '1',
        (o) => this.elementBody(field.name, field.namespace, field.shape, schema, o, where, field.alternatives),
        where
      )
    }
    // An absent unwrapped array reads as [], so only minItems (or a choice's branch) makes its element required.
    const items = schema.items as Schema
    const min = String(numberOf(schema, 'minItems') ?? 0)
    const max = String(numberOf(schema, 'maxItems') ?? 'unbounded')
    const least = present && min === '0' ? '1' : min
    if (field.list) return list(least, max, items)
    if (!field.wrapped) {
      return this.element(
        context, field.name, field.namespace, least, max,
        (o) => this.elementBody(
          field.name, field.namespace, field.shape, items, o, `${where}/items`, field.alternatives
        ),
        where
      )
    }
    return this.element(context, field.name, field.namespace, required ? '1' : '0', '1', (o) => {
      const item = this.element(
        field.namespace, field.itemName, field.itemNamespace, min, max,
        (io) => this.elementBody(
          field.itemName, field.itemNamespace, field.shape, items, io, `${where}/items`, field.alternatives
        ),
        `${where}/items`
      )
      return node('xs:element', { name: field.name, ...o }, [
        ...annotation(schema), node('xs:complexType', {}, [node('xs:sequence', {}, [item])])
      ])
    }, where)
  }

  private attribute (context: string, field: Field, schema: Schema, required: boolean, where: string): XmlNode {
    const use = required ? 'required' : undefined
    const body = (extra: Record<string, string | undefined>): XmlNode => {
      const simple = field.list ? this.list(field) : simpleType(schema, (field.shape as { type: ScalarType }).type)
      const children = annotation(schema)
      if (typeof simple !== 'string') children.push(simple)
      const type = typeof simple === 'string' ? simple : undefined
      return node('xs:attribute', { name: field.name, ...extra, type }, children)
    }
    // Attributes are unqualified unless they name a namespace (attributeFormDefault="unqualified").
    if (field.namespace === '') return body({ use })
    if (field.namespace === context) return body({ form: 'qualified', use })
    this.global('attribute', field.namespace, field.name, body({}), where)
    this.document(context).imports.add(field.namespace)
    return node('xs:attribute', { ref: this.prefixes.qname(field.namespace, field.name), use })
  }

  /**
   * One `xs:schema` per namespace, the target namespace's first. `location`
   * gives an import its `schemaLocation` (schemas served apart), or none
   * (schemas side by side in one `wsdl:types`).
   */
  schemas (
    location?: (namespace: string) => string
  ): Array<{ readonly namespace: string, readonly name: string, readonly node: XmlNode }> {
    const declarations = this.prefixes.declarations()
    return [...this.documents.values()].map((doc) => {
      const imports = [...doc.imports].map((namespace) =>
        node('xs:import', { namespace, schemaLocation: location?.(namespace) }))

      const globals = [...doc.types.values(), ...doc.elements.values(), ...doc.attributes.values()].map((d) => d.node)
      return {
        namespace: doc.namespace,
        name: this.prefixes.of(doc.namespace),
        node: node('xs:schema', {
          'xmlns:xs': XSD_NS,
          ...declarations,
          targetNamespace: doc.namespace,
          elementFormDefault: 'qualified',
          attributeFormDefault: 'unqualified'
        }, [...imports, ...globals])
      }
    })
  }
}
