/**
 * Registration: a JSON Schema read once into the XML shape the codec follows
 * (docs/services.md, "The mapping"). Every construct outside the supported set
 * is refused here, at `ready()`, with the schema path that holds it, so that
 * nothing is silently dropped at run time.
 */
import { SOAP_ERR_SERVICE_SCHEMA } from '../errors'
import { XML_NS, XMLNS_NS, XSI_NS } from '../namespaces'
import { KnownKeys } from './keys'
import { isXmlText, isNCName, type WhiteSpace } from '../xml/chars'

export type ScalarType = 'string' | 'integer' | 'number' | 'boolean'

export interface ScalarShape {
  readonly kind: 'scalar'
  readonly type: ScalarType
  readonly nullable: boolean
  /** A string's white space, normalised as read (`xml.whiteSpace`); undefined: kept as sent. */
  readonly whiteSpace: 'replace' | 'collapse' | undefined
}

/** A scalar's shape: every one has the same properties, so that reading one is one shape of object to V8. */
function scalar (type: ScalarType, nullable: boolean, whiteSpace?: WhiteSpace): ScalarShape {
  return { kind: 'scalar', type, nullable, whiteSpace: whiteSpace === 'preserve' ? undefined : whiteSpace }
}

export interface ObjectShape {
  readonly kind: 'object'
  readonly nullable: boolean
  /** Child elements, in schema (property) order. */
  readonly elements: readonly Field[]
  readonly attributes: readonly Field[]
  /** Child elements by namespace, then local name (a wrapped array by its wrapper's): no key is built per element read. */
  readonly elementsByName: NamedFields
  /** Attributes by namespace, then local name. */
  readonly attributesByName: NamedFields
  /** The property holding the element's text (`xml.text`): then there are no child elements. */
  readonly text: Field | undefined
  /** The property collecting child elements no other field names, as raw elements (`xml.any`). */
  readonly any: Field | undefined
  /** Whether attributes without a namespace that no field names are passed over (`xml.anyAttribute`) rather than refused. */
  readonly anyAttribute: boolean
  /** Mixed content (`xml.mixed`): the text between child elements is read into `text`, beside the elements. */
  readonly mixed: boolean
  /** The XML Schema type the object is, when its `$type` property names it: an alternative of a derived-type element. */
  readonly xsiType: XsiTypeName | undefined
  /**
   * The `xml.prefix` choices of its properties' schemas (their items',
   * alternatives' and named schemas' own), in property order: what a writer
   * binds (lib/codec/prefixes.ts) without reading the schema again.
   */
  readonly prefixes: readonly AskedPrefix[]
}

/** A namespace's prefix as a schema asks for it, and where. */
export interface AskedPrefix {
  readonly namespace: string
  readonly prefix: string
  readonly where: string
}

/**
 * An object's type (the `$type` property and `xml.typeName`,
 * `xml.typeNamespace`, `xml.abstract`): what `xsi:type` names it by.
 */
export interface XsiTypeName {
  /** The value of `$type`: how a handler tells the types apart. */
  readonly tag: string
  readonly name: string
  readonly namespace: string
  /** An abstract type is never an element's own: one derived from it stands in. */
  readonly abstract: boolean
}

/**
 * An element of a type that others derive from (XML Schema 1.0 Part 1
 * §3.3.4, `xsi:type`): the declared type and the types that may stand in for
 * it, each an object shape whose `$type` names it.
 */
export interface Alternatives {
  /** The element's own type, read when it names no other. */
  readonly declared: ObjectShape
  readonly byTag: ReadonlyMap<string, ObjectShape>
  /** By namespace, then local name. */
  readonly byType: ReadonlyMap<string, ReadonlyMap<string, ObjectShape>>
  /** Whether the element may be `xsi:nil` (`{ type: 'null' }` is one of the alternatives). */
  readonly nullable: boolean
}

/** The discriminator property of an object that is an alternative. */
export const TYPE_PROPERTY = '$type'

/** Fields by namespace URI, then local name. */
export type NamedFields = ReadonlyMap<string, ReadonlyMap<string, Field>>

/** The field named `{namespace}localName`, if any. */
export function fieldNamed (fields: NamedFields, namespace: string, localName: string): Field | undefined {
  return fields.get(namespace)?.get(localName)
}

export type Shape = ScalarShape | ObjectShape

