/**
 * What a contract's WSDL says of WS-Addressing: the policy its binding
 * declares (lib/ws/ws-policy.ts walks the policies), and the actions its
 * messages state; and what its policies ask of each operation's security.
 */
import type { Element as DomElement } from '@xmldom/xmldom'
import { childElements } from './dom'
import { WSAM_NS, WSAW_NS, WSDL_NS, WSOMA_NS, WSOMA_W3C_NS } from '../namespaces'
import { alternativesOf, isOptional, walkPolicies, type PolicySubject } from '../ws/ws-policy'
import { judgeAlternative, type OperationSecurityPolicy } from '../ws/security/security-policy'

/**
 * WS-Addressing as a binding declares it: `wsam:Addressing` (Metadata §3.1:
 * required unless optional) or `wsaw:UsingAddressing` (WSDL Binding §3.1:
 * required with `wsdl:required="true"`), in a policy or directly in the
 * binding. Undefined when it declares neither.
 */
export function addressingOf (
  binding: DomElement, definitions: readonly DomElement[]
): { readonly required: boolean } | undefined {
  let found: { required: boolean } | undefined
  const consider = (assertion: DomElement): void => {
    let required: boolean
    if (assertion.namespaceURI === WSAM_NS && assertion.localName === 'Addressing') {
      required = !isOptional(assertion)
    } else if (assertion.namespaceURI === WSAW_NS && assertion.localName === 'UsingAddressing') {
      required = assertion.getAttributeNS(WSDL_NS, 'required') === 'true'
    } else return
    found = { required: (found?.required ?? false) || required }
  }
  for (const child of childElements(binding)) consider(child)
  walkPolicies(definitions, [binding], consider)
  return found
}

/**
 * MTOM as a binding's policy asks for it (WS-MTOMPolicy 1.0 §3: an endpoint
 * policy subject's `wsoma:MTOM`, or the submission's
 * `wsoma:OptimizedMimeSerialization`): `'always'` when an assertion is not
 * optional, `'request'` when every one is; undefined when it states neither.
 */
export function mtomOf (binding: DomElement, definitions: readonly DomElement[]): 'always' | 'request' | undefined {
  let found: 'always' | 'request' | undefined
  walkPolicies(definitions, [binding], (assertion) => {
    const mtom = (assertion.namespaceURI === WSOMA_NS && assertion.localName === 'OptimizedMimeSerialization') ||
      (assertion.namespaceURI === WSOMA_W3C_NS && assertion.localName === 'MTOM')
    if (mtom) found = found === 'always' || !isOptional(assertion) ? 'always' : 'request'
  })
  return found
}

/** The action a portType message states (`wsam:Action`, or the older `wsaw:Action`); undefined when none. */
export function statedAction (message: DomElement): string | undefined {
  return message.getAttributeNS(WSAM_NS, 'Action') || message.getAttributeNS(WSAW_NS, 'Action') || undefined
}

/** The subjects of one operation's policies (WS-PolicyAttachment §4.1), by where they apply. */
export interface OperationSubjects {
  /** The service, the ports served, their bindings and portType; the binding and portType operations. */
  readonly operation: readonly PolicySubject[]
  /** The inputs of those operations and the input message. */
  readonly input: readonly PolicySubject[]
  /** Their outputs, and those messages. */
  readonly reply: readonly PolicySubject[]
  /** Their faults, and those messages. */
  readonly fault: readonly PolicySubject[]
}

/**
 * The alternatives of an operation's effective policies (WS-PolicyAttachment
 * §4.1: a message's is the merge of its service, endpoint, operation and
 * message subjects'), judged for WS-Security: its request's, and its outputs'
 * and faults' message policies.
 */
export function operationSecurity (
  definitions: readonly DomElement[], subjects: OperationSubjects
): OperationSecurityPolicy {
  const request = alternativesOf(definitions, [...subjects.operation, ...subjects.input])
  return {
    request: request.map((a) => judgeAlternative(a, 'request')),
    reply: alternativesOf(definitions, subjects.reply).map((a) => judgeAlternative(a, 'output')),
    fault: alternativesOf(definitions, subjects.fault).map((a) => judgeAlternative(a, 'fault'))
  }
}
