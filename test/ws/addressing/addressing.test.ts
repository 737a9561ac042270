/**
 * WS-Addressing (docs/addressing.md): what is read, each rule's fault in both
 * addressing versions and both SOAP versions, the reply's headers, the
 * asynchronous reply, and the description. The envelopes of WS-Addressing 1.0
 * are validated against the envelope and WS-Addressing schemas together.
 */
import { createServer, type IncomingMessage } from 'node:http'
import { once } from 'node:events'
import { test, type TestContext } from 'node:test'
import Fastify, { type FastifyInstance } from 'fastify'
import soap, { SoapFault, WSA04_NS, WSA_NS, defineOperation, defineService, type SoapServiceDefinition, type SoapVersion } from '../../../lib/index'
import { envelope, post, validateWithVocabularies } from '../../helper'

const TNS = 'urn:example:calc'
const ANON = `${WSA_NS}/anonymous`
const ANON04 = `${WSA04_NS}/role/anonymous`
const ADD = `<m:Add xmlns:m="${TNS}"><m:a>2</m:a><m:b>3</m:b></m:Add>`
const DIVIDE = `<m:Divide xmlns:m="${TNS}"><m:a>1</m:a><m:b>0</m:b></m:Divide>`

const calc = (addressing: SoapServiceDefinition['addressing']) => defineService({
  path: '/calc',
  name: 'Calc',
  namespace: TNS,
  addressing,
  operations: {
    Add: {
      input: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'] },
      output: { type: 'object', properties: { sum: { type: 'integer' } }, required: ['sum'] },
      handler: ({ a, b }, call) => {
        seen.push(call.soap.addressing)
        return { sum: a + b }
      }
    },
    Divide: defineOperation({
      input: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'] },
      output: { type: 'object', properties: { quotient: { type: 'integer' } }, required: ['quotient'] },
      faults: { DivideByZero: { type: 'object', properties: { dividend: { type: 'integer' } }, required: ['dividend'] } },
      handler: ({ a, b }, call) => {
        if (b === 0) throw call.fault('DivideByZero', { dividend: a }, { code: 'Sender', reason: 'division by zero' })
        return { quotient: Math.trunc(a / b) }
      }
    }),
    Notify: {
      input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      handler: () => undefined
    }
  }
})

const seen: unknown[] = []

async function calcApp (t: TestContext, addressing: SoapServiceDefinition['addressing'] = true, logs?: string[]): Promise<FastifyInstance> {
  const app = Fastify({ logger: logs === undefined ? false : { level: 'info', stream: { write: (line: string) => { logs.push(line) } } } })
  await app.register(soap)
  app.soap.service(calc(addressing))
  t.after(() => app.close())
  await app.ready()
  return app
}

/** Header blocks of a version: `wsa` bound to its namespace, each block given as [localName, content, attributes]. */
function wsa (ns: string, blocks: ReadonlyArray<readonly [string, string, string?]>): string {
  return blocks.map(([name, content, attributes]) => `<wsa:${name} xmlns:wsa="${ns}"${attributes ?? ''}>${content}</wsa:${name}>`).join('')
}

const ACTION = `${TNS}/Add`

function send (app: FastifyInstance, version: SoapVersion, header: string | undefined, body = ADD, action?: string) {
  const headers: Record<string, string> = {}
  let contentType: string | undefined
  if (action !== undefined) {
    if (version === '1.1') headers.soapaction = `"${action}"`
    else contentType = `application/soap+xml; charset=utf-8; action="${action}"`
  }
  return post(app, version, envelope(version, body, header), { url: '/calc', headers, contentType })
}

/** The text of each `wsa:<name>` header block of a response, in order. */
function replyBlocks (body: string, ns: string, name: string): string[] {
  const out: string[] = []
  const pattern = new RegExp(`<wsa:${name} xmlns:wsa="${ns.replace(/[.]/g, '\\.')}">([^<]*)</wsa:${name}>`, 'g')
  for (const match of body.matchAll(pattern)) out.push(match[1])
  return out
}

function assertValid (t: TestContext, body: string, version: SoapVersion): void {
  const result = validateWithVocabularies(t, body, version)
  if (result !== undefined) t.assert.ok(result.valid, result.output + body)
}

interface Rule {
  readonly title: string
  /** The request's addressing headers (WS-Addressing 1.0: `wsa` bound to either namespace). */
  readonly header: (ns: string) => string
  readonly action?: string
  readonly options?: SoapServiceDefinition['addressing']
  /** The 1.0 subcode and subsubcode, the 2004/08 subcode. */
  readonly codes: readonly [string, string | undefined, string]
  /** The detail of the 1.0 fault. */
  readonly detail: string | ((ns: string) => string)
  /** Whether the rule applies to 2004/08 (MessageID and ActionMismatch are 1.0 rules as written). */
  readonly only10?: boolean
}

const ID = 'urn:uuid:6a1e7c2e-0000-4000-8000-000000000001'

