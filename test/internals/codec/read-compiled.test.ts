/**
 * The compiled reader (lib/codec/read-compiled.ts) against the schema reader
 * it stands in for (lib/codec/read.ts), by differential property tests
 * (fast-check): random schemas from the supported set and random documents
 * for them, well-formed, some valid and some to be refused; the compiled
 * reader gives the same value, its properties in the same order, or the same
 * problem at the same JSON Pointer.
 */
import { test, type TestContext } from 'node:test'
import fc from 'fast-check'
import { InputProblem, readElement } from '../../../lib/codec/read'
import { compiledReader, readCompiled, RESTART, type CompiledReader } from '../../../lib/codec/read-compiled'
import { EnvelopeDecoder } from '../../../lib/soap/envelope'
import { SOAP12, SOAP12_ENV, XSI_NS } from '../../../lib/namespaces'
import { normalizeOptions } from '../../../lib/options'
import { shapeOf, type ObjectShape, type ScalarType } from '../../../lib/codec/shapes'
import { writeEnvelope } from '../../../lib/soap/writer'
import type { XmlTree } from '../../../lib/xml/tree'

const RUNS = 1000
const TNS = 'urn:t'
const OTHER = 'urn:other'
const decoder = new EnvelopeDecoder(normalizeOptions().limits)

type Schema = Record<string, unknown>

// ------------------------------------------------------------------- schemas ---

type Facet = 'none' | 'collapse' | 'base64'
interface ScalarSpec { kind: 'scalar', type: ScalarType, facet: Facet }
type Content = 'elements' | 'text' | 'any' | 'mixed'
interface ObjectSpec { kind: 'object', fields: FieldSpec[], content: Content, anyAttribute: boolean, text: ScalarSpec }
type Form = 'attribute' | 'attributeList' | 'element' | 'unwrapped' | 'wrapped' | 'list' | 'typed'
interface FieldSpec {
  form: Form
  property: string
  name: string
  namespace: string
  nullable: boolean
  value: ScalarSpec | ObjectSpec
}

/** Property names: plain, an Object.prototype member's, an array index's (it goes first in an object), odd ones. */
const PROPERTIES = ['a', 'b', 'c', 'constructor', 'toString', '0', '7', 'x y', 'n.1', 'é']
/** Few names, so that one name is an element and an attribute, in a shape and in the shapes in it. */
const NAMES = ['a', 'b', 'c', 'item']

const scalarSpec: fc.Arbitrary<ScalarSpec> = fc.record({
  kind: fc.constant('scalar' as const),
  type: fc.constantFrom<ScalarType>('string', 'integer', 'number', 'boolean'),
  facet: fc.constantFrom<Facet>('none', 'none', 'none', 'none', 'collapse', 'base64')
}).map((spec) => spec.type === 'string' ? spec : { ...spec, facet: 'none' })

const FORMS: Form[] = [
  'attribute', 'attribute', 'element', 'element', 'element', 'element', 'unwrapped', 'unwrapped', 'wrapped', 'list',
  'attributeList', 'typed'
]

function fieldSpec (depth: number): fc.Arbitrary<FieldSpec> {
  return fc.record({
    form: fc.constantFrom(...FORMS),
    property: fc.constantFrom(...PROPERTIES),
    name: fc.constantFrom(...NAMES),
    namespace: fc.constantFrom(TNS, TNS, TNS, OTHER, ''),
    nullable: fc.constantFrom(false, false, true),
    value: depth === 0
      ? scalarSpec
      : fc.oneof({ weight: 3, arbitrary: scalarSpec }, { weight: 2, arbitrary: objectSpec(depth - 1) })
  })
}

function objectSpec (depth: number): fc.Arbitrary<ObjectSpec> {
  return fc.record({
    kind: fc.constant('object' as const),
    fields: fc.uniqueArray(fieldSpec(depth), { maxLength: 5, selector: (f) => f.property }),
    content: fc.constantFrom<Content>('elements', 'elements', 'elements', 'elements', 'elements', 'text', 'any', 'mixed'),
    anyAttribute: fc.constantFrom(false, false, false, true),
    text: scalarSpec
  })
}

