/**
 * The service page, part 4: when a GET is for it, and how it is answered
 * (docs/service-page.md). The page is built on its first request, then kept
 * (one string a service, for the life of the server); its script and style
 * sheet are constants.
 */
import type { FastifyReply } from 'fastify'
import type { OperationDescription, ServiceDescription } from '../service/description'
import { compileElement } from '../codec/write'
import { compileBlocks } from '../codec/blocks'
import { prefixesFor } from '../codec/prefixes'
import { usesXsi } from '../codec/shapes'
import { sampleValue } from '../codec/sample'
import { SOAP11_ENV, SOAP12_ENV, type SoapVersion } from '../namespaces'
import { escapeAttribute } from '../xml/escape'
import { documentationOf, NO_DOCUMENTATION } from './documentation'
import { renderPage } from './page'
import { PAGE_SCRIPT, PAGE_STYLE } from './page-assets'

/** The page, rendered. */
export type ServicePage = string

/**
 * The page's policy: its own script and style sheet, requests to its own
 * origin (the "try it" form), nothing inline, nothing framed, no form posted
 * elsewhere.
 */
export const PAGE_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; " +
  "img-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

/**
 * Whether an `Accept` header lists `text/html` (RFC 9110 §12.5.1) with a
 * weight above 0: what a browser sends when it opens a URL, and no SOAP
 * client or WSDL reader does.
 */
export function acceptsHtml (accept: string | undefined): boolean {
  if (accept === undefined) return false
  return accept.split(',').some((range) => {
    const [type, ...parameters] = range.split(';')
    if (type.trim().toLowerCase() !== 'text/html') return false
    const q = parameters.map((p) => p.split('=')).find(([name]) => name.trim().toLowerCase() === 'q')
    return q === undefined || Number(q[1]) > 0
  })
}

interface Asset { readonly type: string, readonly body: string }

const ASSETS: Readonly<Record<string, Asset>> = {
  'page.js': { type: 'text/javascript; charset=utf-8', body: PAGE_SCRIPT },
  'page.css': { type: 'text/css; charset=utf-8', body: PAGE_STYLE }
}

/** `?page.js` or `?page.css`, alone in the query: the resource; otherwise undefined. */
export function pageAsset (query: Readonly<Record<string, unknown>>): Asset | undefined {
  const keys = Object.keys(query)
  return keys.length === 1 && Object.hasOwn(ASSETS, keys[0]) ? ASSETS[keys[0]] : undefined
}

const ENVELOPES: Readonly<Record<SoapVersion, string>> = { 1.1: SOAP11_ENV, 1.2: SOAP12_ENV }

/**
 * Indents a written message for reading: a line break goes only between
 * two tags with nothing between them, where an element has element content,
 * so that no text a value holds is changed.
 */
export function indent (xml: string): string {
  let depth = 0
  let out = ''
  let previous: 'open' | 'close' | 'text' | undefined
  for (const token of xml.match(/<[^>]*>|[^<]+/g) ?? []) {
    const kind = !token.startsWith('<')
      ? 'text'
      : token.startsWith('</') ? 'close' : token.endsWith('/>') ? 'empty' : 'open'
    if (kind === 'close') {
      depth--
      if (previous === 'close') out += `\n${'  '.repeat(depth)}`
    } else if (kind !== 'text' && previous !== undefined && previous !== 'text') {
      out += `\n${'  '.repeat(depth)}`
    }
    out += token
    if (kind === 'open') depth++
    previous = kind === 'empty' ? 'close' : kind
  }
  return out
}

/**
 * Sample values of a message, the same on every page: a rich one (optional
 * content too, to edit or delete), or the minimal one (required content)
 * when the rich one is written in more than MAX_RICH characters.
 */
function sampleOf (schema: Readonly<Record<string, unknown>>, write: (value: unknown) => string): string {
  const rich = write(sampleValue(schema, { rich: true, seed: 1 }))
  return rich.length <= MAX_RICH ? rich : write(sampleValue(schema, { seed: 1 }))
}

/** Characters of a message's rich sample, at most: past it, a reader is better served by the required content alone. */
export const MAX_RICH = 8192

/** An operation's sample request, per version: its header blocks and its Body element, written from sample values. */
function sampler (service: string): (op: OperationDescription, version: SoapVersion) => string {
  const written = new Map<OperationDescription, { readonly header: string, readonly body: string }>()
  const write = (op: OperationDescription): { readonly header: string, readonly body: string } => {
    const { input, headers } = op
    const where = `${service}.${op.name}`
    const body = input === undefined
      ? ''
      : sampleOf(input.schema, compileElement(input.shape, input.name, input.namespace,
        prefixesFor(input.shape, input.namespace, input.schema, where), usesXsi(input.shape)))
    const header = headers === undefined
      ? ''
      : sampleOf(headers.schema, compileBlocks(headers.shape, headers.schema, `${where}.headers`))
    return { header, body }
  }
  return (op, version) => {
    let sample = written.get(op)
    if (sample === undefined) {
      sample = write(op)
      written.set(op, sample)
    }
    const header = sample.header === '' ? '' : `<soap:Header>${sample.header}</soap:Header>`
    const start = `<soap:Envelope xmlns:soap="${escapeAttribute(ENVELOPES[version])}">`
    return indent(`${start}${header}<soap:Body>${sample.body}</soap:Body></soap:Envelope>`)
  }
}

/** The page of a service; `wsdl` is a hand-written or contract's WSDL, whose documentation it shows. */
export function buildPage (
  service: ServiceDescription, wsdl: string | undefined, schemas: readonly string[]
): ServicePage {
  return renderPage({
    service,
    documentation: wsdl === undefined ? NO_DOCUMENTATION : documentationOf(wsdl),
    schemas,
    sample: sampler(service.name)
  })
}

export function sendPage (reply: FastifyReply, page: ServicePage): FastifyReply {
  return reply
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', PAGE_POLICY)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('vary', 'accept')
    .send(page)
}
