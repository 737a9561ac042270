/**
 * WS-Addressing echoes (docs/addressing.md "Replies"): the reference
 * parameters of a ReplyTo come back as header blocks of their own that are
 * namespace-well-formed, keep their names, carry the 1.0 marker once, and
 * are read back as reference parameters when the reply is posted to the
 * plugin itself.
 */
import { test, type TestContext } from 'node:test'
import fc from 'fast-check'
import { SaxesParser } from 'saxes'
import Fastify, { type FastifyInstance } from 'fastify'
import soap, { WSA04_NS, WSA_NS, defineService, type SoapVersion, type XmlElement } from '../../../lib/index'
import { envelope, post } from '../../helper'

const TNS = 'urn:example:calc'
const ID = 'urn:uuid:6a1e7c2e-0000-4000-8000-000000000001'
const ADD = `<m:Add xmlns:m="${TNS}"><m:a>2</m:a><m:b>3</m:b></m:Add>`

/** What the partner read as reference parameters, one list per request. */
const partnerSaw: Array<readonly XmlElement[]> = []

async function echoApp (t: TestContext): Promise<FastifyInstance> {
  const app = Fastify()
  await app.register(soap)
  const add = {
    input: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'] },
    output: { type: 'object', properties: { sum: { type: 'integer' } }, required: ['sum'] },
    handler: ({ a, b }: { a: number, b: number }) => ({ sum: a + b })
  } as const
  app.soap.service(defineService({ path: '/calc', name: 'Calc', namespace: TNS, addressing: true, operations: { Add: add } }))
  // The partner a reply is posted to: its operation takes the reply's Body, under the reply's action.
  app.soap.service(defineService({
    path: '/partner',
    name: 'Partner',
    namespace: TNS,
    addressing: true,
    operations: {
      AddResponse: {
        input: { type: 'object', properties: { sum: { type: 'integer' } }, required: ['sum'] },
        handler: (_input, call) => { partnerSaw.push(call.soap.addressing?.referenceParameters ?? []) }
      }
    }
  }))
  t.after(() => app.close())
  await app.ready()
  return app
}

function replyTo (ns: string, parameters: string): string {
  const to = ns === WSA_NS ? '' : `<wsa:To xmlns:wsa="${ns}">${WSA04_NS}/role/anonymous</wsa:To>`
  return `<wsa:Action xmlns:wsa="${ns}">${TNS}/Add</wsa:Action><wsa:MessageID xmlns:wsa="${ns}">${ID}</wsa:MessageID>${to}` +
    `<wsa:ReplyTo xmlns:wsa="${ns}"><wsa:Address>${ns === WSA_NS ? `${WSA_NS}/anonymous` : `${WSA04_NS}/role/anonymous`}</wsa:Address>` +
    `<wsa:ReferenceParameters>${parameters}</wsa:ReferenceParameters></wsa:ReplyTo>`
}

/** Namespaces in XML problems saxes finds in a document: unbound prefixes, attributes (declarations included) given twice. */
function namespaceProblems (xml: string): string[] {
  const problems: string[] = []
  const parser = new SaxesParser({ xmlns: true })
  parser.on('error', (err) => { problems.push(err.message) })
  parser.write(xml).close()
  return problems
}

/** An element as names and values only: its prefixes left out, the root's marker too. */
interface Shape { readonly name: string, readonly attributes: readonly string[], readonly content: ReadonlyArray<Shape | string> }

function shapeOf (element: XmlElement, root = true): Shape {
  const attributes = element.attributes
    .filter((a) => !(root && a.namespace === WSA_NS && a.localName === 'IsReferenceParameter'))
    .map((a) => `{${a.namespace}}${a.localName}=${a.value}`).sort()
  const content = element.children.map((c) => typeof c === 'string' ? c : shapeOf(c, false))
  return { name: `{${element.namespace}}${element.localName}`, attributes, content }
}

/** Sends `parameters` in a ReplyTo, then posts the reply to the partner: the echo's problems and what the partner read. */
async function roundTrip (t: TestContext, app: FastifyInstance, version: SoapVersion, ns: string, parameters: string): Promise<{ echo: string, problems: string[], read: readonly XmlElement[] }> {
  const reply = await post(app, version, envelope(version, ADD, replyTo(ns, parameters)), { url: '/calc' })
  t.assert.strictEqual(reply.statusCode, 200, reply.body)
  const before = partnerSaw.length
  const back = await post(app, version, reply.body, { url: '/partner' })
  t.assert.strictEqual(back.statusCode, 202, `${reply.body}\n${back.body}`)
  t.assert.strictEqual(partnerSaw.length, before + 1)
  return { echo: reply.body, problems: namespaceProblems(reply.body), read: partnerSaw[before] }
}