/** One property of an object: an element (possibly repeated or wrapped), or an attribute. */
export interface Field {
  readonly property: string
  readonly name: string
  readonly namespace: string
  readonly attribute: boolean
  readonly array: boolean
  /** For `xml.any`: the namespaces its elements may be in, or may not be in ('' for none); undefined for any. */
  readonly wildcard?: { readonly allow: boolean, readonly namespaces: ReadonlySet<string> }
  /** A wrapped array: one element named after the property, holding one `item` element per entry. */
  readonly wrapped: boolean
  readonly itemName: string
  readonly itemNamespace: string
  /**
   * The element's (or attribute's) value is an array written as its items
   * separated by spaces (`xml.list`, xs:list); `shape` is the items'. With
   * `array`, the element is repeated, each holding one such list.
   */
  readonly list: boolean
  /** For an array, the items' shape. With `alternatives`, the declared type's. */
  readonly shape: Shape
  /** The element's type and those derived from it, when it may carry `xsi:type`. */
  readonly alternatives?: Alternatives
}

/** The `xml` keyword of OpenAPI, as far as the codec reads it. */
export interface XmlKeyword {
  readonly name?: string
  readonly namespace?: string
  readonly prefix?: string
  readonly attribute?: boolean
  readonly wrapped?: boolean
  /** The property is the element's text (simple content beside attributes). */
  readonly text?: boolean
  /** The property (an array of objects) collects the child elements no other property names, as raw elements. */
  readonly any?: boolean
  /** On an object: attributes no property names are passed over. */
  readonly anyAttribute?: boolean
  /** The property (an array of scalars) is one element or attribute holding its items separated by spaces. */
  readonly list?: boolean
  /** On an object: its text (the `xml.text` property, a string) comes with child elements (XML Schema's mixed content). */
  readonly mixed?: boolean
  /** With `xml.any`: the namespaces its elements may be in ('' for none), as xs:any's `namespace` lists them. */
  readonly anyNamespaces?: readonly string[]
  /** With `xml.any`: the namespaces its elements may not be in ('' for none), as xs:any's `##other` says. */
  readonly anyExcept?: readonly string[]
  /** On an object with a `$type`: the name of its XML Schema type (default: the `$type` value). */
  readonly typeName?: string
  /** On an object with a `$type`: its type's namespace (default: that of the element it is the content of). */
  readonly typeNamespace?: string
  /** On an object with a `$type`: the type is abstract, and an element must name a type derived from it. */
  readonly abstract?: boolean
  /** On a string: its white space normalised as read, as XML Schema's whiteSpace facet says (Part 2 §4.3.6). */
  readonly whiteSpace?: WhiteSpace
  /** On a string with `contentEncoding` `base64` or `base16`: the fewest octets it encodes (XML Schema's minLength of binary types). */
  readonly minOctets?: number
  /** On a string with `contentEncoding` `base64` or `base16`: the most octets it encodes (XML Schema's maxLength of binary types). */
  readonly maxOctets?: number
}

/** Keywords that change the XML the codec must read or write, and which it does not support. */
const UNSUPPORTED = ['allOf', 'if', 'then', 'else', 'patternProperties', 'prefixItems', 'dependentSchemas', 'propertyNames']
/** Combinators the codec accepts when they only say which properties are present (an XSD choice): they change no XML. */
const PRESENCE = ['anyOf', 'oneOf', 'not']
/**
 * The keys of the `xml` keyword: `'flag'` for each boolean (its type says
 * which), true for the others, each checked by a rule of its own.
 */
const XML_KEY_KINDS = {
  name: true,
  namespace: true,
  prefix: true,
  attribute: 'flag',
  wrapped: 'flag',
  text: 'flag',
  any: 'flag',
  anyAttribute: 'flag',
  list: 'flag',
  mixed: 'flag',
  anyNamespaces: true,
  anyExcept: true,
  typeName: true,
  typeNamespace: true,
  abstract: 'flag',
  whiteSpace: true,
  minOctets: true,
  maxOctets: true
} as const satisfies { readonly [K in keyof XmlKeyword]-?: NonNullable<XmlKeyword[K]> extends boolean ? 'flag' : true }
const XML_KEYS = new KnownKeys(XML_KEY_KINDS)
const XML_FLAGS = (Object.keys(XML_KEY_KINDS) as Array<keyof XmlKeyword>).filter((k) => XML_KEY_KINDS[k] === 'flag')
const WHITE_SPACE: ReadonlySet<unknown> = new Set(['preserve', 'replace', 'collapse'])
/** The `contentEncoding` values (RFC 4648) whose octets `xml.minOctets` and `xml.maxOctets` count. */
export const BINARY_ENCODINGS: ReadonlySet<unknown> = new Set(['base64', 'base16'])
const SCALARS: ReadonlySet<string> = new Set(['string', 'integer', 'number', 'boolean'])
const RESERVED_NAMESPACES: ReadonlySet<string> = new Set([XML_NS, XMLNS_NS, XSI_NS])

type Schema = Record<string, unknown>

