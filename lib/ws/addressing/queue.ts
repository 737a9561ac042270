/**
 * Where asynchronous replies wait for delivery (docs/addressing.md "Durable
 * replies"): a registration's queue, the in-memory one by default, and what
 * the plugin gives a queue to deliver with. A job is data, perhaps read
 * back from a store other processes write to: before any connection is
 * made, its address is checked again against the allow-list of the service
 * it names, and its envelope against that service's byte cap.
 */
import { setMaxListeners } from 'node:events'
import type { SoapReplyDeliverer, SoapReplyJob, SoapReplyOutcome, SoapReplyQueue, SoapReplyTry } from '../../types'
import { SOAP_ERR_SERVICE_INVALID } from '../../errors'
import { backoff, deliver, taken, tryOnce, type Delivery, type DeliveryBudget } from './delivery'
import { replyUrl, type AsyncReplies } from './options'

/** The replies queue of one registration of the plugin: in this process's memory, delivered by this process. */
export function memoryReplyQueue (): SoapReplyQueue {
  let deliverer: SoapReplyDeliverer | undefined
  const running = new Set<Promise<boolean>>()
  return {
    start (given: SoapReplyDeliverer): void {
      deliverer = given
    },
    async add (job: SoapReplyJob) {
      if (deliverer === undefined) throw new Error('fastify-soap: the reply queue has not started')
      const delivery: Promise<boolean> = deliverer.deliver(job).finally(() => running.delete(delivery))
      running.add(delivery)
      return { delivery }
    },
    async close (): Promise<void> {
      await Promise.all(running)
    }
  }
}

/** A job checked: what to send, and the options of the service that sends it. */
interface Checked {
  readonly delivery: Omit<Delivery, 'signal'>
  readonly options: AsyncReplies
}

/**
 * The asynchronous replies of one registration of the plugin: the caps its
 * services share, its queue, and the options of each service, by name,
 * which a job read back from the queue is checked against.
 */
export class ReplyDesk {
  /** Services by name, where `named`. */
  readonly #services = new Map<string, AsyncReplies>()
  /** The jobs this process made, still the same objects: their address was checked when the request was read. */
  readonly #own = new WeakMap<SoapReplyJob, AsyncReplies>()
  readonly #closing = new AbortController()

  /**
   * `named`: a queue was given, whose jobs may come from elsewhere and are
   * checked against the service they name: services with asynchronous
   * replies must have names of their own. The default queue's jobs never
   * leave the process.
   */
  constructor (readonly shared: DeliveryBudget, readonly queue: SoapReplyQueue, readonly named: boolean) {
    // Each delivery waiting to try again listens to it: as many as the caps let be in flight.
    setMaxListeners(0, this.#closing.signal)
  }

  /** A service's options, under its name: a stored job names its service. */
  register (service: string, options: AsyncReplies): void {
    if (!this.named) return
    if (this.#services.has(service)) {
      const why = 'another service with asyncReplies has this name, and the replyQueue\'s jobs name their service'
      throw new SOAP_ERR_SERVICE_INVALID(service, why)
    }
    this.#services.set(service, options)
  }

  /** A job made here, for a service with `options`: given to the queue as this object, it is not checked again. */
  own (job: SoapReplyJob, options: AsyncReplies): SoapReplyJob {
    this.#own.set(job, options)
    return job
  }

  /** The job's envelope and the options of its service; why not, when the job is not one to send. */
  check (job: SoapReplyJob): Checked | string {
    const { service, to, envelope, version, action } = (job ?? {}) as Partial<Record<keyof SoapReplyJob, unknown>>
    const own = this.#own.get(job)
    if (own !== undefined) {
      const { url, envelope: bytes } = { url: new URL(job.to), envelope: Buffer.from(job.envelope) }
      return { delivery: { url, envelope: bytes, version: job.version, action: job.action }, options: own }
    }
    const options = typeof service === 'string' ? this.#services.get(service) : undefined
    if (options === undefined) return 'no service of that name has asynchronous replies'
    const url = typeof to === 'string' ? replyUrl(options, to) : undefined
    if (url === undefined) return 'the address is not on the service\'s allow-list'
    if (typeof envelope !== 'string' || (version !== '1.1' && version !== '1.2') || typeof action !== 'string') {
      return 'the job is not a reply'
    }
    const bytes = Buffer.from(envelope)
    if (bytes.length > options.budget.maxBytes) return 'the envelope is larger than the service\'s maxBytes'
    return { delivery: { url, envelope: bytes, version, action }, options }
  }

  /** What a queue delivers with, once the server is ready. */
  deliverer (log: SoapReplyDeliverer['log']): SoapReplyDeliverer {
    const signal = this.#closing.signal
    const refuse = (job: SoapReplyJob, why: string): void => {
      const replyTo = typeof job?.to === 'string' ? job.to : undefined
      log.warn({ replyTo, outcome: why }, 'fastify-soap: reply not delivered')
    }
    return {
      // Not async: the delivery under way holds the envelope's bytes, not the job and its string as well.
      deliver: (job: SoapReplyJob): Promise<boolean> => {
        const checked = this.check(job)
        if (typeof checked === 'string') {
          refuse(job, checked)
          return Promise.resolve(false)
        }
        return deliver({ ...checked.delivery, signal }, checked.options, log)
      },
      attempt: async (job: SoapReplyJob, { attempt, age }: SoapReplyTry): Promise<SoapReplyOutcome> => {
        const checked = this.check(job)
        if (typeof checked === 'string') {
          refuse(job, checked)
          return 'given up'
        }
        // Closing: no new try here; the queue keeps the job for another process.
        if (signal.aborted) return 'retry'
        const { delivery: { url }, options } = checked
        const result = await tryOnce(checked.delivery, options.timeout)
        if (taken(result.status)) {
          const fields = { replyTo: url.href, status: result.status, attempts: attempt, ms: age }
          log.info(fields, 'fastify-soap: reply delivered')
          return 'delivered'
        }
        // `attempt` comes from the store: a count that is not one is the last try.
        if (result.again && attempt <= options.retries) return 'retry'
        log.warn({ replyTo: url.href, outcome: result.outcome, ms: age }, 'fastify-soap: reply not delivered')
        return 'given up'
      },
      backoff,
      concurrency: this.shared.maxInFlight,
      signal,
      log
    }
  }

  /** Starts the queue, when the server is ready. */
  async start (log: SoapReplyDeliverer['log']): Promise<void> {
    await this.queue.start(this.deliverer(log))
  }

  /** When the server closes: no new try, and the queue's own close (the tries under way end). */
  async close (): Promise<void> {
    this.#closing.abort()
    await this.queue.close()
  }
}
