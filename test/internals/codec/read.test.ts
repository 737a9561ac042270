/**
 * The codec, rule by rule: the XML Schema lexical spaces readScalar() accepts,
 * what readElement() refuses and the JSON Pointer it reports, what the
 * compiled writer writes, and the schemas shapeOf() refuses.
 */
import { test, type TestContext } from 'node:test'
import fc from 'fast-check'
import { InputProblem, readElement, readScalar } from '../../../lib/codec/read'
import { compileElement } from '../../../lib/codec/write'
import { EnvelopeDecoder } from '../../../lib/soap/envelope'
import { errorCodes } from '../../../lib/errors'
import { SOAP12, SOAP12_ENV, XML_NS, XMLNS_NS, XSI_NS } from '../../../lib/namespaces'
import { normalizeOptions } from '../../../lib/options'
import { usesXsi, shapeOf, type NamedShapes, type ObjectShape } from '../../../lib/codec/shapes'
import { prefixesFor } from '../../../lib/codec/prefixes'
import { writeEnvelope } from '../../../lib/soap/writer'
import type { XmlTree } from '../../../lib/xml/tree'
import type { XmlElement } from '../../../lib/types'

const TNS = 'urn:t'
const OTHER = 'urn:other'
const decoder = new EnvelopeDecoder(normalizeOptions().limits)

type Schema = Record<string, unknown>
type Coded = Error & { code?: string }

const object = (properties: Schema, extra: Schema = {}): Schema => ({ type: 'object', properties, ...extra })
const int = { type: 'integer' }
const str = { type: 'string' }
const attr = (type: string, xml: Schema = {}): Schema => ({ type, xml: { attribute: true, ...xml } })
/** An object of type `name`: an alternative of a "oneOf" of types (its `$type` required). */
const typed = (name: string, extra: Schema = {}): Schema =>
  ({ type: 'object', properties: { $type: { const: name } }, required: ['$type'], ...extra })

function shapeFor (schema: Schema): ObjectShape {
  const shape = shapeOf(schema, '#', TNS)
  if (shape.kind !== 'object') throw new Error('not an object schema')
  return shape
}

/** The payload element of an envelope around `xml`, and the tree it is in. */
function elementOf (xml: string): [XmlTree, number] {
  const { tree, bodyNodes } = decoder.decode(writeEnvelope(SOAP12, xml), SOAP12_ENV, 'utf-8')
  return [tree, bodyNodes[0]]
}

/** `<t:R>` with the usual declarations (t, o, xsi) around `inner`. */
const R = (inner: string, attributes = ''): string => `<t:R xmlns:t="${TNS}" xmlns:o="${OTHER}" xmlns:xsi="${XSI_NS}"${attributes}>${inner}</t:R>`

function read (schema: Schema, xml: string): Record<string, unknown> {
  return readElement(shapeFor(schema), ...elementOf(xml))
}

/** The InputProblem reading `xml` raises. */
function problem (schema: Schema, xml: string): InputProblem {
  try {
    read(schema, xml)
  } catch (err) {
    if (err instanceof InputProblem) return err
    throw err
  }
  throw new Error(`read without a problem: ${xml}`)
}

function refusedScalar (type: 'integer' | 'number' | 'boolean', text: string): InputProblem {
  try {
    readScalar(type, text)
  } catch (err) {
    if (err instanceof InputProblem) return err
    throw err
  }
  throw new Error(`${type} ${JSON.stringify(text)} was accepted`)
}

/** The writer of `<R>` in TNS, compiled as lib/service/compile.ts compiles an output's. */
function writerOf (schema: Schema): (value: unknown) => string {
  const shape = shapeFor(schema)
  return compileElement(shape, 'R', TNS, prefixesFor(shape, TNS, schema, '#'), usesXsi(shape))
}

function outputError (schema: Schema, value: unknown): Coded {
  const write = writerOf(schema)
  let written: string | undefined
  try {
    written = write(value)
  } catch (err) {
    return err as Coded
  }
  throw new Error(`written: ${written}`)
}

function schemaError (schema: Schema): Coded {
  try {
    shapeOf(schema, '#', TNS)
  } catch (err) {
    return err as Coded
  }
  throw new Error('the schema was accepted')
}

function assertSchemaRefusal (t: TestContext, schema: Schema, where: string, message: RegExp): void {
  const err = schemaError(schema)
  t.assert.ok(err instanceof errorCodes.SOAP_ERR_SERVICE_SCHEMA, err.message)
  t.assert.strictEqual(err.code, 'SOAP_ERR_SERVICE_SCHEMA')
  t.assert.ok(err.message.startsWith(`fastify-soap: schema ${where}: `), err.message)
  t.assert.match(err.message, message)
}

/** The error compiling a writer for a schema raises (shape, then prefixes), as lib/service/compile.ts compiles one. */
function writerError (schema: Schema): Coded {
  try {
    const shape = shapeFor(schema)
    prefixesFor(shape, TNS, schema, '#')
  } catch (err) {
    return err as Coded
  }
  throw new Error('the schema was accepted')
}

function assertWriterRefusal (t: TestContext, schema: Schema, message: RegExp): void {
  const err = writerError(schema)
  t.assert.strictEqual(err.code, 'SOAP_ERR_SERVICE_SCHEMA', err.message)
  t.assert.match(err.message, message)
}

// ------------------------------------------------------------ readScalar ---

test('codec: xs:integer lexical space: " +007 " reads as 7 (whitespace collapsed, sign and leading zeros allowed)', (t: TestContext) => {
  t.assert.strictEqual(readScalar('integer', ' +007 '), 7)
  t.assert.strictEqual(readScalar('integer', '\t\r\n-42\n'), -42)
  t.assert.strictEqual(readScalar('integer', '0012'), 12)
  t.assert.strictEqual(readScalar('integer', '-000'), 0)
  t.assert.ok(Object.is(readScalar('integer', '-0'), 0), '-0 is the integer 0')
  t.assert.strictEqual(read(object({ n: int }), R('<t:n>\n  +0042\t</t:n>')).n, 42)
})

test('codec: xs:integer lexical space: "1.0", "1e3", "", "0x10" and other non-integers are refused', (t: TestContext) => {
  for (const text of ['1.0', '1.', '.0', '1e3', '', '   ', '0x10', '+', '-', '+-1', '1 2', '1_000', '1,000', '\u00A01', '١٢', 'Infinity', 'NaN', 'one']) {
    const p = refusedScalar('integer', text)
    t.assert.match(p.message, /is not an integer$/, JSON.stringify(text))
  }
})

test('codec: a short decimal read in place is exactly the double Number() reads, signs, zeros and points included', (t: TestContext) => {
  const digits = fc.stringMatching(/^[0-9]{0,9}$/)
  const decimal = fc.tuple(fc.constantFrom('', '-', '+'), digits, fc.constantFrom('', '.'), digits).map(([sign, whole, point, fraction]) => sign + whole + point + fraction)
  let read = 0
  fc.assert(fc.property(decimal, (text) => {
    const valid = /[0-9]/.test(text)
    for (const type of ['number', 'integer'] as const) {
      if (type === 'integer' && text.includes('.')) continue
      if (!valid || (type === 'integer' && !Number.isSafeInteger(Number(text)))) {
        t.assert.throws(() => readScalar(type, text), InputProblem, JSON.stringify(text))
        continue
      }
      const expected = type === 'integer' && Number(text) === 0 ? 0 : Number(text)
      t.assert.ok(Object.is(readScalar(type, text), expected), `${type} ${JSON.stringify(text)}`)
      read++
    }
  }), { numRuns: 2000 })
  t.assert.ok(read > 1000)
  for (const text of ['0.1', '0.3', '2.675', '1.005', '123456789.012345', '0.000000000000001', '-0', '-0.0', '999999999999999']) {
    t.assert.ok(Object.is(readScalar('number', text), Number(text)), text)
  }
})

test('codec: integers are held to the safe range: 2^53 and -2^53 refused, ±(2^53 - 1) read', (t: TestContext) => {
  t.assert.strictEqual(readScalar('integer', '9007199254740991'), Number.MAX_SAFE_INTEGER)
  t.assert.strictEqual(readScalar('integer', '-9007199254740991'), Number.MIN_SAFE_INTEGER)
  t.assert.strictEqual(readScalar('integer', '0009007199254740991'), Number.MAX_SAFE_INTEGER)
  for (const text of ['9007199254740992', '-9007199254740992', '9007199254740993', '99999999999999999999', '1' + '0'.repeat(400)]) {
    t.assert.match(refusedScalar('integer', text).message, /is outside the safe integer range$/, text)
  }
})

