/**
 * The decoded tree (lib/xml/tree.ts): what the decoder keeps of a message, and
 * that a message's tree stays as it was while later messages are decoded into
 * the same slabs, small ones and ones too large for a slab alike.
 */
import { test, type TestContext } from 'node:test'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { EnvelopeDecoder, type DecodedEnvelope } from '../../../lib/soap/envelope'
import { SOAP12_ENV, XSI_NS } from '../../../lib/namespaces'
import { normalizeOptions } from '../../../lib/options'
import { elementAt, elementsAt } from '../../../lib/xml/tree'
import type { XmlElement } from '../../../lib/types'

const decoder = new EnvelopeDecoder(normalizeOptions({ bodyLimit: 8 * 1024 * 1024, maxElements: 1_000_000 }).limits)

function envelope (body: string, header = ''): string {
  return `<e:Envelope xmlns:e="${SOAP12_ENV}" xmlns:r="urn:r">${header === '' ? '' : `<e:Header>${header}</e:Header>`}<e:Body>${body}</e:Body></e:Envelope>`
}

function decode (body: string, header = ''): DecodedEnvelope {
  return decoder.decode(envelope(body, header), SOAP12_ENV, 'utf-8')
}

/** `count` records, each an element with an attribute, a text child and an element child. */
function records (tag: string, count: number): string {
  let out = ''
  for (let i = 0; i < count; i++) out += `<r:${tag} n="${tag}${i}">${tag} ${i}<r:v>${i * 2}</r:v></r:${tag}>`
  return out
}

function expected (tag: string, count: number): XmlElement[] {
  const list: XmlElement[] = []
  for (let i = 0; i < count; i++) {
    list.push({
      name: `r:${tag}`,
      prefix: 'r',
      localName: tag,
      namespace: 'urn:r',
      attributes: [{ name: 'n', prefix: '', localName: 'n', namespace: '', value: `${tag}${i}` }],
      children: [`${tag} ${i}`, { name: 'r:v', prefix: 'r', localName: 'v', namespace: 'urn:r', attributes: [], children: [String(i * 2)] }]
    })
  }
  return list
}

test('tree: every message keeps its own tree while later ones, small and larger than a slab, are decoded', (t: TestContext) => {
  // A slab holds 16,384 integers: 4 per node, 2 per attribute. 5,000 records (15,000 nodes) outgrow one.
  // Names of different lengths put every message's offsets elsewhere.
  const plan: Array<[string, number]> = [['a', 1], ['bb', 3], ['ccc', 5000], ['d', 2], ['eeee', 1200], ['ff', 7000], ['g', 1], ['hhhhh', 2]]
  const held = plan.map(([tag, count]) => ({ tag, count, decoded: decode(records(tag, count)) }))
  for (let round = 0; round < 3; round++) held.push({ tag: 'x'.repeat(round + 1), count: 900, decoded: decode(records('x'.repeat(round + 1), 900)) })
  for (const { tag, count, decoded } of held) {
    t.assert.deepStrictEqual(elementsAt(decoded.tree, decoded.bodyNodes), expected(tag, count), `${count} records <${tag}>`)
  }
})

test('tree: adjacent text, CDATA sections and references are one text node; line ends are normalised; namespace declarations are no attributes', (t: TestContext) => {
  const decoded = decode(`<p:T xmlns:p="urn:p" xmlns:xsi="${XSI_NS}" xsi:type="p:X" a="1\r\n2">one &amp; <![CDATA[two <raw>]]> three\r\nfour<![CDATA[\r\n]]><p:c/>after</p:T>`)
  t.assert.deepStrictEqual(elementAt(decoded.tree, decoded.bodyNodes[0]), {
    name: 'p:T',
    prefix: 'p',
    localName: 'T',
    namespace: 'urn:p',
    attributes: [
      { name: 'xsi:type', prefix: 'xsi', localName: 'type', namespace: XSI_NS, value: 'p:X' },
      { name: 'a', prefix: '', localName: 'a', namespace: '', value: '1 2' }
    ],
    children: ['one & two <raw> three\nfour\n', { name: 'p:c', prefix: 'p', localName: 'c', namespace: 'urn:p', attributes: [], children: [] }, 'after']
  })
})

test('tree: one name rebound to another namespace is another name; header blocks and the payload share the tree', (t: TestContext) => {
  const decoded = decode('<p:a xmlns:p="urn:1"><p:a xmlns:p="urn:2"/><p:a/></p:a>', '<p:a xmlns:p="urn:3"/>')
  const [header] = elementsAt(decoded.tree, decoded.headerNodes)
  const [body] = elementsAt(decoded.tree, decoded.bodyNodes)
  t.assert.strictEqual(header.namespace, 'urn:3')
  t.assert.deepStrictEqual([body.namespace, ...body.children.map((c) => (c as XmlElement).namespace)], ['urn:1', 'urn:2', 'urn:1'])
})

