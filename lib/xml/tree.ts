/**
 * Stage 2c: the decoded tree. The header blocks and the Body's payload, as the
 * decoder met them, held in two arrays of integers and the text the decoder checked:
 * a text node is a pair of offsets into that text, a name is an index into a
 * table of the message's distinct names. A large message thus costs a handful
 * of allocations, not several per element, and the garbage collector has
 * almost nothing to copy while it is read.
 *
 * The codec (lib/codec/read.ts) reads values straight from it. `XmlElement`s, the
 * public form, are built from it only when asked for: `request.soap.body`,
 * header blocks, and `xml.any` content.
 */
import type { QName, XmlAttributeEvent } from './reader'
import { XMLNS_NS, XSI_NS } from '../namespaces'
import type { XmlAttribute, XmlElement } from './element'
import type { Namespaces } from './names'
import { isNCName, trimXmlSpace } from './chars'

/** A name as written, with its namespace: one entry per distinct pair in a message. */
export interface TreeName {
  readonly name: string
  readonly prefix: string
  readonly localName: string
  readonly namespace: string
  /** The codec's memo: the last object shape this name was looked up in, and what was found there. */
  memoShape: object | null
  memoField: unknown
}

/*
 * A node is four integers at offset `p` (a multiple of 4) of the message's
 * part of `nodes` (from `nodesBase`):
 *   element: name, end (the offset after its last descendant), first attribute, attribute count
 *   text:    TEXT, from, to, string: the source's characters [from, to), or strings[string] when string ≥ 0
 * An element's children are the nodes from p + 4 to its end, each followed by
 * its next sibling at `next()`. Adjacent text is one node.
 * An attribute is two integers of `attributes` (from `attributesBase`): its name, and its value in strings.
 * Those arrays are slabs shared with other messages (a view of its own would
 * cost each message two more objects): offsets are from the message's start.
 */
export const TEXT = -1
const STRIDE = 4

/**
 * The type an element names with `xsi:type` (XML Schema 1.0 Part 1 §2.6.1),
 * resolved where it was written: its prefix means what it meant there, which
 * the tree keeps no declarations to say later. `null`: not a QName, or its
 * prefix is not declared.
 */
export type XsiType = { readonly namespace: string, readonly localName: string } | null

export class XmlTree {
  constructor (
    readonly source: string,
    readonly nodes: Int32Array,
    readonly attributes: Int32Array,
    readonly names: readonly TreeName[],
    readonly strings: readonly string[],
    readonly nodesBase = 0,
    readonly attributesBase = 0,
    /** The `xsi:type` of each element that has one, by offset; undefined when none has. */
    readonly types: ReadonlyMap<number, XsiType> | undefined = undefined,
    /**
     * An XOP document's (XOP 1.0 §3.2): the bytes each xop:Include stands for, by the offset of the element
     * it is the only child of; undefined for any other message.
     */
    readonly included: ReadonlyMap<number, Buffer> | undefined = undefined
  ) {}

  /**
   * This tree with the bytes its xop:Includes stand for: one request's, a tree of its own, so that a tree a
   * decoder keeps (its shapes) never holds a request's parts.
   */
  including (included: ReadonlyMap<number, Buffer>): XmlTree {
    return new XmlTree(
      this.source, this.nodes, this.attributes, this.names, this.strings, this.nodesBase, this.attributesBase,
      this.types, included
    )
  }

  /** The type an element names with `xsi:type`: undefined when it names none. */
  xsiType (p: number): XsiType | undefined {
    return this.types?.get(p)
  }

