/**
 * Contract first, part 2: what the translators of XML Schema constructs
 * (lib/contract/xsd-*.ts) share: the components they read
 * (xsd-components.ts), the state of one translation (what is being read,
 * what was made, how deep and how much), and the interface through which
 * one construct's translator asks another's (lib/contract/xsd-read.ts
 * implements it), so that they import one another only through this file.
 */
import type { Element as DomElement } from '@xmldom/xmldom'
import type { Simple } from './simple-types'
import type { Content, WildcardNeed } from './content'
import type { Reach } from './presence-rules'
import { MadeOnce, NamedSchemas } from './defs'
import { Nesting } from './checks'
import { Bounds } from './bounds'
import type { QName, SchemaComponents, SchemaContext } from './xsd-components'

export type Schema = Record<string, unknown>

/** A value's schema, and whether it is of a simple type. */
export interface Typed {
  readonly schema: Schema
  readonly simple: boolean
}

/** What is being translated, and what was: one per contract. */
export class TranslationState {
  readonly nesting = new Nesting()
  /** How deep and how much the translation reads. */
  readonly bounds = new Bounds()
  /** Named types being translated, to find a recursive one. */
  readonly stack: string[] = []
  /** The type whose content is being gathered, then its bases: a base met again is a type derived from itself. */
  deriving: string[] = []
  /** Anonymous types being translated, to find one that contains itself through an element reference. */
  readonly anonymous = new Set<DomElement>()
  /** The named schemas (`$defs`): types that contain themselves, large ones, and the alternatives of derived types. */
  readonly named = new NamedSchemas()
  /** Anonymous types translated, by schema context and node. */
  readonly anonymousTypes = new MadeOnce(this.named)
  /** Named complex types translated, by `{namespace}localName`. */
  readonly translated = new Map<string, Schema>()
  /** Alternatives waiting for a type being translated, by `{namespace}localName`. */
  readonly translating = new Map<string, Array<(schema: Schema) => void>>()
  /** The `$any` schemas of contents that a strict wildcard requires elements of, with what their wildcards need. */
  readonly wildcards = new Map<Schema, readonly WildcardNeed[]>()

  /** A reference to a recursive type being translated. */
  reference (id: string, local: string): Typed {
    return { schema: { $ref: `#/$defs/${this.named.name(id, local)}` }, simple: false }
  }
}

/** The translation of each construct, as the others ask for it. */
export interface Translator {
  readonly components: SchemaComponents
  readonly state: TranslationState
  /** An element declaration's value schema (lib/contract/xsd-elements.ts). */
  elementType: (node: DomElement, context: SchemaContext, where: string, top?: boolean) => Typed
  /** A named type where an element uses it (lib/contract/xsd-elements.ts). */
  typeByName: (name: QName, where: string) => Typed
  /** A named type's own schema (lib/contract/xsd-elements.ts). */
  plainType: (name: QName, where: string, alternative?: boolean) => Typed
  /** A complex type's object schema (lib/contract/xsd-complex.ts). */
  complexType: (node: DomElement, context: SchemaContext, where: string) => Schema
  /** A complex type's content, gathered into `content` (lib/contract/xsd-complex.ts). */
  complexContent: (node: DomElement, context: SchemaContext, content: Content, where: string) => void
  /** A model group or element particle (lib/contract/xsd-particles.ts). */
  particle: (
    node: DomElement, context: SchemaContext, content: Content, optional: boolean, repeated: boolean, where: string
  ) => Reach
  /** An attribute, attribute group or attribute wildcard (lib/contract/xsd-attributes.ts). */
  attribute: (node: DomElement, context: SchemaContext, content: Content, where: string) => void
  /** A simple type (lib/contract/simple-types.ts). */
  simpleType: (node: DomElement, context: SchemaContext, where: string) => Simple
}
