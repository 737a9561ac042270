/**
 * Registration: a service declaration checked and compiled once, at
 * `ready()`: each operation's element, action, codec, validators and
 * writers, and the dispatch tables (docs/protocol.md "Dispatch"). A bad
 * declaration is a coded error that names the problem.
 */
import type Ajv from 'ajv'
import type { ValidateFunction } from 'ajv'
import { compileElement, compileOutput } from '../codec/write'
import { codecEnforces, presenceCheck } from '../codec/enforced'
import {
  SOAP_ERR_SERVICE_DUPLICATE,
  SOAP_ERR_SERVICE_HANDLER,
  SOAP_ERR_SERVICE_INVALID,
  SOAP_ERR_HOOK_INVALID
} from '../errors'
import { HOOK_NAMES, hookLists, understoodIn, type HookLists, type SoapScope } from './hooks'
import { usesXsi, shapeOf, type Field, type NamedShapes, type ObjectShape } from '../codec/shapes'
import { fail, xmlOf } from '../codec/xml-keyword'
import { prefixesFor } from '../codec/prefixes'
import { isObject, KnownKeys } from '../codec/keys'
import { checkResult, compile } from '../codec/validation'
import { isXmlText } from '../xml/chars'
import { isNCName } from '../xml/chars'
import type { SoapOperationInfo } from '../types'
import {
  defaultAction, OPERATION_KEYS, SERVICE_KEYS, wsdlOptions,
  type JsonSchema, type OperationDeclaration, type ServiceDeclaration
} from './declaration'
import { qnameKey, isQNameKey } from '../namespaces'
import { compileReplyHeaders, type ReplyHeaders } from './reply-headers'
import { stagesOf, type Protocol, type ProtocolModule, type ProtocolStages } from './protocol'
import { serviceDescription } from './description'
import { DEFAULT_MTOM, mtomPolicy, mtomRule, type MtomRule } from './mtom'
import type { ElementDescription, OperationDescription, ServiceDescription } from './description'

export interface FaultWriter {
  readonly write: (value: unknown) => string
  readonly validate: ValidateFunction
}

export interface Operation {
  readonly info: SoapOperationInfo
  readonly namespace: string
  readonly localName: string | undefined
  readonly input: ObjectShape | undefined
  readonly validateInput: ValidateFunction | undefined
  /**
   * Whether an input read from the Body is one `validateInput` accepts, for an input schema the codec enforces but
   * for `required` (codec/enforced.ts), of an operation with no preValidation hook: then Ajv is left out; otherwise
   * it runs. Undefined for any other operation (docs/services.md "Reading").
   */
  readonly validRead: ((input: unknown) => boolean) | undefined
  readonly headers: ObjectShape | undefined
  readonly validateHeaders: ValidateFunction | undefined
  readonly writeOutput: ((value: unknown) => string) | undefined
  /** Undefined when results go unvalidated, or when `writeOutput` validates those it refuses (codec/enforced.ts). */
  readonly validateOutput: ValidateFunction | undefined
  /** The reply's header blocks (`outputHeaders`), written from `call.replyHeaders()`; undefined when it has none. */
  readonly replyHeaders: ReplyHeaders | undefined
  readonly faults: ReadonlyMap<string, FaultWriter>
  /** The action of the operation's reply (its description's `outputAction`). */
  readonly outputAction: string
  /** The action of each declared fault, likewise. */
  readonly faultActions: ReadonlyMap<string, string>
  /** For an operation invoked by GET, its input's fields by query parameter name; undefined otherwise. */
  readonly queryFields: ReadonlyMap<string, Field> | undefined
  readonly timeout: number
  /** When its reply is an MTOM package, and from what size a binary value goes as a part. */
  readonly mtom: MtomRule
  readonly hooks: HookLists
  readonly handler: (input: unknown, call: unknown) => unknown
  /** What the operation's documents state of it (service/description.ts). */
  readonly description: OperationDescription
  /** Elements (`{namespace}localName`) whose content a fault must not repeat. */
  readonly redact: ReadonlySet<string>
}

