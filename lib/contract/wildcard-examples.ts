/**
 * Contract first: the raw elements a strict wildcard's samples hold
 * (docs/mock.md "Sample values"). A strict xs:any (processContents="strict",
 * the default) takes only an element the contract declares globally, valid
 * against its declaration: for the elements such wildcards require, one of
 * the contract's global elements they admit is found and sampled from its own
 * schema, and the raw elements are given the wildcard's schema as its
 * `examples`, which lib/codec/sample.ts gives a sample. A wildcard for which
 * none is found gets none: its samples hold the codec's placeholder.
 */
import { DOMParser, type Element as DomElement } from '@xmldom/xmldom'
import { SOAP_ERR_CONTRACT_INVALID, SOAP_ERR_CONTRACT_UNSUPPORTED } from '../errors'
import { XSD_NS } from '../namespaces'
import type { XmlElement } from '../xml/element'
import { sampleValue, writeSample } from '../codec/sample'
import { attr } from './dom'
import type { Admits, WildcardNeed } from './content'
import { key, xs, type Component } from './xsd-components'
import type { SchemaModel } from './xsd-read'

type Schema = Record<string, unknown>

/** How many global elements are translated for the samples of one contract's wildcards. */
const TRIES = 64
/** How many elements an element's sample may hold within one another through wildcards. */
const DEPTH = 4
const WHERE = 'the sample of a wildcard'

/** A global element a wildcard may take: its name, and how simple its content looks (0: text only). */
interface Candidate {
  readonly name: readonly [namespace: string, localName: string]
  readonly component: Component
  readonly rank: number
}

/**
 * Gives each content whose strict wildcards require elements (the translation's `wildcards`) its `examples`: for
 * each wildcard, in order, as many copies as it requires of the first global element it admits that may appear as
 * itself, elements of simple content first, then in the order the schemas were read, whose own sample is made
 * (its wildcards filled in turn, never by an element that holds it).
 */
export function wildcardExamples (model: SchemaModel): void {
  if (model.state.wildcards.size > 0) new Examples(model).fill()
}

class Examples {
  private readonly candidates: readonly Candidate[]
  /** Each element's raw sample by `{namespace}localName`, once made; undefined for one that cannot be made. */
  private readonly made = new Map<string, XmlElement | undefined>()
  /** The contents being filled. */
  private readonly filling = new Set<Schema>()
  private tries = 0

  constructor (private readonly model: SchemaModel) {
    this.candidates = model.components.elements()
      .filter(({ node }) => attr(node, 'abstract') !== 'true')
      .map((component) => ({
        name: [component.context.targetNamespace, attr(component.node, 'name') as string] as const,
        component,
        rank: rank(model, component)
      }))
      .sort((a, b) => a.rank - b.rank)
  }

  fill (): void {
    for (const any of [...this.model.state.wildcards.keys()]) this.examples(any, [])
  }

  /** The raw elements of a content's required wildcards, set as its `examples`; undefined when one has none. */
  private examples (any: Schema, holders: readonly string[]): unknown[] | undefined {
    if (Array.isArray(any.examples)) return any.examples
    if (this.filling.has(any)) return undefined
    this.filling.add(any)
    try {
      const elements: XmlElement[] = []
      for (const need of this.model.state.wildcards.get(any) as readonly WildcardNeed[]) {
        const element = this.pick(need.admits, holders)
        if (element === undefined) return undefined
        for (let n = 0; n < need.count; n++) elements.push(element)
      }
      any.examples = [elements]
      return any.examples as unknown[]
    } finally {
      this.filling.delete(any)
    }
  }

  /** The raw sample of the first global element the wildcard admits, none of those whose samples hold it. */
  private pick (admits: Admits, holders: readonly string[]): XmlElement | undefined {
    for (const candidate of this.candidates) {
      const name = key(...candidate.name)
      if (!admitted(admits, candidate.name[0]) || holders.includes(name)) continue
      const element = this.made.has(name) ? this.made.get(name) : this.sample(candidate, [...holders, name])
      if (element !== undefined) return element
    }
    return undefined
  }

