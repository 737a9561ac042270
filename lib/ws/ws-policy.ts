/**
 * WS-Policy attachment (WS-Policy 1.5 and the 2004/09 submission;
 * WS-PolicyAttachment §4.1), shared by the protocols that read a contract's
 * policies: every element of the policies attached to a WSDL component
 * (inline `wsp:Policy`, `wsp:PolicyReference URI="#id"` to a policy with that
 * `wsu:Id` or `xml:id` in the contract's documents, the 2004/09
 * `wsp:PolicyURIs` attribute), each visited once, references followed once.
 * What an assertion means is left to the protocol that knows it. Walked
 * (`walkPolicies`), operators (`wsp:ExactlyOne`, `wsp:All`) are gone through
 * like any element, so an assertion in any alternative is seen; in normal
 * form (`alternativesOf`), each alternative is one list of assertions.
 */
import type { Element as DomElement } from '@xmldom/xmldom'
import { SOAP_ERR_CONTRACT_UNSUPPORTED } from '../errors'
import { WSDL_NS, WSP_2004_NS, WSP_NS, WSU_NS, XML_NS } from '../namespaces'

const POLICY_NS: ReadonlySet<string | null> = new Set([WSP_NS, WSP_2004_NS])

function elementsOf (node: DomElement): DomElement[] {
  const out: DomElement[] = []
  for (let child = node.firstChild; child !== null; child = child.nextSibling) {
    if (child.nodeType === 1) out.push(child as DomElement)
  }
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
        const id = child.getAttributeNS(WSU_NS, 'Id') ||
          child.getAttributeNS(XML_NS, 'id') ||
          child.getAttribute('Id') ||
          ''
        if (id !== '' && !byId.has(id)) byId.set(id, child)
      } else if (child.namespaceURI === WSDL_NS && depth < 4) {
        visit(child, depth + 1)
      }
    }
  }
  for (const d of definitions) visit(d, 0)
  return byId
}

/** References a subject's policies make: its `wsp:PolicyURIs` attribute's URIs, and the attribute's name. */
function policyUris (subject: DomElement): { uris: string[], name: string } {
  const namespace = subject.hasAttributeNS(WSP_2004_NS, 'PolicyURIs') ? WSP_2004_NS : WSP_NS
  const uris = subject.getAttributeNS(namespace, 'PolicyURIs') ?? ''
  return { uris: uris.split(/\s+/).filter((uri) => uri !== ''), name: `{${namespace}}PolicyURIs` }
}

/** Calls `visit` with every element of the policies attached to `subjects`, each once. */
export function walkPolicies (
  definitions: readonly DomElement[],
  subjects: readonly DomElement[],
  visit: (element: DomElement) => void
): void {
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
    for (const uri of policyUris(subject).uris) reference(uri)
    for (const child of elementsOf(subject)) {
      if (isPolicy(child, 'Policy') || isPolicy(child, 'PolicyReference')) walk(child)
    }
  }
}

/** Whether an assertion is marked optional (`wsp:Optional="true"`). */
export function isOptional (assertion: DomElement): boolean {
  const value = assertion.getAttributeNS(WSP_NS, 'Optional') || assertion.getAttributeNS(WSP_2004_NS, 'Optional')
  return value === 'true' || value === '1'
}

/** A WSDL component policies attach to (WS-PolicyAttachment §4.1), and how an error names it. */
export interface PolicySubject {
  readonly node: DomElement
  readonly name: string
}

/** An assertion of a policy alternative, with the subject whose policy holds it. */
export interface AttachedAssertion {
  readonly assertion: DomElement
  readonly subject: string
  /**
   * For a reference to no policy of the documents: its URI, and what refers
   * (`{…}PolicyReference`, `{…}PolicyURIs`).
   */
  readonly unresolved?: { readonly uri: string, readonly name: string }
}

/** The most alternatives a merged policy may have, and the deepest its operators may nest. */
export const MAX_ALTERNATIVES = 64
export const MAX_POLICY_DEPTH = 16

type Alternatives = AttachedAssertion[][]