test('codec: xs:double lexical space: "1.", ".5", "1e-3", "-0", "+1E+3" and " 2.5 " are accepted', (t: TestContext) => {
  const cases: Array<[string, number]> = [['1.', 1], ['.5', 0.5], ['-.5', -0.5], ['1e-3', 0.001], ['+1E+3', 1000], [' 2.5 ', 2.5], ['1.e2', 100], ['007.50', 7.5], ['\n-12\t', -12], ['1e21', 1e21], ['4.9e-324', 5e-324]]
  for (const [text, value] of cases) t.assert.strictEqual(readScalar('number', text), value, text)
  t.assert.ok(Object.is(readScalar('number', '-0'), -0), '-0 keeps its sign')
  t.assert.ok(Object.is(readScalar('number', '-0.0e0'), -0), '-0.0e0 keeps its sign')
})

test('codec: xs:double INF, -INF and NaN have no JSON value: refused, never coerced', (t: TestContext) => {
  for (const text of ['INF', '-INF', '+INF', 'NaN', 'Infinity', '-Infinity', 'inf']) {
    t.assert.match(refusedScalar('number', text).message, /is not a finite number$/, text)
  }
})

test('codec: xs:double beyond the range of a double ("1e400", "-1e400") is refused', (t: TestContext) => {
  for (const text of ['1e400', '-1e400', '1' + '0'.repeat(400)]) {
    t.assert.match(refusedScalar('number', text).message, /is outside the range of a double$/, text)
  }
})

test('codec: xs:double lexical space: ".", "e3", "1e", "1.2.3", "0x10", "", "1,5" and "- 1" are refused', (t: TestContext) => {
  for (const text of ['.', 'e3', '1e', '1e+', '1.2.3', '0x10', '', ' ', '1,5', '- 1', '1 e3', '\u00A01']) {
    t.assert.match(refusedScalar('number', text).message, /is not a finite number$/, JSON.stringify(text))
  }
})

test('codec: xs:boolean lexical space: "true", "false", "1", "0" and " true " are accepted', (t: TestContext) => {
  t.assert.strictEqual(readScalar('boolean', 'true'), true)
  t.assert.strictEqual(readScalar('boolean', 'false'), false)
  t.assert.strictEqual(readScalar('boolean', '1'), true)
  t.assert.strictEqual(readScalar('boolean', '0'), false)
  t.assert.strictEqual(readScalar('boolean', ' true '), true)
  t.assert.strictEqual(readScalar('boolean', '\n\tfalse\r\n'), false)
})

test('codec: xs:boolean lexical space is case-sensitive and closed: "TRUE", "True", "yes", "", "01" are refused', (t: TestContext) => {
  for (const text of ['TRUE', 'True', 'FALSE', 'yes', 'no', 'on', '', '01', '+1', 't', '1.0']) {
    t.assert.match(refusedScalar('boolean', text).message, /is not a boolean$/, JSON.stringify(text))
  }
})

test('codec: xs:string is kept verbatim: no whitespace is collapsed or trimmed', (t: TestContext) => {
  t.assert.strictEqual(readScalar('string', '  a \t\r\n b  '), '  a \t\r\n b  ')
  t.assert.strictEqual(readScalar('string', ''), '')
  const schema = object({ s: str, e: str, c: str, cr: str })
  const value = read(schema, R('<t:s>  a  b\t</t:s><t:e/><t:c>a<![CDATA[ <&> ]]>b</t:c><t:cr>&#xD;\n&#x9;</t:cr>'))
  t.assert.deepStrictEqual(value, { s: '  a  b\t', e: '', c: 'a <&> b', cr: '\r\n\t' })
})

test('docs/services.md "The mapping", XML Schema Part 2 §4.3.6: xml.whiteSpace normalises a string as read (replace: tab, LF, CR become spaces; collapse: then runs of spaces one, none at the edges), in elements, attributes, text and array items', (t: TestContext) => {
  const replace = { type: 'string', xml: { whiteSpace: 'replace' } }
  const collapse = { type: 'string', xml: { whiteSpace: 'collapse' } }
  const schema = object({
    r: replace,
    c: collapse,
    p: { type: 'string', xml: { whiteSpace: 'preserve' } },
    a: { type: 'string', xml: { attribute: true, whiteSpace: 'collapse' } },
    items: { type: 'array', items: collapse },
    o: object({ $value: { type: 'string', xml: { text: true, whiteSpace: 'collapse' } } })
  })
  const value = read(schema, R('<t:r>\ta \r\n b </t:r><t:c>\n  a \t\r\n b  c \n</t:c><t:p> a  b </t:p><t:items> x </t:items><t:items>y</t:items><t:o>  z  </t:o>', ' a=" v  w "'))
  t.assert.deepStrictEqual(value, { a: 'v w', r: ' a   b ', c: 'a b c', p: ' a  b ', items: ['x', 'y'], o: { $value: 'z' } })
  t.assert.deepStrictEqual(read(schema, R('<t:r>a b</t:r><t:c>a b</t:c>')), { r: 'a b', c: 'a b', items: [] }, 'normalised values are kept as they are')
  assertSchemaRefusal(t, object({ a: { type: 'string', xml: { whiteSpace: 'trim' } } }), '#/properties/a', /"xml.whiteSpace" is one of "preserve", "replace", "collapse", on a schema of type "string"/)
  assertSchemaRefusal(t, object({ a: { type: 'integer', xml: { whiteSpace: 'collapse' } } }), '#/properties/a', /"xml.whiteSpace" is one of/)
  assertSchemaRefusal(t, object({ a: { type: 'array', items: str, xml: { list: true, whiteSpace: 'collapse' } } }), '#/properties/a', /"xml.whiteSpace" is one of/)
  t.assert.strictEqual(shapeOf(object({ a: { type: ['string', 'null'], xml: { whiteSpace: 'collapse' } } }), '#', TNS).kind, 'object')
})

test('docs/services.md "The mapping": xml.minOctets and xml.maxOctets go on a string whose contentEncoding is base64 or base16, as counts (SOAP_ERR_SERVICE_SCHEMA)', (t: TestContext) => {
  const message = /"xml.maxOctets" is a count of octets \(an integer, 0 or more\), on a string whose "contentEncoding" is "base64" or "base16"/
  assertSchemaRefusal(t, object({ a: { type: 'string', xml: { maxOctets: 4 } } }), '#/properties/a', message)
  assertSchemaRefusal(t, object({ a: { type: 'string', contentEncoding: 'base32', xml: { maxOctets: 4 } } }), '#/properties/a', message)
  assertSchemaRefusal(t, object({ a: { type: 'string', contentEncoding: 'base64', xml: { maxOctets: -1 } } }), '#/properties/a', message)
  assertSchemaRefusal(t, object({ a: { type: 'string', contentEncoding: 'base64', xml: { maxOctets: 1.5 } } }), '#/properties/a', message)
  assertSchemaRefusal(t, object({ a: { type: 'integer', contentEncoding: 'base64', xml: { maxOctets: 1 } } }), '#/properties/a', message)
  assertSchemaRefusal(t, object({ a: { type: 'string', contentEncoding: 'base16', xml: { minOctets: '1' } } }), '#/properties/a', /"xml.minOctets" is a count of octets/)
  t.assert.strictEqual(shapeOf(object({ a: { type: 'string', contentEncoding: 'base16', xml: { minOctets: 0, maxOctets: 8 } } }), '#', TNS).kind, 'object')
})

// -------------------------------------------------------------- xsi:nil ---

test('codec: xsi:nil="true" (or "1") on a nullable element reads as null; xsi:nil="false" reads the content', (t: TestContext) => {
  const schema = object({
    a: { type: ['string', 'null'] },
    b: { type: 'integer', nullable: true },
    c: { type: ['object', 'null'], properties: { x: int } },
    d: { type: ['string', 'null'] },
    items: { type: 'array', items: { type: ['integer', 'null'] } }
  })
  const value = read(schema, R('<t:a xsi:nil="true"/><t:b xsi:nil=" 1 "/><t:c xsi:nil="true"></t:c><t:d xsi:nil="false">x</t:d><t:items>1</t:items><t:items xsi:nil="true"/>'))
  t.assert.deepStrictEqual(value, { a: null, b: null, c: null, d: 'x', items: [1, null] })
})

test('codec: xsi:nil on an element that is not nullable is refused', (t: TestContext) => {
  const schema = object({ a: str, c: object({ x: int }), w: { type: 'array', xml: { wrapped: true }, items: int } })
  for (const [xml, path] of [['<t:a xsi:nil="true"/>', '/a'], ['<t:c xsi:nil="true"/>', '/c'], ['<t:w xsi:nil="true"/>', '/w']]) {
    const p = problem(schema, R(xml))
    t.assert.match(p.message, /is xsi:nil but cannot be null/)
    t.assert.strictEqual(p.path, path)
  }
  t.assert.match(problem(schema, R('', ' xsi:nil="true"')).message, /t:R is xsi:nil but cannot be null/)
})

