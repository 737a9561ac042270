/**
 * Sample values of an operation's schemas (docs/mock.md "Sample values"):
 * a value the schema accepts, made the same for the same seed. A minimal
 * sample has the required content only; a rich one has optional elements
 * and attributes too, one item per array, a derived type (`$type`) where an
 * element may carry one, a branch of each choice. A wildcard (`xml.any`)
 * gets its first `examples` (a contract's strict wildcards have some:
 * lib/contract/wildcard-examples.ts), else a placeholder for each raw
 * element it requires and no more: a strict one refuses an element the
 * contract does not declare. Strings follow patterns, enumerations, lengths
 * (octets of binary ones), formats; numbers their ranges; recursion stops at
 * a depth, below which only required content is made.
 */
import { generate, random, readPattern, type Random } from './sample-pattern'
import type { SoapSchema } from '../types'
import { TYPE_PROPERTY, shapeOf, usesXsi } from './shapes'
import { BINARY_ENCODINGS, isString, xmlOf } from './xml-keyword'
import { isObject } from './keys'
import { readBinary } from './read'
import type { BinaryEncoding } from './shape-types'
import { compileElement } from './write'
import { prefixesFor } from './prefixes'
import { writeEnvelope } from '../soap/writer'
import { SOAP11, SOAP12 } from '../namespaces'

export interface SampleOptions {
  /** Optional content too (default: required content only). */
  readonly rich?: boolean
  /** Varies the values (default 1): the same seed gives the same sample. */
  readonly seed?: number
}

type Schema = Record<string, unknown>

/** Below this depth a rich sample is minimal: a schema that contains itself ends. */
const RICH_DEPTH = 6
/**
 * A rich sample holds at most this many objects with optional content; after them, only required content
 * (Exchange's types nest wide).
 */
const RICH_OBJECTS = 200
/** How often a pattern's string is made again when it fails the whole pattern or a length. */
const PATTERN_TRIES = 64
/** How many sets of properties are tried against an object's presence rules (its choices). */
const PRESENCE_TRIES = 4096
const SAMPLE_NS = 'urn:fastify-soap:sample'

const FORMATS: Readonly<Record<string, string>> = {
  date: '2024-05-17',
  'date-time': '2024-05-17T09:30:00Z',
  time: '09:30:00Z',
  duration: 'P1DT2H',
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  uri: 'http://example.com/a',
  'uri-reference': 'http://example.com/a',
  iri: 'http://example.com/a',
  'iri-reference': 'http://example.com/a',
  'uri-template': 'http://example.com/{a}',
  uuid: '3f2504e0-4f89-41d3-9a0c-0305e82c3301',
  'json-pointer': '/a',
  'relative-json-pointer': '0',
  regex: 'a'
}

const WORDS = ['sample', 'alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf']

/** A presence schema's verdict on an object's skeleton (lib/contract/presence-rules.ts presenceOf()). */
function holds (schema: unknown, value: Record<string, unknown[] | true>): boolean {
  if (!isObject(schema)) return true
  if (Array.isArray(schema.required) && !schema.required.every((p) => Object.hasOwn(value, p as string))) return false
  if (isObject(schema.properties)) {
    for (const [p, s] of Object.entries(schema.properties)) {
      const n = Array.isArray(value[p]) ? (value[p] as unknown[]).length : undefined
      const least = isObject(s) ? (s.minItems as number | undefined) ?? 0 : 0
      const most = isObject(s) ? (s.maxItems as number | undefined) ?? Infinity : Infinity
      if (n !== undefined && (n < least || n > most)) return false
    }
  }
  if (Array.isArray(schema.anyOf) && !schema.anyOf.some((s) => holds(s, value))) return false
  if (Array.isArray(schema.oneOf) && schema.oneOf.filter((s) => holds(s, value)).length !== 1) return false
  if (schema.not !== undefined && holds(schema.not, value)) return false
  return true
}

class Sampler {
  private readonly rng: Random
  private readonly defs: Schema
  private objects = 0

  constructor (root: Schema, private readonly rich: boolean, seed: number) {
    this.rng = random(seed)
    this.defs = (isObject(root.$defs) ? root.$defs : isObject(root.definitions) ? root.definitions : {})
  }