const STRING: ScalarSpec = { kind: 'scalar', type: 'string', facet: 'none' }

/**
 * The schema of a spec, and the spec as the schema reads it: forms a content
 * cannot hold are made elements, values a form cannot hold strings, names
 * that two fields would share made distinct.
 */
function schemaOf (original: ObjectSpec): { schema: Schema, spec: ObjectSpec } {
  const spec = { ...original }
  const properties: Schema = {}
  const taken = new Set<string>()
  const fields: FieldSpec[] = []
  for (const given of original.fields) {
    const field = { ...given }
    if (spec.content === 'text' && field.form !== 'attribute' && field.form !== 'attributeList') field.form = 'attribute'
    const attribute = field.form === 'attribute' || field.form === 'attributeList'
    if ((attribute || field.form === 'list') && field.value.kind === 'object') field.value = STRING
    // The items of a list have no "xml" of their own.
    if (field.form.endsWith('ist') && field.value.kind === 'scalar' && field.value.facet === 'collapse') {
      field.value = { ...field.value, facet: 'none' }
    }
    if (!attribute && field.namespace === '' && field.form === 'typed') field.namespace = TNS
    const kind = attribute ? 'attribute' : 'element'
    let name = field.name
    for (let k = 1; taken.has(`${kind}{${field.namespace}}${name}`); k++) name = `${field.name}${k}`
    taken.add(`${kind}{${field.namespace}}${name}`)
    field.name = name
    const { schema, spec: value } = field.value.kind === 'object' ? schemaOf(field.value) : { schema: undefined, spec: field.value }
    field.value = value
    fields.push(field)
    properties[field.property] = fieldSchema(field, schema)
  }
  spec.fields = fields
  if (spec.content === 'text' || spec.content === 'mixed') {
    const text = spec.content === 'mixed' ? STRING : spec.text
    spec.text = text
    properties.$value = { ...scalarSchema(text, false), xml: { text: true } }
  }
  if (spec.content === 'any') properties.$any = { type: 'array', items: { type: 'object' }, xml: { any: true } }
  const xml: Schema = {}
  if (spec.anyAttribute) xml.anyAttribute = true
  if (spec.content === 'mixed') xml.mixed = true
  return { schema: { type: 'object', properties, additionalProperties: false, xml }, spec }
}

function scalarSchema (spec: ScalarSpec, nullable: boolean): Schema {
  const type = nullable ? [spec.type, 'null'] : spec.type
  if (spec.facet === 'base64') return { type, contentEncoding: 'base64' }
  if (spec.facet === 'collapse') return { type, xml: { whiteSpace: 'collapse' } }
  return { type }
}

function valueSchema (spec: ScalarSpec | ObjectSpec, nullable: boolean, object: Schema | undefined): Schema {
  if (spec.kind === 'scalar' || object === undefined) return scalarSchema(spec as ScalarSpec, nullable)
  return nullable ? { ...object, type: ['object', 'null'] } : object
}

/** An object of type `name`: an alternative of a "oneOf" of types. */
function typed (name: string, properties: Schema): Schema {
  return { type: 'object', properties: { $type: { const: name }, ...properties }, required: ['$type'] }
}

function fieldSchema (field: FieldSpec, object: Schema | undefined): Schema {
  const xml: Schema = { name: field.name, namespace: field.namespace }
  const scalar = field.value as ScalarSpec
  const withXml = (schema: Schema, more: Schema = {}): Schema =>
    ({ ...schema, xml: { ...(schema.xml as Schema | undefined), ...xml, ...more } })
  switch (field.form) {
    case 'attribute': return withXml(scalarSchema(scalar, false), { attribute: true })
    case 'attributeList': return { type: 'array', items: scalarSchema(scalar, false), xml: { ...xml, attribute: true, list: true } }
    case 'element': return withXml(valueSchema(field.value, field.nullable, object))
    case 'unwrapped': return { type: 'array', items: valueSchema(field.value, field.nullable, object), xml }
    case 'wrapped': {
      const items = valueSchema(field.value, field.nullable, object)
      return { type: 'array', items: { ...items, xml: { ...(items.xml as Schema | undefined), name: 'i' } }, xml: { ...xml, wrapped: true } }
    }
    case 'list': return { type: field.nullable ? ['array', 'null'] : 'array', items: scalarSchema(scalar, false), xml: { ...xml, list: true } }
    case 'typed': {
      const oneOf = [typed('A', { x: { type: 'integer' } }), typed('B', { x: { type: 'integer' }, y: { type: 'string' } })]
      return { oneOf: field.nullable ? [...oneOf, { type: 'null' }] : oneOf, xml }
    }
  }
}

