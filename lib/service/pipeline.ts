/**
 * Stage 6b: the pipeline, the only file that knows the whole order
 * (docs/hooks.md):
 *
 *   (protocols after decode) → onEnvelope → (protocols before dispatch) → dispatch →
 *   (protocols after dispatch) → onOperation → read input and headers →
 *   preValidation → validate → preHandler → (protocols before the handler) →
 *   handler → onResult → validate output → write (protocols on the reply) →
 *   200 (or 202 for a one-way operation)
 *
 * and, when any of them throws, onFault → the fault. A stage with no hook
 * costs a null check; a service with no protocol, an empty loop.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Call } from './call'
import { InputProblem, isEmptyNil, locate, readChild, readScalarOf, startChildren } from '../codec/read'
import { readCompiled } from '../codec/read-compiled'
import type { SoapContext } from './context'
import { dispatch } from './dispatch'
import { SOAP_ERR_OPERATION_TIMEOUT } from '../errors'
import { invalidInputFault, toSoapFault, type SoapFault } from '../soap/fault'
import { answered, runHooks } from './hooks'
import type { SoapFaultHook } from '../types'
import { versionInfo, qnameKey } from '../namespaces'
import type { Field, ScalarShape } from '../codec/shapes'
import type { Operation, Service } from './compile'
import { writeEnvelope } from '../soap/writer'
import { writeXopPackage, XopParts } from '../soap/xop-write'
import { writingParts } from '../codec/write'
import { kMtomRule, repliesInParts } from './mtom'
import { checkResult, problemsOf } from '../codec/validation'
import { writeReplyHeaders } from './reply-headers'
import { Exchange, kExchange } from './protocol'
import { withDeadline } from '../deadline'

type InputReader = (op: Operation, request: FastifyRequest) => unknown

/** A value the codec refused, as a Sender fault; the value itself is left out for a redacted element. */
function readProblem<T> (op: Operation, where: string, read: () => T): T {
  try {
    return read()
  } catch (err) {
    if (!(err instanceof InputProblem)) throw err
    const message = err.elements.some((element) => op.redact.has(element)) ? err.unquoted : err.message
    throw invalidInputFault([{ path: err.path, message }], where)
  }
}

/** The input of a POST: the operation element, read by the input schema. */
const bodyInput: InputReader = (op, request) => {
  const { tree, bodyNodes } = (request.soap as SoapContext).decoded
  if (op.input === undefined || bodyNodes.length === 0) return undefined
  const shape = op.input
  return readProblem(op, 'input', () => readCompiled(shape, tree, bodyNodes[0]))
}

/**
 * The input of a GET (SOAP 1.2 Web Method feature): query parameters named
 * as the input's elements or attributes, read by the same scalar rules.
 */
const queryInput: InputReader = (op, request) => {
  const fields = op.queryFields as ReadonlyMap<string, Field>
  const query = request.query as Record<string, string | string[]>
  return readProblem(op, 'input', () => {
    const out: Record<string, unknown> = {}
    // A list's items, as a repeated element's, are the parameter given once per item.
    for (const field of fields.values()) if (field.array || field.list) out[field.property] = []
    for (const name of Object.keys(query)) {
      const field = fields.get(name)
      if (field === undefined) throw new InputProblem(`unexpected query parameter ${name}`)
      const raw = query[name]
      const values = Array.isArray(raw) ? raw : [raw]
      const shape = field.shape as ScalarShape
      const many = field.array || field.list
      if (!many && values.length > 1) {
        throw locate(new InputProblem(`query parameter ${name} is given more than once`), field.property)
      }
      const read: unknown[] = []
      for (const value of values) {
        try {
          read.push(readScalarOf(shape, value))
        } catch (err) {
          if (err instanceof InputProblem) err.elements.push(qnameKey(field.namespace, field.name))
          throw many ? locate(err, field.property, read.length) : locate(err, field.property)
        }
      }
      out[field.property] = many ? read : read[0]
    }
    return op.input === undefined ? undefined : out
  })
}