  /** The schema a `$ref` names, with what is written beside it. */
  private resolve (schema: Schema): Schema {
    let out = schema
    for (let n = 0; typeof out.$ref === 'string' && n < 64; n++) {
      const { $ref, ...beside } = out
      const named = this.defs[($ref as string).replace(/^#\/(\$defs|definitions)\//, '')]
      out = { ...(isObject(named) ? named : {}), ...beside }
    }
    return out
  }

  private pick<T> (values: readonly T[]): T {
    return this.rich ? values[Math.floor(this.rng() * values.length)] : values[0]
  }

  value (given: unknown, depth: number): unknown {
    const schema = this.resolve(isObject(given) ? given : {})
    const bytes = this.bytes(schema)
    if (bytes !== undefined) return bytes
    if (schema.const !== undefined) return schema.const
    if (Array.isArray(schema.enum)) {
      const values = schema.enum.filter((v) => v !== null)
      return values.length === 0 ? null : this.pick(values)
    }
    if (Array.isArray(schema.oneOf) && schema.type === undefined) return this.alternative(schema.oneOf, depth)
    const types = Array.isArray(schema.type) ? schema.type : [schema.type]
    const type = types.find((t) => t !== 'null')
    if (type === undefined) return null
    switch (type) {
      case 'object': return this.object(schema, depth)
      case 'array': return this.array(schema, depth, false)
      case 'integer': case 'number': return this.number(schema, type === 'integer')
      case 'boolean': return this.rich ? this.rng() < 0.5 : true
      default: return this.string(schema)
    }
  }

  /**
   * An element that may carry a derived type: the declared one when minimal, another when rich (abstract ones
   * never).
   */
  private alternative (alternatives: readonly unknown[], depth: number): unknown {
    const types = alternatives
      .map((a) => this.resolve(isObject(a) ? a : {}))
      .filter((a) => a.type !== 'null' && (a.xml as Schema | undefined)?.abstract !== true)
    if (types.length === 0) return null
    const derived = types.slice(1)
    const chosen = this.rich && depth < RICH_DEPTH && derived.length > 0
      ? derived[Math.floor(this.rng() * derived.length)]
      : types[0]
    return this.object(chosen, depth)
  }

  private array (schema: Schema, depth: number, present: boolean): unknown[] {
    const min = typeof schema.minItems === 'number' ? schema.minItems : 0
    const max = typeof schema.maxItems === 'number' ? schema.maxItems : Infinity
    const xml = isObject(schema.xml) ? schema.xml : {}
    // A wildcard's raw elements: its first example (a contract gives a strict xs:any's, elements it declares),
    // else only as many as it requires: one the contract declares no element for is refused by a strict xs:any.
    if (xml.any === true) {
      return Array.isArray(schema.examples) && Array.isArray(schema.examples[0])
        ? structuredClone(schema.examples[0])
        : Array.from({ length: min }, () => this.raw(xml))
    }
    const count = Math.min(max, Math.max(min, present || (this.rich && depth < RICH_DEPTH) ? 1 : 0))
    return Array.from({ length: count }, () => this.value(schema.items, depth + 1))
  }

  /** A raw element for a wildcard, in a namespace it admits. */
  private raw (xml: Schema): unknown {
    const allowed = Array.isArray(xml.anyNamespaces) ? xml.anyNamespaces as string[] : undefined
    const except = Array.isArray(xml.anyExcept) ? xml.anyExcept as string[] : []
    const namespace = allowed !== undefined
      ? allowed.find((n) => n !== '') ?? ''
      : except.includes(SAMPLE_NS) ? `${SAMPLE_NS}:other` : SAMPLE_NS
    const prefix = namespace === '' ? '' : 'sample'
    return {
      name: prefix === '' ? 'sample' : 'sample:sample',
      prefix,
      localName: 'sample',
      namespace,
      attributes: [],
      children: ['sample']
    }
  }

  private object (schema: Schema, depth: number): Record<string, unknown> {
    this.objects++
    const properties = isObject(schema.properties) ? schema.properties : {}
    const required = new Set(Array.isArray(schema.required) ? schema.required as string[] : [])
    const present = this.presence(schema, properties, required, depth)
    const out: Record<string, unknown> = {}
    for (const [name, given] of Object.entries(properties)) {
      const property = this.resolve(isObject(given) ? given : {})
      if (name === TYPE_PROPERTY && property.const !== undefined) {
        out[name] = property.const
      } else if (present.has(name)) {
        const value = property.type === 'array' ? this.array(property, depth, true) : this.value(property, depth + 1)
        if (!Array.isArray(value) || value.length > 0 || required.has(name)) out[name] = value
      } else if (required.has(name)) {
        out[name] = property.type === 'array' ? [] : this.value(property, depth + 1)
      }
    }
    return out
  }

  /**
   * The properties present: the required ones; when rich and not too deep,
   * the optional ones too, each kept only where the object's presence rules
   * (its choices) still hold; first the fewest additions that make them hold.
   */
  private presence (schema: Schema, properties: Schema, required: ReadonlySet<string>, depth: number): Set<string> {
    const rules = ['anyOf', 'oneOf', 'not'].filter((k) => schema[k] !== undefined).map((k) => ({ [k]: schema[k] }))
    const free = rules.length === 0
    const isArray = (p: string): boolean =>
      this.resolve(isObject(properties[p]) ? properties[p] as Schema : {}).type === 'array'
    const arrays = new Set(Object.keys(properties).filter(isArray))
    const ok = (set: ReadonlySet<string>): boolean => {
      if (free) return true
      const skeleton: Record<string, unknown[] | true> = {}
      for (const p of Object.keys(properties)) {
        if (set.has(p)) skeleton[p] = arrays.has(p) ? [true] : true
        else if (required.has(p)) skeleton[p] = arrays.has(p) ? [] : true
      }
      return rules.every((r) => holds(r, skeleton))
    }
    const optional = Object.keys(properties).filter((p) => !required.has(p) && p !== TYPE_PROPERTY)
    if (this.rich) {
      const turn = Math.floor(this.rng() * (optional.length + 1))
      optional.push(...optional.splice(0, turn))
    }
    // An array of a least item is there, required or not (the XSD's minOccurs): the codec leaves out an empty one.
    const least = (p: string): boolean =>
      ((this.resolve(properties[p] as Schema).minItems as number | undefined) ?? 0) > 0
    const base = new Set([...required].filter((p) => !arrays.has(p) || least(p)))
    for (const p of arrays) if (least(p)) base.add(p)
    const found = this.fewest(base, optional, ok) ?? base
    if (!this.rich || depth >= RICH_DEPTH || this.objects > RICH_OBJECTS) return found
    for (const p of optional) {
      // An element of wildcard content only may require a raw element the schema does not say it does: left out.
      if (found.has(p) || this.wildcardOnly(properties[p])) continue
      found.add(p)
      if (!ok(found)) found.delete(p)
    }
    return found
  }

  private wildcardOnly (given: unknown): boolean {
    const schema = this.resolve(isObject(given) ? given : {})
    const properties = Object.values(isObject(schema.properties) ? schema.properties : {})
    return properties.length > 0 && properties.every((p) => isObject(p) && isObject(p.xml) && p.xml.any === true)
  }

  /**
   * The set of `base` and the fewest of `optional` (up to three) for which `ok` holds, trying at most
   * PRESENCE_TRIES sets.
   */
  private fewest (
    base: ReadonlySet<string>,
    optional: readonly string[],
    ok: (set: ReadonlySet<string>) => boolean
  ): Set<string> | undefined {
    let tries = 0
    const search = (set: Set<string>, from: number, left: number): Set<string> | undefined => {
      if (tries++ > PRESENCE_TRIES) return undefined
      if (left === 0) return ok(set) ? set : undefined
      for (let i = from; i < optional.length; i++) {
        const found = search(new Set([...set, optional[i]]), i + 1, left - 1)
        if (found !== undefined) return found
      }
      return undefined
    }
    for (let size = 0; size <= 3; size++) {
      const found = search(new Set(base), 0, size)
      if (found !== undefined) return found
    }
    return undefined
  }

  private number (schema: Schema, integer: boolean): number {
    const step = typeof schema.multipleOf === 'number' ? schema.multipleOf : integer ? 1 : undefined
    let low = typeof schema.minimum === 'number' ? schema.minimum : -Infinity
    let high = typeof schema.maximum === 'number' ? schema.maximum : Infinity
    const gap = step ?? 0.5
    if (typeof schema.exclusiveMinimum === 'number') low = Math.max(low, schema.exclusiveMinimum + (integer ? 1 : gap))
    if (typeof schema.exclusiveMaximum === 'number') {
      high = Math.min(high, schema.exclusiveMaximum - (integer ? 1 : gap))
    }
    const wanted = this.rich ? Math.floor(this.rng() * 100) + (integer ? 0 : 0.5) : 1
    let value = Math.min(Math.max(wanted, low), high)
    if (step !== undefined) {
      value = Math.ceil(value / step) * step
      if (value > high) value -= step
    }
    return integer ? Math.round(value) : value
  }

  /**
   * The bytes of a binary string (`contentEncoding` base64 or base16): one of its `enum` or its `const`, or as many
   * octets as its bounds allow, about 6; undefined for any other schema.
   */
  private bytes (schema: Schema): Buffer | undefined {
    const encoding = schema.contentEncoding as BinaryEncoding
    if (!BINARY_ENCODINGS.has(encoding) || !isString(schema)) return undefined
    const listed = schema.const !== undefined ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : []
    const values = listed.filter((v) => v !== null)
    if (values.length > 0) return readBinary(encoding, String(this.pick(values)))
    const xml = isObject(schema.xml) ? schema.xml : {}
    const min = typeof xml.minOctets === 'number' ? xml.minOctets : 0
    const max = typeof xml.maxOctets === 'number' ? xml.maxOctets : Infinity
    const length = Math.min(max, Math.max(min, 6))
    return Buffer.from(Array.from({ length }, (_, i) => (i * 37 + Math.floor(this.rng() * 256)) % 256))
  }

  private string (schema: Schema): string {
    const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined
    if (format !== undefined) return format
    // A default is a value of the XSD's own type, which the schema may not say (a union is a string here).
    if (typeof schema.default === 'string') return schema.default
    const min = typeof schema.minLength === 'number' ? schema.minLength : 0
    const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity
    const fits = (s: string): boolean => {
      const length = [...s].length
      return length >= min && length <= max
    }
    if (typeof schema.pattern === 'string') return this.matching(schema.pattern, fits)
    let word = this.pick(WORDS)
    while ([...word].length < min) word += word
    return [...word].slice(0, Math.max(min, Math.min(max, word.length))).join('')
  }

  /**
   * A string of the pattern, of the lengths `fits` allows: tries with more repetitions each time; the last made
   * when none fits.
   */
  private matching (pattern: string, fits: (s: string) => boolean): string {
    const whole = new RegExp(pattern, 'u')
    // The lexical forms of dates, times and decimals (lib/contract/simple-types.ts) admit values that are none:
    // a real one first; then a duration, a year, a year and month, a month, a day of a month, a day.
    const day = String(1 + Math.floor(this.rng() * 28)).padStart(2, '0')
    const known = [
      `2024-05-${day}T09:30:00Z`, `2024-05-${day}`, '09:30:00Z', `2024-05-${day}T09:30:00`, '09:30:00', day, `${day}.5`,
      `P1DT${Number(day)}H`, '2024', '2024-05', '--05', `--05-${day}`, `---${day}`
    ]
    const real = known.find((k) => whole.test(k) && fits(k))
    if (real !== undefined) return real
    const node = readPattern(pattern)
    let made = ''
    if (node === undefined) return made
    for (let n = 0; n < PATTERN_TRIES; n++) {
      made = generate(node, this.rng, n === 0 ? (this.rich ? 1 : 0) : Math.ceil(n / 4))
      if (whole.test(made) && fits(made)) return made
    }
    return made
  }
}

/**
 * A sample value of a schema (an operation's input or output, a header
 * block's, a fault's detail, with its `$defs`), which its validator accepts
 * and the codec writes: minimal (required content) unless `rich`.
 */
export function sampleValue (schema: SoapSchema, options: SampleOptions = {}): unknown {
  const root = schema as Schema
  return new Sampler(root, options.rich === true, options.seed ?? 1).value(root, 0)
}

/**
 * The writer of an element of the schema (`xml.name` in `xml.namespace`,
 * else `name` in `namespace`): the one the service compiles for its
 * messages. Made once, it writes any number of values.
 */
export function sampleWriter (schema: SoapSchema, name = 'value', namespace = ''): (value: unknown) => string {
  const xml = xmlOf(schema as Schema, '#')
  const ns = xml.namespace ?? namespace
  const shape = shapeOf(schema, '#', ns)
  if (shape.kind !== 'object') throw new TypeError('a sample is written of an object schema')
  return compileElement(shape, xml.name ?? name, ns, prefixesFor(shape, ns, schema, '#'), usesXsi(shape))
}

/** A value written as the element its schema names (sampleWriter()). */
export function writeSample (schema: SoapSchema, value: unknown, name?: string, namespace?: string): string {
  return sampleWriter(schema, name, namespace)(value)
}

/**
 * A whole envelope holding a sample of an operation's input (or output):
 * its Body element written by writeSample(), in SOAP 1.1 or 1.2. A schema
 * of none (an empty Body) gives an empty Body.
 */
export function sampleEnvelope (
  schema: SoapSchema | undefined,
  version: '1.1' | '1.2',
  options: SampleOptions & { name?: string, namespace?: string } = {}
): string {
  const body = schema === undefined
    ? ''
    : writeSample(schema, sampleValue(schema, options), options.name, options.namespace)
  return writeEnvelope(version === '1.1' ? SOAP11 : SOAP12, body)
}
