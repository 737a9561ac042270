/**
 * A promise raced against a deadline: what a handler, a replay store or a
 * reply queue is given to finish in. Past `ms`, the signal `run` was given
 * aborts with the error `late()` makes, and the race rejects with it; the
 * timer never outlives the race.
 */
export async function withDeadline<T> (
  run: (signal: AbortSignal) => Promise<T>, ms: number, late: () => Error
): Promise<T> {
  const controller = new AbortController()
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const error = late()
      controller.abort(error)
      reject(error)
    }, ms)
  })
  try {
    return await Promise.race([run(controller.signal), expired])
  } finally {
    clearTimeout(timer)
  }
}
