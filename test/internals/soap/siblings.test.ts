/**
 * Repeated siblings (lib/xml/siblings.ts): an element with the markup of the
 * sibling before it is taken whole, its tree nodes copied from that one's.
 * Whatever the siblings hold, the result must be what a decoder that reads
 * every element from its events makes of it: the same tree, or the same error.
 */
import { test, type TestContext } from 'node:test'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import fc from 'fast-check'
import { EnvelopeDecoder } from '../../../lib/soap/envelope'
import { SOAP11_ENV, SOAP12_ENV, XSI_NS } from '../../../lib/namespaces'
import { normalizeOptions, type SoapLimits } from '../../../lib/options'
import type { Template } from '../../../lib/xml/siblings'
import { MATCHES_FOR_PATTERN, PATTERNS_PER_DOCUMENT, SLOT_LENGTH, TEMPLATE_LENGTH } from '../../../lib/xml/siblings'
import { XmlReader, type XmlHandler } from '../../../lib/xml/reader'
import { decodeOutcome } from '../fuzzing'

const RUNS = Number(process.env.FUZZ_RUNS ?? 400)

/** A decoder that counts the siblings it took whole, and keeps the templates it was given. */
class Counting extends EnvelopeDecoder {
  repeats = 0
  learnt = 0
  readonly templates: Template[] = []

  learned (template: Template): boolean {
    this.learnt++
    const kept = super.learned(template)
    if (kept) this.templates.push(template)
    return kept
  }

  repeat (template: Template, slots: readonly number[], values: ReadonlyArray<string | undefined>): boolean {
    const taken = super.repeat(template, slots, values)
    if (taken) this.repeats++
    return taken
  }
}

/** Records of one shape: `{a}`, `{b}` … are attribute values, `{1}`, `{2}` … text runs, each replaced per record. */
const RECORDS = [
  '<w:item id="{a}"><w:name>{1}</w:name><w:price>{2}</w:price><w:tags>{3}</w:tags></w:item>',
  '\n  <w:row a=\'{a}\' b="{b}">\n    <w:c>{1}</w:c>\n    <w:d/>\n    <w:e x="{c}">{2}<w:f>{3}</w:f></w:e>\n  </w:row>',
  '<w:n k="{a}"/>',
  '<w:o><w:p><w:q>{1}</w:q><w:q>{2}</w:q></w:p><w:p><w:q>{3}</w:q></w:p></w:o>',
  '<w:t>{1}</w:t>',
  '<w:a.b c-d="{a}"><w:e_f>{1}</w:e_f></w:a.b>'
]

/** What a slot may become (most often one of the first three): taken as it is or not, allowed or not, markup or not, long or not. */
const VALUES = [
  'x', '42', 'a b', ' ', '', '\n\t ', 'é𝄞', '>', ']]', ']]>', '&amp;', 'a &lt; b &gt; c', '&quot;&apos;', '&#x41;', '&',
  '&bogus;', '&amp', '\r\n', '\u0000', '\uFFFE', '"', "'", '<', '<x/>', '<!-- c -->', '<![CDATA[c]]>', '<?pi?>',
  'x'.repeat(20), 'x'.repeat(SLOT_LENGTH + 1), '\t'
]

/** Changes to a record's markup, so that some records are not like the one before. */
const EDITS: Array<(record: string) => string> = [
  (r) => r,
  (r) => r,
  (r) => r,
  (r) => r.replace(/^(\s*<w:\w+)/, '$1 xmlns:v="urn:v"'),
  (r) => r.replace(/^(\s*<w:\w+)/, `$1 xmlns:xsi="${XSI_NS}" xsi:nil="false"`),
  (r) => r.replace(/^(\s*<w:\w+)/, '$1 extra="1"'),
  (r) => r.replace(/^(\s*<w:\w+)/, '$1  '),
  (r) => r.replace(/<\/w:(\w+)>/, '</w:$1x>'),
  (r) => r.replace(/<w:(\w+)>/, '<w:$1 >'),
  (r) => r.replace(/^(\s*<w:\w+)/, '$1 id="1" id="2"'),
  (r) => r.replace(/^(\s*<w:)/, '$1\u0000'),
  (r) => r + '<!-- between -->',
  (r) => r.replace(/^(\s*<)w:/, '$1v:'),
  (r) => r.replace(/^(\s*<w:\w+)/, '$1 xmlns="urn:d"'),
  // Another name where the template's has a '.', which a pattern must not take for its wildcard.
  (r) => r.replaceAll('a.b', 'a_b')
]

