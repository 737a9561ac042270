/**
 * Every error the plugin raises, one `@fastify/error` code each, grouped by area.
 * docs/errors.md lists the same codes; test/errors.test.ts keeps the two equal.
 */
import createError from '@fastify/error'

// Decoding errors happen on hostile input: no stack is captured, none is ever sent.
const NO_STACK = false

// ---------------------------------------------------------------- options ---
export const SOAP_ERR_OPT_INVALID = createError<'SOAP_ERR_OPT_INVALID', 500, [string, string]>(
  'SOAP_ERR_OPT_INVALID',
  'fastify-soap: option "%s" must be %s',
  500,
  TypeError
)

// ----------------------------------------------------------- content type ---
export const SOAP_ERR_CT_MEDIA_TYPE = createError<'SOAP_ERR_CT_MEDIA_TYPE', 415, [string]>(
  'SOAP_ERR_CT_MEDIA_TYPE',
  'fastify-soap: unsupported media type %s',
  415,
  Error,
  NO_STACK
)
export const SOAP_ERR_CT_CHARSET = createError<'SOAP_ERR_CT_CHARSET', 415, [string]>(
  'SOAP_ERR_CT_CHARSET',
  'fastify-soap: unsupported charset %s',
  415,
  Error,
  NO_STACK
)
export const SOAP_ERR_CT_DUPLICATE = createError<'SOAP_ERR_CT_DUPLICATE', 400, []>(
  'SOAP_ERR_CT_DUPLICATE',
  'fastify-soap: more than one Content-Type header',
  400,
  Error,
  NO_STACK
)
export const SOAP_ERR_CT_ENCODING = createError<'SOAP_ERR_CT_ENCODING', 415, [string]>(
  'SOAP_ERR_CT_ENCODING',
  'fastify-soap: unsupported content coding %s',
  415,
  Error,
  NO_STACK
)

// --------------------------------------------------------- content coding ---
// Raised while a compressed body is inflated, before all of it may have been read.
export const SOAP_ERR_CODING_DATA = createError<'SOAP_ERR_CODING_DATA', 400, [string]>(
  'SOAP_ERR_CODING_DATA',
  'fastify-soap: the body is not valid %s data',
  400,
  Error,
  NO_STACK
)
export const SOAP_ERR_CODING_SIZE = createError<'SOAP_ERR_CODING_SIZE', 413, [number]>(
  'SOAP_ERR_CODING_SIZE',
  'fastify-soap: the compressed body, or the body inflated, is over the body limit (%d bytes)',
  413,
  Error,
  NO_STACK
)
export const SOAP_ERR_CODING_RATIO = createError<'SOAP_ERR_CODING_RATIO', 413, [number]>(
  'SOAP_ERR_CODING_RATIO',
  'fastify-soap: the body inflates more than %d times its compressed size',
  413,
  Error,
  NO_STACK
)

// --------------------------------------------------------------- decoding ---
export const SOAP_ERR_DECODE_EMPTY = createError<'SOAP_ERR_DECODE_EMPTY', 400, []>(
  'SOAP_ERR_DECODE_EMPTY',
  'fastify-soap: empty request body',
  400,
  Error,
  NO_STACK
)
export const SOAP_ERR_DECODE_CHARSET = createError<'SOAP_ERR_DECODE_CHARSET', 400, [string]>(
  'SOAP_ERR_DECODE_CHARSET',
  'fastify-soap: body is not valid %s',
  400,
  Error,
  NO_STACK
)
export const SOAP_ERR_DECODE_XML = createError<'SOAP_ERR_DECODE_XML', 400, [string]>(
  'SOAP_ERR_DECODE_XML',
  'fastify-soap: body is not well-formed XML 1.0: %s',
  400,
  Error,
  NO_STACK
)
export const SOAP_ERR_DECODE_DTD = createError<'SOAP_ERR_DECODE_DTD', 400, []>(
  'SOAP_ERR_DECODE_DTD',
  'fastify-soap: document type declarations are not allowed',
  400,
  Error,
  NO_STACK
)
export const SOAP_ERR_DECODE_PI = createError<'SOAP_ERR_DECODE_PI', 400, [string]>(
  'SOAP_ERR_DECODE_PI',
  'fastify-soap: processing instruction "%s" is not allowed',
  400,
  Error,
  NO_STACK
)
export const SOAP_ERR_DECODE_STRUCTURE = createError<'SOAP_ERR_DECODE_STRUCTURE', 400, [string]>(
  'SOAP_ERR_DECODE_STRUCTURE',
  'fastify-soap: not a SOAP envelope: %s',
  400,
  Error,
  NO_STACK
)
export const SOAP_ERR_DECODE_LIMIT = createError<'SOAP_ERR_DECODE_LIMIT', 400, [string, number]>(
  'SOAP_ERR_DECODE_LIMIT',
  'fastify-soap: limit %s (%d) exceeded',
  400,
  Error,
  NO_STACK
)

