/**
 * The caller's X.509 certificate from outside the message (docs/security.md
 * "Client certificates"): the TLS connection's, or the one a TLS-terminating
 * proxy puts in a header, believed only when the connection comes from one
 * of the proxies named. Either is checked by the trust store as a signer's
 * is, and becomes the request's principal; none, or one that does not hold,
 * is FailedAuthentication.
 */
import { X509Certificate } from 'node:crypto'
import { isIP } from 'node:net'
import type { TLSSocket } from 'node:tls'
import type { SoapClientCertificateOptions, SoapPrincipal } from '../../types'
import { KnownKeys, type KeyRecord } from '../../codec/keys'
import type { Exchange } from '../../service/protocol'
import { securityFault } from './faults'
import { decodeBase64 } from './token'
import { compileTrust, type TrustStore } from './trust'
import { TokenCertificates } from './key-info'

export interface ClientCertificate {
  readonly trust: TrustStore
  /** The header to read, lower case; undefined for the TLS connection's certificate. */
  readonly header: string | undefined
  /** The proxies' addresses, normalised. */
  readonly proxies: ReadonlySet<string>
  /** The certificates of the header values read last, by value. */
  readonly certificates: TokenCertificates
}

const KEYS = new KnownKeys({
  from: true, header: true, proxies: true, trust: true, lookup: true
} as const satisfies KeyRecord<SoapClientCertificateOptions>)

/** RFC 9110 §5.1: a field name is a token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

/** An address as compared: lower case, an IPv4-mapped IPv6 address as its IPv4 one. */
function normalAddress (address: string): string {
  const lower = address.toLowerCase()
  return lower.startsWith('::ffff:') && isIP(lower.slice(7)) === 4 ? lower.slice(7) : lower
}

/**
 * The compiled `clientCertificate` of a service's security; its trust is its own `trust` and `lookup`, or,
 * without them, the trust store `x509` compiled (`x509Trust`).
 */
export function compileClientCertificate (
  bad: (problem: string) => never, value: Record<string, unknown>, x509Trust: TrustStore | undefined, clockSkew: number
): ClientCertificate {
  const problem = KEYS.problemIn(value, '.clientCertificate')
  if (problem !== undefined) bad(problem)
  let header: string | undefined
  let proxies: string[] = []
  if (value.from === 'header') {
    if (typeof value.header !== 'string' || !TOKEN.test(value.header)) {
      bad('.clientCertificate.header must be the name of the header the proxy sets')
    }
    header = (value.header as string).toLowerCase()
    const given = value.proxies
    if (!Array.isArray(given) || given.length === 0 || !given.every((a) => typeof a === 'string' && isIP(a) !== 0)) {
      return bad('.clientCertificate.proxies must list the IP addresses of the proxies the header is believed from')
    }
    proxies = given.map(normalAddress)
  } else if (value.from !== 'tls') {
    bad('.clientCertificate.from must be "tls" or "header"')
  } else if (value.header !== undefined || value.proxies !== undefined) {
    bad('.clientCertificate.header and .proxies go with from: "header"')
  }
  let trust: TrustStore
  if (value.trust !== undefined) trust = compileTrust(bad, value, clockSkew, '.clientCertificate')
  else if (value.lookup !== undefined) return bad('.clientCertificate.lookup goes with .clientCertificate.trust')
  else if (x509Trust !== undefined) trust = x509Trust
  else return bad('.clientCertificate needs the certificates it trusts: give .clientCertificate.trust or .x509.trust')
  return { trust, header, proxies: new Set(proxies), certificates: new TokenCertificates(headerCertificate) }
}

/**
 * A certificate as a proxy's header carries it: PEM, URL-encoded (nginx's `$ssl_client_escaped_cert`) or
 * not, its lines joined by spaces or not; or its DER in Base64 (HAProxy's `ssl_c_der,base64`). Undefined
 * when it is none of these.
 */
export function headerCertificate (value: string): X509Certificate | undefined {
  let text = value.trim()
  try {
    if (text.includes('%')) text = decodeURIComponent(text)
    const pem = /^-----BEGIN CERTIFICATE-----([^-]*)-----END CERTIFICATE-----$/.exec(text.trim())
    const der = decodeBase64((pem === null ? text : pem[1]).replace(/\s+/g, ''))
    return der === undefined ? undefined : new X509Certificate(der)
  } catch {
    return undefined
  }
}

/** The certificate the request's connection, or its proxy, presents; undefined when none is believed. */
function presented (client: ClientCertificate, exchange: Exchange): X509Certificate | undefined {
  const { raw } = exchange.request
  if (client.header === undefined) return (raw.socket as Partial<TLSSocket>).getPeerX509Certificate?.()
  const address = raw.socket.remoteAddress
  // A header from any other address is never read: anyone can send one.
  if (address === undefined || !client.proxies.has(normalAddress(address))) return undefined
  const value = raw.headers[client.header]
  return typeof value === 'string' ? client.certificates.of(value) : undefined
}

/** The principal of the request's client certificate; FailedAuthentication when there is none that holds. */
export async function clientPrincipal (
  client: ClientCertificate, exchange: Exchange, operation: string, now: number
): Promise<SoapPrincipal> {
  const certificate = presented(client, exchange)
  if (certificate === undefined) throw securityFault('FailedAuthentication')
  return await client.trust.check(certificate, now, operation, client.header === undefined ? 'tls' : 'proxy')
}
