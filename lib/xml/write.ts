/**
 * A decoded element written back as XML that stands on its own: each
 * element and attribute prefix is declared where it is first used, so the
 * copy keeps its names wherever it is put (a header block echoed into a
 * reply, say). Prefixes used only inside text (a QName value) are not
 * declared: the decoded view does not keep them.
 */
import type { XmlElement } from './element'
import { escapeAttribute, escapeXml } from './escape'

/** `extra` is written as given, after the element's own attributes: serialised attributes, each with a leading space. */
export function writeElement (element: XmlElement, extra = ''): string {
  return write(element, new Map([['', ''], ['xml', 'http://www.w3.org/XML/1998/namespace']]), extra)
}

function write (element: XmlElement, inScope: ReadonlyMap<string, string>, extra: string): string {
  let scope = inScope
  let declarations = ''
  const declare = (prefix: string, namespace: string): void => {
    if (scope.get(prefix) === namespace) return
    if (scope === inScope) scope = new Map(inScope)
    ;(scope as Map<string, string>).set(prefix, namespace)
    declarations += prefix === '' ? ` xmlns="${escapeAttribute(namespace)}"` : ` xmlns:${prefix}="${escapeAttribute(namespace)}"`
  }
  declare(element.prefix, element.namespace)
  let attributes = ''
  for (const a of element.attributes) {
    if (a.prefix !== '') declare(a.prefix, a.namespace)
    attributes += ` ${a.name}="${escapeAttribute(a.value)}"`
  }
  let out = `<${element.name}${declarations}${attributes}${extra}>`
  for (const child of element.children) out += typeof child === 'string' ? escapeXml(child) : write(child, scope, '')
  return out + `</${element.name}>`
}
