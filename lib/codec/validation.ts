/**
 * Stage 5b: validation. One Ajv instance per plugin registration; every
 * operation's validators are compiled once, at `ready()`.
 *
 * The codec has already given each value its JSON type, so Ajv coerces
 * nothing: it checks what XML Schema would (required elements, enums,
 * ranges, patterns, lengths, `format: date` and `date-time`), and binary
 * strings as the bytes they are read into (BYTES).
 */
import Ajv, { _, str, type ErrorObject, type KeywordCxt, type KeywordErrorDefinition, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import { SOAP_ERR_OUTPUT_INVALID, SOAP_ERR_SERVICE_SCHEMA } from '../errors'
import type { Problem } from '../soap/fault'
import { linearEngine, linearRegExp, URL_PATTERN } from './patterns'
import { readBinary } from './read'
import { TYPE_PROPERTY, type BinaryEncoding } from './shapes'
import { BINARY_ENCODINGS, isString, type XmlKeyword } from './xml-keyword'
import { XSI_TYPES, xsiTypes } from './xsi-types'

/** At most this many problems are listed in a fault's Detail. */
export const MAX_PROBLEMS = 20

export function createAjv (): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    // `constructor` or `toString` are ordinary property names: `required` must not find them on the prototype.
    ownProperties: true,
    strict: true,
    allowUnionTypes: true,
    coerceTypes: false,
    useDefaults: false,
    // Error messages go into faults; the schema itself does not.
    messages: true,
    verbose: false,
    // A named schema is compiled once and called wherever it is used, not copied into each (a contract's types).
    inlineRefs: false,
    // Patterns run in linear time (docs/protocol.md "Limits", linear cost): never on a backtracking engine.
    code: { regExp: linearEngine() }
  })
  addFormats(ajv)
  // ajv-formats' `url` backtracks (quadratic time): the same language, in linear time. Its other formats are linear.
  const url = linearRegExp(URL_PATTERN)
  ajv.addFormat('url', { type: 'string', validate: (text: string) => url.test(text) })
  // `xml` says the XML form, which the codec reads: nothing of it is Ajv's to check.
  ajv.addKeyword({ keyword: 'xml', schemaType: 'object' })
  // A binary string is bytes once read: forAjv() makes its schema this keyword's.
  ajv.addKeyword({ keyword: BYTES, schemaType: 'object', code: bytesCode, error: BYTES_ERROR })
  // A "oneOf" of types is validated as the type its `$type` names, found by it (forAjv()).
  ajv.addKeyword(xsiTypes)
  return ajv
}

/**
 * The keyword a binary string's schema (`contentEncoding` base64 or base16)
 * is given to Ajv as: its value is bytes, a Buffer read or any Uint8Array
 * written, which Ajv's `type: 'string'` would refuse. It checks what the
 * schema says of them: octets, not characters, for the lengths
 * (`xml.minOctets`, `xml.maxOctets`: XML Schema Part 2 §4.3.1.3 counts
 * octets), and the octets of an `enum` or `const`, which are texts in the
 * schema (§4.3.5: an enumeration holds values, so `0a0b` is `0A0B`). The
 * schema the service declares stays as written.
 */
const BYTES = 'fastify-soap:bytes'

interface Bytes {
  readonly encoding: BinaryEncoding
  readonly nullable: boolean
  readonly minOctets?: number
  readonly maxOctets?: number
  /** The texts of an `enum` or `const`, null left out (`nullable` says it). */
  readonly values?: readonly string[]
}

const BYTES_ERROR: KeywordErrorDefinition = {
  message: ({ params }) => params.limit !== undefined
    ? str`must NOT have ${params.comparison as string} than ${params.limit as number} octets`
    : str`${params.problem as string}`,
  params: ({ params }) => params.limit !== undefined
    ? _`{comparison: ${params.comparison as string}, limit: ${params.limit as number}}`
    : _`{}`
}

/** A binary string's schema as Ajv is given it (BYTES); undefined for any other. */
function bytesSchema (schema: Record<string, unknown>): object | undefined {
  if (!BINARY_ENCODINGS.has(schema.contentEncoding) || !isString(schema)) return undefined
  const { type, nullable, enum: listed, const: fixed, ...rest } = schema
  const xml = (schema.xml ?? {}) as XmlKeyword
  const values = (listed ?? (fixed === undefined ? undefined : [fixed])) as unknown[] | undefined
  const bytes: Bytes = {
    encoding: schema.contentEncoding as BinaryEncoding,
    nullable: nullable === true || (Array.isArray(type) && type.includes('null')) || values?.includes(null) === true,
    minOctets: xml.minOctets,
    maxOctets: xml.maxOctets,
    values: values?.filter((v) => v !== null).map(String)
  }
  return { ...rest, [BYTES]: bytes }
}

