/**
 * Stage 5a, compiled: the reader of an object shape, generated once per shape
 * (as Ajv generates a validator), for the elements most messages are made of:
 * attributes and child elements of scalars and of such objects, in schema
 * order, with white space between them, or a scalar's text beside the
 * attributes (simple content). It reads each child with no lookup but a memo
 * on the child's name, each scalar in place, and makes the object with its
 * properties named in the code (one hidden class per shape).
 *
 * The schema reader (read.ts) stays the reference. An element with an
 * attribute it does not read (`xsi:nil`, an unqualified one the shape does
 * not name), a scalar element with an unqualified attribute or with markup,
 * and every field of a kind the compiled reader leaves to it (lists, wrapped
 * arrays, `xsi:type` alternatives, `xml.any`, mixed content, binary values,
 * white space facets) is read by read.ts, that element alone, before any of
 * its children is read. Children it does not read (one the shape does not
 * name, text among them, children out of schema order) and any problem: the
 * whole operation element is read by read.ts, once (RESTART); each element
 * is thus read at most twice. The problem, its JSON Pointer and its elements
 * are read.ts's own.
 */
import { XML_NS, XSI_NS } from '../namespaces'
import { isWhitespace } from '../xml/chars'
import type { TreeName, XmlTree } from '../xml/tree'
import {
  readAttributeValue, readElement, readFieldElement, readScalar, readValue, shortDecimal
} from './read'
import { fieldNamed, type Field, type ObjectShape, type ScalarShape, type ScalarType, type Shape } from './shapes'

/** A compiled reader: the element at `p` of `tree` as read.ts reads it; it throws whatever read.ts would. */
export type CompiledReader = (tree: XmlTree, p: number) => Record<string, unknown> | null

/** An attribute's code: passed over (`xml:*`, `xsi:*` but nil, other namespaces, those `xml.anyAttribute` takes). */
const PASSED = -1
/**
 * An attribute's or a child's code: read.ts reads the element holding it (`xsi:nil`, a name the shape lacks).
 * As a field's kind: read.ts reads its value.
 */
const ASIDE = -2

/**
 * The code of an attribute name in a shape, kept on the name (its memo, under
 * `key`): the index of its field in `shape.attributes`, or PASSED, or ASIDE.
 */
function attributeCode (shape: ObjectShape, key: object, n: TreeName): number {
  let code = PASSED
  if (n.namespace === XSI_NS) {
    if (n.localName === 'nil') code = ASIDE
  } else if (n.namespace !== XML_NS) {
    const field = fieldNamed(shape.attributesByName, n.namespace, n.localName)
    if (field !== undefined) code = shape.attributes.indexOf(field)
    else if (n.namespace === '' && !shape.anyAttribute) code = ASIDE
  }
  n.memoShape = key
  n.memoField = code
  return code
}

/** The code of a child element's name in a shape, kept on the name: the index of its field, or ASIDE. */
function elementCode (shape: ObjectShape, key: object, n: TreeName): number {
  const field = fieldNamed(shape.elementsByName, n.namespace, n.localName)
  const code = field === undefined ? ASIDE : shape.elements.indexOf(field)
  n.memoShape = key
  n.memoField = code
  return code
}

/**
 * A scalar element's text: undefined when it holds anything but one text, or
 * an attribute read.ts reads (`xsi:nil`) or refuses (an unqualified one).
 */
function textOf (tree: XmlTree, q: number): string | undefined {
  if (tree.attributesOf(q) !== tree.attributesEnd(q) && !arePassed(tree, q)) return undefined
  return contentOf(tree, q)
}

/** An element's text: undefined when it holds anything but one text. */
function contentOf (tree: XmlTree, q: number): string | undefined {
  const first = q + 4
  const end = tree.end(q)
  if (first === end) return ''
  return tree.isText(first) && tree.next(first) === end ? tree.text(first) : undefined
}

/** Whether every attribute of a scalar element is one read.ts passes over (`xsi:type`, other namespaces'). */
function arePassed (tree: XmlTree, q: number): boolean {
  for (let a = tree.attributesOf(q), to = tree.attributesEnd(q); a < to; a += 2) {
    const n = tree.attributeName(a)
    if (n.namespace === '' || (n.namespace === XSI_NS && n.localName === 'nil')) return false
  }
  return true
}

/**
 * How a field's value is read: by read.ts (ASIDE), by a compiled reader
 * (OBJECT), or in place from its text, a scalar of one of the other kinds.
 */
const OBJECT = -1
const STRING = 1
const INTEGER = 2
const NUMBER = 3
const BOOLEAN = 4
const KINDS: Readonly<Record<ScalarType, number>> = {
  string: STRING, integer: INTEGER, number: NUMBER, boolean: BOOLEAN
}

