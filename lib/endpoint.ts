/**
 * The SOAP scope: an encapsulated (not fastify-plugin wrapped) plugin that owns
 * the content-type parsers, the error handler, the 405 answers and the user's
 * SOAP routes, so that routes outside it keep their own (STYLE.md: mercurius).
 */
import type { ServerResponse } from 'node:http'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from 'fastify'
import { parseContentType, versionOfMediaType } from './content-type'
import { SOAP_ERR_DECODE_EMPTY } from './errors'
import { SoapFault, renderFault } from './fault'
import type { SoapVersion } from './namespaces'
import type { ResolvedOptions } from './options'
import { buildParser } from './parser'
import { kResponse } from './symbols'

export interface EndpointOptions {
  readonly soap: ResolvedOptions
}

const MEDIA_TYPES = ['application/soap+xml', 'text/xml'] as const
const GENERIC_RECEIVER = 'The server could not process the request'
const GENERIC_SENDER = 'The request is not valid'

/** The plugin's own decoding and media type errors: raised once the whole body has been read. */
function isOwnUndecodable (code: string): boolean {
  return code.startsWith('SOAP_ERR_DECODE_') || code.startsWith('SOAP_ERR_CT_')
}

function faultVersion (request: FastifyRequest): SoapVersion {
  if (request.soap !== null) return request.soap.version
  const header = request.headers['content-type']
  return (header === undefined ? undefined : versionOfMediaType(parseContentType(header).mediaType)?.version) ?? '1.2'
}

function sendFault (request: FastifyRequest, reply: FastifyReply, fault: SoapFault): FastifyReply {
  const { status, contentType, body } = renderFault(fault, faultVersion(request))
  return reply.code(status).header('content-type', contentType).send(body)
}

function soapErrorHandler (thrown: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  // Anything may be thrown, null included.
  const error = (typeof thrown === 'object' && thrown !== null ? thrown : { message: String(thrown) }) as Partial<FastifyError>
  const code = typeof error.code === 'string' ? error.code : ''
  if (error instanceof SoapFault || isOwnUndecodable(code)) {
    // Fastify closes the connection after a parser error in case the body was
    // not all read; the plugin's own errors come after the whole body was.
    reply.removeHeader('connection')
  }
  if (error instanceof SoapFault) {
    request.log.info({ fault: error.faultCode, reason: error.message }, 'fastify-soap: fault')
    return sendFault(request, reply, error)
  }
  const status = typeof error.statusCode === 'number' ? error.statusCode : 500
  if (isOwnUndecodable(code) || code.startsWith('FST_ERR_CTP_')) {
    request.log.debug({ err: error }, 'fastify-soap: request not decoded')
    if (code === 'SOAP_ERR_CT_ENCODING') reply.header('accept-encoding', 'identity')
    return reply.code(status).header('content-length', '0').send()
  }
  if (status >= 400 && status < 500) {
    request.log.info({ err: error }, 'fastify-soap: client error answered as a Sender fault')
    return sendFault(request, reply, new SoapFault({ code: 'Sender', reason: GENERIC_SENDER }))
  }
  request.log.error({ err: thrown }, 'fastify-soap: error answered as a Receiver fault')
  return sendFault(request, reply, new SoapFault({ code: 'Receiver', reason: GENERIC_RECEIVER }))
}

/**
 * The scope's first hook. It keeps the Node response at hand for
 * `request.soap.signal`, and answers a POST with no body at all, which never
 * reaches the content-type parser (PROTOCOL.md "Decoding": an empty body is a 400).
 */
function onSoapRequest (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  (request as unknown as Record<symbol, ServerResponse>)[kResponse] = reply.raw
  const headers = request.headers
  if (request.method === 'POST' && headers['transfer-encoding'] === undefined &&
    (headers['content-length'] === undefined || headers['content-length'] === '0')) {
    done(new SOAP_ERR_DECODE_EMPTY())
  } else {
    done()
  }
}

export async function endpoint (instance: FastifyInstance, { soap }: EndpointOptions): Promise<void> {
  const parse = buildParser(soap)
  instance.removeAllContentTypeParsers()
  instance.addContentTypeParser(
    MEDIA_TYPES as unknown as string[],
    { parseAs: 'buffer', bodyLimit: soap.bodyLimit },
    (request, body, done) => {
      let parsed
      try {
        parsed = parse(request, body as Buffer)
      } catch (err) {
        done(err as Error, undefined)
        return
      }
      done(null, parsed)
    }
  )
  instance.setErrorHandler(soapErrorHandler)
  instance.addHook('onRequest', onSoapRequest)

  // PROTOCOL.md "Other answers": a method a SOAP path does not serve gets 405 with Allow.
  const methodsByUrl = new Map<string, Set<string>>()
  let collecting = true
  const collect = (url: string, route: RouteOptions): void => {
    const methods = methodsByUrl.get(url) ?? new Set<string>()
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) methods.add(method)
    methodsByUrl.set(url, methods)
  }
  instance.addHook('onRoute', (route: RouteOptions & { routePath?: string }) => {
    if (!collecting) return
    collect(route.url, route)
    // A '/' route under a prefix is served with and without the trailing slash.
    if (route.routePath === '' && route.prefixTrailingSlash !== 'no-slash' && route.url !== '/') collect(route.url + '/', route)
  })

  if (soap.routes !== undefined) await instance.register(soap.routes)

  collecting = false
  const supported = instance.supportedMethods
  for (const [url, methods] of methodsByUrl) {
    const others = supported.filter((method) => !methods.has(method))
    if (others.length === 0) continue
    const allow = [...methods].sort().join(', ')
    const relative = url.slice(instance.prefix.length)
    instance.route({
      method: others,
      url: relative,
      // '/' is the prefix's trailing-slash variant; '' is the prefix itself
      prefixTrailingSlash: relative === '/' ? 'slash' : 'both',
      onRequest: async (_request, reply) => reply.code(405).header('allow', allow).header('content-length', '0').send(),
      handler: async () => undefined
    })
  }
}