// ----------------------------------------------------------------- documents ---

type Gen = fc.GeneratorValue

/** Lexical forms of each type, as an element's text: read, and refused. */
const TEXTS: Record<ScalarType | 'base64', { valid: string[], invalid: string[] }> = {
  string: { valid: ['x', '', ' a  b ', 'a&amp;b', '<![CDATA[c<d]]>', 'é𝄞', '\n', 'item 3 &amp; co'], invalid: [] },
  integer: {
    valid: ['0', '12', '-3', '+7', ' 8 ', '007', '-0', '9007199254740991', '123456789012345'],
    invalid: ['1.0', '1e3', '', 'x', '9007199254740992', '--1', '0x10']
  },
  number: {
    valid: ['1.5', '-0', '.5', '5.', '1e3', ' 2.25 ', '0.1', '123456789012345.6', '1234567890123456', '-7', '3.75'],
    invalid: ['INF', 'NaN', '', '1.2.3', 'e3', '1e400', '-']
  },
  boolean: { valid: ['true', 'false', '1', '0', ' true '], invalid: ['TRUE', '', 'yes', '01'] },
  base64: { valid: ['AAEC', 'AA==', '', ' AAEC '], invalid: ['!', 'A'] }
}

const chance = (g: Gen, percent: number): boolean => g(fc.integer, { min: 0, max: 99 }) < percent
const pick = <T>(g: Gen, values: readonly T[]): T => values[g(fc.integer, { min: 0, max: values.length - 1 })]

function scalarText (g: Gen, spec: ScalarSpec, inAttribute: boolean): string {
  const texts = TEXTS[spec.facet === 'base64' ? 'base64' : spec.type]
  const pool = texts.invalid.length > 0 && chance(g, 10) ? texts.invalid : texts.valid
  const text = pick(g, pool)
  return inAttribute && text.includes('<') ? 'y' : text
}

const qname = (namespace: string, name: string): string =>
  namespace === TNS ? `t:${name}` : namespace === OTHER ? `o:${name}` : name

/** Attributes a client may add, or should not: passed over, nil, unknown. */
const EXTRA_ATTRIBUTES = [
  'o:k="v"', 'xml:lang="en"', 'xsi:type="xs:int"', 'xsi:schemaLocation="urn:t t.xsd"', 'zz="1"',
  'xsi:nil="true"', 'xsi:nil="false"', 'xsi:nil=" 1 "', 'xsi:nil="maybe"'
]

function extraAttributes (g: Gen, percent: number): string[] {
  const out: string[] = []
  while (out.length < 2 && chance(g, percent)) {
    const extra = pick(g, EXTRA_ATTRIBUTES)
    // One attribute of a name: a document that is not well-formed tells nothing of the readers.
    if (!out.some((a) => a.split('=')[0] === extra.split('=')[0])) out.push(extra)
  }
  return out
}

function element (name: string, attributes: string[], content: string): string {
  const list = attributes.map((a) => ` ${a}`).join('')
  return content === '' ? `<${name}${list}/>` : `<${name}${list}>${content}</${name}>`
}

function scalarElement (g: Gen, name: string, spec: ScalarSpec): string {
  const attributes = extraAttributes(g, 4)
  return element(name, attributes, scalarContent(g, spec))
}

/** A scalar's text, now and then with markup around it: an element where text is due, a comment. */
function scalarContent (g: Gen, spec: ScalarSpec): string {
  const text = scalarText(g, spec, false)
  return chance(g, 4) ? pick(g, [`<t:z>1</t:z>${text}`, `${text}<t:z/>`, `<!--c-->${text}`, `${text}<!--c-->${text}`]) : text
}

