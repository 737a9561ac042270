/**
 * Contract first: what reading a contract's schemas may cost
 * (docs/contract-first.md "Bounds"): how deep the constructs an operation
 * reaches nest in one another, and how many are read in all. Past either, the
 * contract is SOAP_ERR_CONTRACT_UNSUPPORTED naming the construct and the path
 * to it, before its schemas could exhaust the stack or the heap.
 */
import { SOAP_ERR_CONTRACT_UNSUPPORTED } from '../errors'

/** How deep elements, model groups, attribute groups and bases may nest, from an operation's element down. */
export const MAX_DEPTH = 256

/**
 * How many particles, attributes and named simple types reading a contract
 * may take, each counted where it is read, and the pairs of elements of two
 * branches of a choice that its presence rules name.
 */
export const BUDGET = 200_000

export class Bounds {
  private level = 0
  /** The deepest level reached since the schema being made began. */
  private deepest = 0
  private spent = 0
  /** How far below its own place each schema made once reaches. */
  private readonly heights = new WeakMap<object, number>()

  /** How deep the construct being read lies. */
  get depth (): number {
    return this.level
  }

  /** One construct more (or `count`), read at `where` (returned). */
  spend (what: string, where: string, count = 1): string {
    this.spent += count
    if (this.spent > BUDGET) {
      const why = `grow past ${BUDGET} particles and attributes read (groups or types reused within one another)`
      throw new SOAP_ERR_CONTRACT_UNSUPPORTED(`${what} where its schemas ${why}`, where)
    }
    return where
  }

  /** Reads `what`, one level deeper than where it is met. */
  deeper<T> (what: string, where: string, read: () => T): T {
    this.spend(what, where)
    this.reach(1, what, where)
    this.level++
    try {
      return read()
    } finally {
      this.level--
    }
  }

  /** Makes a schema used again elsewhere, remembering how deep it reaches (once more at each use: again()). */
  measure<T extends object> (make: () => T): T {
    const outer = this.deepest
    this.deepest = this.level
    try {
      const made = make()
      this.heights.set(made, this.deepest - this.level)
      return made
    } finally {
      this.deepest = Math.max(outer, this.deepest)
    }
  }

  /** A schema made before (measure()), used here (returned): it reaches as deep below this place as below its first. */
  again<T extends object> (schema: T, what: string, where: string): T {
    this.reach(this.heights.get(schema) as number, what, where)
    return schema
  }

  private reach (below: number, what: string, where: string): void {
    if (this.level + below > MAX_DEPTH) {
      const why = `nested in elements, groups and bases more than ${MAX_DEPTH} deep`
      throw new SOAP_ERR_CONTRACT_UNSUPPORTED(`${what} ${why}`, where)
    }
    this.deepest = Math.max(this.deepest, this.level + below)
  }
}
