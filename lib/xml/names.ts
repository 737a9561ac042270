/**
 * Namespaces in XML 1.0: the scope of prefix bindings, and the names a reader
 * keeps from one document to the next (`NameMemory`).
 */
import { XML_NS, XMLNS_NS } from '../namespaces'
import { endsAsciiName, holdsCodesAt, interned } from './chars'

/*
 * An attribute event is a fresh object. Reusing them was measured slower on
 * large messages: each field written into a long-lived object that points to
 * a new string goes through the garbage collector's slow write barrier.
 */
export interface XmlAttributeEvent {
  readonly name: string
  readonly prefix: string
  readonly local: string
  /** Resolved once the start tag is complete; '' until then and for unprefixed attributes. */
  uri: string
  readonly value: string
  /** Its name, split and checked: the reader's (`QName`). */
  readonly qname: QName
}

/** Slots of the QName cache: a power of two. */
export const QNAME_SLOTS = 128
/** Longer names are not cached: what the cache keeps stays small whatever a message holds. */
export const CACHED_NAME_LENGTH = 64

/** A name split into prefix and local part, with the namespace its prefix had when last resolved. */
export interface QName {
  readonly name: string
  readonly prefix: string
  readonly local: string
  /** The namespace, valid while the scope's `changes` is `resolvedAt`. */
  uri: string
  resolvedAt: number
  /**
   * A cached name's character codes, compared with the text in place: a
   * load from an array of small integers is cheaper than a second charCodeAt.
   * NO_CODES for the others.
   */
  readonly codes: readonly number[]
  /** A cached name's slot in the cache; -1 for the others. */
  readonly slot: number
  /**
   * The slot of the name read after this one when it was last read (0 at
   * first): documents repeat their names in the same order, so that name is
   * looked for first (xml/reader.ts). A number only: no name keeps another.
   */
  after: number
  /**
   * The id a decoded tree gave this name with the namespace it then had, good
   * in the tree of message `treeMessage` alone (xml/tree.ts): a name met again
   * in a message is found without a lookup. Numbers only: a name kept
   * from one document to the next keeps nothing of them.
   */
  treeId: number
  treeMessage: number
}

export const NO_CODES: readonly number[] = []

/** A QName of these parts: its namespace not resolved yet, no tree id. */
export function qnameOf (name: string, prefix: string, local: string, codes: readonly number[], slot: number): QName {
  return { name, prefix, local, uri: '', resolvedAt: -1, codes, slot, after: 0, treeId: -1, treeMessage: 0 }
}

/**
 * The name read after `last` when `last` was last read, if `s` holds all of it at `start`: then it is the
 * cache's own name for these characters (the one in its slot), found without a scan.
 */
export function nameAfter (
  slots: ReadonlyArray<QName | undefined>, last: QName, s: string, start: number
): QName | undefined {
  const guess = slots[last.after]
  if (guess === undefined || !holdsCodesAt(s, start, guess.codes)) return undefined
  return endsAsciiName(s.charCodeAt(start + guess.codes.length)) ? guess : undefined
}

/** Whether a name is in the reader's cache, and so outlives the document. */
export function isKept (qname: QName): boolean {
  return qname.codes !== NO_CODES
}

/**
 * A namespace scope: the URIs bound to each prefix, innermost last; the
 * prefixes bound, in order; and how many of them each element that declares
 * some has bound, by its depth. Its arrays are kept from one document to the
 * next, the prefixes seen among them (at most 32).
 */
export class Namespaces {
  /** Counts changes of bindings, across documents: a cached QName's namespace is good while it stands still. */
  changes = 0

  readonly #bound = new Map<string, string[]>()
  #prefixes: string[] = []
  #declaredAt: number[] = []
  #declaredCount: number[] = []

  constructor () {
    this.reset(false)
  }

  /**
   * Back to no declarations but the xml prefix's, for a new document. After a
   * document read to its end (`clean`) every scope is closed already; the
   * prefixes seen are kept, but not too many.
   */
  reset (clean: boolean): void {
    const bound = this.#bound
    if (!clean || bound.size > 32) {
      bound.clear()
      bound.set('xml', [XML_NS])
      bound.set('', [''])
      this.#prefixes = []
      this.#declaredAt = []
      this.#declaredCount = []
    }
    this.changes++
  }

  /** The element at `depth` has declared the last `count` prefixes bound. */
  open (count: number, depth: number): void {
    this.#declaredAt.push(depth)
    this.#declaredCount.push(count)
  }

  bind (prefix: string, uri: string): void {
    const list = this.#bound.get(prefix)
    // A prefix stays a key past the document: a copy of its own (a slice would keep the document alive).
    if (list === undefined) this.#bound.set(interned(prefix), [uri]); else list.push(uri)
    this.#prefixes.push(prefix)
    this.changes++
  }

  /** Closes the element at `depth`, undoing its declarations. */
  close (depth: number): void {
    const at = this.#declaredAt
    if (at.length === 0 || at[at.length - 1] !== depth) return
    at.pop()
    for (let n = this.#declaredCount.pop() as number; n > 0; n--) {
      (this.#bound.get(this.#prefixes.pop() as string) as string[]).pop()
    }
    this.changes++
  }

  resolve (prefix: string): string | undefined {
    const list = this.#bound.get(prefix)
    return list === undefined || list.length === 0 ? undefined : list[list.length - 1]
  }
}

/**
 * What a reader keeps from one document to the next: the namespace scope's
 * arrays, up to QNAME_SLOTS names of up to CACHED_NAME_LENGTH characters, and
 * the patterns of repeated siblings (xml/siblings.ts, up to its PATTERNS).
 * Every string kept is a copy of its own (`interned`), so that no document is
 * kept alive by it.
 */
export class NameMemory {
  readonly scope = new Namespaces()
  /** QNames already split and checked, by a hash of their place. */
  readonly slots: Array<QName | undefined> = new Array(QNAME_SLOTS).fill(undefined)
  /** Sticky patterns of repeated siblings' markup, by their source. */
  readonly patterns = new Map<string, RegExp>()
}

/** Up to this many attributes on one element, uniqueness is checked pair by pair. */
const PAIRWISE_ATTRIBUTES = 8

/** An attribute in no namespace (or a declaration): unique by its raw name. */
function isUnqualified (a: XmlAttributeEvent): boolean {
  return a.uri === '' || a.uri === XMLNS_NS
}

function sameAttribute (a: XmlAttributeEvent, b: XmlAttributeEvent): boolean {
  const plain = isUnqualified(a)
  if (plain !== isUnqualified(b)) return false
  return plain ? a.name === b.name : a.local === b.local && a.uri === b.uri
}

/**
 * The first attribute that repeats another: by raw name, or by namespace and
 * local name (§3.1, NS §6.3). A few are compared pair by pair; more go
 * through sets keyed by the URI string itself, whose hash V8 keeps.
 */
export function duplicateAttribute (attributes: readonly XmlAttributeEvent[]): XmlAttributeEvent | undefined {
  if (attributes.length <= PAIRWISE_ATTRIBUTES) {
    for (let i = 1; i < attributes.length; i++) {
      const a = attributes[i]
      for (let j = 0; j < i; j++) if (sameAttribute(a, attributes[j])) return a
    }
    return undefined
  }
  const seen = new Map<string, Set<string>>()
  for (const a of attributes) {
    const plain = isUnqualified(a)
    const space = plain ? '' : a.uri
    const key = plain ? a.name : a.local
    let names = seen.get(space)
    if (names === undefined) seen.set(space, names = new Set())
    if (names.has(key)) return a
    names.add(key)
  }
  return undefined
}
