/**
 * `request.soap`: what the decoder found, with the xmldom Document built only
 * when someone reads it, once.
 */
import { DOMParser, onErrorStopParsing, type Document, type Element, type Node } from '@xmldom/xmldom'
import * as xpath from 'xpath'
import type { ServerResponse } from 'node:http'
import { SOAP_ERR_CLIENT_GONE, SOAP_ERR_SELECT_LIMIT } from '../errors'
import type { HeaderBlock, SoapHeaderBlock } from '../soap/headers'
import type { SoapVersion } from '../namespaces'
import type { SoapOperationInfo } from '../types'
import { elementsAt, type XmlTree } from '../xml/tree'
import type { XmlElement } from '../xml/element'
import { qnameKey } from '../namespaces'

const EMPTY_MAP: ReadonlyMap<string, readonly SoapHeaderBlock[]> = new Map()

export type XPathResult = xpath.SelectReturnType

function childElement (parent: Node, namespace: string, localName: string): Element | null {
  for (let node = parent.firstChild; node !== null; node = node.nextSibling) {
    if (
      node.nodeType === 1 && (node as Element).localName === localName && (node as Element).namespaceURI === namespace
    ) {
      return node as Element
    }
  }
  return null
}

/** What `request.soap` is made of: its public fields (documented on the class), and what it keeps to itself. */
export interface SoapContextInit
  extends Pick<SoapContext, 'version' | 'namespace' | 'action' | 'hasHeader' | 'decoded' | 'parts' | 'mtom'> {
  /** The decoded text, for the Document. */
  readonly source: string
  /** Elements in the message, for the XPath guard. */
  readonly elements: number
  readonly select: xpath.XPathSelect
  readonly maxXPathElements: number
}

/** What the dispatcher and the codec read: the tree itself, not the `XmlElement`s made from it. */
export interface DecodedTree {
  readonly tree: XmlTree
  /** The header blocks, in document order, each with its node in `tree`. */
  readonly headers: readonly HeaderBlock[]
  /** The nodes of the Body's child elements in `tree`. */
  readonly bodyNodes: readonly number[]
}

/** The decoded text of a request, as its context keeps it (set by the class below). */
let sourceOf: (context: SoapContext) => string

export class SoapContext {
  /** `'1.1'` or `'1.2'`, from the media type (and the Envelope's namespace, which matches it). */
  readonly version: SoapVersion
  /** The Envelope's namespace URI. */
  readonly namespace: string
  /**
   * The action: the `action` media type parameter, or the `SOAPAction` header, unquoted; undefined when
   * absent or empty.
   */
  readonly action: string | undefined
  /** Whether the envelope had a Header element, even an empty one. */
  readonly hasHeader: boolean
  /** The header blocks, in document order. */
  readonly headers: readonly SoapHeaderBlock[]
  /** The decoded tree the dispatcher and the codec read; its form is internal and may change. */
  readonly decoded: DecodedTree
  /**
   * An MTOM request's parts other than the root, by Content-ID without its angle brackets, each a view of
   * the request's body (docs/protocol.md "MTOM/XOP"); empty for any other request.
   */
  readonly parts: ReadonlyMap<string, Buffer>
  /** Whether the request was an MTOM package (`multipart/related`): a reply answers in kind (docs/binary.md "MTOM"). */
  readonly mtom: boolean

  // Set as a service's pipeline runs (docs/hooks.md); hooks may read and replace them. The
  // protocols add their own fields (`addressing`, `username`) by declaration merging.
  /** The operation, once dispatched. */
  operation: SoapOperationInfo | undefined = undefined
  /** The operation's input, read from the operation element (or the query string) by its schema. */
  input: unknown = undefined
  /** The values of the header blocks the operation's header schema names, by property. */
  headerValues: unknown = undefined
  /** What the handler returned. */
  result: unknown = undefined
  /**
   * The values of the reply's header blocks, as the handler gave them to `call.replyHeaders()`; written by
   * the operation's `outputHeaders` schema.
   */
  replyHeaderValues: unknown = undefined
  /** Serialised header blocks for the response's Header, in order. */
  readonly responseHeaders: string[] = []

  readonly #init: SoapContextInit
  #body: readonly XmlElement[] | undefined
  #document: Document | undefined
  #aborter: AbortController | undefined
  #byName: ReadonlyMap<string, readonly SoapHeaderBlock[]> | undefined
  #response: ServerResponse | null = null

  static {
    sourceOf = (context) => context.#init.source
  }

