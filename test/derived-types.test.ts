/**
 * Derived types (docs/services.md "Derived types"): an element whose type
 * others derive from names the one it carries with xsi:type (XML Schema 1.0
 * Part 1 §2.6.1, §3.3.4); the handler sees it as `$type`, and the type it
 * returns is written with xsi:type.
 */
import { test, type TestContext } from 'node:test'
import Fastify, { type FastifyInstance } from 'fastify'
import soap, { errorCodes, type SoapServiceDefinition } from '../lib/index'
import { envelope, post } from './helper'

const NS = 'urn:test:shapes'
const OTHER = 'urn:test:shapes:more'
const XSI = 'http://www.w3.org/2001/XMLSchema-instance'

const $defs = {
  Shape: { type: 'object', xml: { abstract: true }, properties: { $type: { const: 'Shape' }, name: { type: 'string' } }, required: ['$type', 'name'], additionalProperties: false },
  Circle: { type: 'object', properties: { $type: { const: 'Circle' }, name: { type: 'string' }, radius: { type: 'number' } }, required: ['$type', 'name', 'radius'], additionalProperties: false },
  Ring: { type: 'object', properties: { $type: { const: 'Ring' }, name: { type: 'string' }, radius: { type: 'number' }, inner: { type: 'number' } }, required: ['$type', 'name', 'radius', 'inner'], additionalProperties: false },
  Polygon: { type: 'object', xml: { typeNamespace: OTHER }, properties: { $type: { const: 'Polygon' }, name: { type: 'string' }, corner: { type: 'array', items: { type: 'integer' } } }, required: ['$type', 'name'], additionalProperties: false }
}
const SHAPE = { oneOf: [{ $ref: '#/$defs/Shape' }, { $ref: '#/$defs/Circle' }, { $ref: '#/$defs/Ring' }, { $ref: '#/$defs/Polygon' }] }
const drawing = {
  type: 'object',
  properties: { main: SHAPE, shape: { type: 'array', items: { oneOf: [...SHAPE.oneOf, { type: 'null' }] } } },
  required: ['main'],
  additionalProperties: false,
  $defs
} as const

function service (handler: (input: any) => unknown, validateOutput: boolean): SoapServiceDefinition {
  return { path: '/draw', namespace: NS, name: 'Draw', validateOutput, operations: { Draw: { input: drawing, output: drawing, handler } } } as unknown as SoapServiceDefinition
}

async function build (t: TestContext, handler: (input: any) => unknown = (input) => input, validateOutput = true): Promise<{ app: FastifyInstance, seen: unknown[] }> {
  const seen: unknown[] = []
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.service(service((input) => { seen.push(input); return handler(input) }, validateOutput))
  await app.ready()
  return { app, seen }
}

const draw = (inner: string): string => envelope('1.2', `<d:Draw xmlns:d="${NS}" xmlns:xsi="${XSI}">${inner}</d:Draw>`)
const main1 = (): object => ({ $type: 'Circle', name: 'c', radius: 1 })
const CIRCLE = '<d:main xsi:type="d:Circle"><d:name>c</d:name><d:radius>2</d:radius></d:main>'

test('XML Schema 1.0 Part 1 §3.3.4: an element names a type derived from its own with xsi:type, and the handler gets it as $type', async (t: TestContext) => {
  const { app, seen } = await build(t)
  const body = draw(`${CIRCLE}<d:shape xmlns:m="${OTHER}" xsi:type="m:Polygon"><d:name>p</d:name><d:corner>1</d:corner><d:corner>2</d:corner></d:shape>` +
    '<d:shape xsi:type=" d:Ring "><d:name>r</d:name><d:radius>3</d:radius><d:inner>1</d:inner></d:shape><d:shape xsi:nil="true"/>')
  const response = await post(app, '1.2', body, { url: '/draw' })
  t.assert.strictEqual(response.statusCode, 200, response.body)
  t.assert.deepStrictEqual(seen, [{
    main: { $type: 'Circle', name: 'c', radius: 2 },
    shape: [{ $type: 'Polygon', name: 'p', corner: [1, 2] }, { $type: 'Ring', name: 'r', radius: 3, inner: 1 }, null]
  }])
})

