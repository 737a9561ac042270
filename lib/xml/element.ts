/**
 * The plain-data view of a decoded element, made from the decoded tree
 * (xml/tree.ts) when someone asks for it: `request.soap.body`, header blocks.
 */

/** An attribute of a decoded element. Namespace declarations are not listed. */
export interface XmlAttribute {
  /** The name as written, prefix included. */
  readonly name: string
  readonly prefix: string
  readonly localName: string
  /** The attribute's namespace URI; `''` for an unprefixed attribute. */
  readonly namespace: string
  readonly value: string
}

/** An element of a header block or of the Body's payload, as the decoder saw it. */
export interface XmlElement {
  /** The name as written, prefix included. */
  readonly name: string
  readonly prefix: string
  readonly localName: string
  /** The element's namespace URI; `''` when it has none. */
  readonly namespace: string
  readonly attributes: readonly XmlAttribute[]
  /** Child elements and text (CDATA sections included), in document order; adjacent text is joined. */
  readonly children: ReadonlyArray<XmlElement | string>
}

/** The text of an element and its descendants, in document order (the DOM's `textContent`). */
export function textContent (element: XmlElement): string {
  let out = ''
  for (const child of element.children) out += typeof child === 'string' ? child : textContent(child)
  return out
}
