/**
 * Input validation left out where the codec enforces the schema
 * (docs/services.md "Reading"): for generated input schemas of the kind the
 * reader enforces whole but for `required`, and generated operation elements
 * (valid ones, and ones with required elements missing, elements or
 * attributes the schema does not name, wrong values, `xsi:nil`, empty
 * elements), an operation answers what the same operation answers when Ajv
 * validates every input (its schema given one keyword the codec does not
 * enforce, which refuses nothing): the same status, reply bytes and input.
 */
import { test, type TestContext } from 'node:test'
import fc from 'fast-check'
import Ajv from 'ajv'
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify'
import soap from '../lib/index'
import { codecEnforces } from '../lib/codec/enforced'
import { envelope, post } from './helper'
import { $defs, nullable, objectSchema, scalar, scalarSchema, type Scalar, type Schema } from './enforced-schemas'

const NS = 'urn:test:input'
const XSI = 'http://www.w3.org/2001/XMLSchema-instance'
const RULE = 'docs/services.md "Reading" (Ajv left out where the codec enforces the input schema)'

/** An object of simple content: a scalar text beside an attribute. */
const simpleContent = fc.tuple(scalar, fc.boolean()).map(([t, required]) => ({
  type: 'object',
  properties: { at: { type: 'string', xml: { attribute: true } }, v: { type: t, xml: { text: true } } },
  ...(required ? { required: ['at'] } : {}),
  additionalProperties: false
}))

/** A property's schema of every form the reader enforces, objects to `depth` more levels. */
function propertyOf (depth: number): fc.Arbitrary<Schema> {
  const forms: Array<fc.Arbitrary<Schema>> = [
    fc.tuple(scalar, nullable).map(([t, n]) => scalarSchema(t, n)),
    fc.constant({ type: 'string', xml: { whiteSpace: 'collapse' } }),
    scalar.map((t) => ({ type: t, xml: { attribute: true } })),
    fc.tuple(scalar, fc.constantFrom(0, 1, 2)).map(([t, form]) => form === 1
      ? { type: 'array', items: { type: t }, xml: { list: true, attribute: true } }
      : { type: form === 2 ? ['array', 'null'] : 'array', items: { type: t }, xml: { list: true } }),
    fc.tuple(scalar, nullable, fc.boolean()).map(([t, n, wrapped]) => ({ type: 'array', items: scalarSchema(t, n), ...(wrapped ? { xml: { wrapped } } : {}) })),
    fc.constant({ $ref: '#/$defs/Node' }),
    fc.constant({ type: 'array', items: { $ref: '#/$defs/Node' }, description: 'nodes' }),
    simpleContent
  ]
  if (depth > 0) {
    forms.push(
      fc.tuple(objectOf(depth - 1), fc.boolean()).map(([o, n]) => n ? { ...o, nullable: true } : o),
      fc.tuple(objectOf(depth - 1), fc.boolean()).map(([items, wrapped]) => ({ type: 'array', items, ...(wrapped ? { xml: { wrapped } } : {}) }))
    )
  }
  return fc.oneof(...forms)
}

/** An object's schema of properties of the forms propertyOf() makes (enforced-schemas.ts, objectSchema()). */
function objectOf (depth: number): fc.Arbitrary<Schema> {
  return objectSchema(propertyOf(depth))
}

const inputSchema = objectOf(2).map((schema) => ({ ...schema, $defs }))

// --------------------------------------------------------------- documents ---

/** Texts of a scalar type: mostly its own, at times one the codec refuses. */
function textOf (type: Scalar): fc.Arbitrary<string> {
  const own: Record<Scalar, fc.Arbitrary<string>> = {
    string: fc.oneof(fc.stringMatching(/^[a-z ]{0,5}$/), fc.constantFrom('a &amp; &lt;b&gt;', ' x\t y ', '')),
    integer: fc.oneof(fc.integer({ min: -1000, max: 1000 }).map(String), fc.constantFrom(' 007 ', '-0', '+5')),
    number: fc.oneof(fc.integer({ min: -1000, max: 1000 }).map((n) => String(n / 4)), fc.constantFrom('1e3', '.5', '1.')),
    boolean: fc.constantFrom('true', 'false', '1', '0', ' true ')
  }
  return fc.oneof(
    { weight: 15, arbitrary: own[type] },
    { weight: 1, arbitrary: fc.constantFrom('x', '', '1.5', 'INF', '99999999999999999999', 'yes') }
  )
}

