/**
 * The message addressing properties of a request, read from its header
 * blocks and checked (WS-Addressing 1.0 Core §3.2, SOAP Binding §2-§3, §6;
 * the 2004/08 submission §3-§5). Only blocks meant for this node count
 * (SOAP 1.2 Part 1 §2.6). Each problem is the fault of the version the
 * request used.
 */
import type { HeaderBlock } from '../../soap/headers'
import { WSA04_NS, WSA_NS, type SoapVersion } from '../../namespaces'
import type { SoapAddressing, SoapEndpointReference } from '../../types'
import { textContent, type XmlElement } from '../../xml/element'
import { trimXmlSpace } from '../../xml/chars'
import { addressingFault, type AddressingFaultOptions } from './faults'
import { replyUrl, type AddressingPolicy } from './options'

/** The anonymous address of each version: the reply goes back on the request's own connection. */
export const ANONYMOUS: Readonly<Record<string, string>> = {
  [WSA_NS]: `${WSA_NS}/anonymous`,
  [WSA04_NS]: `${WSA04_NS}/role/anonymous`
}
/** WS-Addressing 1.0's address whose messages are dropped (Core §2.1). */
export const NONE = `${WSA_NS}/none`

/** The reply relationship, when RelatesTo gives none (1.0 Core §3.2; 2004/08 §3.1 `wsa:Reply`). */
const REPLY: Readonly<Record<string, string>> = {
  [WSA_NS]: `${WSA_NS}/reply`,
  [WSA04_NS]: `${WSA04_NS}/Reply`
}

const PROPERTIES: ReadonlySet<string> = new Set([
  'To', 'Action', 'MessageID', 'RelatesTo', 'ReplyTo', 'FaultTo', 'From'
])
const EPRS: ReadonlySet<string> = new Set(['ReplyTo', 'FaultTo', 'From'])

/**
 * The header blocks of both versions this feature reads, as `{namespace}localName`: understood wherever
 * addressing is on.
 */
export const ADDRESSING_HEADERS: readonly string[] = [WSA_NS, WSA04_NS]
  .flatMap((ns) => [...PROPERTIES].map((name) => `{${ns}}${name}`))

export function isAnonymous (address: string): boolean {
  return address === ANONYMOUS[WSA_NS] || address === ANONYMOUS[WSA04_NS]
}

/** What a request's reply (or fault) needs beyond the properties: the endpoint it goes to. */
export interface ReadOptions {
  readonly version: SoapVersion
  /** The SOAP action of the transport: the 1.2 `action` parameter or SOAPAction; undefined when absent or empty. */
  readonly soapAction: string | undefined
  readonly policy: AddressingPolicy
}

class Problem {
  constructor (readonly namespace: string, readonly options: ReadOptions) {}

  fault (problem: Omit<AddressingFaultOptions, 'namespace' | 'version'>): never {
    throw addressingFault({ ...problem, namespace: this.namespace, version: this.options.version })
  }

  /** InvalidAddressingHeader naming `localName`, with a subsubcode (1.0). */
  invalid (localName: string, why: string, reason?: AddressingFaultOptions['reason']): never {
    return this.fault({ problem: 'invalid', reason, why, header: [this.namespace, localName] })
  }

  required (localName: string, why: string): never {
    return this.fault({ problem: 'required', why, header: [this.namespace, localName] })
  }
}

function childElements (element: XmlElement): XmlElement[] {
  return element.children.filter((c): c is XmlElement => typeof c !== 'string')
}

/** A property whose value is text: white space trimmed, no element inside, not empty. */
function textValue (problem: Problem, element: XmlElement): string {
  if (childElements(element).length > 0) {
    problem.invalid(
      element.localName,
      `wsa:${element.localName} holds an element; it holds an IRI`,
      element.localName === 'To' ? 'InvalidAddress' : undefined
    )
  }
  const value = trimXmlSpace(textContent(element))
  if (value === '') {
    problem.invalid(
      element.localName, `wsa:${element.localName} is empty`, element.localName === 'To' ? 'InvalidAddress' : undefined
    )
  }
  return value
}

/**
 * An endpoint reference: one Address, at most one ReferenceParameters (and ReferenceProperties in 2004/08)
 * and Metadata.
 */
function endpointReference (problem: Problem, element: XmlElement): SoapEndpointReference {
  const ns = problem.namespace
  const seen = new Set<string>()
  let address: string | undefined
  const referenceParameters: XmlElement[] = []
  for (const child of childElements(element)) {
    if (child.namespace !== ns) continue
    if (seen.has(child.localName)) {
      problem.invalid(element.localName, `wsa:${element.localName} holds wsa:${child.localName} twice`, 'InvalidEPR')
    }
    seen.add(child.localName)
    if (child.localName === 'Address') {
      if (childElements(child).length > 0) {
        problem.invalid(element.localName, `the wsa:Address of wsa:${element.localName} holds an element`, 'InvalidEPR')
      }
      address = trimXmlSpace(textContent(child))
      if (address === '') {
        problem.invalid(element.localName, `the wsa:Address of wsa:${element.localName} is empty`, 'InvalidEPR')
      }
    } else if (
      child.localName === 'ReferenceParameters' || (ns === WSA04_NS && child.localName === 'ReferenceProperties')
    ) {
      for (const parameter of childElements(child)) {
        // Each becomes a header block of the messages sent to the endpoint, and header blocks are
        // namespace-qualified (SOAP 1.2 Part 1 §5.2.1).
        if (parameter.namespace === '') {
          const why = `the reference parameter ${parameter.name} of wsa:${element.localName} has no namespace`
          problem.invalid(element.localName, why, 'InvalidEPR')
        }
        referenceParameters.push(parameter)
      }
    }
  }
  if (address === undefined) {
    problem.invalid(element.localName, `wsa:${element.localName} has no wsa:Address`, 'MissingAddressInEPR')
  }
  return { address: address as string, referenceParameters, element }
}