const CASES: ReadonlyArray<readonly [string, string]> = [
  ['a parameter using the prefix the marker would take', '<wsa-rp:Corr xmlns:wsa-rp="urn:client">9</wsa-rp:Corr>'],
  ['a parameter already marked', `<c:Corr xmlns:c="urn:client" xmlns:wsa="${WSA_NS}" wsa:IsReferenceParameter="true">9</c:Corr>`],
  ['a parameter marked with another prefix and value', `<c:Corr xmlns:c="urn:client" xmlns:x="${WSA_NS}" x:IsReferenceParameter="0" x:Other="1">9</c:Corr>`],
  ['a parameter in the WS-Addressing namespace', `<wsa:Custom xmlns:wsa="${WSA_NS}">9</wsa:Custom>`],
  ['a parameter whose prefix and attribute use both free names', '<wsa-rp:Corr xmlns:wsa-rp="urn:client" xmlns:wsa-rp1="urn:other" wsa-rp1:a="1">9</wsa-rp:Corr>'],
  ['a parameter in a default namespace with an unqualified child', '<Corr xmlns="urn:client"><Id xmlns="">9</Id><wsa-rp:Id xmlns:wsa-rp="urn:x">1</wsa-rp:Id></Corr>']
]

test('WS-Addressing 1.0 SOAP Binding §2.3, Namespaces in XML §6.3: each echoed reference parameter is namespace-well-formed, marked once under a prefix free on it (or WS-Addressing\'s own), and read back', async (t: TestContext) => {
  const app = await echoApp(t)
  for (const [what, parameter] of CASES) {
    for (const version of ['1.1', '1.2'] as const) {
      const { echo, problems, read } = await roundTrip(t, app, version, WSA_NS, parameter)
      t.assert.deepStrictEqual(problems, [], `${what}: ${echo}`)
      t.assert.strictEqual(read.length, 1, echo)
      const markers = read[0].attributes.filter((a) => a.namespace === WSA_NS && a.localName === 'IsReferenceParameter')
      t.assert.deepStrictEqual(markers.map((a) => a.value), ['true'], `${what}: ${echo}`)
      const own = new Map([[read[0].prefix, read[0].namespace], ...read[0].attributes.filter((a) => a !== markers[0]).map((a) => [a.prefix, a.namespace] as const)])
      const wsaPrefix = [...own].find(([prefix, ns]) => prefix !== '' && ns === WSA_NS)?.[0]
      if (wsaPrefix !== undefined) t.assert.strictEqual(markers[0].prefix, wsaPrefix, `${what}: ${echo}`)
      else t.assert.ok(!own.has(markers[0].prefix), `${what}: ${echo}`)
    }
  }
})

test('SOAP 1.2 Part 1 §5.2.1: an unqualified reference parameter is refused, wsa:InvalidEPR (2004/08: InvalidMessageInformationHeader)', async (t: TestContext) => {
  const app = await echoApp(t)
  for (const [ns, code] of [[WSA_NS, 'InvalidEPR'], [WSA04_NS, 'InvalidMessageInformationHeader']] as const) {
    for (const parameter of ['<Corr>9</Corr>', '<Corr xmlns="">9</Corr>']) {
      const response = await post(app, '1.2', envelope('1.2', ADD, replyTo(ns, parameter)), { url: '/calc' })
      t.assert.strictEqual(response.statusCode, 400, response.body)
      t.assert.match(response.body, new RegExp(`:${code}<`))
      t.assert.match(response.body, /reference parameter Corr/)
    }
  }
})

// ------------------------------------------------------------ property ---

interface GenAttribute { readonly prefix: string, readonly namespace: string, readonly localName: string, readonly value: string }
interface GenElement { readonly prefix: string, readonly namespace: string, readonly localName: string, readonly attributes: readonly GenAttribute[], readonly text: string, readonly children: readonly GenElement[] }