/** How an element that holds a value may be sent instead: nil, empty, nil and not empty, with an unknown attribute. */
const TWISTS = ['nil', 'empty', 'nil-text', 'attribute'] as const
type Twist = typeof TWISTS[number] | 'plain'
const twist = fc.oneof({ weight: 15, arbitrary: fc.constant<Twist>('plain') }, { weight: 1, arbitrary: fc.constantFrom<Twist>(...TWISTS) })

/** An element `<t:name>` holding `attributes` and `content`, perhaps twisted. */
function element (name: string, attributes: string, content: string, how: Twist): string {
  const tag = `t:${name}`
  switch (how) {
    case 'nil': return `<${tag} xsi:nil="true"/>`
    case 'empty': return `<${tag}/>`
    case 'nil-text': return `<${tag} xsi:nil="1">z</${tag}>`
    case 'attribute': return `<${tag}${attributes} zz="1">${content}</${tag}>`
    default: return `<${tag}${attributes}>${content}</${tag}>`
  }
}

const typeOf = (schema: Schema): Scalar => (Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type) as Scalar
const list = (type: Scalar): fc.Arbitrary<string> => fc.array(textOf(type), { maxLength: 3 }).map((items) => items.join(' '))

/** The elements of a property (or, for an attribute, ` name="value"`), or none: what a client might send for it. */
function sentOf (name: string, schema: Schema, depth: number): fc.Arbitrary<{ attribute: string, elements: string }> {
  const none = { attribute: '', elements: '' }
  const elements = (arbitrary: fc.Arbitrary<string>): fc.Arbitrary<{ attribute: string, elements: string }> =>
    fc.option(arbitrary, { freq: 5, nil: '' }).map((elements) => ({ attribute: '', elements }))
  const xml = (schema.xml ?? {}) as Record<string, unknown>
  if (depth > 4) return fc.constant(none)
  if (schema.$ref !== undefined) return elements(contentOf($defs.Node, depth + 1).chain(([a, c]) => twist.map((how) => element(name, a, c, how))))
  if (xml.attribute === true) {
    const value = xml.list === true ? list(typeOf(schema.items as Schema)) : textOf(typeOf(schema))
    return fc.option(value, { freq: 5, nil: undefined }).map((v) => v === undefined ? none : { attribute: ` ${name}="${v}"`, elements: '' })
  }
  if (xml.list === true) return elements(fc.tuple(list(typeOf(schema.items as Schema)), twist).map(([v, how]) => element(name, '', v, how)))
  const types = Array.isArray(schema.type) ? schema.type : [schema.type]
  if (types.includes('array')) {
    const items = schema.items as Schema
    const item = sentOf(name, items, depth + 1).map((sent) => sent.elements)
    const repeated = fc.array(item, { maxLength: 3 }).map((all) => all.join(''))
    if (xml.wrapped !== true) return repeated.map((elements) => ({ attribute: '', elements }))
    return elements(fc.tuple(repeated, twist).map(([content, how]) => element(name, '', content, how)))
  }
  if (types.includes('object')) return elements(fc.tuple(contentOf(schema, depth + 1), twist).map(([[a, c], how]) => element(name, a, c, how)))
  return elements(fc.tuple(textOf(typeOf(schema)), twist).map(([v, how]) => element(name, '', v, how)))
}

/** An object's attributes and content, each property sent or not, with at times something the schema does not name. */
function contentOf (schema: Schema, depth: number): fc.Arbitrary<[string, string]> {
  const properties = schema.properties as Record<string, Schema>
  const names = Object.keys(properties)
  const text = names.find((name) => (properties[name].xml as { text?: boolean } | undefined)?.text === true)
  const sent = names.filter((name) => name !== text).map((name) => sentOf(name, properties[name], depth))
  return fc.tuple(
    fc.tuple(...sent),
    text === undefined ? fc.constant('') : textOf(typeOf(properties[text])),
    fc.oneof({ weight: 15, arbitrary: fc.constant('plain') }, { weight: 1, arbitrary: fc.constantFrom('extra', 'extra attribute', 'text', 'twice') })
  ).map(([parts, value, extra]) => {
    let attributes = parts.map((p) => p.attribute).join('')
    let content = text === undefined ? parts.map((p) => p.elements).join('') : value
    if (extra === 'extra') content += '<t:zz/>'
    if (extra === 'extra attribute') attributes += ' zz="1"'
    if (extra === 'text') content += 'junk'
    if (extra === 'twice') content += parts.map((p) => p.elements).join('')
    return [attributes, content]
  })
}

