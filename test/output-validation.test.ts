/**
 * Output validation left out where the writer enforces the schema
 * (docs/services.md "Writing"): for generated output schemas of the kind it
 * enforces whole, and generated results (valid ones, and ones Ajv or the
 * writer refuse), an operation answers what the same operation answers when
 * Ajv validates every result first (its schema given one keyword the writer
 * does not enforce, which refuses nothing): the same status, content type,
 * reply bytes and logged problem.
 */
import { test, type TestContext } from 'node:test'
import fc from 'fast-check'
import Fastify, { type FastifyInstance } from 'fastify'
import soap from '../lib/index'
import { codecEnforces as writerEnforces } from '../lib/codec/enforced'
import { envelope, post, serviceApp } from './helper'
import { $defs, nullable, objectSchema, scalar, scalarSchema, type Scalar, type Schema } from './enforced-schemas'

const NS = 'urn:test:output'
const RULE = 'docs/services.md "Writing" (validateOutput: Ajv left out where the writer enforces the schema)'

/** A property's schema of every form the writer enforces, objects to `depth` more levels. */
function propertyOf (depth: number): fc.Arbitrary<Schema> {
  const forms: Array<fc.Arbitrary<Schema>> = [
    fc.tuple(scalar, nullable).map(([t, n]) => scalarSchema(t, n)),
    scalar.map((t) => ({ type: t, xml: { attribute: true } })),
    fc.tuple(scalar, fc.boolean()).map(([t, attribute]) => ({ type: 'array', items: { type: t }, xml: { list: true, ...(attribute ? { attribute } : {}) } })),
    fc.tuple(scalar, nullable, fc.boolean()).map(([t, n, wrapped]) => ({ type: 'array', items: scalarSchema(t, n), ...(wrapped ? { xml: { wrapped } } : {}) })),
    fc.constant({ $ref: '#/$defs/Node' }),
    fc.constant({ type: 'array', items: { $ref: '#/$defs/Node' }, description: 'nodes' })
  ]
  if (depth > 0) {
    forms.push(
      fc.tuple(objectOf(depth - 1), fc.boolean()).map(([o, n]) => n ? { ...o, nullable: true } : o),
      objectOf(depth - 1).map((items) => ({ type: 'array', items }))
    )
  }
  return fc.oneof(...forms)
}

/** An object's schema of properties of the forms propertyOf() makes (enforced-schemas.ts, objectSchema()). */
function objectOf (depth: number): fc.Arbitrary<Schema> {
  return objectSchema(propertyOf(depth))
}

const outputSchema = objectOf(2).map((schema) => ({ ...schema, $defs }))

// ------------------------------------------------------------------ values ---

/** Values the writer or Ajv refuse in some place or other. */
const WRONG = fc.constantFrom<unknown>(null, undefined, 'x', 1, 1.5, 2 ** 60, Number.NaN, Infinity, true, {}, [], 'a\u0001b', 'x y')

function scalarValue (type: Scalar): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string': return fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('a & <b>', '"q"\t\r\n'))
    case 'integer': return fc.integer({ min: -1000, max: 1000 })
    case 'number': return fc.oneof(fc.integer({ min: -1000, max: 1000 }).map((n) => n / 4), fc.constant(-0))
    default: return fc.boolean()
  }
}

/** A result for `schema`: mostly what it accepts, at times what it refuses. */
function valueOf (schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 4) return fc.constant(undefined)
  if (schema.$ref !== undefined) return valueOf($defs.Node, depth + 1)
  const types = Array.isArray(schema.type) ? schema.type : [schema.type]
  const allowsNull = types.includes('null') || schema.nullable === true
  let valid: fc.Arbitrary<unknown>
  if (types.includes('array')) {
    valid = fc.array(valueOf(schema.items as Schema, depth + 1), { maxLength: 3 })
  } else if (types.includes('object')) {
    valid = objectValue(schema, depth)
  } else {
    valid = scalarValue(types.find((t) => t !== 'null') as Scalar)
  }
  return fc.oneof(
    { weight: 6, arbitrary: valid },
    { weight: 1, arbitrary: allowsNull ? fc.constant(null) : WRONG }
  )
}

