/**
 * docs/contract-first.md "The mapping", `xs:choice`: a choice whose branches
 * name the same element (XML Signature's PGPDataType) is held to what XML
 * Schema says, in input (a Sender fault) and output (the output validator),
 * and a property test compares the codec with xmllint on random choices whose
 * branches share elements.
 */
import { spawnSync } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import fc from 'fast-check'
import Fastify, { type FastifyInstance } from 'fastify'
import soap from '../lib/index'
import { CONTRACT_NS, contractWsdl, envelope, post, requireXmllint } from './helper'

const K = CONTRACT_NS

/** A schema of the `urn:k` namespace: `Op` and `OpResponse` of the type `C` that `body` declares (or holding `element`). */
function schemaOf (body: string, element?: string): string {
  const type = element === undefined ? 'type="k:C"' : `><xs:complexType><xs:sequence>${element}</xs:sequence></xs:complexType></xs:element`
  return `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:k="${K}" targetNamespace="${K}" elementFormDefault="qualified">
    ${body}
    <xs:element name="Op" ${type}/>
    <xs:element name="OpResponse" ${type}/>
  </xs:schema>`.replaceAll('</xs:element/>', '</xs:element>')
}

/** XML Signature's PGPDataType (xmldsig-core-schema.xsd), as the type `C` of the element PGPData. */
const PGP_DATA = schemaOf(`<xs:complexType name="C"><xs:choice>
    <xs:sequence>
      <xs:element name="PGPKeyID" type="xs:base64Binary"/>
      <xs:element name="PGPKeyPacket" type="xs:base64Binary" minOccurs="0"/>
      <xs:any namespace="##other" processContents="lax" minOccurs="0" maxOccurs="unbounded"/>
    </xs:sequence>
    <xs:sequence>
      <xs:element name="PGPKeyPacket" type="xs:base64Binary"/>
      <xs:any namespace="##other" processContents="lax" minOccurs="0" maxOccurs="unbounded"/>
    </xs:sequence>
  </xs:choice></xs:complexType>`, '<xs:element name="PGPData" type="k:C"/>')

/** A fresh folder, removed when the test ends. */
async function folder (t: TestContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'fastify-soap-choices-'))
  t.after(() => rm(dir, { recursive: true, force: true }))
  return dir
}

/** An app serving `schema`'s Op at `/c`: the handler answers `answer.reply`, else its input. */
async function serve (t: TestContext, schema: string, answer: { reply?: unknown } = {}): Promise<FastifyInstance> {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.contract({ path: '/c', document: contractWsdl({ types: schema }), operations: { Op: async (input: unknown) => answer.reply ?? input } })
  await app.ready()
  return app
}

/** Which of the files xmllint finds valid against `xsd`, by name; undefined when the schema does not compile. */
function xmllintValid (xsd: string, files: readonly string[]): Set<string> | undefined {
  const result = spawnSync('xmllint', ['--noout', '--nonet', '--schema', xsd, ...files], { encoding: 'utf8', timeout: 30_000 })
  if (/failed to compile|WXS schema .* failed/.test(result.stderr)) return undefined
  return new Set(files.filter((file) => result.stderr.includes(`${file} validates`)))
}

/**
 * Posts each case's content inside `<k:Op><k:{element}>`: a valid one is answered 200, another a Sender fault naming
 * the element; and xmllint, when there, gives each the same verdict against `schema`.
 */
async function sameAsXmllint (
  t: TestContext, app: FastifyInstance, schema: string, element: string, cases: ReadonlyArray<[string, string, boolean]>
): Promise<void> {
  const xmllint = requireXmllint(t)
  const dir = await folder(t)
  await writeFile(join(dir, 'c.xsd'), schema)
  const files: string[] = []
  for (const [what, content, valid] of cases) {
    const op = `<k:Op xmlns:k="${K}"><k:${element}>${content}</k:${element}></k:Op>`
    const response = await post(app, '1.1', envelope('1.1', op), { url: '/c' })
    if (valid) {
      t.assert.strictEqual(response.statusCode, 200, `${what}: ${response.body}`)
    } else {
      t.assert.strictEqual(response.statusCode, 500, what)
      const fault = new RegExp(`<faultcode>soap:Client</faultcode><faultstring>[^<]*/${element} the elements present do not fit the content model`)
      t.assert.match(response.body, fault, what)
    }
    files.push(join(dir, `${files.length}.xml`))
    await writeFile(files[files.length - 1], op)
  }
  if (xmllint) {
    const accepted = xmllintValid(join(dir, 'c.xsd'), files) as Set<string>
    t.assert.deepStrictEqual(cases.map(([, , valid]) => valid), files.map((file) => accepted.has(file)))
  }
}

