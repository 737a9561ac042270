/**
 * The signed workload of `npm run bench` (docs/benchmarks.md "Signed
 * requests"): the small Add signed with X.509 (WSS X.509 Token Profile: the
 * demo client's certificate as a BinarySecurityToken, the Body and a
 * wsu:Timestamp signed, RSA-SHA256, SHA-256 digests, exclusive C14N) against
 * the same Add unsigned, on the same fastify-soap server.
 *
 * wrk sends the same bytes again and again: it cannot sign each request. So
 * each of the eight Adds is signed once, by xml-crypto (the library
 * node-soap's WSSecurityCert signs with), when the run starts, with a
 * Timestamp valid for a day; the bench's service (`/signed/calculator`, on
 * the `soap` server only) trusts the demo CA with `replay: false` and a
 * `maxAge` of a day, so that a signature seen before is accepted again;
 * `/signed-reply/calculator` is the same and signs its replies.
 * Everything else is verified on every request: the digests, the signature,
 * the certificate's chain to the CA and its dates, the Timestamp.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { defineService } from '../../lib/index'
import { DEMO_X509, calculator } from '../../test/demo/app'
import { signedEnvelope } from '../../test/ws/security/x509-client'
import { ADDENDS } from '../fixtures'
import type { ContenderRecord } from './aggregate'
import type { Load } from './measure'

const DAY = 24 * 60 * 60 * 1000

/** The path of the bench's signed Calculator, and of the one that also signs its replies. */
export const SIGNED_PATH = '/signed/calculator'
export const SIGNED_REPLY_PATH = '/signed-reply/calculator'

/** The Calculator, signed requests required (security.x509), for the bench only: see above. */
export const signedBenchCalculator = defineService({
  ...calculator,
  path: SIGNED_PATH,
  security: {
    x509: { trust: readFileSync(join(DEMO_X509, 'test-ca.pem')) },
    replay: false,
    maxAge: DAY
  }
})

/** The same, its replies signed too (x509.reply) with the demo server's key: RSA-2048, as the requests. */
export const signedReplyBenchCalculator = defineService({
  ...signedBenchCalculator,
  path: SIGNED_REPLY_PATH,
  security: {
    ...signedBenchCalculator.security,
    x509: {
      trust: readFileSync(join(DEMO_X509, 'test-ca.pem')),
      reply: { key: readFileSync(join(DEMO_X509, 'test-server.key')), certificate: readFileSync(join(DEMO_X509, 'test-server.pem')) }
    }
  }
})

/** The eight Adds of the small workload (ADDENDS) in SOAP 1.2, each signed once at `now`, valid for a day. */
export function signedAdds (now: number): string[] {
  return ADDENDS.map(([a, b]) => signedEnvelope('1.2', `<calc:Add xmlns:calc="urn:example:calc"><calc:a>${a}</calc:a><calc:b>${b}</calc:b></calc:Add>`, { folder: DEMO_X509, now, expiresIn: DAY }))
}

/**
 * The signed workload: `add` (the small workload's Add) unsigned, the
 * reference, against the same Adds signed to SIGNED_PATH, and to
 * SIGNED_REPLY_PATH (the reply signed too), all served by the `soap` server.
 * BENCH_ONLY=soap-x509,soap-x509-reply runs it alone; its reference is a kind
 * of its own (`soap-unsigned`), so that BENCH_ONLY=soap does not run it.
 */
export function signedWorkload (add: Load): { id: string, title: string, reference: string, contenders: Array<Omit<ContenderRecord, 'samples'>>, loads: Record<string, Load> } {
  const signed: Load = { ...add, path: SIGNED_PATH, bodies: signedAdds(Date.now()) }
  return {
    id: 'signed',
    title: `signed: Add signed with X.509 (SOAP 1.2 envelope ${Buffer.byteLength(signed.bodies[0])} B), its reply signed or not, against the same Add unsigned`,
    reference: 'soap-unsigned',
    contenders: [
      { kind: 'soap-unsigned', name: 'fastify-soap, unsigned', serves: 'soap' },
      { kind: 'soap-x509', name: 'fastify-soap, X.509 signed request', serves: 'soap' },
      { kind: 'soap-x509-reply', name: 'fastify-soap, X.509 signed request and reply', serves: 'soap' }
    ],
    loads: { 'soap-unsigned': add, 'soap-x509': signed, 'soap-x509-reply': { ...signed, path: SIGNED_REPLY_PATH } }
  }
}
