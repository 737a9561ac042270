/**
 * Registration: a JSON Schema read once into the XML shape the codec follows
 * (docs/services.md, "The mapping"). Every construct outside the supported set
 * is refused here, at `ready()`, with the schema path that holds it, so that
 * nothing is silently dropped at run time.
 */
import { isNCName } from '../xml/chars'
import { fail, xmlOf, type XmlKeyword } from './xml-keyword'
import { isObject } from './keys'
import { binaryOf, checkKeywords, fieldOf, typeNameOf, typeOf, SCALARS } from './fields'
import {
  elementField, scalar, TYPE_PROPERTY,
  type Alternatives, type AskedPrefix, type Field, type ObjectShape, type ScalarShape, type ScalarType,
  type Shape, type ShapeReader
} from './shape-types'

type Schema = Record<string, unknown>

export {
  fieldNamed, typesOf, usesXsi, TYPE_PROPERTY,
  type Alternatives, type AskedPrefix, type BinaryEncoding, type Field, type NamedFields, type ObjectShape,
  type ScalarShape, type ScalarType, type Shape, type XsiTypeName
} from './shape-types'

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

type Built = 'elements' | 'attributes' | 'elementsByName' | 'attributesByName' | 'prefixes' | 'required'
type MutableObjectShape = Omit<{ -readonly [K in keyof ObjectShape]: ObjectShape[K] }, Built> & {
  prefixes: AskedPrefix[]
  required: string[]
  elements: Field[]
  attributes: Field[]
  elementsByName: Map<string, Map<string, Field>>
  attributesByName: Map<string, Map<string, Field>>
}

function emptyObject (nullable: boolean, xml: XmlKeyword): MutableObjectShape {
  const content = {
    elements: [], attributes: [], elementsByName: new Map(), attributesByName: new Map(), prefixes: [], required: []
  }
  const flags = { anyAttribute: xml.anyAttribute === true, mixed: xml.mixed === true, closed: false }
  return { kind: 'object', nullable, ...content, text: undefined, any: undefined, ...flags, xsiType: undefined }
}

/** Reads the schemas of one top-level element: its named schemas are shared by all their uses. */
class ShapeBuilder implements ShapeReader {
  /**
   * @param named shapes of named schemas, by name and inherited namespace:
   * made before their fields, so that a cycle finds its start
   */
  constructor (
    private readonly defs: Record<string, unknown> | undefined, private readonly named: Map<string, Shape>
  ) {}

  /** The schema a `$ref` names, and its name; undefined for a schema that is no reference. */
  target (schema: Schema, where: string): { name: string, schema: Schema } | undefined {
    const ref = schema.$ref
    if (ref === undefined) return undefined
    const match = typeof ref === 'string' ? REF.exec(ref) : null
    if (match === null) {
      fail(where, '"$ref" must name one of the schema\'s own "$defs" ("#/$defs/Name"): nothing else is resolved')
    }
    const name = match[2].replace(/~1/g, '/').replace(/~0/g, '~')
    const defs = this.defs ?? {}
    const target = Object.hasOwn(defs, name) ? defs[name] : undefined
    if (!isObject(target)) fail(where, `"$ref" names ${ref as string}, which the schema's "$defs" do not hold`)
    if (target.$ref !== undefined) fail(`#/$defs/${name}`, 'a named schema cannot be only a "$ref"')
    for (const key of Object.keys(schema)) {
      if (!BESIDE_REF.has(key)) {
        fail(where, `"${key}" cannot go beside "$ref": only "xml" can (the element's name and namespace)`)
      }
    }
    return { name, schema: target }
  }