export interface Service {
  readonly name: string
  readonly namespace: string
  readonly path: string
  readonly operations: readonly Operation[]
  /**
   * By the Body's first child: its namespace, then its local name. Two maps,
   * not one keyed by `{namespace}localName`: no key is built for each request.
   */
  readonly byElement: ReadonlyMap<string, ReadonlyMap<string, Operation>>
  /**
   * By action URI: of the operations that share one, the one without a Body element if any (it takes an empty Body),
   * else the first.
   */
  readonly byAction: ReadonlyMap<string, Operation>
  /** Operations that share their input element, by action, under the one `byElement` holds (docs/protocol.md). */
  readonly sharing: ReadonlyMap<Operation, ReadonlyMap<string, Operation>>
  readonly strictAction: boolean
  /** Its MTOM rule (an operation has its own, over it): a fault before dispatch follows it. */
  readonly mtom: MtomRule
  /** Header blocks the service understands: the option, the scopes', and every operation's header schemas. */
  readonly understood: ReadonlySet<string>
  /** The hooks of the stage before dispatch, which belong to the scope, not to an operation. */
  readonly onEnvelope: HookLists['onEnvelope']
  readonly onFault: HookLists['onFault']
  /** The protocols its declaration turns on, in the order of the registration's modules. */
  readonly protocols: readonly Protocol[]
  /** Their steps, stage by stage. */
  readonly stages: ProtocolStages
  /** What its documents state of it (service/description.ts): the WSDL and the service page read only this. */
  readonly description: ServiceDescription
}

function objectShape (schema: unknown, where: string, namespace: string, shapes: NamedShapes): ObjectShape {
  const shape = shapeOf(schema, where, namespace, shapes)
  if (shape.kind !== 'object' || shape.nullable) fail(where, 'must be an object schema (type "object", not nullable)')
  return shape
}

/**
 * The writer of a top-level element and its validator. For a result to validate (`checked`) whose schema the writer
 * enforces (codec/enforced.ts), the writer validates the values it does not write itself (`validates`): Ajv is left
 * out for the others (docs/services.md "Writing").
 */
function writer (
  ajv: Ajv, schema: JsonSchema, name: string, tns: string, where: string, shapes: NamedShapes, checked = false
): { write: (value: unknown) => string, validate: ValidateFunction, validates: boolean, element: ElementDescription } {
  const xml = xmlOf(schema, where)
  const namespace = xml.namespace ?? tns
  const shape = objectShape(schema, where, namespace, shapes)
  const validate = compile(ajv, schema, where)
  const element = { name: xml.name ?? name, namespace, shape, schema }
  const prefixes = prefixesFor(shape, namespace, schema, where)
  const validates = checked && codecEnforces(schema)
  const write = validates
    ? compileOutput(shape, element.name, namespace, prefixes, usesXsi(shape), (value) => checkResult(validate, value))
    : compileElement(shape, element.name, namespace, prefixes, usesXsi(shape))
  return { write, validate, validates, element }
}

function milliseconds (value: unknown, fallback: number, name: string, what: string): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new SOAP_ERR_SERVICE_INVALID(name, `${what} must be a non-negative integer of milliseconds`)
  }
  return value
}

/** What a service takes from the plugin's options. */
export interface ServiceOptions {
  readonly understoodHeaders: ReadonlySet<string>
  readonly redact: ReadonlySet<string>
  /** The protocol modules its declaration may turn on, each by its key. */
  readonly protocols: readonly ProtocolModule[]
  /** Wraps each operation's handler once, when given (the plugin's telemetry: docs/observability.md). */
  readonly instrument?: (handler: Operation['handler']) => Operation['handler']
}

