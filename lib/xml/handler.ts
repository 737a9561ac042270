/** What an `XmlReader` tells of a document as it reads it (xml/reader.ts), and how it fails. */
import type { QName, XmlAttributeEvent } from './names'
import type { Template } from './siblings'

export interface XmlHandler {
  /** The XML declaration, if the document has one. */
  xmlDecl (version: string, encoding: string | undefined): void
  /** A document type declaration: never read, always refused (the handler may throw its own error first). */
  doctype (): void
  /** A processing instruction other than the XML declaration: always refused, the same way. */
  processingInstruction (target: string): void
  /** A start tag's name, before its attributes are read. */
  openTagStart (name: string): void
  /** An attribute, as soon as it is read (its namespace is not resolved yet). */
  attribute (attribute: XmlAttributeEvent): void
  /**
   * A complete start tag, namespaces resolved (no object is made for it). Its
   * attributes are in document order, namespace declarations included (their
   * `uri` is the xmlns namespace); tags without any share one empty array.
   * `qname` is the reader's own for the name, cached from one document to the
   * next: a handler may note its tree id on it (`QName.treeId`), nothing else.
   */
  openTag (
    name: string, prefix: string, local: string, uri: string, attributes: readonly XmlAttributeEvent[], qname: QName
  ): void
  closeTag (): void
  /** Character data, from text, references or CDATA sections, in pieces. */
  text (text: string): void
  /**
   * Character data that is the document's characters [from, to) as they stand: no reference, no line end
   * to normalise.
   */
  sourceText (from: number, to: number): void
  /**
   * Repeated siblings (xml/siblings.ts), for a handler that takes them: `template` was just learnt from the
   * element that closed last. Whether the handler can take its siblings whole: if not, it is not kept, and
   * `repeat` is only ever given the template it kept last.
   */
  learned? (template: Template): boolean
  /**
   * An element with `template`'s markup, instead of its events: its slots at `slots` ([from, to) pairs), each
   * attribute's value and each text's characters in `values` (undefined: the slot's characters as they stand).
   * Taken whole; or refused (false), and then read as events.
   */
  repeat? (template: Template, slots: readonly number[], values: ReadonlyArray<string | undefined>): boolean
}

export class XmlReadError extends Error {
  constructor (message: string, at: number) {
    super(`${message} (at character ${at})`)
    this.name = 'XmlReadError'
  }
}
