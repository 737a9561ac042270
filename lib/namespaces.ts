/**
 * Namespace URIs the plugin speaks, each written once, the version table of docs/protocol.md "Versions", and
 * the placeholder of an endpoint's address in the documents it serves.
 */

export type SoapVersion = '1.1' | '1.2'

export const SOAP11_ENV = 'http://schemas.xmlsoap.org/soap/envelope/'
export const SOAP12_ENV = 'http://www.w3.org/2003/05/soap-envelope'
export const XML_NS = 'http://www.w3.org/XML/1998/namespace'
export const XMLNS_NS = 'http://www.w3.org/2000/xmlns/'
export const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance'
export const XSD_NS = 'http://www.w3.org/2001/XMLSchema'
/** XOP 1.0's xop:Include (docs/protocol.md "MTOM/XOP"). */
export const XOP_NS = 'http://www.w3.org/2004/08/xop/include'
/** XML Media Types' `xmime:expectedContentTypes` and `xmime:contentType` (docs/binary.md "MTOM"). */
export const XMIME_NS = 'http://www.w3.org/2005/05/xmlmime'
/**
 * MTOM's policy assertion: `wsoma:OptimizedMimeSerialization` of the 2004/09
 * submission, which WCF, JAX-WS and CXF write and read; and `wsoma:MTOM` of
 * W3C WS-MTOMPolicy 1.0, which the plugin reads (docs/wsdl.md "MTOM").
 */
export const WSOMA_NS = 'http://schemas.xmlsoap.org/ws/2004/09/policy/optimizedmimeserialization'
export const WSOMA_W3C_NS = 'http://www.w3.org/2007/08/soap12-mtom-policy'
export const WSDL_NS = 'http://schemas.xmlsoap.org/wsdl/'
/** The WSDL 1.1 SOAP 1.1 and SOAP 1.2 binding extensions. */
export const WSDL_SOAP11_NS = 'http://schemas.xmlsoap.org/wsdl/soap/'
export const WSDL_SOAP12_NS = 'http://schemas.xmlsoap.org/wsdl/soap12/'
/** The SOAP over HTTP transport of a WSDL SOAP binding. */
export const SOAP_HTTP_TRANSPORT = 'http://schemas.xmlsoap.org/soap/http'
/** SOAP 1.1 and SOAP 1.2 encoding: what a literal-only server refuses. */
export const SOAP_ENCODING_NAMESPACES: ReadonlySet<string> = new Set([
  'http://schemas.xmlsoap.org/soap/encoding/',
  'http://www.w3.org/2003/05/soap-encoding'
])
/** WS-Addressing 1.0 (W3C Recommendation 2006) and the 2004/08 member submission before it. */
export const WSA_NS = 'http://www.w3.org/2005/08/addressing'
export const WSA04_NS = 'http://schemas.xmlsoap.org/ws/2004/08/addressing'
/**
 * WS-Addressing in a WSDL: the 1.0 Metadata Recommendation (2007) and the WSDL Binding candidate (2006)
 * WCF and OCPP still write.
 */
export const WSAM_NS = 'http://www.w3.org/2007/05/addressing/metadata'
export const WSAW_NS = 'http://www.w3.org/2006/05/addressing/wsdl'
/** WS-Security 1.0 secext. */
export const WSSE_NS = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd'
/** Every secext namespace WS-Security has had: OASIS 1.0, WSS 1.1's, and the 2002-2003 drafts old clients write. */
export const WSSE_NAMESPACES: readonly string[] = Object.freeze([
  WSSE_NS,
  'http://docs.oasis-open.org/wss/oasis-wss-wssecurity-secext-1.1.xsd',
  'http://schemas.xmlsoap.org/ws/2002/04/secext',
  'http://schemas.xmlsoap.org/ws/2002/07/secext',
  'http://schemas.xmlsoap.org/ws/2002/12/secext',
  'http://schemas.xmlsoap.org/ws/2003/06/secext'
])
/** WS-Security 1.0 utility (`wsu:Timestamp`, `wsu:Created`, `wsu:Id`). */
export const WSU_NS = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd'
/** XML Signature (XMLDSig 1.0), the `ds` of WS-Security's signatures. */
export const DS_NS = 'http://www.w3.org/2000/09/xmldsig#'
/**
 * The W3C Trace Context header blocks' namespace (`traceparent`, `tracestate`), as
 * OpenTelemetry's WCF instrumentation writes them and CoreWCF reads them.
 */
