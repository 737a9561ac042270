/**
 * XML Schema simple types as JSON Schemas: the built-in types, facets of a
 * restriction, and patterns made ECMAScript regular expressions that run in
 * linear time (xsd-regex.ts)
 * (docs/contract-first.md, "The mapping").
 */
import type { Element as DomElement } from '@xmldom/xmldom'
import { SOAP_ERR_CONTRACT_INVALID, SOAP_ERR_CONTRACT_UNSUPPORTED } from '../errors'
import { attr, childElements } from './dom'
import { count } from './checks'
import { MAX_DEPTH } from './bounds'
import { XSD_NS } from '../namespaces'
import { normalizeSpace, type WhiteSpace } from '../xml/chars'
import { BINARY_ENCODINGS } from '../codec/xml-keyword'
import { LEXICAL_PATTERNS } from '../codec/patterns'
import { xsdRegex } from './xsd-regex'

type Schema = Record<string, unknown>

/** The simple type of a value: a scalar JSON Schema, or an xs:list of one. */
export interface Simple {
  readonly schema: Schema
  readonly list: boolean
  /** A list's item count facets: minItems, maxItems. */
  readonly counts?: Schema
}

// XML Schema built-in types, by JSON type.
const STRING_TYPES = new Set(['string', 'normalizedString', 'token', 'language', 'Name', 'NCName', 'NMTOKEN', 'ID',
  'IDREF', 'ENTITY', 'anyURI', 'QName', 'NOTATION', 'base64Binary', 'hexBinary', 'anySimpleType', 'NMTOKENS', 'IDREFS',
  'ENTITIES'])
const INTEGER_BOUNDS: Readonly<Record<string, readonly [number | undefined, number | undefined]>> = {
  integer: [undefined, undefined],
  long: [undefined, undefined],
  int: [-2147483648, 2147483647],
  short: [-32768, 32767],
  byte: [-128, 127],
  nonNegativeInteger: [0, undefined],
  positiveInteger: [1, undefined],
  nonPositiveInteger: [undefined, 0],
  negativeInteger: [undefined, -1],
  unsignedLong: [0, undefined],
  unsignedInt: [0, 4294967295],
  unsignedShort: [0, 65535],
  unsignedByte: [0, 255]
}

// The whiteSpace of the built-in string types (XML Schema Part 2 §3, §4.3.6):
// these two keep or replace theirs, all others collapse.
const PRESERVED = new Set(['string', 'anySimpleType'])
const STRENGTH: Readonly<Record<WhiteSpace, number>> = { preserve: 0, replace: 1, collapse: 2 }

/**
 * How a schema's values have their white space normalised as read: a
 * string's `xml.whiteSpace`; other scalars are read as collapse would, and so
 * is base64, whose octets its white space is no part of (Buffer.from passes
 * over it): a large payload is not copied to normalise it.
 */
function whiteSpaceOf (schema: Schema): WhiteSpace {
  if (schema.type !== 'string' || schema.contentEncoding === 'base64') return 'collapse'
  return (schema.xml as { whiteSpace?: WhiteSpace } | undefined)?.whiteSpace ?? 'preserve'
}

/** A string schema whose values have their white space normalised so (`xml.whiteSpace`): nothing for preserve. */
function spaced (schema: Schema, whiteSpace: WhiteSpace): Schema {
  if (whiteSpace === 'preserve') return schema
  return { ...schema, xml: { ...(schema.xml as object | undefined), whiteSpace } }
}

