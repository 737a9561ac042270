/**
 * Stage 4: dispatch (PROTOCOL.md "Dispatch"). The operation is the Body's
 * first child element, looked up by `{namespace}localName` in a Map; the
 * action routes an empty Body and, with `strictAction`, must agree with the
 * element. Every miss is a Sender (1.1: Client) fault naming what was received.
 */
import type { SoapContext } from './context'
import { SoapFault } from './fault'
import type { Operation, Service } from './service'

function senderFault (reason: string): SoapFault {
  return new SoapFault({ code: 'Sender', reason })
}

export function dispatch (service: Service, soap: SoapContext): Operation {
  const body = soap.body
  const action = soap.action
  if (body.length === 0) {
    const op = action === undefined ? undefined : service.byAction.get(action)
    if (op === undefined) {
      throw senderFault(`The Body is empty and ${action === undefined ? 'no action was given' : `no operation of ${service.name} has the action ${action}`}`)
    }
    if (op.info.element !== undefined) throw senderFault(`Operation ${op.info.name} expects the element ${op.info.element}; the Body is empty`)
    return op
  }
  const first = body[0]
  const op = service.byElement.get(`{${first.namespace}}${first.localName}`)
  if (op === undefined) throw senderFault(`No operation of ${service.name} takes the element {${first.namespace}}${first.localName}`)
  if (body.length > 1) throw senderFault(`The Body holds ${body.length} elements; operation ${op.info.name} takes one`)
  if (service.strictAction && action !== undefined && action !== op.info.action) {
    throw senderFault(`The action ${action} does not match operation ${op.info.name}, whose action is ${op.info.action}`)
  }
  return op
}