export const TRACE_CONTEXT_NS = 'https://www.w3.org/TR/trace-context/'
/** WS-Policy 1.5 (W3C) and the 2004/09 submission it replaced. */
export const WSP_NS = 'http://www.w3.org/ns/ws-policy'
export const WSP_2004_NS = 'http://schemas.xmlsoap.org/ws/2004/09/policy'
/** WS-SecurityPolicy 1.2 (OASIS), the 2005/07 submission, and the assertions 1.3 added. */
export const SP_NS = 'http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200702'
export const SP_2005_NS = 'http://schemas.xmlsoap.org/ws/2005/07/securitypolicy'
export const SP_13_NS = 'http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200802'

/** SOAP 1.2 roles (Part 1 §2.2) and the SOAP 1.1 actor for "next" (§4.2.2). */
export const SOAP12_ROLE_NEXT = 'http://www.w3.org/2003/05/soap-envelope/role/next'
export const SOAP12_ROLE_NONE = 'http://www.w3.org/2003/05/soap-envelope/role/none'
export const SOAP12_ROLE_ULTIMATE = 'http://www.w3.org/2003/05/soap-envelope/role/ultimateReceiver'
export const SOAP11_ACTOR_NEXT = 'http://schemas.xmlsoap.org/soap/actor/next'

export interface VersionInfo {
  readonly version: SoapVersion
  readonly envelope: string
  readonly mediaType: string
  readonly contentType: string
}

export const SOAP11: VersionInfo = Object.freeze({
  version: '1.1',
  envelope: SOAP11_ENV,
  mediaType: 'text/xml',
  contentType: 'text/xml; charset=utf-8'
})

export const SOAP12: VersionInfo = Object.freeze({
  version: '1.2',
  envelope: SOAP12_ENV,
  mediaType: 'application/soap+xml',
  contentType: 'application/soap+xml; charset=utf-8'
})

export function versionInfo (version: SoapVersion): VersionInfo {
  return version === '1.1' ? SOAP11 : SOAP12
}

/** Prefixes bound in `request.soap.select()`: `soap` and `env` name the request's own envelope namespace. */
export function xpathNamespaces (version: SoapVersion): Record<string, string> {
  const env = versionInfo(version).envelope
  return {
    soap: env,
    env,
    soap11: SOAP11_ENV,
    soap12: SOAP12_ENV,
    xsi: XSI_NS,
    xsd: XSD_NS
  }
}

/** A qualified name's key, `{namespace}localName`: how the plugin names an element in options, maps and messages. */
export function qnameKey (namespace: string, localName: string): string {
  return `{${namespace}}${localName}`
}

const QNAME_KEY = /^\{[^{}]*\}[^{}:\s]+$/

/**
 * Whether a value is a `{namespace}localName` key (the namespace may be empty; the local name has no colon
 * or white space).
 */
export function isQNameKey (value: unknown): value is string {
  return typeof value === 'string' && QNAME_KEY.test(value)
}

/**
 * Stands for the endpoint's address in a document served at `GET <path>?wsdl` or `?xsd=`, generated
 * (lib/wsdl/) or a contract's (lib/contract/): the route puts the address there per request. XML 1.0
 * cannot carry U+0000, and every text written has it replaced, so it marks nothing else.
 */
export const ADDRESS = '\u0000'
