/**
 * The compiled writer (lib/codec/write-compiled.ts) against the interpreter
 * it stands in for (lib/codec/write.ts): for generated schemas of every
 * construct the codec writes, and generated values (some of which the XML
 * cannot carry), the compiled writer writes the interpreter's text, or
 * throws where the interpreter refuses; and compileElement(), which writes
 * with the first and falls back on the second, refuses with the
 * interpreter's error: the same code, JSON Pointer path and message.
 */
import { test, type TestContext } from 'node:test'
import fc from 'fast-check'
import { compileElement, elementWriters, writingParts } from '../../../lib/codec/write'
import { prefixesFor } from '../../../lib/codec/prefixes'
import { shapeOf, usesXsi, type ObjectShape } from '../../../lib/codec/shapes'
import { XopParts } from '../../../lib/soap/xop-write'
import { BYTES_UP_TO } from '../../../lib/codec/write-text'
import { SOAP12 } from '../../../lib/namespaces'
import { writeEnvelope } from '../../../lib/soap/writer'
import { takePieces } from '../../../lib/xml/pieces'

const TNS = 'urn:example:w'
const OTHER = 'urn:example:other'
const RULE = 'docs/benchmarks.md "Where the time goes", the compiled writer'

type Schema = Record<string, unknown>
type Scalar = 'string' | 'integer' | 'number' | 'boolean' | 'base64' | 'base16'

/** What a generated property holds: a scalar, an object, the recursive Node, or an element of derived types. */
type ValueSpec =
  | { kind: 'scalar', type: Scalar, nullable: boolean }
  | { kind: 'object', nullable: boolean, object: ObjectSpec }
  | { kind: 'node' }
  | { kind: 'typed', nullable: boolean }

interface FieldSpec {
  property: string
  form: 'element' | 'unwrapped' | 'wrapped' | 'attribute' | 'list' | 'attribute-list'
  namespace: boolean
  value: ValueSpec
}

interface ObjectSpec {
  fields: FieldSpec[]
  /** Child elements, text beside attributes (xml.text), or text and elements (xml.mixed). */
  content: 'elements' | 'text' | 'mixed'
  text: Scalar
  any: boolean
}

// ----------------------------------------------------------------- schemas ---

const SCALARS: Scalar[] = ['string', 'integer', 'number', 'boolean', 'base64', 'base16']
const PLAIN: Scalar[] = ['string', 'integer', 'number', 'boolean']
const PROPERTIES = ['a', 'b', 'c', 'constructor', 'x-y', 'é', 'toString']

/** The derived types and the recursive Node every generated schema holds in its $defs. */
const $defs = {
  Shape: { type: 'object', xml: { abstract: true }, properties: { $type: { const: 'Shape' }, name: { type: 'string' } }, required: ['$type'], additionalProperties: false },
  Base: { type: 'object', properties: { $type: { const: 'Base' }, name: { type: 'string' } }, required: ['$type'], additionalProperties: false },
  Circle: { type: 'object', xml: { typeNamespace: OTHER }, properties: { $type: { const: 'Circle' }, name: { type: 'string', xml: { attribute: true } }, r: { type: 'number' } }, required: ['$type'], additionalProperties: false },
  Node: {
    type: 'object',
    properties: {
      name: { type: 'string', xml: { attribute: true } },
      next: { $ref: '#/$defs/Node' },
      kid: { type: 'array', items: { $ref: '#/$defs/Node' } }
    },
    additionalProperties: false
  }
}
const TYPES = ['Shape', 'Base', 'Circle']

const scalarSpec = (nullable: fc.Arbitrary<boolean>, types = SCALARS): fc.Arbitrary<ValueSpec> =>
  fc.record({ kind: fc.constant('scalar' as const), type: fc.constantFrom(...types), nullable })

function valueSpec (depth: number): fc.Arbitrary<ValueSpec> {
  const options: Array<fc.WeightedArbitrary<ValueSpec>> = [
    { weight: 6, arbitrary: scalarSpec(fc.boolean()) },
    { weight: 2, arbitrary: fc.constant({ kind: 'node' as const }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('typed' as const), nullable: fc.boolean() }) }
  ]
  if (depth > 0) {
    const object = fc.record({ kind: fc.constant('object' as const), nullable: fc.boolean(), object: objectSpec(depth - 1) })
    options.push({ weight: 3, arbitrary: object })
  }
  return fc.oneof(...options)
}