/**
 * The normal form (WS-Policy 1.5 Framework §4.1, §4.3.6) of the policies
 * attached to `subjects`, merged (an effective policy is all of them together):
 * its alternatives, each the assertions it holds. `wsp:Policy` and `wsp:All`
 * are the cross product of their terms, `wsp:ExactlyOne` their union, an
 * assertion with `wsp:Optional="true"` two alternatives (with it, without it).
 * An assertion's own nested policy is left to the assertion. A reference to
 * no policy of the documents is kept as an assertion of its own
 * (`unresolved`), for the reader to refuse: what it asks is unknown. A policy
 * referenced from inside itself, or attached twice, adds nothing. Past MAX_ALTERNATIVES
 * alternatives or MAX_POLICY_DEPTH levels: SOAP_ERR_CONTRACT_UNSUPPORTED.
 */
export function alternativesOf (definitions: readonly DomElement[], subjects: readonly PolicySubject[]): Alternatives {
  const byId = policiesById(definitions)
  const bounded = (alternatives: number, subject: string): void => {
    if (alternatives > MAX_ALTERNATIVES) {
      throw new SOAP_ERR_CONTRACT_UNSUPPORTED(`a WS-Policy of more than ${MAX_ALTERNATIVES} alternatives`, subject)
    }
  }
  const product = (a: Alternatives, b: Alternatives, subject: string): Alternatives => {
    bounded(a.length * b.length, subject)
    return a.flatMap((x) => b.map((y) => [...x, ...y]))
  }
  const expanding = new Set<DomElement>()
  const attached = new Set<DomElement>()
  const reference = (node: DomElement, uri: string, name: string, subject: string, depth: number): Alternatives => {
    const target = uri.startsWith('#') ? byId.get(uri.slice(1)) : undefined
    if (target === undefined) return [[{ assertion: node, subject, unresolved: { uri, name } }]]
    // A policy inside itself, or attached twice, adds nothing to it (wsp:All is idempotent).
    if (expanding.has(target) || (depth === 0 && attached.has(target))) return [[]]
    if (depth === 0) attached.add(target)
    expanding.add(target)
    const out = expression(target, subject, depth + 1)
    expanding.delete(target)
    return out
  }
  const expression = (node: DomElement, subject: string, depth: number): Alternatives => {
    if (depth > MAX_POLICY_DEPTH) {
      throw new SOAP_ERR_CONTRACT_UNSUPPORTED(`a WS-Policy nested more than ${MAX_POLICY_DEPTH} levels deep`, subject)
    }
    if (isPolicy(node, 'PolicyReference')) {
      const name = `{${node.namespaceURI as string}}PolicyReference`
      return reference(node, node.getAttribute('URI') ?? '', name, subject, depth)
    }
    if (isPolicy(node, 'Policy') || isPolicy(node, 'All')) {
      let all: Alternatives = [[]]
      for (const term of elementsOf(node)) all = product(all, expression(term, subject, depth + 1), subject)
      return all
    }
    if (isPolicy(node, 'ExactlyOne')) {
      const out = elementsOf(node).flatMap((term) => expression(term, subject, depth + 1))
      bounded(out.length, subject)
      return out
    }
    return isOptional(node) ? [[{ assertion: node, subject }], []] : [[{ assertion: node, subject }]]
  }
  let merged: Alternatives = [[]]
  for (const { node, name } of subjects) {
    const uris = policyUris(node)
    const policies: Alternatives[] = uris.uris.map((uri) => reference(node, uri, uris.name, name, 0))
    for (const child of elementsOf(node)) {
      if (isPolicy(child, 'Policy') || isPolicy(child, 'PolicyReference')) policies.push(expression(child, name, 0))
    }
    for (const alternatives of policies) merged = product(merged, alternatives, name)
  }
  return merged
}

/** The assertions nested in an assertion's policy, its operators read through (every alternative at once). */
export function nestedAssertions (assertion: DomElement): DomElement[] {
  const out: DomElement[] = []
  const visit = (node: DomElement, depth: number): void => {
    for (const child of elementsOf(node)) {
      if (isPolicy(child, 'Policy') || isPolicy(child, 'All') || isPolicy(child, 'ExactlyOne')) {
        if (depth < MAX_POLICY_DEPTH) visit(child, depth + 1)
      } else if (depth > 0) {
        out.push(child)
      }
    }
  }
  visit(assertion, 0)
  return out
}
