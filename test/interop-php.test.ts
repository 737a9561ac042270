/**
 * Interop (docs/wsdl.md "Tested clients"): PHP SoapClient in WSDL mode (php-cli + php-soap) against
 * the demo's Calculator, by test/clients/php_soapclient.php. PHP reads the
 * generated WSDL (GET /calculator?wsdl) and builds every request from it.
 */
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import { CLIENTS, assertRepliesInRequestVersion, requireClient, runClient, startDemo } from './interop'

const TEXT = 'héllo ✓ <&> 𝄞'
const REASON = 'division by zero'

/** The local part of a QName as a client surfaces it ('soap:Client' or 'Client'). */
const localName = (qname: unknown): string => typeof qname === 'string' ? qname.slice(qname.indexOf(':') + 1) : String(qname)

for (const version of ['1.1', '1.2'] as const) {
  test(`docs/wsdl.md "Tested clients": PHP SoapClient (WSDL mode) SOAP ${version}: Add, Echo, Divide; every reply in the request's version`, async (t: TestContext) => {
    if (!requireClient(t, 'PHP SoapClient (php-cli php-soap)', 'php', ['-r', 'exit(extension_loaded("soap") ? 0 : 1);'])) return
    const { url, exchanges } = await startDemo(t)
    const report = await runClient('php', [join(CLIENTS, 'php_soapclient.php'), url, version])
    const seen = `PHP reported ${JSON.stringify(report)}`
    t.diagnostic(`PHP ${String(report.php)}, libxml ${String(report.libxml)}`)

    // The WSDL: fetched, read without a word from PHP, one operation per declared one.
    const wsdl = exchanges.filter((e) => e.method === 'GET')
    t.assert.deepStrictEqual(wsdl.map((e) => [e.url, e.status, e.responseType]), [['/calculator?wsdl', 200, 'text/xml; charset=utf-8']], 'PHP fetched the WSDL once')
    t.assert.strictEqual(report.wsdl, undefined, seen)
    t.assert.deepStrictEqual(report.warnings, [], seen)
    const functions = report.functions as string[]
    for (const op of ['Add', 'Echo', 'Divide']) {
      t.assert.ok(functions.includes(`${op}Response ${op}(${op} $parameters)`), `PHP sees ${op} as document/literal wrapped: ${seen}`)
    }

    // The calls.
    t.assert.strictEqual(report.add, 5, seen)
    t.assert.strictEqual(report.echo, TEXT, seen)
    const divide = report.divide as Record<string, unknown>
    t.assert.strictEqual(divide.class, 'SoapFault', seen)
    t.assert.strictEqual(localName(divide.faultcode), version === '1.2' ? 'Sender' : 'Client', seen)
    t.assert.strictEqual(divide.faultstring, REASON, seen)

    // The server's side: every POST to the WSDL's address, in the requested version.
    const posts = exchanges.filter((e) => e.method === 'POST')
    t.assert.deepStrictEqual(posts.map((e) => e.url), ['/calculator', '/calculator', '/calculator'])
    const counts = assertRepliesInRequestVersion(t, exchanges)
    t.assert.ok(counts[version] >= 3, `at least 3 SOAP ${version} POSTs, got ${JSON.stringify(counts)}`)
    t.assert.strictEqual(counts[version === '1.2' ? '1.1' : '1.2'], 0, `no POST in the other version, got ${JSON.stringify(counts)}`)
    t.assert.deepStrictEqual(posts.map((e) => e.status), [200, 200, version === '1.2' ? 400 : 500], 'Add, Echo, then the Sender fault (docs/protocol.md "Faults")')
    if (version === '1.2') {
      // The soap12 binding's soapAction, sent as the media type's action parameter.
      t.assert.deepStrictEqual(posts.map((e) => /;\s*action="([^"]*)"/.exec(e.requestType ?? '')?.[1]), ['urn:example:calc/Add', 'urn:example:calc/Echo', 'urn:example:calc/Divide'])
    }
  })
}
