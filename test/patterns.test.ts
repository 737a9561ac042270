/**
 * docs/protocol.md "Limits", linear cost: patterns, an XSD's `xs:pattern` and a
 * code-first schema's `pattern`, are checked in time proportional to the
 * value (docs/contract-first.md "The mapping", docs/services.md "The
 * mapping"); a code-first pattern that has no linear-time form is refused at
 * ready(). The XSD patterns of the shared WSDLs are checked against xmllint.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import { DOMParser } from '@xmldom/xmldom'
import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import fc from 'fast-check'
import Fastify, { type FastifyInstance } from 'fastify'
import soap, { errorCodes } from '../lib/index'
import { xsdRegex } from '../lib/contract/xsd-regex'
import { CONTRACT_NS, contractWsdl, envelope, MEDIA, requireXmllint, sharedFixture } from './helper'

const XSD = 'http://www.w3.org/2001/XMLSchema'

/** A contract whose `k:Op` holds elements `v0`, `v1`... (each optional), of simple types restricting xs:string by these patterns. */
function patternsWsdl (patterns: readonly string[]): string {
  const types = patterns.map((p, i) => `<xs:simpleType name="P${i}"><xs:restriction base="xs:string"><xs:pattern value="${xmlEscape(p)}"/></xs:restriction></xs:simpleType>`).join('\n')
  const elements = patterns.map((_, i) => `<xs:element name="v${i}" type="k:P${i}" minOccurs="0" maxOccurs="unbounded"/>`).join('')
  return contractWsdl({
    types: `<xs:schema targetNamespace="${CONTRACT_NS}" elementFormDefault="qualified">${types}
      <xs:element name="Op"><xs:complexType><xs:sequence>${elements}</xs:sequence></xs:complexType></xs:element>
      <xs:element name="OpResponse"><xs:complexType><xs:sequence/></xs:complexType></xs:element>
    </xs:schema>`
  })
}