test('codec: xsi:nil="true" with content is refused; whitespace alone is no content', (t: TestContext) => {
  const schema = object({ a: { type: ['string', 'null'] }, c: { type: ['object', 'null'], properties: { x: int } } })
  t.assert.deepStrictEqual(read(schema, R('<t:a xsi:nil="true"> </t:a><t:c xsi:nil="true">\n</t:c>')), { a: null, c: null })
  t.assert.match(problem(schema, R('<t:a xsi:nil="true">x</t:a>')).message, /t:a is xsi:nil but not empty/)
  t.assert.match(problem(schema, R('<t:c xsi:nil="true"><t:x>1</t:x></t:c>')).message, /t:c is xsi:nil but not empty/)
})

test('codec: xsi:nil must be an xs:boolean: xsi:nil="yes" is refused', (t: TestContext) => {
  t.assert.match(problem(object({ a: { type: ['string', 'null'] } }), R('<t:a xsi:nil="yes"/>')).message, /xsi:nil="yes" is not a boolean/)
})

// ------------------------------------------------------------- structure ---

test('codec: child elements are read in any order', (t: TestContext) => {
  const schema = object({ a: int, b: str, c: { type: 'array', items: int } })
  t.assert.deepStrictEqual(read(schema, R('<t:c>1</t:c><t:b>x</t:b><t:c>2</t:c><t:a>3</t:a>')), { a: 3, b: 'x', c: [1, 2] })
})

test('codec: an absent unwrapped array reads as []; absent optional elements and wrapped arrays stay absent', (t: TestContext) => {
  const schema = object({ a: int, list: { type: 'array', items: int }, w: { type: 'array', xml: { wrapped: true }, items: int } })
  t.assert.deepStrictEqual(read(schema, R('')), { list: [] })
  t.assert.deepStrictEqual(read(schema, R('<t:w/>')), { list: [], w: [] })
})

test('codec: an element the schema does not name is refused, whatever its namespace', (t: TestContext) => {
  const schema = object({ a: int, c: object({ x: int }) })
  const cases: Array<[string, string, string]> = [
    ['<t:zzz>1</t:zzz>', '{urn:t}zzz', ''],
    ['<o:a>1</o:a>', '{urn:other}a', ''],
    ['<a>1</a>', '{}a', ''],
    ['<t:c><t:y>1</t:y></t:c>', '{urn:t}y', '/c']
  ]
  for (const [xml, name, path] of cases) {
    const p = problem(schema, R(xml))
    t.assert.ok(p.message.startsWith(`unexpected element ${name} in `), p.message)
    t.assert.strictEqual(p.path, path)
  }
})

test('codec: an unknown unqualified attribute on an object element is refused', (t: TestContext) => {
  const schema = object({ c: object({ x: attr('integer') }) })
  t.assert.match(problem(schema, R('', ' y="1"')).message, /^unexpected attribute y on t:R$/)
  const nested = problem(schema, R('<t:c x="1" z="2"/>'))
  t.assert.match(nested.message, /^unexpected attribute z on t:c$/)
  t.assert.strictEqual(nested.path, '/c')
  // t:x (qualified) is not x (unqualified): it is in another namespace, and ignored.
  t.assert.deepStrictEqual(read(schema, R('<t:c t:x="5"/>')), { c: {} })
})

test('codec: attributes in other namespaces, xml:* and xsi:type are ignored', (t: TestContext) => {
  const schema = object({ a: int, c: object({}), list: { type: 'array', items: str }, id: attr('string') })
  const xml = R('<t:a o:x="1" xsi:type="xs:int" xml:lang="en">1</t:a><t:c o:y="2" xsi:type="t:C"/><t:list xsi:type="xs:string">s</t:list>', ' id="i" o:id="ignored" xsi:type="t:R" xsi:schemaLocation="urn:t t.xsd" xml:space="preserve"')
  t.assert.deepStrictEqual(read(schema, xml), { id: 'i', a: 1, c: {}, list: ['s'] })
})

test('codec: an unknown unqualified attribute on a scalar element or an array wrapper is refused too', (t: TestContext) => {
  const schema = object({ a: int, w: { type: 'array', xml: { wrapped: true }, items: int } })
  const scalar = problem(schema, R('<t:a unit="kg">1</t:a>'))
  t.assert.match(scalar.message, /^unexpected attribute unit on t:a$/)
  t.assert.strictEqual(scalar.path, '/a')
  const wrapper = problem(schema, R('<t:w count="1"><t:w>2</t:w></t:w>'))
  t.assert.match(wrapper.message, /^unexpected attribute count on t:w$/)
  t.assert.strictEqual(wrapper.path, '/w')
  t.assert.deepStrictEqual(read(schema, R('<t:a o:unit="kg">1</t:a><t:w o:count="1"><t:w>2</t:w></t:w>')), { a: 1, w: [2] })
})

test('codec: an element that is not an array, appearing twice, is refused', (t: TestContext) => {
  const schema = object({ a: int, c: object({}), w: { type: 'array', xml: { wrapped: true }, items: int }, list: { type: 'array', items: int } })
  for (const xml of ['<t:a>1</t:a><t:a>1</t:a>', '<t:c/><t:list>1</t:list><t:c/>', '<t:w/><t:w/>']) {
    t.assert.match(problem(schema, R(xml)).message, /^element t:[acw] appears more than once in t:R$/, xml)
  }
  t.assert.deepStrictEqual(read(schema, R('<t:list>1</t:list><t:a>2</t:a><t:list>3</t:list>')), { a: 2, list: [1, 3] })
})

test('codec: text among child elements is refused; whitespace between them is not', (t: TestContext) => {
  const schema = object({ a: int, c: object({ x: int }), w: { type: 'array', xml: { wrapped: true }, items: int } })
  t.assert.match(problem(schema, R('<t:a>1</t:a>x')).message, /^text where elements are due in t:R$/)
  const nested = problem(schema, R('<t:c>x<t:x>1</t:x></t:c>'))
  t.assert.match(nested.message, /^text where elements are due in t:c$/)
  t.assert.strictEqual(nested.path, '/c')
  t.assert.match(problem(schema, R('<t:w><t:w>1</t:w>x</t:w>')).message, /^text where elements are due in t:w$/)
  t.assert.match(problem(schema, R('<![CDATA[x]]>')).message, /^text where elements are due in t:R$/)
  t.assert.deepStrictEqual(read(schema, R('\n  <t:a>1</t:a>\t<t:c>\r\n<t:x>2</t:x> </t:c><t:w> <t:w>3</t:w> </t:w>\n')), { a: 1, c: { x: 2 }, w: [3] })
})

test('codec: an element where text is due is refused', (t: TestContext) => {
  const schema = object({ a: int, s: str })
  const p = problem(schema, R('<t:s>a<t:b/>c</t:s>'))
  t.assert.match(p.message, /^element t:s holds an element \(t:b\) where text is due$/)
  t.assert.strictEqual(p.path, '/s')
  t.assert.match(problem(schema, R('<t:a><t:x>1</t:x></t:a>')).message, /^element t:a holds an element \(t:x\) where text is due$/)
})

test('codec: a wrapped array\'s items must bear the item name and namespace', (t: TestContext) => {
  const schema = object({
    tags: { type: 'array', xml: { wrapped: true }, items: { type: 'string', xml: { name: 'tag' } } },
    refs: { type: 'array', xml: { wrapped: true }, items: { type: 'integer', xml: { namespace: OTHER } } }
  })
  t.assert.deepStrictEqual(read(schema, R('<t:tags><t:tag>a</t:tag><t:tag>b</t:tag></t:tags><t:refs><o:refs>1</o:refs></t:refs>')), { tags: ['a', 'b'], refs: [1] })
  const wrongName = problem(schema, R('<t:tags><t:tag>a</t:tag><t:tags>b</t:tags></t:tags>'))
  t.assert.match(wrongName.message, /^unexpected element \{urn:t\}tags in t:tags$/)
  t.assert.strictEqual(wrongName.path, '/tags')
  t.assert.match(problem(schema, R('<t:tags><o:tag>a</o:tag></t:tags>')).message, /^unexpected element \{urn:other\}tag in t:tags$/)
  t.assert.match(problem(schema, R('<t:refs><t:refs>1</t:refs></t:refs>')).message, /^unexpected element \{urn:t\}refs in t:refs$/)
})

// ---------------------------------------------------------------- paths ---

