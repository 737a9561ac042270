/**
 * Types only: the TypeScript value of a JSON Schema, for the set the codec
 * supports (docs/typescript.md). Write schemas inline in `defineOperation()`
 * (its type parameters are `const`) or `as const`. A `$ref` to the schema's
 * own `$defs` is the value of the schema it names, so a schema that contains
 * itself is a type that contains itself. A "oneOf" of types is the union of
 * their values. A binary string (`contentEncoding` base64 or base16) is the
 * bytes it encodes, a Buffer (docs/binary.md).
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

/** A binary string's value: a Buffer, or null where its type list has `null`. */
type Bytes<S> = S extends { readonly type: ReadonlyArray<infer Names> }
  ? ('null' extends Names ? Buffer | null : Buffer)
  : Buffer

type OfType<S, D> =
  S extends { readonly xml: { readonly any: true } } ? XmlElement[]
    : S extends { readonly contentEncoding: 'base64' | 'base16' } ? Bytes<S>
      : S extends { readonly enum: ReadonlyArray<infer E> } ? E
        : S extends { readonly const: infer C } ? C
          : S extends { readonly type: ReadonlyArray<infer Names> }
            ? (Names extends unknown ? OfTypeName<S, Names, D> : never)
            : S extends { readonly type: infer Name } ? OfTypeName<S, Name, D>
              : unknown

type OfSchema<S, D> = S extends { readonly nullable: true } ? OfType<S, D> | null : OfType<S, D>

/** The schemas a `$ref` may name: the root's `$defs` (or `definitions`). */
type DefsOf<S> = S extends { readonly $defs: infer D } ? D : S extends { readonly definitions: infer D } ? D : {}

/** A `$ref` to `#/$defs/Name` (or `#/definitions/Name`): the named schema's value. */
type Named<Ref, D> = Ref extends `#/${'$defs' | 'definitions'}/${infer Name}`
  ? (Name extends keyof D ? Value<D[Name], D> : unknown)
  : unknown

/** A "oneOf" of types (an element that may carry `xsi:type`): one of their values, told apart by `$type`. */
type OneOf<S, D> =
  | (S extends { readonly oneOf: ReadonlyArray<infer B> } ? (B extends unknown ? Value<B, D> : never) : never)
  | (S extends { readonly nullable: true } ? null : never)

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

/**
 * A value of type T whose arrays may be read-only, as a handler's result may
 * be (the writer only reads them), so that a literal result needs no `as const`;
 * bytes (a Buffer read) may be any Uint8Array.
 */
export type Readable<T> = T extends ReadonlyArray<infer U> ? ReadonlyArray<Readable<U>>
  : T extends Uint8Array ? Uint8Array
    : T extends object ? { readonly [K in keyof T]: Readable<T[K]> }
      : T

/** The properties of an object schema; `never` for one it does not name if the schema is closed. */
type ExactObject<R, S, P, D> = R extends object
  ? {
      [K in keyof R]: K extends keyof P ? ExactValue<R[K], P[K], D>
        : S extends { readonly additionalProperties: false } ? never
          : R[K]
    }
  : R

/** An array (or a tuple), each item checked against the `items` schema. */
type ExactArray<R, I, D> = R extends ReadonlyArray<unknown> ? { [K in keyof R]: ExactValue<R[K], I, D> } : R

/** A value of a "oneOf", checked against the branches it is a value of: it must be exact for one of them. */
type ExactOneOf<R, B, D> = R extends unknown
  ? OrElse<B extends unknown ? (R extends Readable<Value<B, D>> ? ExactValue<R, B, D> : never) : never, R>
  : never

type OrElse<T, Otherwise> = [T] extends [never] ? Otherwise : T

type ExactNamed<R, Ref, D> = Ref extends `#/${'$defs' | 'definitions'}/${infer Name}`
  ? (Name extends keyof D ? ExactValue<R, D[Name], D> : R)
  : R

/** The value R checked against the schema S, inside a root whose `$defs` are `D`. */
type ExactValue<R, S, D> = S extends { readonly static: unknown } ? R
  : S extends { readonly $ref: infer Ref } ? ExactNamed<R, Ref, D>
    : S extends { readonly xml: { readonly any: true } } ? R
      : S extends { readonly properties: infer P } ? ExactObject<R, S, P, D>
        : S extends { readonly items: infer I } ? ExactArray<R, I, D>
          : S extends { readonly oneOf: ReadonlyArray<infer B> } ? ExactOneOf<R, B, D>
            : R

/**
 * R, a value written for the schema S (a handler's result, a fault's detail),
 * with each property that an object schema with `additionalProperties: false`
 * does not name typed `never`, at any depth: R is assignable to it only when
 * it has no such property. Where `additionalProperties` is absent, and in a
 * TypeBox schema (whose type does not say), any other property is allowed.
 */
export type Exact<R, S> = ExactValue<R, S, DefsOf<S>>
