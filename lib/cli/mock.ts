/**
 * `fastify-soap mock <contract.wsdl>`: serves a contract on loopback with
 * sample answers (docs/mock.md "The mock command"): every operation answers
 * a rich sample of its output, or a declared fault on request; one log line
 * per request.
 */
import Fastify, { LogController, type FastifyInstance } from 'fastify'
import soap from '../index'
import { readContract } from '../contract/read'

export const MOCK_USAGE = `usage: fastify-soap mock <contract.wsdl> [--port <n>] [--host <address>] [--path </path>]
         [--seed <n>] [--service <name>] [--binding <name>]
         [--catalog <catalog.xml> | --catalog <location>=<file>...] [--root <folder>]
         [--ignore-policy-assertion <{namespace}localName>...]

Serves the contract with sample answers: each operation answers a sample of
its output (the same for the same --seed, default 1), or the declared fault
a request names in its x-soap-mock-fault header. Listens on 127.0.0.1
(--host to choose), port 8080 by default (0: any free port), at --path
(default /mock); prints the endpoint's and the WSDL's URLs, then one line per
request. --ignore-policy-assertion serves the contract without a WS-Policy
assertion the plugin cannot apply (a WCF contract's TransportBinding).`

export interface MockOptions {
  wsdl: string
  port: number
  host: string
  path: string
  seed: number
  service?: string
  binding?: string
  root?: string
  catalog?: Record<string, string> | string
  ignorePolicyAssertions?: string[]
}

/** Reads the command's arguments; a string is what is wrong with them. */
export function mockOptions (args: readonly string[]): MockOptions | string {
  const options: Partial<MockOptions> = { port: 8080, host: '127.0.0.1', path: '/mock', seed: 1 }
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    const value = args[i + 1]
    if (/^--(port|seed)$/.test(arg) && value !== undefined) {
      const n = Number(value)
      if (!/^[0-9]+$/.test(value) || (arg === '--port' && n > 65535)) return `${arg} takes a number`
      options[arg === '--port' ? 'port' : 'seed'] = n
      i++
    } else if (arg === '--catalog' && value !== undefined) {
      const entry = /^([^=]+)=(.+)$/.exec(value)
      if (entry === null) options.catalog = value
      else options.catalog = { ...options.catalog as Record<string, string> | undefined, [entry[1]]: entry[2] }
      i++
    } else if (arg === '--ignore-policy-assertion' && value !== undefined) {
      options.ignorePolicyAssertions = [...options.ignorePolicyAssertions ?? [], value]
      i++
    } else if (/^--(host|path|service|binding|root)$/.test(arg) && value !== undefined) {
      options[arg.slice(2) as 'host' | 'path' | 'service' | 'binding' | 'root'] = value
      i++
    } else if (!arg.startsWith('-') && options.wsdl === undefined) {
      options.wsdl = arg
    } else {
      return `unexpected argument ${arg}`
    }
  }
  if (options.wsdl === undefined) return 'no contract.wsdl given'
  if (!(options.path as string).startsWith('/')) return '--path must start with /'
  return options as MockOptions
}

/** Starts the mock server; resolves to it once it listens, having printed its URLs. */
export async function startMock (options: MockOptions, out: (text: string) => void): Promise<FastifyInstance> {
  const { wsdl, port, host, path, seed, ignorePolicyAssertions, ...choice } = options
  const source = Object.fromEntries(Object.entries(choice).filter(([, v]) => v !== undefined))
  const contract = await readContract({ wsdl, ...source })
  const ignored = ignorePolicyAssertions === undefined ? {} : { ignorePolicyAssertions }
  // One line per request: the plugin's answer line; Fastify's own request lines are off.
  const app = Fastify({ logger: { level: 'info' }, logController: new LogController({ disableRequestLogging: true }) })
  await app.register(soap)
  await app.register(async (scope) => {
    scope.soap.contract({
      path, wsdl, ...source, ...ignored, operations: {}, unimplemented: 'sample', sampleSeed: seed
    })
  })
  await app.listen({ port, host })
  const address = app.server.address() as { port: number }
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}${path}`
  out(`fastify-soap mock: ${contract.name} (${Object.keys(contract.operations).length} operations) at ${base}\n`)
  out(`fastify-soap mock: WSDL at ${base}?wsdl\n`)
  return app
}