test('XML Schema 1.0 Part 1 §2.6.1: the xsi:type prefix means what it is bound to on the element, not what the same prefix means elsewhere', async (t: TestContext) => {
  const { app, seen } = await build(t)
  // p is bound to OTHER on the message element, and to NS on main: Circle is {NS}Circle.
  const body = envelope('1.2', `<d:Draw xmlns:d="${NS}" xmlns:p="${OTHER}" xmlns:xsi="${XSI}"><d:main xmlns:p="${NS}" xsi:type="p:Circle"><d:name>c</d:name><d:radius>1</d:radius></d:main></d:Draw>`)
  const response = await post(app, '1.2', body, { url: '/draw' })
  t.assert.strictEqual(response.statusCode, 200, response.body)
  t.assert.deepStrictEqual(seen, [{ main: { $type: 'Circle', name: 'c', radius: 1 }, shape: [] }])
  // An unprefixed name is in the default namespace in scope.
  const unprefixed = await post(app, '1.2', envelope('1.2', `<d:Draw xmlns:d="${NS}" xmlns:xsi="${XSI}"><d:main xmlns="${NS}" xsi:type="Circle"><d:name>u</d:name><d:radius>1</d:radius></d:main></d:Draw>`), { url: '/draw' })
  t.assert.strictEqual(unprefixed.statusCode, 200, unprefixed.body)
  t.assert.deepStrictEqual(seen.pop(), { main: { $type: 'Circle', name: 'u', radius: 1 }, shape: [] })
  // The same message twice (the decoder's fast path for repeated markup) resolves it alike.
  const again = await post(app, '1.2', body, { url: '/draw' })
  t.assert.strictEqual(again.body, response.body)
  t.assert.deepStrictEqual(seen[1], seen[0])
})

test('XML Schema 1.0 Part 1 §3.3.4 clause 4.3: an xsi:type that is not the declared type or derived from it, an undeclared prefix, or an abstract type is a Sender fault naming it, and no handler runs', async (t: TestContext) => {
  const { app, seen } = await build(t)
  const cases: Array<[string, RegExp]> = [
    ['<d:main xsi:type="d:Triangle"><d:name>t</d:name></d:main>', /\/main xsi:type \{urn:test:shapes\}Triangle of element d:main is not \{urn:test:shapes\}Shape or a type derived from it/],
    ['<d:main xsi:type="d:Polygon"><d:name>t</d:name></d:main>', /xsi:type \{urn:test:shapes\}Polygon of element d:main is not/],
    ['<d:main xsi:type="nope:Circle"><d:name>t</d:name></d:main>', /the xsi:type of element d:main is not a QName whose prefix is declared/],
    ['<d:main xsi:type="d:1Circle"><d:name>t</d:name></d:main>', /the xsi:type of element d:main is not a QName/],
    ['<d:main><d:name>t</d:name></d:main>', /element d:main is of the abstract type \{urn:test:shapes\}Shape: its xsi:type must name a type derived from it/],
    ['<d:main xsi:type="d:Shape"><d:name>t</d:name></d:main>', /is of the abstract type \{urn:test:shapes\}Shape/],
    ['<d:main xsi:nil="true"/>', /element d:main is xsi:nil but cannot be null/],
    // The type named decides the content: a Circle has no inner.
    ['<d:main xsi:type="d:Circle"><d:name>c</d:name><d:radius>1</d:radius><d:inner>0</d:inner></d:main>', /unexpected element \{urn:test:shapes\}inner in d:main/],
    ['<d:main xsi:type="d:Ring"><d:name>c</d:name><d:radius>1</d:radius></d:main>', /\/main\/inner must have required property 'inner'/]
  ]
  for (const [inner, reason] of cases) {
    const response = await post(app, '1.2', draw(inner), { url: '/draw' })
    t.assert.strictEqual(response.statusCode, 400, inner)
    t.assert.match(response.body, /<soap:Value>soap:Sender<\/soap:Value>/, inner)
    t.assert.match(response.body, reason, inner)
  }
  // Only the problems of the type named are listed, not those of its siblings.
  const ring = await post(app, '1.2', draw('<d:main xsi:type="d:Ring"><d:name>c</d:name><d:radius>1</d:radius></d:main>'), { url: '/draw' })
  t.assert.strictEqual((ring.body.match(/<fs:Problem /g) ?? []).length, 1, ring.body)
  t.assert.deepStrictEqual(seen, [])
})

