/** Reading the DOM of a contract's documents: the helpers every part of contract/ shares. */
import type { Element as DomElement } from '@xmldom/xmldom'

/** An element's children that are elements, in document order. */
export function childElements (node: DomElement): DomElement[] {
  const out: DomElement[] = []
  for (let child = node.firstChild; child !== null; child = child.nextSibling) {
    if (child.nodeType === 1) out.push(child as DomElement)
  }
  return out
}

/** An attribute's value, or undefined when the element does not have it. */
export function attr (node: DomElement, name: string): string | undefined {
  return node.hasAttribute(name) ? node.getAttribute(name) as string : undefined
}
