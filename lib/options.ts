/** The plugin's options: defaults (docs/protocol.md "Limits") and the one normalising pass. */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import type { SoapFault } from './soap/fault'
import { SOAP_ERR_OPT_INVALID } from './errors'
import { KnownKeys, type KeyRecord } from './codec/keys'
import type { SoapLimits } from './soap/limits'
import type { SoapMultipartLimits } from './soap/multipart'
import type { SoapReplyQueue } from './types'
import { isQNameKey, qnameKey, WSSE_NAMESPACES } from './namespaces'

export type { SoapLimits, SoapMultipartLimits }

export interface FastifySoapOptions extends Partial<SoapLimits> {
  /**
   * Largest request body in bytes; a larger one is answered 413. Defaults to
   * Fastify's `bodyLimit` (1 MiB unless set).
   */
  bodyLimit?: number
  /** Roles (SOAP 1.2) or actors (SOAP 1.1) this node plays besides `next` and the ultimate receiver. */
  roles?: readonly string[]
  /** Header blocks this endpoint understands, as `{namespace}localName`. */
  understoodHeaders?: readonly string[]
  /** Extra prefix → namespace bindings for `request.soap.select()`. */
  namespaces?: Readonly<Record<string, string>>
  /** Largest message, in elements, on which `request.soap.select()` runs (the xpath package is quadratic). */
  maxXPathElements?: number
  /** Your SOAP routes: a Fastify plugin registered inside the SOAP scope. */
  routes?: FastifyPluginAsync
  /** Prefix for the routes of `routes`. */
  prefix?: string
  /**
   * Called with every fault before it is sent (its `cause` holds the error
   * behind a generic one); returns the fault to send.
   */
  faultFormatter?: FaultFormatter
  /** Level of the line logged for each answered request (docs/security.md "Logging"); `'silent'` for none. */
  logLevel?: SoapLogLevel
  /** Add the request's header blocks and Body to that line, as XML, with the `redact` elements' content hidden. */
  logBody?: boolean
  /**
   * More elements, as `{namespace}localName`, whose content is never logged nor echoed in a fault
   * (WS-Security's Password, Nonce and BinarySecurityToken always are, in each of its namespaces).
   */
  redact?: readonly string[]
  /** WS-Addressing replies in flight at once, all services of this registration (docs/addressing.md "Bounds"). */
  maxAsyncReplies?: number
  /** UTF-8 bytes those replies may hold at once: their envelopes (until written, their reference parameters). */
  maxAsyncReplyBytes?: number
  /**
   * Where those replies wait for delivery (docs/addressing.md "Durable replies"): in this process's
   * memory by default (`memoryReplyQueue()`); `bullmqReplyQueue()` keeps them in Redis, for any instance to deliver.
   */
  replyQueue?: SoapReplyQueue
  /**
   * Answer a browser's `GET <path>` (`Accept: text/html`) on each service
   * and contract with a page that describes it and tries its operations
   * (docs/service-page.md). Default false: the page tells scanners what runs here.
   */
  servicePage?: boolean
  /**
   * The HTTP status of faults: `'spec'` (the default) is SOAP 1.2 Part 2 Table 20's, 400 for a
   * SOAP 1.2 Sender fault; `500` answers every fault 500, as .NET WCF clients need (docs/faults.md
   * "Clients and fault status codes"). A service or contract may set its own.
   */
  faultStatus?: SoapFaultStatus
  /**
   * The content codings a request body may come in, inflated before it is decoded (docs/protocol.md
   * "Content codings"); another is answered 415. `[]` refuses every compressed body.
   */
  contentCodings?: readonly SoapContentCoding[]
  /** Largest ratio of a compressed body's inflated size to its size as sent; more is answered 413. */
  maxCompressionRatio?: number
  /** The bounds of an MTOM request's multipart body (docs/protocol.md "MTOM/XOP"). */
  multipart?: Partial<SoapMultipartLimits>
}

