/**
 * Stage 2b: the envelope decoder. One strict, streaming pass over the text
 * (lib/xml/reader.ts: XML 1.0 and Namespaces well-formedness) that enforces every rule of
 * docs/protocol.md "Decoding" and every limit of "Limits" as it goes, and builds
 * the header blocks and the Body's payload as a compact tree (lib/xml/tree.ts).
 * No DOM is built here; no DTD is read, no entity is expanded, nothing is fetched.
 */
import type { Encoding } from './charset'
import {
  SOAP_ERR_DECODE_DTD,
  SOAP_ERR_DECODE_LIMIT,
  SOAP_ERR_DECODE_PI,
  SOAP_ERR_DECODE_STRUCTURE,
  SOAP_ERR_DECODE_XML
} from '../errors'
import { SOAP12_ENV } from '../namespaces'
import type { SoapLimits } from './limits'
import { MediaTypes } from './content-type'
import { NameMemory, type Namespaces } from '../xml/names'
import { TreeBuilder, type XmlTree } from '../xml/tree'
import { XmlReader, XmlReadError, type QName, type XmlAttributeEvent, type XmlHandler } from '../xml/reader'
import type { Template } from '../xml/siblings'
import { Markup } from '../xml/markup'
import { declaresNamespace, disallowedAt, isSpace, isWhitespace } from '../xml/chars'

export interface DecodedEnvelope {
  /** The Envelope's namespace as found. */
  readonly namespace: string
  /** True when that namespace is not the media type's: a VersionMismatch fault, not a 400. */
  readonly mismatch: boolean
  /** Whether a Header element was present (it may be empty). */
  readonly hasHeader: boolean
  /** The header blocks and the Body's children. */
  readonly tree: XmlTree
  /** The header blocks' offsets in `tree`. */
  readonly headerNodes: readonly number[]
  /** The offsets of the Body's child elements in `tree`. */
  readonly bodyNodes: readonly number[]
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

const UTF8 = /^(utf-?8|us-ascii|ascii)$/i
const UTF16 = /^utf-?16(le|be)?$/i

function limit (name: keyof SoapLimits, value: number): never {
  throw new SOAP_ERR_DECODE_LIMIT(name, value)
}

/**
 * Messages up to this many characters are remembered by their markup (see
 * `Shape`): what the decoder keeps from one message to the next stays small.
 */
export const SHAPE_LENGTH = 65536
/** How many shapes a decoder keeps, the newest first: an endpoint's clients call a few operations in turn. */
export const SHAPES = 4

/**
 * A message decoded whose markup can be recognised again: what it was
 * decoded as, and against what (a message's decoding depends on its media
 * type's envelope namespace and charset, and on its markup). Its markup's
 * pieces are slices of the message, which its tree keeps anyway.
 */
interface Shape {
  readonly markup: Markup
  readonly expected: string
  readonly encoding: Encoding
  readonly charsetDeclared: boolean
  /** For each text run, its node in the tree, or -1 for white space between the Envelope's children. */
  readonly textNodes: readonly number[]
  /** How many integers the tree's nodes take. */
  readonly length: number
  readonly decoded: DecodedEnvelope
}

/**
 * Everything a decoder keeps from one message to the next, in one place.
 * The parser stage makes one for its decoder; nothing else keeps state
 * between messages. Each part's bound:
 * - `names` (xml/names.ts): the reader's namespace scope (at most 32
 *   prefixes kept) and up to 128 names of up to 64 characters, every string
 *   a copy of its own.
 * - `tree` (xml/tree.ts): the tree builder's slabs of integers, shared by the
 *   trees of the messages in hand and of the shapes; a slab no tree reads is
 *   let go.
 * - `shapes`: up to SHAPES messages of up to SHAPE_LENGTH characters, each
 *   with its tree (kept until it falls out of the list).
 * - `mediaTypes` (content-type.ts): up to MEDIA_TYPES Content-Type answers.
 */
export class DecoderMemory {
  readonly names = new NameMemory()
  readonly tree = new TreeBuilder()
  /** The last messages with a shape, the newest first. */
  readonly shapes: Shape[] = []
  readonly mediaTypes = new MediaTypes()
}

/**
 * The decoder's rules for a run of text (docs/protocol.md "Decoding", "Limits"), on both paths: a message
 * read anew and one decoded from its shape.
 */
const TEXT_KEPT = 0
const TEXT_TOO_LONG = 1
const TEXT_NOT_SPACE = 2

/**
 * Whether a run of text keeps the rules: at most `maxTextLength` characters
 * (with the text it continues: `length`), and only white space where it
 * stands `between` the Envelope's children (`text`, read only there).
 */
function textRule (length: number, maxTextLength: number, between: boolean, text: string): number {
  if (length > maxTextLength) return TEXT_TOO_LONG
  return between && !isWhitespace(text) ? TEXT_NOT_SPACE : TEXT_KEPT
}

function hasEncodingStyle (attributes: readonly XmlAttributeEvent[], env: string): boolean {
  for (const a of attributes) {
    if (a.local === 'encodingStyle' && a.uri === env) return true
  }
  return false
}

/** What an `EnvelopeDecoder` recognises from what it read before; both, unless told. */
export interface DecoderChoices {
  readonly shapes?: boolean
  readonly siblings?: boolean
}

/**
 * Decodes envelopes. One decoder (and its reader) serves every request of a
 * plugin instance: decoding is synchronous, and its state is reset by each
 * `decode()`. The reader calls the handler methods below; nothing else should.
 */
export class EnvelopeDecoder implements XmlHandler {
  readonly #limits: SoapLimits
  readonly #reader: XmlReader
  /** The namespaces in scope as the reader goes: what an `xsi:type` means where it is written. */
  readonly #scope: Namespaces
  readonly #tree: TreeBuilder

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
  #source = ''
  #headerNodes: number[] = []
  #bodyNodes: number[] = []
  /** Each text run's node, while the message can make a shape (`#shaping`): each run starts a text node of its own. */
  #textNodes: number[] = []
  #shaping = false
  /** The node of the sibling whose template the reader keeps (xml/siblings.ts). */
  #learntNode = -1
  /**
   * The last messages with a shape, the newest first (DecoderMemory), and where the text runs of the
   * message in hand are.
   */
  readonly #shapes: Shape[]
  readonly #runs: number[] = []