/**
 * A scalar of a kind, as readScalar() reads it: the usual forms in place,
 * the rest (and every problem) by readScalar(). One function for all kinds,
 * called from one place in a reader: V8 inlines it once.
 */
function scalarOf (kind: number, text: string): unknown {
  if (kind === STRING) return text
  if (kind === BOOLEAN) return text === 'true' ? true : text === 'false' ? false : readScalar('boolean', text)
  const short = shortDecimal(text, kind === NUMBER)
  if (short === undefined) return readScalar(kind === NUMBER ? 'number' : 'integer', text)
  // xs:integer has no negative zero.
  return short === 0 && kind === INTEGER ? 0 : short
}

/**
 * What a reader throws when its element turns out to be read.ts's once some of its children are read (a child the
 * shape does not name, text among them, children out of schema order): readCompiled() then has read.ts read the
 * whole operation element, once. Read there instead, the element's children would be read again by read.ts,
 * and again at each ancestor that does the same: as many times as the element is deep.
 */
export const RESTART: unknown = Object.freeze({ restart: 'the operation element is read by read.ts' })

/** What generated code calls. */
const helpers = {
  attributeCode,
  elementCode,
  textOf,
  contentOf,
  scalarOf,
  isWhitespace,
  readValue,
  readFieldElement,
  readAttributeValue,
  RESTART
}

/** Whether a shape's elements are of the kind a compiled reader reads (its fields may still be read.ts's). */
function isCompiled (shape: Shape): shape is ObjectShape {
  if (shape.kind !== 'object' || shape.any !== undefined || shape.xsiType !== undefined) return false
  // Simple content: a plain scalar's text beside the attributes.
  return shape.text === undefined || (!shape.mixed && (shape.text.shape as ScalarShape).whiteSpace === undefined)
}

/** How an attribute's value is read: a scalar in place, not a binary value, its white space kept; else by read.ts. */
function attributeKind (field: Field): number {
  const shape = field.shape as ScalarShape
  return field.list || shape.whiteSpace !== undefined ? ASIDE : KINDS[shape.type]
}

/** How a child element's value is read: lists, wrapped arrays and alternatives by read.ts. */
function elementKind (field: Field): number {
  const shape = field.shape
  if (field.wrapped || field.list || field.alternatives !== undefined) return ASIDE
  if (shape.kind === 'object') return isCompiled(shape) ? OBJECT : ASIDE
  return shape.whiteSpace === undefined ? KINDS[shape.type] : ASIDE
}

/** The statement that leaves the element to read.ts: before any of its children is read (at its attributes). */
const ASIDE_ELEMENT = 'return H.readValue(S, tree, p)'

/** The statement that leaves the whole operation element to read.ts (RESTART). */
const RESTART_ELEMENT = 'throw H.RESTART'

/**
 * The source of a shape's reader. Each attribute and child is read by its
 * field's kind (AK, EK), from one place; then kept in a variable of its own,
 * and the object made of those, its properties in the order read.ts adds
 * them: attributes (in document order, which must be the schema's), arrays,
 * elements (likewise).
 */
function sourceOf (shape: ObjectShape): string {
  const aside = ASIDE_ELEMENT
  const ordered = (at: number, out: string): string => `if (last >= ${at}) ${out}; last = ${at}; `
  const attributes = shape.attributes.map((field, i) => `case ${i}: ${ordered(i, aside)}a${i} = v; break`)
  const arrays: number[] = []
  const singles: number[] = []
  const elements = shape.elements.map((field, j) => {
    if (field.array && !field.wrapped) {
      arrays.push(j)
      return `case ${j}: l${j}.push(v); break`
    }
    singles.push(j)
    return `case ${j}: ${ordered(j, RESTART_ELEMENT)}e${j} = v; break`
  })
  const key = (property: string): string => JSON.stringify(property)
  const optional = [...shape.attributes.map((field, i) => `a${i}`), ...singles.map((j) => `e${j}`)]
  const text = shape.text
  const all = [
    ...shape.attributes.map((field, i) => `${key(field.property)}: a${i}`),
    ...text === undefined ? [] : [`${key(text.property)}: x`],
    ...arrays.map((j) => `${key(shape.elements[j].property)}: l${j}`),
    ...singles.map((j) => `${key(shape.elements[j].property)}: e${j}`)
  ]
  // Property names come from the schema, where "__proto__" is refused (shapes.ts): a literal's key is safe.
  const made = optional.length === 0
    ? [`return { ${all.join(', ')} }`]
    : [
        `if (${optional.map((name) => `${name} !== undefined`).join(' && ')}) return { ${all.join(', ')} }`,
        'const o = {}',
        ...shape.attributes.map((field, i) => `if (a${i} !== undefined) o[${key(field.property)}] = a${i}`),
        ...text === undefined ? [] : [`o[${key(text.property)}] = x`],
        ...arrays.map((j) => `o[${key(shape.elements[j].property)}] = l${j}`),
        ...singles.map((j) => `if (e${j} !== undefined) o[${key(shape.elements[j].property)}] = e${j}`),
        'return o'
      ]
  return [
    '\'use strict\'',
    'return function read (tree, p) {',
    `let last = -1${optional.map((name) => `, ${name}`).join('')}`,
    ...arrays.map((j) => `const l${j} = []`),
    'for (let a = tree.attributesOf(p), to = tree.attributesEnd(p); a < to; a += 2) {',
    'const n = tree.attributeName(a)',
    'const k = n.memoShape === AM ? n.memoField : H.attributeCode(S, AM, n)',
    `if (k === ${PASSED}) continue`,
    `if (k < 0) ${aside}`,
    'const kind = AK[k]',
    'const v = kind === ' + ASIDE + ' ? H.readAttributeValue(A[k], tree.attributeValue(a)) : ' +
      'H.scalarOf(kind, tree.attributeValue(a))',
    'switch (k) {',
    ...attributes,
    '}',
    '}',
    ...text === undefined ? childrenOf(elements) : simpleContentOf(text),
    ...made,
    '}'
  ].join('\n')
}

