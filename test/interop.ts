/**
 * Interop with real, third-party SOAP clients (docs/wsdl.md "Tested clients"): the demo on a
 * loopback port, every exchange recorded on the server, and each client run
 * as a small script of its own language that prints one JSON object.
 *
 * A client that is not installed fails the test in CI (CI=true) and skips it,
 * with the reason printed, elsewhere. `.ci/run` installs them all.
 */
import { execFile, spawn, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { TestContext } from 'node:test'
import type { FastifyInstance } from 'fastify'
import type { SoapVersion } from '../lib/index'
import { buildDemo } from './demo/app'
import { SOAP11_ENV, SOAP12_ENV, missing } from './helper'

/** The scripts' folder, in the source tree (they are not compiled). */
export const CLIENTS = join(__dirname, '..', '..', 'test', 'clients')

/** One request and its answer, as the server saw them. */
export interface Exchange {
  readonly method: string
  readonly url: string
  readonly requestType: string | undefined
  readonly soapAction: string | undefined
  readonly status: number
  readonly responseType: string | undefined
  readonly responseBody: string
  /** The reply's bytes, as sent: an MTOM reply's parts are bytes, not text. */
  readonly responseBytes: Buffer
}

/** Records every exchange of `app` as the server sends it, in order. */
export function recordExchanges (app: FastifyInstance): Exchange[] {
  const exchanges: Exchange[] = []
  app.addHook('onSend', async (request, reply, payload) => {
    exchanges.push({
      method: request.method,
      url: request.url,
      requestType: request.headers['content-type'],
      soapAction: request.headers.soapaction as string | undefined,
      status: reply.statusCode,
      responseType: reply.getHeader('content-type') as string | undefined,
      responseBody: typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '',
      responseBytes: typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : Buffer.alloc(0)
    })
    return payload
  })
  return exchanges
}

/**
 * An MTOM reply (docs/protocol.md "MTOM replies") cut by hand at its
 * Content-Type's boundary: the SOAP media type its start-info names, the
 * root part's envelope, and the other parts' bytes in order. Undefined
 * when the reply is not multipart/related.
 */
export function mtomReply (
  e: Pick<Exchange, 'responseType' | 'responseBytes'>
): { startInfo: string | undefined, root: string, parts: Buffer[] } | undefined {
  const type = e.responseType ?? ''
  const boundary = /^multipart\/related;.*\bboundary="([^"]+)"/.exec(type)?.[1]
  if (boundary === undefined) return undefined
  const body = e.responseBytes
  const delimiter = Buffer.from(`\r\n--${boundary}`)
  const pieces: Buffer[] = []
  // The body starts with --boundary; each part runs to the next CRLF --boundary; the last is followed by --.
  let at = Buffer.from(`--${boundary}`).length - delimiter.length
  for (let next = body.indexOf(delimiter, at + delimiter.length); next !== -1 && pieces.length <= 100; next = body.indexOf(delimiter, at + delimiter.length)) {
    pieces.push(body.subarray(at + delimiter.length + 2, next))
    at = next
  }
  const contents = pieces.map((piece) => piece.subarray(piece.indexOf('\r\n\r\n') + 4))
  return { startInfo: /start-info="([^"]+)"/.exec(type)?.[1], root: contents[0]?.toString('utf8') ?? '', parts: contents.slice(1) }
}

/**
 * Starts the demo on 127.0.0.1 with every exchange recorded, after `extend`
 * (more services) when given; closed when the test ends.
 */
export async function startDemo (t: TestContext, extend?: (app: FastifyInstance) => void): Promise<{ url: string, exchanges: Exchange[] }> {
  const app = await buildDemo({ logger: false })
  extend?.(app)
  const exchanges = recordExchanges(app)
  const url = await app.listen({ host: '127.0.0.1', port: 0 })
  t.after(() => app.close())
  return { url, exchanges }
}

/**
 * docs/protocol.md "Versions": a reply is always in the request's version. Checks
 * every POST recorded, by its Content-Type and its envelope's namespace (most
 * clients look at neither), and returns how many were checked of each version.
 */
export function assertRepliesInRequestVersion (t: TestContext, exchanges: readonly Exchange[]): Record<SoapVersion, number> {
  const counts: Record<SoapVersion, number> = { 1.1: 0, 1.2: 0 }
  for (const e of exchanges) {
    if (e.method !== 'POST') continue
    const version: SoapVersion = e.requestType?.toLowerCase().startsWith('application/soap+xml') === true ? '1.2' : '1.1'
    counts[version]++
    if (e.status === 202) {
      t.assert.strictEqual(e.responseBody, '', `${e.url}: a one-way answer has no body`)
      continue
    }
    const [media, envelope] = version === '1.2' ? ['application/soap+xml', SOAP12_ENV] : ['text/xml', SOAP11_ENV]
    t.assert.strictEqual(e.responseType, `${media}; charset=utf-8`, `${e.url} (${version}): the reply's Content-Type`)
    t.assert.match(e.responseBody, new RegExp(`<soap:Envelope xmlns:soap="${envelope.replace(/[.]/g, '\\.')}"`), `${e.url} (${version}): the reply's envelope namespace`)
  }
  return counts
}

/**
 * Whether a client is installed, by a probe command. When it is not,
 * missing() (test/helper.ts): the test is skipped with one line naming it,
 * and fails under CI.
 */
export function requireClient (t: TestContext, name: string, command: string, args: readonly string[]): boolean {
  const probe = spawnSync(command, args, { encoding: 'utf8', timeout: 30_000 })
  if (probe.error === undefined && probe.status === 0) return true
  missing(t, `${name} is not installed (${command} ${args.join(' ')}: ${probe.error?.message ?? probe.stderr.trim().split('\n').pop() ?? ''}); .ci/run installs it`)
  return false
}

/** Runs a client script (at most 60 s) and parses the JSON object it prints last. */
export async function runClient (command: string, args: readonly string[]): Promise<Record<string, unknown>> {
  return await new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 })
    let out = ''
    let err = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { out += chunk })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { err += chunk })
    child.on('error', reject)
    child.on('close', (code, signal) => {
      const last = out.trim().split('\n').pop() ?? ''
      try {
        resolve(JSON.parse(last) as Record<string, unknown>)
      } catch {
        reject(new Error(`${command} ${args.join(' ')} exited ${code ?? signal} without a JSON line:\n${out}\n${err}`))
      }
    })
  })
}

/**
 * Runs one build step of a client (wsimport, javac, mcs, svcutil: at most
 * 120 s), without blocking the loop the demo answers `?wsdl` on; rejects
 * with its output when it fails.
 */
export async function buildStep (command: string, args: readonly string[], cwd?: string): Promise<void> {
  await promisify(execFile)(command, args, { encoding: 'utf8', timeout: 120_000, cwd })
}