const LIMITS = normalizeOptions().limits
const TIGHT: SoapLimits[] = [
  LIMITS,
  { ...LIMITS, maxTextLength: 16 },
  { ...LIMITS, maxTextLength: 2 },
  { ...LIMITS, maxAttributeLength: 4 },
  { ...LIMITS, maxElements: 30 },
  { ...LIMITS, maxDepth: 6 },
  { ...LIMITS, maxAttributes: 2 }
]

interface Plan { record: number, count: number, values: number[], edits: number[], nested: number, place: number, limits: number }

/** The message a plan makes: `count` records, each with its slots filled and perhaps its markup edited. */
function messageOf (plan: Plan): string {
  let records = ''
  for (let i = 0; i < plan.count; i++) {
    let k = i * 7
    const record = RECORDS[plan.record].replace(/\{\w\}/g, () => VALUES[plan.values[k++ % plan.values.length] % VALUES.length])
    records += EDITS[plan.edits[i % plan.edits.length] % EDITS.length](record)
  }
  // Two lists in one parent, the second perhaps binding the records' prefix to another namespace.
  const second = plan.nested === 2 ? '<w:M xmlns:w="urn:w2">' : '<w:M>'
  const list = plan.nested === 0 ? records : `<w:L><w:M>${records}</w:M>${second}${records}</w:M></w:L>`
  // Where the list is: in the Body's element, the Body itself, the Header, or an Envelope of another version.
  switch (plan.place) {
    case 1: return `<e:Envelope xmlns:e="${SOAP12_ENV}"><e:Body xmlns:w="urn:w">${list}</e:Body></e:Envelope>`
    case 2: return `<e:Envelope xmlns:e="${SOAP12_ENV}"><e:Header xmlns:w="urn:w">${list}</e:Header><e:Body/></e:Envelope>`
    case 3: return `<e:Envelope xmlns:e="${SOAP11_ENV}"><e:Body><w:W xmlns:w="urn:w">${list}</w:W></e:Body></e:Envelope>`
    default: return inBody(list)
  }
}

/** What `decoder` makes of `text`, a SOAP 1.2 message (decodeOutcome). */
function outcome (decoder: EnvelopeDecoder, text: string): unknown {
  return decodeOutcome(decoder, text, { envelope: SOAP12_ENV, encoding: 'utf-8', charsetDeclared: false })
}

/** A SOAP 1.2 message with `content` in the Body's element, its prefix `w`. */
function inBody (content: string): string {
  return `<e:Envelope xmlns:e="${SOAP12_ENV}"><e:Body><w:W xmlns:w="urn:w">${content}</w:W></e:Body></e:Envelope>`
}

const plan = fc.record({
  record: fc.nat({ max: RECORDS.length - 1 }),
  count: fc.integer({ min: 2, max: 24 }),
  values: fc.array(fc.nat({ max: 3 * VALUES.length }).map((n) => n >= VALUES.length ? n % 3 : n), { minLength: 1, maxLength: 40 }),
  edits: fc.array(fc.nat({ max: 4 * EDITS.length }).map((n) => n >= EDITS.length ? 0 : n), { minLength: 1, maxLength: 16 }),
  nested: fc.nat({ max: 2 }),
  place: fc.nat({ max: 7 }).map((n) => n > 3 ? 0 : n),
  limits: fc.nat({ max: 3 * TIGHT.length }).map((n) => n >= TIGHT.length ? 0 : n)
})