const RULES: readonly Rule[] = [
  {
    title: 'SOAP Binding §6.4.2: a request with addressing headers and no wsa:Action gets MessageAddressingHeaderRequired',
    header: (ns) => wsa(ns, [['MessageID', ID], ['To', ns === WSA_NS ? 'http://localhost/calc' : ANON04]]),
    codes: ['MessageAddressingHeaderRequired', undefined, 'MessageInformationHeaderRequired'],
    detail: '<wsa:ProblemHeaderQName xmlns:wsa="NS" xmlns:h="NS">h:Action</wsa:ProblemHeaderQName>'
  },
  {
    title: 'SOAP Binding §6.4.1: wsa:Action twice is InvalidAddressingHeader, InvalidCardinality',
    header: (ns) => wsa(ns, [['Action', ACTION], ['Action', ACTION], ['To', ANON04]]),
    codes: ['InvalidAddressingHeader', 'InvalidCardinality', 'InvalidMessageInformationHeader'],
    detail: '<wsa:ProblemHeaderQName xmlns:wsa="NS" xmlns:h="NS">h:Action</wsa:ProblemHeaderQName>'
  },
  {
    title: 'SOAP Binding §6.4.1: an empty wsa:Action is InvalidAddressingHeader',
    header: (ns) => wsa(ns, [['Action', ' '], ['To', ANON04]]),
    codes: ['InvalidAddressingHeader', undefined, 'InvalidMessageInformationHeader'],
    detail: '<wsa:ProblemHeaderQName xmlns:wsa="NS" xmlns:h="NS">h:Action</wsa:ProblemHeaderQName>'
  },
  {
    title: 'SOAP Binding §6.4.1: a wsa:ReplyTo with no wsa:Address is InvalidAddressingHeader, MissingAddressInEPR',
    header: (ns) => wsa(ns, [['Action', ACTION], ['MessageID', ID], ['To', ANON04], ['ReplyTo', '<wsa:Metadata/>']]),
    codes: ['InvalidAddressingHeader', 'MissingAddressInEPR', 'InvalidMessageInformationHeader'],
    detail: '<wsa:ProblemHeaderQName xmlns:wsa="NS" xmlns:h="NS">h:ReplyTo</wsa:ProblemHeaderQName>'
  },
  {
    title: 'SOAP Binding §6.4.1: a wsa:To that holds an element, not an IRI, is InvalidAddressingHeader, InvalidAddress',
    header: (ns) => wsa(ns, [['Action', ACTION], ['To', '<x:Address xmlns:x="urn:x">http://localhost/calc</x:Address>']]),
    codes: ['InvalidAddressingHeader', 'InvalidAddress', 'InvalidMessageInformationHeader'],
    detail: '<wsa:ProblemHeaderQName xmlns:wsa="NS" xmlns:h="NS">h:To</wsa:ProblemHeaderQName>'
  },
  {
    title: 'Core §2.2, SOAP Binding §6.4.1: a wsa:ReplyTo with two wsa:Address is InvalidAddressingHeader, InvalidEPR',
    header: (ns) => {
      const address = `<wsa:Address>${ns === WSA_NS ? ANON : ANON04}</wsa:Address>`
      return wsa(ns, [['Action', ACTION], ['MessageID', ID], ['To', ANON04], ['ReplyTo', address + address]])
    },
    codes: ['InvalidAddressingHeader', 'InvalidEPR', 'InvalidMessageInformationHeader'],
    detail: '<wsa:ProblemHeaderQName xmlns:wsa="NS" xmlns:h="NS">h:ReplyTo</wsa:ProblemHeaderQName>'
  },
  {
    title: 'Core §2.2, SOAP Binding §6.4.1: a wsa:ReplyTo whose wsa:Address holds an element is InvalidAddressingHeader, InvalidEPR',
    header: (ns) => wsa(ns, [['Action', ACTION], ['MessageID', ID], ['To', ANON04], ['ReplyTo', `<wsa:Address><x:Uri xmlns:x="urn:x">${ANON}</x:Uri></wsa:Address>`]]),
    codes: ['InvalidAddressingHeader', 'InvalidEPR', 'InvalidMessageInformationHeader'],
    detail: '<wsa:ProblemHeaderQName xmlns:wsa="NS" xmlns:h="NS">h:ReplyTo</wsa:ProblemHeaderQName>'
  },
  {
    title: 'Core §2.2, SOAP Binding §6.4.1: a wsa:ReplyTo with an empty wsa:Address is InvalidAddressingHeader, InvalidEPR',
    header: (ns) => wsa(ns, [['Action', ACTION], ['MessageID', ID], ['To', ANON04], ['ReplyTo', '<wsa:Address> </wsa:Address>']]),
    codes: ['InvalidAddressingHeader', 'InvalidEPR', 'InvalidMessageInformationHeader'],
    detail: '<wsa:ProblemHeaderQName xmlns:wsa="NS" xmlns:h="NS">h:ReplyTo</wsa:ProblemHeaderQName>'
  },
  {
    title: 'SOAP Binding §4.2, §5.2: a wsa:Action other than the SOAP action is InvalidAddressingHeader, ActionMismatch',
    header: (ns) => wsa(ns, [['Action', ACTION], ['To', ANON04]]),
    action: `${TNS}/Divide`,
    codes: ['InvalidAddressingHeader', 'ActionMismatch', 'InvalidMessageInformationHeader'],
    detail: '<wsa:ProblemHeaderQName xmlns:wsa="NS" xmlns:h="NS">h:Action</wsa:ProblemHeaderQName>'
  },
  {
    title: 'SOAP Binding §6.4.4: an action the service does not have is ActionNotSupported, with wsa:ProblemAction',
    header: (ns) => wsa(ns, [['Action', `${TNS}/Multiply`], ['To', ANON04]]),
    codes: ['ActionNotSupported', undefined, 'ActionNotSupported'],
    detail: `<wsa:ProblemAction xmlns:wsa="NS"><wsa:Action>${TNS}/Multiply</wsa:Action></wsa:ProblemAction>`
  },
  {
    title: 'SOAP Binding §6.4.1: a non-anonymous wsa:ReplyTo, asynchronous replies off, is InvalidAddressingHeader, OnlyAnonymousAddressSupported',
    header: (ns) => wsa(ns, [['Action', ACTION], ['MessageID', ID], ['ReplyTo', '<wsa:Address>http://127.0.0.1:9/replies</wsa:Address>']]),
    codes: ['InvalidAddressingHeader', 'OnlyAnonymousAddressSupported', 'InvalidMessageInformationHeader'],
    detail: '<wsa:ProblemHeaderQName xmlns:wsa="NS" xmlns:h="NS">h:ReplyTo</wsa:ProblemHeaderQName>',
    only10: true
  },
  {
    title: 'Core §3.4: a non-anonymous wsa:ReplyTo without wsa:MessageID is MessageAddressingHeaderRequired',
    header: (ns) => wsa(ns, [['Action', ACTION], ['ReplyTo', '<wsa:Address>http://127.0.0.1:9/replies</wsa:Address>']]),
    options: { asyncReplies: { allow: ['http://127.0.0.1:9/'] } },
    codes: ['MessageAddressingHeaderRequired', undefined, 'MessageInformationHeaderRequired'],
    detail: '<wsa:ProblemHeaderQName xmlns:wsa="NS" xmlns:h="NS">h:MessageID</wsa:ProblemHeaderQName>',
    only10: true
  },
  {
    title: 'docs/addressing.md "Options": required addressing refuses a request without it with MessageAddressingHeaderRequired',
    header: () => '',
    options: { required: true },
    codes: ['MessageAddressingHeaderRequired', undefined, 'MessageInformationHeaderRequired'],
    detail: '<wsa:ProblemHeaderQName xmlns:wsa="NS" xmlns:h="NS">h:Action</wsa:ProblemHeaderQName>',
    only10: true
  }
]

