/**
 * fastify-soap: SOAP 1.1 and 1.2 over HTTP for Fastify.
 *
 * The fastify-plugin wrapped outer plugin owns the decorators; the encapsulated
 * `endpoint` plugin owns the parsers, the error handler and the SOAP routes.
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import type { SoapContext } from './context'
import { endpoint } from './endpoint'
import { normalizeOptions, type FastifySoapOptions, type ResolvedOptions } from './options'
import { sendSoap, type SoapContent, type SoapReplyOptions } from './reply'
import { kResponse } from './symbols'

export interface SoapDecorator {
  /** The options in force, defaults applied. */
  readonly options: ResolvedOptions
}

declare module 'fastify' {
  interface FastifyInstance {
    soap: SoapDecorator
  }
  interface FastifyRequest {
    /** The decoded envelope on a SOAP route; null elsewhere and before the body is parsed. */
    soap: SoapContext | null
  }
  interface FastifyReply {
    /** Sends a SOAP envelope in the request's version with `body` as the Body's content. */
    soap (body?: SoapContent, options?: SoapReplyOptions): FastifyReply
  }
}

const plugin: FastifyPluginAsync<FastifySoapOptions> = async function fastifySoap (fastify: FastifyInstance, options: FastifySoapOptions) {
  const soap = normalizeOptions(options, fastify.initialConfig.bodyLimit)
  // Registered again (another scope, other options), the plugin adds routes,
  // not decorators; `fastify.soap` keeps the first registration's options.
  if (!fastify.hasDecorator('soap')) fastify.decorate('soap', Object.freeze({ options: soap }))
  if (!fastify.hasRequestDecorator('soap')) fastify.decorateRequest('soap', null)
  if (!fastify.hasReplyDecorator('soap')) fastify.decorateReply('soap', sendSoap)
  if (!fastify.hasRequestDecorator(kResponse)) fastify.decorateRequest(kResponse, null)
  await fastify.register(endpoint, { soap, prefix: soap.prefix })
}

const fastifySoap = fp(plugin, {
  fastify: '5.x',
  name: 'fastify-soap'
})

export default fastifySoap
export { fastifySoap }
export { soapClientErrorHandler } from './client-error'
export { SoapContext } from './context'
export { textContent } from './envelope'
export { errorCodes } from './errors'
export { SoapFault, type FaultCode, type FaultSubcode, type FaultText, type SoapFaultOptions } from './fault'
export type { SoapHeaderBlock } from './headers'
export {
  SOAP11_ENV,
  SOAP12_ENV,
  SOAP12_ROLE_NEXT,
  SOAP12_ROLE_NONE,
  SOAP12_ROLE_ULTIMATE,
  SOAP11_ACTOR_NEXT,
  type SoapVersion
} from './namespaces'
export { DEFAULTS, type FastifySoapOptions, type ResolvedOptions, type SoapLimits } from './options'
export type { SoapContent, SoapReplyOptions } from './reply'
export { escapeAttribute, escapeXml } from './serializer'
export type { XmlAttribute, XmlElement } from './types'

// CommonJS and ES module consumers alike get the plugin itself as the module's
// value (`require('fastify-soap')`, `import soap from 'fastify-soap'`), with the
// named exports on it, as Fastify's own packages do.
module.exports = Object.assign(fastifySoap, exports)
