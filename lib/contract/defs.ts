/**
 * Contract first: the named schemas of types that contain themselves
 * (docs/contract-first.md, "The mapping"), gathered for the schemas that
 * reach them.
 */

type Schema = Record<string, unknown>

/**
 * `schema` with the `$defs` of every recursive type it reaches, or as it is
 * when it reaches none: what an operation's schema needs to be read,
 * written, validated and typed on its own. `defs` holds each recursive
 * type's schema by name; `<name>.nil` names its nillable use.
 */
export function withDefs (schema: Schema, defs: ReadonlyMap<string, Schema>): Schema {
  const needed = new Map<string, Schema>()
  // A named type's schema is one object wherever it is used: it is looked through once.
  const seen = new Set<object>()
  const visit = (value: unknown): void => {
    if (typeof value !== 'object' || value === null || seen.has(value)) return
    seen.add(value)
    if (Array.isArray(value)) { for (const v of value) visit(v); return }
    const ref = (value as Schema).$ref
    if (typeof ref === 'string') {
      const name = ref.slice('#/$defs/'.length)
      if (needed.has(name)) return
      const nil = name.endsWith('.nil')
      const base = defs.get(nil ? name.slice(0, -4) : name) as Schema
      const def = nil ? { ...base, nullable: true } : base
      needed.set(name, def)
      visit(def)
      return
    }
    for (const v of Object.values(value)) visit(v)
  }
  visit(schema)
  return needed.size === 0 ? schema : { ...schema, $defs: Object.fromEntries([...needed].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)) }
}
