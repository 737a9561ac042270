/**
 * Stage 7b: faults. The `SoapFault` class, its rendering as a SOAP 1.1 or 1.2
 * fault, and the HTTP status of each code (docs/protocol.md "Faults"; SOAP 1.2
 * Part 1 §5.4, Part 2 Table 20; SOAP 1.1 §4.4, §6.2; BP R1126).
 */
import type { FastifyBaseLogger } from 'fastify'
import { SOAP_ERR_FAULT_INVALID } from '../errors'
import type { SoapVersion } from '../namespaces'
import { SOAP11, SOAP12, versionInfo } from '../namespaces'
import { ENVELOPE_PREFIX as P, writeEnvelope } from './writer'
import { escapeAttribute, escapeXml } from '../xml/escape'
import { replaceInvalidXmlChars } from '../xml/chars'
import { isNCName } from '../xml/chars'

export type FaultCode = 'Sender' | 'Receiver' | 'MustUnderstand' | 'VersionMismatch' | 'DataEncodingUnknown'

/** A subcode QName (SOAP 1.2 `env:Subcode`), as `{ namespace, localName }` or `'{namespace}localName'`. */
export type FaultSubcode = { readonly namespace: string, readonly localName: string } | string

export interface FaultText {
  readonly text: string
  /** An `xml:lang` value; `en` when absent. */
  readonly lang?: string
}

export interface SoapFaultOptions {
  /** The fault class; `Client` and `Server` are read as their SOAP 1.2 names. Default `Receiver`. */
  readonly code?: FaultCode | 'Client' | 'Server'
  /** Nested SOAP 1.2 subcodes, outermost first. SOAP 1.1 has no subcodes and does not send them. */
  readonly subcodes?: readonly FaultSubcode[]
  /**
   * A namespace-qualified SOAP 1.1 `faultcode` sent instead of `Client` or
   * `Server` (SOAP 1.1 §4.4.1 lets a faultcode be any QName; WS-Security's
   * faults are `wsse:FailedAuthentication` and the like). SOAP 1.2 does not
   * send it: give the same QName as a subcode.
   */
  readonly code11?: FaultSubcode
  /** The reason: one text in English, or texts in several languages (the first is the 1.1 `faultstring`). */
  readonly reason: string | readonly FaultText[]
  /** The URI of the node that faulted (1.2 `Node`; 1.1 `faultactor`). */
  readonly node?: string
  /** The role the node was playing (1.2 `Role`; 1.1 `faultactor` when no node is given). */
  readonly role?: string
  /** Serialised XML for the `Detail` (1.2) or `detail` (1.1) element. */
  readonly detail?: string
  /** Serialised header blocks for the fault envelope's Header. */
  readonly headers?: string
  /** The fault message's action, written as `wsa:Action` when the request used WS-Addressing (docs/addressing.md). */
  readonly action?: string
  readonly cause?: unknown
}

const CODES: ReadonlySet<string> = new Set([
  'Sender', 'Receiver', 'MustUnderstand', 'VersionMismatch', 'DataEncodingUnknown'
])
const CODE_11: Record<FaultCode, string> = {
  Sender: 'Client',
  Receiver: 'Server',
  MustUnderstand: 'MustUnderstand',
  VersionMismatch: 'VersionMismatch',
  DataEncodingUnknown: 'Client'
}

function normalizeCode (code: SoapFaultOptions['code']): FaultCode {
  if (code === undefined || code === 'Server') return 'Receiver'
  if (code === 'Client') return 'Sender'
  if (!CODES.has(code)) throw new SOAP_ERR_FAULT_INVALID(`code "${String(code)}"`)
  return code
}