const NAMESPACES = [WSA_NS, 'urn:a', 'urn:b'] as const
const PREFIXES = ['wsa-rp', 'wsa-rp1', 'wsa', 'a', ''] as const
const qualified = fc.record({ prefix: fc.constantFrom(...PREFIXES), namespace: fc.constantFrom(...NAMESPACES) })
const attribute: fc.Arbitrary<GenAttribute> = fc.oneof(
  fc.record({ prefix: fc.constant(''), namespace: fc.constant(''), localName: fc.constantFrom('id', 'IsReferenceParameter'), value: fc.constantFrom('1', 'x&<"') }),
  fc.record({ prefix: fc.constantFrom('wsa-rp', 'wsa-rp1', 'wsa', 'a', 'z'), namespace: fc.constantFrom(...NAMESPACES), localName: fc.constantFrom('IsReferenceParameter', 'id'), value: fc.constantFrom('true', '1', 'false') })
)
const TEXT = ['', '9', 'a & <b>'] as const

const { element } = fc.letrec<{ element: GenElement, child: GenElement }>((tie) => ({
  element: fc.record({
    name: qualified,
    localName: fc.constantFrom('Corr', 'Action', 'IsReferenceParameter'),
    attributes: fc.array(attribute, { maxLength: 4 }),
    text: fc.constantFrom(...TEXT),
    children: fc.array(tie('child'), { maxLength: 2 })
  }).map(({ name, ...rest }) => ({ ...name, ...rest })),
  child: fc.record({
    name: fc.oneof(qualified, fc.constant({ prefix: '', namespace: '' })),
    localName: fc.constantFrom('Id', 'Part'),
    attributes: fc.array(attribute, { maxLength: 2 }),
    text: fc.constantFrom(...TEXT),
    children: fc.constant([])
  }).map(({ name, ...rest }) => ({ ...name, ...rest }))
}))

const escape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;')

/** The element as well-formed XML, every name it uses declared on it; attributes whose prefix or expanded name clash are left out. The shape it has once read. */
function render (e: GenElement): { xml: string, shape: Shape } {
  const bound = new Map([[e.prefix, e.namespace]])
  const seen = new Set<string>()
  const kept: GenAttribute[] = []
  for (const a of e.attributes) {
    const key = `{${a.namespace}}${a.localName}`
    if (seen.has(key) || (a.prefix !== '' && bound.has(a.prefix) && bound.get(a.prefix) !== a.namespace)) continue
    seen.add(key)
    if (a.prefix !== '') bound.set(a.prefix, a.namespace)
    kept.push(a)
  }
  const name = e.prefix === '' ? e.localName : `${e.prefix}:${e.localName}`
  const declarations = [...bound].map(([p, ns]) => p === '' ? ` xmlns="${ns}"` : ` xmlns:${p}="${ns}"`).join('')
  const attributes = kept.map((a) => ` ${a.prefix === '' ? '' : a.prefix + ':'}${a.localName}="${escape(a.value)}"`).join('')
  const children = e.children.map(render)
  const content: Array<Shape | string> = e.text === '' ? [] : [e.text]
  for (const child of children) content.push(child.shape)
  return {
    xml: `<${name}${declarations}${attributes}>${escape(e.text)}${children.map((c) => c.xml).join('')}</${name}>`,
    shape: { name: `{${e.namespace}}${e.localName}`, attributes: kept.map((a) => `{${a.namespace}}${a.localName}=${a.value}`).sort(), content }
  }
}

test('WS-Addressing 1.0 SOAP Binding §2.3 (property): every echo of a random reference parameter is namespace-well-formed and read back as that parameter', async (t: TestContext) => {
  const app = await echoApp(t)
  await fc.assert(fc.asyncProperty(element, fc.constantFrom('1.1', '1.2' as const), async (generated, version) => {
    const { xml, shape } = render(generated)
    const { echo, problems, read } = await roundTrip(t, app, version as SoapVersion, WSA_NS, xml)
    t.assert.deepStrictEqual(problems, [], echo)
    t.assert.strictEqual(read.length, 1, echo)
    const root = shapeOf(read[0])
    t.assert.deepStrictEqual(root, { ...shape, attributes: shape.attributes.filter((a) => !a.startsWith(`{${WSA_NS}}IsReferenceParameter=`)) }, echo)
    t.assert.strictEqual(read[0].attributes.filter((a) => a.namespace === WSA_NS && a.localName === 'IsReferenceParameter' && a.value === 'true').length, 1, echo)
  }), { numRuns: Number(process.env.FUZZ_RUNS ?? 150) })
})
