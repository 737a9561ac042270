/**
 * The XML reader against saxes (a strict, conformant XML 1.0 and namespaces
 * parser, kept as a development dependency for this): on random, mutated and
 * generated documents both must accept or refuse alike, and report the same
 * elements, namespaces, attributes and text.
 */
import { test, type TestContext } from 'node:test'
import fc from 'fast-check'
import { fastest, mutations } from '../fuzzing'
import { SaxesParser } from 'saxes'
import { XmlReader, XmlReadError, type XmlAttributeEvent, type XmlHandler } from '../../../lib/xml/reader'
import { disallowedAt } from '../../../lib/xml/chars'

const RUNS = Number(process.env.FUZZ_RUNS ?? 400)
// Differences by design: the reader wants NCName local parts (Namespaces in
// XML §3), which saxes leaves to the application, and refuses a second BOM
// and lone surrogates.
// eslint-disable-next-line no-misleading-character-class -- combining marks are NameChars on their own
const NCNAME_LOCAL = /^[^:]*:[-.0-9\u00B7\u0300-\u036F\u203F-\u2040]/u
// saxes trims namespace names and the reader does not; the decoder refuses
// such names (lib/soap/envelope.ts), and so do both sides here.
const EDGE_SPACE = /^[ \t\r\n]|[ \t\r\n]$/
const isDeclaration = (name: string): boolean => name === 'xmlns' || name.startsWith('xmlns:')

type Events = string[] | 'refused'

function canonical (tag: { name: string, uri: string, attributes: ReadonlyArray<{ name: string, uri: string, value: string }> }): string {
  const attributes = tag.attributes.map((a) => `${a.name}{${a.uri}}=${JSON.stringify(a.value)}`).sort().join(' ')
  return `<${tag.name}{${tag.uri}} ${attributes}>`
}

function joinText (events: string[]): string[] {
  const out: string[] = []
  for (const e of events) {
    if (e.startsWith('T') && out.length > 0 && out[out.length - 1].startsWith('T')) out[out.length - 1] += e.slice(1); else out.push(e)
  }
  return out.filter((e) => e !== 'T')
}

/** A handler that does nothing, but for what `overrides` says. */
function handlerWith (overrides: Partial<XmlHandler> = {}): XmlHandler {
  return { xmlDecl () {}, doctype () {}, processingInstruction () {}, openTagStart () {}, attribute () {}, openTag () {}, closeTag () {}, text () {}, sourceText () {}, ...overrides }
}

/** Reads documents with one reader, as the decoder does: what it caches carries from one document to the next. */
function readerOfMany (): (xml: string) => Events {
  let events: string[] = []
  let xml = ''
  const handler = handlerWith({
    xmlDecl (version) { if (version !== '1.0') throw new XmlReadError('version', 0) },
    doctype () { throw new XmlReadError('doctype', 0) },
    processingInstruction () { throw new XmlReadError('pi', 0) },
    openTagStart () {},
    attribute (a: XmlAttributeEvent) { if (isDeclaration(a.name) && EDGE_SPACE.test(a.value)) throw new XmlReadError('namespace name', 0) },
    openTag (name: string, _prefix: string, _local: string, uri: string, attributes: readonly XmlAttributeEvent[]) { events.push(canonical({ name, uri, attributes })) },
    closeTag () { events.push('/') },
    text (text) { events.push('T' + text) },
    sourceText (from, to) { events.push('T' + xml.slice(from, to)) }
  })
  const reader = new XmlReader(handler)
  return (document) => {
    events = []
    xml = document
    try {
      reader.read(xml)
    } catch (err) {
      if (err instanceof XmlReadError) return 'refused'
      throw err
    }
    return joinText(events)
  }
}

function byReader (xml: string): Events {
  return readerOfMany()(xml)
}

function bySaxes (xml: string): Events {
  // A lone surrogate is no Char (XML §2.2); saxes lets some through.
  if (xml.startsWith('\uFEFF') || /[\uD800-\uDFFF]/u.test(xml)) return 'refused'
  const events: string[] = []
  const parser = new SaxesParser({ xmlns: true, position: false })
  let refused = false
  const refuse = (): void => { refused = true; throw new Error('refused') }
  parser.on('xmldecl', (decl) => { if (decl.version !== '1.0') refuse() })
  parser.on('doctype', refuse)
  parser.on('processinginstruction', refuse)
  let depth = 0
  parser.on('opentag', (tag) => {
    depth++
    const attributes = Object.values(tag.attributes)
    if ([tag.name, ...attributes.map((a) => a.name)].some((n) => NCNAME_LOCAL.test(n))) refuse()
    if (attributes.some((a) => isDeclaration(a.name) && EDGE_SPACE.test(a.value))) refuse()
    events.push(canonical({ name: tag.name, uri: tag.uri, attributes: attributes.map((a) => ({ name: a.name, uri: a.uri, value: a.value })) }))
  })
  parser.on('closetag', () => { depth--; events.push('/') })
  parser.on('text', (text) => { if (depth > 0) events.push('T' + text) })
  parser.on('cdata', (text) => { events.push('T' + text) })
  try {
    parser.write(xml).close()
  } catch {
    return 'refused'
  }
  return refused ? 'refused' : joinText(events)
}