function readHeaders (op: Operation, soap: SoapContext): unknown {
  const shape = op.headers
  if (shape === undefined) return undefined
  const out: Record<string, unknown> = {}
  const { tree, headers } = soap.decoded
  return readProblem(op, 'header', () => {
    startChildren(shape, out)
    // Only blocks meant for this node are processed (SOAP 1.2 Part 1 §2.6; SOAP 1.1 §4.2.2).
    // An optional block sent empty and nil though it cannot be null is absent (docs/protocol.md "Be liberal").
    for (const block of headers) {
      if (!block.targeted || isEmptyNil(shape, tree, block.node)) continue
      readChild(shape, tree, block.node, out, true, 'Header')
    }
    return out
  })
}

/** `read`: the input is the codec's reading of the operation element, which `op.validRead` may find valid. */
function validate (op: Operation, soap: SoapContext, read: boolean): void {
  // Ajv is left out for an input it would accept, as the codec read it (docs/services.md "Reading").
  const valid = read && op.validRead !== undefined && op.validRead(soap.input)
  if (!valid && op.validateInput !== undefined && !op.validateInput(soap.input)) {
    throw invalidInputFault(problemsOf(op.validateInput.errors), 'input')
  }
  if (op.validateHeaders !== undefined && !op.validateHeaders(soap.headerValues)) {
    throw invalidInputFault(problemsOf(op.validateHeaders.errors), 'header')
  }
}

/** The handler, raced against the operation's `timeout`, whose signal it gets. */
async function invokeTimed (
  op: Operation, request: FastifyRequest, reply: FastifyReply, input: unknown
): Promise<unknown> {
  return await withDeadline(
    async (signal) => await op.handler(input, new Call(request, reply, op, signal)),
    op.timeout,
    () => new SOAP_ERR_OPERATION_TIMEOUT(op.info.name, op.timeout)
  )
}

async function runOperation (
  op: Operation, readInput: InputReader, request: FastifyRequest, reply: FastifyReply
): Promise<FastifyReply> {
  const soap = request.soap as SoapContext
  const hooks = op.hooks
  const exchange = request[kExchange]
  const stages = exchange?.service.stages
  soap.operation = op.info
  request[kMtomRule] = op.mtom
  if (stages !== undefined) for (const step of stages.afterDispatch) await step(exchange as Exchange, op)
  if (hooks.onOperation !== null && await runHooks(hooks.onOperation, request, reply)) return reply
  soap.input = readInput(op, request)
  soap.headerValues = readHeaders(op, soap)
  if (hooks.preValidation !== null && await runHooks(hooks.preValidation, request, reply)) return reply
  validate(op, soap, readInput === bodyInput)
  if (hooks.preHandler !== null && await runHooks(hooks.preHandler, request, reply)) return reply
  if (stages !== undefined) for (const step of stages.beforeHandler) step(exchange as Exchange, op)
  soap.result = op.timeout === 0
    ? await op.handler(soap.input, new Call(request, reply, op, undefined))
    : await invokeTimed(op, request, reply, soap.input)
  if (answered(soap.result, reply)) return reply
  if (hooks.onResult !== null && await runHooks(hooks.onResult, request, reply)) return reply
  if (op.info.oneWay) return reply.code(202).header('content-length', '0').send()
  if (op.validateOutput !== undefined) checkResult(op.validateOutput, soap.result)
  const version = versionInfo(soap.version)
  // A reply a protocol writes (signs) is a plain envelope.
  const written = stages?.writeReply
  const xop = written === undefined && repliesInParts(op.mtom, request, soap.mtom)
    ? new XopParts(op.mtom.threshold)
    : undefined
  // An output with no Body part (only header blocks, or nothing) is an empty Body.
  const write = (): [string, string] => [
    op.writeOutput === undefined ? '' : op.writeOutput(soap.result),
    op.replyHeaders === undefined ? '' : writeReplyHeaders(op.replyHeaders, soap.replyHeaderValues)
  ]
  const [body, blocks] = xop === undefined ? write() : writingParts(xop, write)
  let headers = soap.responseHeaders.length === 0 && blocks === '' ? undefined : blocks + soap.responseHeaders.join('')
  if (stages !== undefined) {
    let first = ''
    for (const step of stages.onReply) first += step(exchange as Exchange, op)
    if (first !== '') headers = first + (headers ?? '')
  }
  const envelope = written === undefined
    ? writeEnvelope(version, body, headers)
    : written(exchange as Exchange, version, body, headers)
  if (xop === undefined) return reply.header('content-type', version.contentType).send(envelope)
  const { contentType, body: bytes } = writeXopPackage(version, envelope, xop)
  return reply.header('content-type', contentType).send(bytes)
}

