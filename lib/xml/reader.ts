/**
 * Stage 2b's reader: a strict XML 1.0 (fifth edition) and Namespaces in XML 1.0
 * reader for whole documents held in one string, built for speed: it finds
 * markup with `indexOf` and names with sticky regular expressions instead of
 * walking character by character, and checks every character of the document
 * with one regular expression. It reads no DTD and expands no entity but the
 * five predefined ones and character references; a DOCTYPE or a processing
 * instruction is refused, after the handler has had a chance to throw its own error.
 *
 * The first error stops the read with an `XmlReadError`.
 */
import { XML_NS, XMLNS_NS } from '../namespaces'
import {
  asciiNameEnd, codesOf, declaresNamespace, disallowedAt, FLAT_RUN, flattened, holdsAt, holdsCodesAt,
  interned, isChar, isSpace, NAME, NCNAME_START, NextOf, predefinedAt, referenceLength
} from './chars'
import {
  CACHED_NAME_LENGTH, duplicateAttribute, isKept, nameAfter, NameMemory, NO_CODES, QNAME_SLOTS, qnameOf,
  type Namespaces, type QName, type XmlAttributeEvent
} from './names'
import { XmlReadError, type XmlHandler } from './handler'
import { Siblings, type Template } from './siblings'

export { XmlReadError }
export type { QName, XmlAttributeEvent, XmlHandler }

// eslint-disable-next-line @stylistic/max-len -- a regular expression literal cannot be wrapped
const XML_DECL = /<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(?:"(1\.[0-9]+)"|'(1\.[0-9]+)')(?:[ \t\r\n]+encoding[ \t\r\n]*=[ \t\r\n]*(?:"([A-Za-z][A-Za-z0-9._-]*)"|'([A-Za-z][A-Za-z0-9._-]*)'))?(?:[ \t\r\n]+standalone[ \t\r\n]*=[ \t\r\n]*(?:"(?:yes|no)"|'(?:yes|no)'))?[ \t\r\n]*\?>/y
// Leading zeros are allowed (§4.1); the value is checked after.
const CHAR_REF = /^#(?:0*([0-9]{1,7})|x0*([0-9A-Fa-f]{1,6}))$/
const LINE_END = /\r\n?/g
const ATTRIBUTE_SPACE = /\r\n|[\t\n\r]/g

const LT = 0x3c
const GT = 0x3e
const SLASH = 0x2f
const BANG = 0x21
const QUESTION = 0x3f
const AMP = 0x26

/** The attributes of every tag that has none. */
const NO_ATTRIBUTES: XmlAttributeEvent[] = []

export class XmlReader {
  readonly #handler: XmlHandler
  #s = ''
  #i = 0
  // The next '&', CR and "]]>" of the document, each part of it searched once.
  readonly #amp = new NextOf('&')
  readonly #cr = new NextOf('\r')
  readonly #cdataEnd = new NextOf(']]>')
  // And for attribute values, the next '<', tab and line feed: a value before all of them stands as it is.
  readonly #lt = new NextOf('<')
  readonly #tab = new NextOf('\t')
  readonly #lf = new NextOf('\n')
  /** The open elements' names, innermost last. */
  readonly #names: QName[] = []
  /** The namespace scope, kept between documents (NameMemory). */
  readonly #ns: Namespaces
  /** Whether the last document was read to its end, leaving no scope open. */
  #clean = false
  /** QNames already split and checked, by a hash of their place: documents repeat their names (NameMemory). */
  readonly #qnames: Array<QName | undefined>
  /**
   * The cached names whose namespace this document has resolved: the first
   * `#resolvedCount` (each once). Names that left the cache since are among
   * them, so there may be many; none is kept past the document.
   */
  readonly #resolved: Array<QName | undefined> = []
  #resolvedCount = 0
  /** The cached name read last in this document, if the last name read was one: what comes after it is guessed. */
  #lastName: QName | undefined = undefined
  /** The scope's `changes` when this document started. */
  #started = 0
  /**
   * When asked for: the document's character data as [from, to) pairs, while
   * all of it stands as written in text runs (no reference, no CR, no CDATA
   * section): what a `Markup` is made from.
   */
  readonly #runs: number[] = []
  #plain = false
  /** Repeated siblings, when the handler takes them whole (`XmlHandler.repeat`). */
  readonly #siblings: Siblings | undefined

