/**
 * Stage 5a: the codec, reading. Reads an operation element (or the header
 * blocks) into a plain value, following the shape read from its JSON Schema
 * (lib/codec/shapes.ts); no DOM is built. Writing is lib/codec/write.ts.
 *
 * Reading is strict about values (text where a number is due, an integer
 * outside the safe range, NaN or INF: a Sender fault) and liberal about what
 * real clients add (`xsi:type`, foreign attributes, element order).
 */
import { XML_NS, XSI_NS, qnameKey } from '../namespaces'
import {
  fieldNamed,
  TYPE_PROPERTY,
  type Alternatives,
  type BinaryEncoding,
  type Field,
  type ObjectShape,
  type ScalarShape,
  type ScalarType,
  type Shape
} from './shapes'
import { elementAt, type TreeName, type XmlTree } from '../xml/tree'
import type { XmlElement } from '../xml/element'
import { isWhitespace, normalizeSpace, trimXmlSpace } from '../xml/chars'
import { bytesOf } from './binary'

// ------------------------------------------------------------ reading ---

/** A problem found while reading a value: its JSON Pointer is built on the way out. */
export class InputProblem {
  readonly segments: Array<string | number> = []
  /** The elements the refused value is in, `{namespace}localName`, innermost first: a redacted one hides the value. */
  readonly elements: string[] = []
  /**
   * @param message what is wrong, quoting the value when there is one
   * @param unquoted the same without the value, for an element whose content must not be repeated (the `redact` option)
   */
  constructor (readonly message: string, readonly unquoted: string = message) {}

  get path (): string {
    return pointer(this.segments)
  }
}

