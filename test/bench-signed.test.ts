/**
 * docs/benchmarks.md "Signed requests": the signed workload's definition, not
 * its speed. Its requests are the small workload's Adds, signed; the bench's
 * fastify-soap server answers each with the sum, and again (the same bytes
 * are sent again and again), and refuses them unsigned.
 */
import { test, type TestContext } from 'node:test'
import { ADDENDS, addEnvelope } from '../benchmarks/fixtures'
import { buildSoap } from '../benchmarks/http/services'
import { SIGNED_PATH, SIGNED_REPLY_PATH, signedWorkload } from '../benchmarks/http/signed'

const check = (status: number, body: string): string | undefined => /<tns:result>5<\/tns:result>/.test(body) && status === 200 ? undefined : `status ${status}: ${body}`
const add = { path: '/calculator', headers: { 'content-type': 'application/soap+xml; charset=utf-8; action="urn:example:calc/Add"' }, bodies: ADDENDS.map(([a, b]) => addEnvelope(a, b)), check }

test('docs/benchmarks.md "Signed requests": each signed Add of the bench gets its sum from the bench\'s fastify-soap server, twice, its reply signed at the second path; unsigned, the same Adds are refused there', async (t: TestContext) => {
  const workload = signedWorkload(add)
  t.assert.deepStrictEqual(workload.contenders.map((c) => [c.kind, c.serves]), [['soap-unsigned', 'soap'], ['soap-x509', 'soap'], ['soap-x509-reply', 'soap']])
  t.assert.deepStrictEqual(workload.loads['soap-x509-reply'], { ...workload.loads['soap-x509'], path: SIGNED_REPLY_PATH })
  t.assert.strictEqual(workload.reference, 'soap-unsigned')
  t.assert.strictEqual(workload.loads['soap-unsigned'], add)
  const signed = workload.loads['soap-x509']
  t.assert.strictEqual(signed.path, SIGNED_PATH)
  t.assert.strictEqual(signed.bodies.length, ADDENDS.length)
  const app = await buildSoap()
  t.after(() => app.close())
  for (const [i, body] of signed.bodies.entries()) {
    t.assert.match(body.toString(), new RegExp(`<calc:a>${ADDENDS[i][0]}</calc:a><calc:b>${ADDENDS[i][1]}</calc:b>`))
    t.assert.match(body.toString(), /<ds:Signature\b/)
    for (const [path, replySigned] of [[SIGNED_PATH, false], [SIGNED_REPLY_PATH, true]] as const) {
      for (let time = 0; time < 2; time++) {
        const response: { statusCode: number, body: string } = await app.inject({ method: 'POST', url: path, headers: signed.headers, payload: body })
        t.assert.strictEqual(signed.check(response.statusCode, response.body), undefined)
        t.assert.strictEqual(response.body.includes('<ds:Signature'), replySigned, path)
      }
    }
  }
  for (const body of add.bodies) {
    const response = await app.inject({ method: 'POST', url: SIGNED_PATH, headers: add.headers, payload: body })
    t.assert.strictEqual(response.statusCode, 400, response.body)
    t.assert.match(response.body, /:InvalidSecurity</)
  }
})
