/**
 * Stage 2b: the envelope decoder. One strict, streaming pass over the text
 * (saxes: XML 1.0 and Namespaces well-formedness) that enforces every rule of
 * PROTOCOL.md "Decoding" and every limit of "Limits" as it goes, and builds
 * the header blocks and the Body's payload as plain `XmlElement`s. No DOM is
 * built here; no DTD is read, no entity is expanded, nothing is fetched.
 */
import { SaxesParser, type SaxesAttributeNSIncomplete, type SaxesStartTagNS, type SaxesTagNS, type XMLDecl } from 'saxes'
import type { Encoding } from './charset'
import {
  SOAP_ERR_DECODE_DTD,
  SOAP_ERR_DECODE_LIMIT,
  SOAP_ERR_DECODE_PI,
  SOAP_ERR_DECODE_STRUCTURE,
  SOAP_ERR_DECODE_XML
} from './errors'
import { SOAP12_ENV, XMLNS_NS } from './namespaces'
import type { SoapLimits } from './options'
import type { XmlAttribute, XmlElement } from './types'

export interface DecodedEnvelope {
  /** The Envelope's namespace as found. */
  readonly namespace: string
  /** True when that namespace is not the media type's: a VersionMismatch fault, not a 400. */
  readonly mismatch: boolean
  /** Whether a Header element was present (it may be empty). */
  readonly hasHeader: boolean
  readonly headerBlocks: XmlElement[]
  readonly payload: XmlElement[]
  /** The first problem with the envelope itself that earns a Sender fault rather than a 400. */
  readonly senderFault: string | undefined
  /** How many elements the message holds, the Envelope included. */
  readonly elements: number
}

// Where the decoder stands among the Envelope's children.
const BEFORE_HEADER = 0
const IN_HEADER = 1
const AFTER_HEADER = 2
const IN_BODY = 3
const AFTER_BODY = 4

const NON_WHITESPACE = /[^ \t\r\n]/
const EDGE_WHITESPACE = /^[ \t\r\n]|[ \t\r\n]$/
// XML 1.0 NameStartChar less ':' (a high surrogate stands for U+10000 to U+EFFFF).
const NAME_START = /^[A-Z_a-z\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C-\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD\uD800-\uDB7F]/

/**
 * saxes checks a prefixed name as a whole XML Name; Namespaces in XML §3 also
 * wants its local part to be an NCName, so it must start like a name.
 */
function checkLocalPart (prefix: string, local: string, name: string): void {
  if (prefix !== '' && !NAME_START.test(local)) throw new SOAP_ERR_DECODE_XML(`malformed qualified name ${name}`)
}
const UTF8 = /^(utf-?8|us-ascii|ascii)$/i
const UTF16 = /^utf-?16(le|be)?$/i

interface MutableElement extends XmlElement {
  readonly attributes: XmlAttribute[]
  readonly children: Array<XmlElement | string>
}

/**
 * saxes 6 keeps each event's handler in a property of the parser; `on()` sets
 * them with a computed key, and past six of those V8 turns the parser into a
 * slow dictionary object (measured: 66 MB/s falls to 13 MB/s). Setting the
 * same properties by name keeps it fast. saxes is pinned to 6.0.0 for this,
 * and every handler is exercised by the tests.
 */
interface SaxesHandlers {
  xmldeclHandler: (decl: XMLDecl) => void
  doctypeHandler: (doctype: string) => void
  piHandler: (pi: { target: string, body: string }) => void
  openTagStartHandler: (tag: SaxesStartTagNS) => void
  attributeHandler: (attr: SaxesAttributeNSIncomplete) => void
  openTagHandler: (tag: SaxesTagNS) => void
  closeTagHandler: (tag: SaxesTagNS) => void
  textHandler: (text: string) => void
  cdataHandler: (cdata: string) => void
}

function isOwnError (err: unknown): boolean {
  return typeof (err as { code?: unknown })?.code === 'string' && (err as { code: string }).code.startsWith('SOAP_ERR_')
}

function limit (name: keyof SoapLimits, value: number): never {
  throw new SOAP_ERR_DECODE_LIMIT(name, value)
}

const NO_ATTRIBUTES: XmlAttribute[] = Object.freeze([]) as unknown as XmlAttribute[]

function toElement (tag: SaxesTagNS): MutableElement {
  let attributes = NO_ATTRIBUTES
  const source = tag.attributes
  for (const key in source) {
    const a = source[key]
    if (a.uri === XMLNS_NS) continue
    if (attributes === NO_ATTRIBUTES) attributes = []
    attributes.push({ name: a.name, prefix: a.prefix, localName: a.local, namespace: a.uri, value: a.value })
  }
  return { name: tag.name, prefix: tag.prefix, localName: tag.local, namespace: tag.uri, attributes, children: [] }
}

