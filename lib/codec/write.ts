/**
 * Stage 6c: the codec, writing. A value written as XML by writers compiled
 * once per top-level element from its shape (lib/codec/shapes.ts): the
 * pieces are only concatenated, and no DOM is built. A shape that contains
 * itself is compiled once and called again, to any depth the value has.
 * These writers interpret the shape; they are the reference and the error
 * path of the code generated from it (write-compiled.ts), which
 * compileElement() writes with.
 */
import { SOAP_ERR_OUTPUT_INVALID } from '../errors'
import { XSI_NS } from '../namespaces'
import {
  TYPE_PROPERTY,
  typesOf,
  type Alternatives,
  type BinaryEncoding,
  type Field,
  type ObjectShape,
  type ScalarShape,
  type ScalarType,
  type Shape,
  type XsiTypeName
} from './shapes'
import { escapeAttribute, escapeXml } from '../xml/escape'
import type { XmlElement } from '../xml/element'
import { disallowedAt, FLAT_RUN, flattened, isNCName } from '../xml/chars'
import { admits, InputProblem, locate } from './read'
import type { XopParts } from '../soap/xop-write'
import { compileWriter, type AttributePart, type ElementPart, type Parts, type Writer } from './write-compiled'
import { SPECIAL } from './write-text'

/** A value the writer cannot write; its path is built on the way out, as for reading. */
class OutputProblem extends InputProblem {}

/** A string as element content, or (`attribute`) as an attribute value. */
function writeString (value: unknown, attribute: boolean): string {
  if (typeof value !== 'string') throw new OutputProblem('must be a string')
  if (!SPECIAL.test(value)) return value
  // Characters XML 1.0 cannot carry: a value holding one is refused, never mangled.
  if (disallowedAt(value) !== -1) throw new OutputProblem('holds a character XML 1.0 cannot carry')
  return attribute ? escapeAttribute(value) : escapeXml(value)
}

function writeInteger (value: unknown): string {
  if (!Number.isSafeInteger(value)) throw new OutputProblem('must be an integer in the safe range')
  return String(value)
}

function writeNumber (value: unknown): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new OutputProblem('must be a finite number')
  return Object.is(value, -0) ? '-0' : String(value)
}

function writeBoolean (value: unknown): string {
  if (typeof value !== 'boolean') throw new OutputProblem('must be a boolean')
  return value ? 'true' : 'false'
}

const writeText: Writer = (value) => writeString(value, false)
const writeValue: Writer = (value) => writeString(value, true)

/** The writer of a scalar type's values, as element content or (`attribute`) as attribute values: chosen once. */
function scalarWriter (type: ScalarType, attribute: boolean): Writer {
  switch (type) {
    case 'string': return attribute ? writeValue : writeText
    case 'integer': return writeInteger
    case 'number': return writeNumber
    default: return writeBoolean
  }
}

/**
 * A binary value's text, base64 or upper-case hex (XML Schema Part 2
 * §3.2.16, §3.2.15, their canonical forms): the one place the codec turns
 * bytes into text (a message whose parts carry them, MTOM, writes an
 * xop:Include instead). Bytes are a Buffer or any Uint8Array; a string is
 * refused, whatever it holds: nothing tells base64 text from text to encode.
 */
export function writeBinary (encoding: BinaryEncoding, value: unknown): string {
  if (!(value instanceof Uint8Array)) {
    const given = typeof value === 'string' ? ', not a string' : ''
    throw new OutputProblem(`must be bytes (a Buffer or Uint8Array)${given}`)
  }
  const bytes = Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength)
  return encoding === 'base64' ? bytes.toString('base64') : bytes.toString('hex').toUpperCase()
}

/** A scalar of a shape as text: a binary one's bytes (writeBinary()), any other by its type. */
function writeScalarOf (shape: ScalarShape, value: unknown, attribute: boolean): string {
  const binary = shape.binary
  return binary === undefined ? scalarWriter(shape.type, attribute)(value) : writeBinary(binary, value)
}