test('XML 1.0 §3 and docs/protocol.md "Decoding": an element taken whole as a repeated sibling decodes as its events would, tree or error', (t: TestContext) => {
  let repeats = 0
  let refusedAfterRepeats = 0
  let patterns = 0
  let fromShape = 0
  const values = plan.chain((p) => fc.tuple(fc.constant(p), fc.shuffledSubarray(p.values, { minLength: p.values.length })))
  fc.assert(fc.property(values, ([p, shuffled]) => {
    const limits = TIGHT[p.limits]
    const text = messageOf(p)
    const expected = outcome(new EnvelopeDecoder(limits, { siblings: false }), text)
    const decoder = new Counting(limits)
    const first = outcome(decoder, text)
    t.assert.deepStrictEqual(first, expected, text)
    const taken = decoder.repeats
    // Then, in the same decoder, the values in another order: decoded from the first message's shape when it has
    // the same markup.
    const next = messageOf({ ...p, values: shuffled })
    const second = outcome(decoder, next) as { names?: unknown }
    t.assert.deepStrictEqual(second, outcome(new EnvelopeDecoder(limits, { siblings: false }), next), next)
    // A message decoded from the first one's shape shares its tree's names.
    if (second.names !== undefined && second.names === (first as { names?: unknown }).names) fromShape++
    // An Envelope of another version builds no tree: nothing of it is copied.
    if (p.place === 3) t.assert.strictEqual(decoder.repeats, 0, 'a version mismatch takes no sibling whole')
    repeats += decoder.repeats
    if (taken > 0 && (expected as { code?: string }).code !== undefined) refusedAfterRepeats++
    if (decoder.templates.some((template) => template.pattern !== undefined)) patterns++
  }), { numRuns: RUNS })
  // Not a comparison of two readers that never differ: many siblings were taken whole, messages were refused
  // after some were, siblings were compared by their pattern, and messages decoded from a shape.
  t.assert.ok(repeats > RUNS, `${repeats} siblings taken whole in ${RUNS} messages`)
  t.assert.ok(refusedAfterRepeats > RUNS / 40, `${refusedAfterRepeats} messages refused after siblings were taken whole`)
  t.assert.ok(patterns > RUNS / 40, `${patterns} messages with a pattern`)
  t.assert.ok(fromShape > RUNS / 40, `${fromShape} messages decoded from a shape`)
})

test('docs/protocol.md "Limits": a repeated sibling that would pass a limit its events fail is read from its events, and fails as they do', (t: TestContext) => {
  // The attribute values grow a character at the eleventh record (i = 10).
  const items = (n: number, text = 'x'): string => Array.from({ length: n }, (_, i) => `<w:i a="${'n'.repeat(40)}${i}"><w:v>${text}</w:v></w:i>`).join('')
  // The limit, the records, and how many of them are taken whole before it: all after the second, up to it.
  const cases: Array<[Partial<SoapLimits>, string, string, number]> = [
    [{ maxElements: 3 + 2 * 20 + 1 }, items(25), 'maxElements', 18],
    [{ maxTextLength: 8 }, items(20) + items(1, 'y'.repeat(9)), 'maxTextLength', 18],
    [{ maxAttributeLength: 41 }, items(20), 'maxAttributeLength', 8]
  ]
  for (const [tight, body, limit, taken] of cases) {
    const limits = { ...LIMITS, ...tight }
    const decoder = new Counting(limits)
    t.assert.throws(() => decoder.decode(inBody(body), SOAP12_ENV, 'utf-8'), (err: Error) => err.message.includes(limit), limit)
    t.assert.strictEqual(decoder.repeats, taken, `${limit}: siblings taken whole before it`)
    t.assert.deepStrictEqual(outcome(decoder, inBody(body)), outcome(new EnvelopeDecoder(limits, { siblings: false }), inBody(body)), limit)
  }
})