function fieldSpec (depth: number): fc.Arbitrary<FieldSpec> {
  const common = { property: fc.constantFrom(...PROPERTIES), namespace: fc.boolean() }
  const form = <F extends FieldSpec['form']>(f: F): fc.Arbitrary<F> => fc.constant(f)
  return fc.oneof(
    { weight: 4, arbitrary: fc.record({ ...common, form: form('element'), value: valueSpec(depth) }) },
    { weight: 3, arbitrary: fc.record({ ...common, form: form('unwrapped'), value: valueSpec(depth) }) },
    { weight: 2, arbitrary: fc.record({ ...common, form: form('wrapped'), value: valueSpec(depth) }) },
    { weight: 3, arbitrary: fc.record({ ...common, form: form('attribute'), value: scalarSpec(fc.constant(false)) }) },
    { weight: 1, arbitrary: fc.record({ ...common, form: form('list'), value: scalarSpec(fc.boolean(), PLAIN) }) },
    { weight: 1, arbitrary: fc.record({ ...common, form: form('attribute-list'), value: scalarSpec(fc.constant(false), PLAIN) }) }
  )
}

function objectSpec (depth: number): fc.Arbitrary<ObjectSpec> {
  return fc.record({
    fields: fc.uniqueArray(fieldSpec(depth), { maxLength: 4, selector: (f) => f.property }),
    content: fc.constantFrom<ObjectSpec['content']>('elements', 'elements', 'elements', 'text', 'mixed'),
    text: fc.constantFrom(...SCALARS),
    any: fc.boolean()
  })
}

function scalarSchema (type: Scalar, nullable: boolean): Schema {
  const binary = type === 'base64' || type === 'base16'
  const schema: Schema = { type: binary ? 'string' : type }
  if (binary) schema.contentEncoding = type
  if (nullable) schema.nullable = true
  return schema
}

function valueSchema (spec: ValueSpec): Schema {
  switch (spec.kind) {
    case 'scalar': return scalarSchema(spec.type, spec.nullable)
    case 'node': return { $ref: '#/$defs/Node' }
    case 'typed': {
      const types = TYPES.map((name) => ({ $ref: `#/$defs/${name}` }))
      return { oneOf: spec.nullable ? [...types, { type: 'null' }] : types }
    }
    default: return { ...objectSchema(spec.object), ...(spec.nullable ? { nullable: true } : {}) }
  }
}

function objectSchema (spec: ObjectSpec): Schema {
  const properties: Schema = {}
  const elements = spec.content === 'text' ? spec.fields.filter((f) => f.form.startsWith('attribute')) : spec.fields
  for (const field of elements) {
    const xml: Schema = {}
    if (field.namespace) xml.namespace = OTHER
    let schema: Schema
    if (field.form === 'element') schema = valueSchema(field.value)
    else if (field.form === 'unwrapped' || field.form === 'wrapped') {
      schema = { type: 'array', items: valueSchema(field.value) }
      if (field.form === 'wrapped') xml.wrapped = true
    } else if (field.form === 'attribute') {
      schema = valueSchema(field.value)
      xml.attribute = true
    } else {
      const scalar = field.value as { type: Scalar, nullable: boolean }
      schema = { type: field.form === 'list' && scalar.nullable ? ['array', 'null'] : 'array', items: { type: scalar.type } }
      xml.list = true
      if (field.form === 'attribute-list') xml.attribute = true
    }
    // An element of a $ref or oneOf keeps its own name: "xml" goes beside them alone.
    if (Object.keys(xml).length > 0) schema = { ...schema, xml: { ...(schema.xml as Schema | undefined), ...xml } }
    properties[field.property] = schema
  }
  if (spec.any && spec.content === 'elements') properties.$any = { type: 'array', items: { type: 'object' }, xml: { any: true } }
  if (spec.content !== 'elements') {
    properties.$value = { ...scalarSchema(spec.content === 'mixed' ? 'string' : spec.text, false), xml: { text: true } }
  }
  return { type: 'object', properties, additionalProperties: false, ...(spec.content === 'mixed' ? { xml: { mixed: true } } : {}) }
}