export function fail (where: string, problem: string): never {
  throw new SOAP_ERR_SERVICE_SCHEMA(where, problem)
}

export function isObject (value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The `xml` keyword of a schema, checked. */
export function xmlOf (schema: Schema, where: string): XmlKeyword {
  const xml = schema.xml
  if (xml === undefined) return {}
  if (!isObject(xml)) fail(where, '"xml" must be an object')
  const unknown = XML_KEYS.unknownIn(xml)
  if (unknown !== undefined) fail(where, `"xml.${unknown}" is not supported (one of ${XML_KEYS.list})`)
  if (xml.name !== undefined && (typeof xml.name !== 'string' || !isNCName(xml.name))) fail(where, '"xml.name" must be an XML NCName')
  // '' is no namespace: an unqualified local element (elementFormDefault="unqualified").
  if (xml.namespace !== undefined && (typeof xml.namespace !== 'string' || !isXmlText(xml.namespace))) fail(where, '"xml.namespace" must be a URI, or "" for no namespace')
  // The XML and xmlns namespaces cannot be declared; xsi attributes are the codec's own (nil, type).
  if (RESERVED_NAMESPACES.has(xml.namespace as string)) fail(where, `"xml.namespace" cannot be the reserved namespace ${String(xml.namespace)}`)
  // xsi is the prefix the writer binds for xsi:nil.
  if (xml.prefix !== undefined && (typeof xml.prefix !== 'string' || !isNCName(xml.prefix) || /^xml/i.test(xml.prefix) || xml.prefix === 'xsi')) fail(where, '"xml.prefix" must be an NCName other than "xsi", not starting with "xml"')
  if (xml.prefix !== undefined && xml.namespace === '') fail(where, '"xml.prefix" cannot go with no namespace')
  if (xml.typeName !== undefined && (typeof xml.typeName !== 'string' || !isNCName(xml.typeName))) fail(where, '"xml.typeName" must be an XML NCName')
  if (xml.typeNamespace !== undefined && (typeof xml.typeNamespace !== 'string' || !isXmlText(xml.typeNamespace))) fail(where, '"xml.typeNamespace" must be a URI, or "" for no namespace')
  for (const flag of XML_FLAGS) {
    if (xml[flag] !== undefined && typeof xml[flag] !== 'boolean') fail(where, `"xml.${flag}" must be a boolean`)
  }
  for (const list of ['anyNamespaces', 'anyExcept'] as const) {
    const value = xml[list]
    if (value === undefined) continue
    if (xml.any !== true) fail(where, `"xml.${list}" goes with "xml.any"`)
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && (v === '' || isXmlText(v)))) fail(where, `"xml.${list}" must list namespace URIs ("" for no namespace)`)
  }
  if (xml.anyNamespaces !== undefined && xml.anyExcept !== undefined) fail(where, '"xml.anyNamespaces" and "xml.anyExcept" exclude one another')
  if (xml.whiteSpace !== undefined && (!WHITE_SPACE.has(xml.whiteSpace) || !isString(schema))) fail(where, '"xml.whiteSpace" is one of "preserve", "replace", "collapse", on a schema of type "string"')
  for (const limit of ['minOctets', 'maxOctets'] as const) {
    const value = xml[limit]
    if (value !== undefined && (!Number.isSafeInteger(value) || (value as number) < 0 || !isString(schema) || !BINARY_ENCODINGS.has(schema.contentEncoding))) fail(where, `"xml.${limit}" is a count of octets (an integer, 0 or more), on a string whose "contentEncoding" is "base64" or "base16"`)
  }
  return xml as XmlKeyword
}

/** Whether a schema's type is `string` (perhaps with `null`). */
function isString (schema: Schema): boolean {
  return schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string'))
}

/** The schema's type, with `null` (from a type list or `nullable: true`) taken out. */
function typeOf (schema: Schema, where: string): { type: string, nullable: boolean } {
  let types: unknown[]
  if (Array.isArray(schema.type)) {
    types = schema.type
  } else if (schema.type !== undefined) {
    types = [schema.type]
  } else if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    // An enum without a type: all its values must be of one scalar type.
    types = [...new Set(schema.enum.filter((v) => v !== null).map((v) => Number.isInteger(v) ? 'integer' : typeof v))]
    if (schema.enum.includes(null)) types.push('null')
  } else {
    fail(where, 'a schema needs a "type"')
  }
  const nullable = types.includes('null') || schema.nullable === true
  const rest = types.filter((t) => t !== 'null')
  if (rest.length !== 1 || typeof rest[0] !== 'string') fail(where, `type ${JSON.stringify(schema.type ?? rest)} is not one of string, integer, number, boolean, object, array (optionally with "null")`)
  return { type: rest[0], nullable }
}

