/**
 * Repeated siblings (xml/reader.ts): a list of records repeats the markup of
 * its first record, and only the values change. The reader learns the markup
 * of a sibling it has read, as pieces between slots (its attribute values and
 * text runs). A later sibling that holds the same pieces in the same order
 * is checked by comparing them in place, its slots found with one search each,
 * and handed to the handler whole (`XmlHandler.repeat`): the handler copies
 * what it made of the learnt one, with the new values.
 *
 * Why that is the same as reading it: the reader's every decision about
 * markup rests on the markup's own characters and on the namespaces in scope.
 * A template holds no namespace declaration, and is used only while the
 * parent of the sibling it was learnt from is open, so the namespaces in
 * scope at each sibling are the parent's. Slots the template cannot take as
 * they are (a reference other than the five predefined ones, a CR, a value
 * to normalise, an empty text, a long one) make the sibling read as events.
 *
 * The cost stays linear: a sibling is compared at most once, and read at
 * most once more; a template is learnt from at most TEMPLATE_LENGTH
 * characters of a sibling already read; at most PATTERNS_PER_DOCUMENT are
 * compiled a document, each after MATCHES_FOR_PATTERN siblings matched it;
 * no template outlives its document.
 */
import { holdsAt, interned, isSpace, MARKUP, predefinedAt, referenceLength } from './chars'
import type { QName } from './names'

const { AMP, EQUALS, GT, LT, QUOTE, SLASH } = MARKUP

/**
 * A sibling's markup: `pieces[0]`, slot 0, `pieces[1]`, … , the last piece.
 * A slot is an attribute value (`quotes[k]`, its quote's code) or a text run
 * (0). The pieces are slices of the document, let go with it.
 */
export interface Template {
  /** The sibling's name, and how many elements are open around it. */
  readonly qname: QName
  readonly depth: number
  readonly pieces: readonly string[]
  readonly quotes: readonly number[]
  /** How many elements it holds, itself included. */
  readonly elements: number
  /** How many siblings have matched it, while it is compared piece by piece. */
  matches: number
  /** Once MATCHES_FOR_PATTERN have, its pieces and slots as one sticky pattern: one native scan checks them. */
  pattern: RegExp | undefined
}

/** A sibling longer than this is read as it comes: its markup is not learnt. */
export const TEMPLATE_LENGTH = 2048
/** How many templates a document may compile to a pattern: what a pattern costs to make stays bounded. */
export const PATTERNS_PER_DOCUMENT = 4
/** A slot longer than this is read as events. */
export const SLOT_LENGTH = 256
/** After this many matches, a template is compiled to a pattern (a cost that the next siblings repay). */
export const MATCHES_FOR_PATTERN = 8

/** The end of the name at `i`, read without error: the first character that cannot be in it (or the end). */
function nameEnd (s: string, i: number): number {
  let code = s.charCodeAt(i)
  while (i < s.length && code !== GT && code !== SLASH && code !== EQUALS && !isSpace(code)) code = s.charCodeAt(++i)
  return i
}

/**
 * The template of the element named `qname` at [from, to) of `s`, read without
 * error with `depth` elements open around it; undefined when it holds what a
 * template does not (a comment, a CDATA section, a namespace declaration, a
 * prefixed attribute). It is at most TEMPLATE_LENGTH long (`Siblings.ended`).
 */
export function learn (s: string, from: number, to: number, depth: number, qname: QName): Template | undefined {
  const pieces: string[] = []
  const quotes: number[] = []
  // Where the piece in progress starts.
  let piece = from
  let i = from
  let elements = 0
  while (i < to) {
    if (s.charCodeAt(i) !== LT) {
      pieces.push(s.slice(piece, i))
      quotes.push(0)
      piece = i = s.indexOf('<', i)
      continue
    }
    const next = s.charCodeAt(i + 1)
    if (next === SLASH) {
      i = s.indexOf('>', i) + 1
      continue
    }
    if (next === 0x21 || next === 0x3f) return undefined
    elements++
    i = nameEnd(s, i + 1)
    for (;;) {
      while (isSpace(s.charCodeAt(i))) i++
      const code = s.charCodeAt(i)
      if (code === GT || code === SLASH) {
        i += code === GT ? 1 : 2
        break
      }
      const end = nameEnd(s, i)
      const name = s.slice(i, end)
      if (name === 'xmlns' || name.includes(':')) return undefined
      i = s.indexOf('=', end) + 1
      while (isSpace(s.charCodeAt(i))) i++
      const quote = s.charCodeAt(i)
      pieces.push(s.slice(piece, i + 1))
      quotes.push(quote)
      // The closing quote begins the next piece.
      piece = s.indexOf(quote === QUOTE ? '"' : "'", i + 1)
      i = piece + 1
    }
  }
  pieces.push(s.slice(piece, to))
  return { qname, depth, pieces, quotes, elements, matches: 0, pattern: undefined }
}

