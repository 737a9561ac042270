/**
 * Contract first: the catalog (docs/contract-first.md, "Catalog"). Where the
 * documents a contract names are read from instead: the `catalog` option's
 * object, or an OASIS XML catalog file (the format JAX-WS's
 * `jax-ws-catalog.xml` and libxml2 read), of `system`, `uri`,
 * `rewriteSystem`, `rewriteURI`, `systemSuffix` and `uriSuffix` entries.
 */
import { isAbsolute, resolve as resolvePath } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Document as DomDocument, Element as DomElement } from '@xmldom/xmldom'
import { SOAP_ERR_CONTRACT_INVALID } from '../errors'
import { attr, childElements } from './dom'

export const CATALOG_NS = 'urn:oasis:names:tc:entity:xmlns:xml:catalog'

/** A location with a scheme (`http:`, `file:`, `urn:`): a URL, never a path (a one-letter scheme is a drive). */
export const URL_LOCATION = /^[A-Za-z][A-Za-z0-9+.-]+:/

/** The entries a catalog file may hold, by the attributes they match and map with. */
type EntryShape = readonly [match: string, target: string, kind: 'exact' | 'prefix' | 'suffix']
const ENTRIES: Readonly<Record<string, EntryShape>> = {
  system: ['systemId', 'uri', 'exact'],
  uri: ['name', 'uri', 'exact'],
  rewriteSystem: ['systemIdStartString', 'rewritePrefix', 'prefix'],
  rewriteURI: ['uriStartString', 'rewritePrefix', 'prefix'],
  systemSuffix: ['systemIdSuffix', 'uri', 'suffix'],
  uriSuffix: ['uriSuffix', 'uri', 'suffix']
}

/** A catalog: exact locations first, then the longest prefix rewritten, then the longest suffix. */
export class Catalog {
  private readonly exact = new Map<string, string>()
  private readonly prefixes: Array<[string, string]> = []
  private readonly suffixes: Array<[string, string]> = []

  /**
   * @param base the folder relative targets are read from: the root WSDL's
   * for the option's object, the catalog file's for a file
   * @param where what an error names: the contract, or the catalog file
   */
  constructor (private readonly base: string, private readonly where: string) {}

  /** The entries of the `catalog` option's object. */
  addObject (entries: Readonly<Record<string, string | URL>>): this {
    for (const [location, target] of Object.entries(entries)) {
      this.exact.set(location, this.target(target instanceof URL ? target.href : target))
    }
    return this
  }

  /** The entries of an XML catalog file, `group`s included; anything else in the catalog namespace is refused. */
  addFile (dom: DomDocument): this {
    const root = dom.documentElement as DomElement
    if (root.namespaceURI !== CATALOG_NS || root.localName !== 'catalog') {
      const found = `{${root.namespaceURI ?? ''}}${root.localName as string}`
      throw new SOAP_ERR_CONTRACT_INVALID(this.where, `the catalog's root is ${found}, not {${CATALOG_NS}}catalog`)
    }
    this.entries(root)
    return this
  }

  private entries (parent: DomElement): void {
    for (const entry of childElements(parent)) {
      if (entry.namespaceURI !== CATALOG_NS) continue
      const name = entry.localName as string
      if (name === 'group') {
        this.entries(entry)
        continue
      }
      const shape = Object.hasOwn(ENTRIES, name) ? ENTRIES[name] : undefined
      if (shape === undefined) {
        const supported = Object.keys(ENTRIES).join(', ')
        throw new SOAP_ERR_CONTRACT_INVALID(this.where,
          `the catalog entry <${name}> is not supported (${supported} and group are)`)
      }
      const [matchName, targetName, kind] = shape
      const match = attr(entry, matchName)
      const target = attr(entry, targetName)
      if (match === undefined || match === '' || target === undefined || target === '') {
        throw new SOAP_ERR_CONTRACT_INVALID(this.where,
          `the catalog entry <${name}> needs ${matchName} and ${targetName}`)
      }
      if (kind === 'exact') this.exact.set(match, this.target(target))
      else (kind === 'prefix' ? this.prefixes : this.suffixes).push([match, target])
    }
  }

  /**
   * A target as read: an absolute URL as it is, a `file:` URL as its path, a
   * path from the base folder.
   */
  private target (value: string): string {
    if (value.startsWith('file:')) {
      try {
        return fileURLToPath(value)
      } catch {
        throw new SOAP_ERR_CONTRACT_INVALID(this.where,
          `the catalog maps to ${value}, which is no file: URL of this machine`)
      }
    }
    return URL_LOCATION.test(value) || isAbsolute(value) ? value : resolvePath(this.base, value)
  }

  /**
   * Where a document is read from, by its location as written or else as
   * resolved; undefined when the catalog does not say.
   */
  lookup (written: string, resolved: string): string | undefined {
    const exact = this.exact.get(written) ?? this.exact.get(resolved)
    if (exact !== undefined) return exact
    type Rule = [location: string, match: string, target: string]
    const longest = (
      rules: Array<[string, string]>,
      fits: (location: string, match: string) => boolean
    ): Rule | undefined => {
      let best: Rule | undefined
      for (const location of [written, resolved]) {
        for (const [match, target] of rules) {
          const longer = best === undefined || match.length > best[1].length
          if (fits(location, match) && longer) best = [location, match, target]
        }
      }
      return best
    }
    const prefix = longest(this.prefixes, (location, match) => location.startsWith(match))
    if (prefix !== undefined) return this.target(prefix[2] + prefix[0].slice(prefix[1].length))
    const suffix = longest(this.suffixes, (location, match) => location.endsWith(match))
    return suffix === undefined ? undefined : this.target(suffix[2])
  }
}
