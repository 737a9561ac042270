/** Reading a Security header's elements, in the decoded tree or the signing view: their element children and text. */
import { isWhitespace, trimXmlSpace } from '../../xml/chars'
import { securityFault, type SecurityFaultName } from './faults'

/** An element of either tree, as read here (XmlElement, SigningElement). */
interface Parent<E> {
  readonly children: ReadonlyArray<E | string>
}

/** An element's attributes, in either tree. */
interface Attributed {
  readonly attributes: ReadonlyArray<{ readonly namespace: string, readonly localName: string, readonly value: string }>
}

/** The value of an unqualified attribute (or one in `namespace`), XML white space around it let go. */
export function attributeIn (element: Attributed, localName: string, namespace = ''): string | undefined {
  const value = element.attributes.find((a) => a.namespace === namespace && a.localName === localName)?.value
  return value === undefined ? undefined : trimXmlSpace(value)
}

/** The element children of `element`; text other than white space between them is `fault`. */
export function childElements<E extends Parent<E>> (element: E, fault: SecurityFaultName): E[] {
  const out: E[] = []
  for (const child of element.children) {
    if (typeof child !== 'string') out.push(child)
    else if (!isWhitespace(child)) throw securityFault(fault)
  }
  return out
}

/** The text of an element that holds text only, at most `max` characters; a child element, or more, is `fault`. */
export function textOf<E extends Parent<E>> (element: E, fault: SecurityFaultName, max = Infinity): string {
  let out = ''
  for (const child of element.children) {
    if (typeof child !== 'string') throw securityFault(fault)
    out += child
  }
  if (out.length > max) throw securityFault(fault)
  return out
}