for (const rule of RULES) {
  for (const ns of rule.only10 === true ? [WSA_NS] : [WSA_NS, WSA04_NS]) {
    const is10 = ns === WSA_NS
    for (const version of ['1.1', '1.2'] as const) {
      test(`WS-Addressing ${is10 ? '1.0' : '2004/08'} ${rule.title}, in SOAP ${version}`, async (t: TestContext) => {
        const app = await calcApp(t, rule.options ?? true)
        const header = rule.header(ns)
        const response = await send(app, version, header === '' ? undefined : header, ADD, rule.action)
        const body = response.body
        t.assert.strictEqual(response.statusCode, version === '1.2' ? 400 : 500, body)
        const [sub, subsub, sub04] = rule.codes
        const detail = (typeof rule.detail === 'string' ? rule.detail : rule.detail(ns)).replaceAll('NS', ns)
        if (version === '1.2') {
          const subcode = is10 ? sub : sub04
          t.assert.ok(body.includes(`<soap:Value>soap:Sender</soap:Value><soap:Subcode><soap:Value xmlns:sc0="${ns}">sc0:${subcode}</soap:Value>`), body)
          if (is10 && subsub !== undefined) t.assert.ok(body.includes(`<soap:Subcode><soap:Value xmlns:sc1="${ns}">sc1:${subsub}</soap:Value></soap:Subcode>`), body)
          else t.assert.ok(!body.includes('sc1:'), 'no subsubcode')
          t.assert.ok(body.includes(`<soap:Detail>${detail}</soap:Detail>`), body)
        } else {
          t.assert.ok(body.includes(`<faultcode xmlns:fc="${ns}">fc:${is10 ? sub : sub04}</faultcode>`), body)
          t.assert.ok(!body.includes('<detail>'), 'SOAP 1.1: no detail for a header fault')
          if (is10) t.assert.ok(body.includes(`<wsa:FaultDetail xmlns:wsa="${ns}">${detail}</wsa:FaultDetail>`), 'SOAP Binding §6.5: the detail in wsa:FaultDetail')
        }
        // docs/addressing.md "Replies": the fault is addressed as a reply when the request's headers could be read
        // (ActionNotSupported); a fault of reading them carries no addressing header.
        const addressed = sub === 'ActionNotSupported'
        t.assert.deepStrictEqual(replyBlocks(body, ns, 'Action'), addressed ? [`${ns}/fault`] : [], 'the fault\'s wsa:Action')
        t.assert.deepStrictEqual(replyBlocks(body, ns, 'MessageID').length, addressed ? 1 : 0, 'the fault\'s wsa:MessageID')
        if (is10) assertValid(t, body, version)
      })
    }
  }
}

