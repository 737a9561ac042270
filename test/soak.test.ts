import { test, type TestContext } from 'node:test'
import { failures, soak } from '../benchmarks/soak/run'

test('soak, short form: a mix of valid, faulting and hostile requests; every answer as expected, no error, memory and event loop bounded', async (t: TestContext) => {
  const report = await soak(3, 20, 1)
  t.assert.deepStrictEqual(failures(report), [], JSON.stringify(report))
  t.assert.ok(report.requests > 1000, `${report.requests} requests answered`)
})

test('soak: the checks catch a bad run', (t: TestContext) => {
  const good = { seconds: 1, connections: 1, requests: 11, statuses: { 200: 2, 400: 4, 405: 1, 415: 1, 500: 3 }, unexpectedStatuses: [], errors: 0, timeouts: 0, rssAfterWarmUp: 0, rssAtEnd: 0, heapAfterWarmUp: 0, heapAtEnd: 0, delayP99: 1, delayMax: 1, crashed: false }
  t.assert.deepStrictEqual(failures(good), [])
  t.assert.strictEqual(failures({ ...good, crashed: true }).length, 1)
  t.assert.strictEqual(failures({ ...good, errors: 1 }).length, 1)
  t.assert.strictEqual(failures({ ...good, rssAtEnd: 100 * 2 ** 20 }).length, 1)
  t.assert.strictEqual(failures({ ...good, delayMax: 5000 }).length, 1)
  t.assert.ok(failures({ ...good, requests: 1100, statuses: { 200: 1100 } }).length >= 1, 'every answer a 200 is wrong')
})
