/**
 * The namespace prefixes a writer declares: the schema's own `xml.prefix`
 * choices, and `tns`, `ns1`, `ns2`... for every other namespace its elements
 * (and the types `xsi:type` names) may be in.
 */
import { fail, isObject, typesOf, xmlOf, type ObjectShape, type Shape } from './shapes'

/** Every namespace an element of this shape tree may be in, with the prefix the schema asks for, if any. A shape that contains itself is walked once. */
function collectNamespaces (shape: Shape, into: Map<string, string | undefined>, schemaPrefixes: Map<string, string>, seen = new Set<Shape>()): void {
  if (shape.kind !== 'object' || seen.has(shape)) return
  seen.add(shape)
  for (const field of [...shape.elements, ...shape.attributes]) {
    if (field.namespace !== '') into.set(field.namespace, into.get(field.namespace) ?? schemaPrefixes.get(field.namespace))
    if (field.array && field.wrapped) into.set(field.itemNamespace, into.get(field.itemNamespace) ?? schemaPrefixes.get(field.itemNamespace))
    for (const type of typesOf(field)) {
      // xsi:type names a type by a prefix the writer declares.
      const xsiType = type.kind === 'object' ? type.xsiType : undefined
      if (xsiType !== undefined && xsiType.namespace !== '' && type !== field.alternatives?.declared) into.set(xsiType.namespace, into.get(xsiType.namespace) ?? schemaPrefixes.get(xsiType.namespace))
      collectNamespaces(type, into, schemaPrefixes, seen)
    }
  }
}

/** The `xml.prefix` values a schema tree asks for, by namespace. */
export function prefixesOf (schema: unknown, inherited: string, into: Map<string, string>, where: string): void {
  if (!isObject(schema)) return
  const xml = xmlOf(schema, where)
  const namespace = xml.namespace ?? inherited
  if (xml.prefix !== undefined) {
    const known = into.get(namespace)
    if (known !== undefined && known !== xml.prefix) fail(where, `namespace ${namespace} is given two prefixes, ${known} and ${xml.prefix}`)
    for (const [ns, p] of into) {
      if (p === xml.prefix && ns !== namespace) fail(where, `prefix ${xml.prefix} is given to two namespaces, ${ns} and ${namespace}`)
    }
    into.set(namespace, xml.prefix)
  }
  if (isObject(schema.properties)) {
    for (const [property, child] of Object.entries(schema.properties)) prefixesOf(child, namespace, into, `${where}/properties/${property}`)
  }
  if (isObject(schema.items)) prefixesOf(schema.items, namespace, into, `${where}/items`)
  if (Array.isArray(schema.oneOf)) schema.oneOf.forEach((branch, i) => { prefixesOf(branch, namespace, into, `${where}/oneOf/${i}`) })
  // Named schemas ask for their prefixes wherever they are used.
  const defs = isObject(schema.$defs) ? schema.$defs : isObject(schema.definitions) ? schema.definitions : {}
  for (const [name, def] of Object.entries(defs)) prefixesOf(def, namespace, into, `${where}/$defs/${name}`)
}

const TNS_PREFIX = 'tns'

/** Namespace prefixes for a writer: the schema's own `xml.prefix` choices, else tns, ns1, ns2... */
export function prefixesFor (shape: ObjectShape, root: string, schema: unknown, where: string): ReadonlyMap<string, string> {
  const asked = new Map<string, string>()
  prefixesOf(schema, root, asked, where)
  const found = new Map<string, string | undefined>(root === '' ? [] : [[root, asked.get(root)]])
  collectNamespaces(shape, found, asked)
  const taken = new Set(asked.values())
  const prefixes = new Map<string, string>()
  let n = 0
  for (const [namespace, prefix] of found) {
    let chosen = prefix
    if (chosen === undefined) {
      chosen = namespace === root && !taken.has(TNS_PREFIX) ? TNS_PREFIX : `ns${++n}`
      while (taken.has(chosen)) chosen = `ns${++n}`
    }
    taken.add(chosen)
    prefixes.set(namespace, chosen)
  }
  return prefixes
}