for (const ns of [WSA_NS, WSA04_NS]) {
  const is10 = ns === WSA_NS
  for (const version of ['1.1', '1.2'] as const) {
    test(`WS-Addressing ${is10 ? '1.0' : '2004/08'} Core §3.4: the reply carries the output action, a fresh MessageID, RelatesTo the request's, and the ReplyTo's reference parameters, in SOAP ${version}`, async (t: TestContext) => {
      seen.length = 0
      const app = await calcApp(t)
      const replyTo = `<wsa:Address>${is10 ? ANON : ANON04}</wsa:Address><wsa:ReferenceParameters><c:Session xmlns:c="urn:client" c:id="7">s-42</c:Session></wsa:ReferenceParameters>`
      const header = wsa(ns, [['Action', ACTION, ' s:mustUnderstand="1"'], ['MessageID', ID], ['To', 'http://localhost/calc'], ['ReplyTo', replyTo]])
      const response = await send(app, version, header, ADD, ACTION)
      const body = response.body
      t.assert.strictEqual(response.statusCode, 200, body)
      t.assert.deepStrictEqual(replyBlocks(body, ns, 'Action'), [`${ACTION}Response`])
      t.assert.deepStrictEqual(replyBlocks(body, ns, 'RelatesTo'), [ID])
      const [messageId] = replyBlocks(body, ns, 'MessageID')
      t.assert.match(messageId, /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
      t.assert.deepStrictEqual(replyBlocks(body, ns, 'To'), is10 ? [] : [ANON04], '1.0: To omitted for the anonymous address; 2004/08: always there')
      t.assert.ok(body.includes(is10
        ? `<c:Session xmlns:c="urn:client" c:id="7" xmlns:wsa-rp="${WSA_NS}" wsa-rp:IsReferenceParameter="true">s-42</c:Session>`
        : '<c:Session xmlns:c="urn:client" c:id="7">s-42</c:Session>'), body)
      t.assert.ok(body.includes('<sum>5</sum>') || /<[^>]*sum>5</.test(body), body)
      const read = seen[0] as Record<string, unknown>
      t.assert.strictEqual(read.version, is10 ? '1.0' : '2004/08')
      t.assert.strictEqual(read.action, ACTION)
      t.assert.strictEqual(read.messageId, ID)
      t.assert.strictEqual(read.to, 'http://localhost/calc')
      t.assert.strictEqual((read.replyTo as { address: string }).address, is10 ? ANON : ANON04)
      if (is10) assertValid(t, body, version)
    })

    test(`WS-Addressing ${is10 ? '1.0' : '2004/08'} Metadata §4.4: a declared fault carries its own action, other faults the generic one, in SOAP ${version}`, async (t: TestContext) => {
      const app = await calcApp(t)
      const declared = await send(app, version, wsa(ns, [['Action', `${TNS}/Divide`], ['MessageID', ID], ['To', ANON04]]), DIVIDE)
      t.assert.deepStrictEqual(replyBlocks(declared.body, ns, 'Action'), [`${TNS}/Divide/Fault/DivideByZero`], declared.body)
      t.assert.deepStrictEqual(replyBlocks(declared.body, ns, 'RelatesTo'), [ID])
      const invalid = await send(app, version, wsa(ns, [['Action', ACTION], ['MessageID', ID], ['To', ANON04]]), `<m:Add xmlns:m="${TNS}"><m:a>x</m:a><m:b>3</m:b></m:Add>`)
      t.assert.deepStrictEqual(replyBlocks(invalid.body, ns, 'Action'), [`${ns}/fault`], invalid.body)
      if (is10) {
        assertValid(t, declared.body, version)
        assertValid(t, invalid.body, version)
      }
    })
  }
}

test('SOAP 1.2 Part 1 §5.2.3: addressing headers with mustUnderstand are understood where addressing is on, and refused where it is off', async (t: TestContext) => {
  const header = wsa(WSA_NS, [['Action', ACTION, ' s:mustUnderstand="true"'], ['To', 'http://localhost/calc', ' s:mustUnderstand="true"']])
  const on = await calcApp(t)
  t.assert.strictEqual((await send(on, '1.2', header)).statusCode, 200)
  const off = await calcApp(t, false)
  const refused = await send(off, '1.2', header)
  t.assert.strictEqual(refused.statusCode, 500)
  t.assert.ok(refused.body.includes('soap:MustUnderstand'), refused.body)
})

test('docs/addressing.md "What is read": a request without addressing headers is served as plain SOAP, its reply without them', async (t: TestContext) => {
  seen.length = 0
  const app = await calcApp(t)
  const response = await send(app, '1.1', undefined)
  t.assert.strictEqual(response.statusCode, 200)
  t.assert.ok(!response.body.includes(WSA_NS))
  t.assert.strictEqual(seen[0], undefined)
})

test('docs/addressing.md "What is read": blocks meant for another role are not read; wsa:IsReferenceParameter blocks are reference parameters', async (t: TestContext) => {
  seen.length = 0
  const app = await calcApp(t)
  const header = wsa(WSA_NS, [['Action', ACTION], ['Action', 'urn:other', ' s:role="urn:someone-else"']]) +
    `<k:Key xmlns:k="urn:key" xmlns:wsa="${WSA_NS}" wsa:IsReferenceParameter="true">K1</k:Key>`
  const response = await send(app, '1.2', header)
  t.assert.strictEqual(response.statusCode, 200, response.body)
  const read = seen[0] as { action: string, referenceParameters: Array<{ localName: string }> }
  t.assert.strictEqual(read.action, ACTION)
  t.assert.deepStrictEqual(read.referenceParameters.map((e) => e.localName), ['Key'])
})

test('WS-Addressing 1.0 SOAP Binding §6.4.1: a request mixing both addressing versions is InvalidAddressingHeader', async (t: TestContext) => {
  const app = await calcApp(t)
  const response = await send(app, '1.2', wsa(WSA_NS, [['Action', ACTION]]) + wsa(WSA04_NS, [['To', ANON04]]))
  t.assert.strictEqual(response.statusCode, 400)
  t.assert.ok(response.body.includes('sc0:InvalidAddressingHeader'), response.body)
})

test('docs/addressing.md "Dispatch": an empty-Body operation is routed by wsa:Action; an action for another operation than the Body\'s is a Sender fault', async (t: TestContext) => {
  const app = await calcApp(t)
  const mismatch = await send(app, '1.2', wsa(WSA_NS, [['Action', `${TNS}/Divide`]]), ADD)
  t.assert.strictEqual(mismatch.statusCode, 400)
  t.assert.match(mismatch.body, /does not match operation Add/)
  t.assert.deepStrictEqual(replyBlocks(mismatch.body, WSA_NS, 'Action'), [`${WSA_NS}/fault`])
})

test('docs/addressing.md "Replies": a one-way operation is answered 202 with no body, whatever its addressing headers', async (t: TestContext) => {
  const app = await calcApp(t)
  const response = await send(app, '1.2', wsa(WSA_NS, [['Action', `${TNS}/Notify`], ['MessageID', ID]]), `<m:Notify xmlns:m="${TNS}"><m:text>hi</m:text></m:Notify>`)
  t.assert.strictEqual(response.statusCode, 202)
  t.assert.strictEqual(response.body, '')
})

// ------------------------------------------------------------ async replies ---

interface Received { readonly contentType: string | undefined, readonly soapAction: string | undefined, readonly body: string }

/** A loopback listener for replies: what it received, and the status it answers with. */
async function replyListener (t: TestContext, status = 202): Promise<{ url: string, received: Received[], next: () => Promise<Received> }> {
  const received: Received[] = []
  const waiting: Array<(r: Received) => void> = []
  const server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = []
    request.on('data', (c: Buffer) => chunks.push(c))
    request.on('end', () => {
      const r = { contentType: request.headers['content-type'], soapAction: request.headers.soapaction as string | undefined, body: Buffer.concat(chunks).toString('utf8') }
      received.push(r)
      waiting.shift()?.(r)
      response.statusCode = status
      response.end()
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.after(() => server.close())
  const { port } = server.address() as { port: number }
  const next = async (): Promise<Received> => await Promise.race([
    new Promise<Received>((resolve) => waiting.push(resolve)),
    new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error('no reply in 5 s')), 5000).unref())
  ])
  return { url: `http://127.0.0.1:${port}/replies`, received, next }
}