/**
 * Where the element at `at` of `s` ends if it holds `template`'s pieces in
 * order, each slot's [from, to) then in `slots`; else -1. An attribute value
 * ends at its quote, a text run at the next '<'.
 */
export function match (template: Template, s: string, at: number, slots: number[]): number {
  const pattern = template.pattern
  const pieces = template.pieces
  const quotes = template.quotes
  if (pattern !== undefined) {
    pattern.lastIndex = at
    if (!pattern.test(s)) return -1
  }
  let i = at
  for (let k = 0; k < quotes.length; k++) {
    const piece = pieces[k]
    if (pattern === undefined && !holdsAt(s, i, piece)) return -1
    i += piece.length
    const quote = quotes[k]
    const end = s.indexOf(quote === 0 ? '<' : quote === QUOTE ? '"' : "'", i)
    if (end === -1) return -1
    slots[2 * k] = i
    slots[2 * k + 1] = i = end
  }
  const last = pieces[quotes.length]
  if (pattern === undefined && !holdsAt(s, i, last)) return -1
  template.matches++
  return i + last.length
}

/**
 * What a reader keeps of repeated siblings while it reads a document: the
 * template learnt last, the element closed last, the sibling being learnt.
 */
export class Siblings {
  /** The template learnt last, while the parent of its sibling is open. */
  template: Template | undefined = undefined
  /** The slots of the sibling matched last ([from, to) pairs), and their values (slotValue). */
  readonly slots: number[] = []
  readonly values: Array<string | undefined> = []
  /** The element closed last, and how many elements were open around it. */
  #closed: QName | undefined = undefined
  #closedDepth = -1
  /** Where the sibling being learnt starts (-1: none), and at what depth. */
  #learnAt = -1
  #learnDepth = -1
  /**
   * A name whose siblings are not learnt at this depth while their parent is open: one was too long, or its
   * handler keeps no template there. Learning each would read it twice, and keep others inside it from being learnt.
   */
  #unlearnt: QName | undefined = undefined
  #unlearntDepth = -1
  /** How many templates of this document have a pattern. */
  #patterns = 0

  /** `patterns`: the patterns kept from one document to the next (`NameMemory.patterns`). */
  constructor (private readonly patterns: Map<string, RegExp>) {}

