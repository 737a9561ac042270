/** The decoding limits (docs/protocol.md "Limits"): exceeding one makes a request undecodable. */

export interface SoapLimits {
  /** Element depth, the Envelope being 1. */
  maxDepth: number
  /** Elements in one message. */
  maxElements: number
  /** Attributes on one element, namespace declarations included. */
  maxAttributes: number
  /** Characters in one attribute value. */
  maxAttributeLength: number
  /** Characters in one text node (CDATA sections included). Defaults to the body limit. */
  maxTextLength: number
  /** Characters in one element or attribute name, prefix included. */
  maxNameLength: number
  /** Characters in one namespace URI. */
  maxNamespaceLength: number
  /** Namespace declarations in one message. */
  maxNamespaceDeclarations: number
}
