/**
 * Registration and the reply: an operation's output header blocks (its
 * `outputHeaders` schema, a contract's `soap:header` parts of the output),
 * compiled once into a validator and a writer of each block (codec/blocks.ts), and written
 * into the reply's Header from the values the handler gave to
 * `call.replyHeaders()` (docs/services.md "Header blocks").
 */
import type Ajv from 'ajv'
import type { ValidateFunction } from 'ajv'
import { SOAP_ERR_OUTPUT_INVALID } from '../errors'
import type { ObjectShape } from '../codec/shapes'
import { compileBlocks } from '../codec/blocks'
import type { JsonSchema } from './declaration'
import { compile, problemsOf } from '../codec/validation'

/** The output header blocks of an operation, compiled. */
export interface ReplyHeaders {
  /** An object shape whose element properties are the blocks. */
  readonly shape: ObjectShape
  readonly schema: JsonSchema
  /**
   * The values' validator; undefined when the service does not validate what handlers give
   * (`validateOutput: false`).
   */
  readonly validate: ValidateFunction | undefined
  /** The blocks of the values given, each declaring the namespaces it uses, in schema order. */
  readonly write: (values: unknown) => string
}

/** Compiles the output header blocks of an operation; `shape` is the `outputHeaders` schema's. */
export function compileReplyHeaders (
  ajv: Ajv, schema: JsonSchema, shape: ObjectShape, validateOutputs: boolean, where: string
): ReplyHeaders {
  const write = compileBlocks(shape, schema, where)
  return { shape, schema, validate: validateOutputs ? compile(ajv, schema, where) : undefined, write }
}

/** The blocks to write into a reply's Header: the values checked against their schema, then written. */
export function writeReplyHeaders (headers: ReplyHeaders, values: unknown): string {
  if (values === undefined) return ''
  if (headers.validate !== undefined && !headers.validate(values)) {
    const problem = problemsOf(headers.validate.errors)[0]
    throw new SOAP_ERR_OUTPUT_INVALID(`(reply headers)${problem.path}`, problem.message)
  }
  return headers.write(values)
}