export function builtin (name: string, where: string): Simple {
  if (name === 'boolean') return { schema: { type: 'boolean' }, list: false }
  if (name === 'float' || name === 'double') return { schema: { type: 'number' }, list: false }
  const bounds = INTEGER_BOUNDS[name]
  if (bounds !== undefined) {
    const schema: Schema = { type: 'integer' }
    if (bounds[0] !== undefined) schema.minimum = bounds[0]
    if (bounds[1] !== undefined) schema.maximum = bounds[1]
    return { schema, list: false }
  }
  // Lexical forms of the types the codec carries as strings, checked as XML Schema would.
  const pattern = LEXICAL_PATTERNS[name]
  if (pattern !== undefined) return { schema: spaced({ type: 'string', pattern }, 'collapse'), list: false }
  if (name === 'NMTOKENS' || name === 'IDREFS' || name === 'ENTITIES') return { schema: { type: 'string' }, list: true }
  if (STRING_TYPES.has(name)) {
    if (name === 'base64Binary') return { schema: { type: 'string', contentEncoding: 'base64' }, list: false }
    const schema: Schema = name === 'hexBinary' ? { type: 'string', contentEncoding: 'base16' } : { type: 'string' }
    const whiteSpace = PRESERVED.has(name) ? 'preserve' : name === 'normalizedString' ? 'replace' : 'collapse'
    return { schema: spaced(schema, whiteSpace), list: false }
  }
  throw new SOAP_ERR_CONTRACT_INVALID(where, `the type xs:${name} is no XML Schema built-in type`)
}

/** A value written in the schema (an enumeration, a fixed value) as the JSON value of its type. */
export function lexical (schema: Schema, text: string, where: string): unknown {
  const value = text.trim()
  if (schema.type === 'integer' || schema.type === 'number') {
    const n = Number(value)
    if (value === '' || !Number.isFinite(n)) {
      throw new SOAP_ERR_CONTRACT_INVALID(where, `the value "${text}" is not of its ${String(schema.type)} type`)
    }
    return n
  }
  if (schema.type === 'boolean') {
    if (!['true', 'false', '1', '0'].includes(value)) {
      throw new SOAP_ERR_CONTRACT_INVALID(where, `the value "${text}" is not of its boolean type`)
    }
    return value === 'true' || value === '1'
  }
  // A value of the schema is in its value space: normalised as an instance is.
  const whiteSpace = whiteSpaceOf(schema)
  return whiteSpace === 'preserve' ? text : normalizeSpace(text, whiteSpace)
}

const FACET_NUMBERS: Readonly<Record<string, string>> = {
  minInclusive: 'minimum',
  maxInclusive: 'maximum',
  minExclusive: 'exclusiveMinimum',
  maxExclusive: 'exclusiveMaximum'
}

/** A simple type's facets added to its base's schema. */
export function restrict (base: Schema, restriction: DomElement, where: string): Schema {
  const facets = childElements(restriction).filter((facet) => facet.namespaceURI === XSD_NS)
  // whiteSpace first: the type's values, its enumerations among them, are
  // normalised by the type's own rule, which may only grow stronger.
  const stated = facets.find((facet) => facet.localName === 'whiteSpace')
  const whiteSpace = whiteSpaceOf(base)
  const schema: Schema = stated !== undefined &&
    base.type === 'string' &&
    STRENGTH[attr(stated, 'value') as WhiteSpace] > STRENGTH[whiteSpace]
    ? spaced(base, attr(stated, 'value') as WhiteSpace)
    : { ...base }
  const enumeration: unknown[] = []
  const patterns: string[] = []
  for (const facet of facets) {
    const value = attr(facet, 'value') as string
    const name = facet.localName as string
    if (name === 'enumeration') enumeration.push(lexical(schema, value, where))
    else if (name === 'pattern') patterns.push(value)
    else if (schema.type === 'string' && (name === 'length' || name === 'minLength' || name === 'maxLength')) {
      // Lengths count code points in XML Schema, as Ajv does; those of a
      // binary type count its octets (Part 2 §4.3.1.3).
      const binary = BINARY_ENCODINGS.has(schema.contentEncoding)
      const limits = binary ? { ...(schema.xml as Schema) } : schema
      const [min, max] = binary ? ['minOctets', 'maxOctets'] : ['minLength', 'maxLength']
      const n = count(facet, 'value', where)
      if (name !== 'maxLength') limits[min] = Math.max(n, Number(limits[min] ?? 0))
      if (name !== 'minLength') limits[max] = Math.min(n, Number(limits[max] ?? Infinity))
      if (binary) schema.xml = limits
    } else if ((schema.type === 'integer' || schema.type === 'number') && FACET_NUMBERS[name] !== undefined) {
      schema[FACET_NUMBERS[name]] = lexical(schema, value, where)
    } else if (schema.type === 'integer' && name === 'totalDigits') {
      const limit = 10 ** count(facet, 'value', where) - 1
      if (Number.isSafeInteger(limit)) {
        schema.maximum = Math.min(limit, Number(schema.maximum ?? limit))
        schema.minimum = Math.max(-limit, Number(schema.minimum ?? -limit))
      }
    }
    // fractionDigits and totalDigits on a decimal (a string here), and bounds on strings (dates, decimals),
    // are described in docs/contract-first.md as unchecked.
  }
  if (enumeration.length > 0) schema.enum = enumeration
  // A pattern constrains the lexical form: it is checked on strings, which
  // keep theirs (a number or boolean read has none left, nor bytes read).
  if (patterns.length > 0 && schema.type === 'string' && !BINARY_ENCODINGS.has(schema.contentEncoding)) {
    const own = `^(?:${patterns.map((p) => `(?:${xsdRegex(p, where)})`).join('|')})$`
    // An earlier step's pattern still holds: both are kept, as lookahead.
    schema.pattern = base.pattern === undefined
      ? own
      : `^(?=${String(base.pattern).replace(/^\^|\$$/g, '')}$)${own.slice(1)}`
  }
  return schema
}

