/**
 * Property-based tests of the decoder (fast-check): whatever the bytes, it
 * returns or throws its own coded error; what it accepts, xmldom reads the same
 * way; what is generated well-formed, it reads back exactly.
 */
import { test, type TestContext } from 'node:test'
import { DOMParser, onErrorStopParsing, type Element, type Node } from '@xmldom/xmldom'
import fc from 'fast-check'
import { fastest, mutations } from '../fuzzing'
import { decodeText } from '../../../lib/soap/charset'
import { EnvelopeDecoder, type DecodedEnvelope } from '../../../lib/soap/envelope'
import { elementsAt } from '../../../lib/xml/tree'
import { SOAP11_ENV, SOAP12_ENV } from '../../../lib/namespaces'
import { normalizeOptions } from '../../../lib/options'
import { escapeAttribute, escapeXml } from '../../../lib/xml/escape'
import type { XmlElement } from '../../../lib/types'

const decoder = new EnvelopeDecoder(normalizeOptions().limits)
const RUNS = Number(process.env.FUZZ_RUNS ?? 400)

/** Decodes bytes as the parser does; returns the result or the error's code. */
function attempt (bytes: Buffer, envelope = SOAP12_ENV): { decoded?: DecodedEnvelope, text?: string, code?: string } {
  try {
    const { text, encoding } = decodeText(bytes, undefined)
    return { decoded: decoder.decode(text, envelope, encoding), text }
  } catch (err) {
    const code = (err as { code?: unknown }).code
    if (typeof code !== 'string' || !code.startsWith('SOAP_ERR_')) throw err
    return { code }
  }
}

const SEEDS = [
  `<?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s="${SOAP12_ENV}"><s:Header><h:T xmlns:h="urn:h" s:mustUnderstand="true">t</h:T></s:Header><s:Body><m:Add xmlns:m="urn:m"><m:a>2</m:a><m:b>3</m:b></m:Add></s:Body></s:Envelope>`,
  `<soap:Envelope xmlns:soap="${SOAP12_ENV}" xmlns:x="urn:x"><soap:Body><x:Echo a="1" x:b='2'><![CDATA[<&>]]>&amp;&#x1D11E;<!-- c --></x:Echo></soap:Body></soap:Envelope>`,
  `<!DOCTYPE s:Envelope [<!ENTITY e "v">]><s:Envelope xmlns:s="${SOAP12_ENV}"><s:Body>&e;</s:Body></s:Envelope>`
]
const ALPHABET = ['<', '>', '/', '&', ';', ':', '=', '"', "'", '!', '?', '[', ']', '-', '#', 'x', 's', 'E', ' ', '\n', '\u0000', '\uD800', '\uFFFE', '𝄞', 'é', 'xmlns', 'Body', 'Header', 'Envelope', '&amp;', '&#0;', '<!--', ']]>', '<?', '<!DOCTYPE']

const mutation = mutations(SEEDS, ALPHABET, 4)

function elementChildren (node: Node): Element[] {
  const out: Element[] = []
  for (let child = node.firstChild; child !== null; child = child.nextSibling) if (child.nodeType === 1) out.push(child as Element)
  return out
}

// attempt() rethrows anything but the decoder's own errors, so fc.assert fails on it.
test('fuzz: random bytes only ever yield a decoded envelope or the decoder\'s own error', () => {
  fc.assert(fc.property(fc.uint8Array({ maxLength: 512 }), (bytes) => { attempt(Buffer.from(bytes)) }), { numRuns: RUNS })
  fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 256 }), (text) => { attempt(Buffer.from(text)) }), { numRuns: RUNS })
})

test('fuzz: mutated envelopes: the decoder\'s own error, or an envelope xmldom reads the same way (docs/protocol.md "Decoding")', (t: TestContext) => {
  let accepted = 0
  fc.assert(fc.property(mutation, (text) => {
    // (encoding as UTF-8 turns a lone surrogate into U+FFFD: the decoded text is what counts)
    const { decoded, code, text: decodedText } = attempt(Buffer.from(text, 'utf8'))
    if (code !== undefined || decoded === undefined || decodedText === undefined || decoded.mismatch) return
    accepted++
    // Whatever the decoder accepts is well-formed for a second, independent parser...
    const doc = new DOMParser({ onError: onErrorStopParsing }).parseFromString(decodedText, 'text/xml')
    // ...with no DOCTYPE and no processing instruction (xmldom shows the XML declaration as one named xml)...
    for (let node = doc.firstChild; node !== null; node = node.nextSibling) {
      if (node.nodeType === 10 || (node.nodeType === 7 && node.nodeName !== 'xml')) throw new Error('a DOCTYPE or PI was accepted')
    }
    // ...and the structure the decoder reported.
    const root = doc.documentElement as Element
    if (root.localName !== 'Envelope' || root.namespaceURI !== SOAP12_ENV) throw new Error('not an Envelope')
    const children = elementChildren(root)
    const names = children.map((c) => `${c.namespaceURI ?? ''} ${c.localName ?? ''}`)
    const expected = decoded.hasHeader ? [`${SOAP12_ENV} Header`, `${SOAP12_ENV} Body`] : [`${SOAP12_ENV} Body`]
    if (names.join() !== expected.join()) throw new Error(`children ${names.join()} for hasHeader ${decoded.hasHeader}`)
    const body = children[children.length - 1]
    if (elementChildren(body).length !== decoded.bodyNodes.length) throw new Error('payload count differs')
    if (decoded.hasHeader && elementChildren(children[0]).length !== decoded.headerNodes.length) throw new Error('header count differs')
  }), { numRuns: RUNS * 5 })
  t.assert.ok(accepted > 0, `${accepted} mutated envelopes were accepted and checked`)
})

