/** The peers of `npm run bench`: written by a helper (node-soap, strong-soap). */
import type { FastifyInstance } from 'fastify'

export async function buildPeer (kind: 'node-soap' | 'strong-soap'): Promise<FastifyInstance | { listen: () => Promise<number>, close: () => Promise<void> }> {
  throw new Error(`${kind}: not yet`)
}
