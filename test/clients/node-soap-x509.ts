/**
 * Interop (docs/security.md "X.509 signatures"): node-soap's WSSecurityCert
 * against the demo's /secure/signed-calculator, from its WSDL.
 *
 *     node dist/test/clients/node-soap-x509.js BASE_URL 1.1|1.2 X509_FOLDER
 *
 * Calls Add(2, 3) signed with WSSecurityCert (the demo client's key and
 * certificate from X509_FOLDER: a BinarySecurityToken, a wsu:Timestamp, the
 * Body and the Timestamp signed, RSA-SHA256 and SHA-256 digests, all its
 * defaults, among them an enveloped-signature transform on the Body's and
 * the Timestamp's References, which takes nothing out of elements the
 * Signature is not in), then the same with the Body changed
 * after signing (as a proxy could), and prints one JSON line with what
 * node-soap got back (it asserts
 * nothing: the Node test does). node-soap does not verify a reply's
 * signature: this script does it with xml-crypto (the library node-soap
 * signs with): the reply's BinarySecurityToken must chain to test-ca.pem
 * (node:crypto), every ds:Reference and the SignatureValue must hold with its
 * key, and it names the elements the references cover.
 */
import { X509Certificate } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import * as soap from 'soap'
import { DOMParser } from '@xmldom/xmldom'
import { SignedXml } from 'xml-crypto'
import { LoopbackOnly, plain, type Json } from './node-soap-common'

const DS = 'http://www.w3.org/2000/09/xmldsig#'
const WSSE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd'

/** The reply's signature, checked as above: what held, or the first thing that did not. */
function verifyReply (body: string, ca: X509Certificate): Json {
  const doc = new DOMParser().parseFromString(body, 'text/xml')
  const signatures = doc.getElementsByTagNameNS(DS, 'Signature')
  const tokens = doc.getElementsByTagNameNS(WSSE, 'BinarySecurityToken')
  if (signatures.length !== 1 || tokens.length !== 1) return { signatures: signatures.length, tokens: tokens.length }
  const certificate = new X509Certificate(Buffer.from(tokens[0].textContent ?? '', 'base64'))
  const chain = certificate.checkIssued(ca) && certificate.verify(ca.publicKey)
  const signed = new SignedXml({ publicCert: certificate.toString() })
  signed.loadSignature(signatures[0] as unknown as Node)
  let verified: Json
  try {
    verified = signed.checkSignature(body)
  } catch (err) {
    verified = String((err as Error).message)
  }
  const covered = signed.getReferences().map((ref) => {
    const id = (ref.uri ?? '').slice(1)
    const all = doc.getElementsByTagName('*')
    for (let i = 0; i < all.length; i++) {
      const attributes = all[i].attributes
      for (let j = 0; j < attributes.length; j++) if (attributes[j].localName === 'Id' && attributes[j].value === id) return all[i].localName
    }
    return ref.uri ?? ''
  }).sort()
  return { verified, chain, subject: certificate.subject.replace(/\n/g, ', '), covered }
}

async function main (base: string, version: string, folder: string): Promise<void> {
  const warnings: string[] = []
  console.warn = (...args: unknown[]) => { warnings.push(args.map(String).join(' ')) }
  console.error = console.warn
  // node-soap 1.13's WSSecurityCert calls xml-crypto's deprecated getOriginalXmlWithIds(): its warning, not ours.
  process.removeAllListeners('warning')
  process.on('warning', (warning) => {
    if ((warning as { code?: string }).code !== 'XML_CRYPTO_GET_ORIGINAL_XML_WITH_IDS') warnings.push(warning.message)
  })
  const soap12 = version === '1.2'
  const ca = new X509Certificate(readFileSync(join(folder, 'test-ca.pem')))
  const key = readFileSync(join(folder, 'test-client.key'))
  const certificate = readFileSync(join(folder, 'test-client.pem'), 'utf8')
  const client = await soap.createClientAsync(`${base}/secure/signed-calculator?wsdl`, { httpClient: new LoopbackOnly(new URL(base).origin), forceSoap12Headers: soap12 })
  let last: { status: number | null, body: string } = { status: null, body: '' }
  client.on('response', (body: string, response: { status?: number } | null) => { last = { status: response?.status ?? null, body } })
  const add = client.Calculator[soap12 ? 'CalculatorSoap12' : 'CalculatorSoap11'].Add as (args: unknown, cb: (err: unknown, result: unknown) => void, options?: unknown) => void
  const call = async (options?: unknown): Promise<Json> => {
    client.setSecurity(new soap.WSSecurityCert(key, certificate, ''))
    return await new Promise((resolve) => {
      add({ a: 2, b: 3 }, (err, result) => {
        const got: Record<string, Json> = err === null || err === undefined ? { result: plain(result) } : { status: last.status, body: last.body }
        got.reply = verifyReply(last.body, ca)
        resolve(got)
      }, options)
    })
  }
  const out: Record<string, Json> = {
    soap: (JSON.parse(readFileSync(require.resolve('soap/package.json'), 'utf8')) as { version: string }).version,
    signed: await call(),
    // node-soap's postProcess option runs after the security's: the Body changed once signed.
    tampered: await call({ postProcess: (xml: string) => xml.replace('<b>3</b>', '<b>4</b>') })
  }
  out.warnings = warnings
  process.stdout.write(JSON.stringify(out) + '\n')
}

main(process.argv[2] ?? '', process.argv[3] ?? '', process.argv[4] ?? '').catch((err: unknown) => {
  process.stdout.write(JSON.stringify({ error: String((err as Error)?.stack ?? err) }) + '\n')
})