// ------------------------------------------------------------------ values ---

const CHARS = ['<', '&', '>', '"', "'", '\r', '\n', '\t', ' ', 'a', 'Z', '0', '\u007F', '\u0085', '\u00E9', '\u2028', '\uE000', '\uFFFD', '\uD7FF', '𝄞', '😀']
const BAD_CHARS = ['\u0000', '\u0001', '\u001F', '\uFFFE', '\uFFFF', '\uD800', '\uDBFF', '\uDC00', '\uDFFF']
const piece = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...CHARS) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 12 }) }
)
// Short strings and long ones (the compiled writer escapes each its own way), now and then with a character XML
// cannot carry.
const xmlString = fc.oneof(
  fc.string({ unit: piece, maxLength: 12 }),
  fc.tuple(fc.string({ unit: piece, maxLength: 12 }), fc.nat({ max: 12 })).map(([s, times]) => s.repeat(times))
)
const string = fc.oneof(
  { weight: 12, arbitrary: xmlString },
  {
    weight: 1,
    arbitrary: fc.tuple(xmlString, fc.nat(), fc.constantFrom(...BAD_CHARS), fc.nat({ max: 4 }))
      .map(([s, at, bad, times]) => (s.slice(0, at % (s.length + 1)) + bad + s.slice(at % (s.length + 1))).repeat(times + 1))
  }
)
const integer = fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.maxSafeInteger(), fc.constantFrom(2 ** 53, -(2 ** 53), 1.5, 0.1))
// Doubles, and numbers of hundredths (which the compiled writer writes from their digits), near its bounds too.
const number = fc.oneof(
  fc.double(),
  fc.integer({ min: -1e6, max: 1e6 }).map((n) => n / 100),
  fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }).map((n) => n / 100),
  fc.constantFrom(-0, 0.005, -0.004, 0.01, 1e13 - 0.01, 1e13, 9999999999999.99, 1e15, 1e21, 1e-7, 5e-324, 0.1 + 0.2)
)
const bytes = fc.oneof(fc.uint8Array({ maxLength: 6 }), fc.uint8Array({ maxLength: 6 }).map((a) => Buffer.from(a)))
/** Values of every other kind: what a handler may return where the schema wants something else. */
const wrong = fc.constantFrom<unknown>(null, 'x', '', 1, 1.5, -0, NaN, Infinity, -Infinity, 2 ** 53, true, {}, [], [1], Buffer.from('ab'), () => 1, { $type: 'Base' })

function scalarValue (type: Scalar): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string': return string
    case 'integer': return integer
    case 'number': return number
    case 'boolean': return fc.boolean()
    default: return bytes
  }
}

/** `valid` mostly; now and then a value of another kind. */
const sometimesWrong = (valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 15, arbitrary: valid }, { weight: 1, arbitrary: wrong })

const rawElement = fc.record({
  name: fc.constant('p:r'),
  prefix: fc.constantFrom('p', ''),
  localName: fc.constantFrom('r', 'a b'),
  namespace: fc.constantFrom(OTHER, ''),
  attributes: fc.constant([]),
  children: fc.array(string, { maxLength: 2 })
})

// Nodes nested up to three deep: the writer of a shape that contains itself calls itself.
const node: fc.Arbitrary<unknown> = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.record({
    name: sometimesWrong(string),
    next: fc.oneof({ maxDepth: 3 }, fc.constant(undefined), tie('node'), tie('node')),
    kid: fc.oneof({ maxDepth: 3 }, fc.constant(undefined), fc.array(tie('node'), { maxLength: 2 }))
  })
})).node

const typed = fc.record({
  $type: fc.oneof({ weight: 6, arbitrary: fc.constantFrom('Base', 'Circle') }, { weight: 1, arbitrary: fc.constantFrom<unknown>('Shape', 'Square', undefined) }),
  name: string,
  r: number
}, { requiredKeys: [] })

