/**
 * The signing view (lib/xml/c14n.ts readSigningView) and Exclusive XML
 * Canonicalization 1.0 without comments (W3C REC xml-exc-c14n; Canonical
 * XML 1.0 §2.3), checked against three references built on libxml2: lxml's
 * canonical form of an element (a subtree selected by its path), xmlsec's
 * digest of the same element as a signed Reference (a true document subset,
 * the only one of them that takes '#default' in a PrefixList), and xmllint
 * --exc-c14n on whole documents.
 */
import { test, type TestContext } from 'node:test'
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { exclusiveC14n, readSigningView, type SigningElement } from '../lib/xml/c14n'
import { EnvelopeDecoder } from '../lib/soap/envelope'
import { SOAP11_ENV } from '../lib/namespaces'
import { normalizeOptions } from '../lib/options'
import { elementsAt } from '../lib/xml/tree'
import { XmlReadError } from '../lib/xml/reader'
import type { XmlElement } from '../lib/xml/element'
import { missing, requireXmllint } from './helper'

/** Debian's Python, the one python3-lxml and python3-xmlsec are installed for. */
const PYTHON = '/usr/bin/python3'

/** One canonicalization to check: the element at `path` (indices among child elements) of `xml`. */
interface Case {
  readonly xml: string
  readonly path: readonly number[]
  readonly prefixes?: readonly string[]
  /** The document holds signatureTemplate(): xmlsec signs with it, and the signature is omitted here. */
  readonly enveloped?: boolean
}

/**
 * Reads a JSON list of cases on stdin and writes, for each, lxml's exclusive canonical form of the
 * element (`tostring`, whose `inclusive_ns_prefixes` keeps only prefixes the document's name dictionary
 * holds: '#default' is dropped, so it is left out here) and, from xmlsec (libxml2's C14N of a
 * Reference's node set, the element marked with an ID attribute `c14nTarget`), the SHA-256 digest of
 * the element as the apex of a document subset, with the whole PrefixList.
 */
const REFERENCE_SCRIPT = `
import json, re, sys
from lxml import etree
import xmlsec
KEY = xmlsec.Key.from_binary_data(xmlsec.constants.KeyDataHmac, b'c14n')
def at(el, path):
    for i in path:
        el = [c for c in el if isinstance(c.tag, str)][i]
    return el
def lxml_form(case):
    el = at(etree.fromstring(case['xml'].encode('utf-8')), case['path'])
    prefixes = [p for p in case['prefixes'] if p != '#default']
    return etree.tostring(el, method='c14n', exclusive=True, with_comments=False,
                          inclusive_ns_prefixes=prefixes or None).decode('utf-8')
def xmlsec_digest(case):
    body = re.sub(r'^<[?]xml[^>]*[?]>', '', case['xml'])
    doc = etree.fromstring(('<w>' + body + '</w>').encode('utf-8'))
    target = at([c for c in doc if isinstance(c.tag, str)][0], case['path'])
    target.set('c14nTarget', '1')
    if case.get('enveloped'):
        sig = doc.find('.//{http://www.w3.org/2000/09/xmldsig#}Signature')
    else:
        sig = xmlsec.template.create(doc, xmlsec.constants.TransformExclC14N, xmlsec.constants.TransformHmacSha256)
        doc.append(sig)
        ref = xmlsec.template.add_reference(sig, xmlsec.constants.TransformSha256, uri='#1')
        transform = xmlsec.template.add_transform(ref, xmlsec.constants.TransformExclC14N)
        if case['prefixes']:
            xmlsec.template.transform_add_c14n_inclusive_namespaces(transform, case['prefixes'])
    ctx = xmlsec.SignatureContext()
    ctx.key = KEY
    ctx.register_id(target, 'c14nTarget')
    ctx.sign(sig)
    return sig.find('.//{http://www.w3.org/2000/09/xmldsig#}DigestValue').text
def attempt(f, case):
    try:
        return f(case)
    except Exception as e:
        return {'error': repr(e)}
out = [{'lxml': attempt(lxml_form, c), 'xmlsec': attempt(xmlsec_digest, c)} for c in json.load(sys.stdin)]
sys.stdout.write(json.dumps(out))
`

let referencesThere: boolean | undefined