/** The code of BYTES: a Uint8Array (or null, when allowed), its octets counted, its value one of those listed. */
function bytesCode (cxt: KeywordCxt): void {
  const { gen, data } = cxt
  const { encoding, nullable, minOctets, maxOctets, values } = cxt.schema as Bytes
  const bytes = _`${data} instanceof Uint8Array`
  cxt.setParams({ problem: 'must be bytes (a Buffer or Uint8Array)' })
  cxt.fail(nullable ? _`!(${bytes} || ${data} === null)` : _`!${bytes}`)
  if (maxOctets !== undefined) {
    cxt.setParams({ comparison: 'more', limit: maxOctets })
    cxt.fail(_`${bytes} && ${data}.byteLength > ${maxOctets}`)
  }
  if (minOctets !== undefined) {
    cxt.setParams({ comparison: 'fewer', limit: minOctets })
    cxt.fail(_`${bytes} && ${data}.byteLength < ${minOctets}`)
  }
  if (values !== undefined) {
    const allowed = values.map((text) => readBinary(encoding, text))
    const oneOf = gen.scopeValue('func', { ref: (value: Uint8Array) => allowed.some((b) => b.equals(value)) })
    cxt.setParams({ problem: 'must be equal to one of the allowed values' })
    cxt.fail(_`${bytes} && !${oneOf}(${data})`)
  }
}

/** Compiles a schema, turning Ajv's complaint about an invalid one into SOAP_ERR_SERVICE_SCHEMA. */
export function compile (ajv: Ajv, schema: object, where: string): ValidateFunction {
  checkPatterns(ajv, schema, where, true)
  try {
    return ajv.compile(namedOnce(ajv, schema as Record<string, unknown>, where))
  } catch (err) {
    if (err instanceof SOAP_ERR_SERVICE_SCHEMA) throw err
    const message = (err as Error).message
    const keyword = /^strict mode: unknown keyword: "(.*)"$/.exec(message)?.[1]
    if (keyword === undefined) throw new SOAP_ERR_SERVICE_SCHEMA(where, message)
    throw new SOAP_ERR_SERVICE_SCHEMA(where + holderOf(schema, keyword), `unknown keyword "${keyword}"`)
  }
}

/** Keywords whose value is a schema, or a list of them (the applicators of JSON Schema and its drafts). */
const SUBSCHEMAS: ReadonlySet<string> = new Set([
  'items', 'additionalItems', 'prefixItems', 'additionalProperties', 'contains', 'propertyNames', 'not', 'if', 'then',
  'else', 'allOf', 'anyOf', 'oneOf', 'unevaluatedItems', 'unevaluatedProperties'
])
/** Keywords whose value maps names to schemas. */
const NAMED_SUBSCHEMAS: ReadonlySet<string> = new Set([
  'properties', 'patternProperties', 'dependentSchemas', 'dependencies', '$defs', 'definitions'
])

/** The first defined result of `find` over `items`. */
function firstOf<T> (items: Iterable<T>, find: (item: T) => string | undefined): string | undefined {
  for (const item of items) {
    const found = find(item)
    if (found !== undefined) return found
  }
  return undefined
}

function pointerStep (key: string): string {
  return `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`
}

/**
 * The JSON Pointer, from the schema's root, of the first schema (not a
 * property's name, nor data such as `enum` or `xml`) holding `keyword`;
 * '' for the root, or when Ajv met it where no schema of ours has it.
 */
function holderOf (schema: unknown, keyword: string): string {
  const seen = new Set<object>()
  const search = (node: unknown, at: string): string | undefined => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return undefined
    seen.add(node)
    if (Array.isArray(node)) return firstOf(node.entries(), ([i, item]) => search(item, `${at}/${i}`))
    if (Object.hasOwn(node, keyword)) return at
    return firstOf(Object.entries(node), ([key, value]) => {
      const step = at + pointerStep(key)
      if (SUBSCHEMAS.has(key)) return search(value, step)
      // Ajv has checked the schema against its meta-schema: these keywords' values are objects.
      if (!NAMED_SUBSCHEMAS.has(key)) return undefined
      return firstOf(Object.entries(value as object), ([name, sub]) => search(sub, step + pointerStep(name)))
    })
  }
  return search(schema, '') ?? ''
}

