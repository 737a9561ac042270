/**
 * A reply queue in Redis through BullMQ (docs/addressing.md "Durable
 * replies"), for replies that outlive the process that accepted them. It
 * takes BullMQ's Queue and Worker classes and a connection from you, so
 * BullMQ is no dependency of the plugin. Each job is one reply, stored
 * under the reply's own MessageID (so storing it twice stores it once), and
 * each try is one run of the job: a reply not taken is tried again by
 * BullMQ after the in-memory path's waits, by whichever process takes it
 * first, and a job whose process died while trying is taken up again by
 * another once its lock expires (BullMQ's stalled jobs).
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { SoapReplyDeliverer, SoapReplyJob, SoapReplyQueue } from '../../types'

export interface BullmqReplyQueueOptions {
  /** BullMQ's `Queue` class (`import { Queue, Worker } from 'bullmq'`). */
  readonly Queue: unknown
  /** BullMQ's `Worker` class. */
  readonly Worker: unknown
  /** The Redis connection both take: ioredis options, or an ioredis client (`maxRetriesPerRequest: null`). */
  readonly connection: unknown
  /** The queue's name; default `fastify-soap-replies`. One per registration of the plugin. */
  readonly name?: string
  /** BullMQ's key prefix; default BullMQ's own (`bull`). */
  readonly prefix?: string
  /** Deliver from this process too (default true); false: it only stores replies, other processes deliver them. */
  readonly worker?: boolean
  /** More options of the Worker: `lockDuration` and `stalledInterval` say how soon a dead process's job is taken up. */
  readonly workerOptions?: Readonly<Record<string, unknown>>
}

interface BullQueue {
  add (name: string, data: SoapReplyJob, options: object): Promise<unknown>
  remove (id: string): Promise<unknown>
  on (event: 'error', listener: (err: Error) => void): unknown
  close (): Promise<void>
}

interface BullJob {
  readonly id?: string
  readonly data: SoapReplyJob
  readonly attemptsMade: number
  readonly timestamp: number
}

interface BullWorker {
  on (event: 'error', listener: (err: Error) => void): unknown
  on (event: 'completed' | 'failed', listener: (job: BullJob | undefined) => void): unknown
  close (force: boolean): Promise<void>
}

type QueueClass = new (name: string, options: object) => BullQueue
type WorkerClass = new (name: string, processor: (job: BullJob) => Promise<void>, options: object) => BullWorker

/** Tries a job may have: the largest `retries` (10) and the first. The service's own `retries` ends them sooner. */
const MAX_TRIES = 11

/**
 * How long close waits for the jobs this process runs to be written back
 * (delivered, given up, or put back to wait for their next try), once their
 * try under way has ended: past it, or with Redis out of reach, the worker is
 * closed without waiting, and a job not written back is taken up by another
 * process when its lock expires.
 */
const CLOSE_WAIT = 15_000

/** A BullMQ job id: no `:`, which BullMQ keeps for its own keys. */
function jobId (id: string): string {
  return id.replaceAll(':', '_')
}

/**
 * A reply queue on BullMQ. Jobs are removed once delivered or given up, so
 * Redis holds the replies waiting, each at most the service's `maxBytes`.
 */
export function bullmqReplyQueue (options: BullmqReplyQueueOptions): SoapReplyQueue {
  const { Queue, Worker, connection, name = 'fastify-soap-replies', prefix, worker = true, workerOptions } = options
  if (typeof Queue !== 'function' || typeof Worker !== 'function') {
    throw new TypeError('bullmqReplyQueue: give BullMQ\'s Queue and Worker classes')
  }
  if (typeof name !== 'string' || name === '' || name.includes(':')) {
    throw new TypeError('bullmqReplyQueue: name must be a string with no ":"')
  }
  const shared = prefix === undefined ? { connection } : { connection, prefix }
  let queue: BullQueue | undefined
  let running: BullWorker | undefined
  /** The jobs this process took and BullMQ has not yet written back. */
  const taken = new Set<string | undefined>()
  return {
    start (deliverer: SoapReplyDeliverer): void {
      const log = (err: Error): void => { deliverer.log.warn({ err }, 'fastify-soap: reply queue: Redis error') }
      queue = new (Queue as QueueClass)(name, shared)
      queue.on('error', log)
      if (!worker) return
      const processor = async (job: BullJob): Promise<void> => {
        taken.add(job.id)
        const attempt = { attempt: job.attemptsMade + 1, age: Date.now() - job.timestamp }
        const outcome = await deliverer.attempt(job.data, attempt)
        // Thrown, the job is tried again by BullMQ after backoff(tries so far), by whichever process takes it.
        if (outcome === 'retry') throw new Error('fastify-soap: reply not taken yet')
      }
      running = new (Worker as WorkerClass)(name, processor, {
        ...workerOptions,
        ...shared,
        concurrency: deliverer.concurrency,
        settings: { backoffStrategy: (tries: number) => deliverer.backoff(tries) }
      })
      running.on('error', log)
      const written = (job: BullJob | undefined): void => { taken.delete(job?.id) }
      running.on('completed', written)
      running.on('failed', written)
    },
    async add (job: SoapReplyJob, signal: AbortSignal) {
      if (queue === undefined) throw new Error('fastify-soap: the reply queue has not started')
      const id = jobId(job.id)
      const stored = queue.add('reply', job, {
        jobId: id,
        attempts: MAX_TRIES,
        backoff: { type: 'custom' },
        removeOnComplete: true,
        removeOnFail: true
      })
      // The plugin stopped waiting and answered with a fault: the job goes, if it was stored and not yet taken.
      const undo = (): void => { (queue as BullQueue).remove(id).catch(() => undefined) }
      signal.addEventListener('abort', undo, { once: true })
      try {
        await stored
      } finally {
        signal.removeEventListener('abort', undo)
      }
      return undefined
    },
    async close (): Promise<void> {
      // No new try starts (the deliverer's signal is aborted): what is taken ends within its try's timeout.
      const end = Date.now() + CLOSE_WAIT
      while (taken.size > 0 && Date.now() < end) await sleep(20)
      // Forced: BullMQ's own wait for its fetch loop does not end while Redis is out of reach.
      await running?.close(true)
      await queue?.close()
    }
  }
}