function valueOf (spec: ValueSpec): fc.Arbitrary<unknown> {
  let value: fc.Arbitrary<unknown>
  switch (spec.kind) {
    case 'scalar': value = scalarValue(spec.type); break
    case 'node': return sometimesWrong(node)
    case 'typed': value = typed; break
    default: value = objectValue(spec.object)
  }
  return sometimesWrong(spec.nullable ? fc.oneof(fc.constant(null), value, value) : value)
}

function fieldValue (field: FieldSpec): fc.Arbitrary<unknown> {
  switch (field.form) {
    case 'element': case 'attribute': return valueOf(field.value)
    case 'unwrapped': case 'wrapped': return sometimesWrong(fc.array(valueOf(field.value), { maxLength: 3 }))
    default: {
      const scalar = field.value as { type: Scalar, nullable: boolean }
      const list = fc.array(sometimesWrong(scalarValue(scalar.type)), { maxLength: 3 })
      return sometimesWrong(field.form === 'list' && scalar.nullable ? fc.oneof(fc.constant(null), list) : list)
    }
  }
}

function objectValue (spec: ObjectSpec): fc.Arbitrary<unknown> {
  const fields = spec.content === 'text' ? spec.fields.filter((f) => f.form.startsWith('attribute')) : spec.fields
  const entries: Record<string, fc.Arbitrary<unknown>> = {}
  for (const field of fields) entries[field.property] = fieldValue(field)
  if (spec.any && spec.content === 'elements') entries.$any = sometimesWrong(fc.array(rawElement, { maxLength: 2 }))
  if (spec.content !== 'elements') entries.$value = sometimesWrong(scalarValue(spec.content === 'mixed' ? 'string' : spec.text))
  // Every property present as often as not: the compiled writer writes such an object (of no array) as one expression.
  return fc.oneof(fc.record(entries, { requiredKeys: [] }), fc.record(entries))
}

const cases = objectSpec(2).chain((spec) => fc.tuple(fc.constant(spec), sometimesWrong(objectValue(spec))))

// ------------------------------------------------------------------- tests ---

interface Writers { interpreted: (value: unknown) => string, compiled: (value: unknown) => string, combined: (value: unknown) => string }

function writersOf (spec: ObjectSpec): Writers {
  const schema = { ...objectSchema(spec), $defs }
  const shape = shapeOf(schema, '#', TNS) as ObjectShape
  const prefixes = prefixesFor(shape, TNS, schema, '#')
  return {
    ...elementWriters(shape, 'R', TNS, prefixes, usesXsi(shape)),
    combined: compileElement(shape, 'R', TNS, prefixes, usesXsi(shape))
  }
}

type Outcome = { written: string } | { error: unknown }

function outcome (write: () => string): Outcome {
  try {
    return { written: write() }
  } catch (error) {
    return { error }
  }
}

function errorOf (write: () => string): unknown {
  const result = outcome(write)
  if ('error' in result) return result.error
  throw new Error(`written: ${result.written.slice(0, 200)}`)
}

/** An error as compared: its class, code, message (which names the path) and path. */
function described (error: unknown): unknown {
  const e = error as Error & { code?: string, path?: string }
  return { class: e.constructor.name, code: e.code, message: e.message, path: e.path }
}