for (const version of ['1.1', '1.2'] as const) {
  test(`WS-Addressing 1.0 SOAP Binding §5.2.1: a reply for a ReplyTo on the allow-list is POSTed there; the request gets 202 and no body (SOAP ${version})`, async (t: TestContext) => {
    const listener = await replyListener(t)
    const logs: string[] = []
    const app = await calcApp(t, { asyncReplies: { allow: [listener.url] } }, logs)
    const header = wsa(WSA_NS, [['Action', ACTION], ['MessageID', ID], ['ReplyTo', `<wsa:Address>${listener.url}</wsa:Address><wsa:ReferenceParameters><c:Corr xmlns:c="urn:client">9</c:Corr></wsa:ReferenceParameters>`]])
    const arrived = listener.next()
    const response = await send(app, version, header, ADD, version === '1.2' ? ACTION : undefined)
    t.assert.strictEqual(response.statusCode, 202)
    t.assert.strictEqual(response.body, '')
    t.assert.strictEqual(response.headers['content-type'], undefined)
    const reply = await arrived
    t.assert.deepStrictEqual(replyBlocks(reply.body, WSA_NS, 'To'), [listener.url])
    t.assert.deepStrictEqual(replyBlocks(reply.body, WSA_NS, 'RelatesTo'), [ID])
    t.assert.ok(reply.body.includes('wsa-rp:IsReferenceParameter="true">9</c:Corr>'), reply.body)
    if (version === '1.2') t.assert.strictEqual(reply.contentType, `application/soap+xml; charset=utf-8; action="${ACTION}Response"`)
    else t.assert.deepStrictEqual([reply.contentType, reply.soapAction], ['text/xml; charset=utf-8', `"${ACTION}Response"`])
    assertValid(t, reply.body, version)
    await app.close()
    const line = logs.map((l) => JSON.parse(l)).find((l) => l.msg === 'fastify-soap: reply delivered')
    t.assert.strictEqual(line?.replyTo, listener.url)
    t.assert.strictEqual(line?.attempts, 1)
  })
}

