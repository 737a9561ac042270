/**
 * What a signature must cover, by place, not by name (docs/security.md
 * "X.509 signatures"): the Body at /Envelope/Body, the Timestamp of this
 * Security header, the header blocks `signed.headers` names by their
 * position among /Envelope/Header's children, the UsernameToken when asked.
 * And the Ids of the message: an Id a Reference names must be on exactly one
 * element, so that no wrapped copy can stand in for the part signed.
 */
import type { SoapHeaderBlock } from '../../soap/headers'
import type { SigningElement } from '../../xml/c14n'
import { securityFault } from './faults'
import { childElements } from './elements'
import { idsOf } from './signature-read'

/** The elements of `root`'s tree by each Id value they carry (wsu:Id, Id, ID), in document order. */
export function idIndex (root: SigningElement): Map<string, SigningElement[]> {
  const index = new Map<string, SigningElement[]>()
  const stack: SigningElement[] = [root]
  while (stack.length > 0) {
    const element = stack.pop() as SigningElement
    for (const id of idsOf(element)) {
      const list = index.get(id)
      if (list === undefined) index.set(id, [element]); else list.push(element)
    }
    for (let i = element.children.length - 1; i >= 0; i--) {
      const child = element.children[i]
      if (typeof child !== 'string') stack.push(child)
    }
  }
  return index
}

/** The Envelope's Header and Body in the view: the decoder checked that there are these and nothing else. */
export function envelopeParts (envelope: SigningElement): { header: SigningElement | undefined, body: SigningElement } {
  const children = childElements(envelope, 'InvalidSecurity')
  const body = children[children.length - 1]
  return { header: children.length === 2 ? children[0] : undefined, body }
}

/** Which header blocks must be signed: `{namespace}localName` keys, or namespaces alone. */
export type SignedHeaders = (block: SoapHeaderBlock) => boolean

/** The rule of `signed.headers`. */
export function signedHeaders (names: readonly string[]): SignedHeaders {
  const keys = new Set(names)
  return (block) => keys.has(block.key) || keys.has(block.namespace)
}

export interface Required {
  readonly body: SigningElement
  readonly timestamp: SigningElement
  /** The header blocks of the view `signed.headers` names. */
  readonly headers: readonly SigningElement[]
  readonly usernameToken: SigningElement | undefined
}

/** Each required part must be an element a verified Reference digested; one that is not is FailedCheck. */
export function checkCoverage (required: Required, covered: ReadonlySet<SigningElement>): void {
  const parts = [required.body, required.timestamp, ...required.headers]
  if (required.usernameToken !== undefined) parts.push(required.usernameToken)
  for (const part of parts) if (!covered.has(part)) throw securityFault('FailedCheck')
}