  /**
   * `memory` is what the reader keeps from one document to the next: give each reader its own. `siblings`
   * false: no element is handed over whole, even to a handler that takes repeated siblings.
   */
  constructor (handler: XmlHandler, memory: NameMemory = new NameMemory(), siblings = true) {
    this.#handler = handler
    this.#ns = memory.scope
    this.#qnames = memory.slots
    this.#siblings = siblings && handler.repeat !== undefined ? new Siblings(memory.patterns) : undefined
  }

  /** Reads a document; `runs`: notes where its text is (`plainRuns`); `paired`: no surrogate alone (disallowedAt). */
  read (source: string, runs = false, paired = false): void {
    this.#s = source
    this.#i = 0
    this.#runs.length = 0
    this.#plain = runs
    this.#amp.reset()
    this.#cr.reset()
    this.#lt.reset()
    this.#tab.reset()
    this.#lf.reset()
    this.#cdataEnd.reset()
    this.#started = this.#ns.changes
    this.#clean = false
    this.#lastName = undefined
    try {
      const bad = disallowedAt(source, paired)
      if (bad !== -1) this.#fail('disallowed character', bad)
      this.#prolog()
      this.#element()
      this.#misc(true)
      if (this.#i < source.length) this.#fail('content after the document element')
      this.#clean = true
    } finally {
      // Nothing of the document is kept past it: the reader may not read another for a while.
      this.#s = ''
      this.#siblings?.reset()
      this.#names.length = 0
      this.#ns.reset(this.#clean)
      // A resolved namespace is good for this document only, and may be a slice of it.
      const resolved = this.#resolved
      for (let i = 0; i < this.#resolvedCount; i++) {
        (resolved[i] as QName).uri = ''
        resolved[i] = undefined
      }
      if (resolved.length > QNAME_SLOTS) resolved.length = QNAME_SLOTS
      this.#resolvedCount = 0
    }
  }

  /**
   * The last document's character data as [from, to) pairs, if it was read to
   * its end with `runs` and all of its character data stood as written in text runs.
   */
  get plainRuns (): readonly number[] | undefined {
    return this.#clean && this.#plain ? this.#runs : undefined
  }

  #fail (message: string, at = this.#i): never {
    throw new XmlReadError(message, at)
  }

