/**
 * A service declaration as the runtime reads it, before it is checked and
 * compiled (service/compile.ts): code-first services and contracts both end
 * up as one. The public, typed form is in types.ts.
 */
import { SOAP_ERR_SERVICE_INVALID } from '../errors'
import type { SoapOperation, SoapOperationHooks, SoapServiceDefinition, SoapWsdlOptions } from '../types'
import { KnownKeys, type KeyRecord } from '../codec/keys'

const XSD_NAME = /^[A-Za-z0-9._-]{1,64}$/
const WSDL_KEYS = new KnownKeys({
  address: true, splitSchemas: true, document: true, schemas: true
} as const satisfies KeyRecord<SoapWsdlOptions>)

/**
 * The keys of a service declaration (SoapServiceDefinition) the service
 * checks itself. Its other keys are protocol modules': each is known where
 * its module is registered, and ws/protocols.ts, which lists the modules by
 * their keys, checks that with these they are every key of the type.
 */
export const SERVICE_KEYS = {
  path: true,
  namespace: true,
  name: true,
  operations: true,
  understoodHeaders: true,
  strictAction: true,
  validateOutput: true,
  timeout: true,
  wsdl: true,
  faultStatus: true,
  mtom: true,
  mtomThreshold: true
} as const satisfies Partial<KeyRecord<SoapServiceDefinition>>

/** The keys of an operation's declaration: SoapOperation's, which the runtime reads as an OperationDeclaration. */
export const OPERATION_KEYS = new KnownKeys({
  input: true,
  output: true,
  headers: true,
  outputHeaders: true,
  faults: true,
  action: true,
  get: true,
  timeout: true,
  hooks: true,
  handler: true,
  outputAction: true,
  faultActions: true,
  mtom: true,
  mtomThreshold: true
} as const satisfies KeyRecord<SoapOperation | OperationDeclaration>)

/** A JSON Schema, as the codec reads it (docs/services.md). */
export type JsonSchema = Readonly<Record<string, unknown>>

/** The parts of a declaration the runtime needs; the public, typed form is in lib/types.ts. */
export interface OperationDeclaration {
  readonly input?: JsonSchema
  readonly output?: JsonSchema
  readonly headers?: JsonSchema
  readonly outputHeaders?: JsonSchema
  readonly faults?: Readonly<Record<string, JsonSchema>>
  readonly action?: string
  readonly get?: boolean
  readonly timeout?: number
  readonly hooks?: SoapOperationHooks
  readonly outputAction?: string
  readonly faultActions?: Readonly<Record<string, string>>
  readonly mtom?: unknown
  readonly mtomThreshold?: unknown
  readonly handler: (input: never, call: never) => unknown
}

export interface ServiceDeclaration {
  readonly path: string
  readonly namespace: string
  readonly name: string
  readonly operations: Readonly<Record<string, OperationDeclaration>>
  readonly understoodHeaders?: readonly string[]
  readonly strictAction?: boolean
  readonly validateOutput?: boolean
  readonly timeout?: number
  readonly faultStatus?: unknown
  readonly mtom?: unknown
  readonly mtomThreshold?: unknown
  readonly wsdl?: unknown
  /** A protocol module's key (`addressing`, `security`), which its module checks. */
  readonly [protocol: string]: unknown
}

/** Checks the `wsdl` key of a declaration, at `ready()`. */
export function wsdlOptions (service: string, value: unknown): SoapWsdlOptions | false {
  if (value === undefined || value === true) return {}
  if (value === false) return false
  const bad = (problem: string): never => { throw new SOAP_ERR_SERVICE_INVALID(service, `"wsdl" ${problem}`) }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) bad('must be false, true or an object')
  const options = value as Record<string, unknown>
  const unknown = WSDL_KEYS.unknownIn(options)
  if (unknown !== undefined) bad(`has an unknown key "${unknown}" (one of ${WSDL_KEYS.list})`)
  let address: string | undefined
  if (options.address !== undefined) {
    let url: URL | undefined
    try { url = new URL(String(options.address)) } catch {}
    if (typeof options.address !== 'string' || url === undefined || !['http:', 'https:'].includes(url.protocol)) {
      bad('.address must be an absolute http or https URL')
    }
    // Written as the URL parser serialises it: no white space or control character survives.
    address = (url as URL).href
  }
  if (options.splitSchemas !== undefined && typeof options.splitSchemas !== 'boolean') {
    bad('.splitSchemas must be a boolean')
  }
  if (options.document !== undefined && (typeof options.document !== 'string' || options.document === '')) {
    bad('.document must be a non-empty string')
  }
  if (options.schemas !== undefined) {
    if (options.document === undefined) bad('.schemas goes with .document (a generated WSDL has its own)')
    if (typeof options.schemas !== 'object' || options.schemas === null) {
      bad('.schemas must map names to XML Schema documents')
    }
    for (const [name, text] of Object.entries(options.schemas as object)) {
      if (!XSD_NAME.test(name) || typeof text !== 'string') {
        bad(`.schemas: "${name}" must be a name of letters, digits, ".", "_" or "-" mapped to a string`)
      }
    }
  }
  return (address === undefined ? options : { ...options, address }) as SoapWsdlOptions
}

/**
 * An operation's action when its declaration names none: the target
 * namespace, a '/' unless the namespace ends in '/', ':' or '#', and the
 * operation's name (the default the generated WSDL writes, and WS-Addressing's
 * default action pattern follows).
 */
export function defaultAction (namespace: string, operation: string): string {
  return /[/:#]$/.test(namespace) ? namespace + operation : `${namespace}/${operation}`
}
