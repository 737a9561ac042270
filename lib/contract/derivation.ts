/**
 * Contract first: which complex types derive from which (XML Schema 1.0 Part
 * 1 §3.4.2), so that an element of a type others derive from takes any of
 * them, named by `xsi:type` (§3.3.4): its schema is then a `oneOf` of the
 * types, each with its `$type` (docs/contract-first.md, "Derived types").
 */
import type { Element as DomElement } from '@xmldom/xmldom'
import { XSD_NS, qnameKey } from '../namespaces'
import { attr, childElements } from './dom'
import { TYPE_PROPERTY } from '../codec/shapes'

type Schema = Record<string, unknown>
type QName = readonly [namespace: string, localName: string]

/** How a type derives from its base. */
type Method = 'extension' | 'restriction'

interface Derived {
  readonly name: QName
  readonly method: Method
}

/**
 * The derivation a complex type declares: its base and how, or undefined for one that derives from none
 * but xs:anyType.
 */
export function derivationOf (node: DomElement): { step: DomElement, base: string, method: Method } | undefined {
  for (const content of childElements(node)) {
    if (
      content.namespaceURI !== XSD_NS ||
      (content.localName !== 'complexContent' && content.localName !== 'simpleContent')
    ) continue
    for (const step of childElements(content)) {
      if (step.namespaceURI === XSD_NS && (step.localName === 'extension' || step.localName === 'restriction')) {
        const base = attr(step, 'base')
        if (base !== undefined) return { step, base, method: step.localName }
      }
    }
  }
  return undefined
}

/** The methods `block` (on an element or a type) keeps from standing in for it. */
export function blocked (value: string | undefined): ReadonlySet<Method> {
  const tokens = (value ?? '').split(/\s+/)
  if (tokens.includes('#all')) return new Set(['extension', 'restriction'])
  return new Set(tokens.filter((t): t is Method => t === 'extension' || t === 'restriction'))
}

/** The named complex types each named complex type is the base of. */
export class Derivations {
  private readonly derived = new Map<string, Derived[]>()
  /** Local names of the types that take part in a derivation, with how many namespaces use each. */
  private readonly locals = new Map<string, Set<string>>()

  add (name: QName, base: QName, method: Method): void {
    const key = qnameKey(...base)
    const list = this.derived.get(key) ?? []
    list.push({ name, method })
    this.derived.set(key, list)
    for (const [namespace, local] of [name, base]) {
      const namespaces = this.locals.get(local) ?? new Set()
      namespaces.add(namespace)
      this.locals.set(local, namespaces)
    }
  }

  /**
   * Every type derived from `base`, directly or not, in declaration order:
   * none when no type derives from it. A chain with a step of a `block`ed
   * method is left out.
   */
  of (base: QName, block: ReadonlySet<Method>): QName[] {
    const out: QName[] = []
    const seen = new Set<string>([qnameKey(...base)])
    const walk = (from: QName): void => {
      for (const { name, method } of this.derived.get(qnameKey(...from)) ?? []) {
        const key = qnameKey(...name)
        if (block.has(method) || seen.has(key)) continue
        seen.add(key)
        out.push(name)
        walk(name)
      }
    }
    walk(base)
    return out
  }

  /**
   * A type's `$type`: its local name, or its `{namespace}localName` when types of another namespace share
   * the local name.
   */
  tag (name: QName): string {
    return (this.locals.get(name[1])?.size ?? 1) > 1 ? qnameKey(...name) : name[1]
  }
}

/** A type's object schema as one alternative of an element: its `$type` first, required, and its XML name. */
export function alternative (schema: Schema, tag: string, name: QName, abstract: boolean): Schema {
  const xml = {
    ...(schema.xml as Schema | undefined),
    typeName: name[1],
    typeNamespace: name[0],
    ...(abstract ? { abstract: true } : {})
  }
  const required = Array.isArray(schema.required) ? schema.required as string[] : []
  return {
    ...schema,
    properties: { [TYPE_PROPERTY]: { const: tag }, ...(schema.properties as Schema | undefined) },
    required: [TYPE_PROPERTY, ...required],
    xml
  }
}