function valueElement (g: Gen, name: string, spec: ScalarSpec | ObjectSpec, depth: number): string {
  return spec.kind === 'scalar' ? scalarElement(g, name, spec) : objectElement(g, name, spec, [], depth + 1)
}

function fieldElements (g: Gen, field: FieldSpec, depth: number): string[] {
  const name = qname(field.namespace, field.name)
  switch (field.form) {
    case 'element': {
      const count = chance(g, 12) ? 0 : chance(g, 3) ? 2 : 1
      return Array.from({ length: count }, () => valueElement(g, name, field.value, depth))
    }
    case 'unwrapped':
      return Array.from({ length: g(fc.integer, { min: 0, max: 3 }) }, () => valueElement(g, name, field.value, depth))
    case 'wrapped': {
      const items = Array.from({ length: g(fc.integer, { min: 0, max: 3 }) }, () =>
        valueElement(g, chance(g, 4) ? 't:j' : qname(field.namespace, 'i'), field.value, depth))
      return chance(g, 10) ? [] : [element(name, extraAttributes(g, 3), items.join(chance(g, 10) ? '\n ' : ''))]
    }
    case 'list': {
      const spec = field.value as ScalarSpec
      const items = Array.from({ length: g(fc.integer, { min: 0, max: 3 }) }, () => scalarText(g, spec, true).trim())
      return chance(g, 10) ? [] : [element(name, extraAttributes(g, 3), items.join(pick(g, [' ', '\n\t'])))]
    }
    case 'typed': {
      if (chance(g, 10)) return []
      const type = pick(g, ['', ' xsi:type="t:A"', ' xsi:type="t:B"', ' xsi:type="t:B"', ' xsi:type="t:Q"', ' xsi:type="q:A"'])
      const x = chance(g, 90) ? `<t:x>${scalarText(g, { kind: 'scalar', type: 'integer', facet: 'none' }, false)}</t:x>` : ''
      const y = type.includes('B') && chance(g, 70) ? '<t:y>s</t:y>' : ''
      return [`<${name}${type}>${x}${y}</${name}>`]
    }
    default:
      return []
  }
}

/** An element of an object's shape: its attributes, then its children, mostly as the schema has them. */
function objectElement (g: Gen, name: string, spec: ObjectSpec, declarations: string[], depth: number): string {
  let attributes: string[] = []
  for (const field of spec.fields) {
    if ((field.form !== 'attribute' && field.form !== 'attributeList') || chance(g, 15)) continue
    const value = field.value as ScalarSpec
    const text = field.form === 'attribute'
      ? scalarText(g, value, true)
      : Array.from({ length: g(fc.integer, { min: 0, max: 2 }) }, () => scalarText(g, value, true).trim()).join(' ')
    attributes.push(`${qname(field.namespace, field.name)}="${text}"`)
  }
  if (chance(g, 10)) attributes.reverse()
  attributes = [...declarations, ...attributes, ...extraAttributes(g, 4)]
  if (spec.content === 'text') {
    return element(name, attributes, scalarContent(g, spec.text))
  }
  const children = depth > 3 ? [] : spec.fields.flatMap((field) => fieldElements(g, field, depth))
  if (children.length > 1 && chance(g, 10)) {
    const i = g(fc.integer, { min: 0, max: children.length - 1 })
    const j = g(fc.integer, { min: 0, max: children.length - 1 });
    [children[i], children[j]] = [children[j], children[i]]
  }
  if (chance(g, spec.content === 'any' ? 40 : 4)) {
    children.splice(g(fc.integer, { min: 0, max: children.length }), 0, pick(g, ['<o:zz a="1">v</o:zz>', '<t:zz/>', '<t:a/>']))
  }
  const between = (): string => chance(g, 80) ? '' : chance(g, spec.content === 'mixed' ? 50 : 85) ? '\n  ' : 'text'
  return element(name, attributes, children.map((child) => between() + child).join('') + (children.length > 0 ? between() : ''))
}

const DECLARATIONS = [`xmlns:t="${TNS}"`, `xmlns:o="${OTHER}"`, `xmlns:xsi="${XSI_NS}"`, 'xmlns:xs="http://www.w3.org/2001/XMLSchema"']

