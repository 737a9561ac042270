/**
 * Contract first: a complex type's content as the XML Schema translation
 * gathers it (lib/contract/xsd-complex.ts), and the object schema it becomes.
 */
import type { Simple } from './simple-types'
import { presenceOf, type Rule } from './presence-rules'

type Schema = Record<string, unknown>

/** The namespaces a wildcard admits (`namespaces`, or all but them): undefined for any namespace ('' is none). */
export type Admits = { allow: boolean, namespaces: Set<string> } | undefined

/** A wildcard that requires elements: what it admits, how many, and whether it is strict (processContents). */
export interface WildcardNeed {
  readonly admits: Admits
  readonly count: number
  readonly strict: boolean
}

/** The content of a complex type, gathered before it becomes an object schema. */
export class Content {
  readonly properties = new Map<string, Schema>()
  readonly required: string[] = []
  /** Property → `{namespace}localName` (elements) or `@{namespace}localName` (attributes). */
  readonly names = new Map<string, string>()
  /**
   * What the content model says of which elements appear together (xs:choice,
   * optional groups), rendered once the properties are known.
   */
  readonly rules: Rule[] = []
  any = false
  /** What the content's wildcards (xs:any) admit together: undefined for any namespace ('' is none). */
  wildcard: Admits
  /** How many elements the wildcards require together: the minOccurs of those always there. */
  anyMin = 0
  /** The wildcards that require elements, in order: what each admits, how many, whether strict (processContents). */
  readonly needs: WildcardNeed[] = []

  /**
   * One more xs:any (XML Schema 1.0 Part 1 §3.10.2): `##any`, `##other` (not
   * the target namespace, nor none), or a list of URIs, `##targetNamespace`
   * and `##local`. Two wildcards of one content admit what either does;
   * `least` elements of it are required (its minOccurs, when it is always there).
   */
  addWildcard (namespace: string | undefined, target: string, least = 0, strict = false): void {
    this.anyMin += least
    const value = (namespace ?? '##any').trim()
    const next = value === '##any'
      ? undefined
      : value === '##other'
        ? { allow: false, namespaces: new Set([target, '']) }
        : {
            allow: true,
            namespaces: new Set(value.split(/\s+/).filter((t) => t !== '')
              .map((t) => t === '##targetNamespace' ? target : t === '##local' ? '' : t))
          }
    if (least > 0) this.needs.push({ admits: next, count: least, strict })
    if (!this.any) this.wildcard = next
    else if (this.wildcard !== undefined) this.wildcard = next === undefined ? undefined : union(this.wildcard, next)
    this.any = true
  }

  anyAttribute = false
  text: Simple | undefined
  /** Mixed content (`mixed="true"`): text between the child elements, read into `$value`. */
  mixed = false

  /** How many times each property's XML name was met: an element named twice is an array of both. */
  readonly met = new Map<string, number>()

  /** How many element particles of each property were met since `before` (a copy of `met`) was taken. */
  metSince (before: ReadonlyMap<string, number>): Map<string, number> {
    const named = new Map<string, number>()
    for (const [p, n] of this.met) if (n > (before.get(p) ?? 0)) named.set(p, n - (before.get(p) ?? 0))
    return named
  }

  /** The property of an XML name, or a new one: the local name, numbered when taken by another name. */
  property (xmlKey: string, localName: string): { property: string, known: boolean } {
    const found = this.find(xmlKey)
    if (found !== undefined) {
      this.met.set(found, (this.met.get(found) as number) + 1)
      return { property: found, known: true }
    }
    let property = localName
    for (let n = 2; this.properties.has(property) || property === '$value' || property === '$any'; n++) {
      property = `${localName}${n}`
    }
    this.names.set(property, xmlKey)
    this.met.set(property, 1)
    return { property, known: false }
  }

  private find (xmlKey: string): string | undefined {
    for (const [property, name] of this.names) if (name === xmlKey) return property
    return undefined
  }
}

/** The text of mixed content. */
export const TEXT: Schema = { type: 'string', xml: { text: true } }

/** What `xml` says of a value's own content, not of the element or attribute that holds it. */
const OWN = ['anyAttribute', 'mixed', 'list', 'whiteSpace', 'minOctets', 'maxOctets']

/**
 * An array's items: the element's name and namespace are the array's; what
 * `xml` says of the value's own content (`anyAttribute`, `mixed`, a string's
 * `whiteSpace` and octets) stays.
 */