function documentOf (schema: Schema): fc.Arbitrary<string> {
  return contentOf(schema, 0).map(([attributes, content]) => `<t:Op xmlns:t="${NS}" xmlns:xsi="${XSI}"${attributes}>${content}</t:Op>`)
}

// ----------------------------------------------------------------- answers ---

interface Answer { status: number, body: string, input: unknown }

/** One app serving `schema` as is (/enforced) and with a keyword the codec does not enforce (/validated). */
async function build (t: TestContext, schema: Schema, inputs: unknown[]): Promise<FastifyInstance> {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  const operation = (input: Schema): object => ({ Op: { input, output: { type: 'object', properties: {} }, async handler (value: unknown) { inputs.push(value); return {} } } })
  app.soap.service({ path: '/enforced', namespace: NS, name: 'Enforced', operations: operation(schema) } as never)
  app.soap.service({ path: '/validated', namespace: NS, name: 'Validated', operations: operation({ ...schema, minProperties: 0 }) } as never)
  await app.ready()
  return app
}

async function answer (app: FastifyInstance, url: string, document: string, inputs: unknown[]): Promise<Answer> {
  inputs.length = 0
  const response = await post(app, '1.2', envelope('1.2', document), { url })
  return { status: response.statusCode, body: response.body, input: inputs.length === 0 ? undefined : inputs[0] }
}

test(`${RULE}: an input the codec enforces answers as if Ajv validated it: same status, reply bytes and input to the handler`, async (t: TestContext) => {
  const seen = { accepted: 0, read: 0, required: 0 }
  await fc.assert(fc.asyncProperty(
    inputSchema.chain((schema) => fc.tuple(fc.constant(schema), fc.array(documentOf(schema), { minLength: 4, maxLength: 8 }))),
    async ([schema, documents]) => {
      t.assert.ok(codecEnforces(schema), JSON.stringify(schema))
      t.assert.ok(!codecEnforces({ ...schema, minProperties: 0 }))
      const inputs: unknown[] = []
      const app = await build(t, schema, inputs)
      for (const document of documents) {
        const enforced = await answer(app, '/enforced', document, inputs)
        const validated = await answer(app, '/validated', document, inputs)
        t.assert.deepStrictEqual(enforced, validated, document)
        // Accepted; refused as the codec reads it; refused by Ajv, for a required property absent.
        seen[enforced.status === 200 ? 'accepted' : /must have required property/.test(enforced.body) ? 'required' : 'read']++
      }
      await app.close()
    }
  ), { numRuns: 80 })
  // Both kinds of answer were compared, many times.
  t.assert.ok(seen.accepted > 50 && seen.read > 50 && seen.required > 50, JSON.stringify(seen))
})

// ------------------------------------------------------- when Ajv runs ---

/** Records every value a validator Ajv compiles is given, while `t` runs. */
function validatedValues (t: TestContext): unknown[] {
  const values: unknown[] = []
  const compile = Ajv.prototype.compile
  t.after(() => { Ajv.prototype.compile = compile })
  Ajv.prototype.compile = function (this: Ajv, ...args: Parameters<Ajv['compile']>) {
    const validate = compile.apply(this, args)
    const recorded = Object.assign((data: unknown) => {
      values.push(data)
      const valid = validate(data)
      recorded.errors = validate.errors
      return valid
    }, validate)
    return recorded
  } as Ajv['compile']
  return values
}

const ENFORCED = {
  type: 'object',
  properties: { n: { type: 'integer' }, s: { type: 'string', xml: { attribute: true } }, r: { type: 'array', items: { $ref: '#/$defs/Node' } } },
  required: ['n'],
  additionalProperties: false,
  $defs
}

