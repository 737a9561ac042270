/**
 * `npm run flood`: a flood of requests with a ReplyTo at a partner that
 * accepts connections and never answers, everything on 127.0.0.1
 * (docs/addressing.md "Bounds"). The server runs in its own process with
 * the default caps; FLOOD_REQUESTS (2,000) requests, FLOOD_CONCURRENCY (32)
 * at a time, each with a reference parameter of FLOOD_PARAMETER_BYTES
 * (256 KiB); FLOOD_ANONYMOUS=1 runs the control. `flood()` is the same run,
 * for the test suite. It reports the answers by status, the most connections the
 * partner saw open at once, and the server's memory before, at its peak and
 * after; it exits 1 if the connections pass the service's cap or the memory
 * grows past BOUNDS.
 */
import { fork, type ChildProcess } from 'node:child_process'
import { Agent, request } from 'node:http'
import { createServer, type Socket } from 'node:net'
import { once } from 'node:events'
import { join } from 'node:path'
import { ASYNC_DEFAULTS } from '../../lib/ws/addressing/options'

export interface FloodOptions {
  readonly requests: number
  readonly concurrency: number
  readonly parameterBytes: number
  /** The control: the same requests answered on their connection (what decoding them costs, with no reply in flight). */
  readonly anonymous: boolean
}
const MiB = 1024 * 1024
const WARM_UP = 200

/**
 * The bounds a run must stay within: the service's cap on connections; the
 * memory live after the flood (replies in flight, each held as its bytes)
 * within twice the service's byte cap plus 16 MiB, and the peak RSS within
 * twice the byte cap plus 64 MiB. The margins are what the flood costs with
 * no reply in flight: the control (FLOOD_ANONYMOUS=1, every request answered
 * on its connection) leaves about +12 MiB live, and decoding
 * 32 requests of 256 KiB at once peaks at about +45 MiB RSS.
 */
export const BOUNDS = {
  sockets: ASYNC_DEFAULTS.maxInFlight,
  liveGrowthMiB: (2 * ASYNC_DEFAULTS.maxBytes) / MiB + 16,
  rssGrowthMiB: (2 * ASYNC_DEFAULTS.maxBytes) / MiB + 64
}

interface Stats { rss: number, heapUsed: number, external: number, arrayBuffers: number, maxRss: number }

function ask (child: ChildProcess): Promise<Stats> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.off('message', onMessage); reject(new Error('no stats in 5 s')) }, 5000)
    const onMessage = (message: unknown): void => {
      if (typeof message !== 'object' || message === null || !('rss' in message)) return
      clearTimeout(timer)
      child.off('message', onMessage)
      resolve(message as Stats)
    }
    child.on('message', onMessage)
    child.send('stats')
  })
}

function envelope (partner: string | undefined, id: number, parameterBytes: number): string {
  const wsa = 'http://www.w3.org/2005/08/addressing'
  return '<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope"><s:Header>' +
    `<wsa:Action xmlns:wsa="${wsa}">urn:example:calc/Add</wsa:Action>` +
    `<wsa:MessageID xmlns:wsa="${wsa}">urn:uuid:00000000-0000-4000-8000-${String(id).padStart(12, '0')}</wsa:MessageID>` +
    `<wsa:ReplyTo xmlns:wsa="${wsa}"><wsa:Address>${partner ?? `${wsa}/anonymous`}</wsa:Address><wsa:ReferenceParameters>` +
    `<c:Corr xmlns:c="urn:client">${'x'.repeat(parameterBytes)}</c:Corr></wsa:ReferenceParameters></wsa:ReplyTo>` +
    '</s:Header><s:Body><c:Add xmlns:c="urn:example:calc"><c:a>1</c:a><c:b>2</c:b></c:Add></s:Body></s:Envelope>'
}

function send (agent: Agent, port: number, body: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/calc', method: 'POST', agent, headers: { 'content-type': 'application/soap+xml; charset=utf-8', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode as number))
    })
    req.setTimeout(10_000, () => req.destroy())
    req.on('error', () => resolve(0))
    req.end(body)
  })
}

export interface FloodReport {
  requests: number
  parameterBytes: number
  seconds: number
  statuses: Record<string, number>
  partnerSocketsMax: number
  rssBefore: number
  rssPeak: number
  rssAfter: number
  /** Heap and memory outside it (buffers) after a collection: what is still held. */
  liveBefore: number
  liveAfter: number
}

