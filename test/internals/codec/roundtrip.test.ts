/**
 * Property-based tests of the codec (fast-check): random schemas from the
 * supported set, random values valid for each; what the writer compiled as
 * lib/service/compile.ts compiles it writes is well-formed for saxes, and the envelope
 * decoder and readElement() read back exactly the value that was written.
 * A string holding a character XML 1.0 cannot carry is refused, never written.
 */
import { test, type TestContext } from 'node:test'
import fc from 'fast-check'
import { SaxesParser } from 'saxes'
import { readElement } from '../../../lib/codec/read'
import { compileElement } from '../../../lib/codec/write'
import { EnvelopeDecoder } from '../../../lib/soap/envelope'
import { errorCodes } from '../../../lib/errors'
import { SOAP12, SOAP12_ENV } from '../../../lib/namespaces'
import { normalizeOptions } from '../../../lib/options'
import { usesXsi, shapeOf, type ObjectShape, type ScalarType } from '../../../lib/codec/shapes'
import { prefixesFor } from '../../../lib/codec/prefixes'
import { writeEnvelope } from '../../../lib/soap/writer'

const RUNS = 300
const decoder = new EnvelopeDecoder(normalizeOptions().limits)

// ------------------------------------------------ the writer, as lib/service/compile.ts compiles it ---

type Schema = Record<string, unknown>

interface Codec { shape: ObjectShape, name: string, namespace: string, write: (value: unknown) => string }

/** lib/service/compile.ts writer(), less Ajv: the element's shape and its compiled writer. */
function codecOf (schema: Schema, name: string, tns: string): Codec {
  const xml = (schema.xml ?? {}) as { name?: string, namespace?: string }
  const namespace = xml.namespace ?? tns
  const shape = shapeOf(schema, '#', namespace)
  if (shape.kind !== 'object' || shape.nullable) throw new Error('not an object schema')
  const element = xml.name ?? name
  return { shape, name: element, namespace, write: compileElement(shape, element, namespace, prefixesFor(shape, namespace, schema, '#'), usesXsi(shape)) }
}

/** Throws on anything saxes (XML 1.0 and Namespaces in XML) finds wrong. */
function assertWellFormed (xml: string): void {
  new SaxesParser({ xmlns: true }).write(xml).close()
}

// ------------------------------------------------------------------- schemas ---

const TNS = 'urn:example:orders'
const SECOND = 'http://example.org/b?x=1&y="2"'
const NCNAME = /^[A-Z_a-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF][-.0-9A-Z_a-z\u00B7\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u037D\u037F-\u1FFF]*$/

/**
 * Property names: the ones an object inherits, and ordinary NCNames; the last ones need an `xml.name`.
 * "__proto__" is no property name (lib/codec/shapes.ts refuses it: Ajv never validates it), only an XML name.
 */
const PROPERTIES = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', 'a', 'b', 'item', 'line', 'x-y', 'n.1', '_z', 'é', 'Ωmega', 'a·b', 'a/b', 'x~y', '1st', 'has space', '']
const NAMES = ['a', 'b', 'item', 'Item', 'é', 'z.z', 'tns', 'ns1', 'nil', 'type', 'Ω', '__proto__']
const PREFIXES = ['p', 'tns', 'ns1', 'ns2', 'é', 'q.1']

type Enumerated = string | number | boolean | null

interface ScalarSpec { kind: 'scalar', type: ScalarType, enum: Enumerated[] | undefined, typeless: boolean, format?: 'date' | 'date-time' }
interface ObjectSpec { kind: 'object', fields: FieldSpec[] }
type ValueSpec = ScalarSpec | ObjectSpec
type Nullable = 'no' | 'type' | 'keyword'
interface FieldSpec {
  property: string
  form: 'attribute' | 'element' | 'unwrapped' | 'wrapped'
  rename: string | undefined
  namespace: string | undefined
  required: boolean
  /** For an array, its items'. */
  nullable: Nullable
  itemName: string | undefined
  itemNamespace: string | undefined
  value: ValueSpec
}

