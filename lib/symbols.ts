/** Private symbols. */

/** On a request in the SOAP scope: its Node response, for `request.soap.signal`. */
export const kResponse = Symbol('fastify-soap.response')
