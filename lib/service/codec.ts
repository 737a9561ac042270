/**
 * Stage 5a: the codec. Reads an operation element (or the header blocks) into
 * a plain value, following the shape read from its JSON Schema
 * (lib/service/schema.ts), and writes a value back as XML through writers compiled
 * once per schema: no DOM is built either way.
 *
 * Reading is strict about values (text where a number is due, an integer
 * outside the safe range, NaN or INF: a Sender fault) and liberal about what
 * real clients add (`xsi:type`, foreign attributes, element order).
 */
import { SOAP_ERR_OUTPUT_INVALID } from '../errors'
import { XML_NS, XSI_NS, qnameKey } from '../namespaces'
import { fieldNamed, type Field, type ObjectShape, type ScalarShape, type ScalarType, type Shape } from './schema'
import { escapeAttribute, escapeXml } from '../xml/escape'
import { elementAt, type TreeName, type XmlTree } from '../xml/tree'
import type { XmlElement } from '../xml/element'
import { isNCName, isWhitespace, trimXmlSpace } from '../xml/chars'

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
function shortDecimal (text: string, fraction: boolean): number | undefined {
  const length = text.length
  let i = 0
  let code = text.charCodeAt(0)
  const negative = code === 0x2d
  if (negative || code === 0x2b) code = text.charCodeAt(++i)
  let digits = 0
  let mantissa = 0
  let point = -1
  for (; i < length; code = text.charCodeAt(++i)) {
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
    if (!Number.isSafeInteger(n)) throw new InputProblem(`${clip(value)} is outside the safe integer range`, 'outside the safe integer range')
    return n === 0 ? 0 : n
  }
  if (type === 'number') {
    // xs:double's INF, -INF and NaN have no JSON value: refused, never coerced.
    if (!DOUBLE.test(value)) throw new InputProblem(`"${clip(value)}" is not a finite number`, 'not a finite number')
    const n = Number(value)
    if (!Number.isFinite(n)) throw new InputProblem(`${clip(value)} is outside the range of a double`, 'outside the range of a double')
    return n
  }
  if (value === 'true' || value === '1') return true
  if (value === 'false' || value === '0') return false
  throw new InputProblem(`"${clip(value)}" is not a boolean`, 'not a boolean')
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
      if (value !== 'false' && value !== '0') throw new InputProblem(`xsi:nil="${clip(raw)}" is not a boolean`, 'xsi:nil is not a boolean')
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
  if (element < end) throw new InputProblem(`element ${tree.name(p).name} holds an element (${tree.name(element).name}) where text is due`)
  return tree.text(first)
}

/** Adds the path segments of the value being read or written to a problem on its way out. */
export function locate (err: unknown, ...segments: Array<string | number>): unknown {
  if (err instanceof InputProblem) err.segments.unshift(...segments)
  return err
}

function readValue (shape: Shape, tree: XmlTree, p: number): unknown {
  try {
    return readContent(shape, tree, p)
  } catch (err) {
    if (err instanceof InputProblem) {
      const { namespace, localName } = tree.name(p)
      err.elements.push(qnameKey(namespace, localName))
    }
    throw err
  }
}

function readContent (shape: Shape, tree: XmlTree, p: number): unknown {
  if (isNil(tree, p)) {
    if (!shape.nullable) throw new InputProblem(`element ${tree.name(p).name} is xsi:nil but cannot be null`)
    const end = tree.end(p)
    for (let q = p + 4; q < end; q = tree.next(q)) {
      if (!tree.isText(q) || !isWhitespace(tree.text(q))) throw new InputProblem(`element ${tree.name(p).name} is xsi:nil but not empty`)
    }
    return null
  }
  if (shape.kind === 'scalar') {
    noPlainAttributes(tree, p)
    return readScalar(shape.type, textOnly(tree, p))
  }
  const out: Record<string, unknown> = {}
  readAttributes(shape, tree, p, out)
  const text = shape.text
  if (text === undefined) {
    const name = tree.name(p).name
    const end = tree.end(p)
    startChildren(shape, out)
    for (let q = p + 4; q < end; q = tree.next(q)) readChild(shape, tree, q, out, false, name)
    return out
  }
  try {
    out[text.property] = readScalar((text.shape as ScalarShape).type, textOnly(tree, p))
  } catch (err) {
    throw locate(err, text.property)
  }
  return out
}