const STRING_ENUMS: string[][] = [['a', 'b'], ['<&>', '"\'', ' x ', '𝄞'], ['', '\r\n', '\t']]
const scalarType = fc.constantFrom<ScalarType>('string', 'integer', 'number', 'boolean')
const scalarSpec: fc.Arbitrary<ScalarSpec> = fc.oneof(
  { weight: 5, arbitrary: scalarType.map((type): ScalarSpec => ({ kind: 'scalar', type, enum: undefined, typeless: false })) },
  // To the codec, a date is a string.
  { weight: 1, arbitrary: fc.constantFrom('date' as const, 'date-time' as const).map((format): ScalarSpec => ({ kind: 'scalar', type: 'string', enum: undefined, typeless: false, format })) },
  {
    weight: 1,
    arbitrary: fc.record({
      values: fc.oneof(
        fc.constantFrom(...STRING_ENUMS).map((e) => ({ type: 'string' as const, e: e as Enumerated[] })),
        fc.constant({ type: 'integer' as const, e: [1, -2, 0] as Enumerated[] }),
        fc.constant({ type: 'number' as const, e: [1.5, -0, 2] as Enumerated[] }),
        fc.constant({ type: 'boolean' as const, e: [true] as Enumerated[] })
      ),
      typeless: fc.boolean()
    }).map(({ values, typeless }): ScalarSpec => ({
      kind: 'scalar',
      type: values.type,
      enum: values.e,
      // An enum without "type" must hold one scalar type: not so for [1.5, -0, 2].
      typeless: typeless && values.type !== 'number'
    }))
  }
)

/** `arbitrary`, or undefined `absent` times as often (shrinking towards undefined). */
const maybe = <T>(arbitrary: fc.Arbitrary<T>, absent = 1): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: absent, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary })
// Mostly the inherited namespace; now and then the root's named again, or the second one.
const fieldNamespace = maybe(fc.constantFrom(TNS, SECOND, SECOND), 3)
const nullable = fc.constantFrom<Nullable>('no', 'no', 'type', 'keyword')

function fieldSpec (depth: number): fc.Arbitrary<FieldSpec> {
  const value: fc.Arbitrary<ValueSpec> = depth === 0
    ? scalarSpec
    : fc.oneof({ weight: 3, arbitrary: scalarSpec }, { weight: 2, arbitrary: objectSpec(depth - 1) })
  const common = { property: fc.constantFrom(...PROPERTIES), rename: maybe(fc.constantFrom(...NAMES), 2), namespace: fieldNamespace, required: fc.boolean() }
  const none = { itemName: fc.constant(undefined), itemNamespace: fc.constant(undefined) }
  return fc.oneof(
    fc.record({ ...common, ...none, form: fc.constant('attribute' as const), nullable: fc.constant('no' as const), value: scalarSpec }),
    fc.record({ ...common, ...none, form: fc.constant('element' as const), nullable, value }),
    fc.record({ ...common, ...none, form: fc.constant('unwrapped' as const), nullable, value }),
    fc.record({ ...common, form: fc.constant('wrapped' as const), nullable, value, itemName: maybe(fc.constantFrom(...NAMES)), itemNamespace: fieldNamespace })
  )
}

function objectSpec (depth: number, minLength = 0): fc.Arbitrary<ObjectSpec> {
  return fc.uniqueArray(fieldSpec(depth), { minLength, maxLength: depth === 0 ? 3 : 4, selector: (f) => f.property })
    .map((fields): ObjectSpec => ({ kind: 'object', fields }))
}

interface RootSpec {
  object: ObjectSpec
  name: string
  explicitNamespace: boolean
  rootPrefix: string | undefined
  secondPrefix: string | undefined
}