function checkKeywords (schema: Schema, where: string): void {
  for (const keyword of UNSUPPORTED) {
    if (schema[keyword] !== undefined) fail(where, `"${keyword}" is not supported by the XML codec`)
  }
  for (const keyword of PRESENCE) {
    if (schema[keyword] !== undefined && !isPresenceOnly(schema[keyword])) {
      fail(where, `"${keyword}" is supported only to say which properties are present (its schemas may hold ` +
        '"required", "properties" of true or of { type: \'array\', minItems, maxItems }, "anyOf", "oneOf" ' +
        'and "not", nothing else)')
    }
  }
}

/** A schema (or a list of them) that only says which properties are present. */
function isPresenceOnly (value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0 && value.every(isPresenceOnly)
  if (!isObject(value)) return false
  return Object.keys(value).every((key) => key === 'required' || (PRESENCE.includes(key) && isPresenceOnly(value[key])) ||
    // `properties` of `true` only name what `required` lists (Ajv's strict mode asks for it); an array is present when it has an item.
    (key === 'properties' && isObject(value.properties) &&
      Object.values(value.properties).every((v) => v === true || isCount(v))))
}

/** `{ type: 'array', minItems, maxItems }`: how many times a repeated element is there (present: minItems 1). */
function isCount (value: unknown): boolean {
  return isObject(value) && value.type === 'array' && Object.entries(value).every(([key, n]) =>
    key === 'type' || ((key === 'minItems' || key === 'maxItems') && Number.isSafeInteger(n) && (n as number) >= 0))
}

/**
 * Reads a schema (not an array) as a shape. `inherited` is the namespace its
 * child elements default to. `$ref`s name the schema's own `$defs` (or
 * `definitions`): a named schema is read once per namespace it is used in,
 * so that a schema that contains itself is a shape that contains itself.
 */
export function shapeOf (schema: unknown, where: string, inherited: string, shared?: NamedShapes): Shape {
  const defs = isObject(schema) ? schema.$defs ?? schema.definitions : undefined
  if (defs !== undefined && !isObject(defs)) fail(where, '"$defs" must map names to schemas')
  let named = defs === undefined ? undefined : shared?.get(defs)
  if (named === undefined) {
    named = new Map()
    if (defs !== undefined) shared?.set(defs, named)
  }
  return new ShapeBuilder(defs as Record<string, unknown> | undefined, named).shape(schema, where, inherited)
}

/**
 * The shapes of named schemas, by the `$defs` object that holds them: the
 * schemas of one service that share a `$defs` object (a contract's, or one a
 * service spreads into each of its schemas) share its shapes.
 */
export type NamedShapes = WeakMap<object, Map<string, Shape>>

const REF = /^#\/(\$defs|definitions)\/([^/]+)$/
const BESIDE_REF: ReadonlySet<string> = new Set(['$ref', 'xml', 'description', 'title', '$comment'])

type Built = 'elements' | 'attributes' | 'elementsByName' | 'attributesByName' | 'prefixes'
type MutableObjectShape = Omit<{ -readonly [K in keyof ObjectShape]: ObjectShape[K] }, Built> & {
  prefixes: AskedPrefix[]
  elements: Field[]
  attributes: Field[]
  elementsByName: Map<string, Map<string, Field>>
  attributesByName: Map<string, Map<string, Field>>
}

function emptyObject (nullable: boolean, xml: XmlKeyword): MutableObjectShape {
  const content = { elements: [], attributes: [], elementsByName: new Map(), attributesByName: new Map(), prefixes: [] }
  const flags = { anyAttribute: xml.anyAttribute === true, mixed: xml.mixed === true }
  return { kind: 'object', nullable, ...content, text: undefined, any: undefined, ...flags, xsiType: undefined }
}

/** Reads the schemas of one top-level element: its named schemas are shared by all their uses. */
class ShapeBuilder {
  /**
   * @param named shapes of named schemas, by name and inherited namespace:
   * made before their fields, so that a cycle finds its start
   */
  constructor (private readonly defs: Record<string, unknown> | undefined, private readonly named: Map<string, Shape>) {}

