import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import type { TestContext } from 'node:test'
import Fastify, { type FastifyInstance, type FastifyServerOptions, type FastifyPluginAsync, type InjectOptions, type LightMyRequestResponse } from 'fastify'
import { validateXML } from 'xmllint-wasm'
import soap, { errorCodes, SOAP11_ENV, SOAP12_ENV, type FastifySoapOptions, type SoapServiceDefinition, type SoapVersion } from '../lib/index'
import { underCI } from './ci'

export { SOAP11_ENV, SOAP12_ENV }

/** The project's own fixtures (golden exchanges, wire captures), in the source tree (fixtures are not compiled). */
export const FIXTURES = join(__dirname, '..', '..', 'test', 'fixtures')

/**
 * The fixtures copied from other public projects (a WSDL corpus in `wsdl/`,
 * the W3C, xmlsoap and OASIS schemas in `schemas/`) stay outside the
 * repository: CI clones them beside the checkout, at ../shared/fixtures from
 * the repository root. Read them through sharedFixture() only.
 */
const SHARED_FIXTURES = join(__dirname, '..', '..', '..', 'shared', 'fixtures')

/**
 * What a test needs and this machine lacks (a system tool, the shared
 * fixtures), in one line naming it: under CI (test/ci.ts) the test fails
 * with that line; elsewhere it is marked skipped with it, and the caller
 * returns or goes on without what was missing.
 */
export function missing (t: TestContext, reason: string): void {
  if (underCI()) t.assert.fail(`${reason} (under CI every test runs)`)
  t.skip(reason)
}

/** The path of a file or folder of the shared fixtures, or undefined when it is not there (a benchmark's lookup; tests use sharedFixture()). */
export function sharedFixturePath (...segments: string[]): string | undefined {
  const path = join(SHARED_FIXTURES, ...segments)
  return existsSync(path) ? path : undefined
}

/**
 * The path of a file or folder of the shared fixtures: `sharedFixture(t,
 * 'wsdl', 'ocpp16')` is ../shared/fixtures/wsdl/ocpp16. When it is not
 * there, missing(): the test is skipped with one line naming what is missing
 * (under CI it fails), and undefined returned (the test returns, or goes on
 * without what needed it).
 */
export function sharedFixture (t: TestContext, ...segments: string[]): string | undefined {
  const path = sharedFixturePath(...segments)
  if (path !== undefined) return path
  missing(t, `${['../shared/fixtures', ...segments].join('/')} is not beside this checkout`)
  return undefined
}

export const MEDIA: Record<SoapVersion, string> = {
  1.1: 'text/xml; charset=utf-8',
  1.2: 'application/soap+xml; charset=utf-8'
}

export function envNs (version: SoapVersion): string {
  return version === '1.1' ? SOAP11_ENV : SOAP12_ENV
}

/** An envelope with prefix `s`, optional Header content and Body content. */
export function envelope (version: SoapVersion, body = '', header?: string, envelopeAttributes = ''): string {
  const head = header === undefined ? '' : `<s:Header>${header}</s:Header>`
  return `<?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s="${envNs(version)}"${envelopeAttributes}>${head}<s:Body>${body}</s:Body></s:Envelope>`
}

/** A route that answers what `request.soap` holds, as XML text the tests can read back. */
export const echoRoutes: FastifyPluginAsync = async (app) => {
  app.post('/echo', async (request, reply) => {
    const soapContext = request.soap
    if (soapContext === null) throw new Error('request.soap is null on a decoded request')
    const payload = soapContext.payload
    const summary = JSON.stringify({
      version: soapContext.version,
      action: soapContext.action ?? null,
      payload: payload === undefined ? null : `{${payload.namespace}}${payload.localName}`,
      headers: soapContext.headers.map((h) => h.key)
    })
    return reply.soap(`<t:Decoded xmlns:t="urn:test">${summary.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</t:Decoded>`)
  })
}