const rootSpec: fc.Arbitrary<RootSpec> = fc.record({
  object: objectSpec(3, 1),
  name: fc.constantFrom('Response', 'OrderResponse', '__proto__', 'constructor'),
  explicitNamespace: fc.boolean(),
  rootPrefix: maybe(fc.constantFrom(...PREFIXES)),
  secondPrefix: maybe(fc.constantFrom(...PREFIXES))
})

/** An object with these own, enumerable data properties (`__proto__` included, as a plain name). */
function own (entries: Array<[string, unknown]>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of entries) Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true })
  return out
}

/**
 * The JSON Schema of a spec. Names that are no NCName get an `xml.name`, and
 * names that two properties would share are made distinct: the schema is
 * always one the codec accepts.
 */
function schemaOf (root: RootSpec): Schema {
  // One prefix per namespace, never one for both (prefixesOf() refuses that).
  const secondPrefix = root.secondPrefix === root.rootPrefix ? undefined : root.secondPrefix
  const prefixOf = (namespace: string): string | undefined => namespace === TNS ? root.rootPrefix : secondPrefix
  function xmlFor (name: string | undefined, namespace: string | undefined, extra: Record<string, unknown> = {}): Record<string, unknown> | undefined {
    const xml: Record<string, unknown> = { ...extra }
    if (name !== undefined) xml.name = name
    if (namespace !== undefined) {
      xml.namespace = namespace
      const prefix = prefixOf(namespace)
      if (prefix !== undefined) xml.prefix = prefix
    }
    return Object.keys(xml).length === 0 ? undefined : xml
  }
  function typed (type: string, nullability: Nullable): Schema {
    if (nullability === 'type') return { type: [type, 'null'] }
    if (nullability === 'keyword') return { type, nullable: true }
    return { type }
  }
  function valueSchema (spec: ValueSpec, nullability: Nullable, inherited: string): Schema {
    if (spec.kind === 'object') return { ...typed('object', nullability), ...objectSchema(spec, inherited) }
    if (spec.format !== undefined) return { ...typed(spec.type, nullability), format: spec.format }
    if (spec.enum === undefined) return typed(spec.type, nullability)
    if (spec.typeless) return { enum: nullability === 'no' ? spec.enum : [...spec.enum, null] }
    return { ...typed(spec.type, nullability), enum: nullability === 'no' ? spec.enum : [...spec.enum, null] }
  }
  function objectSchema (spec: ObjectSpec, inherited: string): Schema {
    const properties = own([])
    const required: string[] = []
    const taken = new Set<string>()
    for (const field of spec.fields) {
      let name = field.rename ?? field.property
      let rename = field.rename
      if (!NCNAME.test(name)) name = rename = 'p'
      const namespace = field.form === 'attribute' ? field.namespace ?? '' : field.namespace ?? inherited
      const kind = field.form === 'attribute' ? 'attribute' : 'element'
      for (let k = 1; taken.has(`${kind}{${namespace}}${name}`); k++) name = rename = `${field.rename ?? 'p'}_${k}`
      taken.add(`${kind}{${namespace}}${name}`)
      let schema: Schema
      if (field.form === 'attribute') {
        schema = valueSchema(field.value, 'no', namespace)
        schema.xml = xmlFor(rename, field.namespace, { attribute: true })
      } else if (field.form === 'element') {
        schema = valueSchema(field.value, field.nullable, namespace)
        const xml = xmlFor(rename, field.namespace)
        if (xml !== undefined) schema.xml = xml
      } else {
        const wrapped = field.form === 'wrapped'
        const itemNamespace = wrapped ? field.itemNamespace ?? namespace : namespace
        const items = valueSchema(field.value, field.nullable, itemNamespace)
        const itemXml = wrapped ? xmlFor(field.itemName, field.itemNamespace) : undefined
        if (itemXml !== undefined) items.xml = itemXml
        schema = { type: 'array', items }
        const xml = xmlFor(rename, field.namespace, wrapped ? { wrapped: true } : {})
        if (xml !== undefined) schema.xml = xml
      }
      Object.defineProperty(properties, field.property, { value: schema, writable: true, enumerable: true, configurable: true })
      if (field.required) required.push(field.property)
    }
    const out: Schema = { properties, additionalProperties: false }
    if (required.length > 0) out.required = required
    return out
  }
  const xml: Record<string, unknown> = {}
  if (root.explicitNamespace) xml.namespace = TNS
  if (root.rootPrefix !== undefined) xml.prefix = root.rootPrefix
  const schema: Schema = { type: 'object', ...objectSchema(root.object, TNS) }
  if (Object.keys(xml).length > 0) schema.xml = xml
  return schema
}