/**
 * The parts of the MTOM reply being written, while writingParts() runs (the
 * writers are synchronous: no other reply's writing comes in between);
 * undefined otherwise.
 */
let xop: XopParts | undefined

/** Runs `write` with the base64 values of `threshold` bytes or more handed to `parts` (docs/binary.md "MTOM"). */
export function writingParts<T> (parts: XopParts, write: () => T): T {
  xop = parts
  try {
    return write()
  } finally {
    xop = undefined
  }
}

/** An element's content of a scalar shape: in an MTOM reply, a large base64 value's xop:Include. */
function writeContentOf (shape: ScalarShape, value: unknown): string {
  const parts = xop
  if (parts !== undefined && shape.binary === 'base64' && value instanceof Uint8Array &&
    value.byteLength >= parts.threshold) return parts.include(value)
  return writeScalarOf(shape, value, false)
}

/** Namespace → prefix for everything one top-level element writes. */
export type Prefixes = ReadonlyMap<string, string>

function qualified (namespace: string, name: string, prefixes: Prefixes): string {
  return namespace === '' ? name : `${prefixes.get(namespace) as string}:${name}`
}

/**
 * The content writers of each object shape one top-level element writes,
 * one per shape, each made when first used: a contract's operations reach
 * many types their answers never hold (Exchange's reach hundreds), and a
 * shape that contains itself finds its own writers.
 */
type Contents = Map<ObjectShape, Content>

/**
 * Writers of an object's attributes and child elements, and the parts they write (what the compiled writer writes
 * too); until first used, ones that make the real writers and take their place.
 */
interface Content { attributes: Writer, children: Writer, parts: () => Parts }

function compileValue (shape: Shape, tag: string, prefixes: Prefixes, contents: Contents): Writer {
  const open = `<${tag}>`
  const close = `</${tag}>`
  const nil = `<${tag} xsi:nil="true"/>`
  const nullable = shape.nullable
  if (shape.kind === 'scalar') {
    // Only a base64 value can be an MTOM part (writeContentOf()); any other is written by its type's writer.
    const text: Writer = shape.binary === undefined
      ? scalarWriter(shape.type, false)
      : (value) => writeContentOf(shape, value)
    return (value) => {
      if (value !== null) return open + text(value) + close
      if (nullable) return nil
      throw new OutputProblem('cannot be null')
    }
  }
  const content = compileContent(shape, prefixes, contents)
  const start = `<${tag}`
  return (value) => {
    if (value === null) {
      if (nullable) return nil
      throw new OutputProblem('cannot be null')
    }
    return element(start, content.attributes, content.children, close, value)
  }
}

/**
 * An element that may carry `xsi:type`: the value's `$type` chooses its
 * type, and any other than the declared one is named by `xsi:type`.
 */
