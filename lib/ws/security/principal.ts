/**
 * The principal: who an X.509 certificate says sent a request, once the
 * trust store has accepted it (docs/security.md "Trust and the principal"),
 * given to the handler as `request.soap.principal`.
 */
import type { X509Certificate } from 'node:crypto'
import type { SoapPrincipal } from '../../types'

declare module '../../service/context' {
  interface SoapContext {
    /**
     * The sender an X.509 certificate authenticated: the signer of the message, or the client of the TLS
     * connection (docs/security.md "Trust and the principal"); undefined otherwise.
     */
    principal: SoapPrincipal | undefined
  }
}

/** The principal of a certificate, as it came. */
export function principalOf (certificate: X509Certificate, from: SoapPrincipal['from']): SoapPrincipal {
  return Object.freeze({
    subject: certificate.subject,
    issuer: certificate.issuer,
    serialNumber: certificate.serialNumber,
    fingerprint256: certificate.fingerprint256,
    pem: certificate.toString(),
    from
  })
}