/** The items of an xs:list: its text split at white space. */
function readList (type: ScalarType, text: string): unknown[] {
  const list: unknown[] = []
  for (const item of text.split(/[ \t\r\n]+/)) {
    if (item === '') continue
    try {
      list.push(readScalar(type, item))
    } catch (err) {
      throw locate(err, list.length)
    }
  }
  return list
}

/** An element that declares no attributes takes none without a namespace (those of other namespaces are passed over). */
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
      if (n.namespace === '' && !shape.anyAttribute) throw new InputProblem(`unexpected attribute ${n.name} on ${tree.name(p).name}`)
      continue
    }
    const type = (field.shape as ScalarShape).type
    const value = tree.attributeValue(a)
    try {
      out[field.property] = field.list ? readList(type, value) : readScalar(type, value)
    } catch (err) {
      throw locate(err, field.property)
    }
  }
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

/** Prepares `out` for an object's child elements: its arrays start empty. */
export function startChildren (shape: ObjectShape, out: Record<string, unknown>): void {
  for (const field of shape.elements) {
    if (field.array && !field.wrapped && !field.list) out[field.property] = []
  }
  const any = shape.any
  if (any !== undefined) out[any.property] = []
}

/**
 * Reads one child node of an object into `out` (children come in any order).
 * Property names come from the schema, where "__proto__" is refused
 * (lib/service/schema.ts): plain assignment is safe. `lenient` (header blocks) passes
 * over elements the shape does not name; otherwise they are refused.
 */
export function readChild (shape: ObjectShape, tree: XmlTree, q: number, out: Record<string, unknown>, lenient: boolean, parent: string): void {
  if (tree.isText(q)) {
    if (!isWhitespace(tree.text(q))) throw new InputProblem(`text where elements are due in ${parent}`)
    return
  }
  const child = tree.name(q)
  const field = findField(shape, child)
  if (field === undefined) {
    const any = shape.any
    if (any !== undefined) (out[any.property] as XmlElement[]).push(elementAt(tree, q))
    else if (!lenient) throw new InputProblem(`unexpected element {${child.namespace}}${child.localName} in ${parent}`)
    return
  }
  const property = field.property
  if (field.array && !field.wrapped && !field.list) {
    const list = out[property] as unknown[]
    try {
      list.push(readValue(field.shape, tree, q))
    } catch (err) {
      throw locate(err, property, list.length)
    }
    return
  }
  if (Object.hasOwn(out, property)) throw new InputProblem(`element ${child.name} appears more than once in ${parent}`)
  try {
    out[property] = field.wrapped ? readWrapped(field, tree, q) : field.list ? readListElement(field, tree, q) : readValue(field.shape, tree, q)
  } catch (err) {
    throw locate(err, property)
  }
}