/** Whether lxml and xmlsec are installed for Python; when not, missing() (skipped with one line; failed under CI). */
function requireReferences (t: TestContext): boolean {
  referencesThere ??= spawnSync(PYTHON, ['-c', 'import lxml.etree, xmlsec'], { timeout: 30_000 }).status === 0
  if (!referencesThere) {
    missing(t, `lxml and xmlsec (python3-lxml, python3-xmlsec) are not installed for ${PYTHON}; .ci/run installs them`)
  }
  return referencesThere
}

interface Reference {
  readonly lxml: string | { error: string }
  readonly xmlsec: string | { error: string }
}

/** The references' answers for each case, from one Python process. */
function references (cases: readonly Case[]): Reference[] {
  const result = spawnSync(PYTHON, ['-c', REFERENCE_SCRIPT], {
    input: JSON.stringify(cases.map((c) => ({ ...c, prefixes: c.prefixes ?? [] }))),
    encoding: 'utf8',
    timeout: 300_000,
    maxBuffer: 256 * 1024 * 1024
  })
  if (result.status !== 0) throw new Error(`python3 failed: ${result.stderr}`)
  return JSON.parse(result.stdout)
}

function elements (root: SigningElement): SigningElement[] {
  return root.children.filter((c): c is SigningElement => typeof c !== 'string')
}

function at (root: SigningElement, path: readonly number[]): SigningElement {
  let element = root
  for (const i of path) element = elements(element)[i]
  return element
}

/** The path of every element of a document, in document order. */
function pathsOf (xml: string): number[][] {
  const out: number[][] = []
  const walk = (element: SigningElement, path: number[]): void => {
    out.push(path)
    elements(element).forEach((child, i) => walk(child, [...path, i]))
  }
  walk(readSigningView(xml), [])
  return out
}

const MARK = { name: 'c14nTarget', prefix: '', localName: 'c14nTarget', namespace: '', value: '1' }

/**
 * Compares our canonical form of each case with lxml's (without '#default', which lxml drops) and with
 * xmlsec's digest (with it, the element marked as xmlsec's is); returns how many comparisons were made.
 */
function differential (t: TestContext, cases: readonly Case[]): number {
  const theirs = references(cases)
  let compared = 0
  cases.forEach((c, i) => {
    const view = readSigningView(c.xml)
    const element = at(view, c.path)
    const prefixes = c.prefixes ?? []
    const where = `${c.xml}\npath ${JSON.stringify(c.path)} PrefixList ${JSON.stringify(prefixes)}`
    const plain = exclusiveC14n(element, prefixes.filter((p) => p !== '#default'))
    t.assert.strictEqual(plain, theirs[i].lxml, `lxml: ${where}`)
    const apex = { ...element, attributes: [...element.attributes, MARK] }
    const signature = c.enveloped === true ? signatureOf(view) : undefined
    const marked = exclusiveC14n(apex, prefixes, signature === element ? apex : signature)
    const digest = createHash('sha256').update(marked).digest('base64')
    t.assert.strictEqual(digest, theirs[i].xmlsec, `xmlsec: ${where}\nours: ${marked}`)
    compared += 2
  })
  return compared
}

/** The first ds:Signature under `root`. */
function signatureOf (root: SigningElement): SigningElement | undefined {
  for (const child of elements(root)) {
    if (child.localName === 'Signature' && child.namespace === DS) return child
    const found = signatureOf(child)
    if (found !== undefined) return found
  }
  return undefined
}

/** Every element of each document, with each PrefixList. */
function everyElement (docs: readonly string[], lists: ReadonlyArray<readonly string[]>): Case[] {
  return docs.flatMap((xml) => pathsOf(xml).flatMap((path) => lists.map((prefixes) => ({ xml, path, prefixes }))))
}

const SOAP = 'http://schemas.xmlsoap.org/soap/envelope/'
const WSSE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd'
const WSU = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd'
const DS = 'http://www.w3.org/2000/09/xmldsig#'