function objectValue (schema: Schema, depth: number): fc.Arbitrary<unknown> {
  const properties = schema.properties as Record<string, Schema>
  const names = Object.keys(properties)
  return fc.tuple(
    fc.tuple(...names.map((name) => fc.option(valueOf(properties[name], depth + 1), { freq: 5, nil: undefined }).map((v) => [name, v] as const))),
    fc.constantFrom('plain', 'plain', 'plain', 'undefined', 'extra', 'inherited', 'hidden')
  ).map(([entries, twist]) => {
    const object: Record<string, unknown> = {}
    for (const [name, v] of entries) if (v !== undefined || twist === 'undefined') object[name] = v
    // A property the schema does not name: own, inherited, or own and not enumerable.
    if (twist === 'extra') object.zz = 1
    if (twist === 'inherited') return Object.assign(Object.create({ zz: 1 }), object)
    if (twist === 'hidden' && names.length > 0) Object.defineProperty(object, names[0], { value: 'x', enumerable: false })
    return object
  })
}

// ----------------------------------------------------------------- answers ---

interface Answer { status: number, type: unknown, body: string, problems: unknown[] }

/** One app serving `schema` as is (/enforced) and with a keyword the writer does not enforce (/validated). */
async function build (t: TestContext, schema: Schema, result: { value: unknown }, logs: Array<{ err?: { code?: string, message?: string } }>): Promise<FastifyInstance> {
  const app = Fastify({ logger: { level: 'error', stream: { write: (line: string) => logs.push(JSON.parse(line)) } } })
  t.after(() => app.close())
  await app.register(soap)
  const operation = (output: Schema): object => ({ Op: { input: { type: 'object', properties: {} }, output, async handler () { return result.value } } })
  app.soap.service({ path: '/enforced', namespace: NS, name: 'Enforced', operations: operation(schema) } as never)
  app.soap.service({ path: '/validated', namespace: NS, name: 'Validated', operations: operation({ ...schema, minProperties: 0 }) } as never)
  await app.ready()
  return app
}

async function answer (app: FastifyInstance, url: string, logs: Array<{ err?: { code?: string, message?: string } }>): Promise<Answer> {
  logs.length = 0
  const response = await post(app, '1.2', envelope('1.2', `<t:Op xmlns:t="${NS}"/>`), { url })
  return {
    status: response.statusCode,
    type: response.headers['content-type'],
    body: response.body,
    problems: logs.filter((l) => l.err !== undefined).map((l) => [l.err?.code, l.err?.message])
  }
}

test(`${RULE}: an output the writer enforces answers as if Ajv validated it first: same status, reply bytes and problem`, async (t: TestContext) => {
  const seen = { written: 0, refused: 0 }
  await fc.assert(fc.asyncProperty(
    outputSchema.chain((schema) => fc.tuple(fc.constant(schema), fc.array(valueOf(schema), { minLength: 4, maxLength: 8 }))),
    async ([schema, values]) => {
      t.assert.ok(writerEnforces(schema), JSON.stringify(schema))
      t.assert.ok(!writerEnforces({ ...schema, minProperties: 0 }))
      const result = { value: undefined as unknown }
      const logs: Array<{ err?: { code?: string, message?: string } }> = []
      const app = await build(t, schema, result, logs)
      for (const value of values) {
        result.value = value
        const enforced = await answer(app, '/enforced', logs)
        const validated = await answer(app, '/validated', logs)
        t.assert.deepStrictEqual(enforced, validated)
        seen[enforced.status === 200 ? 'written' : 'refused']++
      }
      await app.close()
    }
  ), { numRuns: 60 })
  // Both kinds of answer were compared, many times.
  t.assert.ok(seen.written > 50 && seen.refused > 50, JSON.stringify(seen))
})