// -------------------------------------------------------------------- values ---

const isXmlChar = (c: number): boolean => c === 0x9 || c === 0xA || c === 0xD || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) || c >= 0x10000
/** Pieces that tend to break writers: markup, quotes, line ends, C1 and Unicode line separators, astral characters. */
const SPECIAL = ['<', '&', '>', '"', "'", '\r', '\n', '\t', ' ', '\r\n', ']]>', '&amp;', '&#x0;', '\u0085', '\u2028', '\u007F', '\u00A0', '\uFEFF', '\uFFFD', '\uE000', '\uD7FF', '𝄞', '😀', '\u{10000}', '\u{10FFFF}']
const codePoint = fc.integer({ min: 0, max: 0x10FFFF }).filter(isXmlChar).map((c) => String.fromCodePoint(c))
const xmlString = fc.string({
  unit: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...SPECIAL) },
    { weight: 3, arbitrary: codePoint },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) }
  ),
  maxLength: 8
})
const integer = fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.maxSafeInteger(), fc.constantFrom(Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER))
const double = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(-0, 0, 1e21, -1e-7, 5e-324, Number.MAX_VALUE, -Number.MAX_VALUE, 0.1, Number.EPSILON)
)

const date = fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => d.toISOString())

function scalarValue (spec: ScalarSpec): fc.Arbitrary<unknown> {
  if (spec.enum !== undefined) return fc.constantFrom(...spec.enum)
  if (spec.format !== undefined) return spec.format === 'date' ? date.map((d) => d.slice(0, 10)) : date
  switch (spec.type) {
    case 'string': return xmlString
    case 'integer': return integer
    case 'number': return double
    default: return fc.boolean()
  }
}

const ABSENT = Symbol('absent')

function valueOf (spec: ValueSpec, nullability: Nullable): fc.Arbitrary<unknown> {
  const value = spec.kind === 'scalar' ? scalarValue(spec) : objectValue(spec)
  return nullability === 'no' ? value : fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 3, arbitrary: value })
}

function objectValue (spec: ObjectSpec): fc.Arbitrary<Record<string, unknown>> {
  const entries = spec.fields.map((field): fc.Arbitrary<unknown> => {
    let value: fc.Arbitrary<unknown>
    if (field.form === 'attribute' || field.form === 'element') {
      value = valueOf(field.value, field.nullable)
    } else {
      value = fc.array(valueOf(field.value, field.nullable), { maxLength: 3 })
    }
    // An unwrapped array reads as [] when absent: it is always present.
    if (field.required || field.form === 'unwrapped') return value
    return fc.oneof(fc.constant(ABSENT), value)
  })
  return fc.tuple(...entries).map((values) => own(
    spec.fields.flatMap((field, i): Array<[string, unknown]> => values[i] === ABSENT ? [] : [[field.property, values[i]]])
  ))
}

const cases = rootSpec.chain((root) => fc.tuple(fc.constant(root), objectValue(root.object)))

// --------------------------------------------------------------------- tests ---