/** A signed envelope as WSS4J writes one: the Body and Timestamp referenced, InclusiveNamespaces on each. */
const WSS4J = `<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="${SOAP}" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><soap:Header><wsse:Security xmlns:wsse="${WSSE}" xmlns:wsu="${WSU}" soap:mustUnderstand="1"><wsu:Timestamp wsu:Id="TS-1"><wsu:Created>2026-01-01T00:00:00.000Z</wsu:Created><wsu:Expires>2026-01-01T00:05:00.000Z</wsu:Expires></wsu:Timestamp><ds:Signature xmlns:ds="${DS}" Id="SIG-2"><ds:SignedInfo><ec:CanonicalizationMethod xmlns:ec="http://www.w3.org/2001/10/xml-exc-c14n#" Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"><ec:InclusiveNamespaces PrefixList="soap xsd xsi"/></ec:CanonicalizationMethod><ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/><ds:Reference URI="#id-3"><ds:Transforms><ds:Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"><InclusiveNamespaces xmlns="http://www.w3.org/2001/10/xml-exc-c14n#" PrefixList="xsd xsi"/></ds:Transform></ds:Transforms></ds:Reference></ds:SignedInfo><ds:SignatureValue>AAAA</ds:SignatureValue></ds:Signature></wsse:Security></soap:Header><soap:Body xmlns:wsu="${WSU}" wsu:Id="id-3"><ns2:add xmlns:ns2="urn:calc"><a xsi:type="xsd:int">1</a><b>2</b></ns2:add></soap:Body></soap:Envelope>`

/** Hand-written documents, each a trap for one rule or several. */
const DOCUMENTS: Record<string, string> = {
  'a WSS4J envelope with InclusiveNamespaces': WSS4J,
  'default namespaces declared, redeclared and undeclared': '<r xmlns="urn:d" xmlns:p="urn:p"><a><b xmlns="">' +
    '<c xmlns="urn:d"><p:e><f/></p:e></c></b></a><p:g xmlns="urn:other"><h xmlns=""/><p:i/></p:g></r>',
  'an empty default on the document element, a non-empty one below it': '<r xmlns=""><p:a xmlns:p="urn:p" ' +
    'xmlns="urn:d"><b xmlns=""/><p:c><d/></p:c></p:a></r>',
  'prefixes declared on ancestors and never used': '<a:r xmlns:a="urn:a" xmlns:b="urn:b" xmlns:c="urn:c" ' +
    'xmlns:unused="urn:u"><a:x><b:y c:at="1"><z/></b:y></a:x><w xmlns:b="urn:b2" b:k="2"/></a:r>',
  'attributes in several namespaces': '<r xmlns:z="urn:a" xmlns:a="urn:z" xmlns="urn:d"><e a:k="1" z:k="2" k="3" ' +
    'z:b="4" a:a="5" xml:lang="fr" xml:space="preserve" b="6"/></r>',
  'xml:lang and xml:space on ancestors, not inherited': '<r xml:lang="en" xml:space="preserve"><a><b xml:lang="de">' +
    't</b></a><c xmlns:xml="http://www.w3.org/XML/1998/namespace" xml:base="http://x/"/></r>',
  'entities and character references': '<r a="&#x20;&#32;&amp;&apos;&lt;&gt;" b=\'"\'>&#60;&#x3E;&quot;&apos;' +
    '&#x1F600;&#xD;&#13;&#9;&#10;&amp;lt;</r>',
  'CR, LF and TAB in attributes and text': '<r a="x\ty\nz\r\nw" b="&#9;&#10;&#13;&#xD;&#xA;" c=" ">a\r\nb\rc\n' +
    '\td&#13;</r>',
  'CDATA sections and comments': '<r><!-- c -->a<![CDATA[<&>"\']]]><!---->b<![CDATA[]]><e><!--x--></e>' +
    '<![CDATA[]]]]><![CDATA[>]]></r>',
  'a prefix bound again and again, deeply': '<p:r xmlns:p="urn:1"><q xmlns:p="urn:2"><p:s xmlns:p="urn:1">' +
    '<p:t xmlns:p="urn:2"><u p:a="1" xmlns:p="urn:2"><p:v xmlns:p="urn:1" xmlns="urn:1"><w xmlns="urn:1">' +
    '<x xmlns=""/></w></p:v></u></p:t></p:s></q></p:r>',
  'a SOAP 1.2 envelope, a signed Body with xmlns="" children': '<env:Envelope ' +
    'xmlns:env="http://www.w3.org/2003/05/soap-envelope" xmlns="urn:payload" xmlns:wsu="' + WSU + '">' +
    '<env:Header><wsse:Security xmlns:wsse="' + WSSE + '"><wsu:Timestamp wsu:Id="t"><wsu:Created>2026-01-01T00:00:00Z' +
    '</wsu:Created></wsu:Timestamp></wsse:Security></env:Header><env:Body wsu:Id="b"><op><item xmlns="">1</item>' +
    '<item>2</item></op></env:Body></env:Envelope>',
  // URIs stay ASCII: libxml2 refuses others as namespace names.
  'names beyond the BMP, in code point order': '<r xmlns:s="urn:s" xmlns:t="urn:t">' +
    '<e s:\uFB00="1" t:\uFB00="2" \uD800\uDC00="3" \uFB00="4" s:x="5" t:x="6"/></r>'
}

