/** The X.509 files of the tests: the demo's (test/demo/x509) and the trust store's (test/fixtures/x509). TEST KEYS ONLY. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { X509Certificate } from 'node:crypto'
import type { TestContext } from 'node:test'
import { spawnSync } from 'node:child_process'
import { FIXTURES, missing } from '../../helper'

const DEMO = join(FIXTURES, '..', 'demo', 'x509')

/** A file's text: `test-ca.pem` and the like from the demo, any other from test/fixtures/x509. */
export function x509File (name: string): string {
  return readFileSync(join(name.startsWith('test-') ? DEMO : join(FIXTURES, 'x509'), name), 'latin1')
}

export function certificate (name: string): X509Certificate {
  return new X509Certificate(x509File(`${name}.pem`))
}

/** The bits of a certificate's subjectPublicKey (RFC 5280 §4.1.2.7), read from its SPKI's DER here. */
export function publicKeyBits (cert: X509Certificate): Buffer {
  const spki = cert.publicKey.export({ type: 'spki', format: 'der' })
  // SEQUENCE { AlgorithmIdentifier, BIT STRING }: skip the outer header, then the algorithm.
  const header = (at: number): { content: number, end: number } => {
    const first = spki[at + 1]
    const size = first < 0x80 ? 0 : first & 0x7f
    const length = size === 0 ? first : spki.readUIntBE(at + 2, size)
    return { content: at + 2 + size, end: at + 2 + size + length }
  }
  const algorithm = header(header(0).content)
  const bits = header(algorithm.end)
  return spki.subarray(bits.content + 1, bits.end)
}

/** Whether xmlsec1, the XMLDSig reference, is installed; the test skips with one line otherwise (fails under CI). */
export function hasXmlsec (t: TestContext): boolean {
  if (spawnSync('xmlsec1', ['--version'], { timeout: 10_000 }).error === undefined) return true
  missing(t, 'xmlsec1 is not installed; .ci/run installs it')
  return false
}