/** Serves `input` at /op: the handler echoes nothing and keeps the input it is given, as does an onFault hook. */
async function serve (t: TestContext, input: Schema, hooks: { operation?: object, scope?: (request: FastifyRequest) => Promise<void> } = {}): Promise<{ app: FastifyInstance, inputs: unknown[] }> {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  const inputs: unknown[] = []
  app.soap.addHook('onFault', async (request) => { inputs.push(request.soap?.input) })
  if (hooks.scope !== undefined) app.soap.addHook('preValidation', hooks.scope)
  const operation = { input, output: { type: 'object', properties: {} }, hooks: hooks.operation, async handler (value: unknown) { inputs.push(value); return {} } }
  app.soap.service({ path: '/op', namespace: NS, name: 'S', operations: { Op: operation } } as never)
  await app.ready()
  return { app, inputs }
}

const VALID = `<t:Op xmlns:t="${NS}" s="x"><t:n>1</t:n><t:r name="a"><t:child name="b"/></t:r></t:Op>`
const UNNAMED = `<t:Op xmlns:t="${NS}" s="x"><t:n>1</t:n><t:r><t:child name="b"/></t:r></t:Op>`

test(`${RULE}: where the codec enforces the input schema and no preValidation hook runs, Ajv is given no input it accepts; one lacking a required property, it is`, async (t: TestContext) => {
  const validated = validatedValues(t)
  const kept = { ...ENFORCED, properties: { ...ENFORCED.properties, n: { type: 'integer', minimum: 0 } } }
  t.assert.ok(codecEnforces(ENFORCED) && !codecEnforces(kept))
  const ran = async (input: Schema, document: string, status: number): Promise<boolean> => {
    const { app, inputs } = await serve(t, input)
    validated.length = 0
    const response = await post(app, '1.2', envelope('1.2', document), { url: '/op' })
    t.assert.strictEqual(response.statusCode, status, response.body)
    t.assert.strictEqual(inputs.length, 1)
    return validated.includes(inputs[0])
  }
  t.assert.strictEqual(await ran(ENFORCED, VALID, 200), false)
  t.assert.strictEqual(await ran(kept, VALID, 200), true)
  // A record lacking its required name, at depth: Ajv finds it, and says so.
  t.assert.strictEqual(await ran(ENFORCED, UNNAMED, 400), true)
})

test(`${RULE}: a preValidation hook (the operation's or its scope's) that breaks the input gets Ajv's fault, and Ajv checks what it leaves`, async (t: TestContext) => {
  const validated = validatedValues(t)
  const breaks = async (request: FastifyRequest): Promise<void> => {
    const input = request.soap?.input as Record<string, unknown>
    delete input.n
    input.s = 5
    input.zz = true
  }
  for (const hooks of [{ operation: { preValidation: breaks } }, { scope: breaks }]) {
    const { app, inputs } = await serve(t, ENFORCED, hooks)
    validated.length = 0
    const response = await post(app, '1.2', envelope('1.2', VALID), { url: '/op' })
    t.assert.strictEqual(response.statusCode, 400)
    t.assert.match(response.body, /must have required property 'n'/)
    t.assert.match(response.body, /must be string/)
    t.assert.match(response.body, /must NOT have additional properties/)
    t.assert.ok(validated.includes(inputs[0]))
  }
  // A hook that changes nothing: Ajv still validates the input.
  const { app, inputs } = await serve(t, ENFORCED, { operation: { preValidation: async () => {} } })
  validated.length = 0
  t.assert.strictEqual((await post(app, '1.2', envelope('1.2', VALID), { url: '/op' })).statusCode, 200)
  t.assert.ok(validated.includes(inputs[0]))
})

test(`${RULE}: Ajv looks for own properties; with Object.prototype given one a required element names, an input lacking it still gets Ajv's fault`, async (t: TestContext) => {
  const { app } = await serve(t, ENFORCED)
  const prototype = Object.prototype as Record<string, unknown>
  t.after(() => { delete prototype.n; delete prototype.name })
  prototype.n = 1
  prototype.name = 'inherited'
  for (const [document, missing] of [[`<t:Op xmlns:t="${NS}"/>`, 'n'], [UNNAMED, 'name']]) {
    const response = await post(app, '1.2', envelope('1.2', document), { url: '/op' })
    t.assert.strictEqual(response.statusCode, 400)
    t.assert.ok(response.body.includes(`must have required property '${missing}'`), response.body)
  }
  delete prototype.n
  delete prototype.name
  t.assert.strictEqual((await post(app, '1.2', envelope('1.2', VALID), { url: '/op' })).statusCode, 200)
})