/** Keywords whose values are data, not schemas. */
const DATA_KEYWORDS: ReadonlySet<string> = new Set(['const', 'enum', 'default', 'examples'])
/** Where a schema's named schemas are: each is checked once, when Ajv is given it (namedOnce()). */
const NAMED: ReadonlySet<string> = new Set(['$defs', 'definitions'])

/**
 * Refuses a `pattern` with no linear-time form (patterns.ts), naming where
 * it is in the schema (a JSON pointer); the patterns are made as Ajv will
 * use them. At the top of a schema its `$defs` are passed over.
 */
function checkPatterns (ajv: Ajv, schema: unknown, where: string, top = false): void {
  if (typeof schema !== 'object' || schema === null) return
  for (const [key, value] of Object.entries(schema)) {
    const at = where + pointerStep(key)
    if (key === 'pattern' && typeof value === 'string') {
      try {
        ajv.opts.code.regExp(value, 'u')
      } catch (err) {
        throw new SOAP_ERR_SERVICE_SCHEMA(at, `the pattern ${JSON.stringify(value)}: ${(err as Error).message}`)
      }
    } else if (!DATA_KEYWORDS.has(key) && !(top && NAMED.has(key))) {
      checkPatterns(ajv, value, at)
    }
  }
}

/**
 * A named schema as Ajv holds it: made from `def`, under `id`, with the
 * names its `$ref`s used, each bound to the one it meant. It rides on the
 * schema given to Ajv, under a symbol (no keyword: Ajv reads string keys
 * only), so that Ajv's registry is the only one.
 */
interface Registered {
  readonly def: object
  readonly id: string
  readonly uses: Map<string, Registered>
}

const REGISTERED = Symbol('registered')

const REF = /^#\/(?:\$defs|definitions)\/([^/]+)$/

/** Whether a registered schema means, through every name it uses, what these `$defs` say. */
function fits (registered: Registered, defs: Record<string, unknown>, seen: Set<Registered>): boolean {
  if (seen.has(registered)) return true
  seen.add(registered)
  for (const [name, used] of registered.uses) if (defs[name] !== used.def || !fits(used, defs, seen)) return false
  return true
}

/** The named schema Ajv holds under an id, if any. */
function registeredAt (ajv: Ajv, id: string): Registered | undefined {
  return (ajv.schemas[id]?.schema as { [REGISTERED]?: Registered } | undefined)?.[REGISTERED]
}

/**
 * The schema as Ajv is given it (forAjv()), its named schemas (`$defs` or
 * `definitions`) added to Ajv once each, under an id made of its name
 * (`urn:fastify-soap:schema:<name>`, numbered for each other schema of that
 * name), and every `$ref` to one naming that id. Operations whose schemas
 * share named schemas (a contract's types, a service's `$defs`) then share
 * their validators: each is compiled once per Ajv instance, not once per
 * schema that reaches it. A schema Ajv holds under the name is used again
 * when it was made from the same object and its names mean, through every
 * name they use, the same objects here. The lib/codec/shapes.ts checks have
 * run: every `$ref` names one of the schema's own `$defs`.
 */
function namedOnce (ajv: Ajv, schema: Record<string, unknown>, where: string): object {
  const defs = (schema.$defs ?? schema.definitions) as Record<string, unknown> | undefined
  if (defs === undefined) return forAjv(schema) as object
  const bound = new Map<string, Registered>()
  const named = (name: string): Registered => {
    const def = defs[name] as object
    const known = bound.get(name)
    if (known !== undefined) return known
    const base = `urn:fastify-soap:schema:${name.replace(/[^A-Za-z0-9._-]/g, '_')}`
    let id = base
    for (let n = 2; ajv.schemas[id] !== undefined; n++) {
      const held = registeredAt(ajv, id)
      if (held?.def === def && fits(held, defs, new Set())) {
        bound.set(name, held)
        return held
      }
      id = `${base}:${n}`
    }
    const made: Registered = { def, id, uses: new Map() }
    bound.set(name, made)
    checkPatterns(ajv, def, `${where}/${schema.$defs === undefined ? 'definitions' : '$defs'}/${name}`)
    const given = forAjv(def, (used) => {
      const target = named(used)
      made.uses.set(used, target)
      return target.id
    }) as Record<string | symbol, unknown>
    given[REGISTERED] = made
    ajv.addSchema(given, id)
    return made
  }
  const { $defs, definitions, ...root } = schema
  return forAjv(root, (name) => named(name).id) as object
}