/** The payload element of an envelope around `xml`, and the tree it is in. */
function elementOf (xml: string): [XmlTree, number] {
  const { tree, bodyNodes } = decoder.decode(writeEnvelope(SOAP12, xml), SOAP12_ENV, 'utf-8')
  return [tree, bodyNodes[0]]
}

// ------------------------------------------------------------------ outcomes ---

type Outcome = { value: unknown, keys: unknown } | { problem: { message: string, unquoted: string, path: string, elements: string[] } } | { restart: true }

/** Every object's own keys, in order, at every depth: what deepStrictEqual does not compare. */
function keysOf (value: unknown): unknown {
  if (Array.isArray(value)) return value.map(keysOf)
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return null
  return Object.entries(value).map(([key, v]) => [key, keysOf(v)])
}

function outcome (read: () => unknown): Outcome {
  try {
    const value = read()
    return { value, keys: keysOf(value) }
  } catch (err) {
    if (err === RESTART) return { restart: true }
    if (!(err instanceof InputProblem)) throw err
    return { problem: { message: err.message, unquoted: err.unquoted, path: err.path, elements: err.elements } }
  }
}

function shapeFor (schema: Schema): ObjectShape {
  return shapeOf(schema, '#', TNS) as ObjectShape
}

/**
 * The compiled reader alone, without read.ts reading again: the same value, or a problem where read.ts finds one;
 * or it leaves the whole element to read.ts (RESTART). Whether it read the element alone.
 */
function assertAlone (t: TestContext, shape: ObjectShape, document: string, reference: Outcome): boolean {
  const reader = compiledReader(shape) as CompiledReader
  const alone = outcome(() => reader(...elementOf(document)))
  if ('restart' in alone) return false
  if ('value' in reference) t.assert.deepStrictEqual(alone, reference, document)
  else t.assert.ok('problem' in alone, document)
  return true
}

const specs = objectSpec(2)

test('codec read: the compiled reader reads what the schema reader reads, or refuses it with the same problem at the same path (docs/benchmarks.md "Where the time goes")', (t: TestContext) => {
  const seen = { read: 0, refused: 0, compiled: 0, alone: 0 }
  fc.assert(fc.property(specs, fc.gen(), (spec, g) => {
    const { schema, spec: read } = schemaOf(spec)
    const shape = shapeFor(schema)
    const document = objectElement(g, 't:R', read, DECLARATIONS, 0)
    // Each read on a tree of its own: the names' memos start empty, or hold the other reader's.
    const compiled = outcome(() => readCompiled(shape, ...elementOf(document)))
    const [tree, p] = elementOf(document)
    const reference = outcome(() => readElement(shape, tree, p))
    t.assert.deepStrictEqual(compiled, reference, document)
    t.assert.deepStrictEqual(outcome(() => readCompiled(shape, tree, p)), reference, document)
    if (compiledReader(shape) !== undefined) {
      seen.compiled++
      if (assertAlone(t, shape, document, reference)) seen.alone++
    }
    if ('value' in reference) seen.read++; else seen.refused++
  }), { numRuns: RUNS, includeErrorInReport: true })
  t.assert.ok(
    seen.read > RUNS / 4 && seen.refused > RUNS / 10 && seen.compiled > RUNS / 2 && seen.alone > RUNS / 2,
    JSON.stringify(seen)
  )
})

test('codec read: the compiled reader reads each lexical form of a scalar as readScalar() does, in an element and in an attribute, or refuses it at the same path', (t: TestContext) => {
  let checked = 0
  for (const type of ['string', 'integer', 'number', 'boolean'] as const) {
    const schema = { type: 'object', properties: { v: { type }, a: { type, xml: { attribute: true } }, l: { type: 'array', items: { type } } } }
    const shape = shapeFor(schema)
    t.assert.notStrictEqual(compiledReader(shape), undefined)
    const { valid, invalid } = TEXTS[type]
    for (const text of [...valid, ...invalid]) {
      const inAttribute = text.includes('<') ? 'y' : text
      for (const document of [
        `<t:R ${DECLARATIONS.join(' ')}><t:v>${text}</t:v></t:R>`,
        `<t:R ${DECLARATIONS.join(' ')} a="${inAttribute}"/>`,
        `<t:R ${DECLARATIONS.join(' ')}><t:l>1</t:l><t:l>${text}</t:l></t:R>`
      ]) {
        const reference = outcome(() => readElement(shape, ...elementOf(document)))
        t.assert.deepStrictEqual(outcome(() => readCompiled(shape, ...elementOf(document))), reference, document)
        // Scalars in schema order: the compiled reader reads each of these itself.
        t.assert.ok(assertAlone(t, shape, document, reference), document)
        checked++
      }
    }
  }
  t.assert.strictEqual(checked, 3 * (8 + 16 + 18 + 9))
})

