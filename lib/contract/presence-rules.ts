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
  | { readonly kind: 'exclusive', readonly groups: ReadonlyArray<readonly string[]>, readonly elements: Elements }
  | ImpliesRule
  | { readonly kind: 'some', readonly sets: ReadonlyArray<readonly string[]> }
  | BranchesRule

interface ImpliesRule {
  readonly kind: 'implies'
  readonly if: readonly string[]
  readonly then: readonly string[]
  readonly some: ReadonlyArray<readonly string[]>
  readonly elements: Elements
}

/**
 * How many element particles of each property a rule names stand where the
 * rule speaks of: it holds only when the content model has no other (one
 * named elsewhere too may be there without them).
 */
export type Elements = ReadonlyArray<readonly [property: string, particles: number]>

/** How many times each property is in the lists. */
function tally (lists: ReadonlyArray<readonly string[]>): Elements {
  const out = new Map<string, number>()
  for (const list of lists) for (const p of list) out.set(p, (out.get(p) ?? 0) + 1)
  return [...out]
}

/** How many elements of a property there are: `max` Infinity when unbounded. */
export type Count = readonly [property: string, min: number, max: number]

/**
 * `branches`: a choice taken at most once whose branches name the same
 * elements (arrays, then): nothing of the choice appears, or one branch
 * does, with each shared element as many times as the branch allows (its
 * `counts`), its required elements and one of each of its `some`, and no
 * element of another branch (`absent`). It holds only while `elements` says
 * how many element particles of each of its properties the content model
 * has: one named elsewhere too may be there without the choice.
 */
export interface BranchesRule {
  readonly kind: 'branches'
  readonly props: readonly string[]
  readonly branches: ReadonlyArray<{
    readonly counts: readonly Count[]
    readonly present: readonly string[]
    readonly some: ReadonlyArray<readonly string[]>
    readonly absent: readonly string[]
  }>
  readonly elements: Elements
  /** A type's whole content: always there, so one branch holds even when nothing of it appears. */
  readonly whole?: boolean
}

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
  /** How many times each element particle among `props` appears when taken, when known (not under a repeated group). */
  readonly counts?: Count[]
  /**
   * Its flat alternatives, each time it is taken (a group around it that repeats counts them again), when known (at
   * most FLAT_MOST): each the counts of the element particles it allows (those it does not name are absent). Computed
   * when a choice or the whole content asks.
   */
  readonly flat?: () => Flat | undefined
}

/** Flat alternatives: in each, every element particle's count (a property may be there twice). */
type Flat = ReadonlyArray<readonly Count[]>

/** The most flat alternatives a particle is taken apart into; beyond, its choices state no `branches` rule. */
export const FLAT_MOST = 64

export const NOTHING: Reach = { props: [], required: [], some: [], emptiable: true, flat: () => [[]] }

/** An optional group's flat alternatives: its own, and none of its elements. */
export function optionalFlat (reach: Reach): Reach['flat'] {
  const inner = reach.flat
  return inner && (() => {
    const alternatives = inner()
    return alternatives && (alternatives.some((a) => a.length === 0) ? alternatives : [...alternatives, []])
  })
}

/** How many sets of takes a repeated group's alternatives are counted from, at most. */
const TAKES_MOST = 4096

/**
 * A group's flat alternatives when it is taken `min` to `max` times: each set of takes of its alternatives adds their
 * counts up (a sum of ranges is the range of the sums). Taken without bound, only alternatives that name one element
 * each can be stated (past the least takes, any further one adds any number of its element); one that names two
 * (`(a, b)*`: as many a as b) cannot be said with counts: undefined, as past FLAT_MOST.
 */
export function repeatedFlat (flat: Reach['flat'], min: number, max: number): Reach['flat'] {
  return flat && (() => {
    const takes = flat()?.map(byProperty)
    if (takes === undefined || (max === Infinity && takes.some((a) => a.length > 1))) return undefined
    if (takes.every((a) => a.length === 0)) return [[]]
    const named = [...new Set(takes.flatMap((a) => a.map(([p]) => p)))]
    const out = new Map<string, Count[]>()
    let tried = 0
    /** Every set of `left` more takes of alternatives `from` on, added to `sum`. */
    const sets = (left: number, from: number, sum: ReadonlyMap<string, readonly [number, number]>): boolean => {
      if (left === 0) {
        if (++tried > TAKES_MOST) return false
        const counts = named.map((p): Count => {
          const [least, most] = sum.get(p) ?? [0, 0]
          return [p, least, max === Infinity ? Infinity : most]
        }).filter(([, , most]) => most > 0)
        out.set(JSON.stringify(counts), counts)
        return out.size <= FLAT_MOST
      }
      for (let i = from; i < takes.length; i++) {
        const next = new Map(sum)
        for (const [p, least, most] of takes[i]) {
          next.set(p, [(next.get(p)?.[0] ?? 0) + least, (next.get(p)?.[1] ?? 0) + most])
        }
        if (!sets(left - 1, i, next)) return false
      }
      return true
    }
    for (let k = min; k <= (max === Infinity ? min : max); k++) if (!sets(k, 0, new Map())) return undefined
    return [...out.values()]
  })
}

