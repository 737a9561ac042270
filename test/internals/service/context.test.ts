import { EventEmitter } from 'node:events'
import type { ServerResponse } from 'node:http'
import { test, type TestContext } from 'node:test'
import * as xpath from 'xpath'
import { SoapContext, type SoapContextInit } from '../../../lib/service/context'
import { XmlTree } from '../../../lib/xml/tree'

const base: SoapContextInit = {
  version: '1.2',
  namespace: 'http://www.w3.org/2003/05/soap-envelope',
  action: undefined,
  hasHeader: false,
  decoded: { tree: new XmlTree('', new Int32Array(0), new Int32Array(0), [], []), headers: [], bodyNodes: [] },
  parts: new Map(),
  mtom: false,
  source: '<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope"><s:Body/></s:Envelope>',
  elements: 2,
  select: xpath.useNamespaces({}),
  maxXPathElements: 10
}

function on (response: ServerResponse): SoapContext {
  const context = new SoapContext(base)
  context.respondsOn(response)
  return context
}

function response (closed: boolean, finished: boolean): ServerResponse {
  return Object.assign(new EventEmitter(), { closed, writableFinished: finished }) as unknown as ServerResponse
}

test('request.soap.signal: made once; never aborted without a response; at once if the response closed unfinished', (t: TestContext) => {
  const detached = new SoapContext(base)
  t.assert.strictEqual(detached.signal, detached.signal)
  t.assert.strictEqual(detached.signal.aborted, false)
  t.assert.strictEqual(on(response(true, false)).signal.aborted, true)
  t.assert.strictEqual(on(response(true, true)).signal.aborted, false)
  const live = response(false, false)
  const context = on(live)
  t.assert.strictEqual(context.signal.aborted, false)
  live.emit('close')
  t.assert.strictEqual(context.signal.aborted, true)
  t.assert.strictEqual((context.signal.reason as { code: string }).code, 'SOAP_ERR_CLIENT_GONE')
})

test('request.soap.signal read before the response is known follows it once it is', (t: TestContext) => {
  const context = new SoapContext(base)
  const signal = context.signal
  const live = response(false, false)
  context.respondsOn(live)
  t.assert.strictEqual(signal.aborted, false)
  live.emit('close')
  t.assert.strictEqual(signal.aborted, true)
})