test('docs/protocol.md "Limits" (linear cost): a repeated sibling is taken whole only while its template is bounded: learnt from at most TEMPLATE_LENGTH characters, a few patterns a message', (t: TestContext) => {
  const message = inBody
  // Siblings of TEMPLATE_LENGTH characters are learnt; one more, and they are not.
  for (const length of [TEMPLATE_LENGTH, TEMPLATE_LENGTH + 1]) {
    const decoder = new Counting(LIMITS)
    // 160 short children, and an attribute value that makes up the length (slots no longer than SLOT_LENGTH).
    const children = '<w:v>x</w:v>'.repeat(160)
    const sibling = `<w:i a="${'p'.repeat(length - '<w:i a=""></w:i>'.length - children.length)}">${children}</w:i>`
    t.assert.strictEqual(sibling.length, length)
    decoder.decode(message(sibling.repeat(5)), SOAP12_ENV, 'utf-8')
    // Within the first sibling, its children's run is learnt from the second child and 158 taken whole; the
    // sibling itself is learnt from the second (its children read as events meanwhile), and the last three are
    // taken whole. One character longer, it is not learnt, nor tried again: each sibling's children are.
    const expected = length <= TEMPLATE_LENGTH ? [2, 158 + 3] : [4, 158 * 4]
    t.assert.deepStrictEqual([decoder.templates.length, decoder.repeats], expected, `${length} characters`)
  }
  // In another parent, siblings of that name that are short enough are learnt again.
  const long = `<w:i a="${'p'.repeat(TEMPLATE_LENGTH)}"/>`.repeat(3)
  const again = new Counting(LIMITS)
  again.decode(message(`<w:P>${long}</w:P><w:Q>${'<w:i a="1"/>'.repeat(5)}</w:Q>`), SOAP12_ENV, 'utf-8')
  t.assert.deepStrictEqual([again.templates.length, again.repeats], [1, 3])
  // Siblings holding a comment or a CDATA section make no template (their markup is not only tags).
  for (const inner of ['<!-- c -->', '<![CDATA[c]]>']) {
    const text = inBody(`<w:i>${inner}<w:v>1</w:v></w:i>`.repeat(5))
    const decoder = new Counting(LIMITS)
    t.assert.deepStrictEqual(outcome(decoder, text), outcome(new EnvelopeDecoder(LIMITS, { siblings: false }), text), inner)
    t.assert.deepStrictEqual([decoder.learnt, decoder.repeats], [0, 0], inner)
  }
  // The Body's own children: learnt once, not kept (they have no node to copy), and not learnt again.
  const children = new Counting(LIMITS)
  children.decode(`<e:Envelope xmlns:e="${SOAP12_ENV}"><e:Body xmlns:w="urn:w">${'<w:i/>'.repeat(6)}</e:Body></e:Envelope>`, SOAP12_ENV, 'utf-8')
  t.assert.deepStrictEqual([children.learnt, children.templates.length, children.repeats], [1, 0, 0])
  // Runs of siblings, each with names of its own: every run is learnt and taken whole, but only the first few
  // are compiled to a pattern.
  const runs = 12
  let body = ''
  for (let r = 0; r < runs; r++) body += `<w:r${r}><w:v>1</w:v></w:r${r}>`.repeat(MATCHES_FOR_PATTERN + 4)
  const decoder = new Counting(LIMITS)
  decoder.decode(message(body), SOAP12_ENV, 'utf-8')
  t.assert.strictEqual(decoder.templates.length, runs)
  t.assert.strictEqual(decoder.repeats, runs * (MATCHES_FOR_PATTERN + 2))
  t.assert.strictEqual(decoder.templates.filter((template) => template.pattern !== undefined).length, PATTERNS_PER_DOCUMENT)
  // The sibling of the MATCHES_FOR_PATTERN-th match has a CR, read as events: the pattern is made at the next.
  const run = Array.from({ length: MATCHES_FOR_PATTERN + 4 }, (_, i) => `<w:r><w:v>${i === MATCHES_FOR_PATTERN + 1 ? '\r' : i}</w:v></w:r>`)
  const late = new Counting(LIMITS)
  late.decode(message(run.join('')), SOAP12_ENV, 'utf-8')
  t.assert.deepStrictEqual([late.templates.length, late.repeats], [1, MATCHES_FOR_PATTERN + 1])
  t.assert.ok(late.templates[0].pattern !== undefined, 'compiled after the match whose slot was refused')
})

test('docs/protocol.md "Decoding" (markup recognised again): a repeated sibling\'s text runs are noted as its events would note them, and a reference in one leaves the document without plain runs', (t: TestContext) => {
  /** A handler that takes every repeated sibling whole, and notes the text runs it is given either way. */
  function read (text: string, siblings: boolean): { runs: readonly number[] | undefined, repeats: number } {
    let repeats = 0
    const handler: XmlHandler = {
      xmlDecl () {},
      doctype () {},
      processingInstruction () {},
      openTagStart () {},
      attribute () {},
      openTag () {},
      closeTag () {},
      text () {},
      sourceText () {},
      learned: () => true,
      repeat () {
        repeats++
        return true
      }
    }
    const reader = new XmlReader(handler, undefined, siblings)
    reader.read(text, true)
    return { runs: reader.plainRuns === undefined ? undefined : [...reader.plainRuns], repeats }
  }
  for (const third of ['c', 'x &amp; y', '\n']) {
    const text = `<w:W xmlns:w="urn:w"><w:i a="1">a</w:i><w:i a="2">b</w:i><w:i a="3">${third}</w:i><w:i a="4">d</w:i></w:W>`
    const taken = read(text, true)
    t.assert.strictEqual(taken.repeats, 2, third)
    t.assert.deepStrictEqual(taken.runs, read(text, false).runs, third)
    t.assert.strictEqual(taken.runs === undefined, third.includes('&'), third)
  }
})