// Generated, well-formed payloads: the decoder reads back exactly what was written.
const ncname = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.-]{0,8}$/)
const textValue = fc.string({ maxLength: 12 }).map((s) => s.replace(/[^\t\n\u0020-\uD7FF\uE000-\uFFFD]/gu, '').replace(/\r/g, ''))
interface Tree { prefix: string, local: string, ns: string, attributes: Array<[string, string]>, children: Array<Tree | string> }
const tree: fc.Arbitrary<Tree> = fc.letrec<{ node: Tree }>((tie) => ({
  node: fc.record({
    prefix: fc.constantFrom('a', 'b', 'c'),
    local: ncname,
    ns: fc.constantFrom('urn:a', 'urn:b', 'http://example.org/x?y=1&z=2'),
    attributes: fc.uniqueArray(fc.tuple(ncname, textValue), { maxLength: 3, selector: ([name]) => name }),
    children: fc.array(fc.oneof({ depthSize: 'small' }, textValue.filter((s) => s !== ''), tie('node')), { maxLength: 4 })
  })
})).node

function write (node: Tree): string {
  const attrs = node.attributes.map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`).join('')
  const inner = node.children.map((c) => typeof c === 'string' ? escapeXml(c) : write(c)).join('')
  return `<${node.prefix}:${node.local} xmlns:${node.prefix}="${escapeAttribute(node.ns)}"${attrs}>${inner}</${node.prefix}:${node.local}>`
}

/** What the decoder should build: adjacent text joined, as in XmlElement. */
function expectedOf (node: Tree): XmlElement {
  const children: Array<XmlElement | string> = []
  for (const child of node.children) {
    if (typeof child === 'string') {
      const last = children.length - 1
      if (last >= 0 && typeof children[last] === 'string') children[last] += child; else children.push(child)
    } else {
      children.push(expectedOf(child))
    }
  }
  return {
    name: `${node.prefix}:${node.local}`,
    prefix: node.prefix,
    localName: node.local,
    namespace: node.ns,
    attributes: node.attributes.map(([name, value]) => ({ name, prefix: '', localName: name, namespace: '', value })),
    children
  }
}

test('fuzz: generated payloads round-trip: the decoder builds exactly the tree that was written', (t: TestContext) => {
  fc.assert(fc.property(fc.array(tree, { maxLength: 3 }), fc.constantFrom(SOAP11_ENV, SOAP12_ENV), (payload, env) => {
    const xml = `<e:Envelope xmlns:e="${env}"><e:Body>${payload.map(write).join('')}</e:Body></e:Envelope>`
    const { decoded, code } = attempt(Buffer.from(xml), env)
    if (decoded === undefined) throw new Error(`refused with ${code}: ${xml}`)
    t.assert.deepStrictEqual(elementsAt(decoded.tree, decoded.bodyNodes), payload.map(expectedOf))
  }), { numRuns: RUNS })
})

test('fuzz: decoding time grows linearly with the size of the message', (t: TestContext) => {
  // Quadratic work would make 8 times the content cost about 64 times the time.
  // Without shapes: each message is read anew, not decoded again from the last one's tree (test/internals/markup.test.ts).
  const unbounded = new EnvelopeDecoder(normalizeOptions({ bodyLimit: 64 * 1024 * 1024, maxElements: 10_000_000, maxNamespaceDeclarations: 10_000_000 }).limits, { shapes: false })
  fc.assert(fc.property(tree, (node) => {
    const fragment = write(node)
    const sized = (k: number): string => `<e:Envelope xmlns:e="${SOAP12_ENV}"><e:Body><w:W xmlns:w="urn:w">${fragment.repeat(k)}</w:W></e:Body></e:Envelope>`
    const k = Math.max(1, Math.ceil(20_000 / fragment.length))
    const [one, eight] = [sized(k), sized(8 * k)]
    const small = fastest(5, () => unbounded.decode(one, SOAP12_ENV, 'utf-8'))
    const large = fastest(5, () => unbounded.decode(eight, SOAP12_ENV, 'utf-8'))
    t.assert.ok(large / small < 24, `8× the content took ${(large / small).toFixed(1)}× the time`)
  }), { numRuns: 20 })
})