  /** The schema a `$ref` names, and its name; undefined for a schema that is no reference. */
  target (schema: Schema, where: string): { name: string, schema: Schema } | undefined {
    const ref = schema.$ref
    if (ref === undefined) return undefined
    const match = typeof ref === 'string' ? REF.exec(ref) : null
    if (match === null) fail(where, '"$ref" must name one of the schema\'s own "$defs" ("#/$defs/Name"): nothing else is resolved')
    const name = match[2].replace(/~1/g, '/').replace(/~0/g, '~')
    const defs = this.defs ?? {}
    const target = Object.hasOwn(defs, name) ? defs[name] : undefined
    if (!isObject(target)) fail(where, `"$ref" names ${ref as string}, which the schema's "$defs" do not hold`)
    if (target.$ref !== undefined) fail(`#/$defs/${name}`, 'a named schema cannot be only a "$ref"')
    for (const key of Object.keys(schema)) {
      if (!BESIDE_REF.has(key)) fail(where, `"${key}" cannot go beside "$ref": only "xml" can (the element's name and namespace)`)
    }
    return { name, schema: target }
  }

  shape (schema: unknown, where: string, inherited: string): Shape {
    if (!isObject(schema)) fail(where, 'a schema must be an object')
    const ref = this.target(schema, where)
    if (ref !== undefined) return this.namedShape(ref.name, ref.schema, inherited)
    checkKeywords(schema, where)
    const { type, nullable } = typeOf(schema, where)
    if (SCALARS.has(type)) return scalar(type as ScalarType, nullable, xmlOf(schema, where).whiteSpace)
    if (type === 'array') fail(where, 'an array must be the value of a property (it becomes repeated elements)')
    if (type !== 'object') fail(where, `type "${type}" is not supported`)
    const shape = emptyObject(nullable, xmlOf(schema, where))
    this.fill(shape, schema, where, inherited)
    return shape
  }

  private namedShape (name: string, schema: Schema, inherited: string): Shape {
    const id = `${name}\u0000${inherited}`
    const known = this.named.get(id)
    if (known !== undefined) return known
    const where = `#/$defs/${name}`
    checkKeywords(schema, where)
    const { type, nullable } = typeOf(schema, where)
    if (type !== 'object') {
      const shape = this.shape(schema, where, inherited)
      this.named.set(id, shape)
      return shape
    }
    const shape = emptyObject(nullable, xmlOf(schema, where))
    this.named.set(id, shape)
    this.fill(shape, schema, where, inherited)
    return shape
  }

  /** An object's fields, added to the shape made for it. */
  private fill (shape: MutableObjectShape, schema: Schema, where: string, inherited: string): void {
    const ap = schema.additionalProperties
    if (ap !== undefined && ap !== false) fail(where, '"additionalProperties" must be false or absent (XML has no element for an unnamed property)')
    const properties = schema.properties ?? {}
    if (!isObject(properties)) fail(where, '"properties" must be an object')
    const { elements, attributes, elementsByName, attributesByName } = shape
    let text: Field | undefined
    let any: Field | undefined
    const xml = xmlOf(schema, where)
    if (Object.hasOwn(properties, TYPE_PROPERTY)) shape.xsiType = typeNameOf(properties[TYPE_PROPERTY], xml, schema, where, inherited)
    else if (xml.typeName !== undefined || xml.typeNamespace !== undefined || xml.abstract !== undefined) fail(where, '"xml.typeName", "xml.typeNamespace" and "xml.abstract" go on an object with a "$type" property')
    for (const property of Object.keys(properties)) {
      if (property === TYPE_PROPERTY) continue
      const field = this.field(property, properties[property], `${where}/properties/${property}`, inherited)
      const xml = xmlOf(properties[property] as Schema, where)
      this.ask(properties[property] as Schema, inherited, `${where}/properties/${property}`, shape.prefixes)
      if (xml.text === true) {
        if (text !== undefined) fail(`${where}/properties/${property}`, `"xml.text" is already property ${text.property}: an element has one text`)
        text = field
        continue
      }
      if (xml.any === true) {
        if (any !== undefined) fail(`${where}/properties/${property}`, `"xml.any" is already property ${any.property}`)
        any = field
        continue
      }
      const byName = field.attribute ? attributesByName : elementsByName
      const named = byName.get(field.namespace) ?? new Map<string, Field>()
      if (named.has(field.name)) fail(`${where}/properties/${property}`, `two properties are both the XML ${field.attribute ? 'attribute' : 'element'} {${field.namespace}}${field.name}`)
      named.set(field.name, field)
      byName.set(field.namespace, named);
      (field.attribute ? attributes : elements).push(field)
    }
    if (shape.mixed && (text === undefined || (text.shape as ScalarShape).type !== 'string')) fail(where, '"xml.mixed" needs a property of type string with "xml.text": the text between the child elements')
    if (!shape.mixed && text !== undefined && (elements.length !== 0 || any !== undefined)) fail(where, `property ${text.property} is the element's text ("xml.text"): the element can have no child elements, unless the object says "xml.mixed"`)
    shape.text = text
    shape.any = any
  }

