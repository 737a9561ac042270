/**
 * docs/mock.md "The mock command", with real clients: zeep (python3-zeep)
 * and node-soap read the WSDL of a contract served by the mock (startMock(),
 * as `fastify-soap mock` runs it, on a free loopback port) and call every
 * operation of it with a minimal sample of its input; each decodes the
 * answer, and every answer validates against the contract's own XSD
 * (xmllint). Three contracts of the corpus: OCPP 1.6 (SOAP 1.2), Microsoft
 * Advertising's Reporting API (made by WCF), and CMIS 1.1's repository
 * service (derived types: its answers carry xsi:type).
 */
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import { readContract } from '../lib/index'
import { mockOptions, startMock, type MockOptions } from '../lib/cli/mock'
import { sampleValue } from '../lib/codec/sample'
import { invalidAgainstXsd } from './contract-xsd'
import { requireXmllint, sharedFixture } from './helper'
import { CLIENTS, requireClient, runClient } from './interop'

const PYTHON = '/usr/bin/python3'
const ZEEP = join(CLIENTS, 'contract_zeep.py')
const NODE_SOAP = join(__dirname, 'clients', 'contract-node-soap.js')

const CASES = [
  { what: 'OCPP 1.6 Central System (SOAP 1.2)', wsdl: ['ocpp16', 'OCPP_CentralSystemService_1.6.wsdl'], args: [] as string[] },
  { what: 'Microsoft Advertising Reporting (WCF)', wsdl: ['bingads-reporting', 'reporting_service.wsdl'], args: ['--ignore-policy-assertion', '{http://schemas.xmlsoap.org/ws/2005/07/securitypolicy}TransportBinding'] },
  { what: 'CMIS 1.1 RepositoryService (derived types)', wsdl: ['cmis11', 'CMISWS-Service.wsdl'], args: ['--service', 'RepositoryService'] }
]

/** The types a schema's `$type` values name, by tag: their XML Schema names (xml.typeNamespace, xml.typeName). */
function typeNames (schema: unknown): Map<string, [string, string]> {
  const out = new Map<string, [string, string]>()
  for (const def of Object.values((schema as { $defs?: Record<string, { properties?: { $type?: { const?: string } }, xml?: { typeName?: string, typeNamespace?: string } }> }).$defs ?? {})) {
    const tag = def.properties?.$type?.const
    if (tag !== undefined) out.set(tag, [def.xml?.typeNamespace ?? '', def.xml?.typeName ?? tag])
  }
  return out
}

/**
 * A sample as a client sends it: each `$type` as zeep names a type
 * (`{namespace}name`), or as node-soap writes xsi:type (a prefix the WSDL
 * declares, which node-soap declares on its envelope).
 */
function forClient (value: unknown, types: Map<string, [string, string]>, client: 'zeep' | 'node-soap', wsdl = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => forClient(v, types, client, wsdl))
  if (typeof value !== 'object' || value === null) return value
  const { $type, ...rest } = value as Record<string, unknown>
  const own = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, forClient(v, types, client, wsdl)]))
  if ($type === undefined) return own
  const [namespace, name] = types.get($type as string) as [string, string]
  const prefix = new RegExp(`xmlns:([\\w.-]+)="${namespace.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}"`).exec(wsdl)?.[1] as string
  return client === 'zeep' ? { $type: `{${namespace}}${name}`, ...own } : { attributes: { 'xsi:type': `${prefix}:${name}` }, ...own }
}

for (const c of CASES) {
  test(`docs/mock.md "The mock command": zeep and node-soap call every operation of ${c.what} served by the mock and decode every answer, which validates against the contract's XSD`, async (t: TestContext) => {
    const wsdl = sharedFixture(t, 'wsdl', ...c.wsdl)
    if (wsdl === undefined) return
    const zeep = requireClient(t, 'python3-zeep', PYTHON, ['-c', 'import zeep'])
    if (!zeep || !requireXmllint(t)) return
    const options = mockOptions([wsdl, '--port', '0', ...c.args]) as MockOptions
    const app = await startMock(options, () => {})
    t.after(() => app.close())
    const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/mock`
    const contract = await readContract({ wsdl, service: options.service })
    const served = await (await fetch(`${url}?wsdl`)).text()
    const service = served.slice(served.search(new RegExp(`<(?:\\w+:)?service\\s+name="${contract.name}"`)))
    const port = /<(?:\w+:)?port\s+name="([^"]+)"/.exec(service)?.[1] as string
    const soap12 = contract.bindings[0].version === '1.2'
    const answers: Array<[string, string]> = []
    for (const [name, op] of Object.entries(contract.operations)) {
      const args = op.input === undefined ? {} : sampleValue(op.input)
      // An answer of no content (OCPP's empty responses) decodes as nothing.
      const empty = op.output === undefined || Object.keys(sampleValue(op.output, { rich: true }) as object).length === 0
      const types = typeNames(op.input)
      const spec = { wsdl: `${url}?wsdl`, service: contract.name, port, operation: name, args: forClient(args, types, 'zeep') }
      const z = await runClient(PYTHON, [ZEEP, JSON.stringify(spec)])
      t.assert.strictEqual(z.error, undefined, `zeep ${name}: ${String(z.error)}`)
      t.assert.ok(empty || (z.result !== null && z.result !== undefined), `zeep ${name} decodes a result`)
      answers.push([`zeep ${name}`, z.received as string])
      const n = await runClient(process.execPath, [NODE_SOAP, JSON.stringify({ ...spec, args: forClient(args, types, 'node-soap', served), soap12 })])
      t.assert.strictEqual(n.error ?? n.fault, undefined, `node-soap ${name}: ${JSON.stringify(n.error ?? n.fault)}`)
      t.assert.ok(empty || (n.result !== null && n.result !== undefined), `node-soap ${name} decodes a result`)
      answers.push([`node-soap ${name}`, n.received as string])
    }
    t.assert.deepStrictEqual(invalidAgainstXsd(t, contract, answers), [], 'every answer is valid against the contract\'s XSD')
    if (c.wsdl[0] === 'cmis11') t.assert.ok(answers.some(([, xml]) => /xsi:type=/.test(xml)), 'an answer carries a derived type')
  })
}
