/**
 * Signed replies (docs/security.md "Signed replies"): the reply envelope with
 * a wsse:Security header block of a Timestamp, the service's certificate as
 * a BinarySecurityToken and a ds:Signature over the Body and the Timestamp
 * (sign.ts), in that order (each token before its use: WS-SecurityPolicy's
 * Strict layout, so any layout).
 */
import { randomBytes } from 'node:crypto'
import { WSSE_NS, WSU_NS, type VersionInfo } from '../../namespaces'
import { readSigningView, type SigningElement } from '../../xml/c14n'
import { ENVELOPE_PREFIX as P } from '../../soap/writer'
import { signElements, type X509Signer } from './sign'
import { timestampElement } from './timestamp'

function lastElement (parent: SigningElement): SigningElement {
  const elements = parent.children.filter((child): child is SigningElement => typeof child !== 'string')
  return elements[elements.length - 1]
}

/**
 * The whole reply envelope around serialised Body content and header
 * blocks, signed by `signer`; its Timestamp from `now`, expiring after
 * `maxAge` milliseconds.
 */
export function signedReply (
  signer: X509Signer, version: VersionInfo, body: string, headers: string | undefined, now: number, maxAge: number
): string {
  const id = randomBytes(12).toString('hex')
  const bodyId = `Body-${id}`
  const timestampId = `TS-${id}`
  const head = `<?xml version="1.0" encoding="utf-8"?><${P}:Envelope xmlns:${P}="${version.envelope}">` +
    `<${P}:Header>${headers ?? ''}<wsse:Security xmlns:wsse="${WSSE_NS}" xmlns:wsu="${WSU_NS}" ` +
    `${P}:mustUnderstand="1">${timestampElement(now, maxAge, timestampId)}`
  const tail = `</wsse:Security></${P}:Header><${P}:Body xmlns:wsu="${WSU_NS}" wsu:Id="${bodyId}">${body}` +
    `</${P}:Body></${P}:Envelope>`
  // The Body and the Timestamp as the client will read them; the signature, put between, changes neither.
  const envelope = readSigningView(head + tail)
  // The Security block ends the Header, the Timestamp is its one child, the Body ends the Envelope.
  const security = lastElement(envelope.children[0] as SigningElement)
  const parts = [
    { element: lastElement(envelope), id: bodyId },
    { element: lastElement(security), id: timestampId }
  ]
  return head + signElements(parts, signer) + tail
}