export interface Decoded {
  version: SoapVersion
  action: string | null
  payload: string | null
  headers: string[]
}

/** Reads the summary `echoRoutes` wrote. */
export function decodedOf (body: string): Decoded {
  const match = /<t:Decoded xmlns:t="urn:test">(.*)<\/t:Decoded>/s.exec(body)
  if (match === null) throw new Error('no summary in ' + body)
  return JSON.parse(match[1].replace(/&lt;/g, '<').replace(/&amp;/g, '&'))
}

export async function buildApp (
  t: TestContext,
  options: FastifySoapOptions = {},
  fastifyOptions: FastifyServerOptions = {}
): Promise<FastifyInstance> {
  const app = Fastify(fastifyOptions)
  await app.register(soap, { routes: echoRoutes, ...options })
  t.after(() => app.close())
  await app.ready()
  return app
}

/** An app serving one service, the plugin registered with its defaults; closed when the test ends. */
export async function serviceApp (
  t: TestContext, definition: SoapServiceDefinition, fastifyOptions: FastifyServerOptions = {}
): Promise<FastifyInstance> {
  const app = Fastify(fastifyOptions)
  t.after(() => app.close())
  await app.register(soap)
  app.soap.service(definition)
  await app.ready()
  return app
}

/**
 * Each case's value, made a service by `definition`, fails ready() with SOAP_ERR_SERVICE_INVALID, its message
 * holding the case's key.
 */
export async function assertServiceInvalid<T> (
  t: TestContext, cases: Record<string, T>, definition: (value: T) => SoapServiceDefinition
): Promise<void> {
  for (const [message, value] of Object.entries(cases)) {
    const app = Fastify()
    t.after(() => app.close())
    await app.register(soap)
    app.soap.service(definition(value))
    const err = await app.ready().then(() => undefined, (e: Error) => e)
    t.assert.ok(err instanceof errorCodes.SOAP_ERR_SERVICE_INVALID, message)
    t.assert.ok(err.message.includes(message), `${message}: ${err.message}`)
  }
}

export interface PostOptions {
  url?: string
  contentType?: string
  headers?: Record<string, string>
}

export function post (
  app: FastifyInstance,
  version: SoapVersion,
  payload: string | Buffer,
  options: PostOptions = {}
): Promise<LightMyRequestResponse> {
  const request: InjectOptions = {
    method: 'POST',
    url: options.url ?? '/echo',
    headers: { 'content-type': options.contentType ?? MEDIA[version], ...options.headers },
    payload
  }
  return app.inject(request)
}

/** The answer to an undecodable request: docs/protocol.md "Decoding". */
export function assertEmpty (t: TestContext, response: { statusCode: number, headers: Record<string, unknown>, rawPayload?: Buffer, body: string }, status: number): void {
  t.assert.strictEqual(response.statusCode, status, `status ${response.statusCode}, body ${response.body.slice(0, 200)}`)
  t.assert.strictEqual(String(response.headers['content-length']), '0')
  t.assert.strictEqual(response.body, '')
  t.assert.strictEqual(response.headers['content-type'], undefined)
}

export async function listen (app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

export interface RawResponse {
  status: number
  headers: Record<string, string>
  body: Buffer
}

/**
 * Writes raw bytes to 127.0.0.1:port and reads `count` HTTP/1.1 responses
 * (each with a Content-Length), or as many as come before the server closes.
 */
export function rawExchange (port: number, bytes: Buffer | string, count: number, timeoutMs = 5000, halfClose = false): Promise<RawResponse[]> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' })
    let data = Buffer.alloc(0)
    const responses: RawResponse[] = []
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`timed out after ${timeoutMs} ms with ${responses.length} of ${count} responses`))
    }, timeoutMs)
    const finish = (): void => {
      clearTimeout(timer)
      socket.destroy()
      resolve(responses)
    }
    const parse = (): void => {
      for (;;) {
        const end = data.indexOf('\r\n\r\n')
        if (end === -1) return
        const lines = data.subarray(0, end).toString('latin1').split('\r\n')
        const status = Number(lines[0].split(' ')[1])
        const headers: Record<string, string> = {}
        for (const line of lines.slice(1)) {
          const colon = line.indexOf(':')
          headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
        }
        const length = Number(headers['content-length'] ?? 0)
        if (data.length < end + 4 + length) return
        responses.push({ status, headers, body: data.subarray(end + 4, end + 4 + length) })
        data = data.subarray(end + 4 + length)
        if (responses.length === count) { finish(); return }
      }
    }
    socket.on('data', (chunk) => { data = Buffer.concat([data, chunk]); parse() })
    socket.on('error', () => finish())
    socket.on('close', () => finish())
    if (halfClose) socket.end(bytes); else socket.write(bytes)
  })
}