test('codec: InputProblem.path is the JSON Pointer of the bad value: /line/2/quantity', (t: TestContext) => {
  const line = object({ quantity: int, sku: attr('integer') })
  const schema = object({ line: { type: 'array', items: line }, tags: { type: 'array', xml: { wrapped: true }, items: { type: 'integer', xml: { name: 'tag' } } } })
  const ok = '<t:line sku="1"><t:quantity>1</t:quantity></t:line>'
  const quantity = problem(schema, R(ok + ok + '<t:line sku="3"><t:quantity>many</t:quantity></t:line>'))
  t.assert.strictEqual(quantity.path, '/line/2/quantity')
  t.assert.strictEqual(quantity.message, '"many" is not an integer')
  t.assert.strictEqual(problem(schema, R(ok + '<t:line sku="x"/>')).path, '/line/1/sku')
  t.assert.strictEqual(problem(schema, R('<t:tags><t:tag>1</t:tag><t:tag>1.5</t:tag></t:tags>')).path, '/tags/1')
  t.assert.strictEqual(problem(schema, R('<t:line><t:quantity>1</t:quantity><t:zzz/></t:line>')).path, '/line/0')
  t.assert.strictEqual(problem(schema, R('<t:zzz/>')).path, '')
})

test('codec: InputProblem.path escapes "~" as ~0 and "/" as ~1 (RFC 6901)', (t: TestContext) => {
  const schema = object({ 'a/b~c': { type: 'array', xml: { name: 'ab' }, items: object({ '~1': { type: 'integer', xml: { name: 'n' } } }) } })
  t.assert.strictEqual(problem(schema, R('<t:ab><t:n>1</t:n></t:ab><t:ab><t:n>x</t:n></t:ab>')).path, '/a~1b~0c/1/~01')
})

// --------------------------------------------------------------- writing ---

test('writer: attribute values escape ", <, >, & and tab, LF, CR as references, so that normalisation keeps them', (t: TestContext) => {
  const schema = object({ a: attr('string') })
  const value = { a: 'q"l<g>a&t\tn\nr\r\'' }
  const xml = writerOf(schema)(value)
  t.assert.strictEqual(xml, `<tns:R xmlns:tns="${TNS}" a="q&quot;l&lt;g&gt;a&amp;t&#x9;n&#xA;r&#xD;'"/>`)
  t.assert.deepStrictEqual(readElement(shapeFor(schema), ...elementOf(xml)), value)
})

test('writer: text escapes &, <, > and CR (as &#xD;); tab, LF, quotes and astral characters are written literally', (t: TestContext) => {
  const schema = object({ s: str })
  const value = { s: '<&>"\'\t\n\r\r\n]]>𝄞\u{10FFFF}\u0085\u2028' }
  const xml = writerOf(schema)(value)
  t.assert.strictEqual(xml, `<tns:R xmlns:tns="${TNS}"><tns:s>&lt;&amp;&gt;"'\t\n&#xD;&#xD;\n]]&gt;𝄞\u{10FFFF}\u0085\u2028</tns:s></tns:R>`)
  t.assert.deepStrictEqual(readElement(shapeFor(schema), ...elementOf(xml)), value)
})

test('writer: null is written xsi:nil="true", with the xsi namespace declared once, on the root element', (t: TestContext) => {
  const schema = object({ a: { type: ['string', 'null'] }, c: object({ d: { type: 'integer', nullable: true } }, { type: ['object', 'null'] }), list: { type: 'array', items: { type: ['boolean', 'null'] } } })
  const write = writerOf(schema)
  const xsi = `xmlns:xsi="${XSI_NS}"`
  t.assert.strictEqual(write({ a: null, c: null, list: [null, true] }), `<tns:R xmlns:tns="${TNS}" ${xsi}><tns:a xsi:nil="true"/><tns:c xsi:nil="true"/><tns:list xsi:nil="true"/><tns:list>true</tns:list></tns:R>`)
  t.assert.strictEqual(write({ c: { d: null }, list: [] }), `<tns:R xmlns:tns="${TNS}" ${xsi}><tns:c><tns:d xsi:nil="true"/></tns:c></tns:R>`)
  // No nullable element, no declaration.
  t.assert.strictEqual(writerOf(object({ a: str }))({ a: 'x' }), `<tns:R xmlns:tns="${TNS}"><tns:a>x</tns:a></tns:R>`)
})

test('writer: -0 is written "-0" for a number (and "0" for an integer, xs:integer having no negative zero)', (t: TestContext) => {
  const schema = object({ n: { type: 'number' }, i: int, a: attr('number') })
  const xml = writerOf(schema)({ a: -0, n: -0, i: -0 })
  t.assert.strictEqual(xml, `<tns:R xmlns:tns="${TNS}" a="-0"><tns:n>-0</tns:n><tns:i>0</tns:i></tns:R>`)
  const back = readElement(shapeFor(schema), ...elementOf(xml))
  t.assert.ok(Object.is(back.n, -0) && Object.is(back.a, -0))
})

test('writer: numbers are written in xs:double\'s lexical space and read back exactly', (t: TestContext) => {
  const schema = object({ n: { type: 'array', items: { type: 'number' } } })
  const values = [1e21, -1e-7, 5e-324, Number.MAX_VALUE, 0.1, 1 / 3, 123456789.125]
  const xml = writerOf(schema)({ n: values })
  t.assert.match(xml, /<tns:n>1e\+21<\/tns:n><tns:n>-1e-7<\/tns:n><tns:n>5e-324<\/tns:n>/)
  t.assert.deepStrictEqual(readElement(shapeFor(schema), ...elementOf(xml)), { n: values })
})

test('writer: an empty object is written as a self-closing element', (t: TestContext) => {
  const schema = object({ c: object({ x: int }), d: object({ k: attr('boolean') }) })
  const write = writerOf(schema)
  t.assert.strictEqual(write({}), `<tns:R xmlns:tns="${TNS}"/>`)
  t.assert.strictEqual(write({ c: {}, d: { k: true } }), `<tns:R xmlns:tns="${TNS}"><tns:c/><tns:d k="true"/></tns:R>`)
})

test('writer: child elements in schema order, attributes on the start tag, arrays repeated or wrapped, absent properties not written', (t: TestContext) => {
  const schema = object({
    z: str,
    id: attr('integer', { name: 'ident' }),
    list: { type: 'array', items: int },
    w: { type: 'array', xml: { wrapped: true, name: 'Tags' }, items: { type: 'string', xml: { name: 'Tag' } } },
    a: { type: 'boolean', xml: { name: 'A' } },
    skipped: str
  })
  const value = { a: true, w: ['x', 'y'], list: [1, 2], id: 7, z: 'z' }
  const xml = writerOf(schema)(value)
  t.assert.strictEqual(xml, `<tns:R xmlns:tns="${TNS}" ident="7"><tns:z>z</tns:z><tns:list>1</tns:list><tns:list>2</tns:list><tns:Tags><tns:Tag>x</tns:Tag><tns:Tag>y</tns:Tag></tns:Tags><tns:A>true</tns:A></tns:R>`)
  t.assert.deepStrictEqual(readElement(shapeFor(schema), ...elementOf(xml)), value)
})

test('writer: another namespace gets a prefix of its own (ns1, or its xml.prefix); attributes are unqualified unless they name one', (t: TestContext) => {
  const schema = object({
    a: { type: 'integer', xml: { namespace: OTHER } },
    b: { type: 'object', xml: { namespace: 'urn:third', prefix: 'th' }, properties: { c: int, q: attr('string', { namespace: OTHER }) } },
    u: attr('string')
  })
  const value = { u: 'u', a: 1, b: { q: 'q', c: 2 } }
  const xml = writerOf(schema)(value)
  t.assert.strictEqual(xml, `<tns:R xmlns:tns="${TNS}" xmlns:ns1="${OTHER}" xmlns:th="urn:third" u="u"><ns1:a>1</ns1:a><th:b ns1:q="q"><th:c>2</th:c></th:b></tns:R>`)
  t.assert.deepStrictEqual(readElement(shapeFor(schema), ...elementOf(xml)), value)
})

test('writer: a character XML 1.0 cannot carry (\\u0000, \\uFFFE, a lone \\uD800) is refused with SOAP_ERR_OUTPUT_INVALID naming its path', (t: TestContext) => {
  const schema = object({ s: str, line: { type: 'array', items: object({ sku: attr('string'), note: str }) } })
  const cases: Array<[unknown, string]> = [
    [{ s: 'a\u0000b' }, '/s'],
    [{ s: '\uFFFE' }, '/s'],
    [{ s: 'x\uD800' }, '/s'],
    [{ s: '\uDC00𝄞' }, '/s'],
    [{ line: [{ sku: 'ok' }, { sku: 'a\u001Fb' }] }, '/line/1/sku'],
    [{ line: [{ note: '\uFFFF' }] }, '/line/0/note']
  ]
  for (const [value, path] of cases) {
    const err = outputError(schema, value)
    t.assert.ok(err instanceof errorCodes.SOAP_ERR_OUTPUT_INVALID, err.message)
    t.assert.strictEqual(err.code, 'SOAP_ERR_OUTPUT_INVALID')
    t.assert.strictEqual(err.message, `fastify-soap: the result at "${path}" holds a character XML 1.0 cannot carry`)
  }
})