test('WS-Addressing 1.0 SOAP Binding §5.2.1: a fault goes to FaultTo, the reply to ReplyTo', async (t: TestContext) => {
  const replies = await replyListener(t)
  const faults = await replyListener(t)
  const app = await calcApp(t, { asyncReplies: { allow: [/^http:\/\/127\.0\.0\.1:\d+\/replies$/] } })
  const header = wsa(WSA_NS, [['Action', `${TNS}/Divide`], ['MessageID', ID], ['ReplyTo', `<wsa:Address>${replies.url}</wsa:Address>`], ['FaultTo', `<wsa:Address>${faults.url}</wsa:Address>`]])
  const arrived = faults.next()
  const response = await send(app, '1.2', header, DIVIDE)
  t.assert.strictEqual(response.statusCode, 202)
  const fault = await arrived
  t.assert.match(fault.body, /DivideByZero/)
  t.assert.deepStrictEqual(replyBlocks(fault.body, WSA_NS, 'Action'), [`${TNS}/Divide/Fault/DivideByZero`])
  t.assert.strictEqual(replies.received.length, 0)
})

test('docs/addressing.md "Asynchronous replies": a ReplyTo off the allow-list is refused on the connection, and nothing is sent to it', async (t: TestContext) => {
  const listener = await replyListener(t)
  const app = await calcApp(t, { asyncReplies: { allow: ['http://127.0.0.1:1/only-here'] } })
  const header = wsa(WSA_NS, [['Action', ACTION], ['MessageID', ID], ['ReplyTo', `<wsa:Address>${listener.url}</wsa:Address>`]])
  const response = await send(app, '1.2', header)
  t.assert.strictEqual(response.statusCode, 400)
  t.assert.ok(response.body.includes('sc1:InvalidAddress<'), response.body)
  for (const address of ['file:///etc/passwd', 'http://127.0.0.1:1/only-here/../elsewhere', 'http://127.0.0.1:1/only-hereafter', 'gopher://127.0.0.1:1/only-here']) {
    const refused = await send(app, '1.2', wsa(WSA_NS, [['Action', ACTION], ['MessageID', ID], ['ReplyTo', `<wsa:Address>${address}</wsa:Address>`]]))
    t.assert.strictEqual(refused.statusCode, 400, address)
  }
  await new Promise((resolve) => setTimeout(resolve, 100))
  t.assert.strictEqual(listener.received.length, 0)
})

test('docs/addressing.md "Asynchronous replies": a regular expression on the allow-list must match the whole URL, not a part of it', async (t: TestContext) => {
  const listener = await replyListener(t)
  const port = new URL(listener.url).port
  const app = await calcApp(t, { asyncReplies: { allow: [/^http:\/\/127\.0\.0\.1:4111/, new RegExp(`http://127\\.0\\.0\\.1:${port}/replies`)], retries: 0, timeout: 200 } })
  const replyTo = (address: string) => wsa(WSA_NS, [['Action', ACTION], ['MessageID', ID], ['ReplyTo', `<wsa:Address>${address}</wsa:Address>`]])
  for (const address of ['http://127.0.0.1:41110/replies', 'http://127.0.0.1:4111/replies', `${listener.url}/more`, `${listener.url}?x=1`]) {
    const refused = await send(app, '1.2', replyTo(address))
    t.assert.strictEqual(refused.statusCode, 400, address)
    t.assert.ok(refused.body.includes('sc1:InvalidAddress<'), refused.body)
  }
  const arrived = listener.next()
  t.assert.strictEqual((await send(app, '1.2', replyTo(listener.url))).statusCode, 202)
  await arrived
  t.assert.strictEqual(listener.received.length, 1)
})