test('docs/contract-first.md "The mapping": an xs:choice whose branches name the same element (XML Signature\'s PGPDataType) holds as XML Schema says: two PGPKeyPacket, or none at all, is a Sender fault naming the element, and a result with two packets is refused; xmllint agrees', async (t: TestContext) => {
  const answer: { reply?: unknown } = {}
  const app = await serve(t, PGP_DATA, answer)
  const cases: Array<[string, string, boolean]> = [
    ['a key id', '<k:PGPKeyID>AQ==</k:PGPKeyID>', true],
    ['a key id and a packet', '<k:PGPKeyID>AQ==</k:PGPKeyID><k:PGPKeyPacket>Ag==</k:PGPKeyPacket>', true],
    ['a packet', '<k:PGPKeyPacket>Ag==</k:PGPKeyPacket>', true],
    ['two packets', '<k:PGPKeyPacket>Ag==</k:PGPKeyPacket><k:PGPKeyPacket>Aw==</k:PGPKeyPacket>', false],
    ['a key id and two packets', '<k:PGPKeyID>AQ==</k:PGPKeyID><k:PGPKeyPacket>Ag==</k:PGPKeyPacket><k:PGPKeyPacket>Aw==</k:PGPKeyPacket>', false],
    ['nothing', '', false]
  ]
  await sameAsXmllint(t, app, PGP_DATA, 'PGPData', cases)
  // A result the XSD refuses is never written: two packets, or none.
  const request = envelope('1.1', `<k:Op xmlns:k="${K}"><k:PGPData><k:PGPKeyID>AQ==</k:PGPKeyID></k:PGPData></k:Op>`)
  // xs:base64Binary values are bytes (docs/binary.md): AQ==, Ag==, Aw==.
  const [one, two, three] = [Buffer.from([1]), Buffer.from([2]), Buffer.from([3])]
  for (const PGPData of [{ PGPKeyPacket: [two, three] }, { PGPKeyID: one, PGPKeyPacket: [two, three] }, { PGPKeyPacket: [] }]) {
    answer.reply = { PGPData }
    const refused = await post(app, '1.1', request, { url: '/c' })
    t.assert.strictEqual(refused.statusCode, 500, JSON.stringify(PGPData))
    t.assert.match(refused.body, /<faultcode>soap:Server<\/faultcode><faultstring>The server could not process the request<\/faultstring>/)
  }
  answer.reply = { PGPData: { PGPKeyID: one, PGPKeyPacket: [two] } }
  const written = await post(app, '1.1', request, { url: '/c' })
  t.assert.strictEqual(written.statusCode, 200, written.body)
  t.assert.match(written.body, /<tns:PGPData><tns:PGPKeyID>AQ==<\/tns:PGPKeyID><tns:PGPKeyPacket>Ag==<\/tns:PGPKeyPacket><\/tns:PGPData>/)
})

/** A content model that names elements twice outside any one choice: `a` before a choice that names it too, `b` twice in a row. */
const NAMED_TWICE = schemaOf(`<xs:complexType name="C"><xs:sequence>
    <xs:element name="a" type="xs:string"/>
    <xs:choice><xs:element name="a" type="xs:string"/><xs:element name="c" type="xs:string"/></xs:choice>
    <xs:element name="b" type="xs:string"/>
    <xs:element name="c2" type="xs:string"/>
    <xs:element name="b" type="xs:string" minOccurs="0"/>
  </xs:sequence></xs:complexType>`, '<xs:element name="T" type="k:C"/>')

