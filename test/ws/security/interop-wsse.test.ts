/**
 * Interop (docs/security.md "WS-Security"): real clients' WS-Security
 * against the demo's /secure/calculator, in both SOAP versions: zeep's
 * UsernameToken (digest with a wsu:Timestamp, and text), node-soap's
 * WSSecurity (text and digest), and PHP SoapClient with a hand-built
 * header. Each gets the sum, and each attack its WSS fault.
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import { CLIENTS, assertRepliesInRequestVersion, requireClient, runClient, startDemo } from '../../interop'

const PYTHON = '/usr/bin/python3'
const WSSE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd'
const WSU = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd'
const probe = spawnSync(PYTHON, ['-c', 'import zeep; print(zeep.__version__)'], { encoding: 'utf8', timeout: 30_000 })
const zeepVersion = probe.status === 0 ? probe.stdout.trim() : '(not installed)'

/** The local part of a QName as a client surfaces it ('wsse:FailedAuthentication', '{ns}FailedAuthentication' or 'FailedAuthentication'). */
const local = (qname: unknown): string => String(qname).replace(/^.*[}:]/, '')

for (const v of ['1.1', '1.2'] as const) {
  test(`docs/security.md "WS-Security": zeep ${zeepVersion} UsernameToken (digest with a Timestamp, and text) gets the sum from /secure/calculator over SOAP ${v}; wrong, unknown, stale, future, replayed and missing tokens get their WSS faults`, async (t: TestContext) => {
    if (!requireClient(t, 'zeep (python3-zeep)', PYTHON, ['-c', 'import zeep'])) return
    const { url, exchanges } = await startDemo(t)
    const out = await runClient(PYTHON, [join(CLIENTS, 'zeep_wsse.py'), url, v.replace('.', '')]) as Record<string, any>
    const seen = JSON.stringify(out)
    t.assert.deepStrictEqual(out.warnings, [], seen)
    t.assert.deepStrictEqual(out.digest, { result: 5 }, seen)
    t.assert.deepStrictEqual(out.text, { result: 5 }, seen)
    t.assert.deepStrictEqual(out.first, { result: 5 }, seen)
    const expected: Record<string, [string, string]> = {
      wrong: [WSSE, 'FailedAuthentication'],
      unknown: [WSSE, 'FailedAuthentication'],
      expired: [WSU, 'MessageExpired'],
      future: [WSU, 'MessageExpired'],
      replayed: [WSSE, 'InvalidSecurity'],
      missing: [WSSE, 'InvalidSecurity']
    }
    for (const [name, [ns, code]] of Object.entries(expected)) {
      const fault = out[name] as { code: string, message: string, subcodes: string[] }
      // zeep gives a SOAP 1.1 faultcode as written (prefix:local) and a SOAP 1.2 Code with its subcodes as {ns}local.
      if (v === '1.1') t.assert.strictEqual(local(fault.code), code, `${name}: ${seen}`)
      else t.assert.deepStrictEqual([local(fault.code), fault.subcodes], ['Sender', [`{${ns}}${code}`]], `${name}: ${seen}`)
    }
    t.assert.strictEqual(out.wrong.message, out.unknown.message, 'one answer for a wrong password and an unknown user')
    const posts = exchanges.filter((e) => e.method === 'POST')
    t.assert.strictEqual(posts.length, 9)
    assertRepliesInRequestVersion(t, exchanges)
  })

  test(`docs/security.md "WS-Security": node-soap WSSecurity (text, digest with a Timestamp) gets the sum from /secure/calculator over SOAP ${v}; a wrong password gets wsse:FailedAuthentication`, async (t: TestContext) => {
    const { url, exchanges } = await startDemo(t)
    const out = await runClient(process.execPath, [join(__dirname, '..', '..', 'clients', 'node-soap-wsse.js'), url, v]) as Record<string, any>
    const seen = JSON.stringify(out)
    t.assert.deepStrictEqual(out.warnings, [], seen)
    t.assert.deepStrictEqual(out.text, { result: 5 }, seen)
    t.assert.deepStrictEqual(out.digest, { result: 5 }, seen)
    t.assert.strictEqual(out.wrong.status, v === '1.2' ? 400 : 500, seen)
    t.assert.match(out.wrong.body, v === '1.2' ? /<soap:Value xmlns:sc0="[^"]+">sc0:FailedAuthentication<\/soap:Value>/ : /<faultcode xmlns:fc="[^"]+">fc:FailedAuthentication<\/faultcode>/, seen)
    t.assert.strictEqual(exchanges.filter((e) => e.method === 'POST').length, 3)
    assertRepliesInRequestVersion(t, exchanges)
  })

  test(`docs/security.md "WS-Security": PHP SoapClient with a hand-built wsse:Security header (text and digest) gets the sum from /secure/calculator over SOAP ${v}; a stale, a malformed and a replayed one get their WSS faults`, async (t: TestContext) => {
    if (!requireClient(t, 'PHP SoapClient (php-cli php-soap)', 'php', ['-r', 'exit(extension_loaded("soap") ? 0 : 1);'])) return
    const { url, exchanges } = await startDemo(t)
    const out = await runClient('php', [join(CLIENTS, 'php_wsse.php'), url, v]) as Record<string, any>
    const seen = JSON.stringify(out)
    t.assert.deepStrictEqual(out.warnings, [], seen)
    t.assert.strictEqual(out.text, 5, seen)
    t.assert.strictEqual(out.digest, 5, seen)
    t.assert.strictEqual(out.first, 5, seen)
    for (const [name, code, reason] of [
      ['stale', 'MessageExpired', 'The message has expired'],
      ['malformed', 'InvalidSecurityToken', 'An invalid security token was provided'],
      ['replayed', 'InvalidSecurity', 'An error was discovered processing the <wsse:Security> header']
    ]) {
      t.assert.strictEqual(local(out[name].faultcode), v === '1.2' ? 'Sender' : code, `${name}: ${seen}`)
      t.assert.strictEqual(out[name].faultstring, reason, `${name}: ${seen}`)
    }
    t.assert.strictEqual(exchanges.filter((e) => e.method === 'POST').length, 6)
    assertRepliesInRequestVersion(t, exchanges)
  })
}