export async function flood (options: FloodOptions): Promise<FloodReport> {
  const { requests, concurrency, parameterBytes, anonymous } = options
  const sockets = new Set<Socket>()
  let socketsMax = 0
  const partner = createServer((socket) => {
    sockets.add(socket)
    socketsMax = Math.max(socketsMax, sockets.size)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    socket.resume()
  })
  partner.listen(0, '127.0.0.1')
  await once(partner, 'listening')
  const partnerUrl = `http://127.0.0.1:${(partner.address() as { port: number }).port}/replies`
  const child = fork(join(__dirname, 'server.js'), [partnerUrl], { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
  try {
    const [message] = await Promise.race([
      once(child, 'message'),
      new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error('the server did not start in 10 s')), 10_000).unref())
    ]) as [{ port: number }]
    const port = message.port
    // A warm-up of WARM_UP requests answered on their connection, so that what the server compiles and caches once is not counted.
    for (let i = 0; i < WARM_UP; i++) await send(agent, port, envelope(undefined, i, parameterBytes))
    const before = await ask(child)
    const statuses: Record<string, number> = {}
    const started = Date.now()
    let next = 0
    const worker = async (): Promise<void> => {
      // Bounded: `requests` in all, each within 10 s.
      while (next < requests) {
        const status = await send(agent, port, envelope(anonymous ? undefined : partnerUrl, next++, parameterBytes))
        statuses[status] = (statuses[status] ?? 0) + 1
      }
    }
    await Promise.all(Array.from({ length: concurrency }, worker))
    const seconds = (Date.now() - started) / 1000
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const after = await ask(child)
    return {
      requests,
      parameterBytes,
      seconds,
      statuses,
      partnerSocketsMax: socketsMax,
      rssBefore: before.rss,
      rssPeak: after.maxRss,
      rssAfter: after.rss,
      liveBefore: before.heapUsed + before.external,
      liveAfter: after.heapUsed + after.external
    }
  } finally {
    agent.destroy()
    child.kill()
    for (const socket of sockets) socket.destroy()
    partner.close()
  }
}

export function failures (report: FloodReport): string[] {
  const out: string[] = []
  if (report.partnerSocketsMax > BOUNDS.sockets) out.push(`${report.partnerSocketsMax} connections open at the partner, more than ${BOUNDS.sockets}`)
  const growth = (report.rssPeak - report.rssBefore) / MiB
  if (growth > BOUNDS.rssGrowthMiB) out.push(`peak RSS ${growth.toFixed(1)} MiB over the start, more than ${BOUNDS.rssGrowthMiB} MiB`)
  const live = (report.liveAfter - report.liveBefore) / MiB
  if (live > BOUNDS.liveGrowthMiB) out.push(`${live.toFixed(1)} MiB more live memory after the flood, more than ${BOUNDS.liveGrowthMiB} MiB`)
  if ((report.statuses['0'] ?? 0) > 0) out.push(`${report.statuses['0']} requests got no answer`)
  return out
}

if (require.main === module) {
  const options: FloodOptions = {
    requests: Number(process.env.FLOOD_REQUESTS ?? 2000),
    concurrency: Number(process.env.FLOOD_CONCURRENCY ?? 32),
    parameterBytes: Number(process.env.FLOOD_PARAMETER_BYTES ?? 256 * 1024),
    anonymous: process.env.FLOOD_ANONYMOUS === '1'
  }
  flood(options).then((report) => {
    const mib = (n: number): string => `${(n / MiB).toFixed(1)} MiB`
    process.stdout.write(`${report.requests} requests with a ReplyTo at a partner that never answers, each with a ${report.parameterBytes}-byte reference parameter, in ${report.seconds.toFixed(1)} s\n`)
    process.stdout.write(`answers: ${JSON.stringify(report.statuses)}\n`)
    process.stdout.write(`connections open at the partner, at most: ${report.partnerSocketsMax} (cap ${BOUNDS.sockets})\n`)
    process.stdout.write(`server RSS: ${mib(report.rssBefore)} before, ${mib(report.rssPeak)} at its peak (+${mib(report.rssPeak - report.rssBefore)}, bound +${BOUNDS.rssGrowthMiB} MiB), ${mib(report.rssAfter)} after\n`)
    process.stdout.write(`server live memory (heap and buffers, after a collection): ${mib(report.liveBefore)} before, ${mib(report.liveAfter)} after (+${mib(report.liveAfter - report.liveBefore)}, bound +${BOUNDS.liveGrowthMiB} MiB)\n`)
    const failed = failures(report)
    for (const failure of failed) process.stdout.write(`FAIL: ${failure}\n`)
    process.exit(failed.length === 0 ? 0 : 1)
  }, (err: unknown) => {
    process.stderr.write(`${String(err)}\n`)
    process.exit(1)
  })
}