let nativeXmllint: boolean | undefined

/**
 * Validates a whole envelope against the SOAP envelope schema of its version
 * (../shared/fixtures/schemas) with libxml2's xmllint: the system's (Debian
 * libxml2-utils, fast) when it is installed, else the same tool compiled to
 * WebAssembly (xmllint-wasm, a dev dependency). Undefined, and the test
 * skipped (failed under CI), when the schemas are not there: sharedFixture().
 */
export async function validateEnvelope (t: TestContext, xml: string, version: SoapVersion): Promise<{ valid: boolean, output: string } | undefined> {
  const name = version === '1.1' ? 'soap-envelope-1.1.xsd' : 'soap-envelope-1.2.xsd'
  const schema = sharedFixture(t, 'schemas', name)
  if (schema === undefined) return undefined
  // XMLLINT=wasm forces the WebAssembly build, to test this path where xmllint is installed.
  nativeXmllint ??= process.env.XMLLINT !== 'wasm' && spawnSync('xmllint', ['--version'], { timeout: 10_000 }).error === undefined
  if (nativeXmllint) {
    const result = spawnSync('xmllint', ['--noout', '--nonet', '--schema', schema, '-'], { input: xml, encoding: 'utf8', timeout: 10_000 })
    return { valid: result.status === 0, output: result.stderr }
  }
  const read = (file: string): { fileName: string, contents: string } => ({ fileName: file, contents: readFileSync(join(schema, '..', file), 'utf8') })
  const result = await validateXML({ xml: [{ fileName: 'envelope.xml', contents: xml }], schema: [read(name)], preload: [read('xml.xsd')] })
  return { valid: result.valid, output: result.errors.map((e) => e.rawMessage).join('\n') }
}

/**
 * Validates a whole envelope with xmllint against the envelope schema of its
 * version together with the WS-Addressing 1.0 and WS-Security schemas
 * (../shared/fixtures/schemas/recipes/driver-soap1x.xsd), so that header
 * blocks and fault details of those vocabularies are checked too: the
 * envelope's wildcards are lax. Undefined, and the test skipped (failed
 * under CI), without xmllint or the schemas.
 */
export function validateWithVocabularies (t: TestContext, xml: string, version: SoapVersion): { valid: boolean, output: string } | undefined {
  const driver = sharedFixture(t, 'schemas', 'recipes', version === '1.1' ? 'driver-soap11.xsd' : 'driver-soap12.xsd')
  if (driver === undefined || !requireXmllint(t)) return undefined
  const result = spawnSync('xmllint', ['--noout', '--nonet', '--schema', driver, '-'], { input: xml, encoding: 'utf8', timeout: 30_000 })
  return { valid: result.status === 0, output: result.stderr }
}

/** Whether the system's xmllint is installed; when it is not, missing(). */
export function requireXmllint (t: TestContext): boolean {
  if (spawnSync('xmllint', ['--version'], { timeout: 10_000 }).error === undefined) return true
  missing(t, 'xmllint (libxml2-utils) is not installed; .ci/run installs it')
  return false
}

/**
 * Asserts that an envelope validates against the SOAP envelope schema of its
 * version (validateEnvelope()); when the schemas are not there, the test is
 * marked skipped and its other checks still run.
 */