function hasEncodingStyle (tag: SaxesTagNS, env: string): boolean {
  const source = tag.attributes
  for (const key in source) {
    const a = source[key]
    if (a.local === 'encodingStyle' && a.uri === env) return true
  }
  return false
}

/**
 * Decodes envelopes with one saxes parser, kept between calls (a parser is
 * costly to build) and replaced after any failure. Decoding is synchronous,
 * so one decoder serves every request of a plugin instance.
 */
export class EnvelopeDecoder {
  readonly #limits: SoapLimits
  #parser: SaxesParser<{ xmlns: true, position: false }> | undefined

  // The state of the decode in progress, reset by `decode()`.
  #expected = ''
  #is12 = false
  #encoding: Encoding = 'utf-8'
  #charsetDeclared = false
  #depth = 0
  #elements = 0
  #attributes = 0
  #declarations = 0
  #textRun = 0
  #section = BEFORE_HEADER
  #namespace = ''
  #mismatch = false
  #hasHeader = false
  #senderFault: string | undefined
  #headerBlocks: XmlElement[] = []
  #payload: XmlElement[] = []
  #stack: MutableElement[] = []

  constructor (limits: SoapLimits) {
    this.#limits = limits
  }

  /**
   * Decodes `source`, expected to be a SOAP envelope in namespace `expected`.
   * Throws a `SOAP_ERR_DECODE_*` error when the text cannot be decoded.
   */
  decode (source: string, expected: string, encoding: Encoding, charsetDeclared = false): DecodedEnvelope {
    this.#expected = expected
    this.#is12 = expected === SOAP12_ENV
    this.#encoding = encoding
    this.#charsetDeclared = charsetDeclared
    this.#depth = 0
    this.#elements = 0
    this.#attributes = 0
    this.#declarations = 0
    this.#textRun = 0
    this.#section = BEFORE_HEADER
    this.#namespace = ''
    this.#mismatch = false
    this.#hasHeader = false
    this.#senderFault = undefined
    const headerBlocks: XmlElement[] = this.#headerBlocks = []
    const payload: XmlElement[] = this.#payload = []
    this.#stack = []

    const parser = this.#parser ?? this.#createParser()
    this.#parser = undefined // a parser that throws is not reused
    try {
      parser.write(source).close()
    } catch (err) {
      if (isOwnError(err)) throw err
      throw new SOAP_ERR_DECODE_XML((err as Error).message)
    }
    this.#parser = parser
    if (!this.#mismatch && this.#section !== AFTER_BODY) throw new SOAP_ERR_DECODE_STRUCTURE('no Body')
    this.#stack = []
    return {
      namespace: this.#namespace,
      mismatch: this.#mismatch,
      hasHeader: this.#hasHeader,
      headerBlocks,
      payload,
      senderFault: this.#senderFault,
      elements: this.#elements
    }
  }

  #createParser (): SaxesParser<{ xmlns: true, position: false }> {
    const parser = new SaxesParser({ xmlns: true, position: false })
    const handlers = parser as unknown as SaxesHandlers
    handlers.xmldeclHandler = (decl) => this.#onXmlDecl(decl)
    handlers.doctypeHandler = () => { throw new SOAP_ERR_DECODE_DTD() }
    handlers.piHandler = (pi) => { throw new SOAP_ERR_DECODE_PI(pi.target) }
    handlers.openTagStartHandler = (tag) => this.#onOpenTagStart(tag)
    handlers.attributeHandler = (attr) => this.#onAttribute(attr)
    handlers.openTagHandler = (tag) => this.#onOpenTag(tag)
    handlers.closeTagHandler = () => this.#onCloseTag()
    handlers.textHandler = handlers.cdataHandler = (text) => this.#onText(text)
    return parser
  }

  #onXmlDecl (decl: XMLDecl): void {
    if (decl.version !== '1.0') throw new SOAP_ERR_DECODE_XML(`XML version ${decl.version} is not 1.0`)
    // A charset in the Content-Type outranks the declaration (RFC 7303 §3.2);
    // without one, the declaration must name what the bytes were read as.
    const declared = decl.encoding
    if (declared !== undefined && !this.#charsetDeclared) {
      const family = UTF16.test(declared) ? 'utf-16' : UTF8.test(declared) ? 'utf-8' : undefined
      if (family === undefined || (family === 'utf-8') !== (this.#encoding === 'utf-8')) {
        throw new SOAP_ERR_DECODE_XML(`declared encoding ${declared} does not match the body's ${this.#encoding}`)
      }
    }
  }