function agree (t: TestContext, xml: string): void {
  t.assert.deepStrictEqual(byReader(xml), bySaxes(xml), JSON.stringify(xml))
}

const SEEDS = [
  '<?xml version="1.0" encoding="utf-8" standalone="yes"?>\n<!-- c --><s:E xmlns:s="urn:s" xmlns="urn:d" a="1"><s:B x:y="2" xmlns:x="urn:x"><![CDATA[<&>]]>&amp;&lt;&#x1D11E;&#65;</s:B>\r\n<c b=\'v&quot;\t\r\n\'/><d xmlns="">t</d></s:E>\n<!-- after -->',
  '<a xmlns:p="urn:p"><p:b p:c="1" d="2"/><e>x&gt;y]]z</e><f><![CDATA[]]]]><![CDATA[>]]></f></a>',
  '<r><x:y xmlns:x="urn:1"><x:z xmlns:x="urn:2"/></x:y><g xml:lang="en" xmlns:xml="http://www.w3.org/XML/1998/namespace"/></r>',
  // Names longer than the reader caches (64 characters), and values that stand as they are next to ones to normalise.
  `<p:${'n'.repeat(70)} xmlns:p="urn:p" p:${'a'.repeat(70)}="${'v'.repeat(300)}" b="x\ty" c="1"\n d="&lt;"><p:${'n'.repeat(69)}/></p:${'n'.repeat(70)}>`
]
const ALPHABET = ['<', '>', '/', '&', ';', ':', '=', '"', "'", '!', '?', '[', ']', '-', '#', 'x', ' ', '\n', '\r', '\t', '\u0000', '\uFFFE', '𝄞', 'é', '\u0300', 'xmlns', 'xml', ':a', 'a:', '&amp;', '&#0;', '&#x20;', '<!--', '-->', ']]>', '<![CDATA[', '<?', '?>', '<!DOCTYPE', '<a>', '</a>', '<a/>', '="v"']

const mutated = mutations(SEEDS, ALPHABET, 3)

test('XmlReader: the seeds are read as saxes reads them', (t: TestContext) => {
  for (const seed of SEEDS) {
    t.assert.notStrictEqual(byReader(seed), 'refused')
    agree(t, seed)
  }
})

test('XmlReader: mutated documents: accepted or refused as by saxes, with the same events', (t: TestContext) => {
  fc.assert(fc.property(mutated, (xml) => { agree(t, xml) }), { numRuns: RUNS * 10 })
})

test('XmlReader: one reader for every document (names cached from the documents before) agrees with saxes on each', (t: TestContext) => {
  const read = readerOfMany()
  for (const seed of SEEDS) t.assert.deepStrictEqual(read(seed), bySaxes(seed), JSON.stringify(seed))
  fc.assert(fc.property(mutated, (xml) => { t.assert.deepStrictEqual(read(xml), bySaxes(xml), JSON.stringify(xml)) }), { numRuns: RUNS * 10 })
})

test('XmlReader: a namespace name read through a reference is not taken again for its characters written as they stand', (t: TestContext) => {
  for (const [first, second] of [['u&amp;v', 'u&v'], ['u&#x9;v', 'u\tv'], ['u&#xA;v', 'u\nv'], ['u&lt;v', 'u<v']]) {
    const read = readerOfMany()
    const before = `<a xmlns:p="${first}"><p:b/></a>`
    const after = `<a xmlns:p="${second}"><p:b/></a>`
    t.assert.deepStrictEqual(read(before), bySaxes(before), before)
    t.assert.deepStrictEqual(read(after), bySaxes(after), after)
  }
})

test('XmlReader: random strings over XML\'s alphabet agree with saxes', (t: TestContext) => {
  const piece = fc.constantFrom(...ALPHABET, 'a', 'b', 'p', '1', 'urn:x')
  fc.assert(fc.property(fc.array(piece, { maxLength: 40 }).map((p) => '<a>' + p.join('') + '</a>'), (xml) => { agree(t, xml) }), { numRuns: RUNS * 5 })
  fc.assert(fc.property(fc.string({ maxLength: 60 }), (xml) => { agree(t, xml) }), { numRuns: RUNS })
})

