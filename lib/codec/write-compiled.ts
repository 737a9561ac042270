/**
 * Stage 6c, the fast path: the writer of each object shape generated once as
 * JavaScript (as fast-json-stringify does for JSON), its property reads,
 * tags and scalar checks written out inline. An element that holds an array
 * is written as bytes into a WriteBuffer (write-text.ts), its arrays plain
 * loops; any other as strings. It writes what the interpreter (write.ts)
 * writes and nothing else: a value it does not write as that would, or any
 * problem, makes it throw, and the interpreter writes the whole value again
 * (and names the problem, with its path). Parts it leaves to the interpreter
 * (xsi:type alternatives, raw elements, xs:list, binary values) are written
 * by the interpreter's writers.
 */
import type { Field, ObjectShape, ScalarShape, ScalarType } from './shapes'
import { FLAT_RUN } from '../xml/chars'
import { decimal, escaped, latin1, notWritten, SPECIAL, writeBuffer, type WriteBuffer } from './write-text'

export type Writer = (value: unknown) => string

/** An attribute as the interpreter writes it: ` name="`, its value's writer, then `"`. */
export interface AttributePart {
  readonly field: Field
  readonly start: string
  readonly write: Writer
}

/**
 * Child content as the interpreter writes it, in order: an element field (`tag`, and `itemTag` for an array's
 * items), the raw elements of `xml.any`, or the text (`xml.text`); `write` writes the value whole.
 */
export interface ElementPart {
  readonly field: Field
  readonly kind: 'element' | 'any' | 'text'
  readonly tag: string
  readonly itemTag: string
  readonly write: Writer
}

/** What the interpreter writes of an object shape, in its order. */
export interface Parts {
  readonly attributes: readonly AttributePart[]
  readonly elements: readonly ElementPart[]
}

/** Writes an element of an object shape: `start` is `<` and its tag, `close` its end tag. */
export type ObjectWriter = (object: object, start: string, close: string) => string

/** Writes a top-level element of a value, or throws. */
export type ElementWriter = (value: unknown, start: string, close: string) => string

/** A literal as a WriteBuffer takes it: its Latin-1 bytes, or text (see latin1()). */
type Literal = Uint8Array | string

/** Writes an object shape's element (an array's item) into `buffer`: `start` is `<` and its tag, `close` its end. */
type ByteWriter = (object: object, buffer: WriteBuffer, start: Literal, close: Literal) => void

/** What the generated code is given, by these names: helpers, then the compiler's writers, delegates and literals. */
const NAMES = ['N', 'S', 'E', 'D', 'R', 'H', 'f', 'g', 'd', 'K']
const HELPERS = [notWritten, SPECIAL, escaped, decimal, FLAT_RUN, Object.hasOwn]

const literal = (s: string): string => JSON.stringify(s)

/** An expression: `v`'s text as the scalar type writes it, or a call of N() (not written). */
function scalarCode (type: ScalarType, v: string, attribute: boolean): string {
  switch (type) {
    case 'string': return `(typeof ${v} === 'string' ? (S.test(${v}) ? E(${v}, ${String(attribute)}) : ${v}) : N())`
    case 'integer': return `(Number.isSafeInteger(${v}) ? '' + ${v} : N())`
    case 'number': return `(Number.isFinite(${v}) ? D(${v}) : N())`
    default: return `(${v} === true ? 'true' : ${v} === false ? 'false' : N())`
  }
}

/** Whether the generated code writes a field's elements itself, rather than the interpreter's writer. */
function inline (field: Field): boolean {
  const shape = field.shape
  return field.alternatives === undefined && !field.list && (shape.kind === 'object' || shape.binary === undefined)
}

/** Compiles the writers of the object shapes of one top-level element, each when first used. */
class Compiler {
  /** The writer of each object shape met, by its index in `writers`. */
  private readonly index = new Map<ObjectShape, number>()
  private readonly writers: ObjectWriter[] = []
  /** The writer into a WriteBuffer of each object shape met in an element that holds an array, by its index. */
  private readonly byteIndex = new Map<ObjectShape, number>()
  private readonly byteWriters: ByteWriter[] = []
  /** The literals of the byte writers, as latin1() makes them. */
  private readonly literals: Literal[] = []
  private readonly literalIndex = new Map<string, number>()
  private readonly delegates: Writer[] = []

  /**
   * @param checked whether the code also refuses what the schema's `required` and `additionalProperties: false`
   * refuse (an absent required property, a property it does not name), which the interpreter writes
   */
  constructor (private readonly partsOf: (shape: ObjectShape) => Parts, private readonly checked: boolean) {}

