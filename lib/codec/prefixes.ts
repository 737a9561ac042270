/**
 * The namespace prefixes a writer declares: the schema's own `xml.prefix`
 * choices, and `tns`, `ns1`, `ns2`... for every other namespace its elements
 * (and the types `xsi:type` names) may be in. Both are read from the shape,
 * which records the choices as it is made (ObjectShape's `prefixes`): the
 * schema is not walked again.
 */
import { typesOf, type AskedPrefix, type ObjectShape, type Shape } from './shapes'
import { fail, xmlOf } from './xml-keyword'
import { isObject } from './keys'

/**
 * What a writer's shape tree holds: the namespaces its elements may be in (in the order met), the prefixes asked for.
 */
interface Found {
  readonly namespaces: Set<string>
  readonly asked: Map<string, string>
}

/** Takes a prefix the schema asks for, refusing a namespace given two, or one given to two namespaces. */
function ask (asked: Map<string, string>, { namespace, prefix, where }: AskedPrefix): void {
  const known = asked.get(namespace)
  if (known !== undefined && known !== prefix) {
    fail(where, `namespace ${namespace} is given two prefixes, ${known} and ${prefix}`)
  }
  for (const [ns, p] of asked) {
    if (p === prefix && ns !== namespace) {
      fail(where, `prefix ${prefix} is given to two namespaces, ${ns} and ${namespace}`)
    }
  }
  asked.set(namespace, prefix)
}

/**
 * Every namespace an element of this shape tree may be in, and the prefixes
 * its schemas ask for. A shape that contains itself is walked once.
 */
function collect (shape: Shape, into: Found, seen = new Set<Shape>()): void {
  if (shape.kind !== 'object' || seen.has(shape)) return
  seen.add(shape)
  for (const asked of shape.prefixes) ask(into.asked, asked)
  for (const field of [...shape.elements, ...shape.attributes]) {
    if (field.namespace !== '') into.namespaces.add(field.namespace)
    if (field.array && field.wrapped) into.namespaces.add(field.itemNamespace)
    for (const type of typesOf(field)) {
      // xsi:type names a type by a prefix the writer declares.
      const xsiType = type.kind === 'object' ? type.xsiType : undefined
      if (xsiType !== undefined && xsiType.namespace !== '' && type !== field.alternatives?.declared) {
        into.namespaces.add(xsiType.namespace)
      }
      collect(type, into, seen)
    }
  }
}

const TNS_PREFIX = 'tns'

/**
 * Namespace prefixes for a writer: the schema's own `xml.prefix` choices,
 * else tns, ns1, ns2... `schema` is the element's: its own `xml.prefix` is
 * the one choice its shape does not record.
 */
export function prefixesFor (
  shape: ObjectShape, root: string, schema: unknown, where: string
): ReadonlyMap<string, string> {
  const found: Found = { namespaces: new Set(root === '' ? [] : [root]), asked: new Map() }
  const own = isObject(schema) ? xmlOf(schema, where).prefix : undefined
  if (own !== undefined) ask(found.asked, { namespace: root, prefix: own, where })
  collect(shape, found)
  const taken = new Set(found.asked.values())
  const prefixes = new Map<string, string>()
  let n = 0
  for (const namespace of found.namespaces) {
    let chosen = found.asked.get(namespace)
    if (chosen === undefined) {
      chosen = namespace === root && !taken.has(TNS_PREFIX) ? TNS_PREFIX : `ns${++n}`
      while (taken.has(chosen)) chosen = `ns${++n}`
    }
    taken.add(chosen)
    prefixes.set(namespace, chosen)
  }
  return prefixes
}
