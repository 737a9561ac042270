/**
 * WS-Policy attachment (WS-Policy 1.5 and the 2004/09 submission;
 * WS-PolicyAttachment §4.1), shared by the protocols that read a contract's
 * policies: every element of the policies attached to a WSDL component
 * (inline `wsp:Policy`, `wsp:PolicyReference URI="#id"` to a policy with that
 * `wsu:Id` or `xml:id` in the contract's documents, the 2004/09
 * `wsp:PolicyURIs` attribute), each visited once, references followed once.
 * What an assertion means is left to the protocol that knows it; operators
 * (`wsp:ExactlyOne`, `wsp:All`) are walked through like any element, so an
 * assertion in any alternative is seen.
 */
import type { Element as DomElement } from '@xmldom/xmldom'
import { WSDL_NS, WSP_2004_NS, WSP_NS, WSU_NS, XML_NS } from '../namespaces'

const POLICY_NS: ReadonlySet<string | null> = new Set([WSP_NS, WSP_2004_NS])

function elementsOf (node: DomElement): DomElement[] {
  const out: DomElement[] = []
  for (let child = node.firstChild; child !== null; child = child.nextSibling) if (child.nodeType === 1) out.push(child as DomElement)
  return out
}

function isPolicy (node: DomElement, localName: string): boolean {
  return POLICY_NS.has(node.namespaceURI) && node.localName === localName
}

/** The policies of `definitions` (at their top, or in a WSDL element) by `wsu:Id` or `xml:id`. */
function policiesById (definitions: readonly DomElement[]): Map<string, DomElement> {
  const byId = new Map<string, DomElement>()
  const visit = (parent: DomElement, depth: number): void => {
    for (const child of elementsOf(parent)) {
      if (isPolicy(child, 'Policy')) {
        const id = child.getAttributeNS(WSU_NS, 'Id') || child.getAttributeNS(XML_NS, 'id') || child.getAttribute('Id') || ''
        if (id !== '' && !byId.has(id)) byId.set(id, child)
      } else if (child.namespaceURI === WSDL_NS && depth < 4) {
        visit(child, depth + 1)
      }
    }
  }
  for (const d of definitions) visit(d, 0)
  return byId
}

/** Calls `visit` with every element of the policies attached to `subjects`, each once. */
export function walkPolicies (definitions: readonly DomElement[], subjects: readonly DomElement[], visit: (element: DomElement) => void): void {
  const byId = policiesById(definitions)
  const seen = new Set<DomElement>()
  const reference = (uri: string | null): void => {
    const target = uri !== null && uri.startsWith('#') ? byId.get(uri.slice(1)) : undefined
    if (target !== undefined) walk(target)
  }
  // Bounded: each element is walked once, references included.
  const walk = (node: DomElement): void => {
    if (seen.has(node)) return
    seen.add(node)
    if (isPolicy(node, 'PolicyReference')) {
      reference(node.getAttribute('URI'))
      return
    }
    visit(node)
    for (const child of elementsOf(node)) walk(child)
  }
  for (const subject of subjects) {
    for (const uri of (subject.getAttributeNS(WSP_2004_NS, 'PolicyURIs') || subject.getAttributeNS(WSP_NS, 'PolicyURIs') || '').split(/\s+/)) if (uri !== '') reference(uri)
    for (const child of elementsOf(subject)) if (isPolicy(child, 'Policy') || isPolicy(child, 'PolicyReference')) walk(child)
  }
}

/** Whether an assertion is marked optional (`wsp:Optional="true"`). */
export function isOptional (assertion: DomElement): boolean {
  const value = assertion.getAttributeNS(WSP_NS, 'Optional') || assertion.getAttributeNS(WSP_2004_NS, 'Optional')
  return value === 'true' || value === '1'
}