  #onOpenTagStart (tag: SaxesStartTagNS): void {
    const { maxDepth, maxElements, maxNameLength } = this.#limits
    if (++this.#depth > maxDepth) limit('maxDepth', maxDepth)
    if (++this.#elements > maxElements) limit('maxElements', maxElements)
    if (tag.name.length > maxNameLength) limit('maxNameLength', maxNameLength)
    this.#attributes = 0
    this.#textRun = 0
  }

  #onAttribute (attr: SaxesAttributeNSIncomplete): void {
    const limits = this.#limits
    if (++this.#attributes > limits.maxAttributes) limit('maxAttributes', limits.maxAttributes)
    if (attr.name.length > limits.maxNameLength) limit('maxNameLength', limits.maxNameLength)
    if (attr.value.length > limits.maxAttributeLength) limit('maxAttributeLength', limits.maxAttributeLength)
    checkLocalPart(attr.prefix, attr.local, attr.name)
    if (attr.prefix === 'xmlns' || attr.name === 'xmlns') {
      if (++this.#declarations > limits.maxNamespaceDeclarations) limit('maxNamespaceDeclarations', limits.maxNamespaceDeclarations)
      if (attr.value.length > limits.maxNamespaceLength) limit('maxNamespaceLength', limits.maxNamespaceLength)
      // saxes trims namespace names; other parsers do not. A name with surrounding
      // whitespace is no URI reference, and would be read two ways: refuse it.
      if (EDGE_WHITESPACE.test(attr.value)) throw new SOAP_ERR_DECODE_XML(`namespace name of ${attr.name} has surrounding whitespace`)
    }
  }

  #onOpenTag (tag: SaxesTagNS): void {
    checkLocalPart(tag.prefix, tag.local, tag.name)
    const depth = this.#depth
    const expected = this.#expected
    if (depth === 1) {
      if (tag.local !== 'Envelope') throw new SOAP_ERR_DECODE_STRUCTURE(`the document element is ${tag.name}, not Envelope`)
      this.#namespace = tag.uri
      this.#mismatch = tag.uri !== expected
      if (!this.#mismatch && this.#is12 && hasEncodingStyle(tag, expected)) this.#senderFault = 'env:encodingStyle is not allowed on Envelope'
      return
    }
    if (this.#mismatch) return // the version check comes before the structure check
    if (depth === 2) {
      if (tag.uri === expected && tag.local === 'Header' && this.#section === BEFORE_HEADER) {
        this.#section = IN_HEADER
        this.#hasHeader = true
      } else if (tag.uri === expected && tag.local === 'Body' && this.#section < IN_BODY) {
        this.#section = IN_BODY
      } else {
        throw new SOAP_ERR_DECODE_STRUCTURE(`unexpected ${tag.name} in Envelope`)
      }
      if (this.#is12 && this.#senderFault === undefined && hasEncodingStyle(tag, expected)) {
        this.#senderFault = `env:encodingStyle is not allowed on ${tag.local}`
      }
      return
    }
    const element = toElement(tag)
    const stack = this.#stack
    if (depth === 3) {
      (this.#section === IN_HEADER ? this.#headerBlocks : this.#payload).push(element)
    } else {
      stack[stack.length - 1].children.push(element)
    }
    stack.push(element)
  }

  #onCloseTag (): void {
    if (!this.#mismatch) {
      if (this.#depth >= 3) {
        this.#stack.pop()
      } else if (this.#depth === 2) {
        this.#section = this.#section === IN_HEADER ? AFTER_HEADER : AFTER_BODY
      }
    }
    this.#depth--
    this.#textRun = 0
  }

  #onText (text: string): void {
    const maxTextLength = this.#limits.maxTextLength
    if ((this.#textRun += text.length) > maxTextLength) limit('maxTextLength', maxTextLength)
    if (this.#mismatch) return
    if (this.#depth <= 2) {
      if (NON_WHITESPACE.test(text)) {
        throw new SOAP_ERR_DECODE_STRUCTURE(this.#depth === 1 ? 'text in Envelope' : 'text in Header or Body')
      }
      return
    }
    const stack = this.#stack
    const children = stack[stack.length - 1].children
    const last = children.length - 1
    if (last >= 0 && typeof children[last] === 'string') {
      children[last] += text
    } else {
      children.push(text)
    }
  }
}

/** The text of an element and its descendants, in document order (the DOM's `textContent`). */
export function textContent (element: XmlElement): string {
  let out = ''
  for (const child of element.children) out += typeof child === 'string' ? child : textContent(child)
  return out
}
