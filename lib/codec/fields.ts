/**
 * A property's schema read into a field of its object's shape: an element
 * (perhaps repeated, wrapped, a list), an attribute, the text, or the raw
 * elements of a wildcard; and the keywords a schema may not hold (docs/services.md,
 * "The mapping").
 */
import { isNCName } from '../xml/chars'
import { BINARY_ENCODINGS, fail, isString, xmlOf, type XmlKeyword } from './xml-keyword'
import { isObject } from './keys'
import {
  elementField, scalar, TYPE_PROPERTY,
  type BinaryEncoding, type Field, type ScalarType, type ShapeReader, type XsiTypeName
} from './shape-types'

/** Keywords that change the XML the codec must read or write, and which it does not support. */
const UNSUPPORTED = [
  'allOf', 'if', 'then', 'else', 'patternProperties', 'prefixItems', 'dependentSchemas', 'propertyNames'
]
/**
 * Combinators the codec accepts when they only say which properties are present (an XSD choice): they change no XML.
 */
const PRESENCE = ['anyOf', 'oneOf', 'not']
export const SCALARS: ReadonlySet<string> = new Set(['string', 'integer', 'number', 'boolean'])

type Schema = Record<string, unknown>

/** The schema's type, with `null` (from a type list or `nullable: true`) taken out. */
export function typeOf (schema: Schema, where: string): { type: string, nullable: boolean } {
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
  if (rest.length !== 1 || typeof rest[0] !== 'string') {
    fail(where, `type ${JSON.stringify(schema.type ?? rest)} is not one of string, integer, number, boolean, ` +
      'object, array (optionally with "null")')
  }
  return { type: rest[0], nullable }
}

/** Keywords of a string's characters, which bytes do not have. */
const CHARACTERS = ['minLength', 'maxLength', 'pattern', 'format']

/**
 * A binary string's encoding (`contentEncoding` base64 or base16, xs:base64Binary or xs:hexBinary): its value is
 * bytes, whose lengths are `xml.minOctets` and `xml.maxOctets`. Undefined for any other schema.
 */
export function binaryOf (schema: Schema, where: string): BinaryEncoding | undefined {
  if (!BINARY_ENCODINGS.has(schema.contentEncoding) || !isString(schema)) return undefined
  const encoding = schema.contentEncoding as BinaryEncoding
  const keyword = CHARACTERS.find((k) => schema[k] !== undefined)
  if (keyword !== undefined) {
    fail(where, `"${keyword}" does not apply to bytes (contentEncoding "${encoding}"): their lengths are ` +
      '"xml.minOctets" and "xml.maxOctets"')
  }
  return encoding
}

export function checkKeywords (schema: Schema, where: string): void {
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
  return Object.keys(value).every((key) => key === 'required' || (
    PRESENCE.includes(key) && isPresenceOnly(value[key])
  ) ||
    // `properties` of `true` only name what `required` lists (Ajv's strict mode asks for it); an array is present when
    // it has an item.
    (key === 'properties' && isObject(value.properties) &&
      Object.values(value.properties).every((v) => v === true || isCount(v))))
}

/** `{ type: 'array', minItems, maxItems }`: how many times a repeated element is there (present: minItems 1). */
function isCount (value: unknown): boolean {
  return isObject(value) && value.type === 'array' && Object.entries(value).every(([key, n]) =>
    key === 'type' || ((key === 'minItems' || key === 'maxItems') && Number.isSafeInteger(n) && (n as number) >= 0))
}