const PREFIX_LISTS: ReadonlyArray<readonly string[]> = [
  [], ['#default'], ['p'], ['#default', 'p', 'a', 'b', 'c', 'nowhere'], ['soap', 'xsd', 'xsi', 'wsse', 'wsu', 'ds', 'env'],
  ['xml', 'unused', 's']
]

for (const [name, xml] of Object.entries(DOCUMENTS)) {
  test(`Exclusive XML Canonicalization §3 and Canonical XML 1.0 §2.3, with lxml and xmlsec: ${name}, every element ` +
    'as the apex, with PrefixLists', (t: TestContext) => {
    if (!requireReferences(t)) return
    t.diagnostic(`${differential(t, everyElement([xml], PREFIX_LISTS))} comparisons`)
  })
}

// ------------------------------------------------------------- generated documents ---

const GEN_PREFIXES = ['', 'a', 'b', 'c']
// No '&' in URIs: libxml2 writes a namespace URI unescaped (see the §2.3 test of escaped namespace URIs).
const GEN_URIS = ['urn:x', 'urn:y', 'http://example.com/z', 'urn:a%26b', 'urn:q%22', 'urn:x#f']
const GEN_LOCALS = ['x', 'y', 'z', '\u00E9', '\uFB00', '\uD800\uDC00']
const GEN_TEXTS = [
  't', ' ', '&amp;', '&lt;', '&gt;', '>', '&#13;', '&#xD;', '&#9;', '\n', '\r\n', '\r', '"', "'", '<![CDATA[<&]]>',
  '<![CDATA[]]>', '<!--c-->', '\u00E9', '\uD834\uDD1E', '&#x10000;', ']]&gt;', '&#60;x/>'
]
const GEN_VALUES = [
  'v', '', '&amp;', '&lt;', '&quot;', '&#9;', '&#10;', '&#13;', '\t', '\n', '\r\n', ' ', '>', "'", '\u00E9', '&#x1F600;'
]
const GEN_LISTS = ['#default', 'a', 'b', 'c', 'xml', 'nowhere']

/**
 * A document made from a list of choices (fast-check shrinks it towards zeros): elements up to 5
 * deep and 14 in all, each declaring prefixes (the default one too, empty or not) or using those of its
 * ancestors, with attributes of any prefix and of xml:, text with references, CR, CDATA sections and
 * (unless `comments` is false) comments; one of its elements as the apex, and a PrefixList; with
 * `enveloped`, a signature template (signatureTemplate()) somewhere in it.
 */
