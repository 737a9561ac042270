/**
 * The signing view (lib/xml/c14n.ts readSigningView) and Exclusive XML
 * Canonicalization 1.0 without comments (W3C REC xml-exc-c14n; Canonical
 * XML 1.0 §2.3, §4), checked against two references: lxml (libxml2's C14N
 * through Python) on subtrees selected by their path, and xmllint
 * --exc-c14n on whole documents.
 */
import { test, type TestContext } from 'node:test'
import { spawnSync } from 'node:child_process'
import { exclusiveC14n, readSigningView, type SigningElement } from '../lib/xml/c14n'
import { missing, requireXmllint } from './helper'

/** Debian's Python, the one python3-lxml is installed for. */
const PYTHON = '/usr/bin/python3'

/** One canonicalization to ask of lxml: the element at `path` (indices among child elements) of `xml`. */
interface Case {
  readonly xml: string
  readonly path: readonly number[]
  readonly prefixes?: readonly string[]
}

// Reads a JSON list of cases on stdin, writes the JSON list of their canonical forms (or {"error": ...}).
const LXML_SCRIPT = `
import json, sys
from lxml import etree
out = []
for case in json.load(sys.stdin):
    try:
        el = etree.fromstring(case['xml'].encode('utf-8'), etree.XMLParser(resolve_entities=False))
        for i in case['path']:
            el = [c for c in el if isinstance(c.tag, str)][i]
        out.append(etree.tostring(el, method='c14n', exclusive=True, with_comments=False,
                                  inclusive_ns_prefixes=case.get('prefixes') or None).decode('utf-8'))
    except Exception as e:
        out.append({'error': repr(e)})
sys.stdout.write(json.dumps(out))
`

let lxmlThere: boolean | undefined

/** Whether lxml is installed; when it is not, missing() (skipped with one line; failed under CI). */
function requireLxml (t: TestContext): boolean {
  lxmlThere ??= spawnSync(PYTHON, ['-c', 'import lxml.etree'], { timeout: 30_000 }).status === 0
  if (!lxmlThere) missing(t, `lxml (python3-lxml) is not installed for ${PYTHON}; .ci/run installs it`)
  return lxmlThere
}

/** lxml's exclusive canonical form of each case, in one Python process. */
function lxmlC14n (cases: readonly Case[]): Array<string | { error: string }> {
  const result = spawnSync(PYTHON, ['-c', LXML_SCRIPT], {
    input: JSON.stringify(cases), encoding: 'utf8', timeout: 120_000, maxBuffer: 64 * 1024 * 1024
  })
  if (result.status !== 0) throw new Error(`python3 failed: ${result.stderr}`)
  return JSON.parse(result.stdout)
}

function at (root: SigningElement, path: readonly number[]): SigningElement {
  let element = root
  for (const i of path) {
    element = element.children.filter((c): c is SigningElement => typeof c !== 'string')[i]
  }
  return element
}

function ours (c: Case): string {
  return exclusiveC14n(at(readSigningView(c.xml), c.path), c.prefixes)
}

/** Compares our canonical form of each case with lxml's; returns how many were compared. */
function differential (t: TestContext, cases: readonly Case[]): number {
  const theirs = lxmlC14n(cases)
  cases.forEach((c, i) => {
    t.assert.deepStrictEqual(ours(c), theirs[i], `${c.xml}\npath ${JSON.stringify(c.path)} prefixes ${JSON.stringify(c.prefixes)}`)
  })
  return cases.length
}

const SOAP = 'http://schemas.xmlsoap.org/soap/envelope/'
const WSSE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd'
const WSU = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd'
const DS = 'http://www.w3.org/2000/09/xmldsig#'

/** A signed envelope as WSS4J writes one: the Body and Timestamp referenced, InclusiveNamespaces on each. */
const WSS4J = `<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="${SOAP}" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soap:Header><wsse:Security xmlns:wsse="${WSSE}" xmlns:wsu="${WSU}" soap:mustUnderstand="1"><wsu:Timestamp wsu:Id="TS-1"><wsu:Created>2026-01-01T00:00:00.000Z</wsu:Created><wsu:Expires>2026-01-01T00:05:00.000Z</wsu:Expires></wsu:Timestamp><ds:Signature xmlns:ds="${DS}" Id="SIG-2"><ds:SignedInfo><ec:CanonicalizationMethod xmlns:ec="http://www.w3.org/2001/10/xml-exc-c14n#" Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"><ec:InclusiveNamespaces PrefixList="soap xsd xsi"/></ec:CanonicalizationMethod><ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/><ds:Reference URI="#id-3"><ds:Transforms><ds:Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"><InclusiveNamespaces xmlns="http://www.w3.org/2001/10/xml-exc-c14n#" PrefixList="xsd xsi"/></ds:Transform></ds:Transforms></ds:Reference></ds:SignedInfo><ds:SignatureValue>AAAA</ds:SignatureValue></ds:Signature></wsse:Security></soap:Header><soap:Body xmlns:wsu="${WSU}" wsu:Id="id-3"><ns2:add xmlns:ns2="urn:calc"><a xsi:type="xsd:int">1</a><b>2</b></ns2:add></soap:Body></soap:Envelope>`

