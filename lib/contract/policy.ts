/**
 * What a contract's WSDL says of WS-Addressing: the policy its binding
 * declares (lib/ws/policy.ts walks the policies), and the actions its
 * messages state.
 */
import type { Element as DomElement } from '@xmldom/xmldom'
import { childElements } from './dom'
import { WSAM_NS, WSAW_NS, WSDL_NS } from '../namespaces'
import { isOptional, walkPolicies } from '../ws/policy'

/**
 * WS-Addressing as a binding declares it: `wsam:Addressing` (Metadata §3.1:
 * required unless optional) or `wsaw:UsingAddressing` (WSDL Binding §3.1:
 * required with `wsdl:required="true"`), in a policy or directly in the
 * binding. Undefined when it declares neither.
 */
export function addressingOf (binding: DomElement, definitions: readonly DomElement[]): { readonly required: boolean } | undefined {
  let found: { required: boolean } | undefined
  const consider = (assertion: DomElement): void => {
    let required: boolean
    if (assertion.namespaceURI === WSAM_NS && assertion.localName === 'Addressing') required = !isOptional(assertion)
    else if (assertion.namespaceURI === WSAW_NS && assertion.localName === 'UsingAddressing') required = assertion.getAttributeNS(WSDL_NS, 'required') === 'true'
    else return
    found = { required: (found?.required ?? false) || required }
  }
  for (const child of childElements(binding)) consider(child)
  walkPolicies(definitions, [binding], consider)
  return found
}

/** The action a portType message states (`wsam:Action`, or the older `wsaw:Action`); undefined when none. */
export function statedAction (message: DomElement): string | undefined {
  return message.getAttributeNS(WSAM_NS, 'Action') || message.getAttributeNS(WSAW_NS, 'Action') || undefined
}