/** What the generated cases hold, to show the generators reach what they claim to. */
function survey (spec: ObjectSpec, value: unknown, seen: Set<string>, depth = 0): void {
  if (value === null) { seen.add('null'); return }
  const object = value as Record<string, unknown>
  if (spec.fields.length === 0) seen.add('empty object')
  for (const field of spec.fields) {
    if (!Object.hasOwn(object, field.property)) { seen.add('absent'); continue }
    if (field.rename === '__proto__' || field.itemName === '__proto__') seen.add('element named __proto__')
    if (field.property === 'constructor') seen.add('property named constructor')
    seen.add(field.form)
    if (field.namespace === SECOND || field.itemNamespace === SECOND) seen.add('second namespace')
    const v = object[field.property]
    const items = Array.isArray(v) ? v : [v]
    for (const item of items) {
      if (field.value.kind === 'object') {
        seen.add(`objects nested ${depth + 1} deep`)
        survey(field.value, item, seen, depth + 1)
      } else if (item === null) {
        seen.add('null')
      } else if (typeof item === 'string' && /[\u{10000}-\u{10FFFF}]/u.test(item)) {
        seen.add('astral')
      } else if (Object.is(item, -0)) {
        seen.add('-0')
      }
      if (field.value.kind === 'scalar' && field.value.enum !== undefined) seen.add('enum')
      if (field.value.kind === 'scalar' && field.value.format !== undefined) seen.add('format')
    }
  }
}

test('codec round trip: what the compiled writer writes is well-formed and reads back deep-equal to the value', (t: TestContext) => {
  const seen = new Set<string>()
  fc.assert(fc.property(cases, ([root, value]) => {
    const schema = schemaOf(root)
    const codec = codecOf(schema, root.name, TNS)
    const envelope = writeEnvelope(SOAP12, codec.write(value))
    assertWellFormed(envelope)
    const { tree, bodyNodes } = decoder.decode(envelope, SOAP12_ENV, 'utf-8')
    t.assert.strictEqual(bodyNodes.length, 1)
    t.assert.strictEqual(tree.name(bodyNodes[0]).namespace, codec.namespace)
    t.assert.strictEqual(tree.name(bodyNodes[0]).localName, codec.name)
    t.assert.deepStrictEqual(readElement(codec.shape, tree, bodyNodes[0]), value)
    survey(root.object, value, seen)
    if (root.rootPrefix !== undefined || root.secondPrefix !== undefined) seen.add('xml.prefix')
  }), { numRuns: RUNS })
  for (const what of ['element named __proto__', 'property named constructor', 'attribute', 'element', 'unwrapped', 'wrapped', 'objects nested 3 deep', 'xml.prefix', 'absent', 'null', 'enum', 'format', 'astral', '-0', 'second namespace']) {
    t.assert.ok(seen.has(what), `the generated cases hold ${what}`)
  }
})

test('codec round trip: XML names "__proto__" (by xml.name) and properties named like Object.prototype members read back as own properties of plain objects', (t: TestContext) => {
  const properties = own([
    ['proto', { type: 'object', xml: { name: '__proto__' }, properties: { constructor: { type: 'string', xml: { attribute: true, name: '__proto__' } } } }],
    ['constructor', { type: 'array', items: { type: 'integer' } }],
    ['toString', { type: ['string', 'null'] }],
    ['hasOwnProperty', { type: 'array', xml: { wrapped: true }, items: { type: 'boolean', xml: { name: '__proto__' } } }]
  ])
  const codec = codecOf({ type: 'object', properties }, '__proto__', TNS)
  const value = own([['proto', own([['constructor', 'x']])], ['constructor', [1, 2]], ['toString', null], ['hasOwnProperty', [true]]])
  const xml = codec.write(value)
  t.assert.strictEqual(xml, `<tns:__proto__ xmlns:tns="${TNS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><tns:__proto__ __proto__="x"/><tns:constructor>1</tns:constructor><tns:constructor>2</tns:constructor><tns:toString xsi:nil="true"/><tns:hasOwnProperty><tns:__proto__>true</tns:__proto__></tns:hasOwnProperty></tns:__proto__>`)
  const { tree, bodyNodes } = decoder.decode(writeEnvelope(SOAP12, xml), SOAP12_ENV, 'utf-8')
  const decoded = readElement(codec.shape, tree, bodyNodes[0])
  t.assert.strictEqual(Object.getPrototypeOf(decoded), Object.prototype)
  t.assert.strictEqual(Object.getPrototypeOf(decoded.proto), Object.prototype)
  for (const key of ['constructor', 'toString', 'hasOwnProperty']) t.assert.ok(Object.hasOwn(decoded, key), key)
  t.assert.deepStrictEqual(decoded, value)
})

