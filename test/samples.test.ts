/**
 * docs/mock.md "Sample values": sampleValue() gives, for any operation
 * schema, a value its validator accepts and the codec writes; minimal
 * (required content) or rich (optional content, a derived type, a choice's
 * branch, one item per array), the same for the same seed. Checked on a
 * schema of every construct, and on every operation of the corpus of
 * real-world WSDLs (../shared/fixtures/wsdl): each sample, input and output,
 * validates against the operation's schema (Ajv, as the service compiles it)
 * and, written as XML, against the contract's own XSD (xmllint).
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import { DOMParser, type Element as DomElement } from '@xmldom/xmldom'
import { readContract } from '../lib/index'
import { contractXsd } from './contract-xsd'
import { sampleEnvelope, sampleValue, sampleWriter, writeSample } from '../lib/codec/sample'
import { createAjv, compile } from '../lib/codec/validation'
import { CONTRACT_NS, CONTRACT_NS_U, contractWsdl, requireXmllint, sharedFixture, SOAP11_ENV, SOAP12_ENV } from './helper'

type Schema = Record<string, unknown>

const TNS = 'urn:sample'
const SEEDS = [1, 2, 3]

/** A schema of every construct the samples honour. */
const EVERY: Schema = {
  type: 'object',
  xml: { name: 'every', namespace: TNS },
  properties: {
    code: { type: 'string', pattern: '^(?:[A-Z]{3}-\\d{2,4}(?:\\.[a-f]+)?)$' },
    letters: { type: 'string', pattern: '^\\p{Lu}\\p{Ll}+$', minLength: 5, maxLength: 7 },
    both: { type: 'string', pattern: '^(?=[a-c]{4}$)(?:a|b|c)+$' },
    kind: { type: 'string', enum: ['first', 'second', 'third'] },
    count: { type: 'integer', minimum: 10, maximum: 12 },
    share: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
    even: { type: 'integer', multipleOf: 2, minimum: 41 },
    blob: { type: 'string', contentEncoding: 'base64', xml: { minOctets: 3, maxOctets: 3 } },
    hex: { type: 'string', contentEncoding: 'base16', xml: { minOctets: 2, maxOctets: 2 } },
    short: { type: 'string', minLength: 2, maxLength: 3 },
    long: { type: 'string', minLength: 20 },
    when: { type: 'string', format: 'date-time' },
    day: { type: 'string', format: 'date' },
    flag: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string', enum: ['x', 'y'] }, xml: { list: true } },
    lines: { type: 'array', items: { type: 'integer', minimum: 5 }, minItems: 2, maxItems: 3 },
    maybe: { type: ['string', 'null'], maxLength: 2 },
    id: { type: 'string', xml: { attribute: true } },
    shape: { oneOf: [{ $ref: '#/$defs/Shape' }, { $ref: '#/$defs/Circle' }] },
    tree: { $ref: '#/$defs/Tree' },
    extra: { type: 'array', items: { type: 'object' }, xml: { any: true, anyExcept: [TNS] } },
    holder: { type: 'object', properties: { raw: { type: 'array', items: { type: 'object' }, minItems: 1, xml: { any: true, anyNamespaces: ['', 'urn:other'] } } }, required: ['raw'] },
    a: { type: 'string' },
    b: { type: 'string' },
    c: { type: 'string' }
  },
  required: ['holder', 'code', 'letters', 'both', 'kind', 'count', 'share', 'even', 'blob', 'hex', 'short', 'long', 'when', 'day', 'flag', 'lines', 'shape', 'tree'],
  // A choice of a, or b with c: exactly one branch.
  not: { anyOf: [{ properties: { a: true, b: true }, required: ['a', 'b'] }, { properties: { a: true, c: true }, required: ['a', 'c'] }] },
  anyOf: [{ properties: { a: true }, required: ['a'] }, { properties: { b: true, c: true }, required: ['b', 'c'] }],
  additionalProperties: false,
  $defs: {
    Shape: { type: 'object', xml: { abstract: true }, properties: { $type: { const: 'Shape' }, name: { type: 'string' } }, required: ['$type', 'name'], additionalProperties: false },
    Circle: { type: 'object', properties: { $type: { const: 'Circle' }, name: { type: 'string' }, radius: { type: 'number', minimum: 1 } }, required: ['$type', 'name', 'radius'], additionalProperties: false },
    Tree: { type: 'object', properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Tree' } } }, required: ['label'], additionalProperties: false }
  }
}

test('docs/mock.md "Sample values": minimal and rich samples of a schema of every construct validate and are written, the same for the same seed', (t: TestContext) => {
  const validate = compile(createAjv(), EVERY, 'every')
  for (const rich of [false, true]) {
    for (const seed of SEEDS) {
      const value = sampleValue(EVERY, { rich, seed }) as Record<string, unknown>
      t.assert.ok(validate(value), `${rich ? 'rich' : 'minimal'} ${seed}: ${JSON.stringify(validate.errors)} ${JSON.stringify(value)}`)
      t.assert.deepStrictEqual(sampleValue(EVERY, { rich, seed }), value)
      // The derived type stands in for the abstract declared one; a choice takes one branch.
      t.assert.strictEqual((value.shape as Schema).$type, 'Circle')
      t.assert.ok(value.a !== undefined || (value.b !== undefined && value.c !== undefined))
      // A wildcard gets the raw elements it requires, in a namespace it admits; none where it requires none.
      t.assert.deepStrictEqual([value.extra, ((value.holder as Schema).raw as Array<{ namespace: string }>).map((e) => e.namespace)], [undefined, ['urn:other']])
      const xml = writeSample(EVERY, value)
      t.assert.match(xml, /^<[^>]*every /)
      if (!rich) {
        for (const optional of ['tags', 'maybe', 'id']) t.assert.strictEqual(value[optional], undefined, optional)
        t.assert.strictEqual((value.tree as Schema).children, undefined)
      } else {
        for (const optional of ['tags', 'maybe', 'id']) t.assert.notStrictEqual(value[optional], undefined, optional)
        t.assert.strictEqual(((value.tree as Schema).children as unknown[]).length, 1)
        t.assert.match(xml, /xsi:type="[^"]*Circle"/)
      }
    }
  }
  const values = SEEDS.map((seed) => JSON.stringify(sampleValue(EVERY, { rich: true, seed })))
  t.assert.strictEqual(new Set(values).size, SEEDS.length, 'seeds vary a rich sample')
})

test('docs/mock.md "Sample values": sample envelopes of an input, in SOAP 1.1 and 1.2, and an empty Body for no input', (t: TestContext) => {
  for (const version of ['1.1', '1.2'] as const) {
    const envelope = sampleEnvelope(EVERY, version, { rich: true })
    const root = new DOMParser().parseFromString(envelope, 'text/xml').documentElement as DomElement
    t.assert.strictEqual(root.namespaceURI, version === '1.1' ? SOAP11_ENV : SOAP12_ENV)
    t.assert.match(envelope, /<soap:Body><[^>]*every /)
    t.assert.match(sampleEnvelope(undefined, version), /<soap:Body><\/soap:Body>/)
  }
})

/** A contract whose messages hold wildcards of every namespace constraint and processContents, each in an element of its own. */
const WILDCARDS = contractWsdl({
  types: `<xs:schema targetNamespace="${CONTRACT_NS}" elementFormDefault="qualified">
      <xs:import namespace="${CONTRACT_NS_U}"/><xs:import namespace="urn:n"/><xs:import/>
      <xs:element name="Op"><xs:complexType><xs:sequence>
        <xs:element name="other"><xs:complexType><xs:sequence><xs:any namespace="##other"/></xs:sequence></xs:complexType></xs:element>
        <xs:element name="local"><xs:complexType><xs:sequence><xs:any namespace="##local"/></xs:sequence></xs:complexType></xs:element>
        <xs:element name="mine"><xs:complexType><xs:sequence><xs:any namespace="##targetNamespace"/></xs:sequence></xs:complexType></xs:element>
        <xs:element name="any"><xs:complexType><xs:sequence><xs:any minOccurs="2" maxOccurs="2"/></xs:sequence></xs:complexType></xs:element>
        <xs:element name="lax"><xs:complexType><xs:sequence><xs:any namespace="##other" processContents="lax"/></xs:sequence></xs:complexType></xs:element>
        <xs:element name="skip"><xs:complexType><xs:sequence><xs:any namespace="${CONTRACT_NS_U}" processContents="skip"/></xs:sequence></xs:complexType></xs:element>
        <xs:element name="maybe" minOccurs="0"><xs:complexType><xs:sequence><xs:any namespace="urn:n"/></xs:sequence></xs:complexType></xs:element>
      </xs:sequence></xs:complexType></xs:element>
      <xs:element name="OpResponse"><xs:complexType><xs:sequence>
        <xs:element name="nowhere"><xs:complexType><xs:sequence><xs:any namespace="urn:nowhere"/></xs:sequence></xs:complexType></xs:element>
        <xs:element name="loop"><xs:complexType><xs:sequence><xs:any namespace="${CONTRACT_NS_U}"/></xs:sequence></xs:complexType></xs:element>
      </xs:sequence></xs:complexType></xs:element>
      <xs:element name="Code"><xs:simpleType><xs:restriction base="xs:string"><xs:pattern value="[A-Z]{3}-[0-9]{2}"/></xs:restriction></xs:simpleType></xs:element>
    </xs:schema>
    <xs:schema targetNamespace="${CONTRACT_NS_U}" elementFormDefault="qualified">
      <xs:element name="Loop"><xs:complexType><xs:sequence><xs:any namespace="##targetNamespace"/></xs:sequence></xs:complexType></xs:element>
    </xs:schema>
    <xs:schema targetNamespace="urn:n" xmlns:n="urn:n" elementFormDefault="qualified">
      <xs:element name="Head" abstract="true" type="xs:string"/>
      <xs:complexType name="Shape" abstract="true"><xs:sequence/></xs:complexType><xs:element name="Shaped" type="n:Shape"/>
      <xs:element name="Broken"><xs:complexType><xs:sequence><xs:element ref="n:Head"/></xs:sequence></xs:complexType></xs:element>
      <xs:element name="Note"><xs:complexType><xs:sequence>
        <xs:element name="text" type="xs:string"/><xs:element name="more" type="xs:string" minOccurs="0"/>
      </xs:sequence><xs:attribute name="count" type="xs:positiveInteger" use="required"/></xs:complexType></xs:element>
    </xs:schema>
    <xs:schema>
      <xs:element name="record"><xs:complexType><xs:sequence><xs:element name="a" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
      <xs:element name="plain" type="Small"/>
      <xs:simpleType name="Small"><xs:restriction base="xs:int"><xs:maxInclusive value="9"/></xs:restriction></xs:simpleType>
    </xs:schema>`
})

/** Each raw element of a sample's wildcards, as `{namespace}localName`, by the element holding the wildcard. */
function rawNames (value: Record<string, unknown>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(value).map(([name, holder]) =>
    [name, ((holder as Schema).$any as Array<{ namespace: string, localName: string }>).map((e) => `{${e.namespace}}${e.localName}`)]))
}