for (const validateOutput of [true, false]) {
  test(`docs/services.md "Derived types": the type a handler returns is written with xsi:type unless it is the declared one; an unknown or abstract $type is a Receiver fault (validateOutput ${String(validateOutput)})`, async (t: TestContext) => {
    let reply: unknown
    const { app } = await build(t, () => reply, validateOutput)
    reply = { main: { $type: 'Ring', name: 'r', radius: 2, inner: 1 }, shape: [{ $type: 'Polygon', name: 'p', corner: [3] }, null, { $type: 'Circle', name: 'c', radius: 1 }] }
    const ok = await post(app, '1.2', draw(CIRCLE), { url: '/draw' })
    t.assert.strictEqual(ok.statusCode, 200, ok.body)
    t.assert.match(ok.body, new RegExp(`<tns:DrawResponse xmlns:tns="${NS}" xmlns:ns1="${OTHER}" xmlns:xsi="${XSI}">` +
    '<tns:main xsi:type="tns:Ring"><tns:name>r</tns:name><tns:radius>2</tns:radius><tns:inner>1</tns:inner></tns:main>' +
    '<tns:shape xsi:type="ns1:Polygon"><tns:name>p</tns:name><tns:corner>3</tns:corner></tns:shape><tns:shape xsi:nil="true"/>' +
    '<tns:shape xsi:type="tns:Circle"><tns:name>c</tns:name><tns:radius>1</tns:radius></tns:shape></tns:DrawResponse>'))
    for (const main of [{ $type: 'Square', name: 's' }, { $type: 'Shape', name: 's' }, { name: 's', radius: 1 }, null, 'circle', [main1()]]) {
      reply = { main }
      const response = await post(app, '1.2', draw(CIRCLE), { url: '/draw' })
      t.assert.strictEqual(response.statusCode, 500, JSON.stringify(main))
      t.assert.match(response.body, /<soap:Value>soap:Receiver<\/soap:Value>/)
      t.assert.doesNotMatch(response.body, /Square|radius/, 'the fault does not echo the value')
    }
  })
}

test('docs/services.md "Derived types": a "oneOf" of types that cannot be read is SOAP_ERR_SERVICE_SCHEMA at ready(), naming the schema', async (t: TestContext) => {
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ oneOf: [{ type: 'object', properties: { a: { type: 'string' } } }] }, /oneOf\/0: each schema of a "oneOf" of types is an object whose "\$type" property is one "const" string/],
    [{ oneOf: [{ type: 'object', properties: { $type: { type: 'string' } }, required: ['$type'] }] }, /"\$type" names the object's type: a schema of one "const" string/],
    [{ oneOf: [{ type: 'object', properties: { $type: { const: 'A' } } }] }, /"\$type" must be required/],
    [{ oneOf: [{ type: 'object', properties: { $type: { const: 'A' } }, required: ['$type'] }, { type: 'object', properties: { $type: { const: 'A' } }, required: ['$type'] }] }, /two types of the "oneOf" have the "\$type" A/],
    [{ oneOf: [{ type: 'object', properties: { $type: { const: 'A' } }, required: ['$type'] }, { type: 'object', xml: { typeName: 'A' }, properties: { $type: { const: 'B' } }, required: ['$type'] }] }, /are both the XML Schema type \{urn:x\}A/],
    [{ oneOf: [{ type: 'null' }] }, /a "oneOf" of types needs one type at least/],
    [{ oneOf: [{ type: 'object', properties: { $type: { const: 'A' } }, required: ['$type'] }], type: 'object' }, /"type" cannot go beside a "oneOf" of types/],
    [{ oneOf: [{ type: 'object', nullable: true, properties: { $type: { const: 'A' } }, required: ['$type'] }] }, /cannot be nullable: add \{ type: 'null' \}/],
    [{ oneOf: [{ type: 'object', properties: { $type: { const: 'A' } }, required: ['$type'] }], xml: { attribute: true } }, /a "oneOf" of types is an element/],
    [{ type: 'object', xml: { typeName: 'A' }, properties: {} }, /"xml.typeName", "xml.typeNamespace" and "xml.abstract" go on an object with a "\$type" property/]
  ]
  for (const [property, message] of cases) {
    const app = Fastify()
    t.after(() => app.close())
    await app.register(soap)
    app.soap.service({ path: '/x', namespace: 'urn:x', name: 'X', operations: { Op: { input: { type: 'object', properties: { p: property }, additionalProperties: false }, handler () {} } } } as never)
    await t.assert.rejects(async () => { await app.ready() }, (err: Error & { code?: string }) => {
      t.assert.ok(err instanceof errorCodes.SOAP_ERR_SERVICE_SCHEMA, err.message)
      t.assert.match(err.message, message)
      return true
    }, JSON.stringify(property))
  }
})
