/**
 * The trust store of a service's X.509 certificates (docs/security.md
 * "Trust and the principal"): the certificates given in `trust`, found by
 * the references a message makes to them (WSS X.509 Token Profile 1.1 §3.2),
 * and the check of a certificate a message or a connection presents: its
 * chain to one of them, its validity, its key usage, then `lookup`.
 */
import { X509Certificate, createHash } from 'node:crypto'
import type { SoapPrincipal, SoapPrincipalLookup } from '../../types'
import { DIGITAL_SIGNATURE, KEY_CERT_SIGN, certificateFacts, parseName, type CertificateFacts } from './certificate'
import { trimXmlSpace } from '../../xml/chars'
import { securityFault } from './faults'
import { principalOf } from './principal'

export type CertificateReference =
  | { readonly kind: 'subjectKeyIdentifier', readonly value: Buffer }
  /** The SHA-1 of the certificate's DER. */
  | { readonly kind: 'thumbprint', readonly value: Buffer }
  /** As written in ds:X509IssuerName (RFC 4514) and ds:X509SerialNumber (decimal). */
  | { readonly kind: 'issuerSerial', readonly issuer: string, readonly serial: string }

export interface TrustStore {
  /** A trusted certificate a KeyIdentifier or X509IssuerSerial names; undefined when none. */
  find (reference: CertificateReference): X509Certificate | undefined
  /**
   * The principal of a certificate once it chains to a trusted one, is valid at `now` within the clock skew,
   * allows digitalSignature where key usage is present, and `lookup` (if any) says yes; otherwise throws
   * securityFault('FailedAuthentication'). A lookup that throws rejects with its error.
   */
  check (
    certificate: X509Certificate, now: number, operation: string, from: SoapPrincipal['from']
  ): Promise<SoapPrincipal>
}

/** The longest X509SerialNumber read, in digits (a serial has at most 20 bytes, RFC 5280 §4.1.2.2). */
const MAX_SERIAL = 64

interface Trusted {
  readonly certificate: X509Certificate
  readonly facts: CertificateFacts
  /** Whether it may have issued a certificate: CA:TRUE, and keyCertSign where key usage is present. */
  readonly issuer: boolean
  /** Its validity (notBefore, notAfter), in ms. */
  readonly from: number
  readonly to: number
}

/**
 * What the DER of the certificates checked says, by certificate: a partner's comes back as the same object
 * (key-info.ts keeps the last tokens' certificates), and is read once.
 */
const factsOf = new WeakMap<X509Certificate, CertificateFacts | undefined>()

function factsOfCertificate (certificate: X509Certificate): CertificateFacts | undefined {
  if (factsOf.has(certificate)) return factsOf.get(certificate)
  const facts = certificateFacts(certificate.raw)
  factsOf.set(certificate, facts)
  return facts
}

const PEM = /-----BEGIN ([A-Z0-9 ]+)-----([^-]*)-----END \1-----/g

/** The certificates of one PEM text. */
function certificatesIn (text: string, where: string, bad: (problem: string) => never): X509Certificate[] {
  const found: X509Certificate[] = []
  for (const [block, label] of text.matchAll(PEM)) {
    if (label !== 'CERTIFICATE') bad(`${where} holds a ${label}, not a CERTIFICATE`)
    try {
      found.push(new X509Certificate(block))
    } catch {
      bad(`${where} holds a CERTIFICATE that cannot be read`)
    }
  }
  if (found.length === 0) bad(`${where} holds no PEM certificate`)
  return found
}

/**
 * Whether node:crypto can decode a certificate's public key (an algorithm it knows); once decoded, the certificate
 * keeps it.
 */
function keyReadable (certificate: X509Certificate): boolean {
  try {
    return certificate.publicKey !== undefined
  } catch {
    return false
  }
}

/** Whether validity [from, to] holds at `now`, give or take `skew` (RFC 5280 §4.1.2.5). */
function validAt (from: number, to: number, now: number, skew: number): boolean {
  return from - skew <= now && now <= to + skew
}

/** Whether key usage allows `bit`: yes where the extension is absent (RFC 5280 §4.2.1.3). */
function allows (facts: CertificateFacts, bit: number): boolean {
  return facts.keyUsage === undefined || (facts.keyUsage & bit) !== 0
}

/** A decimal X509SerialNumber (xs:integer) in hexadecimal as hexOfSerial writes it; undefined when it is none. */
function serialHex (serial: string): string | undefined {
  const text = trimXmlSpace(serial)
  return /^[+-]?\d+$/.test(text) && text.length <= MAX_SERIAL ? BigInt(text).toString(16) : undefined
}

/** X509Certificate.serialNumber (OpenSSL's hexadecimal, a `-` before a negative one) in lower case, no leading 0. */
function hexOfSerial (serialNumber: string): string {
  return serialNumber.toLowerCase().replace(/^(-?)0+(?=.)/, '$1')
}

