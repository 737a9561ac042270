/**
 * The schemas of an output the checked writer (write-compiled.ts) enforces
 * whole: every keyword, at every depth, is one whose breach it does not
 * write (the types: a string, a safe integer, a finite number, a boolean, an
 * object, an array; null only where the schema allows it; `required`;
 * `additionalProperties: false`), or one that says only the XML form or
 * annotates. A value it writes is then one Ajv accepts; and Ajv changes no
 * value (validation.ts: no defaults, no coercion, nothing removed), so that
 * leaving it out for the values the writer writes changes no reply
 * (docs/services.md "Writing").
 */
import { isObject } from './xml-keyword'

/** The keywords the checked writer enforces, and those that say nothing of a value. */
const ENFORCED: ReadonlySet<string> = new Set([
  'type', 'nullable', 'properties', 'required', 'additionalProperties', 'items', 'xml', '$ref', '$defs', 'definitions',
  'title', 'description', '$comment', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly'
])
/** Keywords whose values map names to schemas. */
const NAMED: ReadonlySet<string> = new Set(['properties', '$defs', 'definitions'])
/** The `xml` keys that say only the XML form (not those of raw elements, derived types or bytes). */
const FORM: ReadonlySet<string> = new Set([
  'name', 'namespace', 'prefix', 'attribute', 'wrapped', 'text', 'list', 'mixed', 'anyAttribute', 'whiteSpace'
])

/** Whether each schema `value` maps a name to is enforced. */
function allEnforced (value: unknown): boolean {
  return isObject(value) && Object.values(value).every(writerEnforces)
}

/**
 * Whether the checked writer enforces every keyword of `schema` (a schema
 * the codec has read into a shape, and Ajv compiled), its named schemas
 * included.
 */
export function writerEnforces (schema: unknown): boolean {
  if (!isObject(schema)) return false
  const properties = isObject(schema.properties) ? schema.properties : {}
  return Object.entries(schema).every(([key, value]) => {
    if (!ENFORCED.has(key)) return false
    if (NAMED.has(key)) return allEnforced(value)
    switch (key) {
      case 'items': return writerEnforces(value)
      // The writer knows a property by its schema: one `required` names and `properties` does not, it cannot check.
      case 'required': return Array.isArray(value) && value.every((p) => Object.hasOwn(properties, p))
      case 'additionalProperties': return value === false
      case 'xml': return isObject(value) && Object.keys(value).every((k) => FORM.has(k))
      default: return true
    }
  })
}