/** Writes each sample as a file of `dir` and validates them all against the contract's XSD alone; the names of those that fail. */
function refusedByXsd (t: TestContext, contract: Awaited<ReturnType<typeof readContract>>, dir: string, samples: ReadonlyArray<[string, string]>): string[] {
  samples.forEach(([, xml], i) => writeFileSync(join(dir, `${i}.xml`), xml))
  const result = spawnSync('xmllint', ['--noout', '--nonet', '--schema', contractXsd(contract, dir), ...samples.map((_, i) => join(dir, `${i}.xml`))], { encoding: 'utf8', timeout: 60_000 })
  t.assert.ok(result.status === 0 || (result.status === 3 && / fails to validate/.test(result.stderr)), result.stderr.slice(0, 2000))
  return result.stderr.split('\n').filter((l) => / fails to validate$/.test(l)).map((l) => samples[Number(/(\d+)\.xml fails/.exec(l)?.[1])][0])
}

test('docs/mock.md "Wildcards": a strict wildcard gets a global element of the contract it admits (##other, ##local, ##targetNamespace, ##any), of simple content first, not abstract nor of an abstract type, not containing itself, one the contract can read, sampled from its own schema: valid against the contract\'s XSD alone (xmllint); a lax or skip one the placeholder, which its XSD accepts; a strict one that admits none (none in its namespaces, or only one that requires the wildcard again) the placeholder, which its XSD refuses', async (t: TestContext) => {
  const contract = await readContract({ document: WILDCARDS })
  const { input, output } = contract.operations.Op
  const validate = compile(createAjv(), input as Schema, 'Op')
  const write = sampleWriter(input as Schema)
  const samples: Array<[string, string]> = []
  for (const rich of [false, true]) {
    for (const seed of SEEDS) {
      const value = sampleValue(input as Schema, { rich, seed }) as Record<string, unknown>
      t.assert.ok(validate(value), JSON.stringify(validate.errors))
      t.assert.deepStrictEqual(rawNames(value), {
        other: ['{urn:n}Note'],
        local: ['{}plain'],
        mine: [`{${CONTRACT_NS}}Code`],
        any: [`{${CONTRACT_NS}}Code`, `{${CONTRACT_NS}}Code`],
        lax: ['{urn:fastify-soap:sample}sample'],
        skip: [`{${CONTRACT_NS_U}}sample`]
      })
      samples.push([`${rich ? 'rich' : 'minimal'} ${seed}`, write(value)])
    }
  }
  // The element's content is a sample of its own schema: the required child and attribute, a value of its pattern.
  t.assert.match(samples[0][1], /<ns1:Note xmlns:ns1="urn:n" count="1"><ns1:text>sample<\/ns1:text><\/ns1:Note>/)
  t.assert.match(samples[0][1], /<ns1:Code xmlns:ns1="urn:k">[A-Z]{3}-[0-9]{2}<\/ns1:Code>/)
  if (!requireXmllint(t)) return
  const dir = mkdtempSync(join(tmpdir(), 'wildcards-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  t.assert.deepStrictEqual(refusedByXsd(t, contract, dir, samples), [])
  const refused = sampleValue(output as Schema) as Record<string, unknown>
  t.assert.deepStrictEqual(rawNames(refused), { nowhere: ['{urn:nowhere}sample'], loop: [`{${CONTRACT_NS_U}}sample`] })
  const again = mkdtempSync(join(dir, 'refused-'))
  t.assert.deepStrictEqual(refusedByXsd(t, contract, again, [['minimal', sampleWriter(output as Schema)(refused)]]), ['minimal'])
})

// ------------------------------------------------------------ the corpus ---

interface CorpusEntry {
  readonly wsdl: readonly string[]
  readonly options?: Record<string, unknown>
}

/** Every WSDL of the corpus the loader accepts, with the service, binding or catalog it needs; rpc/encoded ones are refused and left out. */
const CORPUS: readonly CorpusEntry[] = [
  { wsdl: ['afip-logincms', 'logincms.wsdl'] },
  { wsdl: ['bingads-reporting', 'reporting_service.wsdl'] },
  { wsdl: ['cmis11', 'CMISWS-Service.wsdl'], options: { service: 'RepositoryService' } },
  { wsdl: ['cmis11', 'CMISWS-Service.wsdl'], options: { service: 'ObjectService' } },
  { wsdl: ['cxf-hello-world', 'hello_world.wsdl'], options: { service: 'SOAPService' } },
  { wsdl: ['cxf-hello-world', 'hello_world.wsdl'], options: { service: 'SOAPService_DocLitBare' } },
  { wsdl: ['cxf-hello-world', 'hello_world_soap12.wsdl'] },
  { wsdl: ['cxf-rpc-lit', 'hello_world_rpc_lit.wsdl'], options: { service: 'SOAPServiceRPCLit' } },
  { wsdl: ['cxf-ws-security-ut', 'hello_world.wsdl'] },
  { wsdl: ['cybersource', 'CyberSourceTransaction_1.26.wsdl'] },
  { wsdl: ['digipoort-aanleverservice', '1.wsdl'], options: { catalog: { '/cpl/digipoort-koppelvlak-1.2.xsd': './digipoort-koppelvlak-1.xsd' } } },
  { wsdl: ['ews', 'services.wsdl'] },
  { wsdl: ['global-weather', 'global_weather.wsdl'] },
  { wsdl: ['ihe-hpd-dsml', 'wsdl', 'iti58.wsdl'], options: { root: '..' } },
  { wsdl: ['ihe-xds-b-registry', 'wsdl', 'XDS.b_DocumentRegistry.wsdl'], options: { root: '..' } },
  { wsdl: ['nfe-autorizacao', 'NfeAutorizacao.wsdl'] },
  { wsdl: ['ochp', 'ochp.wsdl'], options: { binding: 'eCHS-OCHP_1.4' } },
  { wsdl: ['ochp', 'ochp-direct.wsdl'], options: { binding: 'Operator_OCHP-direct_0.2' } },
  { wsdl: ['ocpp16', 'OCPP_CentralSystemService_1.6.wsdl'] },
  { wsdl: ['ocpp16', 'OCPP_ChargePointService_1.6.wsdl'] },
  { wsdl: ['onvif', 'devicemgmt.wsdl'] },
  { wsdl: ['onvif', 'media.wsdl'] },
  { wsdl: ['onvif', 'events.wsdl'], options: { binding: 'PullPointSubscriptionBinding' } },
  { wsdl: ['ota-reservation', 'reservation_service.wsdl'] },
  { wsdl: ['salesforce-partner', 'partner.wsdl'] },
  { wsdl: ['sdi-fatturapa', 'RicezioneFatture', 'RicezioneFatture_v1.0.wsdl'] },
  { wsdl: ['sdi-fatturapa', 'SdIRiceviFile', 'SdIRiceviFile_v1.0.wsdl'] },
  { wsdl: ['sdi-fatturapa', 'TrasmissioneFatture', 'TrasmissioneFatture_v1.1.wsdl'] },
  { wsdl: ['soap12-testsuite', 'soap12-test.wsdl'], options: { binding: 'Soap12TestDocBinding' } },
  { wsdl: ['vecozo-berichtuitwisseling', 'soap.wsdl'] },
  { wsdl: ['vies-checkvat', 'checkVatService.wsdl'] },
  { wsdl: ['wsi-scm', 'LoggingFacility.wsdl'] },
  { wsdl: ['wsi-scm', 'Retailer.wsdl'] },
  { wsdl: ['wsi-scm', 'Warehouse.wsdl'] }
]

test('docs/mock.md "Sample values": every sample (minimal and rich, three seeds) of every operation of the corpus validates against its schema and, written as XML, against the contract\'s XSD (xmllint)', async (t: TestContext) => {
  const corpus = sharedFixture(t, 'wsdl')
  if (corpus === undefined) return
  const xmllint = requireXmllint(t)
  const dir = mkdtempSync(join(tmpdir(), 'samples-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const started = Date.now()
  let samples = 0
  let operations = 0
  let checked = 0
  for (const entry of CORPUS) {
    const what = entry.wsdl.join('/') + (entry.options === undefined ? '' : ` ${JSON.stringify(entry.options)}`)
    const contract = await readContract({ wsdl: join(corpus, ...entry.wsdl), ...entry.options })
    const ajv = createAjv()
    const here = mkdtempSync(join(dir, 'c'))
    const written: string[] = []
    for (const [name, operation] of Object.entries(contract.operations)) {
      operations++
      for (const direction of ['input', 'output'] as const) {
        const schema = operation[direction]
        if (schema === undefined) continue
        const validate = compile(ajv, schema, `${name} ${direction}`)
        const write = sampleWriter(schema)
        for (const rich of [false, true]) {
          for (const seed of SEEDS) {
            const value = sampleValue(schema, { rich, seed })
            samples++
            t.assert.ok(validate(value), `${what} ${name} ${direction} ${rich ? 'rich' : 'minimal'} ${seed}: ${JSON.stringify(validate.errors?.slice(0, 3))}`)
            const xml = write(value)
            const file = join(here, `${written.length}.xml`)
            writeFileSync(file, xml)
            written.push(`${name} ${direction} ${rich ? 'rich' : 'minimal'} ${seed}`)
          }
        }
      }
    }
    if (!xmllint || written.length === 0) continue
    checked += written.length
    const driver = contractXsd(contract, here)
    const result = spawnSync('xmllint', ['--noout', '--nonet', '--schema', driver, ...written.map((_, i) => join(here, `${i}.xml`))], { encoding: 'utf8', timeout: 60_000, maxBuffer: 64 * 1024 * 1024 })
    const failed = result.stderr.split('\n').filter((line) => / fails to validate$/.test(line)).map((line) => written[Number(/(\d+)\.xml fails/.exec(line)?.[1])])
    t.assert.deepStrictEqual(failed, [], `${what}: ${result.stderr.split('\n').filter((l) => !l.endsWith(' validates')).slice(0, 6).join('\n')}`)
    t.assert.strictEqual(result.status, 0, `${what}: ${result.stderr.slice(0, 2000)}`)
  }
  t.diagnostic(`${samples} samples of ${operations} operations of ${CORPUS.length} contracts (${checked} of them by xmllint) in ${Date.now() - started} ms`)
})

test('docs/mock.md "Sample values": what a pattern\'s structure cannot give (a boundary, a backreference, a character none of the candidates is, a pattern past the reader) and presence rules needing more than three elements added give a sample the validator refuses', (t: TestContext) => {
  const ajv = createAjv()
  const cases: Array<[Schema, unknown]> = [
    [{ type: 'string', pattern: '^\\bab\\b$' }, 'ab'],
    [{ type: 'string', pattern: '^(a)\\1$' }, 'a'],
    [{ type: 'string', pattern: '^[\\u4e01]$' }, ''],
    [{ type: 'string', pattern: '^(?<n>a)\\k<n>$' }, ''],
    [{ type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' }, c: { type: 'string' }, d: { type: 'string' } }, anyOf: [{ properties: { a: true, b: true, c: true, d: true }, required: ['a', 'b', 'c', 'd'] }] }, {}]
  ]
  for (const [schema, expected] of cases) {
    const value = sampleValue(schema)
    t.assert.deepStrictEqual(value, expected, JSON.stringify(schema))
    if (/\\1|\\k</.test(String(schema.pattern))) {
      // A backreference has no linear-time form: such a schema never reaches a service (docs/services.md "What is refused").
      t.assert.throws(() => compile(ajv, schema, 'edge'), { code: 'SOAP_ERR_SERVICE_SCHEMA' }, JSON.stringify(schema))
      continue
    }
    t.assert.strictEqual(compile(ajv, schema, 'edge')(value), expected === 'ab', JSON.stringify(schema))
  }
})