class Store implements TrustStore {
  readonly #trusted: readonly Trusted[]
  readonly #lookup: SoapPrincipalLookup | undefined
  readonly #skew: number
  readonly #byKeyIdentifier = new Map<string, X509Certificate>()
  readonly #byThumbprint = new Map<string, X509Certificate>()
  readonly #byIssuerSerial = new Map<string, X509Certificate>()

  constructor (trusted: readonly Trusted[], lookup: SoapPrincipalLookup | undefined, skew: number) {
    this.#trusted = trusted
    this.#lookup = lookup
    this.#skew = skew
    // The first of several certificates a reference names is the one found.
    for (const { certificate, facts } of [...trusted].reverse()) {
      this.#byKeyIdentifier.set(facts.subjectKeyIdentifier.toString('hex'), certificate)
      this.#byThumbprint.set(createHash('sha1').update(certificate.raw).digest('hex'), certificate)
      const key = JSON.stringify([facts.issuer, hexOfSerial(certificate.serialNumber)])
      this.#byIssuerSerial.set(key, certificate)
    }
  }

  find (reference: CertificateReference): X509Certificate | undefined {
    switch (reference.kind) {
      case 'subjectKeyIdentifier': return this.#byKeyIdentifier.get(reference.value.toString('hex'))
      case 'thumbprint': return this.#byThumbprint.get(reference.value.toString('hex'))
      case 'issuerSerial': {
        const issuer = parseName(reference.issuer)
        const serial = serialHex(reference.serial)
        if (issuer === undefined || serial === undefined) return undefined
        return this.#byIssuerSerial.get(JSON.stringify([issuer, serial]))
      }
    }
  }

  async check (
    certificate: X509Certificate, now: number, operation: string, from: SoapPrincipal['from']
  ): Promise<SoapPrincipal> {
    if (!this.#holds(certificate, now)) throw securityFault('FailedAuthentication')
    const principal = principalOf(certificate, from)
    if (this.#lookup !== undefined && await this.#lookup(principal, { operation }) !== true) {
      throw securityFault('FailedAuthentication')
    }
    return principal
  }

  /**
   * Whether a certificate holds at `now`: valid, allowing digitalSignature, and either trusted itself (pinned)
   * or issued by a trusted CA valid then too. Each trusted certificate is an anchor: intermediates come from
   * `trust` alone (none from the sender, none fetched), so a chain is one step long.
   */
  #holds (certificate: X509Certificate, now: number): boolean {
    const facts = factsOfCertificate(certificate)
    const skew = this.#skew
    if (facts === undefined || !allows(facts, DIGITAL_SIGNATURE) ||
      !validAt(Date.parse(certificate.validFrom), Date.parse(certificate.validTo), now, skew)) return false
    return this.#trusted.some((anchor) => anchor.certificate.raw.equals(certificate.raw)) ||
      this.#trusted.some(({ certificate: ca, issuer, from, to }) =>
        issuer && validAt(from, to, now, skew) && certificate.checkIssued(ca) && certificate.verify(ca.publicKey))
  }
}

/**
 * The trust store of `x509` (`.x509` or `.clientCertificate`, as `where` says): its `trust`, PEM text or
 * Buffer, one or several, each holding one certificate or several; its `lookup`. `bad` throws
 * SOAP_ERR_SERVICE_INVALID with the problem.
 */
export function compileTrust (
  bad: (problem: string) => never, x509: Record<string, unknown>, clockSkew: number, where = '.x509'
): TrustStore {
  const trust = x509.trust
  const given = Array.isArray(trust) ? trust as unknown[] : [trust]
  if (given.length === 0) bad(`${where}.trust is empty: give one PEM certificate or more`)
  const certificates = given.flatMap((item, index) => {
    const at = Array.isArray(trust) ? `${where}.trust[${index}]` : `${where}.trust`
    if (typeof item !== 'string' && !Buffer.isBuffer(item)) return bad(`${at} must be PEM text or a Buffer of it`)
    return certificatesIn(item.toString('latin1'), at, bad)
  })
  const lookup = x509.lookup
  if (lookup !== undefined && typeof lookup !== 'function') {
    bad(`${where}.lookup must be a function (principal, { operation }) => boolean`)
  }
  const unread = (what: string): never => bad(`${where}.trust holds a certificate whose ${what} cannot be read`)
  const trusted = certificates.map((certificate): Trusted => {
    const facts = certificateFacts(certificate.raw) ?? unread('DER')
    if (!keyReadable(certificate)) unread('key')
    return {
      certificate,
      facts,
      issuer: certificate.ca && allows(facts, KEY_CERT_SIGN),
      from: Date.parse(certificate.validFrom),
      to: Date.parse(certificate.validTo)
    }
  })
  return new Store(trusted, lookup as SoapPrincipalLookup | undefined, clockSkew)
}