// --------------------------------------------------------------- MTOM/XOP ---
export const SOAP_ERR_MTOM_BOUNDARY = createError<'SOAP_ERR_MTOM_BOUNDARY', 400, [string]>(
  'SOAP_ERR_MTOM_BOUNDARY',
  'fastify-soap: the multipart boundary parameter %s',
  400,
  Error,
  NO_STACK
)
export const SOAP_ERR_MTOM_FRAMING = createError<'SOAP_ERR_MTOM_FRAMING', 400, [string]>(
  'SOAP_ERR_MTOM_FRAMING',
  'fastify-soap: the multipart body is malformed: %s',
  400,
  Error,
  NO_STACK
)
export const SOAP_ERR_MTOM_LIMIT = createError<'SOAP_ERR_MTOM_LIMIT', 400, [string, number]>(
  'SOAP_ERR_MTOM_LIMIT',
  'fastify-soap: multipart limit %s (%d) exceeded',
  400,
  Error,
  NO_STACK
)
export const SOAP_ERR_MTOM_ENCODING = createError<'SOAP_ERR_MTOM_ENCODING', 400, [string]>(
  'SOAP_ERR_MTOM_ENCODING',
  'fastify-soap: a part\'s Content-Transfer-Encoding %s is not binary, 8bit or 7bit',
  400,
  Error,
  NO_STACK
)
export const SOAP_ERR_MTOM_CONTENT_ID = createError<'SOAP_ERR_MTOM_CONTENT_ID', 400, [string, string]>(
  'SOAP_ERR_MTOM_CONTENT_ID',
  'fastify-soap: the Content-ID %s %s',
  400,
  Error,
  NO_STACK
)
export const SOAP_ERR_MTOM_ROOT = createError<'SOAP_ERR_MTOM_ROOT', 400, [string]>(
  'SOAP_ERR_MTOM_ROOT',
  'fastify-soap: no root part: %s',
  400,
  Error,
  NO_STACK
)

// ------------------------------------------------------------------ XPath ---
export const SOAP_ERR_SELECT_LIMIT = createError<'SOAP_ERR_SELECT_LIMIT', 400, [number, number]>(
  'SOAP_ERR_SELECT_LIMIT',
  'fastify-soap: request.soap.select() refused: the message has %d elements, more than maxXPathElements (%d)',
  400
)

// --------------------------------------------------------------- requests ---
export const SOAP_ERR_CLIENT_GONE = createError<'SOAP_ERR_CLIENT_GONE', 499, []>(
  'SOAP_ERR_CLIENT_GONE',
  'fastify-soap: the client went away before the response was complete',
  499,
  Error,
  NO_STACK
)

// ------------------------------------------------------------------ reply ---
export const SOAP_ERR_REPLY_CONTENT = createError<'SOAP_ERR_REPLY_CONTENT', 500, [string]>(
  'SOAP_ERR_REPLY_CONTENT',
  'fastify-soap: reply.soap() takes an XML string, an xmldom node or an array of them, not %s',
  500,
  TypeError
)

// ---------------------------------------------------------------- faults ---
export const SOAP_ERR_FAULT_INVALID = createError<'SOAP_ERR_FAULT_INVALID', 500, [string]>(
  'SOAP_ERR_FAULT_INVALID',
  'fastify-soap: invalid SoapFault %s',
  500,
  TypeError
)

// --------------------------------------------------------------- services ---
export const SOAP_ERR_SERVICE_INVALID = createError<'SOAP_ERR_SERVICE_INVALID', 500, [string, string]>(
  'SOAP_ERR_SERVICE_INVALID',
  'fastify-soap: service %s: %s',
  500,
  TypeError
)
export const SOAP_ERR_SERVICE_SCHEMA = createError<'SOAP_ERR_SERVICE_SCHEMA', 500, [string, string]>(
  'SOAP_ERR_SERVICE_SCHEMA',
  'fastify-soap: schema %s: %s',
  500,
  TypeError
)
export const SOAP_ERR_SERVICE_DUPLICATE = createError<'SOAP_ERR_SERVICE_DUPLICATE', 500, [string, string, string]>(
  'SOAP_ERR_SERVICE_DUPLICATE',
  'fastify-soap: service %s: operations %s share %s (WS-I BP R2710: operation signatures must be unique)',
  500,
  TypeError
)
export const SOAP_ERR_SERVICE_HANDLER = createError<'SOAP_ERR_SERVICE_HANDLER', 500, [string, string]>(
  'SOAP_ERR_SERVICE_HANDLER',
  'fastify-soap: service %s: operation %s has no handler function',
  500,
  TypeError
)

// ------------------------------------------------------------------ hooks ---
export const SOAP_ERR_HOOK_INVALID = createError<'SOAP_ERR_HOOK_INVALID', 500, [string]>(
  'SOAP_ERR_HOOK_INVALID',
  'fastify-soap: %s',
  500,
  TypeError
)