/** An alternative's counts, one per property (a property named twice in it, added up). */
function byProperty (alternative: readonly Count[]): Count[] {
  const sum = new Map<string, [number, number]>()
  for (const [p, min, max] of alternative) sum.set(p, [(sum.get(p)?.[0] ?? 0) + min, (sum.get(p)?.[1] ?? 0) + max])
  return [...sum].map(([p, [min, max]]) => [p, min, max])
}

/**
 * What an element particle of `min` to `max` occurrences reaches; its counts
 * unless a group around it repeats (then they are its group's business).
 */
export function elementReach (property: string, min: string, max: string, repeated: boolean): Reach {
  const count: Count = [property, Number(min), max === 'unbounded' ? Infinity : Number(max)]
  const counts: Count[] = repeated ? [] : [count]
  const required = min === '0' ? [] : [property]
  return { props: [property], required, some: [], emptiable: min === '0', counts, flat: () => [[count]] }
}

/** What the particles of a sequence (or all) reach together, in their order. */
export function together (reaches: readonly Reach[]): Reach {
  const out: Reach & { emptiable: boolean, counts: Count[], flat?: Reach['flat'] } = {
    props: [], required: [], some: [], emptiable: true, counts: []
  }
  for (const reach of reaches) {
    // One at a time: a group read many times reaches more properties than a call takes arguments.
    for (const p of reach.props) out.props.push(p)
    for (const p of reach.required) out.required.push(p)
    for (const set of reach.some) out.some.push(set)
    for (const count of reach.counts ?? []) out.counts.push(count)
    if (!reach.emptiable) out.emptiable = false
  }
  const flats = reaches.map((r) => r.flat)
  if (flats.every((f) => f !== undefined)) out.flat = () => product(flats)
  return out
}

/** The flat alternatives of particles taken one after another: one of each, as long as there are few enough. */
function product (flats: ReadonlyArray<() => Flat | undefined>): Flat | undefined {
  let out: Flat = [[]]
  for (const flat of flats) {
    const alternatives = flat()
    if (alternatives === undefined || out.length * alternatives.length > FLAT_MOST) return undefined
    out = out.flatMap((a) => alternatives.map((b) => [...a, ...b]))
  }
  return out
}

/** "When any of `props` appears, all of `required` do, and one of each of `some`", unless that says nothing. */
export function addImplies (
  rules: Rule[], props: readonly string[], required: readonly string[], some: ReadonlyArray<readonly string[]>
): void {
  const then = required.filter((p) => !(props.length === 1 && props[0] === p))
  // One of a set that holds every property that can appear is there as soon as any is.
  const sets = some.filter((set) => !props.every((p) => set.includes(p)))
  if (then.length === 0 && sets.length === 0) return
  rules.push({ kind: 'implies', if: props, then, some: sets, elements: tally([props]) })
}

/**
 * A rule as JSON Schema that names only which properties are present (what
 * the codec's presence combinators take): a property is present when it is
 * there, an array when it has an item.
 */
