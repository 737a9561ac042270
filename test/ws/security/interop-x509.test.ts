/**
 * Interop (docs/security.md "X.509 signatures"): real clients sign their
 * requests to the demo's /secure/signed-calculator, in both SOAP versions,
 * and verify its signed replies: zeep's BinarySignature with a Timestamp,
 * node-soap's WSSecurityCert, and JAX-WS (Metro) with a WSS4J 1.6 handler
 * (WSSecSignature, BinarySecurityToken, WSSecTimestamp; the reply through
 * WSSecurityEngine). Each gets the sum, its reply's signature holds for the
 * client, a reply changed after signing is refused by it, and the Body
 * changed after signing gets wsse:FailedCheck. And xmlsec1, the reference,
 * verifies a reply the plugin signed.
 */
import { spawnSync } from 'node:child_process'
import { X509Certificate } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test, type TestContext } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { DEMO_X509 } from '../../demo/app'
import { CLIENTS, assertRepliesInRequestVersion, buildStep, requireClient, runClient, startDemo } from '../../interop'

const PYTHON = '/usr/bin/python3'
const WSSE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd'
const WSU = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd'
const PATH = '/secure/signed-calculator'
const FAILED_CHECK = 'The signature or decryption was invalid'
const probe = spawnSync(PYTHON, ['-c', 'import zeep; print(zeep.__version__)'], { encoding: 'utf8', timeout: 30_000 })
const zeepVersion = probe.status === 0 ? probe.stdout.trim() : '(not installed)'
/** WSS4J 1.6 and the JAX-WS runtime with what they need (libwss4j-java's and jaxws's dependencies). */
const RUNTIME = ['jaxws-rt', 'wss4j', 'xmlsec', 'commons-logging', 'commons-codec', 'slf4j-api'].map((jar) => `/usr/share/java/${jar}.jar`).join(':')

/** The local part of a QName as a client surfaces it ('wsse:FailedCheck', '{ns}FailedCheck' or 'FailedCheck'). */
const local = (qname: unknown): string => String(qname).replace(/^.*[}:]/, '')

/** The demo, its replies' result changed from 5 to 6 once signed (as a proxy on the way could): the client must refuse them. */
function changedReplies (app: FastifyInstance): void {
  app.addHook('onSend', async (_request, _reply, payload) => typeof payload === 'string' ? payload.replace('<tns:result>5</tns:result>', '<tns:result>6</tns:result>') : payload)
}

let folder: string | undefined
after(() => { if (folder !== undefined) rmSync(folder, { recursive: true, force: true }) })
/** A temporary folder for the file, made once. */
function scratch (): string {
  folder ??= mkdtempSync(join(tmpdir(), 'fastify-soap-x509-'))
  return folder
}