function compileOperation (
  ajv: Ajv, declaration: ServiceDeclaration, name: string, scope: SoapScope, serviceTimeout: number,
  validateOutputs: boolean, redact: ReadonlySet<string>, shapes: NamedShapes, serviceMtom: MtomRule
): Operation {
  const service = declaration.name
  const tns = declaration.namespace
  const raw: unknown = declaration.operations[name]
  const where = `${service}.${name}`
  if (!isNCName(name)) throw new SOAP_ERR_SERVICE_INVALID(service, `operation name "${name}" is not an XML NCName`)
  if (!isObject(raw)) throw new SOAP_ERR_SERVICE_INVALID(service, `operation ${name} must be an object`)
  const unknown = OPERATION_KEYS.unknownIn(raw)
  if (unknown !== undefined) {
    throw new SOAP_ERR_SERVICE_INVALID(
      service,
      `operation ${name}: unknown key "${unknown}" (one of ${OPERATION_KEYS.list})`
    )
  }
  const op = raw as unknown as OperationDeclaration
  if (typeof op.handler !== 'function') throw new SOAP_ERR_SERVICE_HANDLER(service, name)
  if (op.hooks !== undefined) {
    if (!isObject(op.hooks)) throw new SOAP_ERR_HOOK_INVALID(`${where}: "hooks" must be an object`)
    for (const key of Object.keys(op.hooks)) {
      if (key === 'onEnvelope' || key === 'onFault' || !(HOOK_NAMES as readonly string[]).includes(key)) {
        throw new SOAP_ERR_HOOK_INVALID(
          `${where}: "${key}" is not an operation hook: use onOperation, preValidation, preHandler or onResult ` +
          '(onEnvelope and onFault belong to the scope)'
        )
      }
    }
  }
  if (op.action !== undefined && (typeof op.action !== 'string' || op.action === '' || !isXmlText(op.action))) {
    throw new SOAP_ERR_SERVICE_INVALID(
      service,
      `operation ${name}: "action" must be a non-empty string of characters XML can carry`
    )
  }
  const action = op.action ?? defaultAction(tns, name)

  let input: ObjectShape | undefined
  let validateInput: ValidateFunction | undefined
  let namespace = tns
  let localName: string | undefined
  if (op.input !== undefined) {
    const xml = xmlOf(op.input, `${where}.input`)
    namespace = xml.namespace ?? tns
    localName = xml.name ?? name
    input = objectShape(op.input, `${where}.input`, namespace, shapes)
    validateInput = compile(ajv, op.input, `${where}.input`)
  }
  const hooks = hookLists(scope, op.hooks, where)
  // A preValidation hook may change the input: Ajv then validates what it left.
  const validRead = input !== undefined && hooks.preValidation === null && codecEnforces(op.input)
    ? presenceCheck(input)
    : undefined

  let writeOutput: Operation['writeOutput']
  let validateOutput: ValidateFunction | undefined
  let output: ElementDescription | undefined
  if (op.output !== undefined) {
    const out = writer(ajv, op.output, `${name}Response`, tns, `${where}.output`, shapes, validateOutputs)
    writeOutput = out.write
    output = out.element
    if (validateOutputs && !out.validates) validateOutput = out.validate
  }

  let headers: ObjectShape | undefined
  let validateHeaders: ValidateFunction | undefined
  if (op.headers !== undefined) {
    headers = objectShape(op.headers, `${where}.headers`, tns, shapes)
    if (headers.attributes.length !== 0) {
      fail(`${where}.headers`, 'header blocks are elements: no property may be an attribute')
    }
    validateHeaders = compile(ajv, op.headers, `${where}.headers`)
  }

  const replyHeaders = op.outputHeaders === undefined
    ? undefined
    : compileReplyHeaders(
      ajv,
      op.outputHeaders,
      objectShape(op.outputHeaders, `${where}.outputHeaders`, tns, shapes),
      validateOutputs,
      `${where}.outputHeaders`
    )

  const faults = new Map<string, FaultWriter>()
  const faultElements = new Map<string, ElementDescription>()
  if (op.faults !== undefined) {
    if (!isObject(op.faults)) {
      throw new SOAP_ERR_SERVICE_INVALID(service, `operation ${name}: "faults" must map fault names to schemas`)
    }
    for (const fault of Object.keys(op.faults)) {
      if (!isNCName(fault)) {
        throw new SOAP_ERR_SERVICE_INVALID(service, `operation ${name}: fault name "${fault}" is not an XML NCName`)
      }
      const { write, validate, element } = writer(ajv, op.faults[fault], fault, tns, `${where}.faults.${fault}`, shapes)
      faults.set(fault, { write, validate })
      faultElements.set(fault, element)
    }
  }

  const actionOf = (value: unknown, what: string, fallback: string): string => {
    if (value === undefined) return fallback
    if (typeof value !== 'string' || value === '' || !isXmlText(value)) {
      throw new SOAP_ERR_SERVICE_INVALID(
        service,
        `operation ${name}: ${what} must be a non-empty string of characters XML can carry`
      )
    }
    return value
  }
  const outputAction = actionOf(op.outputAction, '"outputAction"', `${action}Response`)
  const faultActions = new Map<string, string>()
  if (op.faultActions !== undefined && !isObject(op.faultActions)) {
    throw new SOAP_ERR_SERVICE_INVALID(service, `operation ${name}: "faultActions" must map fault names to actions`)
  }
  for (const fault of Object.keys(op.faultActions ?? {})) {
    if (!faults.has(fault)) {
      throw new SOAP_ERR_SERVICE_INVALID(
        service,
        `operation ${name}: "faultActions" names ${fault}, which is not one of its faults`
      )
    }
  }
  for (const fault of faults.keys()) {
    const given = op.faultActions?.[fault]
    faultActions.set(fault, actionOf(given, `the action of fault ${fault}`, `${action}/Fault/${fault}`))
  }

  if (op.get !== undefined && typeof op.get !== 'boolean') {
    throw new SOAP_ERR_SERVICE_INVALID(service, `operation ${name}: "get" must be a boolean`)
  }

  const oneWay = writeOutput === undefined && replyHeaders === undefined
  const element = localName === undefined ? undefined : qnameKey(namespace, localName)
  return {
    info: Object.freeze({ name, service, action, element, oneWay }),
    namespace,
    localName,
    input,
    validateInput,
    validRead,
    headers,
    validateHeaders,
    writeOutput,
    validateOutput,
    replyHeaders,
    faults,
    outputAction,
    faultActions,
    queryFields: op.get === true ? queryFieldsOf(input, where) : undefined,
    timeout: milliseconds(op.timeout, serviceTimeout, service, `operation ${name}: "timeout"`),
    mtom: mtomRule(service, `operation ${name}: `, op.mtom, op.mtomThreshold, serviceMtom),
    hooks,
    handler: op.handler as Operation['handler'],
    description: {
      name,
      action,
      outputAction,
      faultActions,
      input: input === undefined
        ? undefined
        : { name: localName as string, namespace, shape: input, schema: op.input as JsonSchema },
      output,
      headers: headers === undefined ? undefined : { shape: headers, schema: op.headers as JsonSchema },
      outputHeaders: replyHeaders === undefined
        ? undefined
        : { shape: replyHeaders.shape, schema: replyHeaders.schema },
      faults: faultElements,
      oneWay,
      get: op.get === true
    },
    redact
  }
}