/** The source reading simple content: the text (`x`) of a plain scalar. */
function simpleContentOf (text: Field): string[] {
  return [
    'const t = H.contentOf(tree, p)',
    `if (t === undefined) ${ASIDE_ELEMENT}`,
    `const x = H.scalarOf(${KINDS[(text.shape as ScalarShape).type]}, t)`
  ]
}

/** The source reading an object's children, each by its field's kind, and keeping it (`elements`: by field). */
function childrenOf (elements: string[]): string[] {
  const aside = RESTART_ELEMENT
  return [
    'last = -1',
    'for (let q = p + 4, end = tree.end(p); q < end; q = tree.next(q)) {',
    `if (tree.isText(q)) { if (H.isWhitespace(tree.text(q))) continue; ${aside} }`,
    'const n = tree.name(q)',
    'const k = n.memoShape === EM ? n.memoField : H.elementCode(S, EM, n)',
    `if (k < 0) ${aside}`,
    'const kind = EK[k]',
    'let v',
    `if (kind === ${OBJECT}) v = R[k](tree, q)`,
    `else if (kind === ${ASIDE}) v = H.readFieldElement(F[k], tree, q)`,
    'else { const t = H.textOf(tree, q); v = t === undefined ? H.readFieldElement(F[k], tree, q) : ' +
      'H.scalarOf(kind, t) }',
    'switch (k) {',
    ...elements,
    '}',
    '}'
  ]
}

/** The compiled readers, by shape: made at a shape's first read, held as long as the shape is. */
const readers = new WeakMap<ObjectShape, CompiledReader>()

/** The compiled reader of an object shape; undefined for one read.ts reads (`xml.any`, mixed content, `$type`). */
export function compiledReader (shape: Shape): CompiledReader | undefined {
  if (!isCompiled(shape)) return undefined
  let reader = readers.get(shape)
  if (reader !== undefined) return reader
  const inner: Array<CompiledReader | undefined> = []
  const elementKinds = shape.elements.map(elementKind)
  // The source is made of the shape's indices and its property names as JSON strings, nothing else of the schema's.
  // eslint-disable-next-line no-new-func
  reader = new Function('S', 'F', 'A', 'R', 'H', 'AK', 'EK', 'AM', 'EM', sourceOf(shape))(
    shape, shape.elements, shape.attributes, inner, helpers, shape.attributes.map(attributeKind), elementKinds, {}, {}
  ) as CompiledReader
  // Set before the fields' readers are made: a shape that contains itself finds its own.
  readers.set(shape, reader)
  shape.elements.forEach((field, j) => { if (elementKinds[j] === OBJECT) inner[j] = compiledReader(field.shape) })
  return reader
}

/**
 * Reads an operation element as readElement() does, through its shape's
 * compiled reader; a problem, and readElement() reads it again, to report it.
 */
export function readCompiled (shape: ObjectShape, tree: XmlTree, p: number): Record<string, unknown> {
  const reader = compiledReader(shape)
  if (reader !== undefined) {
    try {
      const value = reader(tree, p)
      if (value !== null) return value
    } catch {
      // read.ts's problem is the one reported, with its path: it reads the element from the start.
    }
  }
  return readElement(shape, tree, p)
}