test('writer: a value of the wrong type is refused with SOAP_ERR_OUTPUT_INVALID naming its path', (t: TestContext) => {
  const schema = object({ i: int, n: { type: 'number' }, b: { type: 'boolean' }, s: str, c: object({}), list: { type: 'array', items: int } })
  const cases: Array<[unknown, string, string]> = [
    [{ i: 1.5 }, '/i', 'must be an integer in the safe range'],
    [{ i: 2 ** 53 }, '/i', 'must be an integer in the safe range'],
    [{ i: '1' }, '/i', 'must be an integer in the safe range'],
    [{ n: NaN }, '/n', 'must be a finite number'],
    [{ n: Infinity }, '/n', 'must be a finite number'],
    [{ n: '1' }, '/n', 'must be a finite number'],
    [{ b: 1 }, '/b', 'must be a boolean'],
    [{ s: 1 }, '/s', 'must be a string'],
    [{ s: null }, '/s', 'cannot be null'],
    [{ c: [] }, '/c', 'must be an object'],
    [{ list: 1 }, '/list', 'must be an array'],
    [{ list: [1, 'x'] }, '/list/1', 'must be an integer in the safe range'],
    [null, '', 'must be an object']
  ]
  for (const [value, path, message] of cases) {
    const err = outputError(schema, value)
    t.assert.strictEqual(err.code, 'SOAP_ERR_OUTPUT_INVALID', JSON.stringify(value))
    t.assert.strictEqual(err.message, `fastify-soap: the result at "${path}" ${message}`)
  }
})

// ----------------------------------------------------- schema refusals ---

