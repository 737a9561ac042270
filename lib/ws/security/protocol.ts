/**
 * WS-Security as a protocol module (docs/security.md "WS-Security"): the
 * `security` key of a service, the `wsse:Security` header it understands,
 * the WS-SecurityPolicy assertions it states, its step after dispatch: the
 * check of the Security header, whose user it gives the handler as
 * `request.soap.username`, and of the client's certificate, as
 * `request.soap.principal`; and, with `x509.reply`, the signed reply.
 */
import type { SoapReplayStore } from '../../types'
import type { Exchange, Operation, Protocol, ProtocolModule, ProtocolSteps } from '../../service/protocol'
import { decodedSource } from '../../service/context'
import { readSigningView, type SigningElement } from '../../xml/c14n'
import { compileSecurity, type ServiceSecurity } from './declaration'
import { SECURITY_HEADER, verifySecurity } from './verify'
import { signedReply } from './reply'
import { clientPrincipal } from './client-certificate'

declare module '../../service/context' {
  interface SoapContext {
    /**
     * The user a WS-Security UsernameToken authenticated, once checked (docs/security.md "WS-Security");
     * undefined otherwise.
     */
    username: string | undefined
  }
}

class SecurityProtocol implements Protocol {
  readonly understood = [SECURITY_HEADER]
  readonly policies: readonly string[]
  readonly inputPolicies: readonly string[]
  readonly outputPolicies: readonly string[]
  readonly authenticates: boolean
  /** With `x509.reply`: each reply signed (docs/security.md "Signed replies"). */
  readonly writeReply: ProtocolSteps['writeReply']
  readonly #security: ServiceSecurity

  constructor (security: ServiceSecurity, operations: readonly string[]) {
    this.#security = security
    this.policies = security.assertions
    this.inputPolicies = security.inputAssertions
    this.outputPolicies = security.outputAssertions
    const signer = security.x509?.reply
    const { maxAge } = security.freshness
    this.writeReply = signer === undefined
      ? undefined
      : (_exchange, version, body, headers) => signedReply(signer, version, body, headers, Date.now(), maxAge)
    this.authenticates = operations.some((name) => !security.except.has(name))
  }

  async afterDispatch (exchange: Exchange, op: Operation): Promise<void> {
    if (this.#security.except.has(op.info.name)) return
    const { soap } = exchange
    const { clientCertificate } = this.#security
    const now = Date.now()
    if (clientCertificate !== undefined) {
      soap.principal = await clientPrincipal(clientCertificate, exchange, op.info.name, now)
    }
    // An MTOM request is verified over its XOP infoset; any other's xop:Include is an element like another.
    const view = (): SigningElement => readSigningView(decodedSource(soap), soap.mtom ? soap.parts : undefined)
    const { username, principal, replyHeader } = await verifySecurity(
      this.#security, { headers: soap.headers, operation: op.info.name, view }, now
    )
    soap.username = username
    if (principal !== undefined) soap.principal = principal
    if (replyHeader !== undefined) soap.responseHeaders.push(replyHeader)
  }
}

/**
 * WS-Security; a service with `security` and no `replay` of its own claims its nonces in `replay`, its
 * registration's.
 */
export function securityModule (replay: SoapReplayStore): ProtocolModule {
  return {
    key: 'security',
    compile (value, { name, operations }) {
      const security = compileSecurity(name, value, operations, replay)
      return security === undefined ? undefined : new SecurityProtocol(security, operations)
    }
  }
}