function compileTyped (alternatives: Alternatives, tag: string, prefixes: Prefixes, contents: Contents): Writer {
  const close = `</${tag}>`
  const nil = `<${tag} xsi:nil="true"/>`
  const writers = new Map<string, { start: string, content: Content, type: XsiTypeName }>()
  for (const [name, shape] of alternatives.byTag) {
    const type = shape.xsiType as XsiTypeName
    const start = shape === alternatives.declared
      ? `<${tag}`
      : `<${tag} xsi:type="${qualified(type.namespace, type.name, prefixes)}"`
    writers.set(name, { start, content: compileContent(shape, prefixes, contents), type })
  }
  const names = [...writers.keys()].join(', ')
  return (value) => {
    if (value === null) {
      if (alternatives.nullable) return nil
      throw new OutputProblem('cannot be null')
    }
    if (typeof value !== 'object' || Array.isArray(value)) throw new OutputProblem('must be an object')
    const name = (value as Record<string, unknown>)[TYPE_PROPERTY]
    const writer = typeof name === 'string' ? writers.get(name) : undefined
    if (writer === undefined) {
      throw locate(new OutputProblem(`must name the element's type or one derived from it (${names})`), TYPE_PROPERTY)
    }
    if (writer.type.abstract) {
      const problem = new OutputProblem(
        `names the abstract type ${writer.type.name}: a type derived from it must stand in`
      )
      throw locate(problem, TYPE_PROPERTY)
    }
    return element(writer.start, writer.content.attributes, writer.content.children, close, value)
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
function writeList (shape: ScalarShape, value: unknown, attribute: boolean): string {
  if (!Array.isArray(value)) throw new OutputProblem('must be an array')
  let out = ''
  for (let i = 0; i < value.length; i++) {
    let item: string
    try {
      item = writeScalarOf(shape, value[i], attribute)
      if (item === '' || /[ \t\r\n]/.test(item)) {
        throw new OutputProblem('cannot be empty or hold white space: it is an item of a list')
      }
    } catch (err) {
      throw locate(err, i)
    }
    out += i === 0 ? item : ' ' + item
  }
  return out
}

/** Raw elements (`xml.any`), each declaring the namespaces its own names use. */
function writeRaw (field: Field, value: unknown): string {
  if (!Array.isArray(value)) throw new OutputProblem('must be an array')
  let out = ''
  for (let i = 0; i < value.length; i++) {
    try {
      const item: unknown = value[i]
      if (isRawElement(item) && !admits(field, item.namespace)) {
        throw new OutputProblem(`is in namespace "${item.namespace}", which the wildcard (xs:any) does not admit`)
      }
      out += rawElement(item, new Map())
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
  if (!isRawElement(value)) {
    throw new OutputProblem('must be an element: { name, prefix, localName, namespace, attributes, children }')
  }
  const badPrefix = value.prefix !== '' && (!isNCName(value.prefix) || XMLNS_PREFIX.test(value.prefix))
  if (!isNCName(value.localName) || badPrefix) {
    throw new OutputProblem('has a name that is not an XML name')
  }
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
    if (
      typeof a !== 'object' || a === null ||
      typeof a.localName !== 'string' || !isNCName(a.localName) ||
      typeof a.value !== 'string' || typeof a.namespace !== 'string' || typeof a.prefix !== 'string'
    ) {
      throw new OutputProblem('has an attribute that is not { name, prefix, localName, namespace, value }')
    }
    if (a.namespace !== '' && (a.prefix === '' || !isNCName(a.prefix))) {
      throw new OutputProblem(`attribute ${a.localName} is in a namespace and needs a prefix`)
    }
    if (a.namespace !== '') declare(a.prefix, a.namespace)
    attributes += ` ${a.namespace === '' ? '' : a.prefix + ':'}${a.localName}="${writeString(a.value, true)}"`
  }
  const tag = value.prefix === '' ? value.localName : `${value.prefix}:${value.localName}`
  let inner = ''
  for (const child of value.children) {
    inner += typeof child === 'string' ? writeString(child, false) : rawElement(child, own)
  }
  return inner === ''
    ? `<${tag}${declarations}${attributes}/>`
    : `<${tag}${declarations}${attributes}>${inner}</${tag}>`
}

/** An element holding an xs:list (`xml.list`): nil for `null` when the list is nullable. */
function compileList (field: Field, tag: string): Writer {
  const shape = field.shape as ScalarShape
  const nil = shape.nullable ? `<${tag} xsi:nil="true"/>` : undefined
  return (value) => value === null && nil !== undefined ? nil : `<${tag}>${writeList(shape, value, false)}</${tag}>`
}

function compileField (field: Field, prefixes: Prefixes, contents: Contents): Writer {
  const tag = qualified(field.namespace, field.name, prefixes)
  const alternatives = field.alternatives
  const compileOne = (t: string): Writer => {
    if (field.list) return compileList(field, t)
    return alternatives === undefined
      ? compileValue(field.shape, t, prefixes, contents)
      : compileTyped(alternatives, t, prefixes, contents)
  }
  if (!field.array) return compileOne(tag)
  const itemTag = qualified(field.itemNamespace, field.itemName, prefixes)
  const item = compileOne(itemTag)
  const open = field.wrapped ? `<${tag}>` : ''
  const close = field.wrapped ? `</${tag}>` : ''
  return (value) => {
    if (!Array.isArray(value)) throw new OutputProblem('must be an array')
    let out = open
    // The items of the last stretch: made one string every FLAT_RUN characters (see flattened()).
    let run = ''
    let i = 0
    try {
      for (; i < value.length; i++) {
        run += item(value[i])
        if (run.length > FLAT_RUN) {
          out += flattened(run)
          run = ''
        }
      }
    } catch (err) {
      throw locate(err, i)
    }
    return out + run + close
  }
}

/** The writers of an object's attributes and of its child elements, each given the object. */
function compileContent (shape: ObjectShape, prefixes: Prefixes, contents: Contents): Content {
  const known = contents.get(shape)
  if (known !== undefined) return known
  let built: Content | undefined
  const build = (): Content => {
    if (built === undefined) {
      built = buildContent(shape, prefixes, contents)
      content.attributes = built.attributes
      content.children = built.children
      content.parts = built.parts
    }
    return built
  }
  const content: Content = {
    attributes: (value) => build().attributes(value),
    children: (value) => build().children(value),
    parts: () => build().parts()
  }
  contents.set(shape, content)
  return content
}

function buildContent (shape: ObjectShape, prefixes: Prefixes, contents: Contents): Content {
  const attributes = shape.attributes.map((field): AttributePart => {
    const scalar = field.shape as ScalarShape
    const write: Writer = field.list
      ? (value) => writeList(scalar, value, true)
      : scalar.binary === undefined ? scalarWriter(scalar.type, true) : (value) => writeScalarOf(scalar, value, true)
    return { field, start: ` ${qualified(field.namespace, field.name, prefixes)}="`, write }
  })
  const part = (field: Field, kind: ElementPart['kind'], write: Writer): ElementPart => {
    const tag = qualified(field.namespace, field.name, prefixes)
    return { field, kind, tag, itemTag: qualified(field.itemNamespace, field.itemName, prefixes), write }
  }
  const elements = shape.elements.map((field) => part(field, 'element', compileField(field, prefixes, contents)))
  const any = shape.any
  if (any !== undefined) elements.push(part(any, 'any', (value) => writeRaw(any, value)))
  const text = shape.text
  if (text !== undefined) {
    const scalar = text.shape as ScalarShape
    // Mixed content is written text first, then the child elements.
    const write: Writer = shape.mixed
      ? (value) => writeScalarOf(scalar, value, false)
      : (value) => writeContentOf(scalar, value)
    elements[shape.mixed ? 'unshift' : 'push'](part(text, 'text', write))
  }
  const parts: Parts = { attributes, elements }
  return {
    attributes (value) {
      const object = value as Record<string, unknown>
      let out = ''
      for (const a of attributes) {
        const property = a.field.property
        const v = Object.hasOwn(object, property) ? object[property] : undefined
        if (v === undefined) continue
        try {
          out += a.start + a.write(v) + '"'
        } catch (err) {
          throw locate(err, property)
        }
      }
      return out
    },
    children (value) {
      const object = value as Record<string, unknown>
      let out = ''
      for (const e of elements) {
        const property = e.field.property
        const v = Object.hasOwn(object, property) ? object[property] : undefined
        if (v === undefined) continue
        try {
          out += e.write(v)
        } catch (err) {
          throw locate(err, property)
        }
      }
      return out
    },
    parts: () => parts
  }
}

/** Whether an element's tree may hold a base64 value as element content: in an MTOM reply, maybe a part. */
function holdsBase64 (shape: ObjectShape, seen = new Set<ObjectShape>()): boolean {
  if (seen.has(shape)) return false
  seen.add(shape)
  if (shape.text !== undefined && (shape.text.shape as ScalarShape).binary === 'base64') return true
  return shape.elements.some((field) => [...typesOf(field)].some((type) =>
    type.kind === 'scalar' ? type.binary === 'base64' : holdsBase64(type, seen)))
}

/** The two writers of one top-level element: the interpreter's, and the compiled one (see compileElement()). */
export interface ElementWriters {
  /** The reference: it writes any value the schema's XML can carry, and names the problem of any other. */
  readonly interpreted: (value: unknown) => string
  /** Writes what the interpreter writes, or throws (anything): then the interpreter is asked. */
  readonly compiled: (value: unknown) => string
  /** The compiled writer, which also throws for a value the schema's `required` or `additionalProperties` refuse. */
  readonly checked: (value: unknown) => string
}

/** The interpreter's and the compiled writer of one top-level element: see compileElement(). */
export function elementWriters (
  shape: ObjectShape,
  name: string,
  namespace: string,
  prefixes: Prefixes,
  xsi: boolean
): ElementWriters {
  const tag = qualified(namespace, name, prefixes)
  let start = `<${tag}`
  for (const [uri, prefix] of prefixes) start += ` xmlns:${prefix}="${escapeAttribute(uri)}"`
  if (xsi) start += ` xmlns:xsi="${XSI_NS}"`
  const contents: Contents = new Map()
  const content = compileContent(shape, prefixes, contents)
  const close = `</${tag}>`
  const partsOf = (object: ObjectShape): Parts => compileContent(object, prefixes, contents).parts()
  const compiled = compileWriter(shape, partsOf)
  const checked = compileWriter(shape, partsOf, true)
  return {
    interpreted: (value) => {
      try {
        return element(start, content.attributes, content.children, close, value)
      } catch (err) {
        throw err instanceof OutputProblem ? new SOAP_ERR_OUTPUT_INVALID(err.path, err.message) : err
      }
    },
    compiled: (value) => compiled(value, start, close),
    checked: (value) => checked(value, start, close)
  }
}

/**
 * Compiles the writer of one top-level element (an operation's response, a
 * fault's detail entry): its start tag declares every namespace the tree uses.
 * Throws SOAP_ERR_OUTPUT_INVALID, naming the value's path, for a value the
 * schema's XML cannot carry. The compiled writer (write-compiled.ts) writes
 * the value; the interpreter writes it again when that throws, and so names
 * the problem, and writes a reply with MTOM parts (they are kept as written).
 */
export function compileElement (
  shape: ObjectShape,
  name: string,
  namespace: string,
  prefixes: Prefixes,
  xsi: boolean
): (value: unknown) => string {
  return combined(shape, elementWriters(shape, name, namespace, prefixes, xsi))
}

/** The compiled writer, and the interpreter when it throws or writes an MTOM reply's parts: see compileElement(). */
function combined (shape: ObjectShape, { interpreted, compiled }: ElementWriters): (value: unknown) => string {
  // Looked for when first writing an MTOM reply: most elements never write one.
  let parts: boolean | undefined
  return (value) => {
    if (xop !== undefined && (parts ??= holdsBase64(shape))) return interpreted(value)
    try {
      return compiled(value)
    } catch {
      return interpreted(value)
    }
  }
}

/**
 * Compiles the writer of an operation's output whose schema holds only keywords the checked writer enforces
 * (enforced.ts; no binary value, so no MTOM part): a value it writes is one `validate` would accept, and is written
 * unvalidated. For any other, `validate` runs first (it throws the problem it finds) and compileElement()'s writer
 * then writes the value, or refuses it: what validating every value first would do.
 */
export function compileOutput (
  shape: ObjectShape,
  name: string,
  namespace: string,
  prefixes: Prefixes,
  xsi: boolean,
  validate: (value: unknown) => void
): (value: unknown) => string {
  const writers = elementWriters(shape, name, namespace, prefixes, xsi)
  const write = combined(shape, writers)
  const checked = writers.checked
  return (value) => {
    try {
      return checked(value)
    } catch {
      validate(value)
      return write(value)
    }
  }
}