async function runFault (
  hooks: readonly SoapFaultHook[], thrown: unknown, request: FastifyRequest, reply: FastifyReply
): Promise<FastifyReply> {
  let fault: SoapFault = toSoapFault(thrown, request.log)
  try {
    for (const hook of hooks) {
      if (answered(await hook(request, reply, fault), reply)) return reply
    }
  } catch (err) {
    fault = toSoapFault(err, request.log)
  }
  throw fault
}

type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>

/**
 * A route handler running `stages`, with `read` (the protocols' steps after
 * decode) and the service's onEnvelope hooks first and its onFault hooks on
 * whatever they throw. `runOperation` is the one async step: the entry itself adds no
 * promise of its own.
 */
function entry (service: Service, stages: Handler, read?: (request: FastifyRequest) => void): Handler {
  const { onEnvelope, onFault } = service
  const hooked: Handler = onEnvelope === null
    ? stages
    : async (request, reply) => await runHooks(onEnvelope, request, reply) ? reply : await stages(request, reply)
  const run: Handler = read === undefined
    ? hooked
    : (request, reply) => { read(request); return hooked(request, reply) }
  if (onFault === null) return run
  const fault = async (err: unknown, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    if (reply.sent) throw err
    return await runFault(onFault, err, request, reply)
  }
  return function soapFaults (request, reply) {
    let running
    try {
      running = run(request, reply)
    } catch (err) {
      return fault(err, request, reply)
    }
    return running.catch((err: unknown) => fault(err, request, reply))
  }
}

/** The operation of a POST: dispatched by the Body, or by an action a protocol routes by. */
function dispatched (service: Service, request: FastifyRequest): Operation {
  const exchange = request[kExchange]
  let routed: string | undefined
  if (exchange !== null) for (const step of service.stages.beforeDispatch) routed = step(exchange) ?? routed
  return dispatch(service, request.soap as SoapContext, routed)
}

/** The handler of a service's POST route. */
export function serviceHandler (service: Service): Handler {
  const { afterDecode } = service.stages
  const read = afterDecode.length === 0
    ? undefined
    : (request: FastifyRequest) => { for (const step of afterDecode) step(request[kExchange] as Exchange) }
  const run = entry(
    service,
    (request, reply) => runOperation(dispatched(service, request), bodyInput, request, reply),
    read
  )
  const protocols = service.protocols.length !== 0
  return function soapPost (request, reply) {
    (request.soap as SoapContext).respondsOn(reply.raw)
    request[kMtomRule] = service.mtom
    if (protocols) request[kExchange] = new Exchange(request, service)
    return run(request, reply)
  }
}

/** The handler of an operation's GET route; `context` makes its `request.soap`. */
export function getHandler (service: Service, op: Operation, context: () => SoapContext): Handler {
  const run = entry(service, (request, reply) => runOperation(op, queryInput, request, reply))
  const protocols = service.protocols.length !== 0
  return function soapGet (request, reply) {
    const soap = request.soap = context()
    soap.respondsOn(reply.raw)
    request[kMtomRule] = op.mtom
    if (protocols) request[kExchange] = new Exchange(request, service)
    return run(request, reply)
  }
}
