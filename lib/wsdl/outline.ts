/**
 * The service page, part 1: a message described for people, as the rows of
 * a tree (docs/service-page.md "The page"): each element and attribute with
 * its type, its occurrences, its enumeration and its documentation, from
 * the same shapes and schemas the codec reads and the WSDL is written from.
 */
import type { Field, ObjectShape, ScalarShape, Shape } from '../codec/shapes'

type Schema = Readonly<Record<string, unknown>>

export interface OutlineRow {
  /** 0 for the message's top-level children. */
  readonly depth: number
  /** The local name; an attribute's begins with `@`. */
  readonly name: string
  readonly namespace: string
  readonly type: string
  /** `1`, `0..1`, `0..*`, `1..100`... */
  readonly occurs: string
  readonly values: readonly string[]
  /** Documentation and what else a reader needs: nillable, an xs:list, a type met again. */
  readonly notes: readonly string[]
}

/** Rows written for one message at most: a larger one ends with a row that says how to see the rest. */
export const MAX_ROWS = 100

const SCALAR_TYPES: Readonly<Record<ScalarShape['type'], string>> = {
  string: 'string', integer: 'integer', number: 'decimal', boolean: 'boolean'
}

/** The name a `$ref` gives (`#/$defs/Name`), or undefined. */
function refName (schema: Schema): string | undefined {
  return typeof schema.$ref === 'string' ? schema.$ref.slice(schema.$ref.lastIndexOf('/') + 1) : undefined
}

function objectOf (value: unknown): Schema {
  return typeof value === 'object' && value !== null ? value as Schema : {}
}

class Outline {
  readonly rows: OutlineRow[] = []
  private cut = 0
  /** The object shapes being described, from the message down: one met again is a recursion, not expanded. */
  private readonly path = new Set<ObjectShape>()

  constructor (private readonly defs: Readonly<Record<string, Schema>>) {}

  /** A schema with its `$ref` followed (once: `$defs` hold no bare aliases the codec reads). */
  private resolve (schema: Schema): Schema {
    const ref = refName(schema)
    return ref === undefined ? schema : objectOf(this.defs[ref])
  }

  private add (row: OutlineRow): boolean {
    if (this.rows.length >= MAX_ROWS) {
      this.cut++
      return false
    }
    this.rows.push(row)
    return true
  }

  /** The scalar type's name: a format or an encoding says more than the JSON type. */
  private typeName (shape: Shape, schema: Schema): string {
    const ref = refName(schema)
    const own = this.resolve(schema)
    if (shape.kind === 'object') return ref ?? (shape.text === undefined ? 'complex' : 'complex, simple content')
    if (typeof own.format === 'string') return `${SCALAR_TYPES[shape.type]} (${own.format})`
    if (typeof own.contentEncoding === 'string') return `binary (${own.contentEncoding})`
    return ref ?? SCALAR_TYPES[shape.type]
  }

  object (shape: ObjectShape, schema: Schema, depth: number): void {
    const content = this.resolve(schema)
    const properties = objectOf(content.properties)
    const required = new Set(Array.isArray(content.required) ? content.required as string[] : [])
    this.path.add(shape)
    const field = (f: Field): void => this.field(f, objectOf(properties[f.property]), required.has(f.property), depth)
    for (const attribute of shape.attributes) field(attribute)
    if (shape.text !== undefined) {
      const own = objectOf(properties[shape.text.property])
      const type = this.typeName(shape.text.shape, own)
      const values = enumeration(this.resolve(own))
      this.add({ depth, name: '(text)', namespace: '', type, occurs: '1', values, notes: notes(own, shape.text.shape) })
    }
    for (const element of shape.elements) field(element)
    if (shape.any !== undefined) {
      this.add({ depth, name: '(any element)', namespace: '', type: 'any', occurs: '0..*', values: [], notes: [] })
    }
    this.path.delete(shape)
  }

  private field (field: Field, schema: Schema, required: boolean, depth: number): void {
    const array = field.array && !field.list
    const own = array ? objectOf(this.resolve(schema).items) : schema
    const least = String(this.resolve(schema).minItems ?? 0)
    const most = String(this.resolve(schema).maxItems ?? '*')
    const occurs = array && !field.wrapped ? `${least}..${most}` : required ? '1' : '0..1'
    const type = field.list
      ? `list of ${this.typeName(field.shape, objectOf(this.resolve(own).items))}`
      : this.typeName(field.shape, own)
    const name = field.attribute ? `@${field.name}` : field.name
    const alternatives = field.alternatives
    const declared = alternatives?.declared.xsiType?.name
    const others = alternatives === undefined ? [] : [...alternatives.byTag.keys()].filter((tag) => tag !== declared)
    const extra = alternatives === undefined ? [] : [`or xsi:type ${others.join(', ')}`]
    if (field.wrapped) {
      const said = notes(schema, field.shape, false)
      const wrapper = { depth, name, namespace: field.namespace, type: 'wrapper', occurs, values: [], notes: said }
      if (!this.add(wrapper)) return
      this.element(field.itemName, field.itemNamespace, type, `${least}..${most}`, own, field.shape, depth + 1, extra)
      return
    }
    this.element(name, field.namespace, type, occurs, own, field.shape, depth, extra)
  }

  private element (
    name: string, namespace: string, type: string, occurs: string,
    schema: Schema, shape: Shape, depth: number, extra: string[]
  ): void {
    const recursive = shape.kind === 'object' && this.path.has(shape)
    const said = [...notes(schema, shape), ...extra, ...(recursive ? ['contains itself: see above'] : [])]
    const row = { depth, name, namespace, type, occurs, values: enumeration(this.resolve(schema)), notes: said }
    if (!this.add(row) || shape.kind !== 'object' || recursive) return
    this.object(shape, schema, depth + 1)
  }

  /** The rows, ending with one that says how many were left out. */
  done (): OutlineRow[] {
    const note = `${this.cut} more rows: the WSDL states them all`
    const last = { depth: 0, name: '…', namespace: '', type: '', occurs: '', values: [], notes: [note] }
    if (this.cut > 0) this.rows.push(last)
    return this.rows
  }
}

function enumeration (schema: Schema): string[] {
  const values = Array.isArray(schema.enum) ? schema.enum : Object.hasOwn(schema, 'const') ? [schema.const] : []
  return values.filter((v) => v !== null).map(String)
}

function notes (schema: Schema, shape: Shape, nillable = shape.nullable): string[] {
  const out: string[] = []
  const text = typeof schema.description === 'string' ? schema.description : schema.title
  if (typeof text === 'string') out.push(text)
  if (nillable) out.push('nillable')
  return out
}

/** The rows of a message: an element's content (an input, an output, a fault's detail), or header blocks. */
export function outline (shape: ObjectShape, schema: Schema): OutlineRow[] {
  const defs = objectOf(schema.$defs ?? schema.definitions) as Record<string, Schema>
  const tree = new Outline(defs)
  tree.object(shape, schema, 0)
  return tree.done()
}