  /** A global element's minimal sample, as a raw element; undefined when it cannot be made here. */
  private sample (candidate: Candidate, holders: readonly string[]): XmlElement | undefined {
    if (holders.length > DEPTH || this.tries++ >= TRIES) return undefined
    const name = key(...candidate.name)
    let whole: Schema
    try {
      whole = this.element(candidate)
    } catch (err) {
      if (!(err instanceof SOAP_ERR_CONTRACT_UNSUPPORTED || err instanceof SOAP_ERR_CONTRACT_INVALID)) throw err
      this.made.set(name, undefined)
      return undefined
    }
    // The wildcards its sample may reach are filled first; one that cannot be leaves the element out, here.
    for (const any of wildcardsIn(whole, this.model.state.wildcards)) {
      if (this.examples(any, holders) === undefined) return undefined
    }
    const xml = writeSample(whole, sampleValue(whole))
    const root = new DOMParser().parseFromString(xml, 'text/xml').documentElement as DomElement
    // A derived type's name is a QName whose prefix the raw element does not keep declared.
    const element = / xsi:type="/.test(xml) ? undefined : rawElement(root.firstChild as DomElement)
    this.made.set(name, element)
    return element
  }

  /**
   * The schema of an element holding the global element (the one the codec writes), refused when the element's
   * type is abstract: it would need an `xsi:type`.
   */
  private element (candidate: Candidate): Schema {
    const { components } = this.model
    const { node, context } = components.typed(candidate.component.node, candidate.component.context, WHERE)
    const typeName = attr(node, 'type')
    const type = typeName === undefined
      ? undefined
      : components.get('complexType', key(...components.qname(node, typeName, context)))
    if (type !== undefined && attr(type.node, 'abstract') === 'true') {
      throw new SOAP_ERR_CONTRACT_UNSUPPORTED(`the element ${key(...candidate.name)} of an abstract type`, WHERE)
    }
    const { schema } = this.model.topElement(candidate.name, WHERE)
    return this.model.withDefs({
      type: 'object',
      properties: { element: schema },
      required: ['element'],
      additionalProperties: false,
      xml: { name: 'sample', namespace: '' }
    })
  }
}

/** 0 for an element whose declaration gives it a simple type, else 1 (read from the declaration, never failing). */
function rank (model: SchemaModel, { node, context }: Component): number {
  if (xs(node, 'simpleType').length > 0) return 0
  const type = attr(node, 'type')
  if (type === undefined) return 1
  const colon = type.indexOf(':')
  const namespace = node.lookupNamespaceURI(colon === -1 ? '' : type.slice(0, colon)) ??
    (context.chameleon ? context.targetNamespace : '')
  const local = type.slice(colon + 1)
  const simple = namespace === XSD_NS
    ? local !== 'anyType'
    : model.components.get('simpleType', key(namespace, local)) !== undefined
  return simple ? 0 : 1
}

function admitted (admits: Admits, namespace: string): boolean {
  return admits === undefined || admits.namespaces.has(namespace) === admits.allow
}

/** The contents with strict wildcards that a schema holds (its `$defs` too). */
function wildcardsIn (schema: Schema, wildcards: ReadonlyMap<Schema, unknown>): Schema[] {
  const found: Schema[] = []
  const seen = new Set<object>()
  const visit = (value: unknown): void => {
    if (typeof value !== 'object' || value === null || seen.has(value)) return
    seen.add(value)
    if (wildcards.has(value as Schema)) found.push(value as Schema)
    for (const v of Object.values(value)) visit(v)
  }
  visit(schema)
  return found
}

/** An element of a parsed document as the codec's raw element (lib/xml/element.ts). */
function rawElement (node: DomElement): XmlElement {
  const children: Array<XmlElement | string> = []
  for (let child = node.firstChild; child !== null; child = child.nextSibling) {
    children.push(child.nodeType === 1 ? rawElement(child as DomElement) : child.nodeValue as string)
  }
  return {
    name: node.tagName,
    prefix: node.prefix ?? '',
    localName: node.localName as string,
    namespace: node.namespaceURI ?? '',
    attributes: Array.from(node.attributes)
      .filter((a) => a.prefix !== 'xmlns' && a.name !== 'xmlns')
      .map((a) => ({
        name: a.name,
        prefix: a.prefix ?? '',
        localName: a.localName as string,
        namespace: a.namespaceURI ?? '',
        value: a.value
      })),
    children
  }
}
