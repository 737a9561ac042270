/**
 * What an MTOM upload costs the server in memory (docs/protocol.md
 * "MTOM/XOP"): a server in a process of its own, with `bodyLimit` raised,
 * takes one multipart/related request of MTOM_MB (100) MiB of attachment
 * over loopback HTTP; the client writes it in 1 MiB pieces, so that only the
 * server holds it whole. It reports the server's peak resident set
 * (`process.resourceUsage().maxRSS`) over its resident set before the
 * request, against the body's size, and exits 1 if the ratio is over 1.5.
 *
 *   npm run bench:mtom (npm run build && node --expose-gc dist/benchmarks/mtom/memory.js)
 */
import { fork, type ChildProcess } from 'node:child_process'
import { request } from 'node:http'
import { randomBytes } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import Fastify from 'fastify'
import soap from '../../lib/index'

const MIB = 1024 * 1024
const BOUNDARY = 'uuid:0f6e9c1d-memory'
const E12 = 'http://www.w3.org/2003/05/soap-envelope'
const XOP = 'http://www.w3.org/2004/08/xop/include'
const ROOT = `<s:Envelope xmlns:s="${E12}"><s:Body><m:Upload xmlns:m="urn:example:files">` +
  `<m:Data><xop:Include xmlns:xop="${XOP}" href="cid:data"/></m:Data></m:Upload></s:Body></s:Envelope>`

interface Usage { rss: number, maxRSS: number, size?: number }

async function serve (): Promise<void> {
  const app = Fastify({ bodyLimit: 256 * MIB })
  await app.register(soap, {
    routes: async (scope) => {
      scope.post('/upload', async (req, reply) => {
        const size = req.soap?.parts.get('data')?.length ?? -1
        return reply.soap(`<m:Size xmlns:m="urn:example:files">${size}</m:Size>`)
      })
    }
  })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const gc = (globalThis as { gc?: () => void }).gc
  gc?.()
  const send = (message: unknown): void => { process.send?.(message) }
  send({ port: (app.server.address() as AddressInfo).port, rss: process.memoryUsage().rss })
  process.on('message', () => {
    send({ rss: process.memoryUsage().rss, maxRSS: process.resourceUsage().maxRSS * 1024 } satisfies Usage)
    app.close().then(() => process.exit(0), () => process.exit(1))
  })
}

function next (child: ChildProcess): Promise<Usage & { port?: number }> {
  return new Promise((resolve, reject) => {
    const exit = (): void => reject(new Error('the server exited'))
    child.once('exit', exit)
    child.once('message', (message) => {
      child.off('exit', exit)
      resolve(message as Usage & { port: number })
    })
  })
}

async function upload (port: number, megabytes: number): Promise<string> {
  const head = Buffer.from(`--${BOUNDARY}\r\nContent-Type: application/xop+xml; charset=UTF-8; ` +
    `type="application/soap+xml"\r\nContent-ID: <root>\r\n\r\n${ROOT}\r\n--${BOUNDARY}\r\n` +
    'Content-Type: application/octet-stream\r\nContent-Transfer-Encoding: binary\r\nContent-ID: <data>\r\n\r\n', 'latin1')
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`, 'latin1')
  const piece = randomBytes(MIB)
  return await new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/upload',
      headers: {
        'content-type': `multipart/related; type="application/xop+xml"; boundary="${BOUNDARY}"; start="<root>"`,
        'content-length': head.length + megabytes * MIB + tail.length
      }
    }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => { text += chunk })
      res.on('end', () => resolve(`${res.statusCode} ${text}`))
    })
    req.on('error', reject)
    let sent = 0
    const write = (): void => {
      while (sent < megabytes) {
        sent++
        if (!req.write(piece)) {
          req.once('drain', write)
          return
        }
      }
      req.end(tail)
    }
    req.write(head)
    write()
  })
}

async function main (): Promise<void> {
  const megabytes = Number(process.env.MTOM_MB ?? 100)
  const child = fork(__filename, ['serve'], { execArgv: ['--expose-gc'] })
  const ready = await next(child)
  const answer = await upload(ready.port as number, megabytes)
  child.send('usage')
  const after = await next(child)
  const body = megabytes * MIB
  const ratio = (after.maxRSS - ready.rss) / body
  const mb = (n: number): string => (n / MIB).toFixed(1)
  console.log(`answer: ${answer.slice(0, 3)} ${/<m:Size[^>]*>(\d+)</.exec(answer)?.[1] ?? answer}`)
  console.log(`body ${mb(body)} MiB; server RSS before ${mb(ready.rss)} MiB, peak ${mb(after.maxRSS)} MiB, ` +
    `after ${mb(after.rss)} MiB; peak growth ${mb(after.maxRSS - ready.rss)} MiB = ${ratio.toFixed(2)} x the body`)
  if (!answer.startsWith('200') || ratio > 1.5) process.exitCode = 1
}

const run = process.argv[2] === 'serve' ? serve : main
run().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
