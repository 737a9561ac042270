/**
 * The public types of WS-Security (docs/security.md "WS-Security"), with no
 * runtime code; lib/types.ts gives them with the others.
 */

/**
 * What a UsernameToken's user is checked against: the password itself (for
 * `#PasswordText` and `#PasswordDigest`), or, for a store of password hashes,
 * a verifier of the password sent in `#PasswordText` (a digest cannot be
 * checked against a hash). `undefined` for an unknown user.
 */
export type SoapUserSecret = string | { readonly verify: (password: string) => boolean | Promise<boolean> }

/**
 * Where the Nonces seen are kept, so that a message is accepted once
 * (docs/security.md "Replay"). `claim` is atomic: the first claim of a key
 * within `ttlMs` resolves true, any other false. A rejection answers the
 * request with a Receiver fault. `signal` aborts when the plugin stops
 * waiting (after 2 s: the request got a Receiver fault, and its client may
 * send it again): a store that can answer that late must see to it that
 * this claim does not hold, undoing it once made (as redisReplayStore does),
 * or the resend is refused as a replay.
 */
export interface SoapReplayStore {
  claim (key: string, ttlMs: number, signal?: AbortSignal): Promise<boolean>
}

export interface SoapUsernameTokenOptions {
  /** The user's secret, by username; `undefined` (or null) for an unknown user. */
  readonly lookup: (username: string) => SoapUserSecret | undefined | null | Promise<SoapUserSecret | undefined | null>
  /** The password types accepted: `'text'`, `'digest'` or `'any'` (the default). */
  readonly password?: 'text' | 'digest' | 'any'
  /** When a Nonce and a Created must be sent: with a digest (the default), `'always'`, or `'never'`. */
  readonly requireNonce?: 'digest' | 'always' | 'never'
}

/** The `security` key of a service or contract (docs/security.md "WS-Security"). */
export interface SoapSecurityOptions {
  /**
   * Require the caller's X.509 certificate, from the TLS connection or a TLS-terminating proxy's header
   * (docs/security.md "Client certificates"); it gives `request.soap.principal`.
   */
  readonly clientCertificate?: SoapClientCertificateOptions
  /** Require a UsernameToken (WSS UsernameToken Profile 1.1). */
  readonly usernameToken?: SoapUsernameTokenOptions
  /** The wsu:Timestamp: `required` (default false; when sent it is always checked); `reply` adds one to each reply. */
  readonly timestamp?: { readonly required?: boolean, readonly reply?: boolean }
  /** How old a Created may be, in milliseconds; default 300,000 (5 minutes). */
  readonly maxAge?: number
  /** How far in the future a Created may be, and past an Expires, in milliseconds; default 60,000. */
  readonly clockSkew?: number
  /**
   * Where Nonces are claimed, once per store: by default the in-memory store
   * of the plugin's registration, shared by its services; `false` for none.
   */
  readonly replay?: SoapReplayStore | false
  /** Operations served without WS-Security (e.g. ONVIF's GetSystemDateAndTime): their Security header is not read. */
  readonly except?: readonly string[]
  /**
   * Require an XML Signature over the Body and the Timestamp by an X.509 certificate (WSS X.509 Token Profile
   * 1.1; docs/security.md "X.509 signatures"); a Timestamp is then required.
   */
  readonly x509?: SoapX509Options
}

/** Who signed a request, or the TLS client certificate it came with (docs/security.md "X.509 signatures"). */
export interface SoapPrincipal {
  /** The certificate's subject (X509Certificate.subject). */
  readonly subject: string
  /** The certificate's issuer (X509Certificate.issuer). */
  readonly issuer: string
  /** The certificate's serial number, in hex (X509Certificate.serialNumber). */
  readonly serialNumber: string
  /** The SHA-256 fingerprint of the certificate (X509Certificate.fingerprint256). */
  readonly fingerprint256: string
  /** The certificate, PEM. */
  readonly pem: string
  /** Where the certificate came from: a verified XML Signature, the TLS handshake, or a proxy's header. */
  readonly from: 'signature' | 'tls' | 'proxy'
}

/** A partner-specific decision once a certificate's chain holds; false refuses (FailedAuthentication). */
export type SoapPrincipalLookup = (
  principal: SoapPrincipal, context: { readonly operation: string }
) => boolean | Promise<boolean>

/** The `security.x509` key: XML Signatures by X.509 certificates (docs/security.md "X.509 signatures"). */
export interface SoapX509Options {
  /** PEM certificates trusted (CAs, or a partner's own certificate): text or Buffer, one or several. */
  readonly trust: string | Buffer | ReadonlyArray<string | Buffer>
  /** A partner-specific decision once the chain holds; false refuses (FailedAuthentication). */
  readonly lookup?: SoapPrincipalLookup
  /**
   * What must be signed besides the Body and the Timestamp (always required): header blocks by
   * `{namespace}localName`, or a namespace URI alone for every block of it present; and the UsernameToken.
   */
  readonly signed?: { readonly headers?: readonly string[], readonly usernameToken?: boolean }
  /** Accept RSA-SHA1 signatures and SHA-1 digests (legacy partners); default false: UnsupportedAlgorithm. */
  readonly allowSha1?: boolean
  /** Sign replies (Body and Timestamp) with this key and certificate (PEM); off when absent. */
  readonly reply?: { readonly key: string | Buffer, readonly certificate: string | Buffer }
}

/** The certificates a client certificate is checked against (docs/security.md "Trust and the principal"). */
export interface SoapClientTrust {
  /** PEM certificates trusted (CAs, or a partner's own certificate); by default those of `x509`. */
  readonly trust?: string | Buffer | ReadonlyArray<string | Buffer>
  /** A partner-specific decision once the chain holds; with `trust` only (else that of `x509`). */
  readonly lookup?: SoapPrincipalLookup
}

/**
 * Where the caller's certificate comes from (docs/security.md "Client certificates"): the TLS connection
 * (an HTTPS server with `requestCert`), or a header a TLS-terminating proxy sets, believed only from `proxies`.
 */
export type SoapClientCertificateOptions = SoapClientTrust & (
  | { readonly from: 'tls' }
  | { readonly from: 'header', readonly header: string, readonly proxies: readonly string[] }
)
