/**
 * What an XML Signature is computed over: the "signing view" of a message,
 * read again from its text with every namespace declaration kept, and
 * Exclusive XML Canonicalization 1.0 without comments (W3C REC
 * xml-exc-c14n, 2002; Canonical XML 1.0 §2.3, §4) of an element of it, as
 * the apex of a document subset whose ancestors are not in it.
 */
import { XMLNS_NS, XOP_NS } from '../namespaces'
import { escapeXml } from './escape'
import { XmlReader, type XmlAttributeEvent, type XmlHandler } from './reader'

export interface SigningAttribute {
  readonly name: string
  readonly prefix: string
  readonly localName: string
  readonly namespace: string
  readonly value: string
}

export interface SigningElement {
  readonly name: string
  readonly prefix: string
  readonly localName: string
  readonly namespace: string
  /** Namespace declarations written on this element, in document order: [prefix ('' for the default), uri]. */
  readonly declarations: ReadonlyArray<readonly [string, string]>
  /** Attributes other than namespace declarations, in document order. */
  readonly attributes: readonly SigningAttribute[]
  /** Child elements and text (adjacent text joined; comments dropped), in document order. */
  readonly children: ReadonlyArray<SigningElement | string>
  readonly parent: SigningElement | undefined
}

interface ViewElement extends SigningElement {
  readonly children: Array<SigningElement | string>
}

const CID = /^cid:/i

/**
 * The part an xop:Include's `href` names (XOP 1.0 §2.1; RFC 2392: a `cid:`
 * URL, percent-decoded, is the Content-ID without its angle brackets), as
 * base64 text on one line. Throws when it names none.
 */
function includedText (attributes: readonly XmlAttributeEvent[], parts: ReadonlyMap<string, Buffer>): string {
  const href = attributes.find((a) => a.prefix === '' && a.local === 'href')?.value
  if (href === undefined || !CID.test(href)) throw new Error('an xop:Include has no cid: URL')
  let id: string
  try {
    id = decodeURIComponent(href.slice(4))
  } catch {
    throw new Error('an xop:Include has a malformed cid: URL')
  }
  const bytes = parts.get(id)
  if (bytes === undefined) throw new Error('an xop:Include names no part of the message')
  return bytes.toString('base64')
}

/** Builds the signing view as the reader goes (XmlHandler). */
class ViewBuilder implements XmlHandler {
  readonly #source: string
  readonly #parts: ReadonlyMap<string, Buffer> | undefined
  readonly #open: ViewElement[] = []
  /** The pieces of the text run in hand. */
  readonly #text: string[] = []
  /** How deep the reader is inside an xop:Include (0: not in one). */
  #inInclude = 0
  root: SigningElement | undefined

  constructor (source: string, parts: ReadonlyMap<string, Buffer> | undefined) {
    this.#source = source
    this.#parts = parts
  }

  xmlDecl (): void {}
  doctype (): void {}
  processingInstruction (): void {}
  openTagStart (): void {}
  attribute (): void {}

