/** Private symbols. */

/** On a request in the SOAP scope: its Node response, for `request.soap.signal`. */
export const kResponse = Symbol('fastify-soap.response')

/** On a Fastify instance: its SOAP scope (hooks, understood headers), linked to its parent's. */
export const kSoapScope = Symbol('fastify-soap.scope')

/** On a request in the SOAP scope: how it was answered, for the log line (lib/logging.ts). */
export const kAnswer = Symbol('fastify-soap.answer')

/** On `request.soap`: the decoded tree, read by the dispatcher and the codec. */
export const kTree = Symbol('fastify-soap.tree')