  /** The index of the writer of `shape`: until first called, one that compiles it and takes its place. */
  writerOf (shape: ObjectShape): number {
    const known = this.index.get(shape)
    if (known !== undefined) return known
    const i = this.writers.length
    this.index.set(shape, i)
    this.writers.push((object, start, close) => {
      const write = this.compile(shape)
      this.writers[i] = write
      return write(object, start, close)
    })
    return i
  }

  private compile (shape: ObjectShape): ObjectWriter {
    const parts = this.partsOf(shape)
    const delegate = this.delegate
    let code = this.closedCode(shape, parts) + this.allPresentCode(parts, delegate) + 'let a = \'\', e = \'\', v\n'
    // A required property absent: not written.
    const absent = (field: Field): string => this.absent(shape, field)
    for (const part of parts.attributes) {
      const field = part.field
      const value = inline(field)
        ? scalarCode((field.shape as ScalarShape).type, 'v', true)
        : `${delegate(part.write)}(v)`
      code += `${read(field.property)} a += ${literal(part.start)} + ${value} + '"' }${absent(field)}\n`
    }
    for (const part of parts.elements) {
      code += `${read(part.field.property)} ${this.elementCode(part, delegate)} }${absent(part.field)}\n`
    }
    code += 'return e === \'\' ? s + a + \'/>\' : s + a + \'>\' + e + c'
    return this.made(code, 'o, s, c') as ObjectWriter
  }

  /** A function of `parameters` running `code`, given the helpers and the compiler's tables by NAMES. */
  private made (code: string, parameters: string): unknown {
    // eslint-disable-next-line no-new-func -- the point: code made once per shape, its names and tags string literals
    const make = new Function(...NAMES, `return function (${parameters}) {\n${code}\n}`)
    return make(...HELPERS, this.writers, this.byteWriters, this.delegates, this.literals)
  }

  /** The name of the interpreter's writer `write` in the generated code. */
  private readonly delegate = (write: Writer): string => `d[${this.delegates.push(write) - 1}]`

  /**
   * Checked, for an object that refuses the properties its schema does not name: a statement that throws (not
   * written) when it has one, as Ajv lists them (own enumerable keys: `for...in` visits them all, and perhaps more).
   */
  private closedCode (shape: ObjectShape, parts: Parts): string {
    if (!this.checked || !shape.closed) return ''
    const named = [...parts.attributes, ...parts.elements].map((part) => `k !== ${literal(part.field.property)}`)
    return `for (const k in o) if (${named.length === 0 ? 'true' : named.join(' && ')}) N()\n`
  }

  /**
   * For an object of no array, one of whose parts is an element (so that it has content): statements that, when
   * every property is present, return it written as one expression, its constant pieces joined (fewer strings to
   * join: V8 keeps each `a + b` as a pair until the text is made one string).
   */
  private allPresentCode (parts: Parts, delegate: (write: Writer) => string): string {
    const elements = parts.elements.filter((part) => part.kind === 'element')
    if (elements.length === 0 || elements.some((part) => part.field.array)) return ''
    const pieces: Array<{ text: string } | { code: string }> = [{ code: 's' }]
    const reads: string[] = []
    const present: string[] = []
    const value = (part: AttributePart | ElementPart): string => {
      const v = `v${reads.length}`
      const p = literal(part.field.property)
      reads.push(`${v} = o[${p}]`)
      present.push(`${v} !== undefined && H(o, ${p})`)
      return v
    }
    for (const part of parts.attributes) {
      const v = value(part)
      const text = inline(part.field)
        ? scalarCode((part.field.shape as ScalarShape).type, v, true)
        : `${delegate(part.write)}(${v})`
      pieces.push({ text: part.start }, { code: text }, { text: '"' })
    }
    pieces.push({ text: '>' })
    for (const part of parts.elements) {
      const v = value(part)
      const shape = part.field.shape
      if (part.kind === 'any' || !inline(part.field)) pieces.push({ code: `${delegate(part.write)}(${v})` })
      else if (part.kind === 'text') pieces.push({ code: scalarCode((shape as ScalarShape).type, v, false) })
      else if (shape.kind === 'scalar' && !shape.nullable) {
        pieces.push({ text: `<${part.tag}>` }, { code: scalarCode(shape.type, v, false) }, { text: `</${part.tag}>` })
      } else pieces.push({ code: `(${this.valueExpression(part.field, part.tag, v)})` })
    }
    pieces.push({ code: 'c' })
    let expression = ''
    let text = ''
    for (const piece of pieces) {
      if ('text' in piece) {
        text += piece.text
        continue
      }
      if (text !== '') expression += ` + ${literal(text)}`
      expression += ` + ${piece.code}`
      text = ''
    }
    return `const ${reads.join(', ')}\nif (${present.join(' && ')}) return ${expression.slice(3)}\n`
  }