test('docs/contract-first.md "The mapping": elements a content model names twice outside one choice (before a choice that names them, twice in a sequence) are counted over the whole content as XML Schema says: a third a, a choice left out, or a third b is a Sender fault, and such a result is refused; xmllint agrees', async (t: TestContext) => {
  const answer: { reply?: unknown } = {}
  const app = await serve(t, NAMED_TWICE, answer)
  const el = (n: string): string => `<k:${n}>${n}</k:${n}>`
  const tail = el('b') + el('c2')
  const cases: Array<[string, string, boolean]> = [
    ['a, then a', el('a') + el('a') + tail, true],
    ['a, then c', el('a') + el('c') + tail, true],
    ['a, then c, two b', el('a') + el('c') + tail + el('b'), true],
    ['a alone: the choice left out', el('a') + tail, false],
    ['three a', el('a') + el('a') + el('a') + tail, false],
    ['a, a and c', el('a') + el('a') + el('c') + tail, false],
    ['three b', el('a') + el('c') + tail + el('b') + el('b'), false]
  ]
  await sameAsXmllint(t, app, NAMED_TWICE, 'T', cases)
  const request = envelope('1.1', `<k:Op xmlns:k="${K}"><k:T>${el('a') + el('c') + tail}</k:T></k:Op>`)
  for (const T of [{ a: ['a', 'a', 'a'], b: ['b'], c2: 'c2' }, { a: ['a'], b: ['b', 'b', 'b'], c: 'c', c2: 'c2' }]) {
    answer.reply = { T }
    const refused = await post(app, '1.1', request, { url: '/c' })
    t.assert.strictEqual(refused.statusCode, 500, JSON.stringify(T))
    t.assert.match(refused.body, /<faultcode>soap:Server<\/faultcode>/)
  }
  answer.reply = { T: { a: ['a', 'a'], b: ['b'], c2: 'c2' } }
  const written = await post(app, '1.1', request, { url: '/c' })
  t.assert.strictEqual(written.statusCode, 200, written.body)
  t.assert.match(written.body, /<tns:T><tns:a>a<\/tns:a><tns:a>a<\/tns:a><tns:b>b<\/tns:b><tns:c2>c2<\/tns:c2><\/tns:T>/)
})

/** Groups taken more than once: a choice of two elements at most twice, and one at least twice, beside an element it names. */
const TAKEN_TWICE = schemaOf(`<xs:complexType name="C"><xs:sequence>
    <xs:choice maxOccurs="2"><xs:element name="a" type="xs:string"/><xs:element name="b" type="xs:string"/></xs:choice>
    <xs:element name="c" type="xs:string"/>
    <xs:choice minOccurs="2" maxOccurs="unbounded"><xs:element name="d" type="xs:string"/><xs:element name="c" type="xs:string"/></xs:choice>
  </xs:sequence></xs:complexType>`, '<xs:element name="T" type="k:C"/>')

test('docs/contract-first.md "The mapping": a group taken more than once counts its elements over its takes as XML Schema says: three of a choice taken twice at most, or one of a choice taken twice at least, is a Sender fault; xmllint agrees', async (t: TestContext) => {
  const app = await serve(t, TAKEN_TWICE)
  const el = (n: string, times = 1): string => `<k:${n}>${n}</k:${n}>`.repeat(times)
  const cases: Array<[string, string, boolean]> = [
    ['a, b; c; d, d', el('a') + el('b') + el('c') + el('d', 2), true],
    ['a; c; c, d, d, c', el('a') + el('c') + el('c') + el('d', 2) + el('c'), true],
    ['a, a, b; c; d, d', el('a', 2) + el('b') + el('c') + el('d', 2), false],
    ['a; c; d', el('a') + el('c') + el('d'), false],
    ['a; c alone', el('a') + el('c'), false]
  ]
  await sameAsXmllint(t, app, TAKEN_TWICE, 'T', cases)
})

/** HL7 V3's IVL_TS (datatypes-base.xsd): its branches share `width` and `high` through a nested choice and optionals. */
const IVL_TS = schemaOf(`<xs:complexType name="C"><xs:choice minOccurs="0">
    <xs:sequence>
      <xs:element name="low" type="xs:string"/>
      <xs:choice minOccurs="0">
        <xs:element name="width" type="xs:string" minOccurs="0"/>
        <xs:element name="high" type="xs:string" minOccurs="0"/>
      </xs:choice>
    </xs:sequence>
    <xs:element name="high" type="xs:string"/>
    <xs:sequence>
      <xs:element name="width" type="xs:string"/>
      <xs:element name="high" type="xs:string" minOccurs="0"/>
    </xs:sequence>
    <xs:sequence>
      <xs:element name="center" type="xs:string"/>
      <xs:element name="width" type="xs:string" minOccurs="0"/>
    </xs:sequence>
  </xs:choice></xs:complexType>`, '<xs:element name="IVL" type="k:C"/>')