test('XmlReader: the checks saxes leaves out', (t: TestContext) => {
  for (const xml of ['<a:1b xmlns:a="u"/>', '<a b:-c="1" xmlns:b="u"/>', '\uFEFF<a/>', '<a xmlns:p=""/>', '<xmlns:a/>', '<a xmlns:xmlns="u"/>', '<a xmlns:p="http://www.w3.org/XML/1998/namespace"/>', '<a xmlns:xml="u"/>', '<a xmlns="http://www.w3.org/2000/xmlns/"/>']) {
    t.assert.strictEqual(byReader(xml), 'refused', xml)
  }
})

test('XmlReader: a DOCTYPE or a processing instruction is refused even by a handler that lets it pass', (t: TestContext) => {
  const calls: string[] = []
  const lenient = handlerWith({
    doctype () { calls.push('doctype') },
    processingInstruction (target) { calls.push(target) }
  })
  for (const xml of ['<!DOCTYPE a><a/>', '<?pi x?><a/>', '<a><?pi x?></a>', '<a/><?pi x?>']) {
    t.assert.throws(() => new XmlReader(lenient).read(xml), XmlReadError, xml)
  }
  t.assert.deepStrictEqual(calls, ['doctype', 'pi', 'pi', 'pi'])
})

test('XmlReader: character references may have leading zeros (§4.1), checked by value', (t: TestContext) => {
  for (const xml of ['<a>&#00000065;</a>', '<a>&#x0000041;</a>', '<a b="&#x00000000000000000041;"/>']) {
    t.assert.notStrictEqual(byReader(xml), 'refused', xml)
    agree(t, xml)
  }
  t.assert.strictEqual(byReader('<a>&#0000;</a>'), 'refused')
  t.assert.strictEqual(byReader('<a>&#x00110000;</a>'), 'refused')
})

test('XmlReader: the five predefined entities are read in text and attribute values; names that only begin like one are undefined', (t: TestContext) => {
  for (const xml of ['<a b="&apos;&quot;&lt;&gt;&amp;x">&apos;&quot;&lt;&gt;&amp;</a>', '<a>&amp;amp;&#38;lt;</a>']) {
    t.assert.notStrictEqual(byReader(xml), 'refused', xml)
    agree(t, xml)
  }
  for (const xml of ['<a>&ab;</a>', '<a>&ampx;</a>', '<a>&apo;</a>', '<a>&l;</a>', '<a>&g</a>', '<a b="&quo;"/>', '<a>&amp</a>', '<a>&z;</a>']) {
    t.assert.strictEqual(byReader(xml), 'refused', xml)
  }
})

test('XmlReader: every reference in character data is replaced (§4.4.2, §4.6), in runs of one reference and of several, next to each other', (t: TestContext) => {
  const cases: Array<[string, string[]]> = [
    ['<a>x&amp;y<b/>z&lt;w&gt;v<c/>&amp;</a>', ['<a{} >', 'Tx&y', '<b{} >', '/', 'Tz<w>v', '<c{} >', '/', 'T&', '/']],
    ['<a>&quot;<b/>1&apos;2&amp;3<b/>-&#65;-<b/>&lt;&#x42;</a>', ['<a{} >', 'T"', '<b{} >', '/', "T1'2&3", '<b{} >', '/', 'T-A-', '<b{} >', '/', 'T<B', '/']],
    ['<a>one\r\n&amp;<b/>]]&gt;&gt;</a>', ['<a{} >', 'Tone\n&', '<b{} >', '/', 'T]]>>', '/']]
  ]
  for (const [xml, events] of cases) {
    t.assert.deepStrictEqual(byReader(xml), events, xml)
    agree(t, xml)
  }
  for (const xml of ['<a>x]]>&amp;</a>', '<a>&amp;x]]></a>', '<a>&amp;&bad;</a>', '<a>&amp;&amp</a>']) t.assert.strictEqual(byReader(xml), 'refused', xml)
})

test('XmlReader: one reader resolves a name again whenever its prefix is bound anew, within a document and in the next', (t: TestContext) => {
  const uris: string[] = []
  const reader = new XmlReader(handlerWith({ openTag (_name, _prefix, local, uri) { if (local === 'a') uris.push(uri) } }))
  reader.read('<r xmlns:p="urn:1"><p:a/><s xmlns:p="urn:2"><p:a/></s><p:a/><s xmlns:p="urn:3"/><p:a/></r>')
  reader.read('<p:a xmlns:p="urn:4"/>')
  reader.read('<r xmlns="urn:5"><a/><s xmlns=""><a/></s></r>')
  // A document that stops inside its declarations' scope leaves nothing bound for the next.
  t.assert.throws(() => reader.read('<r xmlns="urn:6"><a/>'), XmlReadError)
  reader.read('<a/>')
  t.assert.deepStrictEqual(uris, ['urn:1', 'urn:2', 'urn:1', 'urn:1', 'urn:4', 'urn:5', '', 'urn:6', ''])
})