test('docs/addressing.md "Asynchronous replies": a listener that is down is tried 1 + retries times, each bounded, then logged as not delivered', async (t: TestContext) => {
  const listener = await replyListener(t, 503)
  const logs: string[] = []
  const app = await calcApp(t, { asyncReplies: { allow: [listener.url], retries: 2, timeout: 1000 } }, logs)
  const header = wsa(WSA_NS, [['Action', ACTION], ['MessageID', ID], ['ReplyTo', `<wsa:Address>${listener.url}</wsa:Address>`]])
  const started = Date.now()
  t.assert.strictEqual((await send(app, '1.2', header)).statusCode, 202)
  for (let i = 0; i < 3; i++) await listener.next()
  const deadline = Date.now() + 5000
  let line: { outcome?: string } | undefined
  while (line === undefined && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20))
    line = logs.map((l) => JSON.parse(l)).find((l) => l.msg === 'fastify-soap: reply not delivered')
  }
  t.assert.strictEqual(line?.outcome, 'HTTP 503')
  t.assert.strictEqual(listener.received.length, 3, 'the first try and two retries')
  t.assert.ok(Date.now() - started < 5000)

  // A closed port: refused at once, each try; the server's close stops what is left.
  const closed = await calcApp(t, { asyncReplies: { allow: ['http://127.0.0.1:9/'], retries: 10, timeout: 200 } }, logs)
  t.assert.strictEqual((await send(closed, '1.2', wsa(WSA_NS, [['Action', ACTION], ['MessageID', ID], ['ReplyTo', '<wsa:Address>http://127.0.0.1:9/x</wsa:Address>']]))).statusCode, 202)
  // The first try is refused at once; close comes during the wait before the next.
  await new Promise((resolve) => setTimeout(resolve, 50))
  const closing = Date.now()
  await closed.close()
  t.assert.ok(Date.now() - closing < 2000, 'close does not wait for ten retries')
})

test('WS-Addressing 1.0 Core §2.1: a reply for the none address is dropped; the request gets 202', async (t: TestContext) => {
  const app = await calcApp(t)
  const response = await send(app, '1.2', wsa(WSA_NS, [['Action', ACTION], ['ReplyTo', `<wsa:Address>${WSA_NS}/none</wsa:Address>`]]))
  t.assert.strictEqual(response.statusCode, 202)
  t.assert.strictEqual(response.body, '')
})

test('docs/addressing.md "Options": a bad addressing option is a coded error at ready()', async (t: TestContext) => {
  for (const bad of [{ required: 'yes' }, { asyncReplies: { allow: ['ftp://x'] } }, { asyncReplies: { allow: 'http://x' } }, { asyncReplies: { allow: [], retries: 11 } }, { asyncReplies: { allow: [], maxInFlight: 0 } }, { asyncReplies: { allow: [], maxBytes: 1.5 } }, { asyncReplies: { allow: [], postSecurityFaults: 'yes' } }, { other: 1 }, 'on']) {
    const app = Fastify()
    await app.register(soap)
    app.soap.service(calc(bad as never))
    await t.assert.rejects(async () => await app.ready(), (err: { code?: string }) => err.code === 'SOAP_ERR_SERVICE_INVALID', JSON.stringify(bad))
    await app.close()
  }
})

// ------------------------------------------------------------ description ---

test('WS-Addressing 1.0 Metadata §3.1, §4.4.1: the generated WSDL states each action and an Addressing policy on both bindings', async (t: TestContext) => {
  for (const [options, optional] of [[true, true], [{ required: true }, false]] as const) {
    const app = await calcApp(t, options)
    const wsdl = (await app.inject('/calc?wsdl')).body
    t.assert.ok(wsdl.includes('<wsp:Policy wsu:Id="CalcPolicy">') && wsdl.includes(`<wsam:Addressing xmlns:wsam="http://www.w3.org/2007/05/addressing/metadata"${optional ? ' wsp:Optional="true"' : ''}><wsp:Policy/></wsam:Addressing>`), wsdl)
    t.assert.strictEqual(wsdl.match(/<wsp:PolicyReference URI="#CalcPolicy"\/>/g)?.length, 2)
    t.assert.ok(wsdl.includes(`<wsdl:input message="tns:AddRequest" wsam:Action="${ACTION}"/>`), wsdl)
    t.assert.ok(wsdl.includes(`<wsdl:output message="tns:AddResponse" wsam:Action="${ACTION}Response"/>`))
    t.assert.ok(wsdl.includes(`<wsdl:fault name="DivideByZero" message="tns:DivideByZeroFault" wsam:Action="${TNS}/Divide/Fault/DivideByZero"/>`))
  }
  const off = await calcApp(t, false)
  t.assert.ok(!(await off.inject('/calc?wsdl')).body.includes('wsam:'))
})

test('docs/addressing.md "Options": outputAction and faultActions name the reply\'s and faults\' actions', async (t: TestContext) => {
  const app = Fastify()
  await app.register(soap)
  const definition = calc(true)
  app.soap.service({
    ...definition,
    operations: {
      ...definition.operations,
      Divide: { ...definition.operations.Divide, outputAction: 'urn:divided', faultActions: { DivideByZero: 'urn:by-zero' } }
    }
  })
  t.after(() => app.close())
  const response = await send(app, '1.2', wsa(WSA_NS, [['Action', `${TNS}/Divide`]]), DIVIDE)
  t.assert.deepStrictEqual(replyBlocks(response.body, WSA_NS, 'Action'), ['urn:by-zero'])
  const wsdl = (await app.inject('/calc?wsdl')).body
  t.assert.ok(wsdl.includes('wsam:Action="urn:divided"') && wsdl.includes('wsam:Action="urn:by-zero"'))
})