  /**
   * The alternatives of a `oneOf` whose schemas are objects (or `$ref`s to
   * them) each with a `$type`, the declared type first, and perhaps
   * `{ type: 'null' }`: undefined for any other schema.
   */
  alternatives (schema: Schema, where: string, namespace: string): Alternatives | undefined {
    const branches = schema.oneOf
    if (!Array.isArray(branches) || !branches.some((b) => isObject(b) && (b.$ref !== undefined || b.type !== undefined))) return undefined
    for (const key of Object.keys(schema)) {
      if (!BESIDE_REF.has(key) && key !== 'oneOf' && key !== 'nullable') fail(where, `"${key}" cannot go beside a "oneOf" of types: only "xml" (the element's name and namespace) and "nullable" can`)
    }
    let nullable = schema.nullable === true
    const byTag = new Map<string, ObjectShape>()
    const byType = new Map<string, Map<string, ObjectShape>>()
    const shapes: ObjectShape[] = []
    branches.forEach((branch: unknown, i) => {
      const at = `${where}/oneOf/${i}`
      if (isObject(branch) && branch.type === 'null' && Object.keys(branch).length === 1) {
        nullable = true
        return
      }
      const shape = this.shape(branch, at, namespace)
      if (shape.kind !== 'object' || shape.xsiType === undefined) fail(at, 'each schema of a "oneOf" of types is an object whose "$type" property is one "const" string, the type\'s name')
      if (shape.nullable) fail(at, 'a type of a "oneOf" cannot be nullable: add { type: \'null\' } to the "oneOf" instead')
      const { tag, name, namespace: typeNamespace } = shape.xsiType
      if (byTag.has(tag)) fail(at, `two types of the "oneOf" have the "$type" ${tag}`)
      const named = byType.get(typeNamespace) ?? new Map<string, ObjectShape>()
      if (named.has(name)) fail(at, `two types of the "oneOf" are both the XML Schema type {${typeNamespace}}${name}`)
      named.set(name, shape)
      byType.set(typeNamespace, named)
      byTag.set(tag, shape)
      shapes.push(shape)
    })
    if (shapes.length === 0) fail(where, 'a "oneOf" of types needs one type at least')
    return { declared: shapes[0], byTag, byType, nullable }
  }

  /**
   * The `xml.prefix` a property's schema asks for, by the namespace it is
   * given to, and those of its items, its "oneOf" branches and the named
   * schemas they name (their content records its own, on its shape).
   */
  private ask (schema: Schema, inherited: string, where: string, into: AskedPrefix[]): void {
    const xml = xmlOf(schema, where)
    const namespace = xml.namespace ?? inherited
    if (xml.prefix !== undefined) into.push({ namespace, prefix: xml.prefix, where })
    const named = this.target(schema, where)
    if (named !== undefined) this.ask(named.schema, namespace, `#/$defs/${named.name}`, into)
    if (isObject(schema.items)) this.ask(schema.items, namespace, `${where}/items`, into)
    if (Array.isArray(schema.oneOf)) {
      schema.oneOf.forEach((branch: unknown, i) => {
        if (isObject(branch)) this.ask(branch, namespace, `${where}/oneOf/${i}`, into)
      })
    }
  }

  /** The alternatives a schema says, in place or through a `$ref` to a named "oneOf" of types. */
  typesOf (schema: Schema, where: string, namespace: string): Alternatives | undefined {
    const named = schema.$ref === undefined ? undefined : this.target(schema, where)
    return named === undefined ? this.alternatives(schema, where, namespace) : this.alternatives(named.schema, `#/$defs/${named.name}`, namespace)
  }

  field (property: string, schema: unknown, where: string, inherited: string): Field {
    if (!isObject(schema)) fail(where, 'a schema must be an object')
    const alternatives = this.typesOf(schema, where, (isObject(schema.xml) && typeof schema.xml.namespace === 'string') ? schema.xml.namespace : inherited)
    if (alternatives !== undefined) {
      const xml = xmlOf(schema, where)
      const name = xml.name ?? property
      if (property === '__proto__') fail(where, 'a property cannot be named "__proto__": name it otherwise, with "xml": { "name": "__proto__" }')
      if (!isNCName(name)) fail(where, `property "${property}" is not an XML name: give it "xml.name"`)
      if (xml.attribute === true || xml.text === true || xml.any === true || xml.list === true || xml.wrapped === true) fail(where, 'a "oneOf" of types is an element: its "xml" gives its name, namespace and prefix only')
      const namespace = xml.namespace ?? inherited
      return { property, name, namespace, attribute: false, array: false, wrapped: false, itemName: name, itemNamespace: namespace, list: false, shape: alternatives.declared, alternatives }
    }
    const ref = this.target(schema, where)
    if (ref === undefined) return fieldOf(this, property, schema, where, inherited)
    // A named schema in a property: the property's own `xml` names the element, the named schema gives its content.
    const xml = xmlOf(schema, where)
    const name = xml.name ?? property
    if (property === '__proto__') fail(where, 'a property cannot be named "__proto__": name it otherwise, with "xml": { "name": "__proto__" }')
    if (!isNCName(name)) fail(where, `property "${property}" is not an XML name: give it "xml.name"`)
    if (xml.attribute === true || xml.text === true || xml.any === true || xml.list === true || xml.wrapped === true) fail(where, 'a "$ref" property is an element: its "xml" gives its name, namespace and prefix only')
    if (typeOf(ref.schema, `#/$defs/${ref.name}`).type === 'array') fail(where, `"$ref" names ${ref.name}, an array: name an object or scalar schema, and make the property the array`)
    const namespace = xml.namespace ?? inherited
    return { property, name, namespace, attribute: false, array: false, wrapped: false, itemName: name, itemNamespace: namespace, list: false, shape: this.shape(schema, where, namespace) }
  }
}

