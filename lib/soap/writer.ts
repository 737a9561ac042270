/**
 * Stage 7a: the response envelope in the request's version (docs/protocol.md "Versions").
 */
import { SOAP11_ENV, SOAP12_ENV, type VersionInfo } from '../namespaces'
import { recordPieces, takePieces } from '../xml/pieces'

const PREFIX = 'soap'

const TAIL = `</${PREFIX}:Body></${PREFIX}:Envelope>`

/**
 * Writes a whole envelope around already serialised Header and Body content. A Body recorded with its pieces
 * (a long element the codec wrote: xml/pieces.ts) makes an envelope recorded with them.
 */
export function writeEnvelope (version: VersionInfo, body: string, header?: string): string {
  const head = header === undefined || header === ''
    ? ''
    : `<${PREFIX}:Header>${header}</${PREFIX}:Header>`
  const start = `<?xml version="1.0" encoding="utf-8"?><${PREFIX}:Envelope xmlns:${PREFIX}="${version.envelope}">` +
    `${head}<${PREFIX}:Body>`
  const envelope = start + body + TAIL
  const pieces = takePieces(body)
  if (pieces !== undefined) recordPieces(envelope, [start, ...pieces, TAIL])
  return envelope
}

/** The prefix the envelope writer binds to the envelope namespace, for content that names env QNames. */
export const ENVELOPE_PREFIX = PREFIX

/** The SOAP 1.2 Upgrade header block (Part 1 §5.4.7) naming both envelopes this server speaks, 1.2 first. */
export const UPGRADE_BLOCK =
  `<upg:Upgrade xmlns:upg="${SOAP12_ENV}">` +
  `<upg:SupportedEnvelope qname="e12:Envelope" xmlns:e12="${SOAP12_ENV}"/>` +
  `<upg:SupportedEnvelope qname="e11:Envelope" xmlns:e11="${SOAP11_ENV}"/>` +
  '</upg:Upgrade>'