  shape (schema: unknown, where: string, inherited: string): Shape {
    if (!isObject(schema)) fail(where, 'a schema must be an object')
    const ref = this.target(schema, where)
    if (ref !== undefined) return this.namedShape(ref.name, ref.schema, inherited)
    checkKeywords(schema, where)
    const { type, nullable } = typeOf(schema, where)
    if (SCALARS.has(type)) {
      return scalar(type as ScalarType, nullable, xmlOf(schema, where).whiteSpace, binaryOf(schema, where))
    }
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
    if (ap !== undefined && ap !== false) {
      fail(where, '"additionalProperties" must be false or absent (XML has no element for an unnamed property)')
    }
    const properties = schema.properties ?? {}
    if (!isObject(properties)) fail(where, '"properties" must be an object')
    const { elements, attributes, elementsByName, attributesByName } = shape
    let text: Field | undefined
    let any: Field | undefined
    const xml = xmlOf(schema, where)
    if (Object.hasOwn(properties, TYPE_PROPERTY)) {
      shape.xsiType = typeNameOf(properties[TYPE_PROPERTY], xml, schema, where, inherited)
    } else if (
      xml.typeName !== undefined || xml.typeNamespace !== undefined || xml.abstract !== undefined
    ) fail(where, '"xml.typeName", "xml.typeNamespace" and "xml.abstract" go on an object with a "$type" property')
    for (const property of Object.keys(properties)) {
      if (property === TYPE_PROPERTY) continue
      const field = this.field(property, properties[property], `${where}/properties/${property}`, inherited)
      const xml = xmlOf(properties[property] as Schema, where)
      this.ask(properties[property] as Schema, inherited, `${where}/properties/${property}`, shape.prefixes)
      if (xml.text === true) {
        if (text !== undefined) {
          fail(`${where}/properties/${property}`, `"xml.text" is already property ${text.property}: an element has ` +
            'one text')
        }
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
      if (named.has(field.name)) {
        fail(`${where}/properties/${property}`, 'two properties are both the XML ' +
          `${field.attribute ? 'attribute' : 'element'} {${field.namespace}}${field.name}`)
      }
      named.set(field.name, field)
      byName.set(field.namespace, named);
      (field.attribute ? attributes : elements).push(field)
    }
    const textShape = text?.shape as ScalarShape | undefined
    if (shape.mixed && (textShape?.type !== 'string' || textShape.binary !== undefined)) {
      fail(where, '"xml.mixed" needs a property of type string with "xml.text": the text between the child elements')
    }
    if (!shape.mixed && text !== undefined && (elements.length !== 0 || any !== undefined)) {
      fail(where, `property ${text.property} is the element's text ("xml.text"): the element can have no child ` +
        'elements, unless the object says "xml.mixed"')
    }
    shape.text = text
    shape.any = any
    if (Array.isArray(schema.required)) shape.required.push(...schema.required.filter((p) => typeof p === 'string'))
    shape.closed = ap === false
  }

  /**
   * The alternatives of a `oneOf` whose schemas are objects (or `$ref`s to
   * them) each with a `$type`, the declared type first, and perhaps
   * `{ type: 'null' }`: undefined for any other schema.
   */
  alternatives (schema: Schema, where: string, namespace: string): Alternatives | undefined {
    const branches = schema.oneOf
    if (
      !Array.isArray(branches) ||
      !branches.some((b) => isObject(b) && (b.$ref !== undefined || b.type !== undefined))
    ) {
      return undefined
    }
    for (const key of Object.keys(schema)) {
      if (!BESIDE_REF.has(key) && key !== 'oneOf' && key !== 'nullable') {
        fail(where, `"${key}" cannot go beside a "oneOf" of types: only "xml" (the element's name and namespace) ` +
          'and "nullable" can')
      }
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
      if (shape.kind !== 'object' || shape.xsiType === undefined) {
        fail(at, 'each schema of a "oneOf" of types is an object whose "$type" property is one "const" string, the ' +
          'type\'s name')
      }
      if (shape.nullable) {
        fail(at, 'a type of a "oneOf" cannot be nullable: add { type: \'null\' } to the "oneOf" instead')
      }
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
    return named === undefined
      ? this.alternatives(
        schema, where, namespace
      )
      : this.alternatives(named.schema, `#/$defs/${named.name}`, namespace)
  }

  field (property: string, schema: unknown, where: string, inherited: string): Field {
    if (!isObject(schema)) fail(where, 'a schema must be an object')
    const alternatives = this.typesOf(
      schema, where,
      (isObject(schema.xml) && typeof schema.xml.namespace === 'string') ? schema.xml.namespace : inherited
    )
    if (alternatives !== undefined) {
      const { name, namespace } = this.elementName(property, schema, where, inherited, 'a "oneOf" of types')
      return elementField(property, name, namespace, alternatives.declared, alternatives)
    }
    const ref = this.target(schema, where)
    if (ref === undefined) return fieldOf(this, property, schema, where, inherited)
    // A named schema in a property: the property's own `xml` names the element, the named schema gives its content.
    const { name, namespace } = this.elementName(property, schema, where, inherited, 'a "$ref" property')
    if (typeOf(ref.schema, `#/$defs/${ref.name}`).type === 'array') {
      fail(where, `"$ref" names ${ref.name}, an array: name an object or scalar schema, and make the property the ` +
        'array')
    }
    return elementField(property, name, namespace, this.shape(schema, where, namespace))
  }

  /** The name and namespace of an element property whose `xml` only names it (`what`: a "oneOf" of types, a "$ref"). */
  private elementName (
    property: string, schema: Schema, where: string, inherited: string, what: string
  ): { name: string, namespace: string } {
    const xml = xmlOf(schema, where)
    const name = xml.name ?? property
    if (property === '__proto__') {
      fail(where, 'a property cannot be named "__proto__": name it otherwise, with "xml": { "name": "__proto__" }')
    }
    if (!isNCName(name)) fail(where, `property "${property}" is not an XML name: give it "xml.name"`)
    if (xml.attribute === true || xml.text === true || xml.any === true || xml.list === true || xml.wrapped === true) {
      fail(where, `${what} is an element: its "xml" gives its name, namespace and prefix only`)
    }
    return { name, namespace: xml.namespace ?? inherited }
  }
}
