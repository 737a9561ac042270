/** Validation: named schemas are compiled once per Ajv instance, and still mean what each schema's own `$defs` say. */
import { test, type TestContext } from 'node:test'
import type Ajv from 'ajv'
import { compile, createAjv, problemsOf } from '../../../lib/codec/validation'

type Schema = Record<string, unknown>

/** The named schemas the Ajv instance holds. */
function held (ajv: Ajv): string[] {
  return Object.keys(ajv.schemas).filter((id) => id.startsWith('urn:fastify-soap:schema:'))
}

const NODE: Schema = { type: 'object', properties: { label: { $ref: '#/$defs/Label' }, kids: { type: 'array', items: { $ref: '#/$defs/Node' } } }, required: ['label'], additionalProperties: false }
const LABEL: Schema = { type: 'string', maxLength: 3 }

function root (defs: Schema, property = 'root'): Schema {
  return { type: 'object', properties: { [property]: { $ref: '#/$defs/Node' } }, required: [property], $defs: defs }
}

test('docs/services.md "Named schemas": schemas that share named schemas share their validators, compiled once per plugin registration', (t: TestContext) => {
  const ajv = createAjv()
  const defs = { Node: NODE, Label: LABEL }
  const first = compile(ajv, root(defs), 'A.input')
  t.assert.strictEqual(held(ajv).length, 2)
  // Each is compiled as itself, and called where it is used: none is copied into the schemas that use it.
  t.assert.deepStrictEqual(held(ajv).filter((id) => ajv.schemas[id]?.validate === undefined), [])
  // Another schema, its own `$defs` holding the same named schemas: nothing more is compiled.
  const second = compile(ajv, root({ ...defs }, 'tree'), 'B.input')
  t.assert.strictEqual(held(ajv).length, 2)
  t.assert.strictEqual(first({ root: { label: 'a', kids: [{ label: 'b' }] } }), true)
  t.assert.strictEqual(second({ tree: { label: 'abcd' } }), false)
  t.assert.deepStrictEqual(problemsOf(second.errors), [{ path: '/tree/label', message: 'must NOT have more than 3 characters' }])
  t.assert.strictEqual(first({ root: { label: 'a', kids: [{ label: 'b', kids: [{}] }] } }), false)
  t.assert.deepStrictEqual(problemsOf(first.errors), [{ path: '/root/kids/0/kids/0/label', message: 'must have required property \'label\'' }])
})

test('docs/services.md "Named schemas": a named schema whose names mean other schemas in another `$defs` is compiled again, for what they mean there', (t: TestContext) => {
  const ajv = createAjv()
  compile(ajv, root({ Node: NODE, Label: LABEL }), 'A.input')
  // The same Node, but its Label is another schema: Node is not the one compiled for A.
  const other = compile(ajv, root({ Node: NODE, Label: { type: 'string', maxLength: 6 } }), 'B.input')
  t.assert.strictEqual(held(ajv).length, 4)
  t.assert.strictEqual(other({ root: { label: 'abcdef' } }), true)
  t.assert.strictEqual(other({ root: { label: 'abcdefg' } }), false)
  // `definitions` is the older name of `$defs`.
  const older = compile(ajv, { type: 'object', properties: { n: { $ref: '#/definitions/Label' } }, definitions: { Label: LABEL } }, 'C.input')
  t.assert.strictEqual(held(ajv).length, 4)
  t.assert.strictEqual(older({ n: 'abcd' }), false)
})
