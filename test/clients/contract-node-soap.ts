/**
 * Interop, contract first (docs/contract-first.md "The corpus"): the node-soap client (npm `soap`) against
 * a served WSDL.
 *
 *     node dist/test/clients/contract-node-soap.js SPEC_JSON
 *
 * SPEC_JSON is one JSON object:
 *
 *     wsdl       the served WSDL's URL (BASE/path?wsdl)
 *     service, port
 *                the port to call through: client[service][port], or
 *     binding, address
 *                a binding's local name and the endpoint, for a WSDL with no
 *                wsdl:service (node-soap defines methods from ports only, so
 *                the script defines a port of its own, with node-soap's
 *                internal _definePort)
 *     operation  the operation to call
 *     args       the call's argument (node-soap's JSON: attributes under
 *                `attributes`, an element's text beside them as `$value`)
 *     headers    optional: header blocks, each { value, namespace } (node-soap's
 *                addSoapHeader(value, '', 'hdr', namespace)) or an XML string
 *     soap12     optional: send SOAP 1.2 (node-soap's forceSoap12Headers)
 *     wsse       optional: { username, password }: a WS-Security UsernameToken
 *                with a password digest, Nonce, Created and a wsu:Timestamp
 *                (node-soap's WSSecurity)
 *
 * The script prints one JSON line: the result (a Date as {"Date": ISO}), the
 * envelope sent and the body received, the request's Content-Type and
 * SOAPAction as node-soap sent them, the HTTP status and Content-Type it got,
 * the ports' addresses node-soap read from the WSDL and every URL it fetched
 * (the WSDL and what it imports). A SOAP fault is reported under "fault", any
 * other failure under "error". What node-soap writes to console.warn or
 * console.error, and process warnings, are reported under "warnings". The
 * script asserts nothing: the Node test does.
 *
 * node-soap reaches nothing but the WSDL's origin: its HTTP client refuses any
 * other address, uses no proxy and gives up on a request after 30 s.
 */
import { readFileSync } from 'node:fs'
import * as soap from 'soap'
import { LoopbackOnly, plain, type Json } from './node-soap-common'

interface Spec {
  wsdl: string
  service?: string
  port?: string
  binding?: string
  address?: string
  operation: string
  args?: unknown
  headers?: Array<string | { value: unknown, namespace: string }>
  soap12?: boolean
  wsse?: { username: string, password: string }
}

/** The SOAP fault in a node-soap error, as it surfaces it, or undefined. */
function faultOf (err: unknown): Json | undefined {
  const e = err as { message?: string, root?: { Envelope?: { Body?: { Fault?: unknown } } } }
  const fault = e?.root?.Envelope?.Body?.Fault
  return fault === undefined ? undefined : plain({ fault, message: e.message })
}

/**
 * The methods of a binding at `address`, as node-soap defines them for a port.
 * node-soap reads a binding's operations only for the bindings a wsdl:service
 * names: the script does the same for this one (postProcess, _definePort and
 * WSDL.definitions are not in its types).
 */
function portOf (client: soap.Client, binding: string, address: string): Record<string, (...args: unknown[]) => void> {
  interface Binding { methods?: Record<string, unknown>, postProcess: (definitions: unknown) => void }
  const { definitions } = client.wsdl as unknown as { definitions: { bindings: Record<string, Binding | undefined> } }
  const found = definitions.bindings[binding]
  if (found === undefined) throw new Error(`no binding ${binding} (there are ${Object.keys(definitions.bindings).join(', ')})`)
  if (Object.keys(found.methods ?? {}).length === 0) found.postProcess(definitions)
  const internal = client as unknown as { _definePort: (port: unknown, endpoint: string) => Record<string, (...args: unknown[]) => void> }
  return internal._definePort({ binding: found }, address)
}

async function run (spec: Spec, out: Record<string, Json>): Promise<void> {
  const http = new LoopbackOnly(new URL(spec.wsdl).origin)
  out.fetched = http.fetched
  const client = await soap.createClientAsync(spec.wsdl, { httpClient: http, forceSoap12Headers: spec.soap12 === true, handleNilAsNull: true })
  if (spec.wsse !== undefined) client.setSecurity(new soap.WSSecurity(spec.wsse.username, spec.wsse.password, { passwordType: 'PasswordDigest', hasNonce: true, hasTokenCreated: true, hasTimeStamp: true }))
  const last: { status: number | null, type: string | null } = { status: null, type: null }
  client.on('response', (_body: unknown, response: { status?: number, headers?: Record<string, unknown> } | null) => {
    last.status = response?.status ?? null
    const type = response?.headers?.['content-type']
    last.type = typeof type === 'string' ? type : null
  })
  // the addresses node-soap read from the WSDL's ports (WSDL.services is not in its types)
  const { services } = client.wsdl as unknown as { services: Record<string, { ports: Record<string, { location: string }> }> }
  out.ports = plain(Object.fromEntries(Object.entries(services).map(([name, s]) => [name, Object.fromEntries(Object.entries(s.ports).map(([p, v]) => [p, v.location]))])))
  for (const header of spec.headers ?? []) {
    if (typeof header === 'string') client.addSoapHeader(header)
    else client.addSoapHeader(header.value, '', 'hdr', header.namespace)
  }
  const port = spec.binding !== undefined ? portOf(client, spec.binding, spec.address ?? '') : client[spec.service ?? ''][spec.port ?? '']
  const outcome = await new Promise<{ err: unknown, result: unknown, raw: unknown }>((resolve) => {
    try {
      port[spec.operation](spec.args ?? {}, (err: unknown, result: unknown, raw: unknown) => { resolve({ err, result, raw }) })
    } catch (err) {
      resolve({ err, result: undefined, raw: undefined })
    }
  })
  const headers = (client.lastRequestHeaders ?? {}) as Record<string, unknown>
  out.contentType = plain(headers['Content-Type'])
  out.soapAction = plain(headers.SOAPAction)
  out.status = last.status
  out.responseType = last.type
  out.sent = plain(client.lastRequest)
  if (outcome.err === null || outcome.err === undefined) {
    out.result = plain(outcome.result)
    out.received = plain(outcome.raw)
    return
  }
  out.received = plain(client.lastResponse)
  const fault = faultOf(outcome.err)
  if (fault !== undefined) out.fault = fault
  out.error = String((outcome.err as Error)?.stack ?? outcome.err)
}

/** What the script prints: filled in as the run goes, printed once. */
const report: Record<string, Json> = {}
let printed = false

function print (): void {
  if (printed) return
  printed = true
  report.soap = (JSON.parse(readFileSync(require.resolve('soap/package.json'), 'utf8')) as { version: string }).version
  process.stdout.write(JSON.stringify(report) + '\n')
}

// node-soap fetches imports in callbacks: an address refused there (by LoopbackOnly) is thrown out of them.
process.on('uncaughtException', (err) => {
  report.error = String(err?.stack ?? err)
  print()
  process.exit(1)
})

async function main (): Promise<void> {
  const warnings: string[] = []
  for (const level of ['warn', 'error'] as const) {
    console[level] = (...args: unknown[]) => { warnings.push(`console.${level}: ${args.map(String).join(' ')}`) }
  }
  process.on('warning', (w) => { warnings.push(`${w.name}: ${w.message}`) })
  report.warnings = warnings
  try {
    await run(JSON.parse(process.argv[2] ?? '') as Spec, report)
  } catch (err) {
    // e.g. the WSDL refused
    report.error = String((err as Error)?.stack ?? err)
  }
  print()
}

main().catch((err) => {
  report.error = String(err?.stack ?? err)
  print()
  process.exitCode = 1
})