test('Exclusive XML Canonicalization §3, with lxml: visibly utilized prefixes, the PrefixList, a WSS4J envelope', (t: TestContext) => {
  if (!requireLxml(t)) return
  differential(t, [
    { xml: WSS4J, path: [1] },
    { xml: WSS4J, path: [1], prefixes: ['xsd', 'xsi'] },
    { xml: WSS4J, path: [0, 0, 0], prefixes: ['wsse', 'soap'] },
    { xml: WSS4J, path: [0, 0, 1, 0], prefixes: ['soap', 'xsd', 'xsi'] },
    { xml: WSS4J, path: [0, 0, 1, 0], prefixes: ['#default', 'nowhere'] },
    { xml: WSS4J, path: [] }
  ])
})

test('Exclusive XML Canonicalization §3, with lxml: default namespaces declared, redeclared and undeclared', (t: TestContext) => {
  if (!requireLxml(t)) return
  const xml = '<r xmlns="urn:d" xmlns:p="urn:p"><a><b xmlns=""><c xmlns="urn:d"><p:e><f/></p:e></c></b></a>' +
    '<p:g xmlns="urn:other"><h xmlns=""/></p:g></r>'
  const cases: Case[] = []
  for (const path of [[], [0], [0, 0], [0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0, 0], [1], [1, 0]]) {
    cases.push({ xml, path }, { xml, path, prefixes: ['p'] })
  }
  differential(t, cases)
})

test('Canonical XML 1.0 §2.3, with lxml: attribute order, text and attribute escaping, CDATA, comments', (t: TestContext) => {
  if (!requireLxml(t)) return
  const xml = '<r xmlns:b="urn:b" xmlns:a="urn:a" xml:lang="en"><e b:z="1" a:z="2" z="3" a:y="&lt;&amp;&quot;&#9;&#10;&#13;>"' +
    ' y=\'"x"\'>a &amp; b &lt; c &gt; d &#13;&#xD;\r\n<![CDATA[<&>]]><!-- c -->e&#x10FFFF;</e><f/></r>'
  differential(t, [{ xml, path: [] }, { xml, path: [0] }, { xml, path: [1] }])
})

test('readSigningView: declarations, attributes and children in document order; comments join text', (t: TestContext) => {
  const root = readSigningView('<?xml version="1.0"?><a:r xmlns:a="urn:a" xmlns="urn:d" a:x="1" y="2">t<!-- c -->u' +
    '<![CDATA[v]]><![CDATA[]]><e/></a:r>')
  t.assert.deepStrictEqual(root.declarations, [['a', 'urn:a'], ['', 'urn:d']])
  t.assert.deepStrictEqual(root.attributes, [
    { name: 'a:x', prefix: 'a', localName: 'x', namespace: 'urn:a', value: '1' },
    { name: 'y', prefix: '', localName: 'y', namespace: '', value: '2' }
  ])
  t.assert.strictEqual(root.children.length, 2)
  t.assert.strictEqual(root.children[0], 'tuv')
  const e = root.children[1] as SigningElement
  t.assert.strictEqual(e.parent, root)
  t.assert.deepStrictEqual([e.name, e.prefix, e.localName, e.namespace], ['e', '', 'e', 'urn:d'])
  t.assert.strictEqual(root.parent, undefined)
})

test('readSigningView, XOP 1.0 §3.2: an xop:Include is replaced by the base64 text of the part its cid: URL names', (t: TestContext) => {
  const parts = new Map([['a b@x', Buffer.from('hello')]])
  const root = readSigningView('<r xmlns:xop="http://www.w3.org/2004/08/xop/include"><d>' +
    '<xop:Include href="cid:a%20b@x"><x/></xop:Include></d></r>', parts)
  t.assert.deepStrictEqual((root.children[0] as SigningElement).children, [Buffer.from('hello').toString('base64')])
  t.assert.strictEqual(exclusiveC14n(root), '<r><d>aGVsbG8=</d></r>')
  for (const href of ['cid:other', 'http://x/', 'cid:%zz']) {
    t.assert.throws(() => readSigningView(`<r><xop:Include xmlns:xop="http://www.w3.org/2004/08/xop/include" href="${href}"/></r>`, parts))
  }
  t.assert.throws(() => readSigningView('<r><xop:Include xmlns:xop="http://www.w3.org/2004/08/xop/include"/></r>'))
})

test('readSigningView: a read error throws', (t: TestContext) => {
  for (const bad of ['<r>', '<!DOCTYPE r><r/>', '<r/><?pi x?>', '<p:r/>', '']) t.assert.throws(() => readSigningView(bad))
})

test('Exclusive XML Canonicalization §3, enveloped signature: `omit` leaves that element and its descendants out', (t: TestContext) => {
  const root = readSigningView('<r xmlns:s="urn:s"><a/><s:Signature><s:x/></s:Signature>t</r>')
  t.assert.strictEqual(exclusiveC14n(root, [], root.children[1] as SigningElement), '<r><a></a>t</r>')
  t.assert.strictEqual(exclusiveC14n(root, [], root), '')
})

test('Exclusive XML Canonicalization, with xmllint --exc-c14n: whole documents', (t: TestContext) => {
  if (!requireXmllint(t)) return
  const docs = [WSS4J, '<r xmlns="urn:d" xmlns:p="urn:p"><a p:x="&#9;&#10;"><b xmlns="">&#13;&amp;</b></a></r>']
  for (const xml of docs) {
    const result = spawnSync('xmllint', ['--exc-c14n', '-'], { input: xml, encoding: 'utf8', timeout: 30_000 })
    t.assert.strictEqual(result.status, 0, result.stderr)
    t.assert.strictEqual(exclusiveC14n(readSigningView(xml)), result.stdout)
  }
})