/** The facets of a list type count its items: they become minItems and maxItems; the items keep their own schema. */
export function listCounts (base: Schema, restriction: DomElement, where: string): Schema {
  const counts: Schema = { ...base }
  for (const facet of childElements(restriction)) {
    if (facet.namespaceURI !== XSD_NS || facet.localName === 'annotation' || facet.localName === 'whiteSpace') continue
    if (!['length', 'minLength', 'maxLength'].includes(facet.localName as string)) {
      throw new SOAP_ERR_CONTRACT_UNSUPPORTED(`the facet xs:${facet.localName as string} on a list type`, where)
    }
    const value = count(facet, 'value', where)
    if (facet.localName === 'length' || facet.localName === 'minLength') {
      counts.minItems = Math.max(value, Number(counts.minItems ?? 0))
    }
    if (facet.localName === 'length' || facet.localName === 'maxLength') {
      counts.maxItems = Math.min(value, Number(counts.maxItems ?? Infinity))
    }
  }
  return counts
}

/**
 * What reading a simple type needs of the schemas: QNames resolved where
 * written, and named simple types' declarations.
 */
export interface SimpleTypes<C> {
  qname: (node: DomElement, value: string, context: C) => readonly [namespace: string, localName: string]
  declaration: (
    name: readonly [namespace: string, localName: string], where: string
  ) => { node: DomElement, context: C }
  /** How deep (lib/contract/bounds.ts) the element or attribute whose type it is lies. */
  depth: () => number
}

function xsChildren (node: DomElement, localName: string): DomElement[] {
  return childElements(node).filter((c) => c.namespaceURI === XSD_NS && c.localName === localName)
}

/**
 * A simple type (restriction, list or union) as the schema of its values.
 * `within` holds the simple types being read around it: one defined by
 * itself, directly or not, is refused (XML Schema Part 2 §4.1.6).
 */