  /** Whether a message's markup is recognised from a message before (its shape). */
  readonly shapes: boolean

  /**
   * `shapes` false: every message is read anew; `siblings` false: every
   * element is read from its events, none taken whole as a repeated sibling
   * (for measuring the reader, and comparing).
   */
  constructor (
    limits: SoapLimits, { shapes = true, siblings = true }: DecoderChoices = {}, memory = new DecoderMemory()
  ) {
    this.shapes = shapes
    this.#limits = limits
    this.#reader = new XmlReader(this, memory.names, siblings)
    this.#scope = memory.names.scope
    this.#tree = memory.tree
    this.#shapes = memory.shapes
  }

  /**
   * Decodes `source`, expected to be a SOAP envelope in namespace `expected`.
   * Throws a `SOAP_ERR_DECODE_*` error when the text cannot be decoded. `paired`: `source` is known to hold no
   * surrogate half alone (decoded from valid UTF-8 bytes: lib/soap/charset.ts).
   */
  decode (
    source: string, expected: string, encoding: Encoding, charsetDeclared = false, paired = false
  ): DecodedEnvelope {
    const shapes = this.#shapes
    for (let i = 0; i < shapes.length; i++) {
      const shape = shapes[i]
      if (shape.expected === expected && shape.encoding === encoding && shape.charsetDeclared === charsetDeclared) {
        const decoded = this.#again(source, shape, paired)
        if (decoded !== undefined) return decoded
      }
    }
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
    this.#source = source
    const headerNodes: number[] = this.#headerNodes = []
    const bodyNodes: number[] = this.#bodyNodes = []
    const textNodes: number[] = this.#textNodes = []
    const shaping = this.#shaping = this.shapes && source.length <= SHAPE_LENGTH
    const tree = this.#tree
    tree.reset(source)
    let decoded: DecodedEnvelope
    let length: number
    try {
      this.#reader.read(source, shaping, paired)
      if (!this.#mismatch && this.#section !== AFTER_BODY) throw new SOAP_ERR_DECODE_STRUCTURE('no Body')
      length = tree.length
      decoded = {
        namespace: this.#namespace,
        mismatch: this.#mismatch,
        hasHeader: this.#hasHeader,
        tree: tree.finish(),
        headerNodes,
        bodyNodes,
        senderFault: this.#senderFault,
        elements: this.#elements
      }
    } catch (err) {
      tree.release()
      if (err instanceof XmlReadError) throw new SOAP_ERR_DECODE_XML(err.message)
      throw err
    } finally {
      // Nothing of the message is kept past it but its shape: the next may be decoded from that.
      this.#source = ''
      this.#namespace = ''
      this.#senderFault = undefined
    }
    const runs = this.#reader.plainRuns
    if (this.#shaping && !decoded.mismatch && runs !== undefined) {
      shapes.unshift({
        markup: Markup.of(source, runs), expected, encoding, charsetDeclared, textNodes, length, decoded
      })
      if (shapes.length > SHAPES) shapes.pop()
    }
    return decoded
  }

  /**
   * `source` decoded as `shape`'s message was, if it has the same
   * markup (`Markup.match`) and its text runs keep every rule the decoder
   * applies to text: all characters allowed, none longer than the limit,
   * only white space between the Envelope's children. Else undefined, and
   * the message is decoded anew.
   */
  #again (source: string, shape: Shape, paired: boolean): DecodedEnvelope | undefined {
    const runs = this.#runs
    if (!shape.markup.match(source, runs) || disallowedAt(source, paired) !== -1) return undefined
    const maxTextLength = this.#limits.maxTextLength
    const textNodes = shape.textNodes
    for (let k = 0; k < textNodes.length; k++) {
      const from = runs[2 * k]
      const to = runs[2 * k + 1]
      const between = textNodes[k] === -1
      if (textRule(to - from, maxTextLength, between, between ? source.slice(from, to) : '') !== TEXT_KEPT) {
        return undefined
      }
    }
    const last = shape.decoded
    return {
      namespace: last.namespace,
      mismatch: false,
      hasHeader: last.hasHeader,
      tree: this.#tree.again(source, last.tree, shape.length, textNodes, runs),
      headerNodes: last.headerNodes,
      bodyNodes: last.bodyNodes,
      senderFault: last.senderFault,
      elements: last.elements
    }
  }

