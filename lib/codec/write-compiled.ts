/**
 * Stage 6c, the fast path: the writer of each object shape generated once as
 * JavaScript (as fast-json-stringify does for JSON), its property reads,
 * tags and scalar checks written out inline, its arrays plain loops. It
 * writes what the interpreter (write.ts) writes and nothing else: a value it
 * does not write as that would, or any problem, makes it throw, and the
 * interpreter writes the whole value again (and names the problem, with its
 * path). Parts it leaves to the interpreter (xsi:type alternatives, raw
 * elements, xs:list, binary values) are written by the interpreter's writers.
 */
import { disallowedAt, FLAT_RUN, flattened } from '../xml/chars'
import { escapeAttribute, escapeXml } from '../xml/escape'
import type { Field, ObjectShape, ScalarShape, ScalarType } from './shapes'

// Anything a string may need looked at: escaping, a forbidden character, or a surrogate (paired or not).
// Most strings hold none, and are written as they are after this one scan.
// eslint-disable-next-line no-control-regex -- matching those characters is the point
export const SPECIAL = /[&<>"\t\n\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/

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

/** What the generated code throws when it does not write a value: the interpreter writes it instead. */
const NOT_WRITTEN = new Error('not written by the compiled writer')

function notWritten (): never {
  throw NOT_WRITTEN
}

/** Strings up to this long that need looking at are escaped in one pass over their characters (escapeShort()). */
const SHORT = 32

/**
 * A short string's text (`attribute`: as an attribute value), escaped as escape.ts escapes it; not written when it
 * holds a character XML 1.0 cannot carry (a C0 control but tab, LF and CR, U+FFFE, U+FFFF, a surrogate alone).
 */
function escapeShort (value: string, attribute: boolean): string {
  let out = ''
  let last = 0
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i)
    // Past '>' and below the surrogates: nothing to look at.
    if (c > 0x3E && c < 0xD800) continue
    let entity: string
    if (c === 0x26) entity = '&amp;'
    else if (c === 0x3C) entity = '&lt;'
    else if (c === 0x3E) entity = '&gt;'
    else if (c === 0x0D) entity = '&#xD;'
    else if (c === 0x22) {
      if (!attribute) continue
      entity = '&quot;'
    } else if (c === 0x09 || c === 0x0A) {
      if (!attribute) continue
      entity = c === 0x09 ? '&#x9;' : '&#xA;'
    } else if (c < 0x20) {
      return notWritten()
    } else if (c < 0xD800 || (c >= 0xE000 && c < 0xFFFE)) {
      continue
    } else {
      const low = value.charCodeAt(i + 1)
      if (c >= 0xDC00 || !(low >= 0xDC00 && low <= 0xDFFF)) return notWritten()
      i++
      continue
    }
    out += value.slice(last, i) + entity
    last = i + 1
  }
  return last === 0 ? value : out + value.slice(last)
}

/**
 * A string that needs escaping (`attribute`: as an attribute value), or holds a character XML 1.0 cannot carry:
 * escaped, or not written.
 */
function escaped (value: string, attribute: boolean): string {
  if (value.length <= SHORT) return escapeShort(value, attribute)
  if (disallowedAt(value) !== -1) notWritten()
  return attribute ? escapeAttribute(value) : escapeXml(value)
}

/**
 * A finite number's text, as String() writes it. One of at most two decimals under 10^13 (a price, a quantity) is
 * written from its integer number of hundredths: the double nearest a decimal of 15 digits or fewer is nearest no
 * other such decimal, so that decimal is the shortest that reads back as the number, the one String() writes.
 * Any other is written by String().
 */
function decimal (value: number): string {
  if (Number.isInteger(value)) return value === 0 && 1 / value < 0 ? '-0' : '' + value
  const hundredths = Math.round(value * 100)
  if (hundredths / 100 !== value || hundredths >= 1e15 || hundredths <= -1e15) return '' + value
  const size = hundredths < 0 ? -hundredths : hundredths
  const whole = Math.floor(size / 100)
  const rest = size - whole * 100
  const fraction = rest % 10 === 0 ? '.' + String(rest / 10) : rest < 10 ? '.0' + String(rest) : '.' + String(rest)
  return (hundredths < 0 ? '-' : '') + String(whole) + fraction
}

/** What the generated code is given, by these names. */
const NAMES = ['N', 'S', 'E', 'D', 'R', 'L', 'H', 'f', 'd']
const HELPERS = [notWritten, SPECIAL, escaped, decimal, FLAT_RUN, flattened, Object.hasOwn]

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
    const delegates: Writer[] = []
    const delegate = (write: Writer): string => `d[${delegates.push(write) - 1}]`
    let code = this.closedCode(shape, parts) + this.allPresentCode(parts, delegate) + 'let a = \'\', e = \'\', v\n'
    // A required property absent: not written.
    const absent = (field: Field): string => this.checked && shape.required.includes(field.property) ? ' else N()' : ''
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
    // eslint-disable-next-line no-new-func -- the point: code made once per shape, its names and tags string literals
    const make = new Function(...NAMES, `return function (o, s, c) {\n${code}\n}`)
    return make(...HELPERS, this.writers, delegates) as ObjectWriter
  }

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

  /** Statements writing the part's value `v` (present) onto `e`. */
  private elementCode (part: ElementPart, delegate: (write: Writer) => string): string {
    const field = part.field
    const shape = field.shape
    if (part.kind === 'any' || !inline(field)) return `e += ${delegate(part.write)}(v)`
    if (part.kind === 'text') return `e += ${scalarCode((shape as ScalarShape).type, 'v', false)}`
    if (!field.array) return this.valueCode(field, part.tag, 'v', 'e')
    const open = field.wrapped ? literal(`<${part.tag}>`) : '\'\''
    const close = field.wrapped ? ` + ${literal(`</${part.tag}>`)}` : ''
    // The items of the last stretch: made one string every FLAT_RUN characters (see flattened()), as write.ts does.
    return `if (!Array.isArray(v)) N()
  let out = ${open}, run = ''
  for (let i = 0; i < v.length; i++) {
    const x = v[i]
    ${this.valueCode(field, part.itemTag, 'x', 'run')}
    if (run.length > R) { out += L(run); run = '' }
  }
  e += out + run${close}`
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

  /** The writer of the root: its value must be an object. */
  root (shape: ObjectShape): ElementWriter {
    const i = this.writerOf(shape)
    const writers = this.writers
    return (value, start, close) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) notWritten()
      return writers[i](value, start, close)
    }
  }
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