test('docs/services.md "Named schemas": a "$ref" names one of the schema\'s own "$defs", with only "xml" beside it; anything else is refused (SOAP_ERR_SERVICE_SCHEMA)', (t: TestContext) => {
  const defs = { A: object({ b: int }), L: { type: 'array', items: int } }
  assertSchemaRefusal(t, object({ a: { $ref: '#/$defs/Gone' } }, { $defs: defs }), '#/properties/a', /"\$ref" names #\/\$defs\/Gone, which the schema's "\$defs" do not hold/)
  assertSchemaRefusal(t, object({ a: { $ref: 'http://example.org/a.json' } }, { $defs: defs }), '#/properties/a', /"\$ref" must name one of the schema's own "\$defs"/)
  assertSchemaRefusal(t, object({ a: { $ref: '#/$defs/A', type: 'object' } }, { $defs: defs }), '#/properties/a', /"type" cannot go beside "\$ref"/)
  assertSchemaRefusal(t, object({ a: { $ref: '#/$defs/L' } }, { $defs: defs }), '#/properties/a', /names L, an array/)
  assertSchemaRefusal(t, object({ a: { $ref: '#/$defs/A', xml: { attribute: true } } }, { $defs: defs }), '#/properties/a', /a "\$ref" property is an element/)
  assertSchemaRefusal(t, object({ a: { $ref: '#/$defs/A' } }), '#/properties/a', /which the schema's "\$defs" do not hold/)
  assertSchemaRefusal(t, object({ a: { $ref: '#/$defs/R' } }, { $defs: { R: { $ref: '#/$defs/A' }, ...defs } }), '#/$defs/R', /a named schema cannot be only a "\$ref"/)
  assertSchemaRefusal(t, object({ a: int }, { $defs: [] }), '#', /"\$defs" must map names to schemas/)
  assertSchemaRefusal(t, { $ref: '#/$defs/A', $defs: defs }, '#', /"\$defs" cannot go beside "\$ref"/)
})

test('docs/services.md "Named schemas": a schema that contains itself is read and written to any depth the message has, one shape per named schema', (t: TestContext) => {
  const node = object({ v: int, kids: { type: 'array', items: { $ref: '#/$defs/Node' } }, up: { $ref: '#/$defs/Leaf', xml: { name: 'parent' } } }, { required: ['v'] })
  const schema = object({ root: { $ref: '#/$defs/Node' } }, { $defs: { Node: node, Leaf: { type: 'string', nullable: true } } })
  const xml = R('<t:root><t:v>1</t:v><t:kids><t:v>2</t:v><t:kids><t:v>3</t:v><t:parent xsi:nil="true"/></t:kids></t:kids><t:kids><t:v>4</t:v><t:parent>p</t:parent></t:kids></t:root>')
  const value = { root: { v: 1, kids: [{ v: 2, kids: [{ v: 3, kids: [], up: null }] }, { v: 4, kids: [], up: 'p' }] } }
  t.assert.deepStrictEqual(read(schema, xml), value)
  const written = writerOf(schema)(value)
  t.assert.strictEqual(written, `<tns:R xmlns:tns="${TNS}" xmlns:xsi="${XSI_NS}"><tns:root><tns:v>1</tns:v><tns:kids><tns:v>2</tns:v><tns:kids><tns:v>3</tns:v><tns:parent xsi:nil="true"/></tns:kids></tns:kids><tns:kids><tns:v>4</tns:v><tns:parent>p</tns:parent></tns:kids></tns:root></tns:R>`)
  const shape = shapeFor(schema)
  const root = shape.elements[0].shape as ObjectShape
  t.assert.strictEqual((root.elements[1].shape as ObjectShape), root, 'the named schema is one shape, which contains itself')
  t.assert.ok(usesXsi(shape), 'a nullable element found inside the cycle')
  t.assert.match(problem(schema, R('<t:root><t:v>1</t:v><t:kids><t:kids><t:v>x</t:v></t:kids></t:kids></t:root>')).path, /^\/root\/kids\/0\/kids\/0\/v$/)
})

test('schema: "allOf" is refused, and "oneOf", "anyOf" and "not" unless they only say which properties are present (SOAP_ERR_SERVICE_SCHEMA)', (t: TestContext) => {
  assertSchemaRefusal(t, object({ a: { allOf: [int, str] } }), '#/properties/a', /"allOf" is not supported/)
  assertSchemaRefusal(t, object({ a: { anyOf: [int, str] } }), '#/properties/a', /"anyOf" is supported only to say which properties are present/)
  // A "oneOf" of typed schemas is one of derived types, whose schemas are objects with a $type.
  assertSchemaRefusal(t, object({ a: { oneOf: [int, str] } }), '#/properties/a/oneOf/0', /each schema of a "oneOf" of types is an object whose "\$type" property is one "const" string/)
  for (const keyword of ['oneOf', 'anyOf']) {
    assertSchemaRefusal(t, object({ a: int }, { [keyword]: [] }), '#', new RegExp(`"${keyword}" is supported only`))
    assertSchemaRefusal(t, object({ a: int }, { [keyword]: [{ required: ['a'], properties: { a: int } }] }), '#', new RegExp(`"${keyword}" is supported only`))
  }
  assertSchemaRefusal(t, object({ c: object({ d: { type: 'integer', not: { const: 1 } } }) }), '#/properties/c/properties/d', /"not" is supported only/)
  // An xs:choice: exactly one of a and b, then at most one of c and d; no XML changes.
  const choice = object({ a: int, b: int, c: int, d: int }, {
    oneOf: [{ properties: { a: true }, required: ['a'] }, { required: ['b'] }],
    not: { anyOf: [{ not: { anyOf: [{ required: ['c', 'd'] }] } }] }
  })
  t.assert.deepStrictEqual(read(choice, R('<t:b>2</t:b><t:c>3</t:c>')), { b: 2, c: 3 })
})

test('schema: xml.namespace "" is no namespace (an unqualified child), read and written without a prefix', (t: TestContext) => {
  const schema = object({ a: { type: 'string', xml: { namespace: '' } }, b: object({ c: int }, { xml: { namespace: '' } }) })
  t.assert.deepStrictEqual(read(schema, R('<a>x</a><b><c>1</c></b>')), { a: 'x', b: { c: 1 } })
  t.assert.strictEqual(writerOf(schema)({ a: 'x', b: { c: 1 } }), `<tns:R xmlns:tns="${TNS}"><a>x</a><b><c>1</c></b></tns:R>`)
  t.assert.match(problem(schema, R('<t:a>x</t:a>')).message, /unexpected element \{urn:t\}a/)
  // A top-level element in no namespace declares no prefix for it.
  const top = shapeFor(object({ a: { type: 'string', xml: { namespace: '' } } }))
  t.assert.strictEqual(compileElement(top, 'R', '', prefixesFor(top, '', {}, '#'), false)({ a: 'x' }), '<R><a>x</a></R>')
})

test('schema: xml.text is the element\'s text beside its attributes (simple content)', (t: TestContext) => {
  const schema = object({ $value: { type: 'number', xml: { text: true } }, cur: attr('string') }, { required: ['$value'] })
  t.assert.deepStrictEqual(read(schema, R(' 9.5 ', ' cur="EUR"')), { $value: 9.5, cur: 'EUR' })
  t.assert.deepStrictEqual(read(object({ $value: { type: 'string', xml: { text: true } } }), R('')), { $value: '' })
  t.assert.strictEqual(writerOf(schema)({ $value: 9.5, cur: 'EUR' }), `<tns:R xmlns:tns="${TNS}" cur="EUR">9.5</tns:R>`)
  t.assert.match(problem(schema, R('<t:x/>')).message, /holds an element \(t:x\) where text is due/)
  const bad = problem(schema, R('x'))
  t.assert.strictEqual(bad.path, '/$value')
  assertSchemaRefusal(t, object({ a: { type: 'object', xml: { text: true } } }), '#/properties/a', /the text \("xml.text"\) must be a string, integer, number or boolean/)
  assertSchemaRefusal(t, object({ a: { type: 'string', xml: { text: true, name: 'x' } } }), '#/properties/a', /the text \("xml.text"\) has no name or namespace/)
  assertSchemaRefusal(t, object({ a: { type: 'string', xml: { text: true } }, b: { type: 'string', xml: { text: true } } }), '#/properties/b', /"xml.text" is already property a/)
  assertSchemaRefusal(t, object({ a: { type: 'string', xml: { text: true } }, b: int }), '#', /property a is the element's text \("xml.text"\): the element can have no child elements/)
  assertSchemaRefusal(t, object({ a: { type: 'string', xml: { text: true, attribute: true } } }), '#/properties/a', /"xml.attribute", "xml.text" and "xml.any" exclude one another/)
})

test('schema: xml.any collects the child elements no property names, as raw elements, and writes them back with their namespaces', (t: TestContext) => {
  const schema = object({ a: int, $any: { type: 'array', items: { type: 'object' }, xml: { any: true } } })
  const value = read(schema, R('<t:a>1</t:a><o:x o:k="v" p="q"><y xmlns="urn:d">t</y></o:x><t:z/>'))
  const raw = value.$any as XmlElement[]
  t.assert.deepStrictEqual(raw.map((e) => `{${e.namespace}}${e.localName}`), ['{urn:other}x', '{urn:t}z'])
  t.assert.strictEqual(writerOf(schema)(value), `<tns:R xmlns:tns="${TNS}"><tns:a>1</tns:a><o:x xmlns:o="${OTHER}" o:k="v" p="q"><y xmlns="urn:d">t</y></o:x><t:z xmlns:t="${TNS}"/></tns:R>`)
  // An element with no namespace inside one with a default namespace undeclares it.
  const nested = { name: 'n', prefix: '', localName: 'n', namespace: 'urn:d', attributes: [], children: [{ name: 'm', prefix: '', localName: 'm', namespace: '', attributes: [], children: ['&'] }] }
  t.assert.strictEqual(writerOf(schema)({ a: 1, $any: [nested] }), `<tns:R xmlns:tns="${TNS}"><tns:a>1</tns:a><n xmlns="urn:d"><m xmlns="">&amp;</m></n></tns:R>`)
  const refusals: Array<[unknown, RegExp]> = [
    ['x', /must be an array/],
    [[{ localName: 'x' }], /"\/\$any\/0" must be an element/],
    [[{ ...nested, localName: 'a b' }], /has a name that is not an XML name/],
    [[{ ...nested, prefix: 'xmlns' }], /has a name that is not an XML name/],
    [[{ ...nested, prefix: 'p', namespace: '' }], /prefix p needs a namespace/],
    [[{ ...nested, attributes: [{ localName: 'k', value: 1 }] }], /has an attribute that is not/],
    [[{ ...nested, attributes: [{ name: 'k', prefix: '', localName: 'k', namespace: 'urn:a', value: 'v' }] }], /attribute k is in a namespace and needs a prefix/],
    [[{ ...nested, children: ['\u0001'] }], /holds a character XML 1.0 cannot carry/]
  ]
  for (const [any, message] of refusals) t.assert.match(outputError(schema, { a: 1, $any: any }).message, message)
  assertSchemaRefusal(t, object({ a: { type: 'array', items: int, xml: { any: true } } }), '#/properties/a', /"xml.any" goes on an array of \{ "type": "object" \}/)
  assertSchemaRefusal(t, object({ a: { type: 'array', items: { type: 'object' }, xml: { any: true, name: 'x' } } }), '#/properties/a', /"xml.any" elements keep their own names/)
  assertSchemaRefusal(t, object({ a: { type: 'array', items: { type: 'object' }, xml: { any: true } }, b: { type: 'array', items: { type: 'object' }, xml: { any: true } } }), '#/properties/b', /"xml.any" is already property a/)
})

test('schema: xml.anyAttribute passes over unknown unqualified attributes', (t: TestContext) => {
  t.assert.deepStrictEqual(read(object({ a: attr('string') }, { xml: { anyAttribute: true } }), R('', ' a="1" b="2"')), { a: '1' })
  t.assert.match(problem(object({ a: attr('string') }), R('', ' b="2"')).message, /unexpected attribute b/)
  assertSchemaRefusal(t, object({ a: { type: 'string', xml: { anyAttribute: true } } }), '#/properties/a', /"xml.anyAttribute" applies to objects only/)
})

test('schema: xml.list is one element or attribute holding its items separated by white space', (t: TestContext) => {
  const schema = object({ l: { type: 'array', items: int, xml: { list: true } }, m: { type: 'array', items: { type: 'boolean' }, xml: { list: true, attribute: true } } })
  t.assert.deepStrictEqual(read(schema, R('<t:l>\n 1  2\t3 </t:l>', ' m="true 0"')), { l: [1, 2, 3], m: [true, false] })
  t.assert.deepStrictEqual(read(schema, R('<t:l/>')), { l: [] })
  t.assert.strictEqual(writerOf(schema)({ l: [1, 2], m: [false] }), `<tns:R xmlns:tns="${TNS}" m="false"><tns:l>1 2</tns:l></tns:R>`)
  t.assert.strictEqual(problem(schema, R('<t:l>1 x</t:l>')).path, '/l/1')
  t.assert.match(problem(schema, R('<t:l xsi:nil="true"/>')).message, /xsi:nil but cannot be null/)
  const strings = object({ s: { type: 'array', items: str, xml: { list: true } } })
  t.assert.match(outputError(strings, { s: ['a b'] }).message, /"\/s\/0" cannot be empty or hold white space: it is an item of a list/)
  t.assert.match(outputError(strings, { s: [''] }).message, /cannot be empty/)
  t.assert.match(outputError(strings, { s: 'a' }).message, /must be an array/)
  assertSchemaRefusal(t, object({ a: { type: 'string', xml: { list: true } } }), '#/properties/a', /"xml.list" goes on an array of strings/)
  assertSchemaRefusal(t, object({ a: { type: 'array', items: object({}), xml: { list: true } } }), '#/properties/a/items', /the items of "xml.list" are strings/)
  assertSchemaRefusal(t, object({ a: { type: 'array', items: int, xml: { list: true, wrapped: true } } }), '#/properties/a', /"xml.list" and "xml.wrapped" exclude one another/)
})

test('schema: a nullable xml.list element is xsi:nil for null, read and written; a nullable list attribute is refused', (t: TestContext) => {
  const schema = object({ l: { type: ['array', 'null'], items: int, xml: { list: true } } })
  t.assert.deepStrictEqual(read(schema, R('<t:l xsi:nil="true"/>')), { l: null })
  t.assert.deepStrictEqual(read(schema, R('<t:l xsi:nil="false">4 5</t:l>')), { l: [4, 5] })
  t.assert.match(problem(schema, R('<t:l xsi:nil="true">4</t:l>')).message, /xsi:nil but not empty/)
  t.assert.strictEqual(writerOf(schema)({ l: null }), `<tns:R xmlns:tns="${TNS}" xmlns:xsi="${XSI_NS}"><tns:l xsi:nil="true"/></tns:R>`)
  t.assert.strictEqual(writerOf(schema)({ l: [1] }), `<tns:R xmlns:tns="${TNS}" xmlns:xsi="${XSI_NS}"><tns:l>1</tns:l></tns:R>`)
  assertSchemaRefusal(t, object({ a: { type: 'array', nullable: true, items: int, xml: { list: true, attribute: true } } }), '#/properties/a', /an attribute must be a string, integer, number or boolean, and cannot be null/)
})

test('docs/services.md "The mapping": xml.mixed reads the text between child elements into the xml.text string, and writes it first', (t: TestContext) => {
  const schema = object({ $value: { type: 'string', xml: { text: true } }, b: { type: 'array', items: str } }, { xml: { mixed: true } })
  t.assert.deepStrictEqual(read(schema, R('one <t:b>two</t:b> three')), { $value: 'one  three', b: ['two'] })
  t.assert.deepStrictEqual(read(schema, R('\n  <t:b>x</t:b>\n')), { b: ['x'] })
  t.assert.strictEqual(writerOf(schema)({ $value: 'a<', b: ['c'] }), `<tns:R xmlns:tns="${TNS}">a&lt;<tns:b>c</tns:b></tns:R>`)
  assertSchemaRefusal(t, object({ b: str }, { xml: { mixed: true } }), '#', /"xml.mixed" needs a property of type string with "xml.text"/)
  assertSchemaRefusal(t, object({ $value: { type: 'integer', xml: { text: true } }, b: str }, { xml: { mixed: true } }), '#', /"xml.mixed" needs a property of type string/)
  assertSchemaRefusal(t, object({ $value: { type: 'string', xml: { text: true } }, b: str }), '#', /unless the object says "xml.mixed"/)
  assertSchemaRefusal(t, object({ a: { type: 'string', xml: { mixed: true } } }), '#/properties/a', /"xml.mixed" applies to objects only/)
})

test('docs/services.md "The mapping": xml.anyNamespaces and xml.anyExcept admit raw elements by namespace, as xs:any\'s namespace does, reading and writing', (t: TestContext) => {
  const raw = (namespace: string, localName: string): XmlElement => ({ name: localName, prefix: namespace === '' ? '' : 'x', localName, namespace, attributes: [], children: ['v'] })
  const listed = object({ a: int, $any: { type: 'array', items: { type: 'object' }, xml: { any: true, anyNamespaces: [OTHER, ''] } } })
  const read1 = read(listed, R('<t:a>1</t:a><o:x>v</o:x><y>v</y>')) as { $any: XmlElement[] }
  t.assert.deepStrictEqual(read1.$any.map((e) => `{${e.namespace}}${e.localName}`), [`{${OTHER}}x`, '{}y'])
  t.assert.match(problem(listed, R('<t:a>1</t:a><t:b>2</t:b>')).message, /unexpected element \{urn:t\}b/)
  t.assert.match(outputError(listed, { a: 1, $any: [raw('urn:third', 'z')] }).message, /"\/\$any\/0" is in namespace "urn:third", which the wildcard \(xs:any\) does not admit/)
  const except = object({ a: int, $any: { type: 'array', items: { type: 'object' }, xml: { any: true, anyExcept: [TNS, ''] } } })
  t.assert.deepStrictEqual((read(except, R('<t:a>1</t:a><o:x>v</o:x>')) as { $any: XmlElement[] }).$any.length, 1)
  t.assert.match(problem(except, R('<t:a>1</t:a><y>v</y>')).message, /unexpected element \{\}y/)
  t.assert.ok(writerOf(except)({ a: 1, $any: [raw(OTHER, 'x')] }).includes(`<x:x xmlns:x="${OTHER}">v</x:x>`))
  assertSchemaRefusal(t, object({ a: { type: 'string', xml: { anyNamespaces: [TNS] } } }), '#/properties/a', /"xml.anyNamespaces" goes with "xml.any"/)
  assertSchemaRefusal(t, object({ $any: { type: 'array', items: { type: 'object' }, xml: { any: true, anyNamespaces: 'x' } } }), '#/properties/$any', /"xml.anyNamespaces" must list namespace URIs/)
  assertSchemaRefusal(t, object({ $any: { type: 'array', items: { type: 'object' }, xml: { any: true, anyNamespaces: [], anyExcept: [] } } }), '#/properties/$any', /exclude one another/)
})

test('docs/services.md "The mapping": an array of xml.list arrays is the element repeated, each holding one list (nil for a null one)', (t: TestContext) => {
  const schema = object({ l: { type: 'array', items: { type: ['array', 'null'], items: int, xml: { list: true } } } })
  t.assert.deepStrictEqual(read(schema, R('')), { l: [] })
  t.assert.deepStrictEqual(read(schema, R('<t:l>1 2</t:l><t:l/><t:l xsi:nil="true"/><t:l> 3 </t:l>')), { l: [[1, 2], [], null, [3]] })
  t.assert.strictEqual(problem(schema, R('<t:l>1</t:l><t:l>2 x</t:l>')).path, '/l/1/1')
  t.assert.strictEqual(writerOf(schema)({ l: [[1, 2], null, []] }), `<tns:R xmlns:tns="${TNS}" xmlns:xsi="${XSI_NS}"><tns:l>1 2</tns:l><tns:l xsi:nil="true"/><tns:l></tns:l></tns:R>`)
  t.assert.match(outputError(schema, { l: [[1], 'x'] }).message, /"\/l\/1" must be an array/)
})

test('schema: an array of arrays has no XML form but a repeated xs:list (SOAP_ERR_SERVICE_SCHEMA)', (t: TestContext) => {
  assertSchemaRefusal(t, object({ m: { type: 'array', items: { type: 'array', items: int } } }), '#/properties/m/items', /an array of arrays has no XML form other than a repeated xs:list/)
  assertSchemaRefusal(t, object({ m: { type: 'array', xml: { wrapped: true }, items: { type: 'array', xml: { wrapped: true }, items: int } } }), '#/properties/m/items', /an array of arrays/)
  assertSchemaRefusal(t, object({ m: { type: 'array', xml: { wrapped: true }, items: { type: 'array', xml: { list: true }, items: int } } }), '#/properties/m/items', /a repeated xs:list \("xml.list" on the items, unwrapped\)/)
})

test('schema: an attribute cannot be null, nor an object or an array (SOAP_ERR_SERVICE_SCHEMA)', (t: TestContext) => {
  assertSchemaRefusal(t, object({ a: { type: ['string', 'null'], xml: { attribute: true } } }), '#/properties/a', /an attribute must be a string, integer, number or boolean, and cannot be null/)
  assertSchemaRefusal(t, object({ a: { type: 'integer', nullable: true, xml: { attribute: true } } }), '#/properties/a', /cannot be null/)
  assertSchemaRefusal(t, object({ a: { enum: ['x', null], xml: { attribute: true } } }), '#/properties/a', /cannot be null/)
  assertSchemaRefusal(t, object({ a: { type: 'object', xml: { attribute: true } } }), '#/properties/a', /an attribute must be/)
  assertSchemaRefusal(t, object({ a: { type: 'array', items: int, xml: { attribute: true } } }), '#/properties/a', /an attribute must be/)
  assertSchemaRefusal(t, object({ a: { type: 'array', items: { type: 'integer', xml: { attribute: true } } } }), '#/properties/a/items', /array items cannot be attributes/)
})

test('schema: "additionalProperties" other than false is refused (SOAP_ERR_SERVICE_SCHEMA)', (t: TestContext) => {
  assertSchemaRefusal(t, object({ a: int }, { additionalProperties: true }), '#', /"additionalProperties" must be false or absent/)
  assertSchemaRefusal(t, object({ c: object({}, { additionalProperties: { type: 'string' } }) }), '#/properties/c', /"additionalProperties" must be false or absent/)
  t.assert.strictEqual(shapeOf(object({ a: int }, { additionalProperties: false }), '#', TNS).kind, 'object')
})

test('schema: "xml.name" on the items of an unwrapped array is refused (SOAP_ERR_SERVICE_SCHEMA): the property names them', (t: TestContext) => {
  assertSchemaRefusal(t, object({ a: { type: 'array', items: { type: 'integer', xml: { name: 'item' } } } }), '#/properties/a/items', /"xml.name" and "xml.namespace" on items apply to wrapped arrays only/)
  // The same name as the property's is no rename.
  t.assert.strictEqual(shapeOf(object({ a: { type: 'array', xml: { name: 'b' }, items: { type: 'integer', xml: { name: 'b' } } } }), '#', TNS).kind, 'object')
})

test('schema: two properties that map to one element (or one attribute) are refused (SOAP_ERR_SERVICE_SCHEMA)', (t: TestContext) => {
  assertSchemaRefusal(t, object({ a: int, b: { type: 'string', xml: { name: 'a' } } }), '#/properties/b', /two properties are both the XML element \{urn:t\}a/)
  assertSchemaRefusal(t, object({ a: { type: 'string', xml: { namespace: OTHER } }, b: { type: 'array', xml: { name: 'a', namespace: OTHER }, items: int } }), '#/properties/b', /both the XML element \{urn:other\}a/)
  assertSchemaRefusal(t, object({ a: attr('string'), b: attr('string', { name: 'a' }) }), '#/properties/b', /two properties are both the XML attribute \{\}a/)
  // One name in two namespaces, or as an element and an attribute, is two XML names.
  const schema = object({ a: int, b: { type: 'integer', xml: { name: 'a', namespace: OTHER } }, c: attr('integer', { name: 'a' }), d: attr('integer', { name: 'a', namespace: TNS }) })
  const shape = shapeFor(schema)
  const names = (fields: typeof shape.elementsByName): string[] => [...fields].flatMap(([ns, named]) => [...named.keys()].map((local) => `{${ns}}${local}`))
  t.assert.deepStrictEqual([...names(shape.elementsByName), ...names(shape.attributesByName)], ['{urn:t}a', '{urn:other}a', '{}a', '{urn:t}a'])
  t.assert.deepStrictEqual(read(schema, R('<t:a>1</t:a><o:a>2</o:a>', ' a="3" t:a="4"')), { a: 1, b: 2, c: 3, d: 4 })
})

test('schema: a property named "__proto__" is refused (SOAP_ERR_SERVICE_SCHEMA); an element may be called so through xml.name', (t: TestContext) => {
  const properties: Schema = {}
  Object.defineProperty(properties, '__proto__', { value: int, enumerable: true })
  assertSchemaRefusal(t, { type: 'object', properties }, '#/properties/__proto__', /a property cannot be named "__proto__"/)
  // Named so, a property holding a named schema or a "oneOf" of types is refused too.
  const named: Schema = {}
  Object.defineProperty(named, '__proto__', { value: { $ref: '#/$defs/N' }, enumerable: true })
  assertSchemaRefusal(t, { type: 'object', properties: named, $defs: { N: object({ n: int }) } }, '#/properties/__proto__',
    /a property cannot be named "__proto__"/)
  const types: Schema = {}
  Object.defineProperty(types, '__proto__', { value: { oneOf: [typed('A'), typed('B')] }, enumerable: true })
  assertSchemaRefusal(t, { type: 'object', properties: types }, '#/properties/__proto__', /a property cannot be named "__proto__"/)
  const schema = object({ proto: { type: 'integer', xml: { name: '__proto__' } } })
  const xml = writerOf(schema)({ proto: 1 })
  t.assert.strictEqual(xml, `<tns:R xmlns:tns="${TNS}"><tns:__proto__>1</tns:__proto__></tns:R>`)
  t.assert.deepStrictEqual(readElement(shapeFor(schema), ...elementOf(xml)), { proto: 1 })
})

test('schema: other constructs outside the supported set are refused (SOAP_ERR_SERVICE_SCHEMA)', (t: TestContext) => {
  const cases: Array<[Schema, string, RegExp]> = [
    [object({ a: {} }), '#/properties/a', /a schema needs a "type"/],
    [object({ a: { type: ['string', 'integer'] } }), '#/properties/a', /is not one of string, integer, number, boolean, object, array/],
    [object({ a: { enum: ['x', 1] } }), '#/properties/a', /is not one of/],
    [object({ a: { type: 'array', items: int, nullable: true } }), '#/properties/a', /an array cannot be null/],
    [object({ a: { type: 'array' } }), '#/properties/a', /an array needs one "items" schema/],
    [object({ a: { type: 'string', xml: { wrapped: true } } }), '#/properties/a', /"xml.wrapped" applies to arrays only/],
    [object({ a: { type: 'string', xml: { texts: true } } }), '#/properties/a', /"xml.texts" is not supported/],
    [object({ a: { type: 'string', xml: { prefix: 'xmlp' } } }), '#/properties/a', /"xml.prefix" must be an NCName other than "xsi", not starting with "xml"/],
    [object({ a: { type: 'string', xml: { namespace: 7 } } }), '#/properties/a', /"xml.namespace" must be a URI, or "" for no namespace/],
    [object({ a: { type: 'string', xml: { namespace: '', prefix: 'p' } } }), '#/properties/a', /"xml.prefix" cannot go with no namespace/],
    [object({ a: { type: 'string', xml: { name: 'p:a' } } }), '#/properties/a', /"xml.name" must be an XML NCName/],
    [object({ 'a b': str }), '#/properties/a b', /property "a b" is not an XML name: give it "xml.name"/],
    [object({ a: { type: 'string', xml: { typeName: 'a b' } } }), '#/properties/a', /"xml.typeName" must be an XML NCName/],
    [object({ a: { type: 'string', xml: { typeNamespace: 7 } } }), '#/properties/a',
      /"xml.typeNamespace" must be a URI, or "" for no namespace/],
    [object({ a: typed('A', { xml: { namespace: '' } }) }), '#/properties/a',
      /the type of an element in no namespace needs "xml.typeNamespace"/],
    [object({ a: str }, { type: 'array', items: int }), '#', /an array must be the value of a property/]
  ]
  for (const [schema, where, message] of cases) assertSchemaRefusal(t, schema, where, message)
})

// ------------------------------------------------- the edges of the supported set ---

test('schema: xml.name and xml.prefix must be XML NCNames: "a×b", "a÷", U+037E, U+2000 and lone surrogates are refused', (t: TestContext) => {
  // × and ÷ (U+D7, U+F7), U+037E, U+2000-U+200B and U+D800-U+DFFF are no NameChars (XML 1.0 §2.3).
  for (const name of ['a×b', 'a÷', 'a\u037E', 'a\u2000b', '\u2190a', 'a\uD800', '\uDC00']) {
    assertSchemaRefusal(t, object({ a: { type: 'string', xml: { name } } }), '#/properties/a', /"xml.name" must be an XML NCName/)
    assertSchemaRefusal(t, object({ a: { type: 'string', xml: { namespace: OTHER, prefix: name } } }), '#/properties/a', /"xml.prefix" must be an NCName/)
  }
  // Astral name characters are NameChars.
  t.assert.strictEqual(shapeOf(object({ a: { type: 'string', xml: { name: '\u{10000}a' } } }), '#', TNS).kind, 'object')
})

test('schema: an unqualified attribute cannot be named "xmlns": it would be a namespace declaration', (t: TestContext) => {
  assertWriterRefusal(t, object({ a: attr('string', { name: 'xmlns' }) }), /an attribute cannot be named "xmlns"/)
  assertWriterRefusal(t, object({ xmlns: attr('string') }), /an attribute cannot be named "xmlns"/)
  // In a namespace of its own, it is an ordinary name.
  t.assert.deepStrictEqual(read(object({ x: attr('string', { name: 'xmlns', namespace: OTHER }) }), R('', ' o:xmlns="v"')), { x: 'v' })
})

test('schema: the xml, xmlns and xsi namespaces are no namespace for a property', (t: TestContext) => {
  for (const [namespace, schema] of [
    [XML_NS, object({ a: { type: 'string', xml: { namespace: XML_NS } } })],
    [XML_NS, object({ lang: attr('string', { namespace: XML_NS }) })],
    [XMLNS_NS, object({ a: { type: 'string', xml: { namespace: XMLNS_NS } } })],
    [XSI_NS, object({ type: attr('string', { namespace: XSI_NS }) })]
  ] as const) {
    assertWriterRefusal(t, schema, new RegExp(`"xml.namespace" cannot be the reserved namespace ${namespace.replace(/\./g, '\\.')}`))
  }
})

test('writer: xml.prefix "xsi" is refused: the writer binds it for xsi:nil', (t: TestContext) => {
  assertWriterRefusal(t, object({ a: { type: ['string', 'null'] } }, { xml: { prefix: 'xsi' } }), /"xml.prefix" must be an NCName other than "xsi"/)
  assertWriterRefusal(t, object({ c: { type: 'object', xml: { namespace: OTHER, prefix: 'xsi' }, properties: { d: { type: 'integer', nullable: true } } } }), /"xml.prefix" must be an NCName other than "xsi"/)
})

test('writer: the items of an unwrapped array cannot be in another namespace than the property (items.xml.namespace)', (t: TestContext) => {
  assertWriterRefusal(t, object({ a: { type: 'array', items: { type: 'string', xml: { namespace: OTHER } } } }), /"xml.name" and "xml.namespace" on items apply to wrapped arrays only/)
})

test('docs/services.md "Named schemas": the schemas of one service that share a $defs object share the shapes of its named schemas; another $defs object has its own', (t: TestContext) => {
  const defs = { Node: object({ kids: { type: 'array', items: { $ref: '#/$defs/Node' } } }) }
  const shared: NamedShapes = new WeakMap()
  const nodeOf = (schema: Schema): unknown => (shapeOf(schema, '#', TNS, shared) as ObjectShape).elements[0].shape
  const first = nodeOf(object({ root: { $ref: '#/$defs/Node' } }, { $defs: defs }))
  t.assert.strictEqual(nodeOf(object({ tree: { $ref: '#/$defs/Node' } }, { $defs: defs })), first)
  t.assert.notStrictEqual(nodeOf(object({ root: { $ref: '#/$defs/Node' } }, { $defs: { ...defs } })), first)
  // Without the service's map, each schema has its own.
  t.assert.notStrictEqual((shapeOf(object({ root: { $ref: '#/$defs/Node' } }, { $defs: defs }), '#', TNS) as ObjectShape).elements[0].shape, first)
})
