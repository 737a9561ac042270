/**
 * The last stage: one log line for each request a SOAP endpoint answered
 * (docs/security.md "Logging"), through `request.log`: the SOAP version, the
 * service and operation, the action, the fault code (or, for an undecodable
 * request, the error code), the status and the time taken. The message itself
 * is added only with `logBody`, rewritten from the decoded tree with the
 * content of the `redact` elements hidden; the raw bytes are never logged.
 */
import type { FastifyBaseLogger, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import { createRequire } from 'node:module'
import type { SoapVersion } from '../namespaces'
import type { ResolvedOptions } from '../options'
import { escapeAttribute, escapeXml } from '../xml/escape'
import type { XmlElement } from '../xml/element'
import { qnameKey } from '../namespaces'

/** How a request was answered, when not by a result: noted by the error handler. */
export interface AnswerNote {
  /** The fault code sent: Sender, Receiver, MustUnderstand, VersionMismatch, DataEncodingUnknown. */
  readonly fault?: string
  /** Its first subcode, `{namespace}localName` (SOAP 1.2; SOAP 1.1 sends it as the faultcode). */
  readonly subcode?: string
  readonly reason?: string
  /** The code of the error that made the request undecodable (answered with no body). */
  readonly error?: string
  /** The version a fault was sent in: the media type's when the envelope was not decoded. */
  readonly version?: SoapVersion
}

/** The request's answer note: a request decorator (null until noted), declared by the plugin. */
export const kAnswer: unique symbol = Symbol('fastify-soap.answer')

declare module 'fastify' {
  interface FastifyRequest {
    [kAnswer]: AnswerNote | null
  }
}

export function noteAnswer (request: FastifyRequest, note: AnswerNote): void {
  request[kAnswer] = note
}

/** What a logged message holds at most, in characters; more is cut with an ellipsis. */
export const MAX_LOGGED = 8192
/** Stands for a redacted element's content. */
export const REDACTION = '[redacted]'

/**
 * Writes decoded elements back as XML for a log, each redacted element's content and attribute values
 * replaced by REDACTION.
 */
export function redactedXml (elements: readonly XmlElement[], redact: ReadonlySet<string>): string {
  let out = ''
  const write = (element: XmlElement): boolean => {
    const redacted = redact.has(qnameKey(element.namespace, element.localName))
    out += `<${element.name}`
    for (const a of element.attributes) out += ` ${a.name}="${redacted ? REDACTION : escapeAttribute(a.value)}"`
    out += '>'
    if (redacted) {
      out += REDACTION
    } else {
      for (const child of element.children) {
        if (out.length > MAX_LOGGED) return false
        if (typeof child === 'string') out += escapeXml(child)
        else if (!write(child)) return false
      }
    }
    out += `</${element.name}>`
    return true
  }
  for (const element of elements) {
    if (!write(element) || out.length > MAX_LOGGED) return out.slice(0, MAX_LOGGED) + '…'
  }
  return out
}

interface LoggedAnswer {
  status: number
  version?: SoapVersion
  service?: string
  operation?: string
  action?: string
  username?: string
  principal?: { subject: string, fingerprint256: string, from: string }
  fault?: string
  reason?: string
  error?: string
  header?: string
  body?: string
}

/**
 * The prototype of the logger Fastify makes when it is given none (`logger` unset or false): its package
 * abstract-logging's, whose every level does nothing. Undefined if it cannot be found from Fastify's place.
 */
function nullLogger (): object | undefined {
  try {
    return Object.getPrototypeOf(createRequire(require.resolve('fastify'))('abstract-logging')) as object
  /* c8 ignore next 3 -- Fastify depends on abstract-logging: this is for a Fastify that some day does not */
  } catch {
    return undefined
  }
}

/**
 * The endpoint's onResponse hook that logs each SOAP answer through `log`'s requests' loggers; undefined
 * when `logLevel` is `'silent'` or `log` is Fastify's logger that logs nothing (`nullLogger`): an
 * onResponse hook costs each request Fastify's listeners on the response, which it otherwise leaves out.
 */
export function buildAnswerLog (
  options: ResolvedOptions, log: FastifyBaseLogger
): ((request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void) | undefined {
  const level = options.logLevel
  if (level === 'silent' || Object.getPrototypeOf(log) === nullLogger()) return undefined
  const { logBody, redact } = options
  return function logSoapAnswer (request, reply, done) {
    const log = request.log as FastifyRequest['log'] & { isLevelEnabled?: (level: string) => boolean }
    const soap = request.soap
    const note = request[kAnswer]
    // A GET of the WSDL, a 405: not a SOAP exchange. Nor is anything at a level that is off.
    if ((soap === null && note === null) || log.isLevelEnabled?.(level) === false) {
      done()
      return
    }
    const entry: LoggedAnswer = { status: reply.statusCode }
    if (soap !== null) {
      entry.version = soap.version
      entry.service = soap.operation?.service
      entry.operation = soap.operation?.name
      entry.action = soap.action
      if (soap.username !== undefined) entry.username = soap.username
      const principal = soap.principal
      if (principal !== undefined) {
        entry.principal = { subject: principal.subject, fingerprint256: principal.fingerprint256, from: principal.from }
      }
      if (logBody) {
        if (soap.headers.length > 0) entry.header = redactedXml(soap.headers.map((block) => block.element), redact)
        entry.body = redactedXml(soap.body, redact)
      }
    }
    if (note !== null) {
      entry.fault = note.fault
      entry.reason = note.reason
      entry.error = note.error
      entry.version ??= note.version
    }
    log[level]({ soap: entry, responseTime: reply.elapsedTime }, 'fastify-soap: answered')
    done()
  }
}
