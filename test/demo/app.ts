/**
 * The demo service: a Calculator written as an ordinary Fastify route that reads
 * `request.soap` and answers with `reply.soap()`.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import soap, { SoapFault, escapeXml, soapClientErrorHandler, textContent, type XmlElement } from '../../lib/index'

export const CALC_NS = 'urn:example:calc'

function argument (operation: XmlElement, name: string): string {
  for (const child of operation.children) {
    if (typeof child !== 'string' && child.localName === name && child.namespace === CALC_NS) {
      return textContent(child)
    }
  }
  throw new SoapFault({ code: 'Sender', reason: `missing argument ${name}` })
}

function integer (operation: XmlElement, name: string): number {
  const text = argument(operation, name).trim()
  const value = Number(text)
  if (!/^[+-]?\d+$/.test(text) || !Number.isSafeInteger(value)) {
    throw new SoapFault({ code: 'Sender', reason: `argument ${name} is not an integer` })
  }
  return value
}

function result (operation: string, name: string, value: string | number): string {
  return `<calc:${operation}Response xmlns:calc="${CALC_NS}"><calc:${name}>${escapeXml(String(value))}</calc:${name}></calc:${operation}Response>`
}

export async function buildDemo (options: FastifyServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    // Bound every connection: see docs/lifecycle.md
    requestTimeout: 30_000,
    connectionTimeout: 10_000,
    keepAliveTimeout: 5_000,
    // HTTP framing errors answered like any undecodable request: status only, no body
    clientErrorHandler: soapClientErrorHandler,
    ...options
  })
  await app.register(soap, {
    routes: async (scope) => {
      scope.post('/calculator', async (request, reply) => {
        const operation = request.soap?.payload
        if (operation === undefined || operation.namespace !== CALC_NS) {
          throw new SoapFault({ code: 'Sender', reason: `no operation ${operation === undefined ? '(empty Body)' : `{${operation.namespace}}${operation.localName}`}` })
        }
        switch (operation.localName) {
          case 'Add':
            return reply.soap(result('Add', 'result', integer(operation, 'a') + integer(operation, 'b')))
          case 'Echo':
            return reply.soap(result('Echo', 'text', argument(operation, 'text')))
          case 'Divide': {
            const b = integer(operation, 'b')
            if (b === 0) throw new SoapFault({ code: 'Sender', reason: 'division by zero' })
            return reply.soap(result('Divide', 'result', Math.trunc(integer(operation, 'a') / b)))
          }
          default:
            throw new SoapFault({ code: 'Sender', reason: `no operation {${CALC_NS}}${operation.localName}` })
        }
      })
    }
  })
  return app
}
