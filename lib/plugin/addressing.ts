/**
 * WS-Addressing at the edges of a service's route (docs/addressing.md): the
 * addressing headers of a fault, and the onSend hook that sends a reply to a
 * non-anonymous ReplyTo or FaultTo instead of on the connection, which gets
 * 202 and no body (WS-Addressing 1.0 SOAP Binding §5.2.1).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { SoapFault } from '../soap/fault'
import type { Service } from '../service/compile'
import { deliver } from '../ws/addressing/delivery'
import { genericFaultAction, soapFaultAction } from '../ws/addressing/faults'
import { isAnonymous, NONE } from '../ws/addressing/read'
import { replyEndpoint, replyHeaders } from '../ws/addressing/reply'

/** The addressing header blocks of a fault answering this request; undefined when the request used no WS-Addressing. */
export function faultAddressing (request: FastifyRequest, fault: SoapFault): string | undefined {
  const soap = request.soap
  const addressing = soap?.addressing
  if (soap === null || addressing === undefined) return undefined
  const own = fault.faultCode === 'MustUnderstand' || fault.faultCode === 'VersionMismatch'
  const action = fault.action ?? (own ? soapFaultAction(addressing.namespace) : genericFaultAction(addressing.namespace))
  soap.replyAction = action
  return replyHeaders(addressing, action, true)
}

/**
 * The onSend hook of a service with WS-Addressing: an answer whose endpoint
 * is not anonymous leaves as a new request to it (or is dropped for the
 * `none` address); the client's own request gets 202 and no body. When the
 * server closes, deliveries make no new try, and close waits for the tries
 * under way.
 */
export function asyncReplies (instance: FastifyInstance, compiled: () => Service | undefined): (request: FastifyRequest, reply: FastifyReply, payload: unknown) => Promise<unknown> {
  const closing = new AbortController()
  const running = new Set<Promise<boolean>>()
  instance.addHook('onClose', async () => {
    closing.abort()
    await Promise.all(running)
  })
  return async function soapAsyncReply (request, reply, payload) {
    const soap = request.soap
    const addressing = soap?.addressing
    if (soap === null || addressing === undefined || typeof payload !== 'string' || payload === '') return payload
    const epr = replyEndpoint(addressing, reply.statusCode >= 400)
    if (epr === undefined || isAnonymous(epr.address)) return payload
    reply.code(202).removeHeader('content-type')
    const options = compiled()?.addressing?.asyncReplies
    // The reader let through only `none` and addresses on the allow-list.
    if (epr.address !== NONE && options !== undefined) {
      const delivery: Promise<boolean> = deliver({ url: new URL(epr.address), envelope: payload, version: soap.version, action: soap.replyAction as string, signal: closing.signal }, options, request.log)
        .finally(() => running.delete(delivery))
      running.add(delivery)
    }
    return ''
  }
}
