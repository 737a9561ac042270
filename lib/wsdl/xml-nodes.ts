/**
 * Description, the XML it is written in: elements as nodes, rendered
 * indented, and the prefixes a document gives its namespaces; the schemas
 * (xsd-write.ts) and the WSDL document (wsdl.ts) are built of them.
 */
import { escapeAttribute, escapeXml } from '../xml/escape'

// ------------------------------------------------------------ XML nodes ---

/** An element to be written; attributes keep their order, `undefined` ones are left out. */
export interface XmlNode {
  readonly name: string
  readonly attributes: ReadonlyArray<readonly [string, string | undefined]>
  readonly children: readonly XmlNode[] | string
  /** Markup written as it is instead of the element (a policy assertion given serialised). */
  readonly markup?: string
}

export function node (
  name: string, attributes: Record<string, string | undefined> = {}, children: readonly XmlNode[] | string = []
): XmlNode {
  return { name, attributes: Object.entries(attributes), children }
}

/** Writes a node indented by two spaces a level. Text is escaped; ADDRESS (lib/namespaces.ts) passes through. */
export function render (root: XmlNode, depth = 0): string {
  const indent = '  '.repeat(depth)
  if (root.markup !== undefined) return `${indent}${root.markup}\n`
  let start = `${indent}<${root.name}`
  for (const [name, value] of root.attributes) {
    if (value !== undefined) start += ` ${name}="${escapeAttribute(value)}"`
  }
  if (typeof root.children === 'string') return `${start}>${escapeXml(root.children)}</${root.name}>\n`
  if (root.children.length === 0) return `${start}/>\n`
  let out = `${start}>\n`
  for (const child of root.children) out += render(child, depth + 1)
  return `${out}${indent}</${root.name}>\n`
}

// --------------------------------------------------------------- prefixes ---

/** The prefix of every namespace a description names: `tns` for the target namespace, then ns1, ns2... */
export class Prefixes {
  readonly byNamespace = new Map<string, string>()
  constructor (targetNamespace: string) {
    this.byNamespace.set(targetNamespace, 'tns')
  }

  of (namespace: string): string {
    let prefix = this.byNamespace.get(namespace)
    if (prefix === undefined) {
      prefix = `ns${this.byNamespace.size}`
      this.byNamespace.set(namespace, prefix)
    }
    return prefix
  }

  qname (namespace: string, localName: string): string {
    return `${this.of(namespace)}:${localName}`
  }

  /** `xmlns:` declarations for every namespace named so far. */
  declarations (): Record<string, string> {
    const out: Record<string, string> = {}
    for (const [namespace, prefix] of this.byNamespace) out[`xmlns:${prefix}`] = namespace
    return out
  }
}