test('docs/addressing.md "Asynchronous replies": an allow-list entry neither a URL nor a RegExp is refused at ready()', async (t: TestContext) => {
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  app.soap.service(calc({ asyncReplies: { allow: ['http://127.0.0.1/replies', 42 as never] } }))
  const err = await app.ready().then(() => undefined, (e: Error & { code?: string }) => e)
  t.assert.strictEqual(err?.code, 'SOAP_ERR_SERVICE_INVALID')
  t.assert.match(String(err?.message), /\.asyncReplies\.allow lists URLs and regular expressions/)
})

test('docs/addressing.md "Options": a bad outputAction or faultActions is SOAP_ERR_SERVICE_INVALID at ready()', async (t: TestContext) => {
  const definition = calc(true)
  for (const [divide, message] of [
    [{ outputAction: 'urn:x\u0001' }, /operation Divide: "outputAction" must be a non-empty string of characters XML can carry/],
    [{ faultActions: { DivideByZero: '' } }, /operation Divide: the action of fault DivideByZero must be a non-empty string/],
    [{ faultActions: 'urn:by-zero' }, /operation Divide: "faultActions" must map fault names to actions/],
    [{ faultActions: { Overflow: 'urn:overflow' } }, /operation Divide: "faultActions" names Overflow, which is not one of its faults/]
  ] as const) {
    const app = Fastify()
    t.after(() => app.close())
    await app.register(soap)
    app.soap.service({ ...definition, operations: { ...definition.operations, Divide: { ...definition.operations.Divide, ...divide } } } as SoapServiceDefinition)
    const err = await app.ready().then(() => undefined, (e: Error & { code?: string }) => e)
    t.assert.strictEqual(err?.code, 'SOAP_ERR_SERVICE_INVALID')
    t.assert.match(String(err?.message), message)
  }
})

test('WS-Addressing 1.0 Core §3.2: each wsa:RelatesTo is read with its relationship type, the reply type when none is given', async (t: TestContext) => {
  seen.length = 0
  const app = await calcApp(t)
  const header = wsa(WSA_NS, [['Action', ACTION], ['RelatesTo', 'urn:uuid:1'], ['RelatesTo', ' urn:uuid:2 ', ' RelationshipType="urn:example:follows"']])
  t.assert.strictEqual((await send(app, '1.2', header)).statusCode, 200)
  t.assert.deepStrictEqual((seen[0] as { relatesTo: unknown }).relatesTo, [{ id: 'urn:uuid:1', type: `${WSA_NS}/reply` }, { id: 'urn:uuid:2', type: 'urn:example:follows' }])
  const empty = await send(app, '1.2', wsa(WSA_NS, [['Action', ACTION], ['RelatesTo', '']]))
  t.assert.strictEqual(empty.statusCode, 400)
})

test('docs/addressing.md "Asynchronous replies": a function may make the allow-list; only its true allows', async (t: TestContext) => {
  const listener = await replyListener(t)
  const asked: string[] = []
  const app = await calcApp(t, { asyncReplies: { allow: (url) => { asked.push(url.href); return url.port === new URL(listener.url).port ? true : 'yes' as never } } })
  const arrived = listener.next()
  const ok = await send(app, '1.2', wsa(WSA_NS, [['Action', ACTION], ['MessageID', ID], ['ReplyTo', `<wsa:Address>${listener.url}</wsa:Address>`]]))
  t.assert.strictEqual(ok.statusCode, 202)
  await arrived
  const refused = await send(app, '1.2', wsa(WSA_NS, [['Action', ACTION], ['MessageID', ID], ['ReplyTo', '<wsa:Address>http://127.0.0.1:1/x</wsa:Address>']]))
  t.assert.strictEqual(refused.statusCode, 400)
  t.assert.deepStrictEqual(asked, [listener.url, 'http://127.0.0.1:1/x'])
})

test('docs/addressing.md "Replies": a fault\'s wsa:Action is its own action, else the SOAP fault action for MustUnderstand, else the generic one', async (t: TestContext) => {
  const thrown: SoapFault[] = [
    new SoapFault({ code: 'Receiver', reason: 'r', action: 'urn:example:mine' }),
    new SoapFault({ code: 'MustUnderstand', reason: 'r' }),
    new SoapFault({ code: 'Receiver', reason: 'r' })
  ]
  const app = Fastify()
  t.after(() => app.close())
  await app.register(soap)
  const definition = calc(true)
  app.soap.service({ ...definition, operations: { Add: { ...definition.operations.Add, handler: () => { throw thrown.shift() } } } })
  const actions: string[][] = []
  for (let i = 0; i < 3; i++) actions.push(replyBlocks((await send(app, '1.2', wsa(WSA_NS, [['Action', ACTION]]))).body, WSA_NS, 'Action'))
  t.assert.deepStrictEqual(actions, [['urn:example:mine'], [`${WSA_NS}/soap/fault`], [`${WSA_NS}/fault`]])
})
