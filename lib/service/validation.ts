/**
 * Stage 5b: validation. One Ajv instance per plugin registration; every
 * operation's validators are compiled once, at `ready()`.
 *
 * The codec has already given each value its JSON type, so Ajv coerces
 * nothing: it checks what XML Schema would (required elements, enums,
 * ranges, patterns, lengths, `format: date` and `date-time`).
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import { SOAP_ERR_SERVICE_SCHEMA } from '../errors'
import type { Problem } from '../soap/fault'

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
    verbose: false
  })
  addFormats(ajv)
  ajv.addVocabulary(['xml'])
  return ajv
}

/** Compiles a schema, turning Ajv's complaint about an invalid one into SOAP_ERR_SERVICE_SCHEMA. */
export function compile (ajv: Ajv, schema: object, where: string): ValidateFunction {
  try {
    return ajv.compile(schema)
  } catch (err) {
    throw new SOAP_ERR_SERVICE_SCHEMA(where, (err as Error).message)
  }
}

/** The keywords that only say which properties are present together (an XSD choice: lib/service/schema.ts). */
const PRESENCE: ReadonlySet<string> = new Set(['anyOf', 'oneOf', 'not'])
const PRESENCE_MESSAGE = 'the elements present do not fit the content model: an xs:choice takes one branch, with its required elements'

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
    if (PRESENCE.has(error.keyword) && problems.some((p) => p.message === PRESENCE_MESSAGE && p.path === base + error.instancePath)) continue
    let path = base + error.instancePath
    const property = error.keyword === 'required' ? error.params.missingProperty : error.keyword === 'additionalProperties' ? error.params.additionalProperty : undefined
    if (property !== undefined) path += '/' + String(property).replace(/~/g, '~0').replace(/\//g, '~1')
    problems.push({ path, message: PRESENCE.has(error.keyword) ? PRESENCE_MESSAGE : String(error.message) })
  }
  return problems
}