/** An element as `name{namespace}`, its attributes in brackets and its children in parentheses: what a name's id gives it. */
function outline (e: XmlElement | string): string {
  if (typeof e === 'string') return JSON.stringify(e)
  const attributes = e.attributes.map((a) => `${a.name}{${a.namespace}}=${a.value}`).join(' ')
  return `${e.name}{${e.namespace}}[${attributes}](${e.children.map(outline).join(' ')})`
}

test('tree: a name\'s id holds in its own message only, in the namespace it was given for, and after the reader\'s name cache lets the name go', (t: TestContext) => {
  // Shapes off: each message is read anew (one markup repeated would be copied from its shape).
  const decoder = new EnvelopeDecoder(normalizeOptions({}).limits, { shapes: false })
  // r:a1z and r:a2z take one slot of the reader's name cache (one length, one first and last character): each
  // lets the other go. More than four names in a message are found through the builder's map.
  const messages: Array<[string, string]> = [
    ['<r:x xmlns:r="urn:1" r:k="1"><r:y k="2"/><r:a1z/><r:a2z/><r:a1z r:k="3"/></r:x>',
      'r:x{urn:1}[r:k{urn:1}=1](r:y{urn:1}[k{}=2]() r:a1z{urn:1}[]() r:a2z{urn:1}[]() r:a1z{urn:1}[r:k{urn:1}=3]())'],
    ['<r:y xmlns:r="urn:1"><r:a2z k="1"/><r:x/><r:y xmlns:r="urn:2" r:k="2"><r:x/><r:a1z/></r:y><r:x r:k="3"/><r:a1z/></r:y>',
      'r:y{urn:1}[](r:a2z{urn:1}[k{}=1]() r:x{urn:1}[]() r:y{urn:2}[r:k{urn:2}=2](r:x{urn:2}[]() r:a1z{urn:2}[]()) ' +
      'r:x{urn:1}[r:k{urn:1}=3]() r:a1z{urn:1}[]())'],
    // An element and an attribute of one name: the element in the default namespace, the attribute in none.
    ['<r:a1z xmlns:r="urn:2" xmlns="urn:d"><k k="0"/><r:y/><r:x r:k="1"/><k/></r:a1z>',
      'r:a1z{urn:2}[](k{urn:d}[k{}=0]() r:y{urn:2}[]() r:x{urn:2}[r:k{urn:2}=1]() k{urn:d}[]())'],
    ['<r:x xmlns:r="urn:3"><r:a2z/><r:x/></r:x>', 'r:x{urn:3}[](r:a2z{urn:3}[]() r:x{urn:3}[]())']
  ]
  for (let round = 0; round < 2; round++) {
    for (const [body, expected] of messages) {
      const decoded = decoder.decode(`<e:Envelope xmlns:e="${SOAP12_ENV}"><e:Body>${body}</e:Body></e:Envelope>`, SOAP12_ENV, 'utf-8')
      t.assert.strictEqual(elementsAt(decoded.tree, decoded.bodyNodes).map(outline).join(), expected, body)
    }
  }
})

test('tree: a refused message leaves nothing behind for the next one', (t: TestContext) => {
  t.assert.throws(() => decode('<p:a xmlns:p="urn:p">half'), { code: 'SOAP_ERR_DECODE_XML' })
  t.assert.throws(() => decoder.decode(`<e:Envelope xmlns:e="${SOAP12_ENV}"><e:Header><p:h xmlns:p="urn:p">x</p:h></e:Header></e:Envelope>`, SOAP12_ENV, 'utf-8'), { code: 'SOAP_ERR_DECODE_STRUCTURE' })
  const decoded = decode('<p:b xmlns:p="urn:p">y</p:b>')
  t.assert.deepStrictEqual(elementsAt(decoded.tree, decoded.bodyNodes), [{ name: 'p:b', prefix: 'p', localName: 'b', namespace: 'urn:p', attributes: [], children: ['y'] }])
  t.assert.deepStrictEqual(decoded.headerNodes, [])
})

/** As a request body is: one string, not pieces. */
function flat (text: string): string {
  return Buffer.from(text).toString()
}

/**
 * The heap still in use after `decoder` has read `count` messages made by
 * `message` (each with one element in its Body) and then a small one, the
 * garbage collected: what the decoder keeps from them.
 */