/** An object's type, from its `$type` property (one `const` string, required) and its `xml`. */
export function typeNameOf (
  property: unknown, xml: XmlKeyword, schema: Schema, where: string, inherited: string
): XsiTypeName {
  const at = `${where}/properties/${TYPE_PROPERTY}`
  const tag = isObject(property)
    ? property.const ?? (
      Array.isArray(property.enum) && property.enum.length === 1 ? property.enum[0] : undefined
    )
    : undefined
  if (
    typeof tag !== 'string' ||
    tag === '' ||
    Object.keys(property as Schema).some(
      (key) => key !== 'const' && key !== 'enum' && key !== 'type' && key !== 'description'
    )
  ) {
    fail(at, '"$type" names the object\'s type: a schema of one "const" string')
  }
  if (!Array.isArray(schema.required) || !schema.required.includes(TYPE_PROPERTY)) {
    fail(where, '"$type" must be required: it says which type the value is')
  }
  const name = xml.typeName ?? tag
  if (!isNCName(name)) fail(where, `"$type" ${tag} is not an XML name: give the type's name in "xml.typeName"`)
  const namespace = xml.typeNamespace ?? inherited
  if (namespace === '' && xml.typeNamespace === undefined) {
    fail(where, 'the type of an element in no namespace needs "xml.typeNamespace" ("" for none)')
  }
  return { tag, name, namespace, abstract: xml.abstract === true }
}