export function simpleTypeOf<C> (
  types: SimpleTypes<C>,
  node: DomElement | undefined,
  context: C,
  where: string,
  within: ReadonlySet<DomElement> = new Set()
): Simple {
  if (node === undefined) {
    throw new SOAP_ERR_CONTRACT_INVALID(
      where, 'an xs:restriction, xs:list or xs:union that names no type and holds none'
    )
  }
  if (within.has(node)) throw new SOAP_ERR_CONTRACT_INVALID(where, 'a simple type defined by itself')
  const inside = new Set(within).add(node)
  const deep = `simple types nested in elements, groups, bases and simple types more than ${MAX_DEPTH} deep`
  if (types.depth() + inside.size > MAX_DEPTH) throw new SOAP_ERR_CONTRACT_UNSUPPORTED(deep, where)
  const byName = (name: readonly [string, string]): Simple => {
    if (name[0] === XSD_NS) return builtin(name[1], where)
    const declared = types.declaration(name, where)
    return simpleTypeOf(types, declared.node, declared.context, `${where} > type {${name[0]}}${name[1]}`, inside)
  }
  const restriction = xsChildren(node, 'restriction')[0]
  if (restriction !== undefined) {
    const baseName = attr(restriction, 'base')
    const base = baseName !== undefined
      ? byName(types.qname(restriction, baseName, context))
      : simpleTypeOf(types, xsChildren(restriction, 'simpleType')[0], context, where, inside)
    if (base.list) return { schema: base.schema, list: true, counts: listCounts(base.counts ?? {}, restriction, where) }
    return { schema: restrict(base.schema, restriction, where), list: false }
  }
  const list = xsChildren(node, 'list')[0]
  if (list !== undefined) {
    const itemName = attr(list, 'itemType')
    const item = itemName !== undefined
      ? byName(types.qname(list, itemName, context))
      : simpleTypeOf(types, xsChildren(list, 'simpleType')[0], context, where, inside)
    if (item.list) {
      throw new SOAP_ERR_CONTRACT_INVALID(
        where, 'a list whose items are lists (XML Schema Part 2 §4.1.3: a list\'s item type is atomic or a union)'
      )
    }
    // The items are split at white space: none is left in one to normalise.
    const items = { ...item.schema }
    delete items.xml
    return { schema: items, list: true }
  }
  // A union is read as its lexical form: a string, or the enumerations of its members when they all are,
  // its white space normalised as every member's is (a list's, a number's: collapse).
  const union = xsChildren(node, 'union')[0]
  if (union === undefined) {
    throw new SOAP_ERR_CONTRACT_INVALID(where, 'an xs:simpleType with no xs:restriction, xs:list or xs:union')
  }
  const members: Simple[] = []
  for (const name of (attr(union, 'memberTypes') ?? '').split(/\s+/).filter((n) => n !== '')) {
    members.push(byName(types.qname(union, name, context)))
  }
  for (const inline of xsChildren(union, 'simpleType')) {
    members.push(simpleTypeOf(types, inline, context, where, inside))
  }
  if (members.length === 0) throw new SOAP_ERR_CONTRACT_INVALID(where, 'an xs:union of no member type')
  const whiteSpace = members.map((m) => m.list ? 'collapse' : whiteSpaceOf(m.schema))
    .reduce<WhiteSpace>((a, b) => STRENGTH[a] < STRENGTH[b] ? a : b, 'collapse')
  if (members.every((m) => !m.list && m.schema.type === 'string' && Array.isArray(m.schema.enum))) {
    const values = [...new Set(members.flatMap((m) => m.schema.enum as string[]))]
    return { schema: spaced({ type: 'string', enum: values }, whiteSpace), list: false }
  }
  // Otherwise a value has the lexical form of one of its members, when each has one a pattern says.
  const forms = members.map(lexicalForm)
  const schema: Schema = forms.every((f) => f !== undefined)
    ? { type: 'string', pattern: `^(?:${forms.join('|')})$` }
    : { type: 'string' }
  return { schema: spaced(schema, whiteSpace), list: false }
}

// The lexical forms of the scalars read as JSON numbers and booleans (XML Schema Part 2 §3.2.2-3.2.5, §3.3.13).
const NUMBER_FORMS: Readonly<Record<string, string>> = {
  integer: '[+-]?[0-9]+',
  number: '[+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?|-?INF|NaN',
  boolean: 'true|false|1|0'
}

/**
 * A union member's lexical form as a group of a pattern: its enumeration, its pattern (one with no lookahead), or
 * its number's or boolean's form (their bounds left unchecked); undefined when none says it (a plain string, a list).
 */
function lexicalForm (member: Simple): string | undefined {
  const { schema } = member
  if (member.list) return undefined
  if (Array.isArray(schema.enum)) {
    return `(?:${schema.enum.map((v) => String(v).replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')).join('|')})`
  }
  const number = NUMBER_FORMS[schema.type as string]
  if (number !== undefined) return `(?:${number})`
  const pattern = schema.pattern as string | undefined
  if (pattern === undefined || pattern.startsWith('^(?=') || pattern.startsWith('^(?!')) return undefined
  return `(?:${pattern.slice(1, -1)})`
}