function readListElement (field: Field, tree: XmlTree, p: number): unknown[] {
  if (isNil(tree, p)) throw new InputProblem(`element ${tree.name(p).name} is xsi:nil but cannot be null`)
  noPlainAttributes(tree, p)
  return readList((field.shape as ScalarShape).type, textOnly(tree, p))
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
      list.push(readValue(field.shape, tree, q))
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

// ------------------------------------------------------------ writing ---

// Characters XML 1.0 cannot carry (see lib/soap/writer.ts): a value holding one is refused, never mangled.
// eslint-disable-next-line no-control-regex -- matching those characters is the point
const INVALID_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/u
// Anything a string may need looked at: escaping, a forbidden character, or a surrogate (paired or not).
// Most strings hold none, and are written as they are after this one scan.
// eslint-disable-next-line no-control-regex -- matching those characters is the point
const SPECIAL = /[&<>"\t\n\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/

/** A value the writer cannot write; its path is built on the way out, as for reading. */
class OutputProblem extends InputProblem {}

type Writer = (value: unknown) => string

function writeScalar (type: ScalarType, value: unknown, attribute: boolean): string {
  switch (type) {
    case 'string':
      if (typeof value !== 'string') throw new OutputProblem('must be a string')
      if (!SPECIAL.test(value)) return value
      if (INVALID_CHAR.test(value)) throw new OutputProblem('holds a character XML 1.0 cannot carry')
      return attribute ? escapeAttribute(value) : escapeXml(value)
    case 'integer':
      if (!Number.isSafeInteger(value)) throw new OutputProblem('must be an integer in the safe range')
      return String(value)
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw new OutputProblem('must be a finite number')
      return Object.is(value, -0) ? '-0' : String(value)
    default:
      if (typeof value !== 'boolean') throw new OutputProblem('must be a boolean')
      return value ? 'true' : 'false'
  }
}

/** Namespace → prefix for everything one top-level element writes. */
export type Prefixes = ReadonlyMap<string, string>

function qualified (namespace: string, name: string, prefixes: Prefixes): string {
  return namespace === '' ? name : `${prefixes.get(namespace) as string}:${name}`
}

function compileValue (shape: Shape, tag: string, prefixes: Prefixes): Writer {
  const open = `<${tag}>`
  const close = `</${tag}>`
  const nil = `<${tag} xsi:nil="true"/>`
  const nullable = shape.nullable
  if (shape.kind === 'scalar') {
    const type = shape.type
    return (value) => {
      if (value !== null) return open + writeScalar(type, value, false) + close
      if (nullable) return nil
      throw new OutputProblem('cannot be null')
    }
  }
  const { attributes, children } = compileContent(shape, prefixes)
  const start = `<${tag}`
  return (value) => {
    if (value === null) {
      if (nullable) return nil
      throw new OutputProblem('cannot be null')
    }
    return element(start, attributes, children, close, value)
  }
}

/**
 * Writes one element of an object shape: the start tag and its attributes,
 * then its children, or `/>` when there are none. The pieces are only ever
 * concatenated (never searched or sliced), so V8 joins them once, at the end.
 */
function element (start: string, attributes: Writer, children: Writer, close: string, value: unknown): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new OutputProblem('must be an object')
  const inner = children(value)
  return inner === '' ? start + attributes(value) + '/>' : start + attributes(value) + '>' + inner + close
}

/** An xs:list: its items written by their type, separated by spaces. */
function writeList (type: ScalarType, value: unknown, attribute: boolean): string {
  if (!Array.isArray(value)) throw new OutputProblem('must be an array')
  let out = ''
  for (let i = 0; i < value.length; i++) {
    let item: string
    try {
      item = writeScalar(type, value[i], attribute)
      if (item === '' || /[ \t\r\n]/.test(item)) throw new OutputProblem('cannot be empty or hold white space: it is an item of a list')
    } catch (err) {
      throw locate(err, i)
    }
    out += i === 0 ? item : ' ' + item
  }
  return out
}

/** Raw elements (`xml.any`), each declaring the namespaces its own names use. */
function writeRaw (value: unknown): string {
  if (!Array.isArray(value)) throw new OutputProblem('must be an array')
  let out = ''
  for (let i = 0; i < value.length; i++) {
    try {
      out += rawElement(value[i], new Map())
    } catch (err) {
      throw locate(err, i)
    }
  }
  return out
}

function isRawElement (value: unknown): value is XmlElement {
  const e = value as XmlElement
  return typeof e === 'object' && e !== null && typeof e.localName === 'string' && typeof e.namespace === 'string' &&
    typeof e.prefix === 'string' && Array.isArray(e.attributes) && Array.isArray(e.children)
}

const XMLNS_PREFIX = /^xmlns$/i

/** One raw element: `scope` maps the prefixes declared by its ancestors (within the raw tree) to their namespaces. */
function rawElement (value: unknown, scope: ReadonlyMap<string, string>): string {
  if (!isRawElement(value)) throw new OutputProblem('must be an element: { name, prefix, localName, namespace, attributes, children }')
  if (!isNCName(value.localName) || (value.prefix !== '' && (!isNCName(value.prefix) || XMLNS_PREFIX.test(value.prefix)))) throw new OutputProblem('has a name that is not an XML name')
  const own = new Map(scope)
  let declarations = ''
  const declare = (prefix: string, namespace: string): void => {
    if (prefix === 'xml' || own.get(prefix) === namespace || (prefix === '' && namespace === '' && !own.has(''))) return
    if (prefix !== '' && namespace === '') throw new OutputProblem(`prefix ${prefix} needs a namespace`)
    own.set(prefix, namespace)
    declarations += (prefix === '' ? ' xmlns="' : ` xmlns:${prefix}="`) + escapeAttribute(namespace) + '"'
  }
  declare(value.prefix, value.namespace)
  let attributes = ''
  for (const a of value.attributes) {
    if (typeof a !== 'object' || a === null || typeof a.localName !== 'string' || !isNCName(a.localName) || typeof a.value !== 'string' || typeof a.namespace !== 'string' || typeof a.prefix !== 'string') throw new OutputProblem('has an attribute that is not { name, prefix, localName, namespace, value }')
    if (a.namespace !== '' && (a.prefix === '' || !isNCName(a.prefix))) throw new OutputProblem(`attribute ${a.localName} is in a namespace and needs a prefix`)
    if (a.namespace !== '') declare(a.prefix, a.namespace)
    attributes += ` ${a.namespace === '' ? '' : a.prefix + ':'}${a.localName}="${writeScalar('string', a.value, true)}"`
  }
  const tag = value.prefix === '' ? value.localName : `${value.prefix}:${value.localName}`
  let inner = ''
  for (const child of value.children) inner += typeof child === 'string' ? writeScalar('string', child, false) : rawElement(child, own)
  return inner === '' ? `<${tag}${declarations}${attributes}/>` : `<${tag}${declarations}${attributes}>${inner}</${tag}>`
}

function compileField (field: Field, prefixes: Prefixes): Writer {
  const tag = qualified(field.namespace, field.name, prefixes)
  if (field.list) {
    const type = (field.shape as ScalarShape).type
    return (value) => `<${tag}>${writeList(type, value, false)}</${tag}>`
  }
  if (!field.array) return compileValue(field.shape, tag, prefixes)
  const item = compileValue(field.shape, qualified(field.itemNamespace, field.itemName, prefixes), prefixes)
  const open = field.wrapped ? `<${tag}>` : ''
  const close = field.wrapped ? `</${tag}>` : ''
  return (value) => {
    if (!Array.isArray(value)) throw new OutputProblem('must be an array')
    let out = open
    let i = 0
    try {
      for (; i < value.length; i++) out += item(value[i])
    } catch (err) {
      throw locate(err, i)
    }
    return out + close
  }
}

/** The writers of an object's attributes and of its child elements, each given the object. */
function compileContent (shape: ObjectShape, prefixes: Prefixes): { attributes: Writer, children: Writer } {
  const attributes = shape.attributes.map((field) => ({
    property: field.property,
    start: ` ${qualified(field.namespace, field.name, prefixes)}="`,
    type: (field.shape as ScalarShape).type,
    list: field.list
  }))
  const elements = shape.elements.map((field) => ({ property: field.property, write: compileField(field, prefixes) }))
  if (shape.any !== undefined) elements.push({ property: shape.any.property, write: writeRaw })
  const text = shape.text
  if (text !== undefined) {
    const type = (text.shape as ScalarShape).type
    elements.push({ property: text.property, write: (value) => writeScalar(type, value, false) })
  }
  return {
    attributes (value) {
      const object = value as Record<string, unknown>
      let out = ''
      for (const a of attributes) {
        const v = Object.hasOwn(object, a.property) ? object[a.property] : undefined
        if (v === undefined) continue
        try {
          out += a.start + (a.list ? writeList(a.type, v, true) : writeScalar(a.type, v, true)) + '"'
        } catch (err) {
          throw locate(err, a.property)
        }
      }
      return out
    },
    children (value) {
      const object = value as Record<string, unknown>
      let out = ''
      for (const e of elements) {
        const v = Object.hasOwn(object, e.property) ? object[e.property] : undefined
        if (v === undefined) continue
        try {
          out += e.write(v)
        } catch (err) {
          throw locate(err, e.property)
        }
      }
      return out
    }
  }
}

/**
 * Compiles the writer of one top-level element (an operation's response, a
 * fault's detail entry): its start tag declares every namespace the tree uses.
 * Throws SOAP_ERR_OUTPUT_INVALID, naming the value's path, for a value the
 * schema's XML cannot carry.
 */
export function compileElement (shape: ObjectShape, name: string, namespace: string, prefixes: Prefixes, xsi: boolean): (value: unknown) => string {
  const tag = qualified(namespace, name, prefixes)
  let start = `<${tag}`
  for (const [uri, prefix] of prefixes) start += ` xmlns:${prefix}="${escapeAttribute(uri)}"`
  if (xsi) start += ` xmlns:xsi="${XSI_NS}"`
  const { attributes, children } = compileContent(shape, prefixes)
  const close = `</${tag}>`
  return (value) => {
    try {
      return element(start, attributes, children, close, value)
    } catch (err) {
      throw err instanceof OutputProblem ? new SOAP_ERR_OUTPUT_INVALID(err.path, err.message) : err
    }
  }
}