test(`codec write (${RULE}): the compiled writer writes what the interpreter writes; a value the interpreter refuses, it does not write, and compileElement() refuses it with the interpreter's error, code, path and message`, (t: TestContext) => {
  const seen = new Map<string, number>()
  const count = (what: string): void => { seen.set(what, (seen.get(what) ?? 0) + 1) }
  fc.assert(fc.property(cases, ([spec, value]) => {
    const writers = writersOf(spec)
    const reference = outcome(() => writers.interpreted(value))
    const compiled = outcome(() => writers.compiled(value))
    const combined = outcome(() => writers.combined(value))
    if ('written' in reference) {
      count('written')
      t.assert.deepStrictEqual(compiled, reference)
      t.assert.deepStrictEqual(combined, reference)
      if (/&(amp|lt|gt|quot|#xD|#x9|#xA);/.test(reference.written)) count('escaped')
      if (/xsi:type=/.test(reference.written)) count('xsi:type')
      if (/xsi:nil=/.test(reference.written)) count('nil')
      if (/:next[ />]/.test(reference.written)) count('recursion')
      if (spec.fields.every((f) => Object.hasOwn(value as object, f.property) && f.form !== 'unwrapped' && f.form !== 'wrapped')) count('every property present')
    } else {
      count('refused')
      t.assert.ok('error' in compiled, `the compiled writer wrote ${'written' in compiled ? compiled.written : ''}`)
      t.assert.ok('error' in combined)
      t.assert.deepStrictEqual(described(combined.error), described(reference.error))
      if (String((reference.error as Error).message).includes('XML 1.0 cannot carry')) count('unwritable character')
    }
  }), { numRuns: 1000 })
  for (const what of ['written', 'refused', 'escaped', 'xsi:type', 'nil', 'recursion', 'unwritable character', 'every property present']) {
    t.assert.ok((seen.get(what) ?? 0) >= 3, `the generated cases hold ${what} (${seen.get(what) ?? 0})`)
  }
})

test(`codec write (${RULE}): in an MTOM reply, the writer writes what the interpreter writes, with the same parts`, (t: TestContext) => {
  fc.assert(fc.property(cases, fc.nat({ max: 4 }), ([spec, value], threshold) => {
    const writers = writersOf(spec)
    const reference = new XopParts(threshold)
    const parts = new XopParts(threshold)
    const expected = outcome(() => writingParts(reference, () => writers.interpreted(value)))
    const got = outcome(() => writingParts(parts, () => writers.combined(value)))
    if ('written' in expected) t.assert.deepStrictEqual(got, { written: expected.written.replaceAll(reference.contentId(0).replace(/^0\./, ''), parts.contentId(0).replace(/^0\./, '')) })
    else t.assert.deepStrictEqual(described('error' in got ? got.error : undefined), described(expected.error))
    t.assert.deepStrictEqual(parts.parts, reference.parts)
  }), { numRuns: 300 })
})

test(`codec write (${RULE}): a number of hundredths is written from its digits as String() writes it`, (t: TestContext) => {
  const { compiled } = writersOf({ fields: [{ property: 'a', form: 'element', namespace: false, value: { kind: 'scalar', type: 'number', nullable: false } }], content: 'elements', text: 'string', any: false })
  const check = (n: number): void => { t.assert.strictEqual(compiled({ a: n }), `<tns:R xmlns:tns="${TNS}"><tns:a>${Object.is(n, -0) ? '-0' : String(n)}</tns:a></tns:R>`) }
  for (let k = -100_000; k <= 100_000; k++) check(k / 100)
  fc.assert(fc.property(fc.integer({ min: -(10 ** 15), max: 10 ** 15 }), (k) => { check(k / 100) }), { numRuns: 20_000 })
  fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => { check(n) }), { numRuns: 20_000 })
  for (const n of [-0, 0.005, 0.015, 1e13 - 0.01, 1e13 + 0.01, (1e15 - 1) / 100, (1e15 + 1) / 100, (1e16 - 1) / 100, 1e15, 1e21, 123e-7, 0.07]) check(n)
})

test(`codec write (${RULE}): an array longer than a run (lib/xml/chars.ts FLAT_RUN) is written whole by either writer, of scalars, objects or derived types`, (t: TestContext) => {
  const element = (value: ValueSpec): FieldSpec => ({ property: 'a', form: 'unwrapped', namespace: false, value })
  const specs: Array<[ValueSpec, (i: number) => unknown]> = [
    [{ kind: 'scalar', type: 'string', nullable: false }, (i) => `item ${i} & co`],
    [{ kind: 'node' }, (i) => ({ name: `n${i}` })],
    [{ kind: 'typed', nullable: false }, (i) => ({ $type: i % 2 === 0 ? 'Base' : 'Circle', name: `<${i}>` })]
  ]
  for (const [value, item] of specs) {
    const writers = writersOf({ fields: [element(value)], content: 'elements', text: 'string', any: false })
    const items = Array.from({ length: 3000 }, (_, i) => item(i))
    const written = writers.interpreted({ a: items })
    t.assert.ok(written.length > 3 * 16384, `${written.length} characters`)
    t.assert.strictEqual(writers.compiled({ a: items }), written)
    t.assert.strictEqual(writers.combined({ a: items }), written)
    // Refused at its last item: the interpreter names it.
    const refused = errorOf(() => writers.combined({ a: [...items, 1] }))
    t.assert.deepStrictEqual(described(refused), described(errorOf(() => writers.interpreted({ a: [...items, 1] }))))
    t.assert.match((refused as Error).message, /"\/a\/3000"/)
  }
})