function generated (choices: readonly number[], comments = true, enveloped = false): Case {
  let next = 0
  let signed = false
  const pick = (n: number): number => choices[next++ % choices.length] % n
  const paths: number[][] = []
  const element = (path: number[], scope: ReadonlyMap<string, string>): string => {
    paths.push(path)
    const own = new Map(scope)
    const declarations: string[] = []
    const declare = (prefix: string, uri: string): void => {
      own.set(prefix, uri)
      declarations.push(` ${prefix === '' ? 'xmlns' : 'xmlns:' + prefix}="${uri}"`)
    }
    for (let k = pick(3); k > 0; k--) {
      const prefix = GEN_PREFIXES[pick(GEN_PREFIXES.length)]
      if (declarations.some((d) => d.startsWith(` ${prefix === '' ? 'xmlns' : 'xmlns:' + prefix}=`))) continue
      declare(prefix, prefix === '' && pick(3) === 0 ? '' : GEN_URIS[pick(GEN_URIS.length)])
    }
    const prefix = GEN_PREFIXES[pick(GEN_PREFIXES.length)]
    if (prefix !== '' && !own.has(prefix)) declare(prefix, GEN_URIS[pick(GEN_URIS.length)])
    const name = (prefix === '' ? '' : prefix + ':') + GEN_LOCALS[pick(GEN_LOCALS.length)]
    const seen = new Set<string>()
    let attributes = ''
    for (let k = pick(4); k > 0; k--) {
      const ap = [...GEN_PREFIXES, 'xml'][pick(GEN_PREFIXES.length + 1)]
      if (ap !== '' && ap !== 'xml' && !own.has(ap)) declare(ap, GEN_URIS[pick(GEN_URIS.length)])
      const local = GEN_LOCALS[pick(GEN_LOCALS.length)]
      const key = `${ap === '' ? '' : ap === 'xml' ? 'xml' : own.get(ap)} ${local}`
      if (seen.has(key)) continue
      seen.add(key)
      let value = ''
      for (let v = pick(4); v > 0; v--) value += GEN_VALUES[pick(GEN_VALUES.length)]
      attributes += ` ${ap === '' ? '' : ap + ':'}${local}="${value}"`
    }
    let content = ''
    let children = 0
    for (let k = path.length < 4 && paths.length < 14 ? pick(5) : 0; k > 0; k--) {
      if (pick(2) === 0 && paths.length < 14) {
        content += element([...path, children++], own)
      } else {
        const text = GEN_TEXTS[pick(GEN_TEXTS.length)]
        content += comments || text !== '<!--c-->' ? text : ''
        if (enveloped && !signed && pick(2) === 0) {
          content += '{SIG}'
          signed = true
        }
      }
    }
    return `<${name}${declarations.join('')}${attributes}>${content}</${name}>`
  }
  let xml = element([], new Map())
  const path = paths[pick(paths.length)]
  const prefixes = GEN_LISTS.filter(() => pick(3) === 0)
  if (!enveloped) return { xml, path, prefixes }
  if (!signed) xml = xml.slice(0, xml.lastIndexOf('</')) + '{SIG}' + xml.slice(xml.lastIndexOf('</'))
  xml = xml.replace('{SIG}', signatureTemplate(prefixes))
  // The signature moves the elements after it: the apex is any element of the signed document, its own included.
  const every = pathsOf(xml)
  return { xml, path: every[pick(every.length)], prefixes, enveloped }
}

const choices = fc.array(fc.nat({ max: 1 << 16 }), { minLength: 80, maxLength: 80 })

test('Exclusive XML Canonicalization §3 and Canonical XML 1.0 §2.3, with lxml and xmlsec: generated namespaced ' +
  'documents, an element of each as the apex, with a PrefixList, a quarter with an enveloped signature', (t: TestContext) => {
  if (!requireReferences(t)) return
  let compared = 0
  // 10 runs of 40 documents, each run checked by one Python process; no shrinking (a failure names its document).
  fc.assert(fc.property(fc.array(choices, { minLength: 40, maxLength: 40 }), (batch) => {
    compared += differential(t, batch.map((c, i) => generated(c, true, i % 4 === 0)))
  }), { numRuns: 10, endOnFailure: true, includeErrorInReport: true })
  t.diagnostic(`${compared} comparisons`)
})

const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#'

/** A signature template xmlsec signs in place: one Reference to the marked element, enveloped, then exc-c14n. */
function signatureTemplate (prefixes: readonly string[]): string {
  const list = prefixes.length === 0 ? '' : `<ec:InclusiveNamespaces xmlns:ec="${EXC_C14N}" PrefixList="${prefixes.join(' ')}"/>`
  return `<ds:Signature xmlns:ds="${DS}"><ds:SignedInfo><ds:CanonicalizationMethod Algorithm="${EXC_C14N}"/>` +
    '<ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#hmac-sha256"/><ds:Reference URI="#1">' +
    '<ds:Transforms><ds:Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/>' +
    `<ds:Transform Algorithm="${EXC_C14N}">${list}</ds:Transform></ds:Transforms>` +
    '<ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/><ds:DigestValue></ds:DigestValue>' +
    '</ds:Reference></ds:SignedInfo><ds:SignatureValue></ds:SignatureValue></ds:Signature>'
}