/** What `xml` says of the element or attribute that holds a value: all but what withoutXml() keeps. */
export function holderXml (schema: Schema): Schema {
  return Object.fromEntries(Object.entries((schema.xml ?? {}) as Schema).filter(([key]) => !OWN.includes(key)))
}

/**
 * An element's schema when its element is named again in the content model:
 * an array of both, with no most items (the new one adds its own).
 */
export function namedAgain (earlier: Schema): Schema {
  if (earlier.type !== 'array' || (earlier.xml as Schema).list === true) {
    return { type: 'array', items: withoutXml(earlier), xml: holderXml(earlier) }
  }
  const { maxItems, ...rest } = earlier
  return rest
}

export function withoutXml (schema: Schema): Schema {
  const { xml, ...out } = schema
  const own = Object.entries((xml ?? {}) as Schema).filter(([key, value]) => OWN.includes(key) && value !== false)
  if (own.length > 0) out.xml = Object.fromEntries(own)
  return out
}

/** A simple type's schema as an element's text (`xml.text`), keeping what `xml` says of the value. */
export function asText (schema: Schema): Schema {
  const value = withoutXml(schema)
  return { ...value, xml: { ...(value.xml as Schema | undefined), text: true } }
}

export function objectSchema (content: Content): Schema {
  const properties: Schema = {}
  for (const [property, schema] of content.properties) properties[property] = schema
  if (content.text !== undefined) properties.$value = asText(content.text.schema)
  else if (content.mixed) properties.$value = TEXT
  const wildcard = content.wildcard
  if (content.any) {
    const admits = wildcard === undefined
      ? {}
      : { [wildcard.allow ? 'anyNamespaces' : 'anyExcept']: [...wildcard.namespaces] }
    const least = content.anyMin > 0 ? { minItems: content.anyMin } : {}
    properties.$any = { type: 'array', items: { type: 'object' }, ...least, xml: { any: true, ...admits } }
  }
  const schema: Schema = { type: 'object', properties, additionalProperties: false }
  const required = [
    ...content.required, ...content.text !== undefined ? ['$value'] : [], ...content.anyMin > 0 ? ['$any'] : []
  ]
  if (required.length > 0) schema.required = [...new Set(required)]
  if (content.anyAttribute || (content.mixed && content.text === undefined)) {
    schema.xml = {
      ...(content.anyAttribute ? { anyAttribute: true } : {}),
      ...(content.mixed && content.text === undefined ? { mixed: true } : {})
    }
  }
  // Several rules all hold, said without allOf (which the codec does not take) as not-any-not.
  const rules = content.rules.map((rule) => presenceOf(rule, content.properties, content.met))
    .filter((rule): rule is Schema => rule !== undefined)
  // A rule that is only "these present" would overwrite the object's own
  // properties and required: it goes in an anyOf of one.
  if (rules.length === 1) {
    const only = rules[0].properties !== undefined || rules[0].required !== undefined
    Object.assign(schema, only ? { anyOf: [rules[0]] } : rules[0])
  } else if (rules.length > 1) schema.not = { anyOf: rules.map((rule) => ({ not: rule })) }
  return schema
}

/** What two wildcards admit together. */
function union (
  a: { allow: boolean, namespaces: Set<string> }, b: { allow: boolean, namespaces: Set<string> }
): { allow: boolean, namespaces: Set<string> } {
  if (a.allow && b.allow) return { allow: true, namespaces: new Set([...a.namespaces, ...b.namespaces]) }
  if (!a.allow && !b.allow) {
    return { allow: false, namespaces: new Set([...a.namespaces].filter((n) => b.namespaces.has(n))) }
  }
  const [listed, except] = a.allow ? [a, b] : [b, a]
  return { allow: false, namespaces: new Set([...except.namespaces].filter((n) => !listed.namespaces.has(n))) }
}

/** xs:anyType: any attributes, any child elements (kept raw). */
export function anyContent (): Schema {
  // Mixed: a time or a number as text, child elements, or both (XML Schema 1.0 Part 1 §3.4.7, the ur-type).
  return {
    type: 'object',
    properties: { $value: TEXT, $any: { type: 'array', items: { type: 'object' }, xml: { any: true } } },
    additionalProperties: false,
    xml: { anyAttribute: true, mixed: true }
  }
}

/** A simple type's schema as an element's: a list is an array of its items (`xml.list`). */
export function simpleResult (simple: Simple): { schema: Schema, simple: boolean } {
  const schema: Schema = simple.list
    ? { type: 'array', items: simple.schema, ...simple.counts, xml: { list: true } }
    : simple.schema
  return { schema, simple: true }
}
