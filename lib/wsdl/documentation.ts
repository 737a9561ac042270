/**
 * The service page's documentation: the `wsdl:documentation` a served WSDL
 * gives its definitions, service and port type (the service's), and each
 * port type operation (that operation's), as text. A generated WSDL has none.
 */
import { DOMParser, type Element as DomElement } from '@xmldom/xmldom'
import { ADDRESS, WSDL_NS } from '../namespaces'
import type { Documentation } from './page'

const SERVICE_PARENTS: ReadonlySet<string> = new Set(['definitions', 'service', 'portType'])

/** The text of a `wsdl:documentation`, its markup dropped, its white space trimmed. */
function textOf (element: DomElement): string {
  return (element.textContent ?? '').trim()
}

/** The documentation of a WSDL document (the address placeholder, U+0000, taken out: XML cannot hold it). */
export function documentationOf (wsdl: string): Documentation {
  const service: string[] = []
  const operations = new Map<string, string[]>()
  // The document was read when the contract was: it is well-formed.
  const doc = new DOMParser({ onError: () => undefined }).parseFromString(wsdl.replaceAll(ADDRESS, ''), 'text/xml')
  for (const element of Array.from(doc.getElementsByTagNameNS(WSDL_NS, 'documentation'))) {
    const parent = element.parentNode as DomElement
    const text = textOf(element)
    if (text === '') continue
    if (SERVICE_PARENTS.has(parent.localName as string)) {
      service.push(text)
    } else if (parent.localName === 'operation' && (parent.parentNode as DomElement).localName === 'portType') {
      const name = parent.getAttribute('name') as string
      operations.set(name, [...(operations.get(name) ?? []), text])
    }
  }
  return { service, operations }
}

export const NO_DOCUMENTATION: Documentation = { service: [], operations: new Map() }