/** Documents with an enveloped signature where `{SIG}` stands. */
const ENVELOPED = [
  `<soap:Envelope xmlns:soap="${SOAP}" xmlns:xsd="urn:xsd"><soap:Header><wsse:Security xmlns:wsse="${WSSE}">{SIG}` +
    '</wsse:Security></soap:Header><soap:Body><p:op xmlns:p="urn:p">1</p:op></soap:Body></soap:Envelope>',
  `<r xmlns="urn:d" xmlns:ds="${DS}"><a>t{SIG}u</a><b>v</b></r>`,
  '<p:r xmlns:p="urn:p" xmlns="urn:d">{SIG}<x><y xmlns="">z</y></x></p:r>'
]

test('XML-Signature enveloped-signature transform, then Exclusive XML Canonicalization, with xmlsec: `omit` leaves ' +
  'the signature out, whichever element is the apex', (t: TestContext) => {
  if (!requireReferences(t)) return
  const cases = ENVELOPED.flatMap((doc) => [[], ['#default'], ['p', 'ds', 'soap']].flatMap((prefixes) => {
    const xml = doc.replace('{SIG}', signatureTemplate(prefixes))
    return pathsOf(xml).map((path) => ({ xml, path, prefixes, enveloped: true }))
  }))
  t.diagnostic(`${differential(t, cases)} comparisons`)
})

/** xmllint's exclusive canonical form of a whole document (with comments: give it none). */
function xmllint (xml: string): string {
  const result = spawnSync('xmllint', ['--exc-c14n', '-'], { input: xml, encoding: 'utf8', timeout: 30_000 })
  if (result.status !== 0) throw new Error(`xmllint: ${result.stderr}`)
  return result.stdout
}

test('Exclusive XML Canonicalization, with xmllint --exc-c14n: generated whole documents', (t: TestContext) => {
  if (!requireXmllint(t)) return
  let compared = 0
  fc.assert(fc.property(choices, (c) => {
    const { xml } = generated(c, false)
    t.assert.strictEqual(exclusiveC14n(readSigningView(xml)), xmllint(xml), xml)
    compared++
  }), { numRuns: 60, endOnFailure: true, includeErrorInReport: true })
  t.diagnostic(`${compared} documents`)
})

test('Canonical XML 1.0 §2.3: a namespace node is rendered as an attribute is, its URI escaped', (t: TestContext) => {
  // libxml2 (lxml, xmllint, xmlsec) writes namespace URIs as they are; Apache Santuario escapes them, as here.
  const root = readSigningView('<r xmlns:b="urn:a&amp;b&#9;&quot;&lt;>" xmlns="urn:&#13;&#10;"><b:x/><y/></r>')
  t.assert.strictEqual(exclusiveC14n(root.children[0] as SigningElement), '<b:x xmlns:b="urn:a&amp;b&#x9;&quot;&lt;>"></b:x>')
  t.assert.strictEqual(exclusiveC14n(root.children[1] as SigningElement), '<y xmlns="urn:&#xD;&#xA;"></y>')
})

test('Exclusive XML Canonicalization: a document 20,000 elements deep is read and canonicalized', (t: TestContext) => {
  const depth = 20_000
  const xml = '<p:e xmlns:p="urn:p">'.repeat(depth) + 't' + '</p:e>'.repeat(depth)
  const out = exclusiveC14n(readSigningView(xml))
  t.assert.strictEqual(out, '<p:e xmlns:p="urn:p">' + '<p:e>'.repeat(depth - 1) + 't' + '</p:e>'.repeat(depth))
})

test('Exclusive XML Canonicalization §3: a PrefixList of 100,000 prefixes over 20,000 elements costs per declaration, not per element', (t: TestContext) => {
  // The PrefixList is the message's: checking each of its prefixes at each element would take minutes here.
  const list = Array.from({ length: 100_000 }, (_, i) => `p${i}`)
  const root = readSigningView('<r xmlns:a="urn:a" xmlns:p7="urn:7">' + '<a:e x="1">t</a:e>'.repeat(20_000) + '</r>')
  const started = performance.now()
  const out = exclusiveC14n(root, list)
  t.assert.ok(performance.now() - started < 5000, `${Math.round(performance.now() - started)} ms`)
  t.assert.strictEqual(out, '<r xmlns:p7="urn:7">' + '<a:e xmlns:a="urn:a" x="1">t</a:e>'.repeat(20_000) + '</r>')
})