  /**
   * Statements writing the part's value `v` (present) onto `e`. No array is written here: an element that holds one
   * is written into a WriteBuffer (root()); one of this writer's only through the interpreter's writers.
   */
  private elementCode (part: ElementPart, delegate: (write: Writer) => string): string {
    const field = part.field
    const shape = field.shape
    if (part.kind === 'any' || !inline(field) || field.array) return `e += ${delegate(part.write)}(v)`
    if (part.kind === 'text') return `e += ${scalarCode((shape as ScalarShape).type, 'v', false)}`
    return this.valueCode(field, part.tag, 'v', 'e')
  }

  /** A statement writing one element `tag` of the field's shape, of value `v`, onto `out`. */
  private valueCode (field: Field, tag: string, v: string, out: string): string {
    return `${out} += ${this.valueExpression(field, tag, v)}`
  }

  /** An expression: one element `tag` of the field's shape, of value `v`. */
  private valueExpression (field: Field, tag: string, v: string): string {
    const shape = field.shape
    const nil = shape.nullable ? literal(`<${tag} xsi:nil="true"/>`) : 'N()'
    if (shape.kind === 'scalar') {
      const write = `${literal(`<${tag}>`)} + ${scalarCode(shape.type, v, false)} + ${literal(`</${tag}>`)}`
      return `${v} === null ? ${nil} : ${write}`
    }
    const call = `f[${this.writerOf(shape)}](${v}, ${literal(`<${tag}`)}, ${literal(`</${tag}>`)})`
    const object = `typeof ${v} === 'object' && !Array.isArray(${v})`
    return `${v} === null ? ${nil} : ${object} ? ${call} : N()`
  }

  /** A loop writing the items of the array `v` into the buffer `b`, made text every FLAT_RUN characters. */
  private itemsCode (part: ElementPart): string {
    return `for (let i = 0; i < v.length; i++) {
    const x = v[i]
    ${this.bytesValueCode(part.field, part.itemTag, 'x')}
    if (b.length > R) b.flush()
  }`
  }

  /** The index of the byte writer of `shape`: until first called, one that compiles it and takes its place. */
  private byteWriterOf (shape: ObjectShape): number {
    const known = this.byteIndex.get(shape)
    if (known !== undefined) return known
    const i = this.byteWriters.length
    this.byteIndex.set(shape, i)
    this.byteWriters.push((object, buffer, start, close) => {
      const write = this.compileBytes(shape)
      this.byteWriters[i] = write
      write(object, buffer, start, close)
    })
    return i
  }

  /** The writer of an object shape into a WriteBuffer: the same text as compile()'s, written in the same order. */
  private compileBytes (shape: ObjectShape): ByteWriter {
    const parts = this.partsOf(shape)
    let code = this.closedCode(shape, parts) + 'let v\nb.literal(s)\n'
    for (const part of parts.attributes) {
      const field = part.field
      const value = inline(field)
        ? this.bytesScalarCode((field.shape as ScalarShape).type, 'v', true)
        : `b.append(${this.delegate(part.write)}(v))`
      code += `${read(field.property)} ${this.put(part.start)}; ${value}; b.byte(0x22) }${this.absent(shape, field)}\n`
    }
    // Nothing written after the start tag's '>': the element is empty, as compile()'s `e === ''`.
    code += 'b.byte(0x3E)\nconst m = b.written\n'
    for (const part of parts.elements) {
      code += `${read(part.field.property)} ${this.bytesElementCode(part)} }${this.absent(shape, part.field)}\n`
    }
    code += 'if (b.written === m) b.closeEmpty()\nelse b.literal(c)'
    return this.made(code, 'o, b, s, c') as ByteWriter
  }

  /** Statements writing the part's value `v` (present) into `b`. */
  private bytesElementCode (part: ElementPart): string {
    const field = part.field
    const shape = field.shape
    if (part.kind === 'any' || !inline(field)) return `b.append(${this.delegate(part.write)}(v))`
    if (part.kind === 'text') return this.bytesScalarCode((shape as ScalarShape).type, 'v', false)
    if (!field.array) return this.bytesValueCode(field, part.tag, 'v')
    const items = `if (!Array.isArray(v)) N()\n${this.itemsCode(part)}`
    return field.wrapped ? `${this.put(`<${part.tag}>`)}\n${items}\n${this.put(`</${part.tag}>`)}` : items
  }

