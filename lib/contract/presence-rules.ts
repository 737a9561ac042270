/**
 * Contract first: what an XML Schema content model says of which elements
 * appear together (xs:choice, optional groups; XML Schema 1.0 Part 1 §3.8),
 * as rules over an object's properties, and those rules as the JSON Schema
 * presence combinators the codec takes (anyOf, not, required).
 */

type Schema = Record<string, unknown>

/**
 * A presence rule of a content model, over properties:
 * - `exclusive`: properties of two different groups never appear together
 *   (the branches of a choice taken once);
 * - `implies`: when any of `if` appears, all of `then` do, and at least one
 *   of each set in `some` (a group taken: its required elements, its
 *   required choices);
 * - `some`: at least one of each set appears (a required choice at the top).
 */
export type Rule =
  | { readonly kind: 'exclusive', readonly groups: ReadonlyArray<readonly string[]> }
  | { readonly kind: 'implies', readonly if: readonly string[], readonly then: readonly string[], readonly some: ReadonlyArray<readonly string[]> }
  | { readonly kind: 'some', readonly sets: ReadonlyArray<readonly string[]> }

/**
 * What a particle adds to a content model: its properties; those it requires
 * when it is taken; the sets of which it requires one (its choices); and
 * whether it may be taken empty.
 */
export interface Reach {
  readonly props: string[]
  readonly required: string[]
  readonly some: string[][]
  readonly emptiable: boolean
}

export const NOTHING: Reach = { props: [], required: [], some: [], emptiable: true }

/** What the particles of a sequence (or all) reach together, in their order. */
export function together (reaches: readonly Reach[]): Reach {
  const out: Reach = { props: [], required: [], some: [], emptiable: true }
  for (const reach of reaches) {
    // One at a time: a group read many times reaches more properties than a call takes arguments.
    for (const p of reach.props) out.props.push(p)
    for (const p of reach.required) out.required.push(p)
    for (const set of reach.some) out.some.push(set)
    if (!reach.emptiable) (out as { emptiable: boolean }).emptiable = false
  }
  return out
}

/** "When any of `props` appears, all of `required` do, and one of each of `some`", unless that says nothing. */
export function addImplies (rules: Rule[], props: readonly string[], required: readonly string[], some: ReadonlyArray<readonly string[]>): void {
  const then = required.filter((p) => !(props.length === 1 && props[0] === p))
  // One of a set that holds every property that can appear is there as soon as any is.
  const sets = some.filter((set) => !props.every((p) => set.includes(p)))
  if (then.length > 0 || sets.length > 0) rules.push({ kind: 'implies', if: props, then, some: sets })
}

/**
 * A rule as JSON Schema that names only which properties are present (what
 * the codec's presence combinators take): a property is present when it is
 * there, an array when it has an item.
 */
export function presenceOf (rule: Rule, properties: ReadonlyMap<string, Schema>): Schema {
  const array = (p: string): boolean => properties.get(p)?.type === 'array'
  /** All of `ps` present. */
  const all = (ps: readonly string[]): Schema => ({
    properties: Object.fromEntries(ps.map((p) => [p, array(p) ? { type: 'array', minItems: 1 } : true])),
    required: [...new Set(ps)]
  })
  /** At least one of `ps` present. */
  const some = (ps: readonly string[]): Schema => ps.length === 1 ? all(ps) : { anyOf: ps.map((p) => all([p])) }
  const and = (schemas: readonly Schema[]): Schema => schemas.length === 1 ? schemas[0] : { not: { anyOf: schemas.map((x) => ({ not: x })) } }
  switch (rule.kind) {
    case 'exclusive': {
      const pairs: Schema[] = []
      rule.groups.forEach((group, i) => {
        for (const other of rule.groups.slice(i + 1)) for (const p of group) for (const q of other) pairs.push(all([p, q]))
      })
      return { not: { anyOf: pairs } }
    }
    case 'implies': {
      const then = [...(rule.then.length === 0 ? [] : [all(rule.then)]), ...rule.some.map(some)]
      return { anyOf: [{ not: some(rule.if) }, and(then)] }
    }
    default:
      return and(rule.sets.map(some))
  }
}

/**
 * A choice (XML Schema 1.0 Part 1 §3.8): its branches' elements are all
 * optional properties, and rules say the rest. Taken once, a choice takes
 * one branch: the properties of two branches never appear together, a
 * branch that appears appears whole, and a choice that cannot be taken
 * empty requires one of its branches. Repeated, each repetition takes a
 * branch of its own: its elements are arrays, and only "one at least"
 * holds.
 */
export function choice (
  alternatives: ReadonlyArray<() => Reach>, properties: ReadonlyMap<string, unknown>, rules: Rule[], repeated: boolean,
  cost: (pairs: number) => void
): Reach {
  const before = new Set(properties.keys())
  const branches = alternatives.map((branch) => branch())
  const props = [...new Set(branches.flatMap((b) => b.props))]
  const emptiable = branches.length === 0 || branches.some((b) => b.emptiable)
  // An element met before the choice, or in two branches, is an array of them all: no rule can name it.
  const counts = new Map<string, number>()
  for (const b of branches) for (const p of new Set(b.props)) counts.set(p, (counts.get(p) ?? 0) + 1)
  const own = (p: string): boolean => !before.has(p) && counts.get(p) === 1
  if (!repeated) {
    const groups = branches.map((b) => b.props.filter(own)).filter((g) => g.length > 0)
    if (groups.length > 1) {
      // presenceOf() names every pair of elements of two branches: as many as the square of the branches.
      const all = groups.reduce((n, g) => n + g.length, 0)
      cost((all * all - groups.reduce((n, g) => n + g.length * g.length, 0)) / 2)
      rules.push({ kind: 'exclusive', groups })
    }
    for (const b of branches) {
      if (b.props.every(own)) addImplies(rules, b.props, b.required, b.some)
    }
  }
  return { props, required: [], some: emptiable || props.some((p) => !own(p) && !repeated) ? [] : [props], emptiable }
}