/** An object's type, from its `$type` property (one `const` string, required) and its `xml`. */
function typeNameOf (property: unknown, xml: XmlKeyword, schema: Schema, where: string, inherited: string): XsiTypeName {
  const at = `${where}/properties/${TYPE_PROPERTY}`
  const tag = isObject(property) ? property.const ?? (Array.isArray(property.enum) && property.enum.length === 1 ? property.enum[0] : undefined) : undefined
  if (typeof tag !== 'string' || tag === '' || Object.keys(property as Schema).some((key) => key !== 'const' && key !== 'enum' && key !== 'type' && key !== 'description')) fail(at, '"$type" names the object\'s type: a schema of one "const" string')
  if (!Array.isArray(schema.required) || !schema.required.includes(TYPE_PROPERTY)) fail(where, '"$type" must be required: it says which type the value is')
  const name = xml.typeName ?? tag
  if (!isNCName(name)) fail(where, `"$type" ${tag} is not an XML name: give the type's name in "xml.typeName"`)
  const namespace = xml.typeNamespace ?? inherited
  if (namespace === '' && xml.typeNamespace === undefined) fail(where, 'the type of an element in no namespace needs "xml.typeNamespace" ("" for none)')
  return { tag, name, namespace, abstract: xml.abstract === true }
}

