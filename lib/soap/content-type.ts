/**
 * Stage 1: the media type. Which SOAP version a request speaks, in which charset,
 * and with which action (docs/protocol.md "Versions"; BP R1012, R1115).
 */
import type { IncomingHttpHeaders } from 'node:http'
import { SOAP_ERR_CT_CHARSET, SOAP_ERR_CT_MEDIA_TYPE } from '../errors'
import { SOAP11, SOAP12, type VersionInfo } from '../namespaces'

export type Charset = 'utf-8' | 'utf-16' | 'utf-16le' | 'utf-16be'

export interface RequestMediaType {
  readonly version: VersionInfo
  /** The declared charset, or undefined when the body's own bytes decide (BOM, then UTF-8). */
  readonly charset: Charset | undefined
  /** The `action` parameter of `application/soap+xml`, if any. */
  readonly action: string | undefined
}

const CHARSETS: Record<string, Charset> = {
  __proto__: null as never,
  'utf-8': 'utf-8',
  utf8: 'utf-8',
  'utf-16': 'utf-16',
  utf16: 'utf-16',
  'utf-16le': 'utf-16le',
  'utf-16be': 'utf-16be'
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

/**
 * Parses `type/subtype *( OWS ";" OWS name=value )` (RFC 9110 §8.3.1), values as
 * tokens or quoted strings. Parameters that do not parse are ignored, as the
 * media type decides; a repeated parameter keeps its first value.
 */
export function parseContentType (header: string): { mediaType: string, params: Map<string, string> } {
  const semi = header.indexOf(';')
  const mediaType = (semi === -1 ? header : header.slice(0, semi)).trim().toLowerCase()
  const params = new Map<string, string>()
  let i = semi
  const n = header.length
  while (i !== -1 && i < n) {
    i++ // past ';'
    while (i < n && (header[i] === ' ' || header[i] === '\t')) i++
    const eq = header.indexOf('=', i)
    const nextSemi = header.indexOf(';', i)
    if (eq === -1 || (nextSemi !== -1 && nextSemi < eq)) {
      i = nextSemi
      continue
    }
    const name = header.slice(i, eq).trim().toLowerCase()
    let value: string
    i = eq + 1
    if (header[i] === '"') {
      let out = ''
      i++
      while (i < n && header[i] !== '"') {
        if (header[i] === '\\' && i + 1 < n) i++
        out += header[i]
        i++
      }
      value = out
      i = header.indexOf(';', i)
    } else {
      const end = header.indexOf(';', i)
      value = (end === -1 ? header.slice(i) : header.slice(i, end)).trim()
      i = end
    }
    if (TOKEN.test(name) && !params.has(name)) params.set(name, value)
  }
  return { mediaType, params }
}

export function versionOfMediaType (mediaType: string): VersionInfo | undefined {
  if (mediaType === SOAP12.mediaType) return SOAP12
  if (mediaType === SOAP11.mediaType) return SOAP11
  return undefined
}

/** How many Content-Type values a decoder remembers the answer for (DecoderMemory). */
export const MEDIA_TYPES = 64

/**
 * The Content-Types of a decoder's requests, read. Clients send the same few
 * values again and again: the answers are remembered, in a map emptied when
 * it reaches MEDIA_TYPES entries. Errors are not remembered.
 */
export class MediaTypes {
  readonly #known = new Map<string, RequestMediaType>()

  /** Reads the Content-Type of a SOAP request; throws the 415 errors. */
  read (header: string | undefined): RequestMediaType {
    const key = header ?? ''
    const known = this.#known
    let media = known.get(key)
    if (media === undefined) {
      media = requestMediaType(key)
      if (known.size >= MEDIA_TYPES) known.clear()
      known.set(key, media)
    }
    return media
  }
}

/** Reads the Content-Type of a SOAP request; throws the 415 errors. */
export function requestMediaType (header: string | undefined): RequestMediaType {
  const { mediaType, params } = parseContentType(header ?? '')
  return soapMediaType(mediaType, params.get('charset'), params.get('action'))
}

/**
 * A SOAP media type with its charset and action parameters: a request's, or the one an MTOM root part's
 * `type` parameter names (docs/protocol.md "MTOM/XOP"). Throws the 415 errors.
 */
export function soapMediaType (
  mediaType: string, label: string | undefined, action: string | undefined
): RequestMediaType {
  const version = versionOfMediaType(mediaType)
  if (version === undefined) throw new SOAP_ERR_CT_MEDIA_TYPE(JSON.stringify(mediaType))
  let charset: Charset | undefined
  if (label !== undefined) {
    charset = CHARSETS[label.toLowerCase()]
    if (charset === undefined) throw new SOAP_ERR_CT_CHARSET(JSON.stringify(label))
  }
  if (version !== SOAP12 || action === '') action = undefined
  return Object.freeze({ version, charset, action })
}

/**
 * The request's action: the `action` parameter (SOAP 1.2) or else the
 * `SOAPAction` header, quoted or not (SOAP 1.1 §6.1.1; sent with 1.2 by some
 * clients). An empty value means no action.
 */
export function requestAction (mediaAction: string | undefined, headers: IncomingHttpHeaders): string | undefined {
  if (mediaAction !== undefined) return mediaAction
  const raw = headers.soapaction
  if (typeof raw !== 'string') return undefined
  let value = raw.trim()
  if (value.length >= 2 && value[0] === '"' && value[value.length - 1] === '"') value = value.slice(1, -1)
  return value === '' ? undefined : value
}
