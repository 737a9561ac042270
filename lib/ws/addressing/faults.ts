/**
 * The faults of WS-Addressing (1.0 SOAP Binding §6; the 2004/08 submission
 * §5), each in the version the request used: a Sender fault whose subcode
 * (and, in 1.0, subsubcode) names the problem and whose detail names the
 * header or action. SOAP 1.1 has no subcodes: the subcode is the faultcode,
 * and 1.0's detail travels in a `wsa:FaultDetail` header block (§6.5), since
 * a SOAP 1.1 fault's detail is about the Body only.
 */
import { SoapFault } from '../../soap/fault'
import { WSA_NS, type SoapVersion } from '../../namespaces'
import { escapeXml } from '../../xml/escape'

/** The three faults a request can earn, by what went wrong. */
export type AddressingProblem = 'required' | 'invalid' | 'action'

/** The subsubcodes of InvalidAddressingHeader (1.0 SOAP Binding §6.4.1). */
export type InvalidHeaderReason =
  'InvalidAddress' | 'InvalidEPR' | 'InvalidCardinality' | 'MissingAddressInEPR' | 'ActionMismatch' |
  'OnlyAnonymousAddressSupported'

const SUBCODES: Record<string, Record<AddressingProblem, string>> = {
  [WSA_NS]: {
    required: 'MessageAddressingHeaderRequired', invalid: 'InvalidAddressingHeader', action: 'ActionNotSupported'
  },
  // 2004/08 §5.1-5.4
  other: {
    required: 'MessageInformationHeaderRequired',
    invalid: 'InvalidMessageInformationHeader',
    action: 'ActionNotSupported'
  }
}

const REASONS: Record<AddressingProblem, string> = {
  required: 'A required header representing a Message Addressing Property is not present',
  invalid: 'A header representing a Message Addressing Property is not valid and the message cannot be processed',
  action: 'The [action] cannot be processed at the receiver'
}

/**
 * The action of a fault of WS-Addressing itself, and of a fault with no action of its own
 * (1.0 Core §3.3.1; 2004/08 §5).
 */
export function genericFaultAction (namespace: string): string {
  return `${namespace}/fault`
}

/** The action of SOAP's own faults, MustUnderstand and VersionMismatch (1.0 SOAP Binding §6). */
export function soapFaultAction (namespace: string): string {
  return namespace === WSA_NS ? `${WSA_NS}/soap/fault` : genericFaultAction(namespace)
}

export interface AddressingFaultOptions {
  readonly namespace: string
  readonly version: SoapVersion
  readonly problem: AddressingProblem
  /** InvalidAddressingHeader's subsubcode (1.0 only). */
  readonly reason?: InvalidHeaderReason
  /** What went wrong, after the spec's reason. */
  readonly why: string
  /** The header at fault, as `[namespace, localName]`: `wsa:ProblemHeaderQName`. */
  readonly header?: readonly [string, string]
  /** Without `header`, the action not supported: `wsa:ProblemAction`. */
  readonly action?: { readonly action: string, readonly soapAction: string | undefined }
}

function detailOf (namespace: string, options: AddressingFaultOptions): string {
  if (options.header !== undefined) {
    const [ns, local] = options.header
    return `<wsa:ProblemHeaderQName xmlns:wsa="${namespace}" xmlns:h="${ns}">h:${local}</wsa:ProblemHeaderQName>`
  }
  const { action, soapAction } = options.action as NonNullable<AddressingFaultOptions['action']>
  let detail = `<wsa:ProblemAction xmlns:wsa="${namespace}"><wsa:Action>${escapeXml(action)}</wsa:Action>`
  if (soapAction !== undefined) detail += `<wsa:SoapAction>${escapeXml(soapAction)}</wsa:SoapAction>`
  return detail + '</wsa:ProblemAction>'
}

export function addressingFault (options: AddressingFaultOptions): SoapFault {
  const { namespace, version, problem } = options
  const is10 = namespace === WSA_NS
  const subcode = { namespace, localName: (is10 ? SUBCODES[WSA_NS] : SUBCODES.other)[problem] }
  const subcodes = is10 && options.reason !== undefined
    ? [subcode, { namespace, localName: options.reason }]
    : [subcode]
  const detail = detailOf(namespace, options)
  const reason = `${REASONS[problem]}: ${options.why}`
  const action = genericFaultAction(namespace)
  if (version === '1.2') return new SoapFault({ code: 'Sender', subcodes, reason, detail, action })
  const headers = is10 ? `<wsa:FaultDetail xmlns:wsa="${namespace}">${detail}</wsa:FaultDetail>` : undefined
  return new SoapFault({ code: 'Sender', code11: subcode, reason, headers, action })
}

/**
 * EndpointUnavailable (1.0 SOAP Binding §6.4.5; 2004/08 §5.5): a Receiver
 * fault, the endpoint cannot take the message now; `wsa:RetryAfter` says in
 * how many milliseconds to try again.
 */
export function endpointUnavailable (
  namespace: string,
  version: SoapVersion,
  retryAfter: number,
  why: string
): SoapFault {
  const subcode = { namespace, localName: 'EndpointUnavailable' }
  const detail = `<wsa:RetryAfter xmlns:wsa="${namespace}">${retryAfter}</wsa:RetryAfter>`
  const reason = `The endpoint is unable to process the message at this time: ${why}`
  const action = genericFaultAction(namespace)
  if (version === '1.2') return new SoapFault({ code: 'Receiver', subcodes: [subcode], reason, detail, action })
  const headers = namespace === WSA_NS
    ? `<wsa:FaultDetail xmlns:wsa="${namespace}">${detail}</wsa:FaultDetail>`
    : undefined
  return new SoapFault({ code: 'Receiver', code11: subcode, reason, headers, action })
}
