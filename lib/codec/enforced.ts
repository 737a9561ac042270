/**
 * The schemas the codec enforces whole: every keyword, at every depth, is
 * one whose breach it neither writes nor reads (the types: a string, a safe
 * integer, a finite number, a boolean, an object, an array; null only where
 * the schema allows it; `required`; `additionalProperties: false`), or one
 * that says only the XML form or annotates. Ajv changes no value
 * (validation.ts: no defaults, no coercion, nothing removed), so that
 * leaving it out where the codec enforces the schema changes no reply
 * (docs/services.md "Writing" and "Reading").
 *
 * Writing: a value the checked writer (write-compiled.ts) writes is one Ajv
 * accepts. Reading: a value read.ts (or read-compiled.ts, which reads what
 * it reads) returns has only the properties the schema names, of its types,
 * null only where it allows null; of the keywords here it leaves `required`
 * alone unchecked (an absent element is an absent property), which
 * presenceCheck() checks.
 */
import { isObject } from './keys'
import type { ObjectShape } from './shapes'

/** The keywords the checked writer and the reader enforce, and those that say nothing of a value. */
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
  return isObject(value) && Object.values(value).every(codecEnforces)
}

/**
 * Whether the codec enforces every keyword of `schema` (a schema it has read
 * into a shape, and Ajv compiled), its named schemas included.
 */
export function codecEnforces (schema: unknown): boolean {
  if (!isObject(schema)) return false
  const properties = isObject(schema.properties) ? schema.properties : {}
  return Object.entries(schema).every(([key, value]) => {
    if (!ENFORCED.has(key)) return false
    if (NAMED.has(key)) return allEnforced(value)
    switch (key) {
      case 'items': return codecEnforces(value)
      // The writer knows a property by its schema: one `required` names and `properties` does not, it cannot check.
      case 'required': return Array.isArray(value) && value.every((p) => Object.hasOwn(properties, p))
      case 'additionalProperties': return value === false
      case 'xml': return isObject(value) && Object.keys(value).every((k) => FORM.has(k))
      default: return true
    }
  })
}

/** Whether an object read by a shape has the properties its `required` lists, and so each object in it. */
type Check = (object: Record<string, unknown>) => boolean

/** Whether `shape`, or an object shape its elements hold at any depth, lists a `required` property. */
function requires (shape: ObjectShape, seen = new Set<ObjectShape>()): boolean {
  if (shape.required.length !== 0) return true
  seen.add(shape)
  return shape.elements.some((field) => field.shape.kind === 'object' && !seen.has(field.shape) &&
    requires(field.shape, seen))
}

/**
 * The checks of the object shapes a value holds, each generated once as JavaScript (a property named in the code:
 * V8 finds it in a few instructions), the index of each by its shape, so that a shape that contains itself finds
 * its own.
 */
class Checks {
  readonly checks: Check[] = []
  /** The names looked for as `o[name] !== undefined`, which must not be Object.prototype's (presenceCheck()). */
  readonly names = new Set<string>()
  private readonly index = new Map<ObjectShape, number>()

  indexOf (shape: ObjectShape): number {
    const known = this.index.get(shape)
    if (known !== undefined) return known
    // Its place is taken before its fields' checks are made: they find it there once it is called.
    const i = this.checks.push(undefined as unknown as Check) - 1
    this.index.set(shape, i)
    this.checks[i] = this.compile(shape)
    return i
  }

  /**
   * Whether `o` has the property: the reader sets none to undefined, and makes plain objects, so that a property
   * Object.prototype does not have is own when defined; one it has (`constructor`, `toString`) is looked up as own.
   */
  private has (property: string): string {
    const key = JSON.stringify(property)
    if (property in Object.prototype) return `H(o, ${key})`
    this.names.add(property)
    return `o[${key}] !== undefined`
  }

  private compile (shape: ObjectShape): Check {
    const lines = ['\'use strict\'', 'return function check (o) {']
    const required = shape.required.map((property) => this.has(property))
    if (required.length !== 0) lines.push(`if (!(${required.join(' && ')})) return false`)
    for (const field of shape.elements) {
      const inside = field.shape
      if (inside.kind !== 'object' || !requires(inside)) continue
      const check = `C[${this.indexOf(inside)}]`
      // Null where the schema allows it, as the codec reads it only there.
      lines.push(`if (${this.has(field.property)}) {`, `const v = o[${JSON.stringify(field.property)}]`, field.array
        ? `for (let i = 0; i < v.length; i++) if (v[i] !== null && !${check}(v[i])) return false`
        : `if (v !== null && !${check}(v)) return false`, '}')
    }
    lines.push('return true', '}')
    // Property names come from the schema as JSON strings, nothing else of it.
    // eslint-disable-next-line no-new-func
    return new Function('C', 'H', lines.join('\n'))(this.checks, Object.hasOwn) as Check
  }
}

/**
 * For an operation element's shape whose schema the codec enforces (codecEnforces()): whether a value the reader
 * returned for it has every property a `required` lists, at every depth; then Ajv would accept it. False for
 * anything but an object (no operation element), and while Object.prototype has a property the checks look for as
 * defined (then Ajv, which looks for own properties, tells).
 */
export function presenceCheck (shape: ObjectShape): (value: unknown) => boolean {
  const checks = new Checks()
  const check = checks.checks[checks.indexOf(shape)]
  const names = [...checks.names]
  return (value) => isObject(value) && names.every((name) => !(name in Object.prototype)) && check(value)
}
