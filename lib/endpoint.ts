/**
 * The SOAP scope: an encapsulated (not fastify-plugin wrapped) plugin that owns
 * the content-type parsers, the error handler, the 405 answers and the user's
 * SOAP routes, so that routes outside it keep their own (STYLE.md: mercurius).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from 'fastify'
import { parseContentType, versionOfMediaType } from './content-type'
import { SOAP_ERR_DECODE_EMPTY } from './errors'
import { SoapFault, renderFault } from './fault'
import type { SoapVersion } from './namespaces'
import type { ResolvedOptions } from './options'
import { buildParser } from './parser'

export interface EndpointOptions {
  readonly soap: ResolvedOptions
}

const MEDIA_TYPES = ['application/soap+xml', 'text/xml'] as const
const GENERIC_RECEIVER = 'The server could not process the request'
const GENERIC_SENDER = 'The request is not valid'

/** Errors raised while the body is read or decoded: answered with their status and no body. */
function isUndecodable (code: unknown): boolean {
  return typeof code === 'string' &&
    (code.startsWith('SOAP_ERR_DECODE_') || code.startsWith('SOAP_ERR_CT_') || code.startsWith('FST_ERR_CTP_'))
}

function faultVersion (request: FastifyRequest): SoapVersion {
  if (request.soap !== null) return request.soap.version
  const header = request.headers['content-type']
  return (header === undefined ? undefined : versionOfMediaType(parseContentType(header).mediaType)?.version) ?? '1.2'
}

export function sendFault (request: FastifyRequest, reply: FastifyReply, fault: SoapFault): FastifyReply {
  const { status, contentType, body } = renderFault(fault, faultVersion(request))
  return reply.code(status).header('content-type', contentType).send(body)
}

function soapErrorHandler (error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof SoapFault) {
    request.log.info({ fault: error.faultCode, reason: error.message }, 'fastify-soap: fault')
    return sendFault(request, reply, error)
  }
  const status = error.statusCode ?? 500
  if (isUndecodable(error.code)) {
    request.log.debug({ err: error }, 'fastify-soap: request not decoded')
    return reply.code(status).header('content-length', '0').send()
  }
  if (status >= 400 && status < 500) {
    request.log.info({ err: error }, 'fastify-soap: client error answered as a Sender fault')
    return sendFault(request, reply, new SoapFault({ code: 'Sender', reason: GENERIC_SENDER }))
  }
  request.log.error({ err: error }, 'fastify-soap: error answered as a Receiver fault')
  return sendFault(request, reply, new SoapFault({ code: 'Receiver', reason: GENERIC_RECEIVER }))
}

/** Runs first among the scope's preValidation hooks: a decoded envelope's own fault, or an empty POST. */
function checkEnvelope (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const body = request.body
  if (body instanceof SoapFault) {
    done(body)
  } else if (request.soap === null && request.method === 'POST') {
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
  instance.addHook('preValidation', checkEnvelope)

  // PROTOCOL.md "Other answers": a method a SOAP path does not serve gets 405 with Allow.
  const methodsByUrl = new Map<string, Set<string>>()
  let collecting = true
  instance.addHook('onRoute', (route: RouteOptions) => {
    if (!collecting) return
    const methods = methodsByUrl.get(route.url) ?? new Set<string>()
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) methods.add(method)
    if (methods.has('GET')) methods.add('HEAD')
    methodsByUrl.set(route.url, methods)
  })

  if (soap.routes !== undefined) await instance.register(soap.routes)

  collecting = false
  const supported = instance.supportedMethods
  for (const [url, methods] of methodsByUrl) {
    const others = supported.filter((method) => !methods.has(method))
    if (others.length === 0) continue
    const allow = [...methods].sort().join(', ')
    instance.route({
      method: others,
      url: url.slice(instance.prefix.length),
      onRequest: async (_request, reply) => reply.code(405).header('allow', allow).header('content-length', '0').send(),
      handler: async () => undefined
    })
  }
}
