/**
 * Stage 2b: the envelope decoder. One strict, streaming pass over the text
 * (saxes: XML 1.0 and Namespaces well-formedness) that enforces every rule of
 * PROTOCOL.md "Decoding" and every limit of "Limits" as it goes, and builds
 * the header blocks and the Body's payload as plain `XmlElement`s. No DOM is
 * built here; no DTD is read, no entity is expanded, nothing is fetched.
 */
import { SaxesParser, type SaxesAttributeNSIncomplete, type SaxesTagNS, type XMLDecl } from 'saxes'
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
}

// Where the decoder stands among the Envelope's children.
const BEFORE_HEADER = 0
const IN_HEADER = 1
const AFTER_HEADER = 2
const IN_BODY = 3
const AFTER_BODY = 4

const NON_WHITESPACE = /[^ \t\r\n]/
const ENCODINGS = /^(utf-?8|utf-?16(le|be)?)$/i

interface MutableElement extends XmlElement {
  readonly attributes: XmlAttribute[]
  readonly children: Array<XmlElement | string>
}

function isOwnError (err: unknown): boolean {
  return typeof (err as { code?: unknown })?.code === 'string' && (err as { code: string }).code.startsWith('SOAP_ERR_')
}

function limit (name: keyof SoapLimits, value: number): never {
  throw new SOAP_ERR_DECODE_LIMIT(name, value)
}

function toElement (tag: SaxesTagNS): MutableElement {
  const attributes: XmlAttribute[] = []
  const source = tag.attributes
  for (const key in source) {
    const a = source[key]
    if (a.uri === XMLNS_NS) continue
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
 * Decodes `source`, expected to be a SOAP envelope in namespace `expected`.
 * Throws a `SOAP_ERR_DECODE_*` error when the text cannot be decoded.
 */
export function decodeEnvelope (source: string, expected: string, encoding: Encoding, limits: SoapLimits): DecodedEnvelope {
  const {
    maxDepth, maxElements, maxAttributes, maxAttributeLength, maxTextLength,
    maxNameLength, maxNamespaceLength, maxNamespaceDeclarations
  } = limits
  const is12 = expected === SOAP12_ENV

  let depth = 0
  let elements = 0
  let attributes = 0
  let declarations = 0
  let textRun = 0
  let section = BEFORE_HEADER
  let namespace = ''
  let mismatch = false
  let hasHeader = false
  let senderFault: string | undefined
  const headerBlocks: XmlElement[] = []
  const payload: XmlElement[] = []
  const stack: MutableElement[] = []

  const parser = new SaxesParser({ xmlns: true, position: false })

  parser.on('xmldecl', (decl: XMLDecl) => {
    if (decl.version !== '1.0') throw new SOAP_ERR_DECODE_XML(`XML version ${decl.version} is not 1.0`)
    const declared = decl.encoding
    if (declared !== undefined) {
      if (!ENCODINGS.test(declared) || declared.includes('16') !== (encoding !== 'utf-8')) {
        throw new SOAP_ERR_DECODE_XML(`declared encoding ${declared} does not match the body's ${encoding}`)
      }
    }
  })
  parser.on('doctype', () => { throw new SOAP_ERR_DECODE_DTD() })
  parser.on('processinginstruction', (pi) => { throw new SOAP_ERR_DECODE_PI(pi.target) })

  parser.on('opentagstart', (tag) => {
    if (++depth > maxDepth) limit('maxDepth', maxDepth)
    if (++elements > maxElements) limit('maxElements', maxElements)
    if (tag.name.length > maxNameLength) limit('maxNameLength', maxNameLength)
    attributes = 0
    textRun = 0
  })

  parser.on('attribute', (attr: SaxesAttributeNSIncomplete) => {
    if (++attributes > maxAttributes) limit('maxAttributes', maxAttributes)
    if (attr.name.length > maxNameLength) limit('maxNameLength', maxNameLength)
    if (attr.value.length > maxAttributeLength) limit('maxAttributeLength', maxAttributeLength)
    if (attr.prefix === 'xmlns' || attr.name === 'xmlns') {
      if (++declarations > maxNamespaceDeclarations) limit('maxNamespaceDeclarations', maxNamespaceDeclarations)
      if (attr.value.length > maxNamespaceLength) limit('maxNamespaceLength', maxNamespaceLength)
    }
  })

  parser.on('opentag', (tag) => {
    if (depth === 1) {
      if (tag.local !== 'Envelope') throw new SOAP_ERR_DECODE_STRUCTURE(`the document element is ${tag.name}, not Envelope`)
      namespace = tag.uri
      mismatch = namespace !== expected
      if (!mismatch && is12 && hasEncodingStyle(tag, expected)) senderFault = 'env:encodingStyle is not allowed on Envelope'
      return
    }
    if (mismatch) return // the version check comes before the structure check
    if (depth === 2) {
      if (tag.uri === expected && tag.local === 'Header' && section === BEFORE_HEADER) {
        section = IN_HEADER
        hasHeader = true
      } else if (tag.uri === expected && tag.local === 'Body' && section < IN_BODY) {
        section = IN_BODY
      } else {
        throw new SOAP_ERR_DECODE_STRUCTURE(`unexpected ${tag.name} in Envelope`)
      }
      if (is12 && senderFault === undefined && hasEncodingStyle(tag, expected)) {
        senderFault = `env:encodingStyle is not allowed on ${tag.local}`
      }
      return
    }
    const element = toElement(tag)
    if (depth === 3) {
      (section === IN_HEADER ? headerBlocks : payload).push(element)
    } else {
      stack[stack.length - 1].children.push(element)
    }
    stack.push(element)
  })

  parser.on('closetag', () => {
    if (!mismatch) {
      if (depth >= 3) {
        stack.pop()
      } else if (depth === 2) {
        section = section === IN_HEADER ? AFTER_HEADER : AFTER_BODY
      }
    }
    depth--
    textRun = 0
  })

  function onText (text: string): void {
    if ((textRun += text.length) > maxTextLength) limit('maxTextLength', maxTextLength)
    if (mismatch) return
    if (depth <= 2) {
      if (NON_WHITESPACE.test(text)) {
        throw new SOAP_ERR_DECODE_STRUCTURE(depth === 1 ? 'text in Envelope' : 'text in Header or Body')
      }
      return
    }
    const children = stack[stack.length - 1].children
    const last = children.length - 1
    if (last >= 0 && typeof children[last] === 'string') {
      children[last] += text
    } else {
      children.push(text)
    }
  }
  parser.on('text', onText)
  parser.on('cdata', onText)

  try {
    parser.write(source).close()
  } catch (err) {
    if (isOwnError(err)) throw err
    throw new SOAP_ERR_DECODE_XML((err as Error).message)
  }
  if (!mismatch && section !== AFTER_BODY) throw new SOAP_ERR_DECODE_STRUCTURE('no Body')
  return { namespace, mismatch, hasHeader, headerBlocks, payload, senderFault }
}

/** The text of an element and its descendants, in document order (the DOM's `textContent`). */
export function textContent (element: XmlElement): string {
  let out = ''
  for (const child of element.children) out += typeof child === 'string' ? child : textContent(child)
  return out
}