  /**
   * Forgets the document: no value of it is kept (an attribute's may be a slice of it), nor its last match
   * (a regular expression's last match keeps its subject: `RegExp.lastMatch`).
   */
  reset (): void {
    if (this.#patterns !== 0) NOTHING.test('')
    this.values.length = 0
    this.template = this.#closed = this.#unlearnt = undefined
    this.#closedDepth = this.#learnAt = this.#learnDepth = this.#unlearntDepth = -1
    this.#patterns = 0
  }

  /**
   * A start tag named `qname` at `at`, `depth` elements open around it: learnt if it repeats the one closed last
   * and no template is kept (one whose sibling was read as events, a slot refused, still holds).
   */
  started (qname: QName, depth: number, at: number): void {
    const again = qname === this.#closed && depth === this.#closedDepth
    const unlearnt = qname === this.#unlearnt && depth === this.#unlearntDepth
    if (again && !unlearnt && this.template === undefined && this.#learnAt === -1) {
      this.#learnAt = at
      this.#learnDepth = depth
    }
  }

  /**
   * The element named `qname`, `depth` open around it, ended at `end` of `s`: the template learnt from it, if it
   * was being learnt, for the reader to keep (`template`) if its handler does. A template whose sibling's parent
   * ended is dropped.
   */
  ended (s: string, qname: QName, depth: number, end: number): Template | undefined {
    this.#closed = qname
    this.#closedDepth = depth
    if (depth === this.#learnDepth) {
      const from = this.#learnAt
      this.#learnAt = this.#learnDepth = -1
      if (end - from <= TEMPLATE_LENGTH) return learn(s, from, end, depth, qname)
      this.#unlearn(qname, depth)
      return undefined
    }
    if (this.template !== undefined && depth < this.template.depth) this.template = undefined
    if (depth < this.#unlearntDepth) this.#unlearn(undefined, -1)
    return undefined
  }

  /** `template`, just learnt, is kept (its handler takes its siblings whole), or its name is not learnt again here. */
  keep (template: Template, kept: boolean): void {
    if (kept) this.template = template
    else this.#unlearn(template.qname, template.depth)
  }

  #unlearn (qname: QName | undefined, depth: number): void {
    this.#unlearnt = qname
    this.#unlearntDepth = depth
  }

  /**
   * Where the element at `at` of `s` ends if it holds `template`'s markup, its slots and values then filled; else
   * -1, and the template is dropped. -1 too, the template kept, when a slot has no value (slotValue).
   */
  matched (template: Template, s: string, at: number): number {
    const slots = this.slots
    const end = match(template, s, at, slots)
    if (end === -1) {
      this.template = undefined
      return -1
    }
    const quotes = template.quotes
    for (let k = 0; k < quotes.length; k++) {
      const value = slotValue(s, slots[2 * k], slots[2 * k + 1], quotes[k] !== 0)
      if (value === null) return -1
      this.values[k] = value
    }
    // From the MATCHES_FOR_PATTERN-th match on (a sibling whose slot is refused is matched, but read as events).
    const ripe = template.pattern === undefined && template.matches >= MATCHES_FOR_PATTERN
    if (ripe && this.#patterns < PATTERNS_PER_DOCUMENT) {
      template.pattern = patternOf(this.patterns, template.pieces, quotes)
      this.#patterns++
    }
    return end
  }

  /** The element was read from `template`, whole. */
  repeated (template: Template): void {
    this.#closed = template.qname
    this.#closedDepth = template.depth
  }
}

/** Patterns kept, by their source (`NameMemory.patterns`): a client sends the same records again. */
export const PATTERNS = 32
const SPECIAL = /[\\^$.*+?()[\]{}|/]/g
/** Matches any text: a match of its own, so that the last one keeps no document. */
const NOTHING = /(?:)/

/** The pattern of a template's pieces and slots: compiled, or found in `patterns`, which keeps it. */
function patternOf (patterns: Map<string, RegExp>, pieces: readonly string[], quotes: readonly number[]): RegExp {
  let source = ''
  for (let k = 0; k < quotes.length; k++) {
    const slot = quotes[k] === 0 ? '[^<]*' : quotes[k] === QUOTE ? '[^"]*' : "[^']*"
    source += pieces[k].replace(SPECIAL, '\\$&') + slot
  }
  source += pieces[quotes.length].replace(SPECIAL, '\\$&')
  let pattern = patterns.get(source)
  if (pattern === undefined) {
    if (patterns.size === PATTERNS) patterns.delete(patterns.keys().next().value as string)
    pattern = new RegExp(source, 'y')
    // Interned: the source may be a slice of the document.
    patterns.set(interned(source), pattern)
  }
  return pattern
}

/**
 * A slot's value, for a sibling taken whole: an attribute value that stands
 * as it is (no reference, no white space to replace, no '<'); a text run's
 * characters, undefined when they stand as written, or with the predefined
 * entities resolved. Null for any other, read as events: an empty text, one
 * longer than SLOT_LENGTH, a character reference, a CR, "]]>".
 */
export function slotValue (s: string, from: number, to: number, attribute: boolean): string | undefined | null {
  if (to - from > SLOT_LENGTH || (!attribute && to === from)) return null
  let out: string | undefined
  let last = from
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i)
    if (c > GT) continue
    if (c === AMP) {
      const predefined = attribute ? undefined : predefinedAt(s, i + 1)
      if (predefined === undefined) return null
      out = (out ?? '') + s.slice(last, i) + predefined
      last = i + referenceLength(predefined)
      i = last - 1
    } else if (c === 0x0d || (!attribute && c === GT && s.charCodeAt(i - 1) === 0x5d && s.charCodeAt(i - 2) === 0x5d)) {
      return null
    } else if (attribute && (c === LT || c === 0x09 || c === 0x0a)) {
      return null
    }
  }
  if (attribute) return s.slice(from, to)
  return out === undefined ? undefined : out + s.slice(last, to)
}
