/**
 * Contract first: substitution groups (XML Schema 1.0 Part 1 §3.3.6). Where
 * a content model refers to the head of a group, the head (unless abstract)
 * and every element of its group may appear; the XML Schema translation
 * (lib/contract/xsd-particles.ts) reads that reference as the choice of them.
 */
import type { Element as DomElement } from '@xmldom/xmldom'
import { attr } from './dom'

/** What the groups need to know of the global element declarations, by `{namespace}localName`. */
export interface Declarations {
  readonly node: (key: string) => DomElement | undefined
  /**
   * Whether the element may appear as itself: not abstract, and of a type that is not abstract (which only
   * `xsi:type` could name a derivation of).
   */
  readonly appears: (key: string) => boolean
}

/** Whether a global element declaration's `block` (or its schema's `blockDefault`) stops every substitution for it. */
function blocksSubstitution (node: DomElement): boolean {
  const schema = node.parentNode as DomElement | null
  const block = attr(node, 'block') ?? (schema === null ? undefined : attr(schema, 'blockDefault')) ?? ''
  const kinds = block.split(/\s+/)
  return kinds.includes('#all') || kinds.includes('substitution')
}

/** The substitution groups of a contract's schemas: which global elements name which heads. */
export class SubstitutionGroups {
  /** Head → the elements whose `substitutionGroup` names it, in document order. */
  private readonly members = new Map<string, string[]>()

  /** `member` names `head` in its `substitutionGroup` (XML Schema 1.1 allows several heads: each is added). */
  add (head: string, member: string): void {
    const list = this.members.get(head)
    if (list === undefined) this.members.set(head, [member])
    else if (!list.includes(member)) list.push(member)
  }

  /**
   * The elements that may appear where `head` is referred to, head first,
   * then each member followed by its own members: or undefined when that is
   * the head alone (no group, or a head that blocks substitution), and the
   * reference is an ordinary one. Elements that cannot appear as themselves
   * (abstract, or of an abstract type) are left out; their members are not.
   * `block="extension"` / `"restriction"` and `final` are not looked at: a
   * valid schema's members are all admitted.
   */
  substitutes (head: string, declarations: Declarations): string[] | undefined {
    const node = declarations.node(head)
    if (node === undefined) return undefined
    const blocked = blocksSubstitution(node)
    if (attr(node, 'abstract') !== 'true' && (blocked || !this.members.has(head))) return undefined
    const out: string[] = []
    const seen = new Set<string>()
    const visit = (name: string, member: boolean): void => {
      // A group that comes back to an element is no valid schema (§3.3.6): each element is met once.
      if (seen.has(name)) return
      seen.add(name)
      if (declarations.node(name) === undefined) return
      if (declarations.appears(name)) out.push(name)
      if (member || !blocked) for (const next of this.members.get(name) ?? []) visit(next, true)
    }
    visit(head, false)
    return out
  }
}