/** A content coding a request body may come in (RFC 9110 §8.4.1; `x-gzip` is `gzip`). */
export type SoapContentCoding = 'gzip' | 'deflate' | 'br'

/** The content codings the plugin inflates. */
const CONTENT_CODINGS = new KnownKeys({
  gzip: true,
  deflate: true,
  br: true
} as const satisfies KeyRecord<Record<SoapContentCoding, true>>)

/** The `faultStatus` option (docs/faults.md "Clients and fault status codes"). */
export type SoapFaultStatus = 'spec' | 500

export type SoapLogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'

/** Elements whose content is always redacted: WS-Security's secrets, by local name, in each of its namespaces. */
export const REDACTED: readonly string[] = Object.freeze(WSSE_NAMESPACES.flatMap((ns) =>
  ['Password', 'Nonce', 'BinarySecurityToken'].map((name) => qnameKey(ns, name))))

const LOG_LEVELS: ReadonlySet<string> = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])

export type FaultFormatter = (fault: SoapFault, request: FastifyRequest) => SoapFault

export interface ResolvedOptions {
  readonly bodyLimit: number
  readonly limits: Readonly<SoapLimits>
  readonly roles: ReadonlySet<string>
  readonly understoodHeaders: ReadonlySet<string>
  readonly namespaces: Readonly<Record<string, string>>
  readonly maxXPathElements: number
  readonly routes: FastifyPluginAsync | undefined
  readonly prefix: string | undefined
  readonly faultFormatter: FaultFormatter | undefined
  readonly logLevel: SoapLogLevel
  readonly logBody: boolean
  /** `{namespace}localName` of the elements whose content is redacted. */
  readonly redact: ReadonlySet<string>
  readonly maxAsyncReplies: number
  readonly maxAsyncReplyBytes: number
  readonly replyQueue: SoapReplyQueue | undefined
  readonly servicePage: boolean
  readonly faultStatus: SoapFaultStatus
  readonly contentCodings: readonly SoapContentCoding[]
  readonly maxCompressionRatio: number
  readonly multipart: Readonly<SoapMultipartLimits>
}

export const DEFAULTS = Object.freeze({
  bodyLimit: 1024 * 1024,
  maxDepth: 100,
  maxElements: 50_000,
  maxAttributes: 500,
  maxAttributeLength: 64 * 1024,
  maxNameLength: 1024,
  maxNamespaceLength: 4096,
  maxNamespaceDeclarations: 1000,
  maxXPathElements: 2000,
  maxAsyncReplies: 256,
  maxAsyncReplyBytes: 32 * 1024 * 1024,
  logLevel: 'info' as SoapLogLevel,
  logBody: false,
  servicePage: false,
  faultStatus: 'spec' as SoapFaultStatus,
  contentCodings: Object.freeze(['gzip', 'deflate', 'br']) as readonly SoapContentCoding[],
  // zlib's own ceiling (RFC 1951: 258 bytes from two bits): no gzip or deflate body is refused by it
  maxCompressionRatio: 1032,
  maxParts: 50,
  maxPartHeaders: 32,
  maxPartHeaderBytes: 8192
})

/** The keys of the plugin's options. */
const KNOWN = new KnownKeys({
  bodyLimit: true,
  maxXPathElements: true,
  roles: true,
  understoodHeaders: true,
  namespaces: true,
  routes: true,
  prefix: true,
  faultFormatter: true,
  logLevel: true,
  logBody: true,
  redact: true,
  maxAsyncReplies: true,
  maxAsyncReplyBytes: true,
  replyQueue: true,
  servicePage: true,
  faultStatus: true,
  contentCodings: true,
  maxCompressionRatio: true,
  multipart: true,
  maxDepth: true,
  maxElements: true,
  maxAttributes: true,
  maxAttributeLength: true,
  maxTextLength: true,
  maxNameLength: true,
  maxNamespaceLength: true,
  maxNamespaceDeclarations: true
} as const satisfies KeyRecord<FastifySoapOptions>)

