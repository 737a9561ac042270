/**
 * WS-Addressing at the edges of a service's route (docs/addressing.md): the
 * place an asynchronous reply takes under the delivery caps once the
 * request's addressing headers are read, the addressing headers of a fault,
 * and the onSend hook that sends a reply to a non-anonymous ReplyTo or
 * FaultTo instead of on the connection, which gets 202 and no body
 * (WS-Addressing 1.0 SOAP Binding §5.2.1).
 */
import { setMaxListeners } from 'node:events'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { renderFault, type SoapFault } from '../soap/fault'
import type { Service } from '../service/compile'
import type { SoapContext } from '../service/context'
import type { SoapAddressing, SoapEndpointReference } from '../types'
import { WSSE_NS, WSU_NS } from '../namespaces'
import { writeElement } from '../xml/write'
import { deliver, DeliverySlot, type Delivery, type DeliveryBudget } from '../ws/addressing/delivery'
import { endpointUnavailable, genericFaultAction, soapFaultAction } from '../ws/addressing/faults'
import type { AsyncReplies } from '../ws/addressing/policy'
import { isAnonymous, NONE } from '../ws/addressing/read'
import { replyEndpoint, replyHeaders } from '../ws/addressing/reply'

/** An endpoint a message is sent to as a request of its own: neither anonymous nor `none`. */
function away (epr: SoapEndpointReference | undefined): epr is SoapEndpointReference {
  return epr !== undefined && !isAnonymous(epr.address) && epr.address !== NONE
}

/** A fault of WS-Security (its subcode or SOAP 1.1 faultcode in the wsse or wsu namespace): the sender is not known. */
function isSecurityFault (fault: SoapFault): boolean {
  return [...fault.subcodes, fault.code11].some((code) => code?.namespace === WSSE_NS || code?.namespace === WSU_NS)
}

/**
 * The addressing header blocks of a fault answering this request; undefined
 * when the request used no WS-Addressing. A fault leaves for its FaultTo only
 * with the place its request took; one of a request that did not pass the
 * service's WS-Security check, or a WS-Security fault, gives that place up
 * (unless `postSecurityFaults`) and comes back on the connection, addressed
 * as such.
 */
export function faultAddressing (request: FastifyRequest, fault: SoapFault): string | undefined {
  const soap = request.soap
  const addressing = soap?.addressing
  if (soap === null || addressing === undefined) return undefined
  const own = fault.faultCode === 'MustUnderstand' || fault.faultCode === 'VersionMismatch'
  const action = fault.action ?? (own ? soapFaultAction(addressing.namespace) : genericFaultAction(addressing.namespace))
  soap.replyAction = action
  const slot = soap.delivery
  if (slot !== undefined && !slot.postsAnyFault && (!slot.authenticated || isSecurityFault(fault))) {
    slot.release()
    soap.delivery = undefined
  }
  const epr = replyEndpoint(addressing, true)
  return replyHeaders(addressing, action, away(epr) && soap.delivery === undefined ? undefined : epr)
}

/** What the reference parameters an asynchronous reply will echo weigh, in UTF-8 bytes. */
function parameterBytes (addressing: SoapAddressing): number {
  let bytes = 0
  for (const epr of [addressing.replyTo, addressing.faultTo]) {
    if (away(epr)) for (const parameter of epr.referenceParameters) bytes += Buffer.byteLength(writeElement(parameter))
  }
  return bytes
}

export interface AsyncReplyRoute {
  /** Run once the request's addressing headers are read: takes its reply's place, or throws EndpointUnavailable. */
  readonly admit: (request: FastifyRequest) => void
  readonly onSend: (request: FastifyRequest, reply: FastifyReply, payload: unknown) => Promise<unknown>
}

/**
 * The asynchronous replies of a service with WS-Addressing: each counts
 * against the service's caps and `shared`, the registration's. An answer
 * whose endpoint is not anonymous leaves as a new request to it (or is
 * dropped for the `none` address); the client's own request gets 202 and no
 * body. When the server closes, deliveries make no new try, and close waits
 * for the tries under way.
 */
export function asyncReplies (
  instance: FastifyInstance,
  compiled: () => Service | undefined,
  shared: DeliveryBudget
): AsyncReplyRoute {
  const closing = new AbortController()
  // Each delivery waiting to try again listens to it: as many as the caps let be in flight.
  setMaxListeners(0, closing.signal)
  const running = new Set<Promise<boolean>>()
  instance.addHook('onClose', async () => {
    closing.abort()
    await Promise.all(running)
  })

  function admit (request: FastifyRequest): void {
    const soap = request.soap as SoapContext
    const addressing = soap.addressing
    // The reader let through a non-anonymous address only where asyncReplies is on.
    if (addressing === undefined || !(away(addressing.replyTo) || away(addressing.faultTo))) return
    const service = compiled() as Service
    const options = service.addressing?.asyncReplies as AsyncReplies
    const secured = service.operations.some((op) => op.security !== undefined)
    const budgets = [options.budget, shared]
    const slot = DeliverySlot.take(budgets, parameterBytes(addressing), !secured, options.postSecurityFaults)
    if (slot === undefined) {
      const why = 'too many replies are on their way to other endpoints'
      throw endpointUnavailable(addressing.namespace, soap.version, options.timeout, why)
    }
    soap.delivery = slot
  }

  /** The reply of a handled request, too large for what the byte caps have left: a fault on the connection instead. */
  function notQueued (
    request: FastifyRequest,
    reply: FastifyReply,
    soap: SoapContext,
    addressing: SoapAddressing,
    bytes: number
  ): string {
    request.log.warn({ bytes }, 'fastify-soap: reply not queued: over the byte cap of replies in flight')
    const action = genericFaultAction(addressing.namespace)
    soap.replyAction = action
    const timeout = (compiled()?.addressing?.asyncReplies as AsyncReplies).timeout
    const why = 'the reply is larger than what replies in flight may still hold'
    const fault = endpointUnavailable(addressing.namespace, soap.version, timeout, why)
    const { status, contentType, body } = renderFault(fault, soap.version, replyHeaders(addressing, action, undefined))
    reply.code(status).header('content-type', contentType)
    return body
  }

  async function soapAsyncReply (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
    const soap = request.soap
    const addressing = soap?.addressing
    if (soap === null || addressing === undefined) return payload
    const slot = soap.delivery
    soap.delivery = undefined
    const epr = replyEndpoint(addressing, reply.statusCode >= 400)
    const answer = typeof payload === 'string' && payload !== ''
    if (!answer || slot === undefined || !away(epr)) {
      slot?.release()
      if (!answer || epr?.address !== NONE) return payload
      // WS-Addressing 1.0 Core §2.1: a message for `none` is dropped.
      reply.code(202).removeHeader('content-type')
      return ''
    }
    const envelope = Buffer.from(payload)
    if (!slot.resize(envelope.length)) {
      slot.release()
      return notQueued(request, reply, soap, addressing, envelope.length)
    }
    reply.code(202).removeHeader('content-type')
    const options = compiled()?.addressing?.asyncReplies as AsyncReplies
    const delivery: Delivery = {
      url: new URL(epr.address),
      envelope,
      version: soap.version,
      action: soap.replyAction as string,
      signal: closing.signal
    }
    const sending: Promise<boolean> = deliver(delivery, options, request.log).finally(() => {
      slot.release()
      running.delete(sending)
    })
    running.add(sending)
    return ''
  }

  return { admit, onSend: soapAsyncReply }
}