  #skipSpace (): boolean {
    const s = this.#s
    const start = this.#i
    let i = start
    while (i < s.length && isSpace(s.charCodeAt(i))) i++
    this.#i = i
    return i > start
  }

  #name (): string {
    const s = this.#s
    const start = this.#i
    const end = asciiNameEnd(s, start)
    if (end !== -1) {
      this.#i = end
      return s.slice(start, end)
    }
    NAME.lastIndex = start
    const match = NAME.exec(s)
    if (match === null) this.#fail('a name was expected')
    this.#i = NAME.lastIndex
    return match[0]
  }

  /** Splits a QName; Namespaces in XML §3: at most one colon, between two NCNames. */
  #qname (name: string, at: number): [string, string] {
    const colon = name.indexOf(':')
    if (colon === -1) return ['', name]
    const local = name.slice(colon + 1)
    const first = local.charCodeAt(0)
    const startsLikeName = (first >= 0x61 && first <= 0x7a) || (first >= 0x41 && first <= 0x5a) || first === 0x5f ||
      (first >= 0x80 && NCNAME_START.test(local))
    if (colon === 0 || !startsLikeName || local.includes(':')) this.#fail(`malformed qualified name ${name}`, at)
    return [name.slice(0, colon), local]
  }

  /**
   * The QName at the current position, split and checked (#qname). The name read after the last one when that
   * was last read is compared first, without a scan (nameAfter); else an ASCII name of up to CACHED_NAME_LENGTH
   * seen before is found in a small direct-mapped cache by its length and end characters, compared in place.
   * A name seen before costs no new string.
   */
  #qnameHere (at: number): QName {
    const s = this.#s
    const start = this.#i
    const last = this.#lastName
    const guess = last === undefined ? undefined : nameAfter(this.#qnames, last, s, start)
    if (guess !== undefined) {
      this.#i = start + guess.codes.length
      this.#lastName = guess
      return guess
    }
    const qname = this.#cachedQName(at)
    if (last !== undefined && qname.slot !== -1) last.after = qname.slot
    this.#lastName = qname.slot === -1 ? undefined : qname
    return qname
  }

  #cachedQName (at: number): QName {
    const s = this.#s
    const start = this.#i
    const end = asciiNameEnd(s, start)
    if (end !== -1 && end - start <= CACHED_NAME_LENGTH) {
      const length = end - start
      const slot = (length * 31 + s.charCodeAt(start) * 7 + s.charCodeAt(end - 1)) & (QNAME_SLOTS - 1)
      const known = this.#qnames[slot]
      this.#i = end
      if (known !== undefined && known.codes.length === length && holdsCodesAt(s, start, known.codes)) return known
      // Kept for later documents: interned, so copies of their own.
      const name = interned(s.slice(start, end))
      const [prefix, local] = this.#qname(name, at)
      const qname = qnameOf(name, interned(prefix), interned(local), codesOf(name), slot)
      this.#qnames[slot] = qname
      return qname
    }
    const name = this.#name()
    const [prefix, local] = this.#qname(name, at)
    return qnameOf(name, prefix, local, NO_CODES, -1)
  }

  #prolog (): void {
    const s = this.#s
    if (s.startsWith('<?xml') && isSpace(s.charCodeAt(5))) {
      XML_DECL.lastIndex = 0
      const decl = XML_DECL.exec(s)
      if (decl === null) this.#fail('malformed XML declaration', 0)
      this.#i = XML_DECL.lastIndex
      this.#handler.xmlDecl(decl[1] ?? decl[2], decl[3] ?? decl[4])
    }
    this.#misc(false)
    if (s.startsWith('<!DOCTYPE', this.#i)) {
      this.#handler.doctype()
      this.#fail('document type declaration') // refused, whatever the handler did
    }
    if (this.#i >= s.length) this.#fail('no document element')
    if (s.charCodeAt(this.#i) !== LT) this.#fail('text before the document element')
  }

  /** Misc* (§2.8): white space, comments and processing instructions around the document element. */
  #misc (after: boolean): void {
    const s = this.#s
    for (;;) {
      this.#skipSpace()
      if (s.startsWith('<!--', this.#i)) {
        this.#comment()
      } else if (s.startsWith('<?', this.#i)) {
        this.#pi()
      } else {
        if (after && this.#i < s.length) {
          this.#fail(s.charCodeAt(this.#i) === LT ? 'a second document element' : 'text after the document element')
        }
        return
      }
    }
  }

  #comment (): void {
    const s = this.#s
    const start = this.#i + 4
    const end = s.indexOf('--', start)
    if (end === -1 || s.charCodeAt(end + 2) !== GT) this.#fail('malformed comment')
    this.#i = end + 3
  }

  #pi (): void {
    const at = this.#i
    this.#i += 2
    const target = this.#name()
    if (target.toLowerCase() === 'xml') this.#fail('an XML declaration not at the start of the document', at)
    this.#handler.processingInstruction(target)
    this.#fail(`processing instruction ${target}`, at) // refused, whatever the handler did
  }

  /** The document element and everything in it, with an explicit stack of open names. */
  #element (): void {
    const s = this.#s
    const handler = this.#handler
    const names = this.#names
    do {
      // Markup often follows markup: then no search.
      const lt = s.charCodeAt(this.#i) === LT ? this.#i : s.indexOf('<', this.#i)
      if (lt === -1) this.#fail(`unclosed element ${names[names.length - 1].name}`, s.length)
      if (lt > this.#i) this.#text(this.#i, lt)
      this.#i = lt
      const next = s.charCodeAt(lt + 1)
      if (next === SLASH) {
        this.#endTag()
      } else if (next === BANG) {
        if (s.startsWith('<!--', lt)) {
          this.#comment()
        } else if (s.startsWith('<![CDATA[', lt)) {
          if (names.length === 0) this.#fail('a CDATA section outside the document element')
          const end = s.indexOf(']]>', lt + 9)
          if (end === -1) this.#fail('unterminated CDATA section')
          if (end > lt + 9) {
            this.#plain = false
            if (this.#cr.from(s, lt + 9) >= end) handler.sourceText(lt + 9, end)
            else handler.text(s.slice(lt + 9, end).replace(LINE_END, '\n'))
          }
          this.#i = end + 3
        } else {
          this.#fail('markup declarations are not allowed in content')
        }
        if (names.length === 0) this.#fail('no document element')
      } else if (next === QUESTION) {
        if (names.length === 0) this.#fail('no document element')
        this.#pi()
      } else {
        const template = this.#siblings?.template
        if (template === undefined || names.length !== template.depth || !this.#repeated(template, lt)) this.#startTag()
      }
    } while (names.length > 0)
  }

  /**
   * Whether the attribute value [from, to) stands as it is: no reference, no white space to replace (§3.3.3),
   * no '<'.
   */
  #plainValue (from: number, to: number): boolean {
    const s = this.#s
    return this.#amp.from(s, from) >= to && this.#lt.from(s, from) >= to && this.#lf.from(s, from) >= to &&
      this.#cr.from(s, from) >= to && this.#tab.from(s, from) >= to
  }

  /** Character data between `from` and `to`: references resolved, line ends normalised. */
  #text (from: number, to: number): void {
    if (this.#names.length === 0) this.#fail('text outside the document element', from)
    // Most runs are the document's characters as they stand: then no string is made here.
    const s = this.#s
    // A run that stands as written (xml/markup.ts recognises one by the same test).
    if (this.#amp.from(s, from) >= to && this.#cr.from(s, from) >= to && this.#cdataEnd.from(s, from) >= to) {
      if (this.#plain) this.#runs.push(from, to)
      this.#handler.sourceText(from, to)
      return
    }
    this.#plain = false
    const text = this.#oneReference(from, to) ?? this.#characters(from, to, false)
    if (text !== '') this.#handler.text(text)
  }

  /**
   * A run that stands as written but for one predefined entity reference (most runs with one): its characters,
   * one string made at once. Undefined for any other run, which `#characters` reads.
   */
  #oneReference (from: number, to: number): string | undefined {
    const s = this.#s
    const amp = this.#amp.from(s, from)
    if (this.#cr.from(s, from) < to || this.#cdataEnd.from(s, from) < to) return undefined
    const predefined = predefinedAt(s, amp + 1)
    if (predefined === undefined) return undefined
    // A second reference: looked for char by char after this one (not with `#amp`, which only moves forward).
    const after = amp + referenceLength(predefined)
    for (let i = after; i < to; i++) if (s.charCodeAt(i) === AMP) return undefined
    return flattened(s.slice(from, amp) + predefined + s.slice(after, to))
  }

  /**
   * The characters of a text run or of an attribute value (AttValue, §2.3):
   * references resolved, and line ends normalised (§2.11) or, in an attribute,
   * white space turned into spaces as for CDATA (§3.3.3). A piece between
   * references never holds a CR LF pair across its end: pieces end at '&'.
   */
  #characters (from: number, to: number, attribute: boolean): string {
    const s = this.#s
    // What is read so far: `done`, made one string every FLAT_RUN characters (chars.ts), then `out`.
    let done = ''
    let out = ''
    let i = from
    while (i < to) {
      if (out.length > FLAT_RUN) {
        done += flattened(out)
        out = ''
      }
      const amp = this.#amp.from(s, i)
      const end = amp > to ? to : amp
      if (end > i) {
        const piece = s.slice(i, end)
        if (attribute) {
          if (piece.includes('<')) this.#fail('"<" in an attribute value', i)
          out += piece.replace(ATTRIBUTE_SPACE, ' ')
        } else {
          const cdataEnd = this.#cdataEnd.from(s, i)
          if (cdataEnd < end) this.#fail('"]]>" in character data', cdataEnd)
          out += this.#cr.from(s, i) < end ? piece.replace(LINE_END, '\n') : piece
        }
      }
      if (end === to) break
      const predefined = predefinedAt(s, amp + 1)
      if (predefined !== undefined) {
        out += predefined
        i = amp + referenceLength(predefined)
        continue
      }
      const semi = s.indexOf(';', amp)
      if (semi === -1 || semi > to) this.#fail('unterminated reference', amp)
      out += this.#reference(s.slice(amp + 1, semi), amp)
      i = semi + 1
    }
    // One string, not the pieces it was made of: values are kept as long as the request.
    return flattened(done + out)
  }

  /** A character reference, or an undefined entity (the predefined ones are read by predefinedAt). */
  #reference (body: string, at: number): string {
    const ref = CHAR_REF.exec(body)
    if (ref === null) this.#fail(`undefined entity &${body};`, at)
    const code = ref[1] !== undefined ? parseInt(ref[1], 10) : parseInt(ref[2], 16)
    if (!isChar(code)) this.#fail(`character reference &${body}; to a disallowed character`, at)
    return String.fromCodePoint(code)
  }

  #startTag (): void {
    const s = this.#s
    const handler = this.#handler
    const at = this.#i
    this.#i++
    const qname = this.#qnameHere(at)
    const name = qname.name
    const depth = this.#names.length
    this.#siblings?.started(qname, depth, at)
    handler.openTagStart(name)
    let attributes = NO_ATTRIBUTES
    let selfClosing = false
    for (;;) {
      const spaced = this.#skipSpace()
      const code = s.charCodeAt(this.#i)
      if (code === GT) { this.#i++; break }
      if (code === SLASH) {
        if (s.charCodeAt(this.#i + 1) !== GT) this.#fail('"/" not followed by ">" in a start tag')
        this.#i += 2
        selfClosing = true
        break
      }
      if (!spaced) {
        this.#fail(Number.isNaN(code) ? `unclosed start tag ${name}` : 'white space is required between attributes')
      }
      const attributeAt = this.#i
      const attribute = this.#qnameHere(attributeAt)
      const attributeName = attribute.name
      this.#skipSpace()
      if (s.charCodeAt(this.#i) !== 0x3d) this.#fail(`attribute ${attributeName} has no value`)
      this.#i++
      this.#skipSpace()
      const quote = s.charCodeAt(this.#i)
      if (quote !== 0x22 && quote !== 0x27) this.#fail(`the value of attribute ${attributeName} is not quoted`)
      const end = s.indexOf(quote === 0x22 ? '"' : "'", this.#i + 1)
      if (end === -1) this.#fail(`unterminated value of attribute ${attributeName}`)
      const value = this.#value(this.#i + 1, end)
      this.#i = end + 1
      const event: XmlAttributeEvent = {
        name: attributeName, prefix: attribute.prefix, local: attribute.local, uri: '', value, qname: attribute
      }
      handler.attribute(event)
      if (attributes === NO_ATTRIBUTES) attributes = [event]; else attributes.push(event)
    }
    const uri = this.#openScope(qname, attributes, at)
    handler.openTag(name, qname.prefix, qname.local, uri, attributes, qname)
    if (selfClosing) {
      this.#ns.close(depth + 1)
      handler.closeTag()
      this.#ended(qname, depth)
    } else {
      this.#names.push(qname)
    }
  }

  /** An attribute's value, [from, to) of the text: as it stands, or normalised (#characters). */
  #value (from: number, to: number): string {
    return this.#plainValue(from, to) ? this.#s.slice(from, to) : this.#characters(from, to, true)
  }

  /** Namespaces in XML §3–§6: declarations, reserved names, resolution and unique attributes. */
  #openScope (qname: QName, attributes: XmlAttributeEvent[], at: number): string {
    // A tag without attributes whose name was resolved in the scope as it stands: its namespace is known.
    if (attributes === NO_ATTRIBUTES && qname.resolvedAt === this.#ns.changes) return qname.uri
    const prefix = qname.prefix
    let declared = 0
    for (const a of attributes) {
      if (!declaresNamespace(a)) continue
      const isDefault = a.prefix === ''
      const bound = isDefault ? '' : a.local
      if (bound === 'xmlns') this.#fail('the xmlns prefix cannot be declared', at)
      if (a.value === XMLNS_NS) this.#fail('the xmlns namespace cannot be bound', at)
      if (bound === 'xml' ? a.value !== XML_NS : a.value === XML_NS) {
        this.#fail('the xml prefix and its namespace go together', at)
      }
      if (!isDefault && a.value === '') this.#fail(`prefix ${bound} cannot be undeclared in XML 1.0`, at)
      a.uri = XMLNS_NS
      declared++ // a second declaration of one prefix is a duplicate attribute, refused below
      this.#ns.bind(bound, a.value)
    }
    if (declared !== 0) this.#ns.open(declared, this.#names.length + 1)
    if (prefix === 'xmlns') this.#fail('an element cannot have the prefix xmlns', at)
    let uri = qname.uri
    const changes = this.#ns.changes
    if (qname.resolvedAt !== changes) {
      uri = prefix === '' ? this.#ns.resolve('') as string : this.#resolvePrefix(prefix, at)
      if (isKept(qname) && qname.resolvedAt < this.#started) this.#resolved[this.#resolvedCount++] = qname
      qname.uri = uri
      qname.resolvedAt = changes
    }
    for (const a of attributes) {
      if (a.prefix !== '' && a.prefix !== 'xmlns') a.uri = this.#resolvePrefix(a.prefix, at)
    }
    if (attributes.length > 1) {
      const repeated = duplicateAttribute(attributes)
      if (repeated !== undefined) this.#fail(`duplicate attribute ${repeated.name}`, at)
    }
    return uri
  }

  /** A prefix's namespace; an unbound prefix is an error (the default namespace alone may be none). */
  #resolvePrefix (prefix: string, at: number): string {
    const uri = this.#ns.resolve(prefix)
    if (uri === undefined || uri === '') this.#fail(`unbound prefix ${prefix}`, at)
    return uri
  }

  #endTag (): void {
    const s = this.#s
    const at = this.#i
    const open = this.#names.pop()
    // The common case, the open element's name then '>', needs no name scan.
    if (
      open !== undefined &&
      (isKept(open) ? holdsCodesAt(s, at + 2, open.codes) : holdsAt(s, at + 2, open.name)) &&
      s.charCodeAt(at + 2 + open.name.length) === GT
    ) {
      this.#i = at + 3 + open.name.length
    } else {
      this.#i += 2
      const name = this.#name()
      this.#skipSpace()
      if (s.charCodeAt(this.#i) !== GT) this.#fail(`malformed end tag ${name}`, at)
      this.#i++
      if (open?.name !== name) {
        this.#fail(
          open === undefined ? `end tag ${name} without a start tag` : `end tag ${name} does not match ${open.name}`,
          at
        )
      }
    }
    const depth = this.#names.length
    this.#ns.close(depth + 1)
    this.#handler.closeTag()
    this.#ended(open as QName, depth)
  }

  /** An element closed, `depth` open around it: a template learnt (xml/siblings.ts) is kept if the handler keeps it. */
  #ended (qname: QName, depth: number): void {
    const siblings = this.#siblings
    const template = siblings?.ended(this.#s, qname, depth, this.#i)
    if (template !== undefined) (siblings as Siblings).keep(template, this.#handler.learned?.(template) === true)
  }

  /**
   * Reads the element at `at` from `template`, if it holds its markup and the handler takes it whole
   * (`XmlHandler.repeat`): its text runs noted as `#text` notes them.
   */
  #repeated (template: Template, at: number): boolean {
    const siblings = this.#siblings as Siblings
    const end = siblings.matched(template, this.#s, at)
    const { slots, values } = siblings
    if (end === -1 || this.#handler.repeat?.(template, slots, values) !== true) return false
    const quotes = template.quotes
    for (let k = 0; k < quotes.length; k++) {
      if (quotes[k] !== 0) continue
      if (values[k] !== undefined) this.#plain = false
      else if (this.#plain) this.#runs.push(slots[2 * k], slots[2 * k + 1])
    }
    siblings.repeated(template)
    this.#i = end
    return true
  }
}