/** Keywords the writer does not enforce, each with a result that breaks it alone, and Ajv's problem with it. */
const KEPT: Array<{ property: Schema, value: unknown, problem: RegExp, root?: Schema }> = [
  { property: { type: 'string', minLength: 2 }, value: 'a', problem: /"\/p" must NOT have fewer than 2 characters/ },
  { property: { type: 'string', pattern: '^a' }, value: 'b', problem: /"\/p" must match pattern "\^a"/ },
  { property: { type: 'string', format: 'date' }, value: 'x', problem: /"\/p" must match format "date"/ },
  { property: { type: 'string', enum: ['a'] }, value: 'b', problem: /"\/p" must be equal to one of the allowed values/ },
  { property: { type: 'string', const: 'a' }, value: 'b', problem: /"\/p" must be equal to constant/ },
  { property: { type: 'integer', minimum: 0 }, value: -1, problem: /"\/p" must be >= 0/ },
  { property: { type: 'array', items: { type: 'integer' }, maxItems: 1 }, value: [1, 2], problem: /"\/p" must NOT have more than 1 items/ },
  { property: { type: 'string', contentEncoding: 'base64', xml: { maxOctets: 1 } }, value: Buffer.from([1, 2]), problem: /"\/p" must NOT have more than 1 octets/ },
  { property: { type: 'string' }, value: undefined, root: { minProperties: 1 }, problem: /"" must NOT have fewer than 1 properties/ }
]

test(`${RULE}: an output schema with a keyword the writer does not enforce keeps Ajv on every result, a result breaking that keyword alone refused with Ajv's problem`, async (t: TestContext) => {
  const logs: Array<{ err?: { code?: string, message?: string } }> = []
  const app = Fastify({ logger: { level: 'error', stream: { write: (line: string) => logs.push(JSON.parse(line)) } } })
  t.after(() => app.close())
  await app.register(soap)
  const schemas = KEPT.map(({ property, root }) => ({ type: 'object', properties: { p: property }, additionalProperties: false, ...root }))
  KEPT.forEach(({ value }, i) => {
    app.soap.service({ path: `/kept${i}`, namespace: NS, name: `Kept${i}`, operations: { Op: { input: { type: 'object', properties: {} }, output: schemas[i], async handler () { return value === undefined ? {} : { p: value } } } } } as never)
  })
  await app.ready()
  for (const [i, { problem }] of KEPT.entries()) {
    t.assert.ok(!writerEnforces(schemas[i]), JSON.stringify(schemas[i]))
    const response = await answer(app, `/kept${i}`, logs)
    t.assert.strictEqual(response.status, 500, JSON.stringify(schemas[i]))
    t.assert.strictEqual(response.problems.length, 1)
    const [code, message] = response.problems[0] as [string, string]
    t.assert.strictEqual(code, 'SOAP_ERR_OUTPUT_INVALID')
    t.assert.match(message, problem)
  }
})

test(`${RULE}: where the writer enforces the schema, Ajv reads no result it writes: a result is read as often as with validateOutput false; with another keyword, more`, async (t: TestContext) => {
  const enforced = { type: 'object', properties: { n: { type: 'integer' }, s: { type: 'string', xml: { attribute: true } } }, required: ['n'], additionalProperties: false }
  const kept = { ...enforced, properties: { ...enforced.properties, n: { type: 'integer', minimum: 0 } } }
  let reads = 0
  const result = (): object => ({ get n () { reads++; return 1 }, get s () { reads++; return 'x' } })
  const readsOf = async (output: Schema, validateOutput: boolean): Promise<number> => {
    const app = await serviceApp(t, { path: '/r', namespace: NS, name: 'R', validateOutput, operations: { Op: { input: { type: 'object', properties: {} }, output, async handler () { return result() } } } } as never)
    reads = 0
    const response = await post(app, '1.2', envelope('1.2', `<t:Op xmlns:t="${NS}"/>`), { url: '/r' })
    t.assert.strictEqual(response.statusCode, 200)
    t.assert.match(response.body, /<tns:OpResponse xmlns:tns="urn:test:output" s="x"><tns:n>1<\/tns:n><\/tns:OpResponse>/)
    return reads
  }
  t.assert.ok(writerEnforces(enforced) && !writerEnforces(kept))
  const written = await readsOf(enforced, false)
  t.assert.ok(written > 0)
  t.assert.strictEqual(await readsOf(enforced, true), written)
  t.assert.ok(await readsOf(kept, true) > await readsOf(kept, false))
})