// Characters outside XML 1.0's Char production: C0 controls but tab, LF and CR; U+FFFE, U+FFFF; lone surrogates.
const UNWRITABLE = ['\u0000', '\u0001', '\u0008', '\u000B', '\u000C', '\u001F', '\uFFFE', '\uFFFF', '\uD800', '\uDBFF', '\uDC00', '\uDFFF']

interface Slot { path: Array<string | number>, set: (text: string) => void, text: string }

/** Every string of a value, with its JSON Pointer segments and a way to replace it. */
function stringSlots (spec: ObjectSpec, value: Record<string, unknown>, path: Array<string | number>, into: Slot[]): void {
  for (const field of spec.fields) {
    if (!Object.hasOwn(value, field.property)) continue
    const v = value[field.property]
    const visit = (item: unknown, at: Array<string | number>, set: (text: string) => void): void => {
      if (typeof item === 'string') into.push({ path: at, set, text: item })
      else if (item !== null && typeof item === 'object' && field.value.kind === 'object') stringSlots(field.value, item as Record<string, unknown>, at, into)
    }
    if (Array.isArray(v)) {
      v.forEach((item, i) => { visit(item, [...path, field.property, i], (text) => { v[i] = text }) })
    } else {
      visit(v, [...path, field.property], (text) => { Object.defineProperty(value, field.property, { value: text }) })
    }
  }
}

/** A deep copy (fast-check may reuse a generated value while shrinking: it is not changed in place). */
function clone (value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clone)
  if (value !== null && typeof value === 'object') return own(Object.entries(value).map(([k, v]): [string, unknown] => [k, clone(v)]))
  return value
}

const pointer = (segments: Array<string | number>): string => segments.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('')

test('codec: a string holding a character XML 1.0 cannot carry makes the writer throw SOAP_ERR_OUTPUT_INVALID at its path, never write', (t: TestContext) => {
  let checked = 0
  fc.assert(fc.property(cases, fc.nat(), fc.nat(), fc.constantFrom(...UNWRITABLE), ([root, generated], which, where, bad) => {
    const value = clone(generated) as Record<string, unknown>
    const slots: Slot[] = []
    stringSlots(root.object, value, [], slots)
    fc.pre(slots.length > 0)
    const slot = slots[which % slots.length]
    const chars = Array.from(slot.text)
    const at = where % (chars.length + 1)
    slot.set([...chars.slice(0, at), bad, ...chars.slice(at)].join(''))
    const codec = codecOf(schemaOf(root), root.name, TNS)
    let written: string | undefined
    t.assert.throws(() => { written = codec.write(value) }, (err: Error & { code?: string }) => {
      t.assert.ok(err instanceof errorCodes.SOAP_ERR_OUTPUT_INVALID)
      t.assert.strictEqual(err.code, 'SOAP_ERR_OUTPUT_INVALID')
      t.assert.strictEqual(err.message, `fastify-soap: the result at "${pointer(slot.path)}" holds a character XML 1.0 cannot carry`)
      return true
    })
    t.assert.strictEqual(written, undefined)
    checked++
  }), { numRuns: 200 })
  t.assert.ok(checked >= 100, `${checked} values with an unwritable character were refused`)
})