  /** Statements writing one element `tag` of the field's shape, of value `v`, into `b`. */
  private bytesValueCode (field: Field, tag: string, v: string): string {
    const shape = field.shape
    const nil = shape.nullable ? this.put(`<${tag} xsi:nil="true"/>`) : 'N()'
    if (shape.kind === 'scalar') {
      const write = `${this.put(`<${tag}>`)}; ${this.bytesScalarCode(shape.type, v, false)}; ${this.put(`</${tag}>`)}`
      return `if (${v} === null) ${nil}\n    else { ${write} }`
    }
    const call = `g[${this.byteWriterOf(shape)}](${v}, b, ${this.constant(`<${tag}`)}, ${this.constant(`</${tag}>`)})`
    const object = `typeof ${v} === 'object' && !Array.isArray(${v})`
    return `if (${v} === null) ${nil}\n    else if (${object}) ${call}\n    else N()`
  }

  /** A statement: `v`'s text as the scalar type writes it, into `b`, or a call of N() (not written). */
  private bytesScalarCode (type: ScalarType, v: string, attribute: boolean): string {
    switch (type) {
      case 'string': return `{ if (typeof ${v} === 'string') b.string(${v}, ${String(attribute)}); else N() }`
      case 'integer': return `{ if (Number.isSafeInteger(${v})) b.integer(${v}); else N() }`
      case 'number': return `{ if (Number.isFinite(${v})) b.number(${v}); else N() }`
      default: return `{ if (typeof ${v} === 'boolean') b.boolean(${v}); else N() }`
    }
  }

  /** The index in `literals` of the literal `text`, as latin1() makes it. */
  private literalOf (text: string): number {
    let n = this.literalIndex.get(text)
    if (n === undefined) {
      n = this.literals.push(latin1(text)) - 1
      this.literalIndex.set(text, n)
    }
    return n
  }

  /** The literal `text` in the generated code: its bytes or itself, for b.literal(). */
  private constant (text: string): string {
    return `K[${this.literalOf(text)}]`
  }

  /** A statement writing the literal `text` into `b`: its bytes, or itself appended. */
  private put (text: string): string {
    const n = this.literalOf(text)
    return typeof this.literals[n] === 'string' ? `b.append(${literal(text)})` : `b.put(K[${n}])`
  }

  /** Checked, for a required property of `shape`: ` else N()`, closing the block read() opens when it is absent. */
  private absent (shape: ObjectShape, field: Field): string {
    return this.checked && shape.required.includes(field.property) ? ' else N()' : ''
  }

  /**
   * The writer of the root: its value must be an object. An element that holds an array the generated code writes
   * is written into a WriteBuffer, whose text is recorded with its pieces when long (xml/pieces.ts); any other is
   * written as strings. Which, is decided when it is first written.
   */
  root (shape: ObjectShape): ElementWriter {
    let write: ElementWriter | undefined
    return (value, start, close) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) notWritten()
      write ??= holdsArray(shape, new Set()) ? this.bytesRoot(shape) : this.stringsRoot(shape)
      return write(value, start, close)
    }
  }

  private stringsRoot (shape: ObjectShape): ElementWriter {
    const i = this.writerOf(shape)
    const writers = this.writers
    return (value, start, close) => writers[i](value as object, start, close)
  }

  private bytesRoot (shape: ObjectShape): ElementWriter {
    const i = this.byteWriterOf(shape)
    const writers = this.byteWriters
    // The tags as bytes, made again only when they change.
    let tags: [string, string, Literal, Literal] = ['', '', '', '']
    return (value, start, close) => {
      if (tags[0] !== start || tags[1] !== close) tags = [start, close, latin1(start), latin1(close)]
      const buffer = writeBuffer()
      try {
        writers[i](value as object, buffer, tags[2], tags[3])
      } catch (err) {
        buffer.drop()
        throw err
      }
      return buffer.done()
    }
  }
}

/** Whether the generated code writes an array of `shape`'s elements, or of an element within them. */
function holdsArray (shape: ObjectShape, seen: Set<ObjectShape>): boolean {
  if (seen.has(shape)) return false
  seen.add(shape)
  return shape.elements.some((field) => inline(field) &&
    (field.array || (field.shape.kind === 'object' && holdsArray(field.shape, seen))))
}

/** Reads `property` of `o` into `v`; opens the block that writes it, run when it is an own property not undefined. */
function read (property: string): string {
  const p = literal(property)
  return `v = o[${p}]\nif (v !== undefined && H(o, ${p})) {`
}

/**
 * Compiles the writer of a top-level element of `shape`, which writes what the interpreter writes or throws: each
 * object shape's code is made the first time a value holds one. `partsOf` gives the interpreter's parts of a shape.
 * `checked`, it also throws for an object that lacks a property its `required` lists, or has one an
 * `additionalProperties: false` refuses.
 */
export function compileWriter (
  shape: ObjectShape, partsOf: (shape: ObjectShape) => Parts, checked = false
): ElementWriter {
  return new Compiler(partsOf, checked).root(shape)
}
