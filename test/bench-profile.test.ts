/**
 * docs/benchmarks.md "Where the time goes": `npm run bench:profile` counts
 * each sample's self time to a stage by its profile node's script and
 * function; native code to the script that called it; idle time and the
 * samples before the window to none.
 */
import { test, type TestContext } from 'node:test'
import { stageOf, summarize, type CpuProfile } from '../benchmarks/profile/run'

const LIB = 'file:///srv/app/dist/lib'
const frame = (functionName: string, url = '', lineNumber = 0): { functionName: string, url: string, lineNumber: number } => ({ functionName, url, lineNumber })

test('docs/benchmarks.md "Where the time goes": stages by script: lib/xml and lib/soap read, lib/codec reads, ajv validates, the writers write, the rest is Fastify and Node', (t: TestContext) => {
  t.assert.strictEqual(stageOf(frame('#characters', `${LIB}/xml/reader.js`)), 'reading')
  t.assert.strictEqual(stageOf(frame('decodeText', `${LIB}/soap/charset.js`)), 'reading')
  t.assert.strictEqual(stageOf(frame('readChild', `${LIB}/codec/read.js`)), 'codec read')
  t.assert.strictEqual(stageOf(frame('validate46')), 'validation')
  t.assert.strictEqual(stageOf(frame('ucs2length', 'file:///srv/app/node_modules/ajv/dist/runtime/ucs2length.js')), 'validation')
  for (const file of ['codec/write', 'xml/write', 'xml/escape', 'soap/writer']) t.assert.strictEqual(stageOf(frame('f', `${LIB}/${file}.js`)), 'writing', file)
  t.assert.strictEqual(stageOf(frame('dispatch', `${LIB}/service/dispatch.js`)), 'fastify-soap, other')
  t.assert.strictEqual(stageOf(frame('onSendEnd', 'file:///srv/app/node_modules/fastify/lib/reply.js')), 'Fastify and Node')
  t.assert.strictEqual(stageOf(frame('writev')), 'Fastify and Node')
  t.assert.strictEqual(stageOf(frame('(garbage collector)')), 'garbage collection')
  t.assert.strictEqual(stageOf(frame('(idle)')), 'idle')
  // Native code counts to its caller's stage.
  t.assert.strictEqual(stageOf(frame('RegExp: [\\uD800-\\uDFFF]'), frame('disallowedAt', `${LIB}/xml/chars.js`)), 'reading')
  t.assert.strictEqual(stageOf(frame('slice', 'node:buffer', 634), frame('writeScalar', `${LIB}/codec/write.js`)), 'writing')
})

test('docs/benchmarks.md "Where the time goes": self time from the window\'s start, each sample lasting until the next, idle left out, native code under its caller', (t: TestContext) => {
  const profile: CpuProfile = {
    startTime: 1_000_000,
    nodes: [
      { id: 1, callFrame: frame('(root)'), children: [2, 5, 6] },
      { id: 2, callFrame: frame('disallowedAt', `${LIB}/xml/chars.js`, 48), children: [3] },
      { id: 3, callFrame: frame('RegExp: [\\uD800-\\uDFFF]'), children: [] },
      { id: 5, callFrame: frame('(idle)'), children: [] },
      { id: 6, callFrame: frame('(garbage collector)'), children: [] }
    ],
    // At 1.000 s (before the window), 1.001, 1.003, 1.006 and 1.010 s.
    samples: [2, 3, 2, 5, 6],
    timeDeltas: [0, 1000, 2000, 3000, 4000]
  }
  const all = summarize(profile)
  // Sample i lasts until sample i + 1: 1 ms, 2 ms, 3 ms, 4 ms; the last one's length is unknown.
  t.assert.deepStrictEqual([all.busy, all.idle, all.stages.reading, all.stages['garbage collection']], [6, 4, 6, 0])
  t.assert.deepStrictEqual(all.top.map((f) => [f.name, f.where, f.stage, f.ms]), [
    ['disallowedAt', 'lib/xml/chars.js:49', 'reading', 4],
    ['RegExp: [\\uD800-\\uDFFF]', '(no script), from disallowedAt lib/xml/chars.js:49', 'reading', 2]
  ])
  // From 1.001 s: the first sample is left out.
  const window = summarize(profile, 1_001_000)
  t.assert.deepStrictEqual([window.busy, window.idle, window.stages.reading], [5, 4, 5])
})
