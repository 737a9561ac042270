/**
 * Description: the presence rules of an object (docs/services.md, "The
 * mapping": `oneOf`, `anyOf` holding only `required`) that its XML Schema can
 * state as an `xs:choice`, saying exactly what Ajv checks, and nothing more.
 *
 * A branch `{ required: [p] }` holds when property p is present in the value,
 * and the choice is over elements: it says what Ajv says when each branch
 * holds exactly when its element is there. That is so of an element that is
 * no array, of one list element, of a wrapped array (an absent one reads as absent, an
 * empty one is an empty wrapper) and, when its branch asks for an item
 * (`properties: { p: { type: 'array', minItems: 1 } }`), of an array that is
 * not wrapped (repeated list elements included). Such an array reads as [] when no element came,
 * so a branch that asks only for the property holds without its element:
 * an exclusive choice can still say that two elements never come together,
 * with that branch's element optional; a choice of one at least cannot.
 */
import type { Field, ObjectShape } from '../codec/shapes'

type Schema = Readonly<Record<string, unknown>>

/** One branch of a stated choice: its element, and whether the branch taken has it (its `minOccurs` at least 1). */
export interface ChoiceBranch {
  readonly field: Field
  readonly present: boolean
}

/**
 * A presence rule the XSD states: `one` for a `oneOf` (exactly one branch),
 * `some` for an `anyOf` (one at least). Its elements are adjacent in the
 * object's sequence, beginning at `start`; the branches are in their order.
 */
export interface StatedChoice {
  readonly kind: 'one' | 'some'
  readonly start: number
  readonly branches: readonly ChoiceBranch[]
}

/** The property a branch requires alone, and whether it asks for an item of it; undefined for any other branch. */
function single (branch: Schema): { property: string, item: boolean } | undefined {
  const { required, properties, ...rest } = branch
  if (Object.keys(rest).length > 0 || !Array.isArray(required) || required.length !== 1) return undefined
  const property = required[0] as string
  // The codec took "properties" of true or of an array's counts (lib/codec/shapes.ts); an item: { minItems: 1 }.
  const said = (properties ?? {}) as Schema
  if (Object.keys(said).some((p) => p !== property)) return undefined
  const count = said[property] as Schema | true | undefined
  if (count !== undefined && count !== true && (count.minItems !== 1 || count.maxItems !== undefined)) return undefined
  return { property, item: count !== undefined && count !== true }
}

/** The branch of one element, or undefined when its presence and the branch's do not go together. */
function branchOf (field: Field, item: boolean): ChoiceBranch | undefined {
  // An array that is not wrapped is there when it has an item; anything else when its element is.
  if (field.array && !field.wrapped) return { field, present: item }
  return item ? undefined : { field, present: true }
}

/**
 * The choices of an object the XSD states: its `oneOf` and its `anyOf`, each
 * when every branch requires one optional element property (its own), those
 * elements are adjacent, and their presence says the branches'. None for an
 * object with a `$type`: a type derived by extension has its base's content
 * model, whatever its own schema says. Two rules never share an element: the
 * `oneOf` is stated first.
 */
export function statedChoices (shape: ObjectShape, schema: Schema): StatedChoice[] {
  if (shape.xsiType !== undefined) return []
  const required = new Set(Array.isArray(schema.required) ? schema.required as unknown[] : [])
  const taken = new Set<number>()
  const choices: StatedChoice[] = []
  for (const [keyword, kind] of [['oneOf', 'one'], ['anyOf', 'some']] as const) {
    const rule = schema[keyword]
    if (!Array.isArray(rule)) continue
    const indices: number[] = []
    const items = new Map<number, boolean>()
    for (const branch of rule as Schema[]) {
      const said = single(branch)
      const index = said === undefined || required.has(said.property)
        ? -1
        : shape.elements.findIndex((field) => field.property === said.property)
      if (index < 0 || items.has(index) || taken.has(index)) break
      indices.push(index)
      items.set(index, (said as { item: boolean }).item)
    }
    if (indices.length < rule.length) continue
    indices.sort((a, b) => a - b)
    if (indices[indices.length - 1] - indices[0] + 1 !== indices.length) continue
    // A branch asking for an item of an array that holds none never holds: no particle says that.
    const none = (i: number): boolean => items.get(i) === true &&
      ((schema.properties as Schema | undefined)?.[shape.elements[i].property] as Schema | undefined)?.maxItems === 0
    if (indices.some(none)) continue
    const branches = indices.map((i) => branchOf(shape.elements[i], items.get(i) as boolean))
    // One at least says nothing when a branch holds without its element.
    if (branches.some((b) => b === undefined || (kind === 'some' && !b.present))) continue
    for (const i of indices) taken.add(i)
    choices.push({ kind, start: indices[0], branches: branches as ChoiceBranch[] })
  }
  return choices
}
