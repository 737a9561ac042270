/**
 * docs/benchmarks.md "The upload": the workload's definition, not its speed.
 * Both forms carry the same bytes, and the upload server (its own process, as
 * `npm run bench` starts it) answers each with their count and SHA-256.
 */
import { createHash, randomBytes } from 'node:crypto'
import { test, type TestContext } from 'node:test'
import { UPLOAD_BYTES } from '../benchmarks/fixtures'
import { Failure, measureOne, type Settings } from '../benchmarks/http/measure'
import { uploadLoads } from '../benchmarks/http/run'

const MTOM_TYPE = /^multipart\/related; type="application\/xop\+xml"; boundary="([^"]+)"; start="<root@example\.org>"/

/** Unpinned, one request of each load: the bench's settings, as small as they go. */
const SETTINGS: Settings = {
  rounds: 1,
  seconds: 1,
  warmup: 1,
  uploads: 1,
  connections: 1,
  pipelining: 1,
  generator: { name: 'autocannon', version: 'unused: the uploads are sent by the runner' }
}

test('docs/benchmarks.md "The upload": the base64 body holds the bytes as its Data element\'s text, the MTOM body as the raw part its xop:Include names', (t: TestContext) => {
  const bytes = randomBytes(4096)
  const loads = uploadLoads(bytes, 1)
  const base64 = loads['upload-base64'].bodies[0].toString('latin1')
  t.assert.match(loads['upload-base64'].headers['content-type'], /^application\/soap\+xml; charset=utf-8; action="urn:example:upload\/Upload"$/)
  const text = /<u:Data>([A-Za-z0-9+/=]*)<\/u:Data>/.exec(base64)
  t.assert.ok(text !== null, base64.slice(0, 300))
  t.assert.deepStrictEqual(Buffer.from(text[1], 'base64'), bytes)

  const mtom = loads['upload-mtom']
  const boundary = MTOM_TYPE.exec(mtom.headers['content-type'])?.[1]
  t.assert.ok(boundary !== undefined, mtom.headers['content-type'])
  const body = Buffer.from(mtom.bodies[0])
  t.assert.match(body.toString('latin1'), /<u:Data><xop:Include xmlns:xop="http:\/\/www\.w3\.org\/2004\/08\/xop\/include" href="cid:data@example\.org"\/><\/u:Data>/)
  const head = Buffer.from('Content-ID: <data@example.org>\r\n\r\n', 'latin1')
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`, 'latin1')
  const from = body.indexOf(head) + head.length
  t.assert.ok(from > head.length)
  t.assert.deepStrictEqual(body.subarray(body.length - tail.length), tail)
  t.assert.deepStrictEqual(body.subarray(from, body.length - tail.length), bytes)
})

test('docs/benchmarks.md "The upload": the upload server, in its own process, answers 10 MiB as base64 inline and as MTOM with their byte count and SHA-256', async (t: TestContext) => {
  const bytes = randomBytes(UPLOAD_BYTES)
  const loads = uploadLoads(bytes, 1)
  const sha256 = createHash('sha256').update(bytes).digest('hex')
  for (const kind of ['upload-base64', 'upload-mtom'] as const) {
    const load = loads[kind]
    // The check names the count and the digest: another answer fails it.
    t.assert.strictEqual(load.check(200, `<u:Size>${UPLOAD_BYTES}</u:Size><u:Sha256>${sha256}</u:Sha256>`), undefined)
    t.assert.match(load.check(200, `<u:Size>${UPLOAD_BYTES}</u:Size><u:Sha256>${'0'.repeat(64)}</u:Sha256>`) ?? '', /SHA-256/)
    t.assert.match(load.check(413, '') ?? '', /status 413/)
    const sample = await measureOne('soap-upload', load, SETTINGS, 1)
    t.assert.deepStrictEqual([sample.requests, sample.errors, sample.non2xx], [1, 0, 0], kind)
    t.assert.ok(sample.cpu > 0 && sample.rssStart > 0 && sample.maxRss >= sample.rssStart, JSON.stringify(sample))
  }
})

test('docs/benchmarks.md "The upload": an upload answered with another SHA-256 fails the check and is not measured', async (t: TestContext) => {
  const sent = uploadLoads(randomBytes(1024), 1)['upload-mtom']
  const other = uploadLoads(randomBytes(1024), 1)['upload-mtom']
  await t.assert.rejects(measureOne('soap-upload', { ...sent, check: other.check }, SETTINGS, 1), (err: unknown) =>
    err instanceof Failure && err.stage === 'check' && /SHA-256/.test(err.message))
})