/** The keys of the `multipart` option. */
const MULTIPART = new KnownKeys({
  maxParts: true,
  maxPartHeaders: true,
  maxPartHeaderBytes: true
} as const satisfies KeyRecord<SoapMultipartLimits>)

function multipartLimits (value: unknown): SoapMultipartLimits {
  if (value === undefined) value = {}
  if (value === null || typeof value !== 'object') throw new SOAP_ERR_OPT_INVALID('multipart', 'an object')
  const unknown = MULTIPART.unknownIn(value)
  if (unknown !== undefined) throw new SOAP_ERR_OPT_INVALID(`multipart.${unknown}`, `one of ${MULTIPART.list}`)
  const limits = value as Partial<SoapMultipartLimits>
  return Object.freeze({
    maxParts: positiveInteger('multipart.maxParts', limits.maxParts, DEFAULTS.maxParts),
    maxPartHeaders: positiveInteger('multipart.maxPartHeaders', limits.maxPartHeaders, DEFAULTS.maxPartHeaders),
    maxPartHeaderBytes: positiveInteger(
      'multipart.maxPartHeaderBytes', limits.maxPartHeaderBytes, DEFAULTS.maxPartHeaderBytes
    )
  })
}

function positiveInteger (name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new SOAP_ERR_OPT_INVALID(name, 'a positive integer')
  }
  return value
}

function contentCodings (value: unknown): readonly SoapContentCoding[] {
  if (value === undefined) return DEFAULTS.contentCodings
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && CONTENT_CODINGS.has(v))) {
    throw new SOAP_ERR_OPT_INVALID('contentCodings', `an array of ${CONTENT_CODINGS.list}`)
  }
  return Object.freeze([...new Set(value as SoapContentCoding[])])
}

function compressionRatio (value: unknown): number {
  if (value === undefined) return DEFAULTS.maxCompressionRatio
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 1) {
    throw new SOAP_ERR_OPT_INVALID('maxCompressionRatio', 'a finite number of at least 1')
  }
  return value
}

function stringList (name: string, value: unknown, qnames = false): string[] {
  if (value === undefined) return []
  if (!Array.isArray(value) || !value.every((v) => qnames ? isQNameKey(v) : typeof v === 'string')) {
    throw new SOAP_ERR_OPT_INVALID(name, qnames ? 'an array of "{namespace}localName" strings' : 'an array of strings')
  }
  return value
}