/** A view element as the decoder's plain data shows an element: no declarations, no parent. */
function plain (element: SigningElement): XmlElement {
  const { name, prefix, localName, namespace, attributes } = element
  const children = element.children.map((c) => typeof c === 'string' ? c : plain(c))
  return { name, prefix, localName, namespace, attributes, children }
}

test('readSigningView: same text, same reader: the Body\'s children are the elements, attributes and text the ' +
  'envelope decoder gives the codec', (t: TestContext) => {
  const decoder = new EnvelopeDecoder(normalizeOptions().limits)
  let compared = 0
  fc.assert(fc.property(choices, (c) => {
    const xml = `<s:Envelope xmlns:s="${SOAP11_ENV}"><s:Body>${generated(c).xml}</s:Body></s:Envelope>`
    const decoded = decoder.decode(xml, SOAP11_ENV, 'utf-8')
    const body = at(readSigningView(xml), [0])
    t.assert.deepStrictEqual(elements(body).map(plain), elementsAt(decoded.tree, decoded.bodyNodes), xml)
    compared++
  }), { numRuns: 200, includeErrorInReport: true })
  t.diagnostic(`${compared} envelopes`)
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
  const bad: Array<[string, RegExp]> = [
    [' href="cid:other"', /names no part/], [' href="http://x/"', /no cid: URL/], [' href="cid:%zz"', /malformed/],
    ['', /no cid: URL/], [' xop:href="cid:a%20b@x"', /no cid: URL/]
  ]
  for (const [attribute, error] of bad) {
    const xml = `<r><xop:Include xmlns:xop="http://www.w3.org/2004/08/xop/include"${attribute}/></r>`
    t.assert.throws(() => readSigningView(xml, parts), error, attribute)
  }
  // An MTOM message without parts still has its Includes resolved: each names none.
  const include = '<r><xop:Include xmlns:xop="http://www.w3.org/2004/08/xop/include" href="cid:a%20b@x"/></r>'
  t.assert.throws(() => readSigningView(include, new Map()), /names no part/)
})

test('readSigningView, XOP 1.0 §3.2: in a message that is no XOP package (no parts), an xop:Include is an element', (t: TestContext) => {
  const root = readSigningView('<r><xop:Include xmlns:xop="http://www.w3.org/2004/08/xop/include" href="cid:x"/></r>')
  const include = root.children[0] as SigningElement
  t.assert.deepStrictEqual([include.localName, include.namespace], ['Include', 'http://www.w3.org/2004/08/xop/include'])
  t.assert.strictEqual(exclusiveC14n(root), '<r><xop:Include xmlns:xop="http://www.w3.org/2004/08/xop/include" href="cid:x">' +
    '</xop:Include></r>')
})

test('readSigningView: text the reader refuses (XML 1.0, Namespaces in XML) throws', (t: TestContext) => {
  for (const bad of ['<r>', '<!DOCTYPE r><r/>', '<r/><?pi x?>', '<p:r/>', '']) t.assert.throws(() => readSigningView(bad), XmlReadError, bad)
})

test('Exclusive XML Canonicalization §3, enveloped signature: `omit` leaves that element and its descendants out', (t: TestContext) => {
  const root = readSigningView('<r xmlns:s="urn:s"><a/><s:Signature><s:x/></s:Signature>t</r>')
  t.assert.strictEqual(exclusiveC14n(root, [], root.children[1] as SigningElement), '<r><a></a>t</r>')
  t.assert.strictEqual(exclusiveC14n(root, [], root), '')
})

test('Exclusive XML Canonicalization, with xmllint --exc-c14n: the hand-written documents, whole', (t: TestContext) => {
  if (!requireXmllint(t)) return
  for (const [name, xml] of Object.entries(DOCUMENTS)) {
    // xmllint keeps comments: they are taken out of the text (none stands between two line ends here).
    const bare = xml.replace(/<!--.*?-->/gs, '')
    t.assert.strictEqual(exclusiveC14n(readSigningView(xml)), xmllint(bare), name)
  }
})
