/**
 * The keys an options object or a declaration may have, checked in one
 * place: the first unknown key is what the error names, with the known ones.
 */
export class KnownKeys {
  readonly #keys: ReadonlySet<string>
  /** The known keys, for a message: `a, b, c`. */
  readonly list: string

  constructor (keys: readonly string[]) {
    this.#keys = new Set(keys)
    this.list = keys.join(', ')
  }

  /** The first own key of `value` that is not a known one, or undefined. */
  unknownIn (value: object): string | undefined {
    for (const key of Object.keys(value)) if (!this.#keys.has(key)) return key
    return undefined
  }
}
