/**
 * Type tests, checked by `npm run test:typescript` against the built package
 * (`fastify-soap` resolves to ./dist through package.json "exports").
 * Each `@ts-expect-error` fails the check if the line below it compiles.
 */
import Fastify, { type FastifyReply } from 'fastify'
import soap, {
  SoapFault,
  errorCodes,
  fastifySoap,
  type FastifySoapOptions,
  type SoapContext,
  type SoapHeaderBlock,
  type SoapVersion,
  type XmlElement
} from 'fastify-soap'

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false
function expectType<T extends true> (): T | undefined { return undefined }

const app = Fastify()
app.register(soap)
app.register(fastifySoap, { maxDepth: 10, bodyLimit: 1024, roles: ['urn:r'], understoodHeaders: ['{urn:a}B'] })
app.register(soap, { multipart: { maxParts: 10, maxPartHeaders: 8, maxPartHeaderBytes: 4096 } })
// @ts-expect-error docs/protocol.md "MTOM/XOP": the multipart option's keys are its bounds'
app.register(soap, { multipart: { maxparts: 10 } })
app.register(soap, {
  routes: async (scope) => {
    scope.post('/x', async (request, reply) => {
      expectType<Equal<typeof request.soap, SoapContext | null>>()
      const ctx = request.soap
      if (ctx !== null) {
        expectType<Equal<typeof ctx.version, SoapVersion>>()
        expectType<Equal<typeof ctx.action, string | undefined>>()
        expectType<Equal<typeof ctx.headers, readonly SoapHeaderBlock[]>>()
        expectType<Equal<typeof ctx.payload, XmlElement | undefined>>()
        expectType<Equal<ReturnType<typeof ctx.headersByName.get>, readonly SoapHeaderBlock[] | undefined>>()
        expectType<Equal<typeof ctx.headers[0]['mustUnderstand'], boolean>>()
        expectType<Equal<typeof ctx.parts, ReadonlyMap<string, Buffer>>>()
        ctx.select('/soap:Envelope', ctx.bodyElement)
        ctx.document.documentElement?.localName?.toString()
      }
      expectType<Equal<ReturnType<typeof reply.soap>, FastifyReply>>()
      reply.soap('<a/>', { header: ['<h/>'] })
      // @ts-expect-error a number is not SOAP content
      reply.soap(42)
      // @ts-expect-error there is no such version
      reply.soap('<a/>', { version: '1.3' })
    })
  }
})

app.soap.options.limits.maxDepth.toFixed()

// @ts-expect-error unknown options are refused
app.register(soap, { maxDeep: 10 })
// @ts-expect-error limits are numbers
app.register(soap, { maxDepth: '10' })
// @ts-expect-error routes is a Fastify plugin
const badRoutes: FastifySoapOptions = { routes: 'routes' }
app.register(soap, { servicePage: true })
expectType<Equal<typeof app.soap.options.servicePage, boolean>>()
// @ts-expect-error servicePage is a boolean
app.register(soap, { servicePage: 'on' })

export const faults = [
  new SoapFault({ code: 'Sender', reason: 'r', subcodes: ['{urn:a}b', { namespace: 'urn:a', localName: 'c' }], detail: '<d/>' }),
  new SoapFault({ code: 'Client', reason: [{ text: 'r', lang: 'en' }] }),
  // @ts-expect-error a fault needs a reason
  new SoapFault({ code: 'Sender' }),
  // @ts-expect-error no such fault code
  new SoapFault({ code: 'Oops', reason: 'r' })
]

const err: unknown = null
if (err instanceof errorCodes.SOAP_ERR_DECODE_LIMIT) {
  expectType<Equal<typeof err.code, 'SOAP_ERR_DECODE_LIMIT'>>()
}

export { badRoutes }
