/**
 * The shapes the codec follows: what a JSON Schema reads into (shapes.ts
 * reads it), element by element and attribute by attribute (docs/services.md,
 * "The mapping"). Types, and what is read off a shape once it is made.
 */
import type { WhiteSpace } from '../xml/chars'

export type ScalarType = 'string' | 'integer' | 'number' | 'boolean'

/** The `contentEncoding` of a binary string (xs:base64Binary, xs:hexBinary): its value is bytes. */
export type BinaryEncoding = 'base64' | 'base16'

export interface ScalarShape {
  readonly kind: 'scalar'
  readonly type: ScalarType
  readonly nullable: boolean
  /**
   * A string's white space, normalised as read (`xml.whiteSpace`); undefined: kept as sent. A binary string's is
   * collapse (XML Schema Part 2 §3.2.15, §3.2.16): read by its own rule, its text is not normalised.
   */
  readonly whiteSpace: 'replace' | 'collapse' | undefined
  /** A binary string's encoding: its value is a Buffer, read from and written as that text. */
  readonly binary: BinaryEncoding | undefined
}

/** A scalar's shape: every one has the same properties, so that reading one is one shape of object to V8. */
export function scalar (
  type: ScalarType, nullable: boolean, whiteSpace?: WhiteSpace, binary?: BinaryEncoding
): ScalarShape {
  if (binary !== undefined) return { kind: 'scalar', type, nullable, whiteSpace: 'collapse', binary }
  return { kind: 'scalar', type, nullable, whiteSpace: whiteSpace === 'preserve' ? undefined : whiteSpace, binary }
}

export interface ObjectShape {
  readonly kind: 'object'
  readonly nullable: boolean
  /** Child elements, in schema (property) order. */
  readonly elements: readonly Field[]
  readonly attributes: readonly Field[]
  /**
   * Child elements by namespace, then local name (a wrapped array by its wrapper's): no key is built per element read.
   */
  readonly elementsByName: NamedFields
  /** Attributes by namespace, then local name. */
  readonly attributesByName: NamedFields
  /** The property holding the element's text (`xml.text`): then there are no child elements. */
  readonly text: Field | undefined
  /** The property collecting child elements no other field names, as raw elements (`xml.any`). */
  readonly any: Field | undefined
  /**
   * Whether attributes without a namespace that no field names are passed over (`xml.anyAttribute`) rather than
   * refused.
   */
  readonly anyAttribute: boolean
  /** Mixed content (`xml.mixed`): the text between child elements is read into `text`, beside the elements. */
  readonly mixed: boolean
  /**
   * The XML Schema type the object is, when its `$type` property names it: an alternative of a derived-type element.
   */
  readonly xsiType: XsiTypeName | undefined
  /** The properties its `required` lists, and whether it refuses any other (`additionalProperties: false`). */
  readonly required: readonly string[]
  readonly closed: boolean
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

/** What reading a property's schema asks of the reader of the whole schema (shapes.ts). */
export interface ShapeReader {
  /** The schema a `$ref` names, and its name; undefined for a schema that is no reference. */
  target: (
    schema: Record<string, unknown>, where: string
  ) => { name: string, schema: Record<string, unknown> } | undefined
  /** A schema (not an array) read as a shape, its child elements in `inherited` by default. */
  shape: (schema: unknown, where: string, inherited: string) => Shape
  /** A "oneOf" of types: the declared type and those derived from it; undefined for any other schema. */
  typesOf: (schema: Record<string, unknown>, where: string, namespace: string) => Alternatives | undefined
}

/** The field of an element property, not repeated: `name` in `namespace`, of `shape` (and its derived types). */
export function elementField (
  property: string, name: string, namespace: string, shape: Shape, alternatives?: Alternatives
): Field {
  const field: Field = {
    property,
    name,
    namespace,
    attribute: false,
    array: false,
    wrapped: false,
    itemName: name,
    itemNamespace: namespace,
    list: false,
    shape
  }
  return alternatives === undefined ? field : { ...field, alternatives }
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
