/**
 * Interop (docs/wsdl.md "Tested clients"): Perl SOAP::Lite without a WSDL (libsoap-lite-perl) against
 * the demo's Calculator, by test/clients/soaplite.pl: document/literal by
 * hand, the parameters in the service's namespace, the WSDL's soapAction.
 */
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import { CLIENTS, assertRepliesInRequestVersion, requireClient, runClient, startDemo } from './interop'

const TEXT = 'héllo ✓ <&> 𝄞'
const REASON = 'division by zero'

/** The local part of a QName as a client surfaces it ('soap:Client' or 'Client'). */
const localName = (qname: unknown): string => typeof qname === 'string' ? qname.slice(qname.indexOf(':') + 1) : String(qname)

for (const version of ['1.1', '1.2'] as const) {
  test(`docs/wsdl.md "Tested clients": Perl SOAP::Lite (no WSDL) SOAP ${version}: Add, Echo, Divide; every reply in the request's version`, async (t: TestContext) => {
    if (!requireClient(t, 'Perl SOAP::Lite (libsoap-lite-perl)', 'perl', ['-MSOAP::Lite', '-e', '1'])) return
    const { url, exchanges } = await startDemo(t)
    const report = await runClient('perl', [join(CLIENTS, 'soaplite.pl'), url, version])
    const seen = `SOAP::Lite reported ${JSON.stringify(report)}`
    t.diagnostic(`SOAP::Lite ${String(report.soaplite)}, Perl ${String(report.perl)}`)
    t.assert.deepStrictEqual(report.warnings, [], seen)

    // The calls, each with the WSDL's soapAction.
    t.assert.strictEqual(report.add, 5, seen)
    t.assert.strictEqual(report.echo, TEXT, seen)
    const divide = report.divide as Record<string, unknown>
    if (version === '1.2') {
      t.assert.strictEqual(localName(divide.code), 'Sender', seen)
      t.assert.strictEqual(divide.reason, REASON, seen)
    } else {
      t.assert.strictEqual(localName(divide.faultcode), 'Client', seen)
      t.assert.strictEqual(divide.faultstring, REASON, seen)
    }
    for (const op of ['Add', 'Echo', 'Divide']) {
      const exchange = report[`${op.toLowerCase()}Exchange`] as Record<string, unknown>
      t.assert.strictEqual(exchange.soapAction, `urn:example:calc/${op}`, seen)
    }

    // The server's side: every POST in the requested version.
    const posts = exchanges.filter((e) => e.method === 'POST')
    t.assert.deepStrictEqual(posts.map((e) => e.url), ['/calculator', '/calculator', '/calculator'])
    t.assert.strictEqual(exchanges.length, posts.length, 'no WSDL, no GET')
    const counts = assertRepliesInRequestVersion(t, exchanges)
    t.assert.ok(counts[version] >= 3, `at least 3 SOAP ${version} POSTs, got ${JSON.stringify(counts)}`)
    t.assert.strictEqual(counts[version === '1.2' ? '1.1' : '1.2'], 0, `no POST in the other version, got ${JSON.stringify(counts)}`)
    t.assert.deepStrictEqual(posts.map((e) => e.status), [200, 200, version === '1.2' ? 400 : 500], 'Add, Echo, then the Sender fault (docs/protocol.md "Faults")')
  })
}
