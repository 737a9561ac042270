/**
 * One contender of `npm run bench`, alone in its process on 127.0.0.1:
 *   json  a plain Fastify JSON route doing the same work (the ceiling)
 *   soap  the demo Calculator's Add through fastify-soap
 * Prints `listening <port>` once ready; on SIGUSR2 prints `cpu <µs>`, the
 * process's CPU time (user + system) since the last SIGUSR2, so that the runner
 * can measure CPU per request over the measured window only.
 */
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
  process.on('SIGUSR2', () => {
    const used = process.cpuUsage(last)
    last = process.cpuUsage()
    console.log(`cpu ${used.user + used.system}`)
  })
  process.once('SIGTERM', () => { app.close().then(() => process.exit(0), () => process.exit(1)) })
}

main().catch((err) => { console.error(err); process.exit(1) })
