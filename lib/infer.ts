/**
 * Types only: the TypeScript value of a JSON Schema, for the set the codec
 * supports (docs/typescript.md). Write schemas inline in `defineOperation()`
 * (its type parameters are `const`) or `as const`.
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

type InferObject<S> = S extends { readonly properties: infer P }
  ? Simplify<
    { -readonly [K in keyof P as K extends RequiredKeys<S> ? K : never]: Infer<P[K]> } &
    { -readonly [K in keyof P as K extends RequiredKeys<S> ? never : K]?: Infer<P[K]> }
  >
  : Record<string, never>

type InferArray<S> = S extends { readonly items: infer I } ? Array<Infer<I>> : unknown[]

type OfTypeName<S, Name> =
  Name extends 'object' ? InferObject<S>
    : Name extends 'array' ? InferArray<S>
      : Scalar<Name>

type OfType<S> =
  S extends { readonly xml: { readonly any: true } } ? XmlElement[]
    : S extends { readonly enum: ReadonlyArray<infer E> } ? E
      : S extends { readonly const: infer C } ? C
        : S extends { readonly type: ReadonlyArray<infer Names> } ? (Names extends unknown ? OfTypeName<S, Names> : never)
          : S extends { readonly type: infer Name } ? OfTypeName<S, Name>
            : unknown

type OfSchema<S> = S extends { readonly nullable: true } ? OfType<S> | null : OfType<S>

/**
 * The value a schema describes; `nullable: true` adds `null`. A TypeBox
 * schema (`@sinclair/typebox`, as `@fastify/type-provider-typebox` users write
 * them) carries its value's type as `static`: that type is taken as it is.
 */
export type Infer<S> = S extends { readonly static: infer T } ? T : OfSchema<S>