test(`codec write (${RULE}): an error the value itself throws (a getter's) comes out of either writer as thrown, not as SOAP_ERR_OUTPUT_INVALID`, (t: TestContext) => {
  const writers = writersOf({ fields: [{ property: 'a', form: 'element', namespace: false, value: { kind: 'scalar', type: 'string', nullable: false } }], content: 'elements', text: 'string', any: false })
  const thrown = new TypeError('the getter of a')
  const value = Object.defineProperty({}, 'a', { enumerable: true, get () { throw thrown } })
  t.assert.strictEqual(errorOf(() => writers.interpreted(value)), thrown)
  t.assert.strictEqual(errorOf(() => writers.combined(value)), thrown)
})

/** The writers of a root R whose `list` is an array of `item`: the compiled writer writes it into a WriteBuffer. */
function listWriters (item: Schema, list = 'list'): Writers {
  const schema = { type: 'object', properties: { [list]: { type: 'array', items: item } }, additionalProperties: false }
  const shape = shapeOf(schema, '#', TNS) as ObjectShape
  const prefixes = prefixesFor(shape, TNS, schema, '#')
  return { ...elementWriters(shape, 'R', TNS, prefixes, false), combined: compileElement(shape, 'R', TNS, prefixes, false) }
}

const BYTES_RULE = `${RULE}, an array's items as bytes (lib/codec/write-text.ts)`

test(`codec write (${BYTES_RULE}): every character to U+00FF and past it, strings about BYTES_UP_TO long and numbers at the edges of their digits are written as the interpreter writes them`, (t: TestContext) => {
  const item = {
    type: 'object',
    properties: {
      a: { type: 'string', xml: { attribute: true } },
      i: { type: 'integer', xml: { attribute: true } },
      s: { type: 'string' },
      n: { type: 'number' },
      b: { type: 'boolean' }
    }
  }
  const writers = listWriters(item)
  const counts = { written: 0, refused: 0 }
  const check = (value: object): void => {
    const list = { list: [value, { s: 'next' }, value] }
    const reference = outcome(() => writers.interpreted(list))
    const compiled = outcome(() => writers.compiled(list))
    if ('written' in reference) {
      counts.written++
      t.assert.deepStrictEqual(compiled, reference)
    } else {
      counts.refused++
      t.assert.ok('error' in compiled, JSON.stringify(value))
    }
  }
  const strings = [
    ...Array.from({ length: 0x300 }, (_, c) => `<${String.fromCharCode(c)}>`),
    '😀', 'a\uD800b', 'ab\u4E2Dcd&<"', 'a\tb\nc\rd"e', 'é'.repeat(BYTES_UP_TO + 1),
    'x'.repeat(BYTES_UP_TO - 1) + '&', 'x'.repeat(BYTES_UP_TO) + '"', 'x'.repeat(BYTES_UP_TO + 1) + '\r', 'x'.repeat(BYTES_UP_TO) + '\u0001'
  ]
  for (const value of strings) check({ a: value, s: value })
  const numbers = [0, -0, 1, -1, 9, 10, 99, 100, 1e15 - 1, 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 53, 1e21, 0.07, -0.07, 0.5, 1.25,
    -1.05, 1e13 - 0.01, 1e13 + 0.01, 0.1 + 0.2, 5e-324, NaN, Infinity, -Infinity]
  for (const n of numbers) check({ i: n, n })
  for (const b of [true, false, 0]) check({ b })
  // An item of no attribute and no content is an empty element.
  check({})
  t.assert.ok(counts.written > 700 && counts.refused > 25, JSON.stringify(counts))
})

