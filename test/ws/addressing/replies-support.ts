/**
 * What the tests of docs/addressing.md "Durable replies" share: a loopback
 * partner that counts what it is sent and answers each POST as told, and the
 * request of a client with a ReplyTo.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { once } from 'node:events'
import type { Socket } from 'node:net'
import type { TestContext } from 'node:test'
import { WSA_NS, type SoapVersion } from '../../../lib/index'
import { envelope } from '../../helper'

export const ACTION = 'urn:example:calc/Add'
export const ADD = '<m:Add xmlns:m="urn:example:calc"><m:a>2</m:a><m:b>3</m:b></m:Add>'

/** The addressing headers of a request whose reply goes to `replyTo`. */
export function replyToHeader (replyTo: string, messageId: string): string {
  return `<wsa:Action xmlns:wsa="${WSA_NS}">${ACTION}</wsa:Action>` +
    `<wsa:MessageID xmlns:wsa="${WSA_NS}">${messageId}</wsa:MessageID>` +
    `<wsa:ReplyTo xmlns:wsa="${WSA_NS}"><wsa:Address>${replyTo}</wsa:Address></wsa:ReplyTo>`
}

/** The request envelope of the Add operation with a ReplyTo. */
export function addRequest (version: SoapVersion, replyTo: string, messageId: string): string {
  return envelope(version, ADD, replyToHeader(replyTo, messageId))
}

/** The text of the first `wsa:<name>` header block of an envelope. */
export function block (body: string, name: string): string | undefined {
  return new RegExp(`<wsa:${name} xmlns:wsa="[^"]+">([^<]*)</wsa:${name}>`).exec(body)?.[1]
}

export interface Post { readonly body: string, readonly status: number | 'held' }

/**
 * A loopback partner at `/replies`. `answer(n)` says what the n-th POST (from
 * 0) gets: a status, or `'held'` (no answer until the partner closes).
 * `posts` holds every POST, `accepted` the bodies answered 2xx; `next()`
 * waits (at most `ms`) for the next POST.
 */
export async function partner (t: TestContext, answer: (n: number) => number | 'held' = () => 200): Promise<{
  url: string, posts: Post[], accepted: string[], connections: () => number, next: (ms?: number) => Promise<Post>
}> {
  const posts: Post[] = []
  const accepted: string[] = []
  const waiting: Array<(p: Post) => void> = []
  const sockets = new Set<Socket>()
  let connections = 0
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = []
    request.on('data', (c: Buffer) => chunks.push(c))
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const status = answer(posts.length)
      const post = { body, status }
      posts.push(post)
      if (status !== 'held') {
        if (status >= 200 && status < 300) accepted.push(body)
        response.statusCode = status
        response.end()
      }
      waiting.shift()?.(post)
    })
  })
  server.on('connection', (socket: Socket) => {
    connections++
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.after(() => {
    for (const socket of sockets) socket.destroy()
    server.close()
  })
  const { port } = server.address() as { port: number }
  const next = async (ms = 10_000): Promise<Post> => await Promise.race([
    new Promise<Post>((resolve) => waiting.push(resolve)),
    new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error(`no POST in ${ms} ms`)), ms).unref())
  ])
  return { url: `http://127.0.0.1:${port}/replies`, posts, accepted, connections: () => connections, next }
}