function fieldOf (builder: ShapeBuilder, property: string, schema: Schema, where: string, inherited: string): Field {
  checkKeywords(schema, where)
  // Ajv passes over a property named "__proto__" (it never validates it), so it
  // cannot be one here either; the XML element may still be called that, through xml.name.
  if (property === '__proto__') fail(where, 'a property cannot be named "__proto__": name it otherwise, with "xml": { "name": "__proto__" }')
  const xml = xmlOf(schema, where)
  const name = xml.name ?? property
  const { type, nullable } = typeOf(schema, where)
  if (xml.text !== true && xml.any !== true && !isNCName(name)) fail(where, `property "${property}" is not an XML name: give it "xml.name"`)
  if (xml.anyAttribute === true && type !== 'object') fail(where, '"xml.anyAttribute" applies to objects only')
  if (xml.mixed === true && type !== 'object') fail(where, '"xml.mixed" applies to objects only')
  if ([xml.attribute, xml.text, xml.any].filter((flag) => flag === true).length > 1) fail(where, '"xml.attribute", "xml.text" and "xml.any" exclude one another')
  if (xml.text === true) {
    if (!SCALARS.has(type) || nullable) fail(where, 'the text ("xml.text") must be a string, integer, number or boolean, and cannot be null')
    if (xml.name !== undefined || xml.namespace !== undefined || xml.prefix !== undefined) fail(where, 'the text ("xml.text") has no name or namespace')
    return { property, name, namespace: '', attribute: false, array: false, wrapped: false, itemName: name, itemNamespace: '', list: false, shape: scalar(type as ScalarType, false, xml.whiteSpace) }
  }
  if (xml.any === true) {
    const items = schema.items
    if (type !== 'array' || nullable || !isObject(items) || items.type !== 'object' || Object.keys(items).some((key) => key !== 'type')) fail(where, '"xml.any" goes on an array of { "type": "object" } (raw elements)')
    if (xml.name !== undefined || xml.namespace !== undefined || xml.prefix !== undefined || xml.wrapped !== undefined || xml.list !== undefined) fail(where, '"xml.any" elements keep their own names')
    const listed = xml.anyNamespaces ?? xml.anyExcept
    const wildcard = listed === undefined ? undefined : { allow: xml.anyNamespaces !== undefined, namespaces: new Set(listed) }
    return { property, name, namespace: '', attribute: false, array: true, wrapped: false, itemName: name, itemNamespace: '', list: false, wildcard, shape: scalar('string', false) }
  }
  if (xml.list === true) {
    const items = schema.items
    if (type !== 'array' || !isObject(items)) fail(where, '"xml.list" goes on an array of strings, integers, numbers or booleans')
    // A list element may be nil (xs:list elements are nillable as any other); an attribute cannot.
    if (nullable && xml.attribute === true) fail(where, 'an attribute must be a string, integer, number or boolean, and cannot be null')
    const item = typeOf(items, `${where}/items`)
    if (!SCALARS.has(item.type) || item.nullable || items.xml !== undefined) fail(`${where}/items`, 'the items of "xml.list" are strings, integers, numbers or booleans, not null, with no "xml"')
    if (xml.wrapped !== undefined) fail(where, '"xml.list" and "xml.wrapped" exclude one another')
    // A list's shape is its items' type; `nullable` is the list element's own.
    const shape = scalar(item.type as ScalarType, nullable)
    const namespace = xml.attribute === true ? xml.namespace ?? '' : xml.namespace ?? inherited
    return { property, name, namespace, attribute: xml.attribute === true, array: false, wrapped: false, itemName: name, itemNamespace: namespace, list: true, shape }
  }
  if (xml.attribute === true) {
    if (!SCALARS.has(type) || nullable) fail(where, 'an attribute must be a string, integer, number or boolean, and cannot be null')
    if (name === 'xmlns' && xml.namespace === undefined) fail(where, 'an attribute cannot be named "xmlns" (it would be a namespace declaration)')
    // Attributes are unqualified unless they name a namespace (attributeFormDefault="unqualified").
    const shape = scalar(type as ScalarType, false, xml.whiteSpace)
    return { property, name, namespace: xml.namespace ?? '', attribute: true, array: false, wrapped: false, itemName: name, itemNamespace: '', list: false, shape }
  }
  const namespace = xml.namespace ?? inherited
  if (type !== 'array') {
    if (xml.wrapped !== undefined) fail(where, '"xml.wrapped" applies to arrays only')
    return { property, name, namespace, attribute: false, array: false, wrapped: false, itemName: name, itemNamespace: namespace, list: false, shape: builder.shape(schema, where, namespace) }
  }
  if (nullable) fail(where, 'an array cannot be null (send no element, or an empty wrapper)')
  const items = schema.items
  if (!isObject(items)) fail(where, 'an array needs one "items" schema')
  const itemXml = xmlOf(items, `${where}/items`)
  if (itemXml.attribute === true) fail(`${where}/items`, 'array items cannot be attributes')
  const wrapped = xml.wrapped === true
  const itemNamespace = itemXml.namespace ?? namespace
  const itemName = itemXml.name ?? name
  if (!wrapped && (itemName !== name || itemNamespace !== namespace)) fail(`${where}/items`, '"xml.name" and "xml.namespace" on items apply to wrapped arrays only: set them on the property instead')
  const alternatives = builder.typesOf(items, `${where}/items`, itemNamespace)
  if (alternatives !== undefined) return { property, name, namespace, attribute: false, array: true, wrapped, itemName, itemNamespace, list: false, shape: alternatives.declared, alternatives }
  const itemType = typeOf(builder.target(items, `${where}/items`)?.schema ?? items, `${where}/items`).type
  if (itemType === 'array') {
    // An array of xs:list values: the element repeated, each holding one list.
    if (itemXml.list !== true || wrapped) fail(`${where}/items`, 'an array of arrays has no XML form other than a repeated xs:list ("xml.list" on the items, unwrapped): wrap the inner array in an object')
    const list = fieldOf(builder, property, items, `${where}/items`, namespace)
    return { ...list, name, namespace, itemNamespace: namespace, array: true }
  }
  return { property, name, namespace, attribute: false, array: true, wrapped, itemName, itemNamespace, list: false, shape: builder.shape(items, `${where}/items`, itemNamespace) }
}

/** The shapes a field's elements may have: its own, or each of its alternatives. */
export function typesOf (field: Field): Iterable<Shape> {
  return field.alternatives === undefined ? [field.shape] : field.alternatives.byTag.values()
}

/** Whether any element of the tree may be written with an xsi attribute: `xsi:nil`, or `xsi:type`. */
export function usesXsi (shape: Shape, seen = new Set<Shape>()): boolean {
  if (shape.nullable) return true
  if (shape.kind !== 'object' || seen.has(shape)) return false
  seen.add(shape)
  return shape.elements.some((field) => field.alternatives !== undefined || usesXsi(field.shape, seen))
}
