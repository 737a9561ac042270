/**
 * The `xml` keyword of a schema (OpenAPI's, as far as the codec reads it):
 * its keys, and each checked at `ready()` with the schema path that holds it
 * (docs/services.md, "The mapping").
 */
import { SOAP_ERR_SERVICE_SCHEMA } from '../errors'
import { XML_NS, XMLNS_NS, XSI_NS } from '../namespaces'
import { isObject, KnownKeys } from './keys'
import { isXmlText, isNCName, type WhiteSpace } from '../xml/chars'

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
  /**
   * On an object: its text (the `xml.text` property, a string) comes with child elements (XML Schema's mixed content).
   */
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
  /**
   * On a string with `contentEncoding` `base64` or `base16` (bytes, a Buffer once read): its fewest octets (XML
   * Schema's minLength of binary types).
   */
  readonly minOctets?: number
  /**
   * On a string with `contentEncoding` `base64` or `base16`: its most octets (XML Schema's maxLength of binary types).
   */
  readonly maxOctets?: number
}

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
/** The `contentEncoding` values (RFC 4648) of a binary string: its value is bytes, their octets counted by `xml`. */
export const BINARY_ENCODINGS: ReadonlySet<unknown> = new Set(['base64', 'base16'])
const RESERVED_NAMESPACES: ReadonlySet<string> = new Set([XML_NS, XMLNS_NS, XSI_NS])

type Schema = Record<string, unknown>

export function fail (where: string, problem: string): never {
  throw new SOAP_ERR_SERVICE_SCHEMA(where, problem)
}

/** The `xml` keyword of a schema, checked. */
export function xmlOf (schema: Schema, where: string): XmlKeyword {
  const xml = schema.xml
  if (xml === undefined) return {}
  if (!isObject(xml)) fail(where, '"xml" must be an object')
  const unknown = XML_KEYS.unknownIn(xml)
  if (unknown !== undefined) fail(where, `"xml.${unknown}" is not supported (one of ${XML_KEYS.list})`)
  if (xml.name !== undefined && (typeof xml.name !== 'string' || !isNCName(xml.name))) {
    fail(where, '"xml.name" must be an XML NCName')
  }
  // '' is no namespace: an unqualified local element (elementFormDefault="unqualified").
  if (xml.namespace !== undefined && (typeof xml.namespace !== 'string' || !isXmlText(xml.namespace))) {
    fail(where, '"xml.namespace" must be a URI, or "" for no namespace')
  }
  // The XML and xmlns namespaces cannot be declared; xsi attributes are the codec's own (nil, type).
  if (RESERVED_NAMESPACES.has(xml.namespace as string)) {
    fail(where, `"xml.namespace" cannot be the reserved namespace ${String(xml.namespace)}`)
  }
  // xsi is the prefix the writer binds for xsi:nil.
  if (
    xml.prefix !== undefined &&
    (typeof xml.prefix !== 'string' || !isNCName(xml.prefix) || /^xml/i.test(xml.prefix) || xml.prefix === 'xsi')
  ) {
    fail(where, '"xml.prefix" must be an NCName other than "xsi", not starting with "xml"')
  }
  if (xml.prefix !== undefined && xml.namespace === '') fail(where, '"xml.prefix" cannot go with no namespace')
  if (xml.typeName !== undefined && (typeof xml.typeName !== 'string' || !isNCName(xml.typeName))) {
    fail(where, '"xml.typeName" must be an XML NCName')
  }
  if (xml.typeNamespace !== undefined && (typeof xml.typeNamespace !== 'string' || !isXmlText(xml.typeNamespace))) {
    fail(where, '"xml.typeNamespace" must be a URI, or "" for no namespace')
  }
  for (const flag of XML_FLAGS) {
    if (xml[flag] !== undefined && typeof xml[flag] !== 'boolean') fail(where, `"xml.${flag}" must be a boolean`)
  }
  for (const list of ['anyNamespaces', 'anyExcept'] as const) {
    const value = xml[list]
    if (value === undefined) continue
    if (xml.any !== true) fail(where, `"xml.${list}" goes with "xml.any"`)
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && (v === '' || isXmlText(v)))) {
      fail(where, `"xml.${list}" must list namespace URIs ("" for no namespace)`)
    }
  }
  if (xml.anyNamespaces !== undefined && xml.anyExcept !== undefined) {
    fail(where, '"xml.anyNamespaces" and "xml.anyExcept" exclude one another')
  }
  if (xml.whiteSpace !== undefined && (!WHITE_SPACE.has(xml.whiteSpace) || !isString(schema))) {
    fail(where, '"xml.whiteSpace" is one of "preserve", "replace", "collapse", on a schema of type "string"')
  }
  for (const limit of ['minOctets', 'maxOctets'] as const) {
    const value = xml[limit]
    if (
      value !== undefined &&
      (!Number.isSafeInteger(value) || (value as number) < 0 || !isString(schema) ||
        !BINARY_ENCODINGS.has(schema.contentEncoding))
    ) {
      fail(where, `"xml.${limit}" is a count of octets (an integer, 0 or more), on a string whose "contentEncoding" ` +
        'is "base64" or "base16"')
    }
  }
  return xml as XmlKeyword
}

/** Whether a schema's type is `string` (perhaps with `null`). */
export function isString (schema: Schema): boolean {
  return schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string'))
}