/**
 * The schema as Ajv is given it: a "oneOf" of types (lib/codec/shapes.ts,
 * `alternatives`) becomes an object validated as the one its `$type` names
 * (lib/codec/xsi-types.ts), so that a value's problems are those of its own
 * type; `{ type: 'null' }` among them becomes a type of null. The codec has
 * already made every value an object or null. `ref` gives the id a `$ref`
 * to a named schema becomes.
 */
function forAjv (schema: unknown, ref?: (name: string) => string): unknown {
  if (Array.isArray(schema)) return schema.map((item) => forAjv(item, ref))
  if (typeof schema !== 'object' || schema === null) return schema
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(schema)) {
    const match = key === '$ref' && ref !== undefined && typeof value === 'string' ? REF.exec(value) : null
    out[key] = match !== null ? ref?.(match[1]) : DATA_KEYWORDS.has(key) ? value : forAjv(value, ref)
  }
  const binary = bytesSchema(out)
  if (binary !== undefined) return binary
  const branches = out.oneOf
  if (
    !Array.isArray(branches) ||
    out.type !== undefined ||
    !branches.some((b) => typeof b === 'object' && b !== null && (b.$ref !== undefined || b.type !== undefined))
  ) {
    return out
  }
  const types = branches.filter((b) => !(b.type === 'null' && Object.keys(b).length === 1))
  const { nullable, oneOf, ...rest } = out
  const type = types.length < branches.length || nullable === true ? ['object', 'null'] : 'object'
  return { ...rest, type, [XSI_TYPES]: types }
}

/** The keywords that only say which properties are present together (an XSD choice: lib/codec/shapes.ts). */
const PRESENCE: ReadonlySet<string> = new Set(['anyOf', 'oneOf', 'not'])
const PRESENCE_MESSAGE = 'the elements present do not fit the content model: an xs:choice takes one branch, with ' +
  'its required elements'

/**
 * Ajv's errors as problems: the failing path (a missing or unexpected
 * property named in it) and the message. A presence rule that fails is one
 * problem, said in XML Schema's terms: the errors Ajv found inside it say
 * nothing a client can act on.
 */
export function problemsOf (errors: readonly ErrorObject[] | null | undefined, base = ''): Problem[] {
  const problems: Problem[] = []
  const presence = new Set((errors ?? []).filter((e) => PRESENCE.has(e.keyword)).map((e) => e.instancePath))
  for (const error of errors ?? []) {
    if (problems.length === MAX_PROBLEMS) break
    const inRule = /\/(anyOf|oneOf|not)(\/|$)/.test(error.schemaPath) && presence.has(error.instancePath)
    if (inRule && !PRESENCE.has(error.keyword)) continue
    if (
      PRESENCE.has(error.keyword) &&
      problems.some((p) => p.message === PRESENCE_MESSAGE && p.path === base + error.instancePath)
    ) {
      continue
    }
    let path = base + error.instancePath
    if (error.keyword === XSI_TYPES) {
      problems.push({
        path: `${path}/${TYPE_PROPERTY}`,
        message: 'must name the element\'s type or one derived from it'
      })
      continue
    }
    const property = error.keyword === 'required'
      ? error.params.missingProperty
      : error.keyword === 'additionalProperties'
        ? error.params.additionalProperty
        : undefined
    if (property !== undefined) path += '/' + String(property).replace(/~/g, '~0').replace(/\//g, '~1')
    problems.push({ path, message: PRESENCE.has(error.keyword) ? PRESENCE_MESSAGE : String(error.message) })
  }
  return problems
}

/** Throws SOAP_ERR_OUTPUT_INVALID, with the path and message of its first problem, for a result `validate` refuses. */
export function checkResult (validate: ValidateFunction, value: unknown): void {
  if (validate(value)) return
  const problem = problemsOf(validate.errors)[0]
  throw new SOAP_ERR_OUTPUT_INVALID(problem.path, problem.message)
}
