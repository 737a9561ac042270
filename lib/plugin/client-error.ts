/**
 * HTTP framing errors (a bad Content-Length or chunk size, obs-fold, no Host…)
 * are caught by Node's HTTP parser before any route runs, and answered by the
 * server's `clientErrorHandler`, which only you can set. This one answers as
 * the binding spec wants for a request that cannot be decoded: the status,
 * `Content-Length: 0`, no body. Fastify's own handler sends a JSON body.
 *
 *   Fastify({ clientErrorHandler: soapClientErrorHandler })
 */
import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'

export function soapClientErrorHandler (this: FastifyInstance, err: Error & { code?: string }, socket: Socket): void {
  // A reset connection is already gone (https://nodejs.org/api/http.html#event-clienterror).
  if (err.code === 'ECONNRESET' || socket.destroyed) return
  const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400
  this.log.debug({ err }, 'fastify-soap: HTTP framing error')
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`)
  }
  socket.destroy()
}