// ------------------------------------------------------------- operations ---
export const SOAP_ERR_OUTPUT_INVALID = createError<'SOAP_ERR_OUTPUT_INVALID', 500, [string, string]>(
  'SOAP_ERR_OUTPUT_INVALID',
  'fastify-soap: the result at "%s" %s',
  500
)
export const SOAP_ERR_OPERATION_TIMEOUT = createError<'SOAP_ERR_OPERATION_TIMEOUT', 500, [string, number]>(
  'SOAP_ERR_OPERATION_TIMEOUT',
  'fastify-soap: operation %s did not finish within %d ms',
  500,
  Error,
  NO_STACK
)
export const SOAP_ERR_FAULT_UNKNOWN = createError<'SOAP_ERR_FAULT_UNKNOWN', 500, [string, string]>(
  'SOAP_ERR_FAULT_UNKNOWN',
  'fastify-soap: operation %s declares no fault %s',
  500,
  TypeError
)

// ------------------------------------------------------------ description ---
export const SOAP_ERR_WSDL_CONFLICT = createError<'SOAP_ERR_WSDL_CONFLICT', 500, [string, string]>(
  'SOAP_ERR_WSDL_CONFLICT',
  'fastify-soap: the WSDL of service %s cannot be written: %s',
  500
)

// ---------------------------------------------------------- contract first ---
export const SOAP_ERR_CONTRACT_LOAD = createError<'SOAP_ERR_CONTRACT_LOAD', 500, [string, string]>(
  'SOAP_ERR_CONTRACT_LOAD',
  'fastify-soap: the contract document %s cannot be loaded: %s',
  500
)
export const SOAP_ERR_CONTRACT_UNSUPPORTED = createError<'SOAP_ERR_CONTRACT_UNSUPPORTED', 500, [string, string]>(
  'SOAP_ERR_CONTRACT_UNSUPPORTED',
  'fastify-soap: the contract uses %s, which cannot be served (at %s)',
  500
)
export const SOAP_ERR_CONTRACT_INVALID = createError<'SOAP_ERR_CONTRACT_INVALID', 500, [string, string]>(
  'SOAP_ERR_CONTRACT_INVALID',
  'fastify-soap: contract %s: %s',
  500,
  TypeError
)

// ------------------------------------------------------------ WS-Security ---
export const SOAP_ERR_SECURITY_STORE = createError<'SOAP_ERR_SECURITY_STORE', 500, [string]>(
  'SOAP_ERR_SECURITY_STORE',
  'fastify-soap: the replay store failed: %s',
  500
)
export const SOAP_ERR_SECURITY_LOOKUP = createError<'SOAP_ERR_SECURITY_LOOKUP', 500, [string, string]>(
  'SOAP_ERR_SECURITY_LOOKUP',
  'fastify-soap: contract %s: its WS-SecurityPolicy asks for a UsernameToken (%s): ' +
    'give "security.usernameToken.lookup"',
  500,
  TypeError
)
export const SOAP_ERR_SECURITY_TRUST = createError<'SOAP_ERR_SECURITY_TRUST', 500, [string, string, string]>(
  'SOAP_ERR_SECURITY_TRUST',
  'fastify-soap: contract %s: its WS-SecurityPolicy asks for %s: give "%s"',
  500,
  TypeError
)

export const errorCodes = {
  SOAP_ERR_OPT_INVALID,
  SOAP_ERR_CT_MEDIA_TYPE,
  SOAP_ERR_CT_CHARSET,
  SOAP_ERR_CT_DUPLICATE,
  SOAP_ERR_CT_ENCODING,
  SOAP_ERR_CODING_DATA,
  SOAP_ERR_CODING_SIZE,
  SOAP_ERR_CODING_RATIO,
  SOAP_ERR_DECODE_EMPTY,
  SOAP_ERR_DECODE_CHARSET,
  SOAP_ERR_DECODE_XML,
  SOAP_ERR_DECODE_DTD,
  SOAP_ERR_DECODE_PI,
  SOAP_ERR_DECODE_STRUCTURE,
  SOAP_ERR_DECODE_LIMIT,
  SOAP_ERR_MTOM_BOUNDARY,
  SOAP_ERR_MTOM_FRAMING,
  SOAP_ERR_MTOM_LIMIT,
  SOAP_ERR_MTOM_ENCODING,
  SOAP_ERR_MTOM_CONTENT_ID,
  SOAP_ERR_MTOM_ROOT,
  SOAP_ERR_SELECT_LIMIT,
  SOAP_ERR_CLIENT_GONE,
  SOAP_ERR_REPLY_CONTENT,
  SOAP_ERR_FAULT_INVALID,
  SOAP_ERR_SERVICE_INVALID,
  SOAP_ERR_SERVICE_SCHEMA,
  SOAP_ERR_SERVICE_DUPLICATE,
  SOAP_ERR_SERVICE_HANDLER,
  SOAP_ERR_HOOK_INVALID,
  SOAP_ERR_OUTPUT_INVALID,
  SOAP_ERR_OPERATION_TIMEOUT,
  SOAP_ERR_FAULT_UNKNOWN,
  SOAP_ERR_WSDL_CONFLICT,
  SOAP_ERR_CONTRACT_LOAD,
  SOAP_ERR_CONTRACT_UNSUPPORTED,
  SOAP_ERR_CONTRACT_INVALID,
  SOAP_ERR_SECURITY_STORE,
  SOAP_ERR_SECURITY_LOOKUP,
  SOAP_ERR_SECURITY_TRUST
} as const
