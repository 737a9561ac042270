/**
 * Types only: the TypeScript value of a JSON Schema, for the set the codec
 * supports (docs/typescript.md). Write schemas inline in `defineOperation()`
 * (its type parameters are `const`) or `as const`. A `$ref` to the schema's
 * own `$defs` is the value of the schema it names, so a schema that contains
 * itself is a type that contains itself. A "oneOf" of types is the union of
 * their values.
 */
import type { XmlElement } from './xml/element'

type Simplify<T> = { [K in keyof T]: T[K] } & {}

type Scalar<Name> =
  Name extends 'string' ? string
    : Name extends 'integer' | 'number' ? number
      : Name extends 'boolean' ? boolean
        : Name extends 'null' ? null
          : never

type RequiredKeys<S> = S extends { readonly required: ReadonlyArray<infer R> } ? R : never

type InferObject<S, D> = S extends { readonly properties: infer P }
  ? Simplify<
    { -readonly [K in keyof P as K extends RequiredKeys<S> ? K : never]: Value<P[K], D> } &
    { -readonly [K in keyof P as K extends RequiredKeys<S> ? never : K]?: Value<P[K], D> }
  >
  : Record<string, never>

type InferArray<S, D> = S extends { readonly items: infer I } ? Array<Value<I, D>> : unknown[]

type OfTypeName<S, Name, D> =
  Name extends 'object' ? InferObject<S, D>
    : Name extends 'array' ? InferArray<S, D>
      : Scalar<Name>

type OfType<S, D> =
  S extends { readonly xml: { readonly any: true } } ? XmlElement[]
    : S extends { readonly enum: ReadonlyArray<infer E> } ? E
      : S extends { readonly const: infer C } ? C
        : S extends { readonly type: ReadonlyArray<infer Names> } ? (Names extends unknown ? OfTypeName<S, Names, D> : never)
          : S extends { readonly type: infer Name } ? OfTypeName<S, Name, D>
            : unknown

type OfSchema<S, D> = S extends { readonly nullable: true } ? OfType<S, D> | null : OfType<S, D>

/** The schemas a `$ref` may name: the root's `$defs` (or `definitions`). */
type DefsOf<S> = S extends { readonly $defs: infer D } ? D : S extends { readonly definitions: infer D } ? D : {}

/** A `$ref` to `#/$defs/Name` (or `#/definitions/Name`): the named schema's value. */
type Named<Ref, D> = Ref extends `#/${'$defs' | 'definitions'}/${infer Name}` ? (Name extends keyof D ? Value<D[Name], D> : unknown) : unknown

/** A "oneOf" of types (an element that may carry `xsi:type`): one of their values, told apart by `$type`. */
type OneOf<S, D> = (S extends { readonly oneOf: ReadonlyArray<infer B> } ? (B extends unknown ? Value<B, D> : never) : never) | (S extends { readonly nullable: true } ? null : never)

/** The value of a schema inside a root whose `$defs` are `D`. */
type Value<S, D> = S extends { readonly static: infer T } ? T
  : S extends { readonly $ref: infer Ref } ? Named<Ref, D>
    : S extends { readonly type: unknown } ? OfSchema<S, D>
      : S extends { readonly oneOf: ReadonlyArray<unknown> } ? OneOf<S, D>
        : OfSchema<S, D>

/**
 * The value a schema describes; `nullable: true` adds `null`. A TypeBox
 * schema (`@sinclair/typebox`, as `@fastify/type-provider-typebox` users write
 * them) carries its value's type as `static`: that type is taken as it is.
 */
export type Infer<S> = Value<S, DefsOf<S>>
