/**
 * Interop (docs/wsdl.md "Tested clients"): the node-soap client (npm `soap`) against the demo, from
 * its WSDL.
 *
 *     node dist/test/clients/node-soap.js BASE_URL SCENARIO
 *
 * SCENARIO is calc11, calc12, orders11, orders12, files11 or files12.
 * node-soap reads BASE_URL/calculator?wsdl, BASE_URL/orders?wsdl or
 * BASE_URL/files?wsdl and calls the operations
 * through the SOAP 1.1 or 1.2 port; the script prints one JSON line with what
 * node-soap got back (it asserts nothing: the Node test does).
 *
 * node-soap picks the SOAP version from the option `forceSoap12Headers` alone:
 * the port only gives the soapAction and the address. Without the option, a
 * call through the SOAP 1.2 port is sent as SOAP 1.1 (text/xml, SOAPAction
 * header, 1.1 envelope); with it, a call through either port is sent as
 * SOAP 1.2 (application/soap+xml; action="...", 1.2 envelope). So the 1.2
 * scenarios use both the SOAP 1.2 port and the option.
 *
 * `handleNilAsNull` makes node-soap give xsi:nil elements as null; without it
 * they are left out of the result, like absent ones.
 *
 * Every call is reported with the request's Content-Type and SOAPAction as
 * node-soap sent them and the HTTP status it got; a result as JSON (a Date as
 * {"Date": ISO string}); a SOAP fault as node-soap surfaces it (code, reason,
 * detail, the error's message); any other failure with the envelopes sent and
 * received. Anything node-soap writes to console.warn or console.error, and
 * process warnings, are reported under "warnings".
 *
 * node-soap reaches nothing but BASE_URL's origin: its HTTP client
 * (node-soap-common.ts) refuses any other address and uses no proxy.
 */