/** Text as XML character data or an attribute value: every character that markup or line-end handling would change, as a reference. */
function xmlEscape (text: string): string {
  return text.replace(/[&<>"'\t\n\r]/g, (c) => `&#${c.charCodeAt(0)};`)
}

async function serveContract (t: TestContext, document: string): Promise<FastifyInstance> {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.contract({ path: '/x', document, operations: { Op: async () => ({}) } })
  await app.ready()
  return app
}

async function post (app: FastifyInstance, body: string): Promise<{ statusCode: number, body: string }> {
  return await app.inject({ method: 'POST', url: '/x', headers: { 'content-type': MEDIA['1.1'] }, payload: envelope('1.1', body) })
}

/** Posts each value and asserts it is refused with a Sender fault on its pattern, in far less CPU time than a backtracking engine takes. */
async function assertRefusedQuickly (t: TestContext, app: FastifyInstance, body: (value: string) => string): Promise<void> {
  // 30 letters cost a backtracking engine seconds, 1,000 letters longer than any test runs: the shortest goes first.
  for (const length of [30, 1000, 100_000]) {
    const value = 'a'.repeat(length) + '!'
    const before = process.cpuUsage()
    const response = await post(app, body(value))
    const cpu = process.cpuUsage(before)
    t.assert.ok(cpu.user + cpu.system < 2_000_000, `${length} letters: ${(cpu.user + cpu.system) / 1000} ms of CPU`)
    t.assert.equal(response.statusCode, 500, `${length} letters`)
    t.assert.match(response.body, /<faultcode>soap:Client<\/faultcode>/)
    t.assert.match(response.body, /must match pattern/)
  }
  // The pattern still holds what it describes.
  t.assert.equal((await post(app, body('Words separated by spaces'))).statusCode, 200)
}

test('docs/protocol.md "Limits", linear cost: the XSD pattern ([A-Za-z0-9]+ ?)* refuses 30, 1,000 and 100,000 letters followed by "!" with a Sender fault, in linear time', async (t: TestContext) => {
  const app = await serveContract(t, patternsWsdl(['([A-Za-z0-9]+ ?)*']))
  await assertRefusedQuickly(t, app, (value) => `<k:Op xmlns:k="${CONTRACT_NS}"><k:v0>${value}</k:v0></k:Op>`)
})

/** A service whose operation Op reads one required string p of the given schema (a pattern or a format). */
async function serviceWith (t: TestContext, property: Record<string, string>): Promise<FastifyInstance> {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.service({
    path: '/x',
    namespace: 'urn:x',
    name: 'Svc',
    operations: {
      Op: {
        input: { type: 'object', properties: { p: { type: 'string', ...property } }, required: ['p'], additionalProperties: false },
        output: { type: 'object', properties: {} },
        handler: async () => ({})
      }
    }
  })
  return app
}

test('docs/protocol.md "Limits", linear cost: the code-first pattern ^([A-Za-z0-9]+ ?)*$ refuses 30, 1,000 and 100,000 letters followed by "!" with a Sender fault, in linear time, and patterns keep their ECMAScript meaning', async (t: TestContext) => {
  const app = await serviceWith(t, { pattern: '^([A-Za-z0-9]+ ?)*$' })
  await app.ready()
  await assertRefusedQuickly(t, app, (value) => `<x:Op xmlns:x="urn:x"><x:p>${value}</x:p></x:Op>`)
  // A pattern keeps its ECMAScript meaning (., \\s, [^], code point escapes); a lookahead at the start of a pattern anchored by ^
  // is a condition of its own.
  const cases: Array<[string, string[], string[]]> = [
    ['^a.b$', ['axb', 'a\u00a0b', 'a😀b'], ['a\u2028b', 'a\u2029b', 'ab']],
    ['^\\s\\S$', ['\u00a0x', '\u3000\u2029x'.slice(1)], ['xx', '\u00a0\u00a0']],
    ['^[^][]?$', ['x', '😀'], ['xy']],
    ['^\\u{1F600}\\uD83D\\uDE01\\x41\\u0042$', ['😀😁AB'], ['😀😁AC']],
    ['^(?=[a-z]{3}$)(?!abc)[a-c]+$', ['abb', 'cab'], ['abc', 'ab', 'abbb', 'abd']],
    ['[0-9]', ['x1'], ['xy']],
    ['^[\\s\\S]{2}$', ['\u00a0x', 'x\u3000'], ['x']],
    ['^\\cJ\\t\\0?\\x41[\\b]? \\bAb\\Bc\\p{Script=Greek}$', ['\n\tA Abcα'], ['\n\tAAbcα', '\n\tA Abca']],
    ['^\\.[\\-\\]:]\\/$', ['.-/', '.]/', '.:/'], ['x-/', '.a/']],
    ['^(?<year>[0-9]{4})(?:-[0-9]{2}){0,2}$', ['2026', '2026-11-26'], ['2026-11-26-01']]
  ]
  for (const [pattern, accepted, refused] of cases) {
    const service = await serviceWith(t, { pattern })
    await service.ready()
    for (const [values, status] of [[accepted, 200], [refused, 500]] as const) {
      for (const value of values) {
        const response = await post(service, `<x:Op xmlns:x="urn:x"><x:p>${xmlEscape(value)}</x:p></x:Op>`)
        t.assert.equal(response.statusCode, status, `${pattern} on ${JSON.stringify(value)}`)
      }
    }
  }
})

test('docs/services.md "What is refused": a code-first pattern with a lookaround or a backreference (no linear-time form), in place or in a named schema, fails ready() with SOAP_ERR_SERVICE_SCHEMA naming its JSON pointer', async (t: TestContext) => {
  const cases: Array<[string, RegExp]> = [
    ['(a)\\1', /backreference/],
    ['(?<y>[0-9]{4})-\\k<y>', /backreference/],
    ['a(?=b)', /lookaround/],
    ['(?<!a)b', /lookaround/],
    ['^(?=a)b|c', /lookahead at the start of a pattern whose rest has alternatives/],
    ['a{1001}', /RE2 cannot run it/],
    ['\\p{Letter}', /RE2 cannot run it/],
    ['\\p{scx=Latn}', /RE2 has no Script_Extensions/],
    ['[', /no ECMAScript regular expression/]
  ]
  for (const [pattern, reason] of cases) {
    const app = await serviceWith(t, { pattern })
    await t.assert.rejects(async () => { await app.ready() }, (err: Error) => {
      t.assert.ok(err instanceof errorCodes.SOAP_ERR_SERVICE_SCHEMA, err.message)
      t.assert.match(err.message, /schema Svc\.Op\.input\/properties\/p\/pattern: the pattern /)
      t.assert.match(err.message, reason)
      return true
    }, pattern)
  }
  // In a named schema: its pointer under the `$defs` of the schema that first reaches it.
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  const $defs = { Code: { type: 'string', pattern: 'a(?=b)' } }
  app.soap.service({
    path: '/x',
    namespace: 'urn:x',
    name: 'Svc',
    operations: {
      Op: {
        input: { type: 'object', properties: { p: { $ref: '#/$defs/Code' } }, required: ['p'], additionalProperties: false, $defs },
        handler: async () => ({})
      }
    }
  })
  await t.assert.rejects(async () => { await app.ready() }, (err: Error) => {
    t.assert.ok(err instanceof errorCodes.SOAP_ERR_SERVICE_SCHEMA, err.message)
    t.assert.match(err.message, /schema Svc\.Op\.input\/\$defs\/Code\/pattern: the pattern .*lookaround/)
    return true
  })
})

test('docs/protocol.md "Limits", linear cost: a code-first format "url" refuses "http://", 300,000 colons and "!" with a Sender fault in linear time, and accepts and refuses what ajv-formats\' url does', async (t: TestContext) => {
  const app = await serviceWith(t, { format: 'url' })
  await app.ready()
  const send = async (url: string): Promise<number> => (await post(app, `<x:Op xmlns:x="urn:x"><x:p>${xmlEscape(url)}</x:p></x:Op>`)).statusCode
  // ajv-formats' RegExp takes seconds for 100,000 colons (quadratic), minutes for 300,000.
  const before = process.cpuUsage()
  t.assert.equal(await send('http://' + ':'.repeat(300_000) + '!'), 500)
  const cpu = process.cpuUsage(before)
  t.assert.ok(cpu.user + cpu.system < 2_000_000, `${(cpu.user + cpu.system) / 1000} ms of CPU`)
  t.assert.equal(await send('http://' + ':'.repeat(300_000) + '@example.com'), 200)
  // The language is ajv-formats' own, its lookaheads (the private IPv4 ranges) included.
  const reference = new Ajv()
  addFormats(reference)
  const urlFormat = reference.formats.url as RegExp
  const octets = ['0', '05', '9', '10', '16', '31', '32', '126', '127', '168', '169', '172', '192', '223', '224', '254', '255', '256']
  const urls = octets.flatMap((a) => octets.map((b) => `http://${a}.${b}.1.${b}`))
  for (const host of ['a.bc', 'A-B.c-d.EF', '-a.bc', 'a.b1', 'münchen.de', 'a..bc', 'localhost']) {
    for (const around of ['http://|', 'HTTPS://u:p@|:80/p?q#f', 'ftp://|:8', 'file://|', 'http://a b@|', 'http://|/a b']) urls.push(around.replace('|', host))
  }
  for (const url of urls) t.assert.equal(await send(url), urlFormat.test(url) ? 200 : 500, url)
})

test('docs/contract-first.md "The mapping": a class subtraction keeps what XML Schema Part 2 §F says, a nested one included ([a-z-[aeiou-[e]]] holds e, which libxml2 leaves out)', async (t: TestContext) => {
  const app = await serveContract(t, patternsWsdl(['[a-z-[aeiou-[e]]]+', '[^a-c-[x]]', '[\\i-[:]][\\c-[:]]*']))
  const cases: Array<[number, string, number]> = [
    [0, 'e', 200], [0, 'bled', 200], [0, 'a', 500], [0, 'blue', 500], [0, 'B', 500],
    [1, 'd', 200], [1, 'b', 500], [1, 'x', 500],
    [2, 'ns1', 200], [2, '_a.b-c', 200], [2, 'é\u0300', 200], [2, 'a:b', 500], [2, '1a', 500], [2, ':a', 500]
  ]
  for (const [index, value, status] of cases) {
    const response = await post(app, `<k:Op xmlns:k="${CONTRACT_NS}"><k:v${index}>${xmlEscape(value)}</k:v${index}></k:Op>`)
    t.assert.equal(response.statusCode, status, `pattern ${index} on ${JSON.stringify(value)}`)
  }
})

// ------------------------------------------------- against libxml2 (xmllint) ---

/** The `xs:pattern` values of every WSDL and XSD under a folder. */
function fixturePatterns (folder: string): string[] {
  const patterns = new Set<string>()
  const walk = (path: string): void => {
    for (const name of readdirSync(path)) {
      const file = join(path, name)
      if (statSync(file).isDirectory()) walk(file)
      else if (/\.(wsdl|xsd)$/i.test(name)) {
        const document = new DOMParser({ onError: () => {} }).parseFromString(readFileSync(file, 'utf8').replace(/^[\uFEFF\s]+/, ''), 'text/xml')
        const facets = document.getElementsByTagNameNS(XSD, 'pattern')
        for (let i = 0; i < facets.length; i++) patterns.add(facets[i].getAttribute('value') ?? '')
      }
    }
  }
  walk(folder)
  return [...patterns].sort()
}

/** A pattern in strict XML Schema syntax: an escaped character that Part 2 §F.1.1 gives no escape (`\/`, `\:`), which the plugin reads as itself, written as itself. */
function strictForm (pattern: string): string {
  return pattern.replace(/\\(.)/gu, (escape, c: string) => /[nrt\\|.?*+(){}\-[\]^sSiIcCdDwWpP]/.test(c) ? escape : c)
}

/** Patterns using what Part 2 §F.1 gives XML Schema's regular expressions of their own, beside those of the WSDLs. */
const ESCAPES = ['\\w+', '[\\W]', '\\S*', '[\\S-[a]]+', '[a-z-[aeiou]]+', '[^\\s\\d]+', '\\p{Lu}\\p{Ll}*', '[\\p{N}-[\\d]]', '\\I\\C*', '\\i\\c*',
  '\\D\\d', '[^a-c-[x]]', 'a.b', '\\^\\$', '[\\^\\-\\]\\[]+', '[+\\-.]+', '[^\\p{L}]', '\\P{Nd}+', '[a-c\\d]+', '\\p{L}\\n?']

/** Characters that tell patterns apart: digits of other scripts, spaces of Unicode and XML, punctuation, a letter beyond the BMP. */
const PROBES = ['a', 'Z', '0', '9', '\u0663', ' ', '\t', '\n', '\u00a0', '-', '.', ':', '*', '/', '!', '_', 'é', '\u4e00', '😀']

/**
 * Strings that may be sent in XML 1.0 (its Char production), of Latin characters (whose Unicode properties have not
 * changed since XML Schema 1.0's Unicode 3.1) or the probes.
 */
function sendable (text: string): boolean {
  return [...text].every((c) => PROBES.includes(c) || /^[\t\n\r\x20-\x7e\u00a0-\u024f]$/u.test(c))
}

/** For each pattern: strings made to match its ECMAScript form, and each of them changed at one place. */
function samples (pattern: RegExp, seed: number): string[] {
  const matching = fc.sample(fc.stringMatching(pattern, { size: 'small' }), { numRuns: 40, seed }).filter(sendable).slice(0, 8)
  const change = fc.tuple(fc.constantFrom(...matching, ''), fc.nat(), fc.constantFrom(...PROBES), fc.constantFrom('insert', 'replace', 'delete'))
  const changed = fc.sample(change, { numRuns: 10, seed })
    .map(([text, at, probe, how]) => {
      const chars = [...text]
      const i = at % (chars.length + 1)
      if (how === 'insert') chars.splice(i, 0, probe)
      else chars.splice(i, 1, ...(how === 'replace' ? [probe] : []))
      return chars.join('')
    })
  return [...new Set([...matching, ...changed, ''])]
}

test('docs/contract-first.md "The mapping": the XSD patterns of the shared WSDLs, and XML Schema\'s own escapes, accept and refuse what xmllint (libxml2) does, on strings made to match them and changed at one place', async (t: TestContext) => {
  const folder = sharedFixture(t, 'wsdl')
  if (folder === undefined || !requireXmllint(t)) return
  const found = fixturePatterns(folder)
  t.assert.ok(found.length > 40, `${found.length} patterns`)
  const patterns = [...found, ...ESCAPES]
  const app = await serveContract(t, patternsWsdl(patterns))
  const cases: Array<{ index: number, value: string }> = []
  patterns.forEach((pattern, index) => {
    // Made to fit the pattern as the plugin reads it; xmllint judges them, and the probes put in other digits, spaces, letters.
    // (fast-check reads no `\\u{10ffff}`: the strings it makes stop at the BMP's end.)
    const own = new RegExp(`^(?:${xsdRegex(pattern, 'test').replace(/\\u\{10ffff\}/g, '\\uffff')})$`, 'u')
    for (const value of samples(own, index + 1)) cases.push({ index, value })
  })
  // xmllint reads one document holding every case, one per line, and names the line of each it refuses.
  const dir = mkdtempSync(join(tmpdir(), 'patterns-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  const strict = patternsWsdl(patterns.map(strictForm))
  writeFileSync(join(dir, 'p.xsd'), strict.slice(strict.indexOf('<xs:schema'), strict.indexOf('</wsdl:types>')).replace('<xs:schema ', `<xs:schema xmlns:xs="${XSD}" xmlns:k="${CONTRACT_NS}" `))
  const ordered = [...cases].sort((a, b) => a.index - b.index)
  writeFileSync(join(dir, 'p.xml'), `<k:Op xmlns:k="${CONTRACT_NS}">\n${ordered.map((c) => `<k:v${c.index}>${xmlEscape(c.value)}</k:v${c.index}>`).join('\n')}\n</k:Op>\n`)
  const result = spawnSync('xmllint', ['--noout', '--nonet', '--schema', join(dir, 'p.xsd'), join(dir, 'p.xml')], { encoding: 'utf8', timeout: 30_000 })
  t.assert.doesNotMatch(result.stderr, /failed to compile|parser error/, 'xmllint reads every pattern')
  const refusedLines = new Set([...result.stderr.matchAll(/^.*p\.xml:(\d+): .*\[facet 'pattern'\]/gm)].map((m) => Number(m[1])))
  let refusals = 0
  const disagreements: string[] = []
  for (const [i, { index, value }] of ordered.entries()) {
    const libxml2 = refusedLines.has(i + 2) ? 500 : 200
    if (libxml2 === 500) refusals++
    const response = await post(app, `<k:Op xmlns:k="${CONTRACT_NS}"><k:v${index}>${xmlEscape(value)}</k:v${index}></k:Op>`)
    if (response.statusCode !== libxml2) disagreements.push(`${patterns[index]} on ${JSON.stringify(value)}: xmllint ${libxml2}, plugin ${response.statusCode}`)
  }
  t.assert.deepEqual(disagreements, [])
  // Both sides were tried: values matched and values refused.
  t.assert.ok(refusals > ordered.length / 5 && refusals < ordered.length * 4 / 5, `${refusals} of ${ordered.length} refused`)
})
