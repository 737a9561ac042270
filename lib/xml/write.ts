/**
 * A decoded element written back as XML that stands on its own: each
 * element and attribute prefix is declared where it is first used, so the
 * copy keeps its names wherever it is put (a header block echoed into a
 * reply, say). Prefixes used only inside text (a QName value) are not
 * declared: the decoded view does not keep them.
 */
import type { XmlElement } from './element'
import { escapeAttribute, escapeXml } from './escape'

/** An attribute set on the written element, in place of any it has of the same namespace and local name. */
export interface SetAttribute {
  readonly namespace: string
  readonly localName: string
  readonly value: string
  /** The prefix wanted for it; another is taken when the element uses this one for something else. */
  readonly prefix: string
}

const XML_NS = 'http://www.w3.org/XML/1998/namespace'

/**
 * With `set`, the element gets that attribute once (Namespaces in XML §6.3:
 * no two attributes with the same expanded name), under a prefix already
 * bound to its namespace on the element, else `set.prefix`, else
 * `set.prefix` followed by the first number that is free there.
 */
export function writeElement (element: XmlElement, set?: SetAttribute): string {
  return write(element, new Map([['', ''], ['xml', XML_NS]]), set)
}

function write (element: XmlElement, inScope: ReadonlyMap<string, string>, set: SetAttribute | undefined): string {
  let scope = inScope
  /** The declaration `prefix` needs here, if any; it is then in scope for the content. */
  const declare = (prefix: string, namespace: string): string => {
    if (scope.get(prefix) === namespace) return ''
    if (scope === inScope) scope = new Map(inScope)
    ;(scope as Map<string, string>).set(prefix, namespace)
    return prefix === '' ? ` xmlns="${escapeAttribute(namespace)}"` : ` xmlns:${prefix}="${escapeAttribute(namespace)}"`
  }
  let declarations = declare(element.prefix, element.namespace)
  // The prefixes this element's own names use: a prefix the added attribute takes must not be one of them.
  const used = new Map([[element.prefix, element.namespace]])
  let attributes = ''
  for (const a of element.attributes) {
    if (set !== undefined && a.namespace === set.namespace && a.localName === set.localName) continue
    if (a.prefix !== '') {
      declarations += declare(a.prefix, a.namespace)
      used.set(a.prefix, a.namespace)
    }
    attributes += ` ${a.name}="${escapeAttribute(a.value)}"`
  }
  if (set !== undefined) {
    const prefix = freePrefix(used, set)
    attributes += `${declare(prefix, set.namespace)} ${prefix}:${set.localName}="${escapeAttribute(set.value)}"`
  }
  let out = `<${element.name}${declarations}${attributes}>`
  for (const child of element.children) {
    out += typeof child === 'string' ? escapeXml(child) : write(child, scope, undefined)
  }
  return out + `</${element.name}>`
}

function freePrefix (used: ReadonlyMap<string, string>, set: SetAttribute): string {
  for (const [prefix, namespace] of used) if (prefix !== '' && namespace === set.namespace) return prefix
  let prefix = set.prefix
  for (let n = 1; used.has(prefix); n++) prefix = set.prefix + String(n)
  return prefix
}
