import { test, type TestContext } from 'node:test'
import { BOUNDS, failures, flood } from '../benchmarks/flood/run'

test('docs/addressing.md "Bounds", flood in short form: requests with a ReplyTo at a partner that never answers keep its connections at maxInFlight, the rest get EndpointUnavailable', async (t: TestContext) => {
  const report = await flood({ requests: 300, concurrency: 16, parameterBytes: 64, anonymous: false })
  t.assert.deepStrictEqual(failures(report), [], JSON.stringify(report))
  t.assert.deepStrictEqual(report.statuses, { 202: BOUNDS.sockets, 500: 300 - BOUNDS.sockets }, JSON.stringify(report))
  t.assert.strictEqual(report.partnerSocketsMax, BOUNDS.sockets)
})

test('flood: the checks catch a bad run', (t: TestContext) => {
  const good = { requests: 1, parameterBytes: 1, seconds: 1, statuses: { 202: 1 }, partnerSocketsMax: 1, rssBefore: 0, rssPeak: 0, rssAfter: 0, liveBefore: 0, liveAfter: 0 }
  t.assert.deepStrictEqual(failures(good), [])
  t.assert.strictEqual(failures({ ...good, partnerSocketsMax: BOUNDS.sockets + 1 }).length, 1)
  t.assert.strictEqual(failures({ ...good, rssPeak: (BOUNDS.rssGrowthMiB + 1) * 2 ** 20 }).length, 1)
  t.assert.strictEqual(failures({ ...good, liveAfter: (BOUNDS.liveGrowthMiB + 1) * 2 ** 20 }).length, 1)
  t.assert.strictEqual(failures({ ...good, statuses: { 0: 1 } }).length, 1)
})