export function presenceOf (
  rule: Rule, properties: ReadonlyMap<string, Schema>, met: ReadonlyMap<string, number>
): Schema | undefined {
  if (rule.kind !== 'some' && rule.elements.some(([p, n]) => met.get(p) !== n)) return undefined
  const array = (p: string): boolean => properties.get(p)?.type === 'array'
  /** All of `ps` present. */
  const all = (ps: readonly string[]): Schema => ({
    properties: Object.fromEntries(ps.map((p) => [p, array(p) ? { type: 'array', minItems: 1 } : true])),
    required: [...new Set(ps)]
  })
  /** At least one of `ps` present. */
  const some = (ps: readonly string[]): Schema => ps.length === 1 ? all(ps) : { anyOf: ps.map((p) => all([p])) }
  const and = (schemas: readonly Schema[]): Schema =>
    schemas.length === 1 ? schemas[0] : { not: { anyOf: schemas.map((x) => ({ not: x })) } }
  switch (rule.kind) {
    case 'exclusive': {
      const pairs: Schema[] = []
      rule.groups.forEach((group, i) => {
        for (const other of rule.groups.slice(i + 1)) {
          for (const p of group) for (const q of other) pairs.push(all([p, q]))
        }
      })
      return { not: { anyOf: pairs } }
    }
    case 'implies': {
      const then = [...(rule.then.length === 0 ? [] : [all(rule.then)]), ...rule.some.map(some)]
      return { anyOf: [{ not: some(rule.if) }, and(then)] }
    }
    case 'branches': {
      const taken = rule.branches.map((b) => and([
        counted(b.counts, array),
        ...(b.present.length === 0 ? [] : [all(b.present)]),
        ...b.some.map(some),
        ...(b.absent.length === 0 ? [] : [{ not: some(b.absent) }])
      ]))
      return { anyOf: rule.whole === true ? taken : [{ not: some(rule.props) }, ...taken] }
    }
    default:
      return and(rule.sets.map(some))
  }
}

/** Each array property with as many items as its count says (absent, when it may have none); another, if required. */
function counted (counts: readonly Count[], array: (p: string) => boolean): Schema {
  const properties: Schema = {}
  for (const [p, min, max] of counts) {
    const most = max < Infinity ? { maxItems: max } : {}
    properties[p] = array(p) ? { type: 'array', ...(min > 0 ? { minItems: min } : {}), ...most } : true
  }
  const required = counts.filter(([, min]) => min > 0).map(([p]) => p)
  return required.length === 0 ? { properties } : { properties, required }
}

/**
 * The `branches` rule of a choice taken once whose branches share elements,
 * or undefined when an element particle of a shared one is not counted (in a
 * nested choice, an optional or repeated group).
 */
function branchesRule (
  branches: readonly Reach[], shared: readonly string[], own: (p: string) => boolean
): BranchesRule | undefined {
  const counts: Count[][] = []
  for (const b of branches) {
    const mine: Count[] = []
    for (const p of shared) {
      const particles = (b.counts ?? []).filter(([q]) => q === p)
      if (particles.length !== b.props.filter((q) => q === p).length) return undefined
      mine.push([p, particles.reduce((n, c) => n + c[1], 0), particles.reduce((n, c) => n + c[2], 0)])
    }
    counts.push(mine)
  }
  const props = [...new Set(branches.flatMap((b) => b.props))]
  return {
    kind: 'branches',
    props,
    branches: branches.map((b, i) => ({
      counts: counts[i],
      present: [...new Set(b.required.filter(own))],
      some: b.some,
      absent: props.filter((p) => own(p) && !b.props.includes(p))
    })),
    elements: tally(branches.map((b) => b.props))
  }
}

/**
 * The `branches` rule of a choice whose branches share elements in a nested
 * choice or an optional group: each flat alternative of each branch (its
 * elements, each as many times as it allows, and none other of the choice)
 * is a branch of the rule. Undefined when one is not known, or beyond
 * FLAT_MOST.
 */
function flatRule (branches: readonly Reach[], props: readonly string[]): BranchesRule | undefined {
  const alternatives: Count[][] = []
  for (const b of branches) {
    const flat = b.flat?.()
    if (flat === undefined || alternatives.length + flat.length > FLAT_MOST) return undefined
    for (const a of flat) alternatives.push(byProperty(a))
  }
  return {
    kind: 'branches',
    props,
    branches: alternatives.map((counts) => ({
      counts, present: [], some: [], absent: props.filter((p) => !counts.some(([q]) => q === p))
    })),
    elements: tally(branches.map((b) => b.props))
  }
}

/**
 * The `branches` rule of a type's whole content (the group `reach` is of), when the group names an element more than
 * once and no rule of a choice counts it (XML Schema 1.0 Part 1 §3.8.4: the content model as a whole decides): an
 * element named before or after a choice that names it too, or twice in a sequence. Undefined when none is needed,
 * or the alternatives are not known. `named` says how many element particles of each property the group has.
 */
export function contentRule (
  reach: Reach, named: ReadonlyMap<string, number>, rules: readonly Rule[]
): BranchesRule | undefined {
  const counted = (p: string): boolean => rules.some((r) => r.kind === 'branches' && r.props.includes(p) &&
    r.elements.some(([q, n]) => q === p && n === named.get(p)))
  if (![...named].some(([p, n]) => n > 1 && !counted(p))) return undefined
  return groupRule(reach, named, true)
}