export function fieldOf (
  builder: ShapeReader, property: string, schema: Schema, where: string, inherited: string
): Field {
  checkKeywords(schema, where)
  // Ajv passes over a property named "__proto__" (it never validates it), so it
  // cannot be one here either; the XML element may still be called that, through xml.name.
  if (property === '__proto__') {
    fail(where, 'a property cannot be named "__proto__": name it otherwise, with "xml": { "name": "__proto__" }')
  }
  const xml = xmlOf(schema, where)
  const name = xml.name ?? property
  const { type, nullable } = typeOf(schema, where)
  if (xml.text !== true && xml.any !== true && !isNCName(name)) {
    fail(where, `property "${property}" is not an XML name: give it "xml.name"`)
  }
  if (xml.anyAttribute === true && type !== 'object') fail(where, '"xml.anyAttribute" applies to objects only')
  if (xml.mixed === true && type !== 'object') fail(where, '"xml.mixed" applies to objects only')
  if ([xml.attribute, xml.text, xml.any].filter((flag) => flag === true).length > 1) {
    fail(where, '"xml.attribute", "xml.text" and "xml.any" exclude one another')
  }
  if (xml.text === true) {
    if (!SCALARS.has(type) || nullable) {
      fail(where, 'the text ("xml.text") must be a string, integer, number or boolean, and cannot be null')
    }
    if (xml.name !== undefined || xml.namespace !== undefined || xml.prefix !== undefined) {
      fail(where, 'the text ("xml.text") has no name or namespace')
    }
    return {
      property,
      name,
      namespace: '',
      attribute: false,
      array: false,
      wrapped: false,
      itemName: name,
      itemNamespace: '',
      list: false,
      shape: scalar(type as ScalarType, false, xml.whiteSpace, binaryOf(schema, where))
    }
  }
  if (xml.any === true) {
    const items = schema.items
    if (
      type !== 'array' ||
      nullable ||
      !isObject(items) ||
      items.type !== 'object' ||
      Object.keys(items).some((key) => key !== 'type')
    ) {
      fail(where, '"xml.any" goes on an array of { "type": "object" } (raw elements)')
    }
    if (
      xml.name !== undefined ||
      xml.namespace !== undefined ||
      xml.prefix !== undefined ||
      xml.wrapped !== undefined ||
      xml.list !== undefined
    ) {
      fail(where, '"xml.any" elements keep their own names')
    }
    const listed = xml.anyNamespaces ?? xml.anyExcept
    const wildcard = listed === undefined
      ? undefined
      : {
          allow: xml.anyNamespaces !== undefined, namespaces: new Set(listed)
        }
    return {
      property,
      name,
      namespace: '',
      attribute: false,
      array: true,
      wrapped: false,
      itemName: name,
      itemNamespace: '',
      list: false,
      wildcard,
      shape: scalar('string', false)
    }
  }
  if (xml.list === true) {
    const items = schema.items
    if (type !== 'array' || !isObject(items)) {
      fail(where, '"xml.list" goes on an array of strings, integers, numbers or booleans')
    }
    // A list element may be nil (xs:list elements are nillable as any other); an attribute cannot.
    if (nullable && xml.attribute === true) {
      fail(where, 'an attribute must be a string, integer, number or boolean, and cannot be null')
    }
    const item = typeOf(items, `${where}/items`)
    if (!SCALARS.has(item.type) || item.nullable || items.xml !== undefined) {
      fail(`${where}/items`, 'the items of "xml.list" are strings, integers, numbers or booleans, not null, with no ' +
        '"xml"')
    }
    if (xml.wrapped !== undefined) fail(where, '"xml.list" and "xml.wrapped" exclude one another')
    // A list's shape is its items' type; `nullable` is the list element's own.
    const shape = scalar(item.type as ScalarType, nullable, undefined, binaryOf(items, `${where}/items`))
    const namespace = xml.attribute === true ? xml.namespace ?? '' : xml.namespace ?? inherited
    return {
      property,
      name,
      namespace,
      attribute: xml.attribute === true,
      array: false,
      wrapped: false,
      itemName: name,
      itemNamespace: namespace,
      list: true,
      shape
    }
  }
  if (xml.attribute === true) {
    if (!SCALARS.has(type) || nullable) {
      fail(where, 'an attribute must be a string, integer, number or boolean, and cannot be null')
    }
    if (name === 'xmlns' && xml.namespace === undefined) {
      fail(where, 'an attribute cannot be named "xmlns" (it would be a namespace declaration)')
    }
    // Attributes are unqualified unless they name a namespace (attributeFormDefault="unqualified").
    const shape = scalar(type as ScalarType, false, xml.whiteSpace, binaryOf(schema, where))
    return {
      property,
      name,
      namespace: xml.namespace ?? '',
      attribute: true,
      array: false,
      wrapped: false,
      itemName: name,
      itemNamespace: '',
      list: false,
      shape
    }
  }
  const namespace = xml.namespace ?? inherited
  if (type !== 'array') {
    if (xml.wrapped !== undefined) fail(where, '"xml.wrapped" applies to arrays only')
    return elementField(property, name, namespace, builder.shape(schema, where, namespace))
  }
  if (nullable) fail(where, 'an array cannot be null (send no element, or an empty wrapper)')
  const items = schema.items
  if (!isObject(items)) fail(where, 'an array needs one "items" schema')
  const itemXml = xmlOf(items, `${where}/items`)
  if (itemXml.attribute === true) fail(`${where}/items`, 'array items cannot be attributes')
  const wrapped = xml.wrapped === true
  const itemNamespace = itemXml.namespace ?? namespace
  const itemName = itemXml.name ?? name
  if (!wrapped && (itemName !== name || itemNamespace !== namespace)) {
    fail(`${where}/items`, '"xml.name" and "xml.namespace" on items apply to wrapped arrays only: set them on the ' +
      'property instead')
  }
  // The field's own part; its shape (and alternatives) follow.
  const repeated = {
    property, name, namespace, attribute: false, array: true, wrapped, itemName, itemNamespace, list: false
  }
  const alternatives = builder.typesOf(items, `${where}/items`, itemNamespace)
  if (alternatives !== undefined) {
    return { ...repeated, shape: alternatives.declared, alternatives }
  }
  const itemType = typeOf(builder.target(items, `${where}/items`)?.schema ?? items, `${where}/items`).type
  if (itemType === 'array') {
    // An array of xs:list values: the element repeated, each holding one list.
    if (itemXml.list !== true || wrapped) {
      fail(`${where}/items`, 'an array of arrays has no XML form other than a repeated xs:list ("xml.list" on the ' +
        'items, unwrapped): wrap the inner array in an object')
    }
    const list = fieldOf(builder, property, items, `${where}/items`, namespace)
    return { ...list, name, namespace, itemNamespace: namespace, array: true }
  }
  return { ...repeated, shape: builder.shape(items, `${where}/items`, itemNamespace) }
}