  xmlDecl (version: string, declared: string | undefined): void {
    if (version !== '1.0') throw new SOAP_ERR_DECODE_XML(`XML version ${version} is not 1.0`)
    // A charset in the Content-Type outranks the declaration (RFC 7303 §3.2);
    // without one, the declaration must name what the bytes were read as.
    if (declared !== undefined && !this.#charsetDeclared) {
      const family = UTF16.test(declared) ? 'utf-16' : UTF8.test(declared) ? 'utf-8' : undefined
      if (family === undefined || (family === 'utf-8') !== (this.#encoding === 'utf-8')) {
        throw new SOAP_ERR_DECODE_XML(`declared encoding ${declared} does not match the body's ${this.#encoding}`)
      }
    }
  }

  doctype (): void {
    throw new SOAP_ERR_DECODE_DTD()
  }

  processingInstruction (target: string): void {
    throw new SOAP_ERR_DECODE_PI(target)
  }

  openTagStart (name: string): void {
    const { maxDepth, maxElements, maxNameLength } = this.#limits
    if (++this.#depth > maxDepth) limit('maxDepth', maxDepth)
    if (++this.#elements > maxElements) limit('maxElements', maxElements)
    if (name.length > maxNameLength) limit('maxNameLength', maxNameLength)
    this.#attributes = 0
    this.#textRun = 0
  }

  attribute (attr: XmlAttributeEvent): void {
    const limits = this.#limits
    if (++this.#attributes > limits.maxAttributes) limit('maxAttributes', limits.maxAttributes)
    if (attr.name.length > limits.maxNameLength) limit('maxNameLength', limits.maxNameLength)
    if (attr.value.length > limits.maxAttributeLength) limit('maxAttributeLength', limits.maxAttributeLength)
    if (declaresNamespace(attr)) {
      if (++this.#declarations > limits.maxNamespaceDeclarations) {
        limit('maxNamespaceDeclarations', limits.maxNamespaceDeclarations)
      }
      if (attr.value.length > limits.maxNamespaceLength) limit('maxNamespaceLength', limits.maxNamespaceLength)
      // A namespace name with surrounding white space is no URI reference, and
      // some parsers trim it while others do not: refuse it rather than guess.
      const value = attr.value
      if (value !== '' && (isSpace(value.charCodeAt(0)) || isSpace(value.charCodeAt(value.length - 1)))) {
        throw new SOAP_ERR_DECODE_XML(`namespace name of ${attr.name} has surrounding whitespace`)
      }
    }
  }

  openTag (
    name: string, _prefix: string, local: string, uri: string, attributes: readonly XmlAttributeEvent[], qname: QName
  ): void {
    const depth = this.#depth
    const expected = this.#expected
    if (depth === 1) {
      if (local !== 'Envelope') throw new SOAP_ERR_DECODE_STRUCTURE(`the document element is ${name}, not Envelope`)
      this.#namespace = uri
      this.#mismatch = uri !== expected
      if (!this.#mismatch && this.#is12 && hasEncodingStyle(attributes, expected)) {
        this.#senderFault = 'env:encodingStyle is not allowed on Envelope'
      }
      return
    }
    if (this.#mismatch) return // the version check comes before the structure check
    if (depth === 2) {
      if (uri === expected && local === 'Header' && this.#section === BEFORE_HEADER) {
        this.#section = IN_HEADER
        this.#hasHeader = true
      } else if (uri === expected && local === 'Body' && this.#section < IN_BODY) {
        this.#section = IN_BODY
      } else {
        throw new SOAP_ERR_DECODE_STRUCTURE(`unexpected ${name} in Envelope`)
      }
      if (this.#is12 && this.#senderFault === undefined && hasEncodingStyle(attributes, expected)) {
        this.#senderFault = `env:encodingStyle is not allowed on ${local}`
      }
      return
    }
    const p = this.#tree.open(qname, uri, attributes, this.#scope)
    if (depth === 3) (this.#section === IN_HEADER ? this.#headerNodes : this.#bodyNodes).push(p)
  }

  closeTag (): void {
    if (!this.#mismatch) {
      if (this.#depth >= 3) {
        this.#tree.close()
      } else if (this.#depth === 2) {
        this.#section = this.#section === IN_HEADER ? AFTER_HEADER : AFTER_BODY
      }
    }
    this.#depth--
    this.#textRun = 0
  }

  text (text: string): void {
    const between = this.#depth <= 2
    if (!this.#counted(text.length, between, text)) return
    if (!between) this.#tree.text(text)
  }

  /**
   * A sibling learnt: kept when it is inside a header block or the Body's content, where it has a tree node (the
   * one closed last) to copy.
   */
  learned (_template: Template): boolean {
    if (this.#mismatch || this.#depth < 3) return false
    this.#learntNode = this.#tree.closedNode
    return true
  }

  /**
   * A sibling like the one learnt, taken whole when its events would pass
   * every limit. It has the learnt one's names, attributes and nesting, at
   * the same depth, so only how many elements there are and how long each
   * value is are checked again. Refused when one would fail: its events then
   * fail as they should.
   */
  repeat (template: Template, slots: readonly number[], values: ReadonlyArray<string | undefined>): boolean {
    const { maxElements, maxAttributeLength, maxTextLength } = this.#limits
    if (this.#elements + template.elements > maxElements) return false
    const quotes = template.quotes
    for (let k = 0; k < quotes.length; k++) {
      const length = values[k]?.length ?? slots[2 * k + 1] - slots[2 * k]
      if (length > (quotes[k] === 0 ? maxTextLength : maxAttributeLength)) return false
    }
    this.#elements += template.elements
    this.#tree.repeat(this.#learntNode, slots, values, this.#shaping ? this.#textNodes : undefined)
    this.#textRun = 0
    return true
  }

  sourceText (from: number, to: number): void {
    // A run that continues the text before it (after a comment) joins its node: no shape.
    if (this.#textRun !== 0) this.#shaping = false
    // Between the Envelope's children, the text is checked as a string.
    if (this.#depth <= 2) {
      this.text(this.#source.slice(from, to))
      if (this.#shaping) this.#textNodes.push(-1)
    } else if (this.#counted(to - from, false, '')) {
      const p = this.#tree.sourceText(from, to)
      if (this.#shaping) this.#textNodes.push(p)
    }
  }

  /**
   * Checks text against the text rules (`textRule`); whether to go on with
   * it (after a version mismatch, it is only counted against its limit).
   */
  #counted (length: number, between: boolean, text: string): boolean {
    const maxTextLength = this.#limits.maxTextLength
    const rule = textRule(this.#textRun += length, maxTextLength, between && !this.#mismatch, text)
    if (rule === TEXT_TOO_LONG) limit('maxTextLength', maxTextLength)
    if (rule === TEXT_NOT_SPACE) {
      throw new SOAP_ERR_DECODE_STRUCTURE(this.#depth === 1 ? 'text in Envelope' : 'text in Header or Body')
    }
    return !this.#mismatch
  }
}
