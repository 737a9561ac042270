/**
 * The keys an options object or a declaration may have, checked in one
 * place: the first unknown key is what the error names, with the known ones.
 */

/** The keys of T; of each of its members, when T is a union. */
type KeyOf<T> = T extends unknown ? keyof T : never

/**
 * Every key of T, each once: a list of keys written
 * `{ a: true, b: true } as const satisfies KeyRecord<T>` stops compiling
 * when T gains a key the list lacks, or loses one the list has.
 */
export type KeyRecord<T, V = true> = { readonly [K in KeyOf<T>]: V }

export class KnownKeys {
  readonly #keys: ReadonlySet<string>
  /** The known keys, for a message: `a, b, c`. */
  readonly list: string

  /** The keys, listed or as the keys of a KeyRecord. */
  constructor (keys: readonly string[] | Readonly<Record<string, unknown>>) {
    const listed = Array.isArray(keys) ? keys : Object.keys(keys)
    this.#keys = new Set(listed)
    this.list = listed.join(', ')
  }

  /** Whether `key` is a known one. */
  has (key: string): boolean {
    return this.#keys.has(key)
  }

  /**
   * The problem of the first own key of `value` that is not a known one, `where` naming the object: `<where> has
   * an unknown key "k" (one of a, b, c)`; undefined when every key is known.
   */
  problemIn (value: object, where: string): string | undefined {
    const key = this.unknownIn(value)
    return key === undefined ? undefined : `${where} has an unknown key "${key}" (one of ${this.list})`
  }

  /** The first own key of `value` that is not a known one, or undefined. */
  unknownIn (value: object): string | undefined {
    for (const key of Object.keys(value)) if (!this.#keys.has(key)) return key
    return undefined
  }
}

/** Whether a value is an options object: an object, not null, not an array. */
export function isObject (value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
