/**
 * The addressing headers of a reply or a fault (WS-Addressing 1.0 Core §3.4,
 * SOAP Binding §2.3; the 2004/08 submission §3.2-§3.3): its action, a fresh
 * MessageID, RelatesTo the request's MessageID, To when the reply goes
 * elsewhere than back on the connection, and the reference parameters of the
 * endpoint it goes to, each a header block of its own.
 */
import { randomUUID } from 'node:crypto'
import { WSA_NS } from '../../namespaces'
import type { SoapAddressing, SoapEndpointReference } from '../../types'
import { escapeXml } from '../../xml/escape'
import { writeElement, type SetAttribute } from '../../xml/write'
import { ANONYMOUS, isAnonymous } from './read'

const REFERENCE_PARAMETER: SetAttribute = {
  namespace: WSA_NS,
  localName: 'IsReferenceParameter',
  value: 'true',
  prefix: 'wsa-rp'
}

/**
 * The endpoint a reply (or, with `fault`, a fault) goes to: FaultTo for a fault when given, else ReplyTo;
 * undefined when neither is given.
 */
export function replyEndpoint (addressing: SoapAddressing, fault: boolean): SoapEndpointReference | undefined {
  return (fault ? addressing.faultTo : undefined) ?? addressing.replyTo
}

/** A fresh `wsa:MessageID`. */
export function newMessageId (): string {
  return `urn:uuid:${randomUUID()}`
}

/**
 * The header blocks of a message answering `addressing`'s request with
 * `action`, sent to `epr` (undefined: back on the request's connection), its
 * MessageID `messageId`.
 */
export function replyHeaders (
  addressing: SoapAddressing,
  action: string,
  epr: SoapEndpointReference | undefined,
  messageId = newMessageId()
): string {
  const ns = addressing.namespace
  const block = (name: string, value: string): string =>
    `<wsa:${name} xmlns:wsa="${ns}">${escapeXml(value)}</wsa:${name}>`
  let out = block('Action', action) + block('MessageID', messageId)
  if (addressing.messageId !== undefined) out += block('RelatesTo', addressing.messageId)
  // 1.0: To is the anonymous address when absent; 2004/08 requires it in every message.
  if (epr !== undefined && !isAnonymous(epr.address)) out += block('To', epr.address)
  else if (ns !== WSA_NS) out += block('To', ANONYMOUS[ns])
  // 1.0 SOAP Binding §2.3: each is marked, once, under a prefix that is free on it (or already WS-Addressing's).
  const marker = ns === WSA_NS ? REFERENCE_PARAMETER : undefined
  for (const parameter of epr?.referenceParameters ?? []) out += writeElement(parameter, marker)
  return out
}