test('docs/contract-first.md "The mapping": an xs:choice whose branches share elements through a nested choice or an optional element (HL7 V3\'s IVL_TS) holds as XML Schema says: high with center, or low with width and high, is a Sender fault, and such a result is refused; xmllint agrees', async (t: TestContext) => {
  const answer: { reply?: unknown } = {}
  const app = await serve(t, IVL_TS, answer)
  const cases: Array<[string, string, boolean]> = [
    ['low, high', '<k:low>1</k:low><k:high>2</k:high>', true],
    ['high', '<k:high>2</k:high>', true],
    ['width, high', '<k:width>1</k:width><k:high>2</k:high>', true],
    ['center, width', '<k:center>1</k:center><k:width>2</k:width>', true],
    ['nothing', '', true],
    ['high with center', '<k:high>2</k:high><k:center>1</k:center>', false],
    ['low with width and high', '<k:low>1</k:low><k:width>1</k:width><k:high>2</k:high>', false],
    ['center with high', '<k:center>1</k:center><k:high>2</k:high>', false]
  ]
  await sameAsXmllint(t, app, IVL_TS, 'IVL', cases)
  const request = envelope('1.1', `<k:Op xmlns:k="${K}"><k:IVL><k:high>2</k:high></k:IVL></k:Op>`)
  answer.reply = { IVL: { center: '1', high: ['2'] } }
  const refused = await post(app, '1.1', request, { url: '/c' })
  t.assert.strictEqual(refused.statusCode, 500, refused.body)
  t.assert.match(refused.body, /<faultcode>soap:Server<\/faultcode><faultstring>The server could not process the request<\/faultstring>/)
  // Written in an order every branch keeps: center before width, width before high.
  for (const [IVL, xml] of [
    [{ low: '1', high: ['2'] }, '<tns:low>1</tns:low><tns:high>2</tns:high>'],
    [{ center: '1', width: ['2'] }, '<tns:center>1</tns:center><tns:width>2</tns:width>'],
    [{ width: ['1'], high: ['2'] }, '<tns:width>1</tns:width><tns:high>2</tns:high>']
  ] as const) {
    answer.reply = { IVL }
    const written = await post(app, '1.1', request, { url: '/c' })
    t.assert.strictEqual(written.statusCode, 200, written.body)
    t.assert.ok(written.body.includes(`<tns:IVL>${xml}</tns:IVL>`), written.body)
  }
})

/** The element names of the random choices, in the order every branch lists them. */
const NAMES = ['a', 'b', 'c', 'd'] as const

/**
 * One particle of a branch: an element, its name and occurrences; in an optional sequence of its own (`optional`); in
 * a nested choice (`choice`) taken `min` times at least, once at most, beside the element `other`; or in a choice
 * beside `other` taken `min` to `max` times (`repeated`).
 */
interface Particle {
  readonly name: string
  readonly min: 0 | 1
  readonly max: 1 | 2 | 'unbounded'
  readonly group: 'none' | 'optional' | 'choice' | 'repeated'
  readonly other: string
}

/** A random choice: its branches, and the elements around it. */
interface Choice { readonly optional: boolean, readonly lead: string, readonly tail: string, readonly branches: Particle[][] }

const particles = fc.record({
  name: fc.constantFrom(...NAMES),
  min: fc.constantFrom(0 as const, 1 as const),
  max: fc.constantFrom(1 as const, 2 as const, 'unbounded' as const),
  group: fc.constantFrom('none' as const, 'none' as const, 'none' as const, 'optional' as const, 'choice' as const, 'repeated' as const),
  other: fc.constantFrom(...NAMES)
})

/** The elements a particle names. */
function names (p: Particle): string[] {
  return p.group === 'choice' || p.group === 'repeated' ? [p.name, p.other] : [p.name]
}

