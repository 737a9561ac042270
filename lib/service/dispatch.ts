/**
 * Stage 4: dispatch (docs/protocol.md "Dispatch"). The operation is the Body's
 * first child element, looked up by namespace and local name; the
 * action routes an empty Body and, with `strictAction`, must agree with the
 * element; so does WS-Addressing's `wsa:Action`, which must be one of the
 * service's (docs/addressing.md). Every miss is a Sender (1.1: Client) fault
 * naming what was received.
 */
import type { SoapContext } from './context'
import { SoapFault } from '../soap/fault'
import type { Operation, Service } from './compile'
import { addressingFault } from '../ws/addressing/faults'

function senderFault (reason: string): SoapFault {
  return new SoapFault({ code: 'Sender', reason })
}

export function dispatch (service: Service, soap: SoapContext): Operation {
  const { tree, bodyNodes } = soap.decoded
  // WS-Addressing: wsa:Action names the operation as the SOAP action does (the reader checked that the two agree).
  const addressing = soap.addressing
  const action = addressing?.action ?? soap.action
  if (addressing !== undefined && !service.byAction.has(addressing.action)) {
    throw addressingFault({
      namespace: addressing.namespace,
      version: soap.version,
      problem: 'action',
      why: `no operation of ${service.name} has the action ${addressing.action}`,
      action: { action: addressing.action, soapAction: soap.action }
    })
  }
  if (bodyNodes.length === 0) {
    const op = action === undefined ? undefined : service.byAction.get(action)
    if (op === undefined) {
      throw senderFault(`The Body is empty and ${action === undefined ? 'no action was given' : `no operation of ${service.name} has the action ${action}`}`)
    }
    if (op.info.element !== undefined) throw senderFault(`Operation ${op.info.name} expects the element ${op.info.element}; the Body is empty`)
    return op
  }
  const first = tree.name(bodyNodes[0])
  const op = service.byElement.get(first.namespace)?.get(first.localName)
  if (op === undefined) throw senderFault(`No operation of ${service.name} takes the element {${first.namespace}}${first.localName}`)
  if (bodyNodes.length > 1) throw senderFault(`The Body holds ${bodyNodes.length} elements; operation ${op.info.name} takes one`)
  if ((service.strictAction || addressing !== undefined) && action !== undefined && action !== op.info.action) {
    throw senderFault(`The action ${action} does not match operation ${op.info.name}, whose action is ${op.info.action}`)
  }
  return op
}
