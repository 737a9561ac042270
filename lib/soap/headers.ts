/**
 * Stage 3: header blocks. Reads each block's mustUnderstand, role (1.2) or
 * actor (1.1) and relay attributes, checks their values, and finds the blocks
 * this node must understand but does not (docs/protocol.md "Faults"; SOAP 1.2
 * Part 1 §2.6, §5.2; SOAP 1.1 §4.2).
 */
import {
  qnameKey, SOAP11_ACTOR_NEXT, SOAP12_ROLE_NEXT, SOAP12_ROLE_NONE, SOAP12_ROLE_ULTIMATE, type SoapVersion
} from '../namespaces'
import { elementAt, type XmlTree } from '../xml/tree'
import type { XmlElement } from '../xml/element'
import { trimXmlSpace } from '../xml/chars'

export interface SoapHeaderBlock {
  readonly namespace: string
  readonly localName: string
  /** `{namespace}localName`, the key of `request.soap.headersByName`. */
  readonly key: string
  readonly mustUnderstand: boolean
  /** The `role` (1.2) or `actor` (1.1) attribute as sent; undefined means the ultimate receiver. */
  readonly role: string | undefined
  /** The SOAP 1.2 `relay` attribute; always false in SOAP 1.1. */
  readonly relay: boolean
  /** Whether this node plays the block's role, so that the block is meant for it. */
  readonly targeted: boolean
  readonly element: XmlElement
}

/** A header block as the decoder keeps it: with its node in the decoded tree, for the codec. */
export interface HeaderBlock extends SoapHeaderBlock {
  readonly node: number
}

export interface ProcessedHeaders {
  readonly blocks: HeaderBlock[]
  /** The first problem that earns a Sender (1.1: Client) fault. */
  readonly senderFault: string | undefined
}

const BOOLEAN_12: Record<string, boolean> = { __proto__: null as never, 0: false, 1: true, false: false, true: true }
const BOOLEAN_11: Record<string, boolean> = { __proto__: null as never, 0: false, 1: true }

/** The header blocks at `nodes` of `tree`, each made an `XmlElement` and read. */
export function processHeaders (
  tree: XmlTree,
  nodes: readonly number[],
  version: SoapVersion,
  envelope: string,
  roles: ReadonlySet<string>
): ProcessedHeaders {
  const is12 = version === '1.2'
  const booleans = is12 ? BOOLEAN_12 : BOOLEAN_11
  const roleName = is12 ? 'role' : 'actor'
  let senderFault: string | undefined
  const blocks: HeaderBlock[] = new Array(nodes.length)
  for (let i = 0; i < nodes.length; i++) {
    const element = elementAt(tree, nodes[i])
    let mustUnderstand = false
    let relay = false
    let role: string | undefined
    for (const a of element.attributes) {
      if (a.namespace !== envelope) continue
      if (a.localName === 'mustUnderstand' || (is12 && a.localName === 'relay')) {
        const value = booleans[trimXmlSpace(a.value)]
        if (value === undefined) {
          senderFault ??= `invalid ${a.localName} value "${a.value}" on header block ${element.name}`
        } else if (a.localName === 'relay') {
          relay = value
        } else {
          mustUnderstand = value
        }
      } else if (a.localName === roleName) {
        role = trimXmlSpace(a.value)
      }
    }
    if (element.namespace === '') senderFault ??= `header block ${element.name} is not namespace-qualified`
    const targeted = is12
      ? role === undefined || role === '' || role === SOAP12_ROLE_ULTIMATE || role === SOAP12_ROLE_NEXT ||
        (role !== SOAP12_ROLE_NONE && roles.has(role))
      : role === undefined || role === '' || role === SOAP11_ACTOR_NEXT || roles.has(role)
    blocks[i] = {
      namespace: element.namespace,
      localName: element.localName,
      key: qnameKey(element.namespace, element.localName),
      mustUnderstand,
      role,
      relay,
      targeted,
      element,
      node: nodes[i]
    }
  }
  return { blocks, senderFault }
}

/** Blocks meant for this node, marked mustUnderstand, that nothing registered understands. */
export function notUnderstood (blocks: readonly SoapHeaderBlock[], understood: ReadonlySet<string>): SoapHeaderBlock[] {
  const missing: SoapHeaderBlock[] = []
  for (const block of blocks) {
    if (block.mustUnderstand && block.targeted && !understood.has(block.key)) missing.push(block)
  }
  return missing
}
