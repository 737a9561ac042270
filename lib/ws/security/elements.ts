/** Reading a Security header's elements: their element children, their text. */
import type { XmlElement } from '../../xml/element'
import { isWhitespace } from '../../xml/chars'
import { securityFault, type SecurityFaultName } from './faults'

/** The element children of `element`; text other than white space between them is `fault`. */
export function childElements (element: XmlElement, fault: SecurityFaultName): XmlElement[] {
  const out: XmlElement[] = []
  for (const child of element.children) {
    if (typeof child !== 'string') out.push(child)
    else if (!isWhitespace(child)) throw securityFault(fault)
  }
  return out
}

/** The text of an element that holds text only; a child element is `fault`. */
export function textOf (element: XmlElement, fault: SecurityFaultName): string {
  let out = ''
  for (const child of element.children) {
    if (typeof child !== 'string') throw securityFault(fault)
    out += child
  }
  return out
}