import { createHash, randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import * as soap from 'soap'
import { LoopbackOnly, plain, type Json } from './node-soap-common'

export const ECHO = 'héllo ✓ <&> 𝄞'

interface Session {
  client: soap.Client
  /** The last response's status and Content-Type, from node-soap's 'response' event. */
  last: { status: number | null, type: string | null }
  ports: Record<string, string>
}

async function open (base: string, path: string, service: string, soap12: boolean): Promise<Session> {
  const origin = new URL(base).origin
  const client = await soap.createClientAsync(`${base}/${path}?wsdl`, {
    // a multipart/related reply read as MTOM, its parts in lastResponseAttachments: an option of the HttpClient
    httpClient: new LoopbackOnly(origin, { parseResponseAttachments: path === 'files' }),
    forceSoap12Headers: soap12,
    handleNilAsNull: true
  })
  const session: Session = { client, last: { status: null, type: null }, ports: {} }
  client.on('response', (_body: unknown, response: { status?: number, headers?: Record<string, unknown> } | null) => {
    session.last = {
      status: response?.status ?? null,
      type: typeof response?.headers?.['content-type'] === 'string' ? response.headers['content-type'] : null
    }
  })
  // the addresses node-soap read from the WSDL's ports (WSDL.services is not in its types)
  const { services } = client.wsdl as unknown as { services: Record<string, { ports: Record<string, { location: string }> } | undefined> }
  const wsdlService = services[service]
  for (const [name, port] of Object.entries(wsdlService?.ports ?? {})) session.ports[name] = port.location
  return session
}

/** The SOAP fault in a node-soap error, as it surfaces it, or undefined. */
function faultOf (err: unknown): Json | undefined {
  const e = err as { message?: string, root?: { Envelope?: { Body?: { Fault?: Record<string, any> } } }, response?: { status?: number } }
  const fault = e?.root?.Envelope?.Body?.Fault
  if (fault === undefined) return undefined
  const text = (v: unknown): unknown => (v !== null && typeof v === 'object' && '$value' in v) ? (v as { $value: unknown }).$value : v
  return plain({
    // SOAP 1.1 faultcode, or SOAP 1.2 Code/Value
    code: text(fault.faultcode ?? fault.Code?.Value),
    subcode: text(fault.Code?.Subcode?.Value),
    // SOAP 1.1 faultstring, or SOAP 1.2 Reason/Text
    reason: text(fault.faultstring ?? fault.Reason?.Text),
    detail: fault.detail ?? fault.Detail,
    message: e.message,
    status: e.response?.status
  })
}

/** Calls `operation` through `port` and reports what node-soap sent and got. */
async function call (
  session: Session, service: string, port: string, operation: string, args: unknown, options?: Record<string, unknown>
): Promise<Record<string, Json>> {
  const { client } = session
  session.last = { status: null, type: null }
  client.lastRequest = undefined
  client.lastResponse = undefined
  client.lastRequestHeaders = undefined
  const outcome = await new Promise<{ err: unknown, result: unknown, raw: unknown }>((resolve) => {
    try {
      client[service][port][operation](args, (err: unknown, result: unknown, raw: unknown) => { resolve({ err, result, raw }) }, options)
    } catch (err) {
      resolve({ err, result: undefined, raw: undefined })
    }
  })
  const headers = (client.lastRequestHeaders ?? {}) as Record<string, unknown>
  const report: Record<string, Json> = {
    contentType: plain(headers['Content-Type']),
    soapAction: plain(headers.SOAPAction),
    status: session.last.status,
    responseType: session.last.type
  }
  if (outcome.err === null || outcome.err === undefined) {
    report.result = plain(outcome.result)
    report.body = plain(outcome.raw)
    return report
  }
  const fault = faultOf(outcome.err)
  if (fault !== undefined) {
    report.fault = fault
    return report
  }
  report.error = String((outcome.err as Error)?.stack ?? outcome.err)
  report.sent = plain(client.lastRequest)
  report.received = plain(client.lastResponse)
  return report
}

async function calculator (base: string, soap12: boolean): Promise<Record<string, Json>> {
  const port = soap12 ? 'CalculatorSoap12' : 'CalculatorSoap11'
  const session = await open(base, 'calculator', 'Calculator', soap12)
  return {
    port,
    ports: session.ports,
    add: await call(session, 'Calculator', port, 'Add', { a: 2, b: 3 }),
    echo: await call(session, 'Calculator', port, 'Echo', { text: ECHO }),
    divide: await call(session, 'Calculator', port, 'Divide', { a: 1, b: 0 })
  }
}

async function orders (base: string, soap12: boolean): Promise<Record<string, Json>> {
  const port = soap12 ? 'OrdersSoap12' : 'OrdersSoap11'
  const session = await open(base, 'orders', 'Orders', soap12)
  // The Tenant header block, in its namespace; node-soap sends it with every call.
  session.client.addSoapHeader({ Tenant: { id: 'acme' } }, '', 'tns', 'urn:example:orders')
  const placeOrder = await call(session, 'Orders', port, 'PlaceOrder', {
    customer: { name: 'Zoë Ångström', email: 'zoe@example.org', vip: true },
    line: [
      // node-soap puts an element's attributes under `attributes`
      { attributes: { sku: 'AB-12' }, quantity: 2, unitPrice: 9.5, note: null },
      { attributes: { sku: 'ZZ-9' }, quantity: 3, unitPrice: 0.25, note: 'gift wrap' }
    ],
    priority: 'high',
    deliveryDate: '2030-01-15',
    // the wrapped array: the wrapper element holds the repeated item elements
    tags: { tags: ['red', 'fragile'] },
    giftMessage: null
  })
  const out: Record<string, Json> = { port, ports: session.ports, placeOrder, placeOrderSent: plain(session.client.lastRequest) }
  const placed = placeOrder.result as { attributes?: { orderId?: unknown } } | null | undefined
  const orderId = placed?.attributes?.orderId
  if (typeof orderId !== 'string') return out
  out.getOrder = await call(session, 'Orders', port, 'GetOrder', { orderId })
  out.unknown = await call(session, 'Orders', port, 'GetOrder', { orderId: 'nope-0' })
  out.cancel = await call(session, 'Orders', port, 'CancelOrder', { orderId })
  out.cancelSent = plain(session.client.lastRequest)
  out.afterCancel = await call(session, 'Orders', port, 'GetOrder', { orderId })
  return out
}

const XOP = 'http://www.w3.org/2004/08/xop/include'
const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex')

/**
 * The bytes of a binary result: its base64 text, or, in an MTOM reply, the
 * part its xop:Include names (node-soap reads the Include as an element, and
 * keeps the parts after the root in lastResponseAttachments).
 */
function downloaded (session: Session, content: unknown): { bytes: Buffer, as: 'inline' | 'part' } | undefined {
  if (typeof content === 'string') return { bytes: Buffer.from(content, 'base64'), as: 'inline' }
  const href = (content as { Include?: { attributes?: { href?: unknown } } } | undefined)?.Include?.attributes?.href
  if (typeof href !== 'string' || !href.startsWith('cid:')) return undefined
  const { lastResponseAttachments } = session.client as unknown as { lastResponseAttachments?: { parts: Array<{ headers: Record<string, string>, body: Buffer }> } }
  const part = lastResponseAttachments?.parts.find((p) => p.headers['content-id'] === `<${decodeURIComponent(href.slice(4))}>`)
  return part === undefined ? undefined : { bytes: part.body, as: 'part' }
}

/**
 * Files as MTOM: node-soap sends a part with the `attachments` option, the
 * `xop:Include` that names it written into `content` as raw XML (`$xml`); the
 * Download with `forceMTOM` (the envelope alone, as the root part) and
 * `parseResponseAttachments`. 200 KB of random bytes, then every byte value.
 */
async function files (base: string, soap12: boolean): Promise<Record<string, Json>> {
  const port = soap12 ? 'FilesSoap12' : 'FilesSoap11'
  const session = await open(base, 'files', 'Files', soap12)
  const bytes = Buffer.concat([randomBytes(200_000), Buffer.from(Array.from({ length: 256 }, (_v, i) => i))])
  const name = `node-soap-${soap12 ? '1.2' : '1.1'}.bin`
  const id = 'content@node-soap.example.org'
  const attachments = [{ mimetype: 'application/octet-stream', contentId: id, name, body: bytes }]
  const upload = await call(session, 'Files', port, 'Upload', { name, content: { $xml: `<xop:Include xmlns:xop="${XOP}" href="cid:${id}"/>` } }, { attachments })
  const download = await call(session, 'Files', port, 'Download', { name }, { forceMTOM: true })
  const back = downloaded(session, (download.result as { content?: unknown } | null | undefined)?.content)
  delete download.result
  delete download.body
  return {
    port,
    sent: { size: bytes.length, sha256: sha256(bytes) },
    upload,
    download,
    downloaded: back === undefined ? null : { size: back.bytes.length, sha256: sha256(back.bytes), same: back.bytes.equals(bytes), as: back.as },
    unknown: await call(session, 'Files', port, 'Download', { name: 'never.bin' }, { forceMTOM: true })
  }
}

async function main (): Promise<void> {
  const [base, scenario] = [process.argv[2] ?? '', process.argv[3] ?? '']
  const scenarios: Record<string, [typeof calculator, boolean]> = {
    calc11: [calculator, false],
    calc12: [calculator, true],
    orders11: [orders, false],
    orders12: [orders, true],
    files11: [files, false],
    files12: [files, true]
  }
  const warnings: string[] = []
  for (const level of ['warn', 'error'] as const) {
    console[level] = (...args: unknown[]) => { warnings.push(`console.${level}: ${args.map(String).join(' ')}`) }
  }
  process.on('warning', (w) => { warnings.push(`${w.name}: ${w.message}`) })
  const version = (JSON.parse(readFileSync(require.resolve('soap/package.json'), 'utf8')) as { version: string }).version
  let out: Record<string, Json>
  const entry = scenarios[scenario]
  if (entry === undefined) {
    out = { error: `unknown scenario ${JSON.stringify(scenario)}: calc11, calc12, orders11, orders12, files11 or files12` }
  } else {
    try {
      out = await entry[0](base.replace(/\/+$/, ''), entry[1])
    } catch (err) {
      // e.g. the WSDL refused
      out = { error: String((err as Error)?.stack ?? err) }
    }
  }
  out.warnings = warnings
  out.scenario = scenario
  out.soap = version
  process.stdout.write(JSON.stringify(out) + '\n')
}

main().catch((err) => {
  process.stdout.write(JSON.stringify({ error: String(err?.stack ?? err) }) + '\n')
  process.exitCode = 1
})
