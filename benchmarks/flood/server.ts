/**
 * The server of `npm run flood`: one service with asynchronous replies to
 * the partner named by its first argument, the defaults of every cap, on
 * 127.0.0.1. It tells its parent its port, and answers `stats` (its memory,
 * after a collection) and nothing else over IPC.
 */
import Fastify from 'fastify'
import soap from '../../lib/index'

async function main (): Promise<void> {
  const partner = process.argv[2]
  const app = Fastify({ logger: false })
  await app.register(soap)
  app.soap.service({
    path: '/calc',
    name: 'Calc',
    namespace: 'urn:example:calc',
    addressing: { asyncReplies: { allow: [partner] } },
    operations: {
      Add: {
        input: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'] },
        output: { type: 'object', properties: { sum: { type: 'integer' } }, required: ['sum'] },
        handler: ({ a, b }: { a: number, b: number }) => ({ sum: a + b })
      }
    }
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  process.on('message', (message) => {
    if (message !== 'stats') return
    const gc = (globalThis as { gc?: () => void }).gc
    gc?.()
    const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage()
    process.send?.({ rss, heapUsed, external, arrayBuffers, maxRss: process.resourceUsage().maxRSS * 1024 })
  })
  process.send?.({ port: (app.server.address() as { port: number }).port })
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`)
  process.exit(1)
})
