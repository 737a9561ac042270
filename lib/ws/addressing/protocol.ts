/**
 * WS-Addressing as a protocol module (docs/addressing.md): the `addressing`
 * key of a service, the `wsa:` headers it understands, the `wsam:Addressing`
 * assertion and the `wsam:Action`s its description states, and its steps:
 * the request's properties read after decode (`request.soap.addressing`),
 * `wsa:Action` routing dispatch, the reply's and the fault's headers, and the
 * onSend hook of asynchronous replies (route.ts).
 */
import type { SoapAddressing } from '../../types'
import type { SoapFault } from '../../soap/fault'
import type { Exchange, Operation, Protocol, ProtocolModule } from '../../service/protocol'
import { addressingFault } from './faults'
import { addressingAssertion, addressingPolicy, type AddressingPolicy } from './options'
import { ADDRESSING_HEADERS, readAddressing } from './read'
import type { ReplyDesk } from './queue'
import { newMessageId, replyEndpoint, replyHeaders } from './reply'
import { admit, asyncReplies, faultAddressing, kAddressing, type AddressingState } from './route'

declare module '../../service/context' {
  interface SoapContext {
    /**
     * The WS-Addressing properties, read before the onEnvelope hooks run, where the service has addressing on
     * and the request used it (docs/addressing.md).
     */
    addressing: SoapAddressing | undefined
  }
}

class AddressingProtocol implements Protocol {
  readonly understood = ADDRESSING_HEADERS
  readonly policies: readonly string[]
  readonly statesActions = true
  readonly #policy: AddressingPolicy
  readonly #desk: ReplyDesk

  constructor (policy: AddressingPolicy, desk: ReplyDesk) {
    this.#policy = policy
    this.#desk = desk
    this.policies = [addressingAssertion(policy)]
  }

  afterDecode (exchange: Exchange): void {
    const { soap } = exchange
    const addressing = readAddressing(soap.decoded.headers, {
      version: soap.version,
      soapAction: soap.action,
      policy: this.#policy
    })
    soap.addressing = addressing
    if (addressing === undefined) return
    const options = this.#policy.asyncReplies
    const state: AddressingState = {
      asyncReplies: options, delivery: undefined, replyAction: undefined, replyMessageId: undefined
    }
    exchange.setState(kAddressing, state)
    state.delivery = admit(exchange, options, addressing, this.#desk.shared)
  }

  /** An asynchronous reply holds its place until it leaves: a fault that gives it up answers on the connection. */
  repliesAway (exchange: Exchange): boolean {
    return exchange.state(kAddressing)?.delivery !== undefined
  }

  /**
   * wsa:Action names the operation as the SOAP action does (the reader checked that the two agree), and must be
   * one of the service's.
   */
  beforeDispatch (exchange: Exchange): string | undefined {
    const { soap, service } = exchange
    const addressing = soap.addressing
    if (addressing === undefined) return undefined
    if (!service.byAction.has(addressing.action)) {
      throw addressingFault({
        namespace: addressing.namespace,
        version: soap.version,
        problem: 'action',
        why: `no operation of ${service.name} has the action ${addressing.action}`,
        action: { action: addressing.action, soapAction: soap.action }
      })
    }
    return addressing.action
  }

  /** Past the checks after dispatch (WS-Security's): a fault from here on may be posted to FaultTo. */
  afterDispatch (exchange: Exchange): void {
    const slot = exchange.state(kAddressing)?.delivery
    if (slot !== undefined) slot.authenticated = true
  }

  onReply (exchange: Exchange, op: Operation): string {
    const addressing = exchange.soap.addressing
    const state = exchange.state(kAddressing)
    if (addressing === undefined || state === undefined) return ''
    state.replyAction = op.outputAction
    state.replyMessageId = newMessageId()
    return replyHeaders(addressing, op.outputAction, replyEndpoint(addressing, false), state.replyMessageId)
  }

  onFault (exchange: Exchange, fault: SoapFault): string | undefined {
    return faultAddressing(exchange, fault)
  }
}

/** WS-Addressing; the asynchronous replies of the registration's services go through `desk`. */
export function addressingModule (desk: ReplyDesk): ProtocolModule {
  return {
    key: 'addressing',
    compile (value, { name }) {
      const policy = addressingPolicy(name, value)
      if (policy === undefined) return undefined
      if (policy.asyncReplies !== undefined) desk.register(name, policy.asyncReplies)
      return new AddressingProtocol(policy, desk)
    },
    route (_instance, value) {
      return value === undefined || value === false ? undefined : { onSend: asyncReplies(desk) }
    }
  }
}