test('XmlReader: one reader reads each Name (§2.3) whole where it begins as a name met before it, or as one sharing its cache slot', (t: TestContext) => {
  const read = readerOfMany()
  const documents = [
    // `b` came after `a`: each time, a longer name starting with `b` is read whole, ASCII or not.
    ...['bc', 'b-', 'b.1', 'b\u00E9', 'b\u0300', 'b:c xmlns:b="urn:b"', 'b'].flatMap((name) => ['<r><a/><b/></r>', `<r><a/><${name}/></r>`]),
    '<r a="1"/>', '<r ab="1"/>', '<r a="1"/>', '<r a\u00E9="1"/>',
    // `ah` and `ba` share a slot of the cache, each taking it from the other.
    '<r><ah/><ba/><ah/><ba/></r>', '<r><ba/><ah/><ba/><ah/></r>', '<r><ah x="1"/><ba/></r>', '<r><ah/><ba/><ah/></r>',
    // A name that ends where the document does.
    '<r><a/><b/></r>', '<r><a/><b'
  ]
  for (const xml of documents) t.assert.deepStrictEqual(read(xml), bySaxes(xml), JSON.stringify(xml))
  t.assert.deepStrictEqual(read('<r><a/><b/></r>'), ['<r{} >', '<a{} >', '/', '<b{} >', '/', '/'])
  t.assert.deepStrictEqual(read('<r><a/><bc/></r>'), ['<r{} >', '<a{} >', '/', '<bc{} >', '/', '/'])
})

test('XmlReader: CDATA before the document element is an XML error, before any text reaches the handler', (t: TestContext) => {
  const texts: string[] = []
  const handler = handlerWith({ text (text) { texts.push(text) }, sourceText (from, to) { texts.push(`${from}-${to}`) } })
  t.assert.throws(() => new XmlReader(handler).read('<![CDATA[x]]><a/>'), XmlReadError)
  t.assert.deepStrictEqual(texts, [])
})

test('XmlReader: time grows linearly on the shapes that once made it quadratic', (t: TestContext) => {
  const reader = new XmlReader(handlerWith())
  const time = (xml: string): number => fastest(5, () => reader.read(xml))
  const shapes: Array<[string, (n: number) => string]> = [
    ['text runs between empty elements (a scan for "&" restarted at each)', (n) => '<a>' + 'x<b/>'.repeat(n) + '€</a>'],
    ['attribute values (the same scan)', (n) => '<a>' + '<b c="1"/>'.repeat(n) + '</a>'],
    ['text split by comments', (n) => '<a>' + 'x<!---->'.repeat(n) + '</a>'],
    ['attribute values on lines of their own (scans for "<", tab and line feed)', (n) => '<a>' + '<b c="1"\n d="2"/>\n'.repeat(n) + '</a>'],
    ['prefixed attributes in a long namespace (a key built from the URI each time)', (n) => `<a xmlns:p="${'u'.repeat(4096)}">` + '<b p:c="" p:d=""/>'.repeat(n) + '</a>']
  ]
  for (const [name, shape] of shapes) {
    time(shape(40_000)) // warm-up: the first runs include compiling
    const small = time(shape(10_000))
    const large = time(shape(40_000))
    // Linear is about 4; the quadratic versions measured 11 to 100.
    t.assert.ok(large / small < 8, `${name}: 4× the input took ${(large / small).toFixed(1)}× the time`)
  }
})

test('XML 1.0 §2.2 (Char): a text known to hold no surrogate half alone (UTF-8 decoded) is refused at the same character as any text', (t: TestContext) => {
  // Pairs, characters XML allows, and characters it does not (C0 controls, U+FFFE, U+FFFF): no half alone.
  const unit = fc.constantFrom('a', '<', '\t', '\n', '\r', 'ü', '東', '\uE000', '\uFFFD', '🌍', '\u0000', '\u0008', '\u000B', '\u001F', '\uFFFE', '\uFFFF')
  fc.assert(fc.property(fc.array(unit, { maxLength: 60 }), (units) => {
    const text = units.join('')
    t.assert.strictEqual(disallowedAt(text, true), disallowedAt(text))
  }), { numRuns: 500 })
  for (const bad of ['\u0001', '\uFFFE', '\uFFFF']) {
    const document = `<a>🌍 text${bad}</a>`
    t.assert.throws(() => { new XmlReader(handlerWith()).read(document, false, true) }, (err: unknown) =>
      err instanceof XmlReadError && err.message === `disallowed character (at character ${document.indexOf(bad)})`)
  }
  const document = '<a>🌍 text &#x1F30D;</a>'
  let text = ''
  new XmlReader(handlerWith({ text (s) { text += s }, sourceText (from, to) { text += document.slice(from, to) } })).read(document, false, true)
  t.assert.strictEqual(text, '🌍 text 🌍')
})
