/**
 * One server of `npm run bench` and `npm run soak`, alone in its process on 127.0.0.1:
 *   json  a plain Fastify JSON route doing the same work (the ceiling)
 *   soap  the demo Calculator through fastify-soap
 * Prints `listening <port>` once ready. On SIGUSR2 it prints `stats <JSON>`:
 * CPU time (user + system, µs) and the event loop's delay (ms, p99 and max)
 * since the previous SIGUSR2, and the memory in use now (bytes), so that the
 * runner measures the window it chooses.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks'
import Fastify from 'fastify'
import { buildDemo } from '../../test/demo/app'

async function main (): Promise<void> {
  const kind = process.argv[2]
  let app
  if (kind === 'json') {
    app = Fastify()
    app.post('/calculator', async (request) => {
      const { a, b } = request.body as { a: number, b: number }
      return { result: a + b }
    })
  } else if (kind === 'soap') {
    app = await buildDemo()
  } else {
    throw new Error(`unknown contender ${kind}`)
  }
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  console.log(`listening ${typeof address === 'object' && address !== null ? address.port : ''}`)
  let last = process.cpuUsage()
  const delay = monitorEventLoopDelay({ resolution: 10 })
  delay.enable()
  process.on('SIGUSR2', () => {
    const used = process.cpuUsage(last)
    last = process.cpuUsage()
    const { rss, heapUsed } = process.memoryUsage()
    const stats = { cpu: used.user + used.system, rss, heapUsed, delayP99: delay.percentile(99) / 1e6, delayMax: delay.max / 1e6 }
    delay.reset()
    console.log(`stats ${JSON.stringify(stats)}`)
  })
  process.once('SIGTERM', () => { app.close().then(() => process.exit(0), () => process.exit(1)) })
}

main().catch((err) => { console.error(err); process.exit(1) })
