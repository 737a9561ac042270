/**
 * WS-Addressing at the edges of a service's route (docs/addressing.md): the
 * place an asynchronous reply takes under the delivery caps once the
 * request's addressing headers are read, the addressing headers of a fault,
 * and the onSend hook that stores a reply to a non-anonymous ReplyTo or
 * FaultTo in the reply queue instead of sending it on the connection, which
 * gets 202 and no body once it is stored (WS-Addressing 1.0 SOAP Binding §5.2.1).
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { renderFault, type SoapFault } from '../../soap/fault'
import type { SoapContext } from '../../service/context'
import { kExchange, type Exchange, type StateKey } from '../../service/protocol'
import type { SoapAddressing, SoapEndpointReference, SoapReplyJob, SoapReplyReceipt } from '../../types'
import { WSSE_NS, WSU_NS } from '../../namespaces'
import { writeElement } from '../../xml/write'
import { DeliverySlot, type DeliveryBudget } from './delivery'
import { endpointUnavailable, genericFaultAction, soapFaultAction } from './faults'
import type { AsyncReplies } from './options'
import { isAnonymous, NONE } from './read'
import type { ReplyDesk } from './queue'
import { newMessageId, replyEndpoint, replyHeaders } from './reply'
import { withDeadline } from '../../deadline'

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
  /** The `wsa:MessageID` of the answer, once its addressing headers are written: its job's id in the reply queue. */
  replyMessageId: string | undefined
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
  state.replyMessageId = newMessageId()
  const to = away(epr) && state.delivery === undefined ? undefined : epr
  return replyHeaders(addressing, action, to, state.replyMessageId)
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

/** Stores `job` in `desk`'s queue within `timeout` ms; rejects when it is not stored in that time. */
async function store (desk: ReplyDesk, job: SoapReplyJob, timeout: number): Promise<SoapReplyReceipt | undefined> {
  const late = (): Error => new Error(`not stored in ${timeout} ms`)
  return await withDeadline(async (signal) => await desk.queue.add(job, signal), timeout, late)
}

/**
 * The onSend hook of a service with WS-Addressing, for its asynchronous
 * replies, each counted against the service's caps and the registration's
 * (`admit`). An answer whose endpoint is not anonymous is stored in the
 * registration's reply queue (or dropped for the `none` address), which
 * delivers it as a new request; the client's own request gets 202 and no
 * body once it is stored, and a fault on the connection when it cannot be.
 */
export function asyncReplies (
  desk: ReplyDesk
): (request: FastifyRequest, reply: FastifyReply, payload: unknown) => Promise<unknown> {
  /** An answer that is not queued (too large for the byte caps, or not stored): a fault on the connection instead. */
  function notQueued (
    reply: FastifyReply,
    soap: SoapContext,
    state: AddressingState,
    addressing: SoapAddressing,
    why: string
  ): string {
    const action = genericFaultAction(addressing.namespace)
    state.replyAction = action
    const timeout = (state.asyncReplies as AsyncReplies).timeout
    const fault = endpointUnavailable(addressing.namespace, soap.version, timeout, why)
    const { status, contentType, body } = renderFault(fault, soap.version, replyHeaders(addressing, action, undefined))
    reply.code(status).header('content-type', contentType)
    return body
  }

  async function soapAsyncReply (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
    const soap = request.soap
    const addressing = soap?.addressing
    const exchange = request[kExchange]
    const state = exchange?.state(kAddressing)
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
    const bytes = Buffer.byteLength(payload)
    if (!slot.resize(bytes)) {
      slot.release()
      request.log.warn({ bytes }, 'fastify-soap: reply not queued: over the byte cap of replies in flight')
      return notQueued(reply, soap, state, addressing, 'the reply is larger than what replies in flight may still hold')
    }
    const options = state.asyncReplies as AsyncReplies
    const job = desk.own({
      id: state.replyMessageId as string,
      service: (exchange as Exchange).service.name,
      to: epr.address,
      envelope: payload,
      version: soap.version,
      action: state.replyAction as string
    }, options)
    let receipt: SoapReplyReceipt | undefined
    try {
      receipt = await store(desk, job, options.timeout)
    } catch (err) {
      slot.release()
      request.log.warn({ err }, 'fastify-soap: reply not queued: the reply queue did not store it')
      return notQueued(reply, soap, state, addressing, 'the reply could not be stored for delivery')
    }
    // Held in this process until delivered (the in-memory queue), or stored elsewhere: its place is given back.
    const delivery = receipt?.delivery
    if (delivery === undefined) slot.release()
    else delivery.then(() => slot.release(), () => slot.release())
    reply.code(202).removeHeader('content-type')
    return ''
  }

  return soapAsyncReply
}