/**
 * The `branches` rule of a group from its flat alternatives (each a branch), over the elements it names twice and
 * those whose counts differ from one alternative to another (the others' own schemas say all there is of them): a
 * type's `whole` content, always there, or a group taken a bounded number of times, which states nothing when none of
 * its elements is there. Undefined when the alternatives are not known (a group of two elements repeated without
 * bound) or are more than FLAT_MOST. `named` says how many element particles of each property the group has.
 */
export function groupRule (reach: Reach, named: ReadonlyMap<string, number>, whole: boolean): BranchesRule | undefined {
  const all = flatRule([reach], [...named.keys()])
  if (all === undefined) return undefined
  const range = (counts: readonly Count[], p: string): string => String(counts.find(([q]) => q === p)?.slice(1))
  const first = all.branches[0].counts
  const varies = (p: string): boolean => all.branches.some((b) => range(b.counts, p) !== range(first, p))
  const props = all.props.filter((p) => (named.get(p) as number) > 1 || varies(p))
  if (props.length === 0) return undefined
  const branches = new Map<string, BranchesRule['branches'][number]>()
  for (const b of all.branches) {
    const counts = b.counts.filter(([p]) => props.includes(p))
    branches.set(JSON.stringify(counts), { ...b, counts, absent: b.absent.filter((p) => props.includes(p)) })
  }
  const elements = props.map((p): [string, number] => [p, named.get(p) as number])
  return { ...all, props, branches: [...branches.values()], elements, ...whole ? { whole } : {} }
}

/** The flat alternatives of a choice taken once: its branches'; unknown when one's are. */
function choiceFlat (branches: readonly Reach[]): Reach['flat'] {
  if (branches.length === 0 || branches.some((b) => b.flat === undefined)) return undefined
  return () => {
    const out: Array<readonly Count[]> = []
    for (const b of branches) {
      const flat = (b.flat as () => Flat | undefined)()
      if (flat === undefined || out.length + flat.length > FLAT_MOST) return undefined
      out.push(...flat)
    }
    return out
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
  alternatives: ReadonlyArray<() => Reach>, properties: Map<string, unknown>, rules: Rule[], repeated: boolean,
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
      rules.push({ kind: 'exclusive', groups, elements: tally(groups) })
    }
    for (const b of branches) {
      if (b.props.every(own)) addImplies(rules, b.props, b.required, b.some)
    }
  }
  // Elements two branches name: each branch's counts of them say which it is.
  // (One met before the choice too is in the array: the branch's count says nothing of it.)
  const twice = (p: string): boolean => branches.some((b) => b.props.filter((q) => q === p).length > 1)
  const shared = props.filter((p) => !own(p) || twice(p))
  const stated = repeated || shared.length === 0 || shared.some((p) => before.has(p))
    ? undefined
    : branchesRule(branches, shared, own) ?? flatRule(branches, props)
  if (stated !== undefined) {
    cost(stated.branches.length * stated.props.length)
    rules.push(stated)
  }
  const loose = !repeated && props.some((p) => !own(p)) && stated === undefined
  const flat = choiceFlat(branches)
  const taken = repeated ? undefined : flat?.()
  if (taken !== undefined) ordered(properties, before, taken)
  return { props, required: [], some: emptiable || loose ? [] : [props], emptiable, flat }
}

/**
 * Puts the properties a choice added (the last ones) in an order that each of its flat alternatives keeps, as the
 * writer writes in property order: the order met, where no alternative says otherwise; left as met when none keeps
 * them all.
 */
function ordered (properties: Map<string, unknown>, before: ReadonlySet<string>, flat: Flat): void {
  const added = [...properties.keys()].filter((p) => !before.has(p))
  const next = new Map(added.map((p) => [p, new Set<string>()]))
  const waits = new Map(added.map((p) => [p, 0]))
  for (const alternative of flat) {
    for (let i = 1; i < alternative.length; i++) {
      const [p, q] = [alternative[i - 1][0], alternative[i][0]]
      if (p === q || !waits.has(q) || next.get(p)?.has(q) !== false) continue
      next.get(p)?.add(q)
      waits.set(q, (waits.get(q) as number) + 1)
    }
  }
  const order: string[] = []
  const left = [...added]
  while (left.length > 0) {
    const at = left.findIndex((p) => waits.get(p) === 0)
    if (at === -1) return
    const [p] = left.splice(at, 1)
    order.push(p)
    for (const q of next.get(p) as Set<string>) waits.set(q, (waits.get(q) as number) - 1)
  }
  for (const p of order) {
    const value = properties.get(p)
    properties.delete(p)
    properties.set(p, value)
  }
}