/** The place in NAMES of the first and the last element a particle names. */
function span (p: Particle): [number, number] {
  const at = NAMES.indexOf(p.name as typeof NAMES[number])
  return p.group === 'choice' || p.group === 'repeated' ? [at, NAMES.indexOf(p.other as typeof NAMES[number])] : [at, at]
}

/**
 * A random choice (taken once, or optional) of two or three sequences of
 * particles, each listing its elements in the order of NAMES (a nested
 * choice's two elements too), so that a message written in that order is
 * valid exactly when its counts are; the branches share elements. After a
 * required `lead` and before an optional `tail`: `x` and `y`, which no branch
 * names, or `a` and `d`, which may be.
 */
const choices: fc.Arbitrary<Choice> = fc.record({
  optional: fc.boolean(),
  lead: fc.constantFrom('x', 'x', 'x', 'x', 'x', 'a'),
  tail: fc.constantFrom('y', 'y', 'y', 'y', 'y', 'd'),
  branches: fc.array(
    fc.array(particles, { minLength: 1, maxLength: 3 }).map((ps) => [...ps].sort((p, q) => span(p)[0] - span(q)[0])),
    { minLength: 2, maxLength: 3 })
}).filter(({ branches }) => {
  const ordered = branches.every((b) => b.every((p) => span(p)[0] < span(p)[1] || (p.group !== 'choice' && p.group !== 'repeated')) &&
    b.every((p, i) => i === 0 || span(b[i - 1])[1] <= span(p)[0]))
  const seen = branches.map((b) => new Set(b.flatMap(names)))
  return ordered && seen.some((names, i) => seen.some((other, j) => j !== i && [...names].some((n) => other.has(n))))
})

/** Whether an element of the choice is named before or after it too (the whole content's alternatives count it). */
function outside ({ lead, tail, branches }: Choice): boolean {
  return branches.some((b) => b.some((p) => names(p).includes(lead) || names(p).includes(tail)))
}

/** The type `C` of a random choice. */
function choiceType ({ optional, lead, tail, branches }: Choice): string {
  const element = (p: Particle): string => `<xs:element name="${p.name}" type="xs:string" minOccurs="${p.group === 'choice' || p.group === 'repeated' ? 1 : p.min}" maxOccurs="${p.group === 'repeated' ? 1 : p.max}"/>`
  const other = (p: Particle): string => `<xs:element name="${p.other}" type="xs:string"/>`
  const particle = (p: Particle): string => p.group === 'optional'
    ? `<xs:sequence minOccurs="0">${element(p)}</xs:sequence>`
    : p.group === 'choice'
      ? `<xs:choice minOccurs="${p.min}">${element(p)}${other(p)}</xs:choice>`
      : p.group === 'repeated'
        ? `<xs:choice minOccurs="${p.min}" maxOccurs="${p.max}">${element(p)}${other(p)}</xs:choice>`
        : element(p)
  const sequences = branches.map((b) => `<xs:sequence>${b.map(particle).join('')}</xs:sequence>`).join('')
  return `<xs:complexType name="C"><xs:sequence><xs:element name="${lead}" type="xs:string"/><xs:choice minOccurs="${optional ? 0 : 1}">${sequences}</xs:choice><xs:element name="${tail}" type="xs:string" minOccurs="0"/></xs:sequence></xs:complexType>`
}

/** The most flat alternatives the codec states a choice's counts for (docs/contract-first.md "The mapping"). */
const FLAT_MOST = 64

/**
 * At least as many flat alternatives as the codec takes the choice apart into: per branch, the product of its
 * particles' (an optional group there or not, a nested choice's branches and none when it may be absent, the sets of
 * takes of a repeated one: of its least takes alone when it is unbounded), summed over the branches. Past FLAT_MOST,
 * only the arrays are stated.
 */
function flatAlternatives ({ branches }: Choice): number {
  const of = (p: Particle): number => {
    if (p.group === 'optional') return 2
    if (p.group === 'choice') return p.min === 0 ? 3 : 2
    if (p.group === 'none') return 1
    // k takes of a choice of two elements: k + 1 sets of counts.
    let sets = 0
    for (let k = p.min; k <= (p.max === 'unbounded' ? p.min : p.max); k++) sets += k + 1
    return sets
  }
  return branches.reduce((sum, branch) => sum + branch.reduce((product, p) => product * of(p), 1), 0)
}