  #node (p: number): number {
    return this.nodes[this.nodesBase + p]
  }

  isText (p: number): boolean {
    return this.#node(p) === TEXT
  }

  /** An element's name. */
  name (p: number): TreeName {
    return this.names[this.#node(p)]
  }

  /** The offset after an element's last descendant: where its children stop. */
  end (p: number): number {
    return this.#node(p + 1)
  }

  /** The node after `p` and its descendants: its next sibling, if its parent goes on. */
  next (p: number): number {
    return this.#node(p) === TEXT ? p + STRIDE : this.#node(p + 1)
  }

  /** A text node's characters. */
  text (p: number): string {
    const string = this.#node(p + 3)
    return string >= 0 ? this.strings[string] : this.source.slice(this.#node(p + 1), this.#node(p + 2))
  }

  /** Where an element's attributes start, as an offset for `attributeName` and `attributeValue`. */
  attributesOf (p: number): number {
    return this.#node(p + 2)
  }

  /** Where an element's attributes stop. */
  attributesEnd (p: number): number {
    return this.#node(p + 2) + 2 * this.#node(p + 3)
  }

  attributeName (a: number): TreeName {
    return this.names[this.attributes[this.attributesBase + a]]
  }

  attributeValue (a: number): string {
    return this.strings[this.attributes[this.attributesBase + a + 1]]
  }
}

const NO_ATTRIBUTES: XmlAttribute[] = Object.freeze([]) as unknown as XmlAttribute[]
const NO_CHILDREN: Array<XmlElement | string> = Object.freeze([]) as unknown as Array<XmlElement | string>

/** The element at `p` and everything in it, as plain `XmlElement`s. */
export function elementAt (tree: XmlTree, p: number): XmlElement {
  const { name, prefix, localName, namespace } = tree.name(p)
  let attributes = NO_ATTRIBUTES
  const from = tree.attributesOf(p)
  const to = tree.attributesEnd(p)
  if (to > from) {
    attributes = []
    for (let a = from; a < to; a += 2) {
      const n = tree.attributeName(a)
      attributes.push({
        name: n.name, prefix: n.prefix, localName: n.localName, namespace: n.namespace, value: tree.attributeValue(a)
      })
    }
  }
  let children = NO_CHILDREN
  const end = tree.end(p)
  if (end > p + STRIDE) {
    children = []
    for (let q = p + STRIDE; q < end; q = tree.next(q)) {
      children.push(tree.isText(q) ? tree.text(q) : elementAt(tree, q))
    }
  }
  return { name, prefix, localName, namespace, attributes, children }
}

/** The elements at each of `nodes`. */
export function elementsAt (tree: XmlTree, nodes: readonly number[]): XmlElement[] {
  return nodes.map((p) => elementAt(tree, p))
}

// What a builder holds between messages: nothing (reset() gives each message its own).
const NO_NAMES: TreeName[] = Object.freeze([]) as unknown as TreeName[]
const NO_STRINGS: string[] = Object.freeze([]) as unknown as string[]

/** How many names a message has before they are found through a map rather than by a scan. */
const SCANNED = 4

/** Numbers the messages of every builder: a name's tree id (`QName.treeId`) is good for one message alone. */
let messages = 0

/** Integers in a slab: most messages are small, and a typed array of their own costs more to make than to fill. */
const SLAB = 16384

/**
 * Integers written one message at a time, each message's tree then reading
 * its own part of a shared slab (a large one gets a slab to itself). A slab
 * lives as long as the last tree that reads it.
 */
class Slab {
  #slab = new Int32Array(SLAB)
  /** Where the message in progress starts in the slab, and how long it is. */
  #base = 0
  #length = 0

  /** Makes room for `n` more integers; returns where they start, from the start of the message. */
  add (n: number): number {
    const at = this.#length
    if (this.#base + at + n > this.#slab.length) {
      const slab = new Int32Array(Math.max(SLAB, 2 * (at + n)))
      slab.set(this.#slab.subarray(this.#base, this.#base + at))
      this.#slab = slab
      this.#base = 0
    }
    this.#length = at + n
    return at
  }

  get length (): number {
    return this.#length
  }

  set (at: number, value: number): void {
    this.#slab[this.#base + at] = value
  }

  get (at: number): number {
    return this.#slab[this.#base + at]
  }

  /** The slab the message in progress is written to. */
  get slab (): Int32Array {
    return this.#slab
  }

  /** Where the message in progress starts in the slab. */
  get base (): number {
    return this.#base
  }

  /** The message's integers are its own for good: the next message is written after them. */
  take (): void {
    this.#base += this.#length
    this.#length = 0
  }

  /** Forgets the message in progress. */
  discard (): void {
    this.#length = 0
  }
}

/**
 * Builds trees, one message at a time; one builder serves every message of a
 * decoder. `finish()` hands the message its tree.
 */
export class TreeBuilder {
  #source = ''
  readonly #nodes = new Slab()
  readonly #attributes = new Slab()
  #names = NO_NAMES
  #strings = NO_STRINGS
  /** The message's number, which the names it gives ids to are tagged with. */
  #message = 0
  /** Per message: the `xsi:type` of each element that has one (made at the first). */
  #types: Map<number, XsiType> | undefined
  /** Per message: a name as written → the id of its latest entry. */
  readonly #byName = new Map<string, number>()
  /**
   * Per message: an entry's id → the id of an earlier entry with the same name in another namespace, or -1
   * (written before it is read).
   */
  readonly #sameName: number[] = []
  /** The elements open, by offset: the first `#depth` entries. */
  readonly #open: number[] = []
  #depth = 0
  /** A text node the next text joins: the last node, when nothing has opened or closed since. */
  #joinable = -1

  reset (source: string): void {
    this.#source = source
    this.#message = ++messages
    this.#nodes.discard()
    this.#attributes.discard()
    this.#names = []
    this.#strings = []
    this.#types = undefined
    this.#depth = 0
    this.#joinable = -1
  }

  /**
   * Opens an element, returning its offset; its namespace declarations are
   * not kept as attributes. `scope` is the namespaces in scope at its start
   * tag, which an `xsi:type` value is resolved against.
   */
  open (qname: QName, uri: string, tagAttributes: readonly XmlAttributeEvent[], scope: Namespaces): number {
    const nodes = this.#nodes
    const attributes = this.#attributes
    const p = nodes.add(STRIDE)
    nodes.set(p, this.#idOf(qname, uri))
    nodes.set(p + 2, attributes.length)
    let count = 0
    for (const a of tagAttributes) {
      if (a.uri === XMLNS_NS) continue
      const at = attributes.add(2)
      attributes.set(at, this.#idOf(a.qname, a.uri))
      attributes.set(at + 1, this.#strings.push(a.value) - 1)
      if (a.uri === XSI_NS && a.local === 'type') (this.#types ??= new Map()).set(p, resolveType(a.value, scope))
      count++
    }
    nodes.set(p + 3, count)
    this.#open[this.#depth++] = p
    this.#joinable = -1
    return p
  }

  close (): void {
    const p = this.#open[--this.#depth]
    this.#nodes.set(p + 1, this.#nodes.length)
    this.#joinable = -1
    this.closedNode = p
  }

  /** The offset of the element closed last. */
  closedNode = -1

  /**
   * The element at `from` again (a repeated sibling, xml/siblings.ts): the
   * same names, attributes and nodes, but for its attribute values and text
   * nodes, which are, in document order, `values[k]`, or (undefined) the
   * source's characters `slots[2k]` to `slots[2k + 1]`. Its text nodes'
   * offsets are added to `textNodes`, if given.
   */
  repeat (
    from: number, slots: readonly number[], values: ReadonlyArray<string | undefined>, textNodes?: number[]
  ): void {
    const nodes = this.#nodes
    const attributes = this.#attributes
    const strings = this.#strings
    const end = nodes.get(from + 1)
    const shift = nodes.add(end - from) - from
    let k = 0
    for (let p = from; p < end; p += STRIDE) {
      const q = p + shift
      const kind = nodes.get(p)
      if (kind === TEXT) {
        const value = values[k]
        nodes.set(q, TEXT)
        if (value === undefined) {
          nodes.set(q + 1, slots[2 * k])
          nodes.set(q + 2, slots[2 * k + 1])
          nodes.set(q + 3, -1)
        } else {
          nodes.set(q + 3, strings.push(value) - 1)
        }
        textNodes?.push(q)
        k++
        continue
      }
      const count = nodes.get(p + 3)
      const was = nodes.get(p + 2)
      const at = attributes.add(2 * count)
      nodes.set(q, kind)
      nodes.set(q + 1, nodes.get(p + 1) + shift)
      nodes.set(q + 2, at)
      nodes.set(q + 3, count)
      for (let a = 0; a < 2 * count; a += 2) {
        attributes.set(at + a, attributes.get(was + a))
        attributes.set(at + a + 1, strings.push(values[k++] as string) - 1)
      }
    }
    this.#joinable = -1
  }

  /**
   * Text that is the source's characters [from, to) as they stand; returns its node's offset, or -1 when it
   * joined the text before.
   */
  sourceText (from: number, to: number): number {
    if (this.#joinable !== -1) {
      this.text(this.#source.slice(from, to))
      return -1
    }
    const nodes = this.#nodes
    const p = nodes.add(STRIDE)
    nodes.set(p, TEXT)
    nodes.set(p + 1, from)
    nodes.set(p + 2, to)
    nodes.set(p + 3, -1)
    this.#joinable = p
    return p
  }

  /** Text as a string: references resolved, or line ends normalised. */
  text (text: string): void {
    const nodes = this.#nodes
    const p = this.#joinable
    if (p === -1) {
      const q = nodes.add(STRIDE)
      nodes.set(q, TEXT)
      nodes.set(q + 3, this.#strings.push(text) - 1)
      this.#joinable = q
      return
    }
    const string = nodes.get(p + 3)
    if (string >= 0) {
      this.#strings[string] += text
    } else {
      nodes.set(p + 3, this.#strings.push(this.#source.slice(nodes.get(p + 1), nodes.get(p + 2)) + text) - 1)
    }
  }

  /** How many integers the message's nodes take so far. */
  get length (): number {
    return this.#nodes.length
  }

  /**
   * The tree of `source`, a message with the same markup as the one `like` was
   * built from (its first `length` integers of nodes): the same nodes but for
   * the text nodes at `textNodes` (-1: none), whose characters are now
   * `runs[2k]` to `runs[2k + 1]`. Attributes, names and their values are
   * `like`'s own, which no tree changes.
   */
  again (
    source: string, like: XmlTree, length: number, textNodes: readonly number[], runs: readonly number[]
  ): XmlTree {
    const nodes = this.#nodes
    nodes.discard()
    nodes.add(length)
    const from = like.nodes
    const base = like.nodesBase
    for (let i = 0; i < length; i++) nodes.set(i, from[base + i])
    for (let k = 0; k < textNodes.length; k++) {
      const p = textNodes[k]
      if (p === -1) continue
      nodes.set(p + 1, runs[2 * k])
      nodes.set(p + 2, runs[2 * k + 1])
    }
    // The same markup declares the same namespaces: its types are resolved alike.
    const tree = new XmlTree(
      source, nodes.slab, like.attributes, like.names, like.strings, nodes.base, like.attributesBase, like.types
    )
    nodes.take()
    return tree
  }

  finish (): XmlTree {
    const nodes = this.#nodes
    const attributes = this.#attributes
    const tree = new XmlTree(
      this.#source, nodes.slab, attributes.slab, this.#names, this.#strings, nodes.base, attributes.base, this.#types
    )
    nodes.take()
    attributes.take()
    this.release()
    return tree
  }

  /** Lets go of the message: what it holds belongs to its tree, or to nobody. */
  release (): void {
    this.#source = ''
    this.#names = NO_NAMES
    this.#strings = NO_STRINGS
    this.#types = undefined
    if (this.#byName.size !== 0) this.#byName.clear()
  }

  /**
   * The id of a name in `namespace` in this message: the one the name was
   * tagged with, if it was given one in this message in that namespace; else
   * found or made by `#name`, and the name tagged with it.
   */
  #idOf (qname: QName, namespace: string): number {
    const message = this.#message
    if (qname.treeMessage === message && this.#names[qname.treeId].namespace === namespace) return qname.treeId
    const id = this.#name(qname.name, qname.prefix, qname.local, namespace)
    qname.treeMessage = message
    qname.treeId = id
    return id
  }

  /** The id of a name in this message: the first few names are found by a scan, more through a map. */
  #name (name: string, prefix: string, localName: string, namespace: string): number {
    const names = this.#names
    if (names.length < SCANNED) {
      for (let id = 0; id < names.length; id++) {
        const entry = names[id]
        if (entry.name === name && entry.namespace === namespace) return id
      }
      const id = names.push({ name, prefix, localName, namespace, memoShape: null, memoField: undefined }) - 1
      if (names.length === SCANNED) for (let k = 0; k < SCANNED; k++) this.#index(k)
      return id
    }
    for (let id = this.#byName.get(name) ?? -1; id !== -1; id = this.#sameName[id]) {
      if (names[id].namespace === namespace) return id
    }
    const id = names.push({ name, prefix, localName, namespace, memoShape: null, memoField: undefined }) - 1
    this.#index(id)
    return id
  }

  #index (id: number): void {
    const name = this.#names[id].name
    this.#sameName[id] = this.#byName.get(name) ?? -1
    this.#byName.set(name, id)
  }
}

/** An `xsi:type` value (an xs:QName, white space collapsed) resolved in `scope`; null when it is none. */
function resolveType (value: string, scope: Namespaces): XsiType {
  const qname = trimXmlSpace(value)
  const colon = qname.indexOf(':')
  const prefix = colon === -1 ? '' : qname.slice(0, colon)
  const localName = qname.slice(colon + 1)
  if (!isNCName(localName) || (colon !== -1 && !isNCName(prefix))) return null
  const namespace = prefix === 'xml' ? null : scope.resolve(prefix)
  // An unprefixed name is in the default namespace, or in none.
  if (namespace === undefined || namespace === null) return prefix === '' ? { namespace: '', localName } : null
  return { namespace, localName }
}
