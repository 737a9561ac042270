/**
 * The faults of WS-Security (WSS 1.1 SOAP Message Security §12): a Sender
 * fault whose SOAP 1.2 subcode, and SOAP 1.1 faultcode, is the wsse or wsu
 * QName, with the specification's own fault string and no detail: a client
 * learns which rule failed, never which user exists or what was expected.
 */
import { WSSE_NS, WSU_NS } from '../../namespaces'
import { SoapFault } from '../../soap/fault'

export type SecurityFaultName =
  | 'FailedAuthentication' | 'InvalidSecurity' | 'InvalidSecurityToken' | 'UnsupportedSecurityToken' | 'MessageExpired'
  | 'FailedCheck' | 'SecurityTokenUnavailable' | 'UnsupportedAlgorithm'

const REASONS: Record<SecurityFaultName, string> = {
  FailedAuthentication: 'The security token could not be authenticated or authorized',
  InvalidSecurity: 'An error was discovered processing the <wsse:Security> header',
  InvalidSecurityToken: 'An invalid security token was provided',
  UnsupportedSecurityToken: 'An unsupported token was provided',
  MessageExpired: 'The message has expired',
  FailedCheck: 'The signature or decryption was invalid',
  SecurityTokenUnavailable: 'Referenced security token could not be retrieved',
  UnsupportedAlgorithm: 'An unsupported signature or encryption algorithm was used'
}

/** The fault of a failed WS-Security check. */
export function securityFault (name: SecurityFaultName): SoapFault {
  const qname = { namespace: name === 'MessageExpired' ? WSU_NS : WSSE_NS, localName: name }
  return new SoapFault({ code: 'Sender', subcodes: [qname], code11: qname, reason: REASONS[name] })
}