/**
 * An operation invoked by GET takes its input from the query string: flat,
 * scalar values only, each parameter named as its element or attribute.
 */
function queryFieldsOf (input: ObjectShape | undefined, where: string): ReadonlyMap<string, Field> {
  const fields = new Map<string, Field>()
  for (const field of input?.elements ?? []) {
    if (field.shape.kind !== 'scalar' || field.wrapped || (field.array && field.list)) {
      fail(
        `${where}.input/properties/${field.property}`,
        'an operation invoked by GET takes scalar (or repeated scalar) values only'
      )
    }
    fields.set(field.name, field)
  }
  for (const field of input?.attributes ?? []) if (!fields.has(field.name)) fields.set(field.name, field)
  return fields
}

export function compileService (
  ajv: Ajv, declaration: ServiceDeclaration, scope: SoapScope, options: ServiceOptions
): Service {
  // The endpoint has checked that the declaration is an object with a path (lib/plugin/endpoint.ts).
  const name = typeof declaration.name === 'string' && isNCName(declaration.name) ? declaration.name : undefined
  if (name === undefined) throw new SOAP_ERR_SERVICE_INVALID(String(declaration.name), '"name" must be an XML NCName')
  const keys = new KnownKeys([...Object.keys(SERVICE_KEYS), ...options.protocols.map((module) => module.key)])
  const unknown = keys.unknownIn(declaration)
  if (unknown !== undefined) throw new SOAP_ERR_SERVICE_INVALID(name, `unknown key "${unknown}" (one of ${keys.list})`)
  if (typeof declaration.namespace !== 'string' || declaration.namespace === '' || !isXmlText(declaration.namespace)) {
    throw new SOAP_ERR_SERVICE_INVALID(name, '"namespace" must be a non-empty URI')
  }
  if (!isObject(declaration.operations) || Object.keys(declaration.operations).length === 0) {
    throw new SOAP_ERR_SERVICE_INVALID(name, '"operations" must name at least one operation')
  }
  for (const flag of ['strictAction', 'validateOutput'] as const) {
    if (declaration[flag] !== undefined && typeof declaration[flag] !== 'boolean') {
      throw new SOAP_ERR_SERVICE_INVALID(name, `"${flag}" must be a boolean`)
    }
  }
  if (declaration.faultStatus !== undefined && declaration.faultStatus !== 'spec' && declaration.faultStatus !== 500) {
    throw new SOAP_ERR_SERVICE_INVALID(name, '"faultStatus" must be \'spec\' or 500')
  }
  const own = declaration.understoodHeaders ?? []
  if (!Array.isArray(own) || !own.every((q) => isQNameKey(q))) {
    throw new SOAP_ERR_SERVICE_INVALID(name, '"understoodHeaders" must be an array of "{namespace}localName" strings')
  }
  const timeout = milliseconds(declaration.timeout, 0, name, '"timeout"')
  const mtom = mtomRule(name, '', declaration.mtom, declaration.mtomThreshold, DEFAULT_MTOM)

  const operations: Operation[] = []
  // The operations' schemas that share a $defs object share the shapes of its named schemas.
  const shapes: NamedShapes = new WeakMap()
  const byElement = new Map<string, Map<string, Operation>>()
  const byAction = new Map<string, Operation>()
  const sharing = new Map<Operation, Map<string, Operation>>()
  const target = { name, operations: Object.keys(declaration.operations) }
  const protocols: Protocol[] = []
  for (const module of options.protocols) {
    const protocol = module.compile((declaration as unknown as Record<string, unknown>)[module.key], target)
    if (protocol !== undefined) protocols.push(protocol)
  }
  const understood = new Set([
    ...options.understoodHeaders,
    ...own,
    ...understoodIn(scope),
    ...protocols.flatMap((p) => p.understood)
  ])
  for (const operationName of Object.keys(declaration.operations)) {
    const validateOutput = declaration.validateOutput !== false
    let op = compileOperation(
      ajv, declaration, operationName, scope, timeout, validateOutput, options.redact, shapes, mtom
    )
    if (options.instrument !== undefined) op = { ...op, handler: options.instrument(op.handler) }
    if (op.localName !== undefined) {
      let inNamespace = byElement.get(op.namespace)
      if (inNamespace === undefined) byElement.set(op.namespace, inNamespace = new Map())
      const first = inNamespace.get(op.localName)
      if (first === undefined) {
        inNamespace.set(op.localName, op)
      } else {
        // Operations may share an input element when their actions tell them apart (R2710: the signature).
        let group = sharing.get(first)
        if (group === undefined) sharing.set(first, group = new Map([[first.info.action, first]]))
        const same = group.get(op.info.action)
        if (same !== undefined) {
          const what = `the input element ${op.info.element as string} and the action ${op.info.action}`
          throw new SOAP_ERR_SERVICE_DUPLICATE(name, `${same.info.name} and ${operationName}`, what)
        }
        group.set(op.info.action, op)
      }
    }
    // Operations may share an action when their Body elements tell them apart; the action routes an empty Body (R2710).
    const other = byAction.get(op.info.action)
    if (other !== undefined && other.info.element === undefined && op.info.element === undefined) {
      throw new SOAP_ERR_SERVICE_DUPLICATE(
        name,
        `${other.info.name} and ${operationName}`,
        `the action ${op.info.action}, and neither takes a Body element`
      )
    }
    if (other === undefined || op.info.element === undefined) byAction.set(op.info.action, op)
    for (const field of op.headers?.elements ?? []) understood.add(qnameKey(field.namespace, field.name))
    operations.push(op)
  }
  const scopeHooks = hookLists(scope, undefined, name)
  const wsdl = wsdlOptions(name, declaration.wsdl)
  const modes = new Set([mtom.mode, ...operations.map((op) => op.mtom.mode)])
  const described = { name, namespace: declaration.namespace, path: declaration.path, wsdl, mtom: mtomPolicy(modes) }
  return {
    name,
    namespace: declaration.namespace,
    path: declaration.path,
    operations,
    byElement,
    byAction,
    sharing,
    strictAction: declaration.strictAction === true,
    mtom,
    understood,
    onEnvelope: scopeHooks.onEnvelope,
    onFault: scopeHooks.onFault,
    protocols,
    stages: stagesOf(protocols),
    description: serviceDescription(described, operations.map((op) => op.description), protocols)
  }
}