export async function assertValidEnvelope (t: TestContext, xml: string, version: SoapVersion, message?: string): Promise<void> {
  const result = await validateEnvelope(t, xml, version)
  if (result === undefined) return
  t.assert.ok(result.valid, message === undefined ? result.output : `${message}: ${result.output}`)
}

/** One HTTP/1.1 request as a capture holds it (test/fixtures/wire/README.md), its body de-chunked. */
export interface CapturedRequest {
  method: string
  /** The request target, as sent: `/calc`, `/calc?wsdl`. */
  target: string
  /** Header names in lower case. */
  headers: Record<string, string>
  body: Buffer
}

/** Splits a capture file into its connections' raw bytes (README: `# connection N (B bytes)` then B bytes). */
export function captureConnections (file: Buffer): Buffer[] {
  const out: Buffer[] = []
  let at = 0
  // Each connection takes at least one byte of the file: the loop ends.
  for (let guard = 0; guard <= file.length; guard++) {
    const mark = file.indexOf('# connection ', at)
    if (mark === -1) return out
    const eol = file.indexOf('\n', mark)
    const size = Number(/\((\d+) bytes\)/.exec(file.subarray(mark, eol === -1 ? file.length : eol).toString('latin1'))?.[1])
    if (eol === -1 || !Number.isSafeInteger(size) || eol + 1 + size > file.length) throw new Error(`malformed connection mark at byte ${mark}`)
    out.push(file.subarray(eol + 1, eol + 1 + size))
    at = eol + 1 + size
  }
  throw new Error('capture file: too many connections')
}

/** Reads the HTTP/1.1 requests in a connection's bytes, de-chunking bodies. */
export function captureRequests (bytes: Buffer): CapturedRequest[] {
  const out: CapturedRequest[] = []
  let at = 0
  // Each request takes at least its blank line: the loops end.
  for (let guard = 0; at < bytes.length && guard <= bytes.length; guard++) {
    const end = bytes.indexOf('\r\n\r\n', at)
    if (end === -1) throw new Error(`no end of headers after byte ${at}`)
    const lines = bytes.subarray(at, end).toString('latin1').split('\r\n')
    const headers: Record<string, string> = {}
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':')
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
    }
    at = end + 4
    const chunks: Buffer[] = []
    if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
      for (let chunk = 0; ; chunk++) {
        const lineEnd = bytes.indexOf('\r\n', at)
        const size = parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16)
        if (lineEnd === -1 || !Number.isSafeInteger(size) || size < 0 || chunk > bytes.length) throw new Error(`malformed chunk at byte ${at}`)
        at = lineEnd + 2
        if (size === 0) { at += 2; break }
        chunks.push(bytes.subarray(at, at + size))
        at += size + 2
      }
    } else {
      const length = Number(headers['content-length'] ?? 0)
      if (!Number.isSafeInteger(length) || at + length > bytes.length) throw new Error(`bad Content-Length ${headers['content-length']}`)
      chunks.push(bytes.subarray(at, at + length))
      at += length
    }
    const [method, target] = lines[0].split(' ')
    out.push({ method, target, headers, body: Buffer.concat(chunks) })
  }
  return out
}

// --------------------------------------------------------------- contracts ---

/** The namespaces of the contracts contractWsdl() writes: its elements' (prefix k), and another (prefix u). */
export const CONTRACT_NS = 'urn:k'
export const CONTRACT_NS_U = 'urn:u'

/** The types of contractWsdl()'s default operation: `k:Op` holds `a`, `k:OpResponse` holds `b`. */
export const OP_TYPES = `<xs:schema targetNamespace="${CONTRACT_NS}" elementFormDefault="qualified">
      <xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="a" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
      <xs:element name="OpResponse"><xs:complexType><xs:sequence><xs:element name="b" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
    </xs:schema>`