test(`codec write (${BYTES_RULE}): names past U+00FF, and values of other writers, are written between the bytes as the interpreter writes them`, (t: TestContext) => {
  const item = {
    type: 'object',
    properties: {
      東: { type: 'string', xml: { attribute: true } },
      ü: { type: 'string' },
      data: { type: 'string', contentEncoding: 'base64' },
      values: { type: 'array', items: { type: 'integer' }, xml: { list: true } },
      kid: { type: 'array', items: { type: 'object', properties: { 名: { type: 'integer' } } } }
    }
  }
  const writers = listWriters(item, '名前')
  const value = {
    名前: Array.from({ length: 2000 }, (_, k) => ({
      東: `v${k}`, ü: k % 3 === 0 ? '' : 'ü東', data: Buffer.from([k % 256]), values: [k, -k], kid: k % 2 === 0 ? [] : [{ 名: k }, {}]
    }))
  }
  const written = writers.interpreted(value)
  t.assert.ok(written.length > 4 * 16384 && written.includes('<tns:名前 東="v1">'), written.slice(0, 200))
  t.assert.strictEqual(writers.compiled(value), written)
})

test(`codec write (${BYTES_RULE}): a write within a write (a getter's) takes a buffer of its own, and an item not written leaves none of its bytes`, (t: TestContext) => {
  const writers = listWriters({ type: 'object', properties: { s: { type: 'string' } } })
  const inner = { list: [{ s: 'inner' }, { s: 'x'.repeat(20_000) }] }
  const within: string[] = []
  const getter = Object.defineProperty({}, 's', { enumerable: true, get () { within.push(writers.compiled(inner)); return 'b' } })
  const outer = { list: [{ s: 'a' }, getter, { s: 'c' }] }
  t.assert.strictEqual(writers.compiled(outer), writers.interpreted({ list: [{ s: 'a' }, { s: 'b' }, { s: 'c' }] }))
  t.assert.deepStrictEqual(within, [writers.interpreted(inner)])
  t.assert.ok('error' in outcome(() => writers.compiled({ list: [{ s: 'a'.repeat(30_000) }, { s: '\u0000' }] })))
  t.assert.strictEqual(writers.compiled({ list: [{ s: 'z' }] }), writers.interpreted({ list: [{ s: 'z' }] }))
})

test(`codec write (${BYTES_RULE}): an item longer than the buffer is written whole`, (t: TestContext) => {
  const names = Array.from({ length: 12 }, (_, k) => `a${k}`)
  const writers = listWriters({ type: 'object', properties: Object.fromEntries(names.map((name) => [name, { type: 'string', xml: { attribute: true } }])) })
  // Each value is BYTES_UP_TO characters of six bytes each once escaped: 72 KiB an item.
  const item = Object.fromEntries(names.map((name) => [name, '"'.repeat(BYTES_UP_TO)]))
  const value = { list: [item, item, item] }
  const written = writers.interpreted(value)
  t.assert.ok(written.length > 3 * 72 * 1024, `${written.length}`)
  t.assert.strictEqual(writers.compiled(value), written)
})

test(`codec write (${BYTES_RULE}): a long element is recorded with its pieces, and its envelope with them (lib/xml/pieces.ts); a short one is not`, (t: TestContext) => {
  const writers = listWriters({ type: 'object', properties: { s: { type: 'string' } } })
  const value = { list: Array.from({ length: 3000 }, (_, k) => ({ s: k % 100 === 0 ? `item ${k} 東` : `item ${k}` })) }
  const envelope = writeEnvelope(SOAP12, writers.combined(value))
  const pieces = takePieces(envelope)
  t.assert.strictEqual(envelope, writeEnvelope(SOAP12, writers.interpreted(value)))
  t.assert.ok(pieces !== undefined && pieces.length > 30, `${pieces?.length} pieces`)
  t.assert.strictEqual(pieces.join(''), envelope)
  const short = writeEnvelope(SOAP12, writers.combined({ list: [{ s: 'a' }] }))
  t.assert.strictEqual(takePieces(short), undefined)
})
