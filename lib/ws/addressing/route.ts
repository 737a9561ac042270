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
import { renderFault, type SoapFault } from '../../soap/fault'
import type { SoapContext } from '../../service/context'
import { kExchange, type Exchange, type StateKey } from '../../service/protocol'
import type { SoapAddressing, SoapEndpointReference } from '../../types'
import { WSSE_NS, WSU_NS } from '../../namespaces'
import { writeElement } from '../../xml/write'
import { deliver, DeliverySlot, type Delivery, type DeliveryBudget } from './delivery'
import { endpointUnavailable, genericFaultAction, soapFaultAction } from './faults'
import type { AsyncReplies } from './options'
import { isAnonymous, NONE } from './read'
import { replyEndpoint, replyHeaders } from './reply'

/** What WS-Addressing keeps of a request that used it, in its exchange. */
export interface AddressingState {
  /** The service's asynchronous replies; undefined when it has none. */
  readonly asyncReplies: AsyncReplies | undefined
  /**
   * An asynchronous reply's place under the delivery caps (docs/addressing.md
   * "Bounds"), taken once the addressing headers are read; undefined when
   * the answer goes back on the connection.
   */
  delivery: DeliverySlot | undefined
  /** The `wsa:Action` of the answer, once its addressing headers are written. */
  replyAction: string | undefined
}

export const kAddressing: StateKey<AddressingState> = Symbol('fastify-soap.addressing')

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
export function faultAddressing (exchange: Exchange, fault: SoapFault): string | undefined {
  const addressing = exchange.soap.addressing
  const state = exchange.state(kAddressing)
  if (addressing === undefined || state === undefined) return undefined
  const own = fault.faultCode === 'MustUnderstand' || fault.faultCode === 'VersionMismatch'
  const action = fault.action ??
    (own ? soapFaultAction(addressing.namespace) : genericFaultAction(addressing.namespace))
  state.replyAction = action
  const slot = state.delivery
  if (slot !== undefined && !slot.postsAnyFault && (!slot.authenticated || isSecurityFault(fault))) {
    slot.release()
    state.delivery = undefined
  }
  const epr = replyEndpoint(addressing, true)
  return replyHeaders(addressing, action, away(epr) && state.delivery === undefined ? undefined : epr)
}

/** What the reference parameters an asynchronous reply will echo weigh, in UTF-8 bytes. */
function parameterBytes (addressing: SoapAddressing): number {
  let bytes = 0
  for (const epr of [addressing.replyTo, addressing.faultTo]) {
    if (away(epr)) for (const parameter of epr.referenceParameters) bytes += Buffer.byteLength(writeElement(parameter))
  }
  return bytes
}

/**
 * Run once the request's addressing headers are read: the place of its
 * asynchronous reply under the caps of the service and of the registration
 * (undefined for a reply on the connection), or an EndpointUnavailable fault
 * when there is none left.
 */
export function admit (
  exchange: Exchange, options: AsyncReplies | undefined, addressing: SoapAddressing, shared: DeliveryBudget
): DeliverySlot | undefined {
  // The reader let through a non-anonymous address only where asyncReplies is on.
  if (options === undefined || !(away(addressing.replyTo) || away(addressing.faultTo))) return undefined
  const secured = exchange.service.protocols.some((protocol) => protocol.authenticates === true)
  const budgets = [options.budget, shared]
  const slot = DeliverySlot.take(budgets, parameterBytes(addressing), !secured, options.postSecurityFaults)
  if (slot === undefined) {
    const why = 'too many replies are on their way to other endpoints'
    throw endpointUnavailable(addressing.namespace, exchange.soap.version, options.timeout, why)
  }
  return slot
}

/**
 * The onSend hook of a service with WS-Addressing, for its asynchronous
 * replies, each counted against the service's caps and the registration's
 * (`admit`). An answer
 * whose endpoint is not anonymous leaves as a new request to it (or is
 * dropped for the `none` address); the client's own request gets 202 and no
 * body. When the server closes, deliveries make no new try, and close waits
 * for the tries under way.
 */
export function asyncReplies (
  instance: FastifyInstance
): (request: FastifyRequest, reply: FastifyReply, payload: unknown) => Promise<unknown> {
  const closing = new AbortController()
  // Each delivery waiting to try again listens to it: as many as the caps let be in flight.
  setMaxListeners(0, closing.signal)
  const running = new Set<Promise<boolean>>()
  instance.addHook('onClose', async () => {
    closing.abort()
    await Promise.all(running)
  })

  /** The reply of a handled request, too large for what the byte caps have left: a fault on the connection instead. */
  function notQueued (
    request: FastifyRequest,
    reply: FastifyReply,
    soap: SoapContext,
    state: AddressingState,
    addressing: SoapAddressing,
    bytes: number
  ): string {
    request.log.warn({ bytes }, 'fastify-soap: reply not queued: over the byte cap of replies in flight')
    const action = genericFaultAction(addressing.namespace)
    state.replyAction = action
    const timeout = (state.asyncReplies as AsyncReplies).timeout
    const why = 'the reply is larger than what replies in flight may still hold'
    const fault = endpointUnavailable(addressing.namespace, soap.version, timeout, why)
    const { status, contentType, body } = renderFault(fault, soap.version, replyHeaders(addressing, action, undefined))
    reply.code(status).header('content-type', contentType)
    return body
  }

  async function soapAsyncReply (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
    const soap = request.soap
    const addressing = soap?.addressing
    const state = request[kExchange]?.state(kAddressing)
    if (soap === null || addressing === undefined || state === undefined) return payload
    const slot = state.delivery
    state.delivery = undefined
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
      return notQueued(request, reply, soap, state, addressing, envelope.length)
    }
    reply.code(202).removeHeader('content-type')
    const options = state.asyncReplies as AsyncReplies
    const delivery: Delivery = {
      url: new URL(epr.address),
      envelope,
      version: soap.version,
      action: state.replyAction as string,
      signal: closing.signal
    }
    const sending: Promise<boolean> = deliver(delivery, options, request.log).finally(() => {
      slot.release()
      running.delete(sending)
    })
    running.add(sending)
    return ''
  }

  return soapAsyncReply
}
