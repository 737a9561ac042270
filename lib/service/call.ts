/**
 * The second argument of a handler: the request, the reply, the decoded
 * headers, a signal, and a maker of the operation's declared faults.
 */
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify'
import type { SoapContext } from './context'
import { SOAP_ERR_FAULT_UNKNOWN, SOAP_ERR_OUTPUT_INVALID } from '../errors'
import { SoapFault, type SoapFaultOptions } from '../soap/fault'
import type { Operation } from './compile'
import type { SoapCall, SoapOperationInfo } from '../types'
import { problemsOf } from '../codec/validation'

/** The `SoapCall` a handler gets (types.ts). */
export class Call implements SoapCall {
  readonly request: FastifyRequest
  readonly reply: FastifyReply
  readonly operation: SoapOperationInfo
  readonly #op: Operation
  readonly #timeout: AbortSignal | undefined
  #signal: AbortSignal | undefined

  constructor (request: FastifyRequest, reply: FastifyReply, op: Operation, timeout: AbortSignal | undefined) {
    this.request = request
    this.reply = reply
    this.operation = op.info
    this.#op = op
    this.#timeout = timeout
  }

  /** `request.soap`. */
  get soap (): SoapContext {
    return this.request.soap as SoapContext
  }

  /** The header blocks the operation's header schema names, decoded and validated. */
  get headers (): unknown {
    return this.soap.headerValues
  }

  get log (): FastifyBaseLogger {
    return this.request.log
  }

  /**
   * Aborted when the client goes away before the answer is complete, or when
   * the operation's `timeout` passes: hand it to what the handler waits on.
   */
  get signal (): AbortSignal {
    if (this.#signal === undefined) {
      const client = this.soap.signal
      this.#signal = this.#timeout === undefined ? client : AbortSignal.any([client, this.#timeout])
    }
    return this.#signal
  }

  /**
   * The values of the reply's header blocks, by property of the operation's
   * `outputHeaders` schema: checked against it and written into the reply's
   * Header when the reply is (a later call replaces them).
   */
  replyHeaders (values: unknown): void {
    if (this.#op.replyHeaders === undefined) {
      throw new SOAP_ERR_OUTPUT_INVALID(
        '(reply headers)', `cannot be given: operation ${this.#op.info.name} declares no output header blocks`
      )
    }
    this.soap.replyHeaderValues = values
  }

  /**
   * A fault the operation declares under `faults`, with `detail` written by
   * that fault's schema (checked against it first). Throw what it returns.
   */
  fault (name: string, detail: unknown, options: Omit<SoapFaultOptions, 'detail'>): SoapFault {
    const writer = this.#op.faults.get(name)
    if (writer === undefined) throw new SOAP_ERR_FAULT_UNKNOWN(this.#op.info.name, name)
    if (!writer.validate(detail)) {
      const problem = problemsOf(writer.validate.errors)[0]
      throw new SOAP_ERR_OUTPUT_INVALID(`(fault ${name})${problem.path}`, problem.message)
    }
    return new SoapFault({ action: this.#op.faultActions.get(name), ...options, detail: writer.write(detail) })
  }
}