const LANG = /^([A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*)?$/

function subcodeParts (subcode: FaultSubcode): { namespace: string, localName: string } {
  let parts: { namespace: string, localName: string }
  if (typeof subcode !== 'string') {
    parts = subcode
  } else {
    const close = subcode.startsWith('{') ? subcode.indexOf('}') : -1
    parts = close === -1
      ? { namespace: '', localName: subcode }
      : { namespace: subcode.slice(1, close), localName: subcode.slice(close + 1) }
  }
  if (!isNCName(parts.localName)) throw new SOAP_ERR_FAULT_INVALID(`subcode ${String(parts.localName)} (not an NCName)`)
  return parts
}

/** A SOAP 1.1 faultcode QName: it needs a namespace, and one other than the envelope's (whose codes are fixed). */
function qualifiedCode (code: FaultSubcode): { namespace: string, localName: string } {
  const parts = subcodeParts(code)
  if (parts.namespace === '' || parts.namespace === SOAP11.envelope) {
    throw new SOAP_ERR_FAULT_INVALID(
      `code11 ${String(parts.localName)} ` +
      '(a SOAP 1.1 faultcode of its own needs a namespace other than the envelope\'s)'
    )
  }
  return parts
}

/** A deliberate SOAP fault: throw it from a handler or a hook. */
export class SoapFault extends Error {
  readonly faultCode: FaultCode
  readonly subcodes: ReadonlyArray<{ readonly namespace: string, readonly localName: string }>
  /** The qualified SOAP 1.1 faultcode, when one was given. */
  readonly code11: { readonly namespace: string, readonly localName: string } | undefined
  readonly reasons: readonly FaultText[]
  readonly node: string | undefined
  readonly role: string | undefined
  readonly detail: string | undefined
  readonly headers: string | undefined
  readonly action: string | undefined
  /** The SOAP 1.2 status; `statusFor('1.1')` gives the SOAP 1.1 one. */
  readonly statusCode: number

  constructor (options: SoapFaultOptions) {
    const reasons: FaultText[] = typeof options.reason === 'string' ? [{ text: options.reason }] : [...options.reason]
    for (const reason of reasons) {
      if (reason.lang !== undefined && !LANG.test(reason.lang)) {
        throw new SOAP_ERR_FAULT_INVALID(`xml:lang "${reason.lang}"`)
      }
    }
    super(reasons[0]?.text ?? '', options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'SoapFault'
    this.faultCode = normalizeCode(options.code)
    this.subcodes = (options.subcodes ?? []).map(subcodeParts)
    this.code11 = options.code11 === undefined ? undefined : qualifiedCode(options.code11)
    this.reasons = reasons
    this.node = options.node
    this.role = options.role
    this.detail = options.detail
    this.headers = options.headers
    this.action = options.action
    this.statusCode = this.statusFor('1.2')
  }

  /** The HTTP status of this fault in a SOAP version. */
  statusFor (version: SoapVersion): number {
    return version === '1.2' && this.faultCode === 'Sender' ? 400 : 500
  }
}

function text (value: string): string {
  return escapeXml(replaceInvalidXmlChars(value))
}

function attribute (value: string): string {
  return escapeAttribute(replaceInvalidXmlChars(value))
}

function render12 (fault: SoapFault, headers: string | undefined): string {
  let code = `<${P}:Code><${P}:Value>${P}:${fault.faultCode}</${P}:Value>`
  let close = `</${P}:Code>`
  fault.subcodes.forEach((subcode, i) => {
    const value = subcode.namespace === ''
      ? `<${P}:Value>${text(subcode.localName)}</${P}:Value>`
      : `<${P}:Value xmlns:sc${i}="${attribute(subcode.namespace)}">sc${i}:${text(subcode.localName)}</${P}:Value>`
    code += `<${P}:Subcode>${value}`
    close = `</${P}:Subcode>` + close
  })
  let out = `<${P}:Fault>${code}${close}<${P}:Reason>`
  const reasons = fault.reasons.length === 0 ? [{ text: '' }] : fault.reasons
  for (const reason of reasons) {
    out += `<${P}:Text xml:lang="${attribute(reason.lang ?? 'en')}">${text(reason.text)}</${P}:Text>`
  }
  out += `</${P}:Reason>`
  if (fault.node !== undefined) out += `<${P}:Node>${text(fault.node)}</${P}:Node>`
  if (fault.role !== undefined) out += `<${P}:Role>${text(fault.role)}</${P}:Role>`
  if (fault.detail !== undefined) out += `<${P}:Detail>${fault.detail}</${P}:Detail>`
  return writeEnvelope(SOAP12, out + `</${P}:Fault>`, headers)
}

function render11 (fault: SoapFault, headers: string | undefined): string {
  const reason = fault.reasons[0]
  const own = fault.code11
  const code = own === undefined
    ? `<faultcode>${P}:${CODE_11[fault.faultCode]}</faultcode>`
    : `<faultcode xmlns:fc="${attribute(own.namespace)}">fc:${text(own.localName)}</faultcode>`
  let out = `<${P}:Fault>${code}`
  out += `<faultstring>${text(reason?.text ?? '')}</faultstring>`
  const actor = fault.node ?? fault.role
  if (actor !== undefined) out += `<faultactor>${text(actor)}</faultactor>`
  if (fault.detail !== undefined) out += `<detail>${fault.detail}</detail>`
  return writeEnvelope(SOAP11, out + `</${P}:Fault>`, headers)
}

/** The fault envelope for a version, with its Content-Type and status; `headers` go before the fault's own. */
export function renderFault (
  fault: SoapFault, version: SoapVersion, headers?: string
): { status: number, contentType: string, body: string } {
  const all = headers === undefined ? fault.headers : headers + (fault.headers ?? '')
  return {
    status: fault.statusFor(version),
    contentType: versionInfo(version).contentType,
    body: version === '1.2' ? render12(fault, all) : render11(fault, all)
  }
}

/** The namespace of the plugin's own detail entries. */
export const FAULT_NS = 'urn:fastify-soap:fault'

export const GENERIC_RECEIVER = 'The server could not process the request'
export const GENERIC_SENDER = 'The request is not valid'
export const GENERIC_TIMEOUT = 'The operation did not finish in time'

export interface Problem {
  /** A JSON Pointer to the value, from the operation element (or the Header). */
  readonly path: string
  readonly message: string
}

/**
 * A Sender fault for input that does not match the operation's schema: the
 * reason names the first problem, the Detail lists each one with its path.
 */
export function invalidInputFault (problems: readonly Problem[], where: string): SoapFault {
  let detail = `<fs:InvalidInput xmlns:fs="${FAULT_NS}">`
  for (const problem of problems) {
    detail += `<fs:Problem path="${attribute(problem.path)}">${text(problem.message)}</fs:Problem>`
  }
  detail += '</fs:InvalidInput>'
  const first = problems[0]
  const reason = `Invalid ${where}: ${first.path === '' ? '' : first.path + ' '}${first.message}`
  return new SoapFault({ code: 'Sender', reason, detail })
}

/**
 * Any thrown value as the fault to send: a SoapFault as it is; an error that
 * is not a deliberate fault as a generic one (no message or stack on the
 * wire), logged, with the error kept as its `cause` for `faultFormatter`.
 */
export function toSoapFault (thrown: unknown, log: FastifyBaseLogger): SoapFault {
  if (thrown instanceof SoapFault) return thrown
  const error = (typeof thrown === 'object' && thrown !== null ? thrown : { message: String(thrown) }) as
    { code?: unknown, statusCode?: unknown }
  if (error.code === 'SOAP_ERR_OPERATION_TIMEOUT') {
    log.warn({ err: thrown }, 'fastify-soap: operation timed out')
    return new SoapFault({ code: 'Receiver', reason: GENERIC_TIMEOUT, cause: thrown })
  }
  const status = typeof error.statusCode === 'number' ? error.statusCode : 500
  if (status >= 400 && status < 500) {
    log.info({ err: thrown }, 'fastify-soap: client error answered as a Sender fault')
    return new SoapFault({ code: 'Sender', reason: GENERIC_SENDER, cause: thrown })
  }
  log.error({ err: thrown }, 'fastify-soap: error answered as a Receiver fault')
  return new SoapFault({ code: 'Receiver', reason: GENERIC_RECEIVER, cause: thrown })
}