test('XML 1.0 §2.3: a sibling is taken whole only with its template\'s very markup: no "." a wildcard, no slot over markup', (t: TestContext) => {
  const record = (name: string, attribute: string): string => `<w:${name} ${attribute}="1"><w:v>x</w:v></w:${name}>`
  const run = record('a.b', 'c.d').repeat(MATCHES_FOR_PATTERN + 4)
  // Near ones: another name, another attribute, markup where the template has a text, a value over two attributes.
  const nears = [record('axb', 'c.d'), record('a.b', 'cxd'), record('a.b', 'c.d').replace('>x<', '>x<w:u/>y<'), '<w:a.b c.d="1" e="2"><w:v>x</w:v></w:a.b>']
  // How many are taken whole: the run's after its second, and the second run's after its second when the near one
  // dropped the template (whose name the second run repeats, or not), else all after the run's second.
  const M = MATCHES_FOR_PATTERN
  const cases: Array<[string, number]> = [[nears[0], 2 * M + 4], [nears[1], 2 * M + 5], [nears[2], 2 * M + 5], [nears[3], 2 * M + 5], [record('a.b', 'c.d'), 2 * M + 7]]
  for (const [near, taken] of cases) {
    // Siblings like the run's after the near one: a pattern that looked past its own sibling would find them.
    const text = inBody(run + near + run)
    const decoder = new Counting(LIMITS)
    t.assert.deepStrictEqual(outcome(decoder, text), outcome(new EnvelopeDecoder(LIMITS, { siblings: false }), text), near)
    t.assert.ok(decoder.templates[0].pattern !== undefined, 'compared by its pattern')
    t.assert.strictEqual(decoder.repeats, taken, near)
  }
})

test('docs/protocol.md "Limits": nothing of a message\'s repeated siblings keeps the message alive after it', (t: TestContext) => {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  const limits = normalizeOptions({ bodyLimit: 16 * 1024 * 1024, maxElements: 1_000_000 }).limits
  const size = 4 * 1024 * 1024
  // Attribute values and pieces of markup long enough (13 characters) to be read as views of the message.
  const record = (i: number): string => `<w:record first="a long attribute value ${i}"><w:value>${i}</w:value></w:record>`
  let body = ''
  let records = 0
  while (body.length < size) body += record(records++)
  const message = inBody(body)
  // Made one string now (reading a character does), not in the first measure.
  message.charCodeAt(0)
  /** What the heap holds after the message is decoded and let go, against before. */
  function kept (decoder: EnvelopeDecoder): number {
    decoder.decode(`<e:Envelope xmlns:e="${SOAP12_ENV}"><e:Body/></e:Envelope>`, SOAP12_ENV, 'utf-8')
    gc()
    const before = process.memoryUsage().heapUsed
    // In a function of its own, so that no stack slot holds the message; a copy in the heap, the decoder's alone
    // (a Buffer's text would be held outside it, where heapUsed does not count it).
    const decode = (): void => { decoder.decode(JSON.parse(JSON.stringify(message)) as string, SOAP12_ENV, 'utf-8') }
    decode()
    gc()
    return process.memoryUsage().heapUsed - before
  }
  const taken = new Counting(limits)
  // The test's own list of templates would keep them, and their pieces are views of the message.
  taken.templates.push = () => 0
  const keptTaken = kept(taken)
  t.assert.strictEqual(taken.repeats, records - 2, 'every record after the second taken whole')
  const keptRead = kept(new EnvelopeDecoder(limits, { siblings: false }))
  t.assert.ok(keptRead < size / 4, `${(keptRead / 1048576).toFixed(1)} MB kept when every element is read from its events`)
  t.assert.ok(keptTaken - keptRead < size / 4, `${((keptTaken - keptRead) / 1048576).toFixed(1)} MB more kept than when every element is read from its events`)
})