test('codec read: records of scalars, the large workload\'s, are read by compiled readers, no record left to read.ts, compact, indented or with xsi:type on every element (docs/benchmarks.md "Where the time goes")', (t: TestContext) => {
  const item = { type: 'object', properties: { id: { type: 'integer', xml: { attribute: true } }, name: { type: 'string' }, price: { type: 'number' }, tags: { type: 'string' } } }
  const shape = shapeFor({ type: 'object', properties: { item: { type: 'array', items: item } } })
  const record = (i: number, type: (name: string) => string): string =>
    `<t:item id="${i}"${type('t:Item')}><t:name${type('xs:string')}>item ${i} &amp; co</t:name><t:price${type('xs:double')}>${(i * 1.25).toFixed(2)}</t:price><t:tags${type('xs:string')}>a b c</t:tags></t:item>`
  const plain = Array.from({ length: 50 }, (_, i) => record(i, () => ''))
  const typed = Array.from({ length: 50 }, (_, i) => record(i, (name) => ` xsi:type="${name}"`))
  for (const records of [plain.join(''), plain.join('\n  '), typed.join('')]) {
    const document = `<t:R ${DECLARATIONS.join(' ')}>${records}</t:R>`
    const [tree, p] = elementOf(document)
    const value = readCompiled(shape, tree, p)
    // read.ts keeps the field it finds for a child on the child's name, under the object's shape: no name holds one.
    t.assert.ok(tree.names.every((name) => name.memoShape !== shape && name.memoShape !== shape.elements[0].shape))
    const reference = readElement(shape, ...elementOf(document))
    t.assert.deepStrictEqual(value, reference)
    t.assert.deepStrictEqual(keysOf(value), keysOf(reference))
    t.assert.deepStrictEqual((value.item as unknown[])[3], { id: 3, name: 'item 3 & co', price: 3.75, tags: 'a b c' })
  }
})

test('docs/protocol.md "Limits" (linear cost): an element whose children the compiled reader leaves to read.ts is read at most twice, however deep', (t: TestContext) => {
  // A recursive type; at every level a child comes before the one the schema puts first, which read.ts accepts.
  const node = { type: 'object', properties: { name: { type: 'string' }, child: { $ref: '#/$defs/Node' }, v: { type: 'array', items: { type: 'integer' } } } }
  const shape = shapeFor({ $defs: { Node: node }, ...node })
  for (const depth of [1, 10, 40]) {
    let inner = '<t:v>1</t:v>'.repeat(200)
    for (let d = 0; d < depth; d++) inner = `<t:child>${inner}</t:child><t:name>n${d}</t:name>`
    const document = `<t:R ${DECLARATIONS.join(' ')}>${inner}</t:R>`
    // The compiled reader does leave it to read.ts.
    t.assert.throws(() => (compiledReader(shape) as CompiledReader)(...elementOf(document)), (err) => err === RESTART)
    // How often each reader asks the tree for an element's name: once per element it reads.
    const counted = (read: (tree: XmlTree, p: number) => unknown): [unknown, number] => {
      const [tree, p] = elementOf(document)
      let count = 0
      const name = tree.name.bind(tree)
      tree.name = (q: number) => { count++; return name(q) }
      return [read(tree, p), count]
    }
    const [reference, once] = counted((tree, p) => readElement(shape, tree, p))
    const [value, compiled] = counted((tree, p) => readCompiled(shape, tree, p))
    t.assert.deepStrictEqual(value, reference)
    t.assert.ok(compiled <= 2 * once, `depth ${depth}: ${compiled} names asked for, read.ts alone ${once}`)
  }
})