for (const v of ['1.1', '1.2'] as const) {
  test(`docs/security.md "X.509 signatures": zeep ${zeepVersion} BinarySignature with a Timestamp gets the sum from /secure/signed-calculator over SOAP ${v} and verifies the signed reply, refusing one changed after signing; the Body changed after signing gets wsse:FailedCheck, no signature wsse:InvalidSecurity`, async (t: TestContext) => {
    if (!requireClient(t, 'zeep with python3-xmlsec', PYTHON, ['-c', 'import zeep, xmlsec'])) return
    const { url, exchanges } = await startDemo(t)
    const out = await runClient(PYTHON, [join(CLIENTS, 'zeep_x509.py'), url, v.replace('.', ''), DEMO_X509]) as Record<string, any>
    const seen = JSON.stringify(out)
    t.assert.deepStrictEqual(out.warnings, [], seen)
    t.assert.deepStrictEqual(out.signed, {
      result: 5,
      reply: { verified: true, token: 'the server certificate', chain: true, covered: ['Body', 'Timestamp'] }
    }, seen)
    for (const [name, code] of [['tampered', 'FailedCheck'], ['unsigned', 'InvalidSecurity']] as const) {
      const fault = out[name] as { code: string, subcodes: string[] }
      if (v === '1.1') t.assert.strictEqual(local(fault.code), code, `${name}: ${seen}`)
      else t.assert.deepStrictEqual([local(fault.code), fault.subcodes], ['Sender', [`{${WSSE}}${code}`]], `${name}: ${seen}`)
    }
    t.assert.strictEqual(out.tampered.message, FAILED_CHECK, seen)
    t.assert.deepStrictEqual(exchanges.filter((e) => e.method === 'POST').map((e) => e.status), [200, ...(v === '1.1' ? [500, 500] : [400, 400])])
    assertRepliesInRequestVersion(t, exchanges)
    const changed = await startDemo(t, changedReplies)
    const refused = await runClient(PYTHON, [join(CLIENTS, 'zeep_x509.py'), changed.url, v.replace('.', ''), DEMO_X509]) as Record<string, any>
    t.assert.deepStrictEqual(refused.signed, { error: 'SignatureVerificationFailed', reply: {} }, JSON.stringify(refused))
  })

  test(`docs/security.md "X.509 signatures": node-soap WSSecurityCert gets the sum from /secure/signed-calculator over SOAP ${v}, its reply's signature holds (xml-crypto, the certificate chained to the demo CA) and not once the reply is changed; the Body changed after signing gets wsse:FailedCheck`, async (t: TestContext) => {
    const { url, exchanges } = await startDemo(t)
    const out = await runClient(process.execPath, [join(__dirname, '..', '..', 'clients', 'node-soap-x509.js'), url, v, DEMO_X509]) as Record<string, any>
    const seen = JSON.stringify(out)
    t.assert.deepStrictEqual(out.warnings, [], seen)
    t.assert.deepStrictEqual(out.signed, {
      result: { result: 5 },
      reply: { verified: true, chain: true, subject: 'O=fastify-soap demo, CN=demo server (test only)', covered: ['Body', 'Timestamp'] }
    }, seen)
    t.assert.strictEqual(out.tampered.status, v === '1.2' ? 400 : 500, seen)
    t.assert.match(out.tampered.body, v === '1.2' ? /<soap:Value xmlns:sc0="[^"]+">sc0:FailedCheck<\/soap:Value>/ : /<faultcode xmlns:fc="[^"]+">fc:FailedCheck<\/faultcode>/, seen)
    t.assert.strictEqual(exchanges.filter((e) => e.method === 'POST').length, 2)
    assertRepliesInRequestVersion(t, exchanges)
    const changed = await startDemo(t, changedReplies)
    const refused = await runClient(process.execPath, [join(__dirname, '..', '..', 'clients', 'node-soap-x509.js'), changed.url, v, DEMO_X509]) as Record<string, any>
    t.assert.strictEqual(refused.signed.reply.verified, false, JSON.stringify(refused))
  })

  test(`docs/security.md "X.509 signatures": JAX-WS (Metro) with a WSS4J 1.6 handler (WSSecSignature with a BinarySecurityToken, WSSecTimestamp) gets the sum from /secure/signed-calculator over SOAP ${v}, and WSSecurityEngine verifies the signed reply against the demo CA, refusing one changed after signing; the Body changed after signing gets wsse:FailedCheck`, async (t: TestContext) => {
    if (!requireClient(t, 'JAX-WS RI (jaxws, libjaxws-java)', 'wsimport', ['-version'])) return
    if (!requireClient(t, 'a JDK (javac)', 'javac', ['-version'])) return
    if (!requireClient(t, 'WSS4J (libwss4j-java)', 'test', ['-f', '/usr/share/java/wss4j.jar'])) return
    const { url, exchanges } = await startDemo(t)
    const classes = join(scratch(), `java-${v}`)
    mkdirSync(join(classes, 'src'), { recursive: true })
    await buildStep('wsimport', ['-quiet', '-extension', '-Xnocompile', '-s', join(classes, 'src'), '-d', classes, '-p', 'calc', `${url}${PATH}?wsdl`])
    await buildStep('sh', ['-c', `javac -nowarn -encoding UTF-8 -cp ${RUNTIME} -d ${classes} ${join(classes, 'src', 'calc', '*.java')} ${join(CLIENTS, 'java', 'X509Client.java')} ${join(CLIENTS, 'java', 'Report.java')}`])
    const out = await runClient('java', ['-cp', `${classes}:${RUNTIME}`, 'X509Client', `${url}${PATH}`, v, DEMO_X509]) as Record<string, any>
    const seen = JSON.stringify(out)
    t.assert.strictEqual(out.error, undefined, seen)
    t.assert.deepStrictEqual(out.signed, {
      result: 5,
      reply: {
        signer: 'CN=demo server (test only),O=fastify-soap demo',
        trusted: true,
        actions: ['BinarySecurityToken', 'Signature', 'Timestamp'],
        covered: ['Body', 'Timestamp']
      }
    }, seen)
    const code = `{${WSSE}}FailedCheck`
    t.assert.deepStrictEqual(out.tampered.fault, {
      ...(v === '1.1' ? { code } : { code: '{http://www.w3.org/2003/05/soap-envelope}Sender', subcodes: [code] }),
      reason: FAILED_CHECK,
      detail: []
    }, seen)
    const posts = exchanges.filter((e) => e.method === 'POST')
    t.assert.deepStrictEqual(posts.map((e) => e.status), [200, v === '1.1' ? 500 : 400])
    assertRepliesInRequestVersion(t, posts)
    const changed = await startDemo(t, changedReplies)
    const refused = await runClient('java', ['-cp', `${classes}:${RUNTIME}`, 'X509Client', `${changed.url}${PATH}`, v, DEMO_X509]) as Record<string, any>
    t.assert.match(String(refused.signed?.error), /WSSecurityException: The signature or decryption was invalid/, JSON.stringify(refused))
  })

  test(`docs/security.md "X.509 signatures": xmlsec1 verifies the signed reply of /secure/signed-calculator over SOAP ${v}: its Body and its Timestamp, by the demo server's certificate, which chains to the demo CA`, async (t: TestContext) => {
    if (!requireClient(t, 'xmlsec1', 'xmlsec1', ['--version'])) return
    if (!requireClient(t, 'openssl', 'openssl', ['version'])) return
    const { url, exchanges } = await startDemo(t)
    // A request signed by zeep would do; node-soap is always here: its client signs one.
    const out = await runClient(process.execPath, [join(__dirname, '..', '..', 'clients', 'node-soap-x509.js'), url, v, DEMO_X509]) as Record<string, any>
    t.assert.deepStrictEqual(out.signed?.result, { result: 5 }, JSON.stringify(out))
    const reply = exchanges.filter((e) => e.method === 'POST')[0].responseBody
    const token = /<(?:\w+:)?BinarySecurityToken\b[^>]*>([^<]+)</.exec(reply)?.[1] ?? ''
    const certificate = new X509Certificate(Buffer.from(token, 'base64'))
    const dir = scratch()
    const files = { reply: join(dir, `reply-${v}.xml`), token: join(dir, `token-${v}.pem`) }
    writeFileSync(files.reply, reply)
    writeFileSync(files.token, certificate.toString())
    const chain = spawnSync('openssl', ['verify', '-CAfile', join(DEMO_X509, 'test-ca.pem'), files.token], { encoding: 'utf8', timeout: 30_000 })
    t.assert.strictEqual(chain.status, 0, chain.stdout + chain.stderr)
    const soapNs = v === '1.1' ? 'http://schemas.xmlsoap.org/soap/envelope/' : 'http://www.w3.org/2003/05/soap-envelope'
    const verify = spawnSync('xmlsec1', [
      '--verify', '--pubkey-cert-pem', files.token, '--enabled-reference-uris', 'same-doc',
      '--id-attr:Id', `${soapNs}:Body`, '--id-attr:Id', `${WSU}:Timestamp`, files.reply
    ], { encoding: 'utf8', timeout: 30_000 })
    t.assert.strictEqual(verify.status, 0, verify.stdout + verify.stderr)
    t.assert.match(verify.stdout + verify.stderr, /^OK\nSignedInfo References \(ok\/all\): 2\/2\n/m)
    // The two references name the Body and the Timestamp: xmlsec1 checks what they name, not what.
    const ids = [...reply.matchAll(/<ds:Reference URI="#([^"]+)"/g)].map((m) => m[1])
    const named = ids.map((id) => new RegExp(`<(?:\\w+:)?(\\w+)\\b[^>]*\\bwsu:Id="${id}"`).exec(reply)?.[1]).sort()
    t.assert.deepStrictEqual(named, ['Body', 'Timestamp'], reply)
    t.assert.strictEqual(certificate.subject, 'O=fastify-soap demo\nCN=demo server (test only)')
  })
}
