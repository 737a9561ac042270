/** One micro measurement: `fn` run for BENCH_MS (1500) ms after a warm-up, as MB/s of `bytes` per run. */
const MS = Number(process.env.BENCH_MS ?? 1500)

export function measure (fn: () => void, bytes: number): number {
  for (let i = 0; i < 20; i++) fn() // warm-up
  let runs = 0
  const started = process.hrtime.bigint()
  const deadline = started + BigInt(MS) * 1_000_000n
  let now = started
  while (now < deadline) {
    for (let i = 0; i < 10; i++) fn()
    runs += 10
    now = process.hrtime.bigint()
  }
  const seconds = Number(now - started) / 1e9
  return (bytes * runs) / seconds / 1e6
}