interface Found {
  to?: string
  action?: string
  messageId?: string
  relatesTo: Array<{ id: string, type: string }>
  replyTo?: SoapEndpointReference
  faultTo?: SoapEndpointReference
  from?: SoapEndpointReference
}

/**
 * The addressing properties of a request; undefined when it has none and
 * the policy does not require them. Throws the fault of the first problem.
 */
export function readAddressing (blocks: readonly HeaderBlock[], options: ReadOptions): SoapAddressing | undefined {
  let namespace: string | undefined
  const found: Found = { relatesTo: [] }
  const seen = new Set<string>()
  const referenceParameters: XmlElement[] = []
  for (const block of blocks) {
    if (!block.targeted) continue
    const element = block.element
    // 1.0 SOAP Binding §2.3: reference parameters are marked; they are no addressing property.
    if (element.attributes.some((a) => a.namespace === WSA_NS && a.localName === 'IsReferenceParameter' &&
      (trimXmlSpace(a.value) === 'true' || trimXmlSpace(a.value) === '1'))) {
      referenceParameters.push(element)
      continue
    }
    if ((block.namespace !== WSA_NS && block.namespace !== WSA04_NS) || !PROPERTIES.has(block.localName)) continue
    namespace ??= block.namespace
    const problem = new Problem(namespace, options)
    if (block.namespace !== namespace) {
      problem.invalid(block.localName, `the request mixes ${namespace} and ${block.namespace}`)
    }
    const name = block.localName
    if (name !== 'RelatesTo') {
      if (seen.has(name)) problem.invalid(name, `wsa:${name} appears more than once`, 'InvalidCardinality')
      seen.add(name)
    }
    if (EPRS.has(name)) {
      const property = name === 'ReplyTo' ? 'replyTo' : name === 'FaultTo' ? 'faultTo' : 'from'
      found[property] = endpointReference(problem, element)
    } else if (name === 'RelatesTo') {
      const type = element.attributes.find((a) => a.namespace === '' && a.localName === 'RelationshipType')
      found.relatesTo.push({
        id: textValue(problem, element), type: type === undefined ? REPLY[namespace] : trimXmlSpace(type.value)
      })
    } else {
      found[name === 'To' ? 'to' : name === 'Action' ? 'action' : 'messageId'] = textValue(problem, element)
    }
  }
  if (namespace === undefined) {
    if (options.policy.required) {
      new Problem(WSA_NS, options)
        .required('Action', 'this endpoint requires WS-Addressing, and the request has no wsa:Action')
    }
    return undefined
  }
  return check(new Problem(namespace, options), found, referenceParameters)
}

function check (problem: Problem, found: Found, referenceParameters: XmlElement[]): SoapAddressing {
  const { namespace, options } = problem
  const is10 = namespace === WSA_NS
  if (found.action === undefined) problem.required('Action', 'the request has WS-Addressing headers and no wsa:Action')
  const action = found.action as string
  // 2004/08 §3.1: To is required as well.
  if (!is10 && found.to === undefined) problem.required('To', 'the request has no wsa:To')
  // 1.0 SOAP Binding §4.2 (SOAP 1.1 SOAPAction) and §5.2 (SOAP 1.2 action): an action given twice must be the same one.
  if (options.soapAction !== undefined && options.soapAction !== action) {
    problem.invalid(
      'Action', `wsa:Action ${action} does not match the SOAP action ${options.soapAction}`, 'ActionMismatch'
    )
  }
  // A reply that cannot go back on this connection must say which request it answers.
  const away = (epr: SoapEndpointReference | undefined): boolean =>
    epr !== undefined && !isAnonymous(epr.address) && epr.address !== NONE
  if (
    found.messageId === undefined &&
    (is10 ? away(found.replyTo) || away(found.faultTo) : found.replyTo !== undefined || found.faultTo !== undefined)
  ) {
    problem.required(
      'MessageID',
      `a request with ${away(found.replyTo) ? 'wsa:ReplyTo' : 'wsa:FaultTo'} ` +
      'needs a wsa:MessageID for its reply\'s wsa:RelatesTo'
    )
  }
  for (const [name, epr] of [['ReplyTo', found.replyTo], ['FaultTo', found.faultTo]] as const) {
    if (!away(epr)) continue
    const address = (epr as SoapEndpointReference).address
    const async = options.policy.asyncReplies
    if (async === undefined) {
      problem.invalid(
        name,
        `this endpoint answers on the request's connection only, not at ${address}`,
        'OnlyAnonymousAddressSupported'
      )
    }
    if (replyUrl(async, address) === undefined) {
      problem.invalid(name, `this endpoint sends no reply to ${address}`, 'InvalidAddress')
    }
  }
  return {
    version: is10 ? '1.0' : '2004/08',
    namespace,
    to: found.to,
    action,
    messageId: found.messageId,
    relatesTo: found.relatesTo,
    replyTo: found.replyTo,
    faultTo: found.faultTo,
    from: found.from,
    referenceParameters
  }
}