/** A WSDL 1.1 document around the given parts; the defaults make one document/literal operation `Op` (`k:Op` in, `k:OpResponse` out). */
export function contractWsdl (parts: { types?: string, messages?: string, portType?: string, binding?: string, service?: string, extra?: string }): string {
  const types = parts.types ?? OP_TYPES
  return `<?xml version="1.0" encoding="UTF-8"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/" xmlns:xs="http://www.w3.org/2001/XMLSchema"
  xmlns:k="${CONTRACT_NS}" xmlns:u="${CONTRACT_NS_U}" xmlns:tns="urn:svc" targetNamespace="urn:svc">
  ${parts.extra ?? ''}
  <wsdl:types>${types}</wsdl:types>
  ${parts.messages ?? `<wsdl:message name="In"><wsdl:part name="p" element="k:Op"/></wsdl:message>
  <wsdl:message name="Out"><wsdl:part name="p" element="k:OpResponse"/></wsdl:message>`}
  ${parts.portType ?? '<wsdl:portType name="PT"><wsdl:operation name="Op"><wsdl:input message="tns:In"/><wsdl:output message="tns:Out"/></wsdl:operation></wsdl:portType>'}
  ${parts.binding ?? `<wsdl:binding name="B" type="tns:PT"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <wsdl:operation name="Op"><soap:operation soapAction="urn:svc/Op"/><wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output></wsdl:operation>
  </wsdl:binding>`}
  ${parts.service ?? '<wsdl:service name="S"><wsdl:port name="P" binding="tns:B"><soap:address location="http://example.invalid/old"/></wsdl:port></wsdl:service>'}
</wsdl:definitions>`
}

/**
 * A contract of one operation `Post(event: Event)` (docs/contract-first.md "Derived types"): `Event` has 16 optional
 * elements (`key`, `f1`…`f15`) and `n` types extend it, `Event1`…`Event<n>`, each with one element of its own
 * (`extra1`…`extra<n>`). `Post` answers with an empty `PostResponse`.
 */
export function derivedContract (n: number): string {
  const fields = ['key', ...Array.from({ length: 15 }, (_, i) => `f${i + 1}`)]
    .map((name) => `<xs:element name="${name}" type="xs:string" minOccurs="0"/>`).join('')
  let derived = ''
  for (let i = 1; i <= n; i++) {
    derived += `<xs:complexType name="Event${i}"><xs:complexContent><xs:extension base="k:Event">` +
      `<xs:sequence><xs:element name="extra${i}" type="xs:string"/></xs:sequence>` +
      '</xs:extension></xs:complexContent></xs:complexType>'
  }
  const types = `<xs:schema targetNamespace="${CONTRACT_NS}" elementFormDefault="qualified">
    <xs:complexType name="Event"><xs:sequence>${fields}</xs:sequence></xs:complexType>${derived}
    <xs:element name="Post"><xs:complexType><xs:sequence>
      <xs:element name="event" type="k:Event"/>
    </xs:sequence></xs:complexType></xs:element>
    <xs:element name="PostResponse"><xs:complexType><xs:sequence/></xs:complexType></xs:element>
  </xs:schema>`
  return contractWsdl({
    types,
    messages: '<wsdl:message name="In"><wsdl:part name="p" element="k:Post"/></wsdl:message>' +
      '<wsdl:message name="Out"><wsdl:part name="p" element="k:PostResponse"/></wsdl:message>',
    portType: '<wsdl:portType name="PT"><wsdl:operation name="Post"><wsdl:input message="tns:In"/>' +
      '<wsdl:output message="tns:Out"/></wsdl:operation></wsdl:portType>',
    binding: '<wsdl:binding name="B" type="tns:PT">' +
      '<soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>' +
      '<wsdl:operation name="Post"><soap:operation soapAction="urn:svc/Post"/>' +
      '<wsdl:input><soap:body use="literal"/></wsdl:input><wsdl:output><soap:body use="literal"/></wsdl:output>' +
      '</wsdl:operation></wsdl:binding>'
  })
}
