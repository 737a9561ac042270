/**
 * Contract first: what XML Schema requires of a schema that the reading
 * would otherwise trip over (docs/contract-first.md "What is refused"): a
 * broken schema is SOAP_ERR_CONTRACT_INVALID, naming what and where.
 */
import type { Element as DomElement } from '@xmldom/xmldom'
import { SOAP_ERR_CONTRACT_INVALID } from '../errors'
import { XML_NS } from '../namespaces'
import { attr } from './dom'

const COUNT = /^[ \t\r\n]*\+?[0-9]+[ \t\r\n]*$/

/** A facet's or an occurrence's value that XML Schema says is a nonNegativeInteger. */
export function count (node: DomElement, name: string, where: string): number {
  const value = attr(node, name) as string
  if (!COUNT.test(value)) {
    throw new SOAP_ERR_CONTRACT_INVALID(
      where, `xs:${node.localName as string} has ${name}="${value}", which is no count`
    )
  }
  return Number(value)
}

/** A local element's or attribute's name: one with neither name nor ref is no declaration. */
export function named (node: DomElement, where: string): string {
  const name = attr(node, 'name')
  if (name === undefined) {
    throw new SOAP_ERR_CONTRACT_INVALID(where, `an xs:${node.localName as string} with neither name nor ref`)
  }
  return name
}

/**
 * A particle's minOccurs and maxOccurs, as written (maxOccurs a count or
 * "unbounded"), min not above max (XML Schema Part 1 §3.9.6).
 */
export function occurrences (node: DomElement, where: string): { min: string, max: string } {
  const min = attr(node, 'minOccurs') === undefined ? '1' : String(count(node, 'minOccurs', where))
  const written = attr(node, 'maxOccurs')
  const max = written === undefined
    ? '1'
    : written.trim() === 'unbounded' ? 'unbounded' : String(count(node, 'maxOccurs', where))
  if (max !== 'unbounded' && Number(min) > Number(max)) {
    throw new SOAP_ERR_CONTRACT_INVALID(
      where, `xs:${node.localName as string} has minOccurs="${min}" above maxOccurs="${max}"`
    )
  }
  return { min, max }
}

/**
 * The named model and attribute groups being read: one that contains itself
 * is refused (Part 1 §3.7.6, §3.6.6). Through an element's type it may: that
 * is a recursive type, read as one.
 */
export class Nesting {
  private open = new Set<DomElement>()

  /** Reads an element's type: the groups around the element are not around its content. */
  apart<T> (read: () => T): T {
    const around = this.open
    this.open = new Set()
    try {
      return read()
    } finally {
      this.open = around
    }
  }

  within<T> (node: DomElement, what: string, where: string, read: () => T): T {
    if (this.open.has(node)) throw new SOAP_ERR_CONTRACT_INVALID(where, `${what} contains itself`)
    this.open.add(node)
    try {
      return read()
    } finally {
      this.open.delete(node)
    }
  }
}

/** An attribute the element must have (a reference's `ref`, a derivation's `base`, a message's `message`...). */
export function required (node: DomElement, attribute: string, where: string): string {
  const value = attr(node, attribute)
  if (value === undefined) throw new SOAP_ERR_CONTRACT_INVALID(where, `${node.tagName} has no ${attribute}`)
  return value
}

/**
 * A QName written in a schema or WSDL attribute, resolved against the
 * namespaces in scope there; in a chameleon schema (included into another
 * namespace), no namespace is the includer's.
 */
export function resolveQName (
  node: DomElement,
  value: string,
  context?: { readonly file: string, readonly chameleon: boolean, readonly targetNamespace: string }
): readonly [namespace: string, localName: string] {
  const colon = value.indexOf(':')
  const prefix = colon === -1 ? null : value.slice(0, colon)
  const local = colon === -1 ? value : value.slice(colon + 1)
  // xmldom finds the default namespace under '', not null; the xml prefix is bound everywhere.
  const namespace = prefix === 'xml' ? XML_NS : node.lookupNamespaceURI(prefix ?? '')
  if (namespace === null && prefix !== null) {
    throw new SOAP_ERR_CONTRACT_INVALID(context?.file ?? 'the WSDL', `the prefix of "${value}" is not declared`)
  }
  const ns = namespace ?? ''
  return [ns === '' && context?.chameleon === true ? context.targetNamespace : ns, local]
}
