/**
 * Stage 4: dispatch (docs/protocol.md "Dispatch"). The operation is the Body's
 * first child element, looked up by namespace and local name; the
 * action picks among operations that share that element, routes an empty
 * Body and, with `strictAction`, must agree with the
 * element; so does an action a protocol routes by instead (WS-Addressing's
 * `wsa:Action`, docs/addressing.md). Every miss is a Sender (1.1: Client)
 * fault naming what was received.
 */
import type { SoapContext } from './context'
import { SoapFault } from '../soap/fault'
import type { Operation, Service } from './compile'

function senderFault (reason: string): SoapFault {
  return new SoapFault({ code: 'Sender', reason })
}

/** `routed`: the action a protocol routes by (its steps before dispatch), which the operation's must then match. */
export function dispatch (service: Service, soap: SoapContext, routed?: string): Operation {
  const { tree, bodyNodes } = soap.decoded
  const action = routed ?? soap.action
  if (bodyNodes.length === 0) {
    const op = action === undefined ? undefined : service.byAction.get(action)
    if (op === undefined) {
      const why = action === undefined
        ? 'no action was given'
        : `no operation of ${service.name} has the action ${action}`
      throw senderFault(`The Body is empty and ${why}`)
    }
    if (op.info.element !== undefined) {
      throw senderFault(`Operation ${op.info.name} expects the element ${op.info.element}; the Body is empty`)
    }
    return op
  }
  const first = tree.name(bodyNodes[0])
  let op = service.byElement.get(first.namespace)?.get(first.localName)
  if (op === undefined) {
    throw senderFault(`No operation of ${service.name} takes the element {${first.namespace}}${first.localName}`)
  }
  if (bodyNodes.length > 1) {
    throw senderFault(`The Body holds ${bodyNodes.length} elements; operation ${op.info.name} takes one`)
  }
  const group = service.sharing.get(op)
  if (group !== undefined) {
    // Operations that share the element: the action breaks the tie.
    op = action === undefined ? undefined : group.get(action)
    if (op === undefined) {
      const names = [...group.values()].map((o) => o.info.name)
      const all = `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`
      const which = action === undefined ? 'no action was given' : `the action ${action} names none of them`
      const element = `{${first.namespace}}${first.localName}`
      throw senderFault(`Operations ${all} of ${service.name} take the element ${element}; ${which}`)
    }
  }
  if ((service.strictAction || routed !== undefined) && action !== undefined && action !== op.info.action) {
    throw senderFault(
      `The action ${action} does not match operation ${op.info.name}, whose action is ${op.info.action}`
    )
  }
  return op
}
