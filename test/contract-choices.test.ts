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
  const xmllint = requireXmllint(t)
  const dir = await folder(t)
  await writeFile(join(dir, 'c.xsd'), PGP_DATA)
  const files: string[] = []
  for (const [what, content, valid] of cases) {
    const op = `<k:Op xmlns:k="${K}"><k:PGPData>${content}</k:PGPData></k:Op>`
    const response = await post(app, '1.1', envelope('1.1', op), { url: '/c' })
    if (valid) {
      t.assert.strictEqual(response.statusCode, 200, `${what}: ${response.body}`)
    } else {
      t.assert.strictEqual(response.statusCode, 500, what)
      t.assert.match(response.body, /<faultcode>soap:Client<\/faultcode><faultstring>[^<]*\/PGPData the elements present do not fit the content model/, what)
    }
    files.push(join(dir, `${files.length}.xml`))
    await writeFile(files[files.length - 1], op)
  }
  if (xmllint) {
    const accepted = xmllintValid(join(dir, 'c.xsd'), files) as Set<string>
    t.assert.deepStrictEqual(cases.map(([, , valid]) => valid), files.map((file) => accepted.has(file)))
  }
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
  const cases: Array<[string, boolean]> = [
    ['<k:low>1</k:low><k:high>2</k:high>', true],
    ['<k:high>2</k:high>', true],
    ['<k:width>1</k:width><k:high>2</k:high>', true],
    ['<k:center>1</k:center><k:width>2</k:width>', true],
    ['', true],
    ['<k:high>2</k:high><k:center>1</k:center>', false],
    ['<k:low>1</k:low><k:width>1</k:width><k:high>2</k:high>', false],
    ['<k:center>1</k:center><k:high>2</k:high>', false]
  ]
  const xmllint = requireXmllint(t)
  const dir = await folder(t)
  await writeFile(join(dir, 'c.xsd'), IVL_TS)
  const files: string[] = []
  for (const [content, valid] of cases) {
    const op = `<k:Op xmlns:k="${K}"><k:IVL>${content}</k:IVL></k:Op>`
    const response = await post(app, '1.1', envelope('1.1', op), { url: '/c' })
    if (valid) {
      t.assert.strictEqual(response.statusCode, 200, `${content}: ${response.body}`)
    } else {
      t.assert.strictEqual(response.statusCode, 500, content)
      t.assert.match(response.body, /<faultcode>soap:Client<\/faultcode><faultstring>[^<]*\/IVL the elements present do not fit the content model/, content)
    }
    files.push(join(dir, `${files.length}.xml`))
    await writeFile(files[files.length - 1], op)
  }
  if (xmllint) {
    const accepted = xmllintValid(join(dir, 'c.xsd'), files) as Set<string>
    t.assert.deepStrictEqual(cases.map(([, valid]) => valid), files.map((file) => accepted.has(file)))
  }
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
 * One particle of a branch: an element, its name and occurrences; in an optional sequence of its own (`optional`); or
 * in a nested choice (`choice`) taken `min` times at least, once at most, beside the element `other`.
 */
interface Particle {
  readonly name: string
  readonly min: 0 | 1
  readonly max: 1 | 2 | 'unbounded'
  readonly group: 'none' | 'optional' | 'choice'
  readonly other: string
}

/** A random choice: its branches, and the elements around it. */
interface Choice { readonly optional: boolean, readonly lead: string, readonly tail: string, readonly branches: Particle[][] }

const particles = fc.record({
  name: fc.constantFrom(...NAMES),
  min: fc.constantFrom(0 as const, 1 as const),
  max: fc.constantFrom(1 as const, 2 as const, 'unbounded' as const),
  group: fc.constantFrom('none' as const, 'none' as const, 'none' as const, 'none' as const, 'optional' as const, 'choice' as const),
  other: fc.constantFrom(...NAMES)
})

/** The elements a particle names. */
function names (p: Particle): string[] {
  return p.group === 'choice' ? [p.name, p.other] : [p.name]
}