function pointer (segments: ReadonlyArray<string | number>): string {
  let out = ''
  for (const segment of segments) out += '/' + String(segment).replace(/~/g, '~0').replace(/\//g, '~1')
  return out
}

const INTEGER = /^[+-]?[0-9]+$/
const DOUBLE = /^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$/

/** 10^k, exact as doubles up to 10^22. */
const POWERS_OF_TEN = Array.from({ length: 16 }, (_, k) => 10 ** k)

/**
 * The value of `[+-]?digits(.digits)?` with at most 15 digits, read in place;
 * undefined for anything else (an exponent, more digits, no digit), which the
 * regular expressions and `Number` then read. Exact: the digits make an integer
 * below 2^53 and 10^k is exact, so the one division rounds correctly (IEEE
 * 754), as `Number` would.
 */
export function shortDecimal (text: string, fraction: boolean): number | undefined {
  const length = text.length
  // No character is read past the end: V8 reads those slowly.
  if (length === 0) return undefined
  const first = text.charCodeAt(0)
  const negative = first === 0x2d
  let i = negative || first === 0x2b ? 1 : 0
  let digits = 0
  let mantissa = 0
  let point = -1
  for (; i < length; i++) {
    const code = text.charCodeAt(i)
    if (code >= 0x30 && code <= 0x39) {
      mantissa = mantissa * 10 + (code - 0x30)
      digits++
    } else if (code === 0x2e && fraction && point === -1) {
      point = i
    } else {
      return undefined
    }
  }
  if (digits === 0 || digits > 15) return undefined
  const value = point === -1 ? mantissa : mantissa / POWERS_OF_TEN[length - 1 - point]
  return negative ? -value : value
}

/** Reads the lexical form of an XML Schema scalar (xs:string, xs:long-like integer, xs:double, xs:boolean). */
export function readScalar (type: ScalarType, text: string): string | number | boolean {
  if (type === 'string') return text
  const value = isTrimmed(text) ? text : trimXmlSpace(text)
  if (type !== 'boolean') {
    const short = shortDecimal(value, type === 'number')
    if (short !== undefined) return short === 0 && type === 'integer' ? 0 : short
  }
  if (type === 'integer') {
    if (!INTEGER.test(value)) throw new InputProblem(`"${clip(value)}" is not an integer`, 'not an integer')
    const n = Number(value)
    if (!Number.isSafeInteger(n)) {
      throw new InputProblem(`${clip(value)} is outside the safe integer range`, 'outside the safe integer range')
    }
    return n === 0 ? 0 : n
  }
  if (type === 'number') {
    // xs:double's INF, -INF and NaN have no JSON value: refused, never coerced.
    if (!DOUBLE.test(value)) throw new InputProblem(`"${clip(value)}" is not a finite number`, 'not a finite number')
    const n = Number(value)
    if (!Number.isFinite(n)) {
      throw new InputProblem(`${clip(value)} is outside the range of a double`, 'outside the range of a double')
    }
    return n
  }
  if (value === 'true' || value === '1') return true
  if (value === 'false' || value === '0') return false
  throw new InputProblem(`"${clip(value)}" is not a boolean`, 'not a boolean')
}

/**
 * Reads a scalar of a shape: a string whose schema says `xml.whiteSpace` has
 * its white space normalised first (XML Schema Part 2 §4.3.6), so that the
 * facets Ajv checks, and the handler, see the value XML Schema does; any
 * other string is kept as sent.
 */
export function readScalarOf (shape: ScalarShape, text: string): string | number | boolean | Buffer {
  const whiteSpace = shape.whiteSpace
  if (whiteSpace === undefined) return readScalar(shape.type, text)
  // A binary string's white space is collapse: this branch holds them, and most scalars never look for one.
  const binary = shape.binary
  return binary === undefined ? normalizeSpace(text, whiteSpace) : readBinary(binary, text)
}

/**
 * The bytes of a binary value, from its text: the one place the codec reads
 * them (a message whose parts carry them, MTOM, gives the bytes instead of
 * the text). The text is checked in linear time (one native test for the
 * usual text on one line, else one scan), then decoded as it is, its white
 * space passed over by Buffer.from, never copied.
 */
export function readBinary (encoding: BinaryEncoding, text: string): Buffer {
  const bytes = bytesOf(encoding, text)
  if (typeof bytes === 'string') throw new InputProblem(bytes)
  return bytes
}

/**
 * An element's scalar content: for a binary value of an MTOM request, the bytes of the part its
 * xop:Include names (docs/protocol.md "MTOM/XOP"), as they came, a view of the body; else from its text.
 * An Include where no binary value is due is an element where text is due.
 */
function scalarContent (shape: ScalarShape, tree: XmlTree, p: number): unknown {
  const bytes = shape.binary === undefined ? undefined : tree.included?.get(p)
  return bytes ?? readScalarOf(shape, textOnly(tree, p))
}

/** Whether text has no XML white space at either end (most values): then nothing is replaced. */
function isTrimmed (text: string): boolean {
  if (text.length === 0) return true
  const first = text.charCodeAt(0)
  const last = text.charCodeAt(text.length - 1)
  return first > 0x20 && last > 0x20
}

function clip (text: string): string {
  return text.length > 40 ? text.slice(0, 40) + '…' : text
}

function isNil (tree: XmlTree, p: number): boolean {
  const from = tree.attributesOf(p)
  const to = tree.attributesEnd(p)
  for (let a = from; a < to; a += 2) {
    const n = tree.attributeName(a)
    if (n.localName === 'nil' && n.namespace === XSI_NS) {
      const raw = tree.attributeValue(a)
      const value = trimXmlSpace(raw)
      if (value === 'true' || value === '1') return true
      if (value !== 'false' && value !== '0') {
        throw new InputProblem(`xsi:nil="${clip(raw)}" is not a boolean`, 'xsi:nil is not a boolean')
      }
    }
  }
  return false
}

function textOnly (tree: XmlTree, p: number): string {
  const first = p + 4
  const end = tree.end(p)
  if (first === end) return ''
  // The decoder joins adjacent text, so a child after a text is always an element.
  const element = tree.isText(first) ? tree.next(first) : first
  if (element < end) {
    throw new InputProblem(
      `element ${tree.name(p).name} holds an element (${tree.name(element).name}) where text is due`
    )
  }
  return tree.text(first)
}

/** Adds the path segments of the value being read or written to a problem on its way out. */
export function locate (err: unknown, ...segments: Array<string | number>): unknown {
  if (err instanceof InputProblem) err.segments.unshift(...segments)
  return err
}

/** Reads an element of a shape; of one of `alternatives`' when given, as its `xsi:type` says. */
export function readValue (shape: Shape, tree: XmlTree, p: number, alternatives?: Alternatives): unknown {
  try {
    return alternatives === undefined
      ? readContent(shape, tree, p, shape.nullable)
      : readContent(typeOfElement(alternatives, tree, p), tree, p, alternatives.nullable)
  } catch (err) {
    if (err instanceof InputProblem) {
      const { namespace, localName } = tree.name(p)
      err.elements.push(qnameKey(namespace, localName))
    }
    throw err
  }
}

/**
 * The type of an element that may carry `xsi:type` (XML Schema 1.0 Part 1
 * §3.3.4 clause 4.3): the one it names, which must be the declared type or
 * one derived from it, and not abstract; the declared type when it names none.
 */
function typeOfElement (alternatives: Alternatives, tree: XmlTree, p: number): ObjectShape {
  const named = tree.xsiType(p)
  const declared = alternatives.declared
  let shape = declared
  if (named === null) {
    throw new InputProblem(`the xsi:type of element ${tree.name(p).name} is not a QName whose prefix is declared`)
  }
  if (named !== undefined) {
    const found = alternatives.byType.get(named.namespace)?.get(named.localName)
    const type = declared.xsiType as { name: string, namespace: string }
    if (found === undefined) {
      throw new InputProblem(
        `xsi:type {${named.namespace}}${named.localName} of element ${tree.name(p).name} ` +
        `is not {${type.namespace}}${type.name} or a type derived from it`
      )
    }
    shape = found
  }
  const type = shape.xsiType as { name: string, namespace: string, abstract: boolean }
  if (type.abstract && !isNil(tree, p)) {
    throw new InputProblem(
      `element ${tree.name(p).name} is of the abstract type {${type.namespace}}${type.name}: ` +
      'its xsi:type must name a type derived from it'
    )
  }
  return shape
}

function readContent (shape: Shape, tree: XmlTree, p: number, nullable: boolean): unknown {
  if (isNil(tree, p)) {
    if (!nullable) throw new InputProblem(`element ${tree.name(p).name} is xsi:nil but cannot be null`)
    const end = tree.end(p)
    for (let q = p + 4; q < end; q = tree.next(q)) {
      if (!tree.isText(q) || !isWhitespace(tree.text(q))) {
        throw new InputProblem(`element ${tree.name(p).name} is xsi:nil but not empty`)
      }
    }
    return null
  }
  if (shape.kind === 'scalar') {
    noPlainAttributes(tree, p)
    return scalarContent(shape, tree, p)
  }
  const out: Record<string, unknown> = shape.xsiType === undefined ? {} : { [TYPE_PROPERTY]: shape.xsiType.tag }
  readAttributes(shape, tree, p, out)
  const text = shape.text
  if (text === undefined) {
    const name = tree.name(p).name
    const end = tree.end(p)
    startChildren(shape, out)
    for (let q = p + 4; q < end; q = tree.next(q)) readChild(shape, tree, q, out, false, name)
    return out
  }
  if (shape.mixed) {
    // Mixed content: the text between the children, joined, is the text property; white space alone is no text.
    const name = tree.name(p).name
    const end = tree.end(p)
    let joined = ''
    startChildren(shape, out)
    for (let q = p + 4; q < end; q = tree.next(q)) {
      if (tree.isText(q)) joined += tree.text(q); else readChild(shape, tree, q, out, false, name)
    }
    if (!isWhitespace(joined)) out[text.property] = joined
    return out
  }
  try {
    out[text.property] = scalarContent(text.shape as ScalarShape, tree, p)
  } catch (err) {
    throw locate(err, text.property)
  }
  return out
}

/** The items of an xs:list: its text split at white space. */
function readList (shape: ScalarShape, text: string): unknown[] {
  const list: unknown[] = []
  for (const item of text.split(/[ \t\r\n]+/)) {
    if (item === '') continue
    try {
      list.push(readScalarOf(shape, item))
    } catch (err) {
      throw locate(err, list.length)
    }
  }
  return list
}

/**
 * An element that declares no attributes takes none without a namespace (those of other namespaces are passed
 * over).
 */
function noPlainAttributes (tree: XmlTree, p: number): void {
  const from = tree.attributesOf(p)
  const to = tree.attributesEnd(p)
  for (let a = from; a < to; a += 2) {
    const n = tree.attributeName(a)
    if (n.namespace === '') throw new InputProblem(`unexpected attribute ${n.name} on ${tree.name(p).name}`)
  }
}

function readAttributes (shape: ObjectShape, tree: XmlTree, p: number, out: Record<string, unknown>): void {
  const from = tree.attributesOf(p)
  const to = tree.attributesEnd(p)
  for (let a = from; a < to; a += 2) {
    const n = tree.attributeName(a)
    if (n.namespace === XSI_NS || n.namespace === XML_NS) continue
    const field = fieldNamed(shape.attributesByName, n.namespace, n.localName)
    if (field === undefined) {
      // Attributes in other namespaces are what clients and intermediaries add; an unknown plain one is a mistake,
      // unless the schema takes any (xs:anyAttribute).
      if (n.namespace === '' && !shape.anyAttribute) {
        throw new InputProblem(`unexpected attribute ${n.name} on ${tree.name(p).name}`)
      }
      continue
    }
    try {
      out[field.property] = readAttributeValue(field, tree.attributeValue(a))
    } catch (err) {
      throw locate(err, field.property)
    }
  }
}

/** The value of an attribute's field: its items for a list. */
export function readAttributeValue (field: Field, value: string): unknown {
  const scalar = field.shape as ScalarShape
  return field.list ? readList(scalar, value) : readScalarOf(scalar, value)
}

/**
 * A child element's field. A message's names are entries of its tree, so the
 * field found is kept on the entry, for the next element of that name in the
 * same shape (records repeat their names); else a few fields are compared in
 * turn, more are looked up by name.
 */
function findField (shape: ObjectShape, child: TreeName): Field | undefined {
  if (child.memoShape === shape) return child.memoField as Field | undefined
  let found: Field | undefined
  const elements = shape.elements
  if (elements.length > 8) {
    found = fieldNamed(shape.elementsByName, child.namespace, child.localName)
  } else {
    for (let i = 0; i < elements.length; i++) {
      const field = elements[i]
      if (field.name === child.localName && field.namespace === child.namespace) {
        found = field
        break
      }
    }
  }
  child.memoShape = shape
  child.memoField = found
  return found
}

/** Whether an `xml.any` field (xs:any) admits an element of this namespace. */
export function admits (any: Field, namespace: string): boolean {
  const wildcard = any.wildcard
  return wildcard === undefined || wildcard.namespaces.has(namespace) === wildcard.allow
}

/** Prepares `out` for an object's child elements: its arrays start empty. */
export function startChildren (shape: ObjectShape, out: Record<string, unknown>): void {
  for (const field of shape.elements) {
    if (field.array && !field.wrapped) out[field.property] = []
  }
  const any = shape.any
  if (any !== undefined) out[any.property] = []
}

/**
 * Whether the element at `q` is one of a field of `shape` that cannot be
 * null, sent empty (or with white space only) and `xsi:nil` true: how Metro
 * sends an unset header parameter. Header blocks take it as absent
 * (docs/protocol.md "Be liberal").
 */
export function isEmptyNil (shape: ObjectShape, tree: XmlTree, q: number): boolean {
  const field = findField(shape, tree.name(q))
  if (field === undefined || field.shape.nullable) return false
  let nil: boolean
  try {
    nil = isNil(tree, q)
  } catch (err) {
    throw locate(err, field.property)
  }
  if (!nil) return false
  const first = q + 4
  const end = tree.end(q)
  return first === end || (tree.isText(first) && tree.next(first) === end && isWhitespace(tree.text(first)))
}

/**
 * Reads one child node of an object into `out` (children come in any order).
 * Property names come from the schema, where "__proto__" is refused
 * (lib/codec/shapes.ts): plain assignment is safe. `lenient` (header blocks) passes
 * over elements the shape does not name; otherwise they are refused.
 */
export function readChild (
  shape: ObjectShape,
  tree: XmlTree,
  q: number,
  out: Record<string, unknown>,
  lenient: boolean,
  parent: string
): void {
  if (tree.isText(q)) {
    if (!isWhitespace(tree.text(q))) throw new InputProblem(`text where elements are due in ${parent}`)
    return
  }
  const child = tree.name(q)
  const field = findField(shape, child)
  if (field === undefined) {
    const any = shape.any
    // An element the wildcard's namespaces do not admit is no more expected than one of no field.
    if (any !== undefined && admits(any, child.namespace)) (out[any.property] as XmlElement[]).push(elementAt(tree, q))
    else if (!lenient) throw new InputProblem(`unexpected element {${child.namespace}}${child.localName} in ${parent}`)
    return
  }
  const property = field.property
  if (field.array && !field.wrapped) {
    const list = out[property] as unknown[]
    try {
      list.push(readFieldElement(field, tree, q))
    } catch (err) {
      throw locate(err, property, list.length)
    }
    return
  }
  if (Object.hasOwn(out, property)) throw new InputProblem(`element ${child.name} appears more than once in ${parent}`)
  try {
    out[property] = readFieldElement(field, tree, q)
  } catch (err) {
    throw locate(err, property)
  }
}

/** The value one element of a field holds: the whole value, or one item of an unwrapped array. */
export function readFieldElement (field: Field, tree: XmlTree, q: number): unknown {
  if (field.wrapped) return readWrapped(field, tree, q)
  return field.list ? readListElement(field, tree, q) : readValue(field.shape, tree, q, field.alternatives)
}

function readListElement (field: Field, tree: XmlTree, p: number): unknown[] | null {
  if (isNil(tree, p)) {
    if (!field.shape.nullable) throw new InputProblem(`element ${tree.name(p).name} is xsi:nil but cannot be null`)
    if (!isWhitespace(textOnly(tree, p))) {
      throw new InputProblem(`element ${tree.name(p).name} is xsi:nil but not empty`)
    }
    return null
  }
  noPlainAttributes(tree, p)
  return readList(field.shape as ScalarShape, textOnly(tree, p))
}

function readWrapped (field: Field, tree: XmlTree, p: number): unknown[] {
  const wrapper = tree.name(p).name
  if (isNil(tree, p)) throw new InputProblem(`element ${wrapper} is xsi:nil but cannot be null`)
  noPlainAttributes(tree, p)
  const list: unknown[] = []
  const end = tree.end(p)
  for (let q = p + 4; q < end; q = tree.next(q)) {
    if (tree.isText(q)) {
      if (!isWhitespace(tree.text(q))) throw new InputProblem(`text where elements are due in ${wrapper}`)
      continue
    }
    const child = tree.name(q)
    if (child.localName !== field.itemName || child.namespace !== field.itemNamespace) {
      throw new InputProblem(`unexpected element {${child.namespace}}${child.localName} in ${wrapper}`)
    }
    try {
      list.push(readValue(field.shape, tree, q, field.alternatives))
    } catch (err) {
      throw locate(err, list.length)
    }
  }
  return list
}

/** Reads an operation element (or any element) of an object shape: the element at `p` of `tree`. */
export function readElement (shape: ObjectShape, tree: XmlTree, p: number): Record<string, unknown> {
  const value = readValue(shape, tree, p)
  if (value === null) throw new InputProblem(`element ${tree.name(p).name} cannot be null`)
  return value as Record<string, unknown>
}
