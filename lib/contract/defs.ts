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
export function withDefs (schema: Schema, defs: Defs): Schema {
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
      const def = name.endsWith('.nil') ? defs.nillable(name.slice(0, -4)) : defs.get(name) as Schema
      needed.set(name, def)
      visit(def)
      return
    }
    for (const v of Object.values(value)) visit(v)
  }
  visit(schema)
  if (needed.size === 0) return schema
  const sorted = [...needed].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)
  return { ...schema, $defs: Object.fromEntries(sorted) }
}

/** The named schemas of one contract read, by name, with their nillable uses. */
export class Defs extends Map<string, Schema> {
  /** By the schema each is a copy of. */
  private readonly nillables = new Map<Schema, Schema>()

  /** A named schema's nillable use: one object for every schema that reaches it (its validator compiled once). */
  nillable (name: string): Schema {
    const base = this.get(name) as Schema
    let nil = this.nillables.get(base)
    if (nil === undefined) this.nillables.set(base, nil = { ...base, nullable: true })
    return nil
  }
}

/**
 * Makes the `$defs` of every schema of a contract one object, the union of
 * them all: the codec's shapes and Ajv's validators of a named schema are
 * then made once for all the operations that reach it, not once each
 * (Exchange's 122 operations held 350 MB of shapes of the same types).
 */
export function shareDefs (schemas: Iterable<Schema | undefined>): void {
  const using = [...schemas].filter((schema): schema is Schema => schema?.$defs !== undefined)
  const union: Schema = {}
  for (const schema of using) Object.assign(union, schema.$defs)
  const shared = Object.fromEntries(Object.entries(union).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0))
  for (const schema of using) schema.$defs = shared
}

/** The size (in schema objects) from which a named type used by an element is a `$ref` to `$defs`. */
const LARGE = 150
const weights = new WeakMap<object, number>()

/** How many objects a schema holds, each shared one counted at each use (what JSON would write), up to LARGE. */
function weight (value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0
  const known = weights.get(value)
  if (known !== undefined) return known
  let total = 1
  for (const child of Object.values(value)) {
    total += weight(child)
    if (total >= LARGE) break
  }
  weights.set(value, total)
  return total
}

/**
 * Whether a schema is large enough (LARGE objects, as JSON writes it) to be
 * named in `$defs` rather than written at each use.
 */
export function isLarge (schema: Schema): boolean {
  return weight(schema) >= LARGE
}

/**
 * Schemas made once and used again (an element's anonymous type, by the
 * schema context it is read in and its node): every use after the first is
 * a `$ref` to it in `$defs`, named after its element (numbered when taken),
 * but an operation's own element (`top`), whose schema is its own. Shared
 * as one object only, a schema would still be written out at each use by
 * whatever walks it as a tree (Ajv's code, the types written), and a small
 * one used many times within others many times grows as fast as a large one.
 */
export class MadeOnce {
  private readonly schemas = new Map<object, Map<object, { schema: Schema, id: string, def: string | undefined }>>()
  private count = 0

  constructor (private readonly named: NamedSchemas) {}

  made (context: object, node: object): Schema | undefined {
    return this.schemas.get(context)?.get(node)?.schema
  }

  /** `def`: the `$defs` name it already has (a type that contains its own element). */
  add (context: object, node: object, schema: Schema, def: string | undefined): void {
    const schemas = this.schemas.get(context) ?? new Map()
    this.schemas.set(context, schemas)
    schemas.set(node, { schema, id: `made once ${this.count++}`, def })
  }

  /** A schema made before (made()), where it is used again. */
  use (context: object, node: object, local: string, top: boolean): Schema {
    const made = this.schemas.get(context)?.get(node) as { schema: Schema, id: string, def: string | undefined }
    if (top) return made.schema
    if (made.def === undefined) {
      made.def = this.named.name(made.id, local)
      this.named.defs.set(made.def, made.schema)
    }
    return { $ref: `#/$defs/${made.def}` }
  }
}

/**
 * The `$defs` of a contract, by name: each use of one is a `$ref`
 * (`#/$defs/<name>`; `<name>.nil` for a nillable use), and every schema that
 * reaches one carries it (withDefs()). Names are the types' local names,
 * numbered when taken.
 */
export class NamedSchemas {
  readonly defs = new Defs()
  /** The name given to each id (`{namespace}localName`, an element's anonymous type, a set of alternatives). */
  private readonly names = new Map<string, string>()
  private readonly taken = new Set<string>()

  known (id: string): string | undefined {
    return this.names.get(id)
  }

  name (id: string, local: string): string {
    let name = this.names.get(id)
    if (name === undefined) {
      name = local
      for (let n = 2; this.taken.has(name); n++) name = `${local}_${n}`
      this.names.set(id, name)
      this.taken.add(name)
    }
    return name
  }
}