/** The place in NAMES of the first and the last element a particle names. */
function span (p: Particle): [number, number] {
  const at = NAMES.indexOf(p.name as typeof NAMES[number])
  return p.group === 'choice' ? [at, NAMES.indexOf(p.other as typeof NAMES[number])] : [at, at]
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
  const ordered = branches.every((b) => b.every((p) => span(p)[0] < span(p)[1] || p.group !== 'choice') &&
    b.every((p, i) => i === 0 || span(b[i - 1])[1] <= span(p)[0]))
  const seen = branches.map((b) => new Set(b.flatMap(names)))
  return ordered && seen.some((names, i) => seen.some((other, j) => j !== i && [...names].some((n) => other.has(n))))
})

/**
 * Whether the codec states less than XML Schema of a choice (docs/contract-first.md
 * "The mapping"): an element of it named before or after it.
 */
function loose ({ lead, tail, branches }: Choice): boolean {
  return branches.some((b) => b.some((p) => names(p).includes(lead) || names(p).includes(tail)))
}

/** The type `C` of a random choice. */
function choiceType ({ optional, lead, tail, branches }: Choice): string {
  const element = (p: Particle): string => `<xs:element name="${p.name}" type="xs:string" minOccurs="${p.group === 'choice' ? 1 : p.min}" maxOccurs="${p.max}"/>`
  const particle = (p: Particle): string => p.group === 'optional'
    ? `<xs:sequence minOccurs="0">${element(p)}</xs:sequence>`
    : p.group === 'choice'
      ? `<xs:choice minOccurs="${p.min}">${element(p)}<xs:element name="${p.other}" type="xs:string"/></xs:choice>`
      : element(p)
  const sequences = branches.map((b) => `<xs:sequence>${b.map(particle).join('')}</xs:sequence>`).join('')
  return `<xs:complexType name="C"><xs:sequence><xs:element name="${lead}" type="xs:string"/><xs:choice minOccurs="${optional ? 0 : 1}">${sequences}</xs:choice><xs:element name="${tail}" type="xs:string" minOccurs="0"/></xs:sequence></xs:complexType>`
}

/** A message's content: each name as many times as counted, in the order of NAMES, between the lead and the tail. */
function content ({ lead, tail }: Choice, counts: readonly number[]): string {
  return `<k:${lead}>${lead}</k:${lead}>` + NAMES.map((n, i) => `<k:${n}>${n}</k:${n}>`.repeat(counts[i])).join('') + `<k:${tail}>${tail}</k:${tail}>`
}

test('docs/contract-first.md "The mapping", property: random xs:choices whose branches name the same elements, in nested choices and optional groups too, accept and refuse the messages xmllint does; where an element of the choice is named outside it, nothing xmllint accepts is refused (at most 80 schemas of 12 messages, 60 s)', async (t: TestContext) => {
  if (!requireXmllint(t)) return
  const dir = await folder(t)
  const started = Date.now()
  const seen = { schemas: 0, exact: 0, loose: 0, messages: 0, refused: 0 }
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
    seen[loose(choice) ? 'loose' : 'exact']++
    const app = await serve(t, schema)
    for (const [i, file] of files.entries()) {
      seen.messages++
      const response = await post(app, '1.1', envelope('1.1', `<k:Op xmlns:k="${K}">${content(choice, taken[i])}</k:Op>`), { url: '/c' })
      const accepted = response.statusCode === 200
      if (!accepted) seen.refused++
      const what: string = `${choiceType(choice)}\n${content(choice, taken[i])}: xmllint ${valid.has(file) ? 'accepts' : 'refuses'} it, the codec ${accepted ? 'accepts' : 'refuses'} it\n${response.body}`
      if (loose(choice)) t.assert.ok(accepted || !valid.has(file), what)
      else t.assert.strictEqual(accepted, valid.has(file), what)
    }
    await app.close()
  }), { numRuns: 80 })
  t.diagnostic(`${seen.schemas} schemas (${seen.exact} compared exactly, ${seen.loose} for what the codec refuses), ${seen.messages} messages (${seen.refused} refused), ${Date.now() - started} ms`)
  t.assert.ok(seen.exact >= 10, `${seen.exact} schemas compared exactly`)
  t.assert.ok(seen.refused > 0 && seen.refused < seen.messages, `${seen.refused} of ${seen.messages} refused`)
})