function keptAfter (t: TestContext, decoder: EnvelopeDecoder, count: number, message: (k: number) => string): number {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  const small = flat(envelope('<r:s/>'))
  decoder.decode(small, SOAP12_ENV, 'utf-8')
  gc()
  const before = process.memoryUsage().heapUsed
  // In a function of its own, so that no stack slot holds the last message.
  const decodeAll = (): void => {
    for (let k = 0; k < count; k++) t.assert.strictEqual(decoder.decode(flat(message(k)), SOAP12_ENV, 'utf-8').bodyNodes.length, 1)
    decoder.decode(small, SOAP12_ENV, 'utf-8')
  }
  decodeAll()
  gc()
  return process.memoryUsage().heapUsed - before
}

test('docs/protocol.md "Limits": what a decoder keeps between messages (names, namespaces, its reused events) keeps no message alive', (t: TestContext) => {
  const big = new EnvelopeDecoder(normalizeOptions({ bodyLimit: 4 * 1024 * 1024, maxTextLength: 4 * 1024 * 1024 }).limits)
  const messages = 24
  const size = 2 * 1024 * 1024
  const kept = keptAfter(t, big, messages, (k) => {
    // Names, namespace names and attribute values long enough to be kept as views of the message, each message its own.
    const open = `<p:LongElementName${k} xmlns:p="urn:example:long:namespace:${k}" first="long attribute value ${k}" second="another long value ${k}">`
    return envelope(`${open}${'x'.repeat(size)}</p:LongElementName${k}>`)
  })
  t.assert.ok(kept < size / 2, `${(kept / 1048576).toFixed(1)} MB kept after ${messages} messages of ${size / 1048576} MB`)
})

test('docs/protocol.md "Limits": the reader\'s name cache keeps short names only, whatever names a message holds', (t: TestContext) => {
  const name = 256 * 1024
  const decoder = new EnvelopeDecoder(normalizeOptions({ bodyLimit: 4 * 1024 * 1024, maxNameLength: 1024 * 1024 }).limits)
  const messages = 16
  const kept = keptAfter(t, decoder, messages, (k) => {
    // Names of different lengths and ends, so that each would take a cache slot of its own.
    const long = 'n'.repeat(name + k) + String.fromCharCode(0x61 + k)
    return envelope(`<r:${long} a${long}="1">x</r:${long}>`)
  })
  t.assert.ok(kept < name * 2, `${(kept / 1048576).toFixed(1)} MB kept after ${messages} messages with names of ${name / 1024} KB`)
})

test('docs/protocol.md "Limits": the prefixes the reader\'s namespace scope keeps between documents keep no document alive', (t: TestContext) => {
  const decoder = new EnvelopeDecoder(normalizeOptions({ bodyLimit: 4 * 1024 * 1024, maxTextLength: 4 * 1024 * 1024 }).limits)
  const messages = 16
  const kept = keptAfter(t, decoder, messages, (k) => {
    // A prefix too long for the reader's name cache, each message its own: read as a slice of the message.
    const prefix = 'p'.repeat(100) + String.fromCharCode(0x61 + k)
    return envelope(`<${prefix}:a xmlns:${prefix}="urn:x">${'x'.repeat(1024 * 1024)}</${prefix}:a>`)
  })
  t.assert.ok(kept < 1024 * 1024, `${(kept / 1048576).toFixed(1)} MB kept after ${messages} messages of 1 MB, each with a prefix of its own`)
})

test('docs/protocol.md "Limits": what the reader\'s name cache keeps stays within its slots, whatever names take each other\'s slots', (t: TestContext) => {
  const decoder = new EnvelopeDecoder(normalizeOptions({ bodyLimit: 4 * 1024 * 1024 }).limits)
  const count = 4000
  // 64 characters, the longest cached; names with one first and last character share a cache slot.
  const name = (first: string, n: number, last: string): string => first + String(n).padStart(62, '0') + last
  const kept = keptAfter(t, decoder, 4, (k) => {
    let body = ''
    // Each name takes the cache slot of the one before it.
    for (let i = 0; i < count; i++) body += `<${name('a', k * count + i, 'z')}/>`
    // Three slots in turn: each name takes the slot of the one three before it.
    for (let i = 0; i < count; i++) body += `<${name('b', k * count + i, 'y')}/><${name('c', k * count + i, 'x')}/><${name('d', k * count + i, 'w')}/>`
    return envelope(`<r:s>${body}</r:s>`)
  })
  t.assert.ok(kept < 1024 * 1024, `${(kept / 1048576).toFixed(1)} MB kept after 4 messages of ${4 * count} names each`)
})