  /** Ends the text run in hand: one text child of the open element. */
  #flush (): void {
    const text = this.#text
    if (text.length === 0) return
    const joined = text.length === 1 ? text[0] : text.join('')
    text.length = 0
    // The reader gives no text outside the document element; an empty CDATA section gives ''.
    if (joined !== '') this.#open[this.#open.length - 1].children.push(joined)
  }

  openTag (name: string, prefix: string, local: string, uri: string, attributes: readonly XmlAttributeEvent[]): void {
    if (this.#inInclude !== 0) {
      this.#inInclude++
      return
    }
    if (uri === XOP_NS && local === 'Include' && this.#parts !== undefined) {
      this.#text.push(includedText(attributes, this.#parts))
      this.#inInclude = 1
      return
    }
    this.#flush()
    const declarations: Array<readonly [string, string]> = []
    const own: SigningAttribute[] = []
    for (const a of attributes) {
      if (a.uri === XMLNS_NS) declarations.push([a.prefix === '' ? '' : a.local, a.value])
      else own.push({ name: a.name, prefix: a.prefix, localName: a.local, namespace: a.uri, value: a.value })
    }
    const open = this.#open
    const parent = open.length === 0 ? undefined : open[open.length - 1]
    const element: ViewElement = {
      name, prefix, localName: local, namespace: uri, declarations, attributes: own, children: [], parent
    }
    if (parent === undefined) this.root = element; else parent.children.push(element)
    open.push(element)
  }

  closeTag (): void {
    if (this.#inInclude !== 0) {
      this.#inInclude--
      return
    }
    this.#flush()
    this.#open.pop()
  }

  text (text: string): void {
    if (this.#inInclude === 0) this.#text.push(text)
  }

  sourceText (from: number, to: number): void {
    if (this.#inInclude === 0) this.#text.push(this.#source.slice(from, to))
  }
}

/**
 * The document element of `source` (already checked by the decoder), read again with every declaration;
 * each xop:Include (XOP 1.0) is replaced by the base64 text of the part it names in `parts`. Without
 * `parts` (a message that is no XOP package), an xop:Include is an element as any other. Throws when the
 * text cannot be read or an Include names no part.
 */
export function readSigningView (source: string, parts?: ReadonlyMap<string, Buffer>): SigningElement {
  const builder = new ViewBuilder(source, parts)
  new XmlReader(builder).read(source)
  return builder.root as SigningElement
}

// ------------------------------------------------------------ canonical form ---

/** Canonical XML 1.0 §2.3: an attribute value (or a namespace URI) in double quotes. */
function escapeValue (value: string): string {
  if (!/[&<"\t\n\r]/.test(value)) return value
  return value.replace(/[&<"\t\n\r]/g, (c) => ATTRIBUTE_REFERENCES[c])
}

const ATTRIBUTE_REFERENCES: Record<string, string> = {
  '&': '&amp;', '<': '&lt;', '"': '&quot;', '\t': '&#x9;', '\n': '&#xA;', '\r': '&#xD;'
}

/**
 * Lexicographic order by code point (Canonical XML 1.0 §2.3 sorts namespace
 * URIs and names as UCS strings): UTF-16 code-unit order differs only where a
 * surrogate pair meets a character above U+D7FF.
 */
function compareCodePoints (a: string, b: string): number {
  const length = Math.min(a.length, b.length)
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x === y) continue
    const xs = x >= 0xd800 && x <= 0xdfff
    const ys = y >= 0xd800 && y <= 0xdfff
    if (xs === ys) return x - y
    return xs ? 1 : -1
  }
  return a.length - b.length
}

function compareAttributes (a: SigningAttribute, b: SigningAttribute): number {
  return compareCodePoints(a.namespace, b.namespace) || compareCodePoints(a.localName, b.localName)
}

/** A change to a map while an element is open, undone when it closes: [map, key, the value before]. */
type Undo = [Map<string, string>, string, string | undefined]

function set (map: Map<string, string>, key: string, value: string, undo: Undo[]): void {
  undo.push([map, key, map.get(key)])
  map.set(key, value)
}

/**
 * The namespaces in scope at `element`'s parent: the declarations of its
 * ancestors, the nearest winning (they are outside the subset, but their
 * namespace nodes are on the apex's namespace axis).
 */
function ancestorScope (element: SigningElement): Map<string, string> {
  const scope = new Map<string, string>()
  for (let e = element.parent; e !== undefined; e = e.parent) {
    for (const [prefix, uri] of e.declarations) if (!scope.has(prefix)) scope.set(prefix, uri)
  }
  return scope
}

interface Context {
  /** The namespaces in scope at the element in hand. */
  readonly scope: Map<string, string>
  /** What the output has bound each prefix to so far, along the output ancestors. */
  readonly rendered: Map<string, string>
  /** The InclusiveNamespaces PrefixList, '' for '#default'. */
  readonly inclusive: ReadonlySet<string>
}

/**
 * The start tag of `element`, after its declarations entered `context.scope`:
 * Exclusive XML Canonicalization §3. A namespace node is rendered when its
 * prefix is visibly utilized (the element's own, its attributes'; the default
 * one when the element has no prefix) or is in the PrefixList (then as
 * Canonical XML 1.0 does: whenever in scope), and the output has not bound the
 * prefix to that value already. `xmlns=""` undoes a non-empty default the
 * output bound. The xml prefix is never declared; xml: attributes are the
 * element's own (not inherited from ancestors). Namespace nodes sorted by
 * prefix, the default first; attributes by namespace URI, then local name.
 */
function startTag (element: SigningElement, context: Context, undo: Undo[], apex: boolean): string {
  const { scope, rendered, inclusive } = context
  const used = new Set<string>()
  used.add(element.prefix)
  for (const a of element.attributes) if (a.prefix !== '') used.add(a.prefix)
  if (apex) {
    // Each listed prefix in scope; walking the shorter of the list and the scope (the list is the message's).
    if (inclusive.size <= scope.size) {
      for (const prefix of inclusive) if (scope.has(prefix)) used.add(prefix)
    } else {
      for (const prefix of scope.keys()) if (inclusive.has(prefix)) used.add(prefix)
    }
  } else {
    // Below the apex, a listed prefix the element does not declare is bound as its output parent bound it.
    for (const [prefix] of element.declarations) if (inclusive.has(prefix)) used.add(prefix)
  }
  const prefixes = [...used].filter((prefix) => prefix !== 'xml').sort(compareCodePoints)
  let out = '<' + element.name
  for (const prefix of prefixes) {
    const uri = scope.get(prefix) ?? ''
    if ((rendered.get(prefix) ?? '') === uri) continue
    set(rendered, prefix, uri, undo)
    out += (prefix === '' ? ' xmlns="' : ' xmlns:' + prefix + '="') + escapeValue(uri) + '"'
  }
  const attributes = element.attributes.length > 1
    ? [...element.attributes].sort(compareAttributes)
    : element.attributes
  for (const a of attributes) out += ' ' + a.name + '="' + escapeValue(a.value) + '"'
  return out + '>'
}

/**
 * Exclusive XML Canonicalization 1.0 (without comments) of `element` and its descendants, as the apex of a
 * document subset; `inclusivePrefixes`: the InclusiveNamespaces PrefixList ('#default' for the default
 * namespace); `omit`: an element left out with its descendants (the enveloped-signature transform). UTF-8 is
 * the caller's: this returns the string. Iterative: a deep tree needs no deep stack.
 */
export function exclusiveC14n (
  element: SigningElement, inclusivePrefixes: readonly string[] = [], omit?: SigningElement
): string {
  // The enveloped-signature transform takes the omitted element out with all it holds: the apex too, if in it.
  for (let e: SigningElement | undefined = element; e !== undefined; e = e.parent) if (e === omit) return ''
  const context: Context = {
    scope: ancestorScope(element),
    rendered: new Map(),
    inclusive: new Set(inclusivePrefixes.map((prefix) => prefix === '#default' ? '' : prefix))
  }
  let out = ''
  // The open elements, each with the index of its next child and the changes its start tag made.
  const open: Array<{ element: SigningElement, next: number, undo: Undo[] }> = []
  let entering: SigningElement | undefined = element
  for (;;) {
    if (entering !== undefined) {
      const undo: Undo[] = []
      for (const [prefix, uri] of entering.declarations) set(context.scope, prefix, uri, undo)
      out += startTag(entering, context, undo, open.length === 0)
      open.push({ element: entering, next: 0, undo })
      entering = undefined
    }
    const top = open[open.length - 1]
    const children = top.element.children
    if (top.next < children.length) {
      const child = children[top.next++]
      if (typeof child === 'string') out += escapeXml(child)
      else if (child !== omit) entering = child
      continue
    }
    out += '</' + top.element.name + '>'
    for (let i = top.undo.length - 1; i >= 0; i--) {
      const [map, key, before] = top.undo[i]
      if (before === undefined) map.delete(key); else map.set(key, before)
    }
    open.pop()
    if (open.length === 0) return out
  }
}
