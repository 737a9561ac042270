/**
 * The peers of `npm run bench`: node-soap's and strong-soap's servers, each on a
 * plain node:http server, serving the same two operations as fastify-soap from
 * the WSDLs fastify-soap writes for them (Calculator at /calculator, List at /list).
 *
 * Both answer the bench's SOAP 1.2 requests with SOAP 1.2 envelopes:
 * - node-soap writes the envelope namespace from one switch, forceSoap12Headers,
 *   whatever the request; so this peer answers SOAP 1.2 only (as the bench sends).
 * - strong-soap writes it from the binding of the first wsdl:port whose address
 *   path is the request's path; fastify-soap lists the SOAP 1.1 port first, both on
 *   the same path, so strong-soap is given the same WSDL with its two wsdl:port
 *   elements swapped (SOAP 1.2 first): same types, messages and bindings.
 * Both echo the request's Content-Type on the response. strong-soap is told
 * prettyResponse: false (its default indents the reply: a third more bytes for the list).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { listen as nodeSoapListen } from 'soap'
import type { FastifyInstance } from 'fastify'
import { buildSoap } from './services'

interface Peer { listen: () => Promise<number>, close: () => Promise<void> }

type Args = Record<string, unknown> | undefined
type Callback = (error: unknown, result?: unknown) => void
type Operation = (args: Args, callback?: Callback) => unknown
interface Services { [service: string]: { [port: string]: Record<string, Operation> } }

/** strong-soap ships no types: the little of it used here. */
interface StrongSoap {
  soap: { listen: (server: Server, options: { path: string, services: Services, xml: string, prettyResponse: boolean }) => unknown }
}

/** The WSDLs fastify-soap writes for the two services, addresses on 127.0.0.1. */
async function wsdls (): Promise<{ calculator: string, list: string }> {
  const app = await buildSoap()
  try {
    await app.ready()
    const get = async (url: string): Promise<string> => {
      const res = await app.inject({ url, headers: { host: '127.0.0.1' } })
      if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode}`)
      return res.body
    }
    return { calculator: await get('/calculator?wsdl'), list: await get('/list?wsdl') }
  } finally {
    await app.close()
  }
}

/**
 * The operations, synchronous or through the callback: strong-soap serialises
 * whatever a handler returns, a promise included. Numbers may come as strings
 * (strong-soap does not convert xs:long), hence Number().
 */
const calculator: Record<string, Operation> = {
  Add (args) {
    return { result: Number(args?.a) + Number(args?.b) }
  },
  Echo (args) {
    return { text: args?.text }
  },
  Divide (args, callback) {
    const b = Number(args?.b)
    if (b === 0) {
      const fault = { Code: { Value: 'soap:Sender' }, Reason: { Text: 'division by zero' } }
      // Both read statusCode then blank it; strong-soap would write it as an element unless it is not enumerable.
      Object.defineProperty(fault, 'statusCode', { value: 400, writable: true, enumerable: false })
      callback?.({ Fault: fault })
      return undefined
    }
    return { result: Math.trunc(Number(args?.a) / b) }
  }
}

/** The items as parsed (the id attribute under `attributes`), written back as they came. */
const list: Record<string, Operation> = {
  EchoList (args) {
    return { item: args?.item ?? [] }
  }
}

const services = {
  calculator: { Calculator: { CalculatorSoap11: calculator, CalculatorSoap12: calculator } },
  list: { List: { ListSoap11: list, ListSoap12: list } }
}

/** The same WSDL with its SOAP 1.2 wsdl:port before its SOAP 1.1 one. */
function soap12PortFirst (wsdl: string, name: string): string {
  const port11 = new RegExp(`[ \\t]*<wsdl:port name="${name}Soap11"[\\s\\S]*?</wsdl:port>\\r?\\n`)
  const port12 = new RegExp(`[ \\t]*<wsdl:port name="${name}Soap12"[\\s\\S]*?</wsdl:port>\\r?\\n`)
  const one = port11.exec(wsdl)
  const two = port12.exec(wsdl)
  if (one === null || two === null || two.index !== one.index + one[0].length) throw new Error(`strong-soap: cannot find ${name}'s two wsdl:port elements in order`)
  return wsdl.slice(0, one.index) + two[0] + one[0] + wsdl.slice(two.index + two[0].length)
}

function notFound (req: IncomingMessage, res: ServerResponse): void {
  res.statusCode = 404
  res.end()
}

/** node:http on 127.0.0.1, port 0. */
function peer (server: Server): Peer {
  return {
    listen: () => new Promise((resolve, reject) => {
      server.once('error', reject)
      server.listen(0, '127.0.0.1', () => {
        const address = server.address()
        resolve(typeof address === 'object' && address !== null ? address.port : 0)
      })
    }),
    close: () => new Promise((resolve, reject) => {
      server.close((err) => { if (err === undefined) resolve(); else reject(err) })
      server.closeAllConnections()
    })
  }
}

async function nodeSoap (): Promise<Peer> {
  const { calculator: calculatorWsdl, list: listWsdl } = await wsdls()
  const server = createServer(notFound)
  // Each listen() wraps the request listeners present once its WSDL is ready: one after the other.
  for (const [path, xml, service] of [['/calculator', calculatorWsdl, services.calculator], ['/list', listWsdl, services.list]] as const) {
    await new Promise<void>((resolve, reject) => {
      nodeSoapListen(server, { path, xml, services: service, forceSoap12Headers: true, callback: (err: unknown) => { if (err == null) resolve(); else reject(err) } })
    })
  }
  return peer(server)
}

async function strongSoap (): Promise<Peer> {
  const { calculator: calculatorWsdl, list: listWsdl } = await wsdls()
  // strong-soap ships no type declarations.
  const { soap } = require('strong-soap') as StrongSoap
  const server = createServer(notFound)
  for (const [path, xml, service] of [['/calculator', soap12PortFirst(calculatorWsdl, 'Calculator'), services.calculator], ['/list', soap12PortFirst(listWsdl, 'List'), services.list]] as const) {
    // Its WSDL loads on the next tick, without a callback: wait until its request listener is in place.
    const before = server.listeners('request')[0]
    soap.listen(server, { path, xml, services: service, prettyResponse: false })
    for (let tick = 0; server.listeners('request')[0] === before; tick++) {
      if (tick === 1000) throw new Error(`strong-soap: ${path} not ready`)
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
  return peer(server)
}

export async function buildPeer (kind: 'node-soap' | 'strong-soap'): Promise<FastifyInstance | Peer> {
  return kind === 'node-soap' ? await nodeSoap() : await strongSoap()
}
