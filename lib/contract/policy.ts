/**
 * The WS-Policy of a contract's binding (WS-Policy 1.5 and the 2004/09
 * submission; WS-PolicyAttachment §4.1): the policies the binding holds or
 * references, by `wsp:PolicyReference` to a `wsu:Id` (or `xml:id`) in one of
 * the contract's documents, and the assertions in them. Operators
 * (`wsp:ExactlyOne`, `wsp:All`, nested `wsp:Policy`) are looked through: a
 * binding that offers an assertion in any alternative is read as offering it.
 * What is asserted is left to the feature that knows it; an unknown
 * assertion is ignored.
 */
import type { Element as DomElement } from '@xmldom/xmldom'
import { attr, childElements } from './dom'
import { WSAM_NS, WSAW_NS, WSDL_NS, WSP04_NS, WSP_NS, WSU_NS, XML_NS } from '../namespaces'

const POLICY_NS: ReadonlySet<string | null> = new Set([WSP_NS, WSP04_NS])

/** `wsu:Id` or `xml:id` of a policy. */
function idOf (element: DomElement): string | undefined {
  return element.getAttributeNS(WSU_NS, 'Id') || element.getAttributeNS(XML_NS, 'id') || undefined
}

/** Every wsp:Policy with an id in the contract's documents, by id. */
function policiesById (definitions: readonly DomElement[]): Map<string, DomElement> {
  const out = new Map<string, DomElement>()
  const visit = (element: DomElement, depth: number): void => {
    if (depth > 8) return
    for (const child of childElements(element)) {
      if (POLICY_NS.has(child.namespaceURI) && child.localName === 'Policy') {
        const id = idOf(child)
        if (id !== undefined && !out.has(id)) out.set(id, child)
      } else if (child.namespaceURI === WSDL_NS) {
        visit(child, depth + 1)
      }
    }
  }
  for (const d of definitions) visit(d, 0)
  return out
}

/** The assertions of the policies attached to `subject` (a wsdl:binding), operators looked through, references followed once each. */
export function assertionsOf (subject: DomElement, definitions: readonly DomElement[]): DomElement[] {
  const byId = policiesById(definitions)
  const assertions: DomElement[] = []
  const followed = new Set<DomElement>()
  const expand = (element: DomElement): void => {
    if (followed.has(element)) return
    followed.add(element)
    for (const child of childElements(element)) {
      if (!POLICY_NS.has(child.namespaceURI)) {
        assertions.push(child)
      } else if (child.localName === 'PolicyReference') {
        reference(attr(child, 'URI'))
      } else if (child.localName === 'Policy' || child.localName === 'ExactlyOne' || child.localName === 'All') {
        expand(child)
      }
    }
  }
  const reference = (uri: string | undefined): void => {
    const policy = uri !== undefined && uri.startsWith('#') ? byId.get(uri.slice(1)) : undefined
    if (policy !== undefined) expand(policy)
  }
  // wsp:PolicyURIs (2004/09) lists references in an attribute.
  for (const uri of (subject.getAttributeNS(WSP04_NS, 'PolicyURIs') || subject.getAttributeNS(WSP_NS, 'PolicyURIs') || '').split(/\s+/)) if (uri !== '') reference(uri)
  for (const child of childElements(subject)) {
    if (!POLICY_NS.has(child.namespaceURI)) continue
    if (child.localName === 'PolicyReference') reference(attr(child, 'URI'))
    else if (child.localName === 'Policy') expand(child)
  }
  return assertions
}

/** Whether an assertion is marked optional (`wsp:Optional="true"`). */
export function isOptional (assertion: DomElement): boolean {
  const value = assertion.getAttributeNS(WSP_NS, 'Optional') || assertion.getAttributeNS(WSP04_NS, 'Optional')
  return value === 'true' || value === '1'
}

/**
 * WS-Addressing as a binding declares it: `wsam:Addressing` (Metadata §3.1:
 * required unless optional) or `wsaw:UsingAddressing` (WSDL Binding §3.1:
 * required with `wsdl:required="true"`), in a policy or directly in the
 * binding. Undefined when it declares neither.
 */
export function addressingOf (binding: DomElement, definitions: readonly DomElement[]): { readonly required: boolean } | undefined {
  let found: { required: boolean } | undefined
  const direct = childElements(binding).filter((c) => c.namespaceURI === WSAW_NS && c.localName === 'UsingAddressing')
  for (const assertion of [...direct, ...assertionsOf(binding, definitions)]) {
    let required: boolean
    if (assertion.namespaceURI === WSAM_NS && assertion.localName === 'Addressing') required = !isOptional(assertion)
    else if (assertion.namespaceURI === WSAW_NS && assertion.localName === 'UsingAddressing') required = assertion.getAttributeNS(WSDL_NS, 'required') === 'true'
    else continue
    found = { required: (found?.required ?? false) || required }
  }
  return found
}

/** The action a portType message states (`wsam:Action`, or the older `wsaw:Action`); undefined when none. */
export function statedAction (message: DomElement): string | undefined {
  return message.getAttributeNS(WSAM_NS, 'Action') || message.getAttributeNS(WSAW_NS, 'Action') || undefined
}