/** A message's content: each name as many times as counted, in the order of NAMES, between the lead and the tail. */
function content ({ lead, tail }: Choice, counts: readonly number[]): string {
  return `<k:${lead}>${lead}</k:${lead}>` + NAMES.map((n, i) => `<k:${n}>${n}</k:${n}>`.repeat(counts[i])).join('') + `<k:${tail}>${tail}</k:${tail}>`
}

test('docs/contract-first.md "The mapping", property: random xs:choices whose branches name the same elements, in nested choices, optional and repeated groups too, and elements of the choice named before or after it, accept and refuse the messages xmllint does within 64 flat alternatives, and past them refuse none it accepts (at most 80 schemas of 12 messages, 60 s)', async (t: TestContext) => {
  if (!requireXmllint(t)) return
  const dir = await folder(t)
  const started = Date.now()
  const seen = { schemas: 0, inside: 0, outside: 0, repeated: 0, messages: 0, refused: 0 }
  await fc.assert(fc.asyncProperty(choices, fc.array(fc.array(fc.nat({ max: 2 }), { minLength: 4, maxLength: 4 }), { minLength: 12, maxLength: 12 }), async (choice, counts) => {
    if (Date.now() - started > 60_000) return
    const schema = schemaOf(choiceType(choice))
    const xsd = join(dir, `s${seen.schemas}.xsd`)
    await writeFile(xsd, schema)
    // Half of the messages are one branch taken, each element as often as its particle allows at most.
    const taken = counts.map((c, i) => {
      if (i % 2 === 1) return c
      const branch = choice.branches[c[0] % choice.branches.length]
      const most = (p: Particle): number => p.max === 'unbounded' ? 2 : p.max
      return NAMES.map((n) => branch.filter((p) => p.name === n).reduce((sum, p) => sum + Math.min(most(p), Math.max(p.min, c[1])), 0))
    })
    const files = taken.map((_, i) => join(dir, `s${seen.schemas}-m${i}.xml`))
    for (const [i, file] of files.entries()) await writeFile(file, `<k:Op xmlns:k="${K}">${content(choice, taken[i])}</k:Op>`)
    // A choice XML Schema refuses (not deterministic, Part 1 §3.8.6 Unique Particle Attribution) is not one to compare.
    const valid = xmllintValid(xsd, files)
    if (valid === undefined) return
    seen.schemas++
    // Past FLAT_MOST flat alternatives, more is accepted than the XSD does, never less.
    const exact = flatAlternatives(choice) <= FLAT_MOST
    if (exact) seen[outside(choice) ? 'outside' : 'inside']++
    if (exact && choice.branches.some((b) => b.some((p) => p.group === 'repeated'))) seen.repeated++
    const app = await serve(t, schema)
    for (const [i, file] of files.entries()) {
      seen.messages++
      const response = await post(app, '1.1', envelope('1.1', `<k:Op xmlns:k="${K}">${content(choice, taken[i])}</k:Op>`), { url: '/c' })
      const accepted = response.statusCode === 200
      if (!accepted) seen.refused++
      const what: string = `${choiceType(choice)}\n${content(choice, taken[i])}: xmllint ${valid.has(file) ? 'accepts' : 'refuses'} it, the codec ${accepted ? 'accepts' : 'refuses'} it\n${response.body}`
      if (exact) t.assert.strictEqual(accepted, valid.has(file), what)
      else if (valid.has(file)) t.assert.ok(accepted, what)
    }
    await app.close()
  }), { numRuns: 80 })
  t.diagnostic(`${seen.schemas} schemas (${seen.inside + seen.outside} within ${FLAT_MOST} flat alternatives, ${seen.outside} naming an element of the choice outside it too, ${seen.repeated} with a repeated choice in a branch), ${seen.messages} messages (${seen.refused} refused), ${Date.now() - started} ms`)
  t.assert.ok(seen.inside >= 10 && seen.outside >= 5 && seen.repeated >= 5, JSON.stringify(seen))
  t.assert.ok(seen.refused > 0 && seen.refused < seen.messages, `${seen.refused} of ${seen.messages} refused`)
})