/** `serverBodyLimit` is the Fastify instance's own `bodyLimit`, the default for the plugin's. */
export function normalizeOptions (
  options: FastifySoapOptions = {}, serverBodyLimit: number = DEFAULTS.bodyLimit
): ResolvedOptions {
  if (options === null || typeof options !== 'object') {
    throw new SOAP_ERR_OPT_INVALID('options', 'an object')
  }
  const unknown = KNOWN.unknownIn(options)
  if (unknown !== undefined) throw new SOAP_ERR_OPT_INVALID(unknown, `one of ${KNOWN.list}`)
  const bodyLimit = positiveInteger('bodyLimit', options.bodyLimit, serverBodyLimit)
  const limits: SoapLimits = {
    maxDepth: positiveInteger('maxDepth', options.maxDepth, DEFAULTS.maxDepth),
    maxElements: positiveInteger('maxElements', options.maxElements, DEFAULTS.maxElements),
    maxAttributes: positiveInteger('maxAttributes', options.maxAttributes, DEFAULTS.maxAttributes),
    maxAttributeLength: positiveInteger('maxAttributeLength', options.maxAttributeLength, DEFAULTS.maxAttributeLength),
    maxTextLength: positiveInteger('maxTextLength', options.maxTextLength, bodyLimit),
    maxNameLength: positiveInteger('maxNameLength', options.maxNameLength, DEFAULTS.maxNameLength),
    maxNamespaceLength: positiveInteger('maxNamespaceLength', options.maxNamespaceLength, DEFAULTS.maxNamespaceLength),
    maxNamespaceDeclarations: positiveInteger(
      'maxNamespaceDeclarations', options.maxNamespaceDeclarations, DEFAULTS.maxNamespaceDeclarations
    )
  }
  const namespaces = options.namespaces === undefined ? {} : options.namespaces
  if (namespaces === null || typeof namespaces !== 'object' ||
    !Object.values(namespaces).every((v) => typeof v === 'string')) {
    throw new SOAP_ERR_OPT_INVALID('namespaces', 'an object mapping prefixes to namespace URIs')
  }
  if (options.routes !== undefined && typeof options.routes !== 'function') {
    throw new SOAP_ERR_OPT_INVALID('routes', 'a Fastify plugin function')
  }
  if (options.prefix !== undefined && typeof options.prefix !== 'string') {
    throw new SOAP_ERR_OPT_INVALID('prefix', 'a string')
  }
  if (options.faultFormatter !== undefined && typeof options.faultFormatter !== 'function') {
    throw new SOAP_ERR_OPT_INVALID('faultFormatter', 'a function')
  }
  if (options.logLevel !== undefined && !LOG_LEVELS.has(options.logLevel)) {
    throw new SOAP_ERR_OPT_INVALID('logLevel', `one of ${[...LOG_LEVELS].join(', ')}`)
  }
  if (options.logBody !== undefined && typeof options.logBody !== 'boolean') {
    throw new SOAP_ERR_OPT_INVALID('logBody', 'a boolean')
  }
  const queue = options.replyQueue as Partial<Record<keyof SoapReplyQueue, unknown>> | null | undefined
  const methods = ['start', 'add', 'close'] as const
  if (queue !== undefined && methods.some((method) => typeof queue?.[method] !== 'function')) {
    throw new SOAP_ERR_OPT_INVALID('replyQueue', 'a reply queue (start, add and close)')
  }
  if (options.servicePage !== undefined && typeof options.servicePage !== 'boolean') {
    throw new SOAP_ERR_OPT_INVALID('servicePage', 'a boolean')
  }
  if (options.faultStatus !== undefined && options.faultStatus !== 'spec' && options.faultStatus !== 500) {
    throw new SOAP_ERR_OPT_INVALID('faultStatus', "'spec' or 500")
  }
  return Object.freeze({
    bodyLimit,
    limits: Object.freeze(limits),
    roles: new Set(stringList('roles', options.roles)),
    understoodHeaders: new Set(stringList('understoodHeaders', options.understoodHeaders, true)),
    namespaces: Object.freeze({ ...namespaces }),
    maxXPathElements: positiveInteger('maxXPathElements', options.maxXPathElements, DEFAULTS.maxXPathElements),
    routes: options.routes,
    prefix: options.prefix,
    faultFormatter: options.faultFormatter,
    logLevel: options.logLevel ?? DEFAULTS.logLevel,
    logBody: options.logBody ?? DEFAULTS.logBody,
    redact: new Set([...REDACTED, ...stringList('redact', options.redact, true)]),
    maxAsyncReplies: positiveInteger('maxAsyncReplies', options.maxAsyncReplies, DEFAULTS.maxAsyncReplies),
    maxAsyncReplyBytes: positiveInteger('maxAsyncReplyBytes', options.maxAsyncReplyBytes, DEFAULTS.maxAsyncReplyBytes),
    replyQueue: options.replyQueue,
    servicePage: options.servicePage ?? DEFAULTS.servicePage,
    faultStatus: options.faultStatus ?? DEFAULTS.faultStatus,
    contentCodings: contentCodings(options.contentCodings),
    maxCompressionRatio: compressionRatio(options.maxCompressionRatio),
    multipart: multipartLimits(options.multipart)
  })
}