  constructor (init: SoapContextInit) {
    this.version = init.version
    this.namespace = init.namespace
    this.action = init.action
    this.hasHeader = init.hasHeader
    this.decoded = init.decoded
    this.parts = init.parts
    this.mtom = init.mtom
    this.headers = init.decoded.headers
    this.#init = init
  }

  /** The Body's child elements, in document order: the payload. Built from the decoded tree on first use. */
  get body (): readonly XmlElement[] {
    if (this.#body === undefined) {
      const { tree, bodyNodes } = this.decoded
      this.#body = elementsAt(tree, bodyNodes)
    }
    return this.#body
  }

  /** The Body's first child element, the operation element of document/literal wrapped; undefined for an empty Body. */
  get payload (): XmlElement | undefined {
    return this.body[0]
  }

  /** Header blocks by `{namespace}localName`, each key with its blocks in document order. */
  get headersByName (): ReadonlyMap<string, readonly SoapHeaderBlock[]> {
    if (this.#byName === undefined) {
      if (this.headers.length === 0) {
        this.#byName = EMPTY_MAP
      } else {
        const map = new Map<string, SoapHeaderBlock[]>()
        for (const block of this.headers) {
          const list = map.get(block.key)
          if (list === undefined) map.set(block.key, [block]); else list.push(block)
        }
        this.#byName = map
      }
    }
    return this.#byName
  }

  /**
   * Aborted when the client goes away before the response is complete: pass it
   * to what your handler waits on (fetch, a database driver, a timer) so that
   * work for nobody stops. Made on first use.
   */
  get signal (): AbortSignal {
    if (this.#aborter === undefined) {
      this.#aborter = new AbortController()
      if (this.#response !== null) this.#watch(this.#response, this.#aborter)
    }
    return this.#aborter.signal
  }

  /**
   * The Node response this context's request is answered on, for `signal`:
   * given by the route (or, for your own routes, the scope's preValidation
   * hook) once the body is parsed. Until then `signal` does not abort.
   */
  respondsOn (response: ServerResponse): void {
    this.#response = response
    if (this.#aborter !== undefined) this.#watch(response, this.#aborter)
  }

  #watch (response: ServerResponse, aborter: AbortController): void {
    const onClose = (): void => {
      if (!response.writableFinished) aborter.abort(new SOAP_ERR_CLIENT_GONE())
    }
    if (response.closed) onClose(); else response.once('close', onClose)
  }

  /** The first header block named `{namespace}localName`, if any. */
  header (namespace: string, localName: string): SoapHeaderBlock | undefined {
    return this.headersByName.get(qnameKey(namespace, localName))?.[0]
  }

  /** The whole envelope as an @xmldom/xmldom Document, parsed on first use from the text the decoder checked. */
  get document (): Document {
    if (this.#document === undefined) {
      const parser = new DOMParser({ locator: false, onError: onErrorStopParsing })
      this.#document = parser.parseFromString(this.#init.source, 'text/xml')
    }
    return this.#document
  }

  /** The Envelope element of `document`. */
  get envelopeElement (): Element {
    return this.document.documentElement as Element
  }

  /** The Header element of `document`, or null. */
  get headerElement (): Element | null {
    return childElement(this.envelopeElement, this.namespace, 'Header')
  }

  /** The Body element of `document`. */
  get bodyElement (): Element {
    return childElement(this.envelopeElement, this.namespace, 'Body') as Element
  }

  /**
   * Evaluates an XPath 1.0 expression on `document` (or on `node`), with `soap`
   * and `env` bound to this envelope's namespace, `soap11`, `soap12`, `xsi`,
   * `xsd`, and the plugin's `namespaces` option.
   *
   * The xpath package takes time that grows with the square of a node-set's
   * size, so a message of more than `maxXPathElements` elements is refused
   * with SOAP_ERR_SELECT_LIMIT (a Sender fault): walk `body`, `headers` or the
   * Document instead, which cost time in proportion to the message.
   */
  select (expression: string, node?: Node): XPathResult {
    const { elements, maxXPathElements, select } = this.#init
    if (elements > maxXPathElements) throw new SOAP_ERR_SELECT_LIMIT(elements, maxXPathElements)
    return select(expression, (node ?? this.document) as unknown as globalThis.Node)
  }
}

/**
 * The decoded text of `context`'s request, which the decoder checked, for a protocol that reads it again (the
 * signing view of WS-Security); not a field of `request.soap`.
 */
export function decodedSource (context: SoapContext): string {
  return sourceOf(context)
}
