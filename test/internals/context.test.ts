import { EventEmitter } from 'node:events'
import type { ServerResponse } from 'node:http'
import { test, type TestContext } from 'node:test'
import * as xpath from 'xpath'
import { SoapContext, type SoapContextInit } from '../../lib/context'
import { XmlTree } from '../../lib/tree'

const base: SoapContextInit = {
  version: '1.2',
  namespace: 'http://www.w3.org/2003/05/soap-envelope',
  action: undefined,
  hasHeader: false,
  headers: [],
  tree: { tree: new XmlTree('', new Int32Array(0), new Int32Array(0), [], []), headerNodes: [], bodyNodes: [] },
  source: '<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope"><s:Body/></s:Envelope>',
  elements: 2,
  select: xpath.useNamespaces({}),
  maxXPathElements: 10,
  response: null
}

function response (closed: boolean, finished: boolean): ServerResponse {
  return Object.assign(new EventEmitter(), { closed, writableFinished: finished }) as unknown as ServerResponse
}

test('SoapContext.signal: made once; never aborted without a response; at once if the response closed unfinished', (t: TestContext) => {
  const detached = new SoapContext(base)
  t.assert.strictEqual(detached.signal, detached.signal)
  t.assert.strictEqual(detached.signal.aborted, false)
  t.assert.strictEqual(new SoapContext({ ...base, response: response(true, false) }).signal.aborted, true)
  t.assert.strictEqual(new SoapContext({ ...base, response: response(true, true) }).signal.aborted, false)
  const live = response(false, false)
  const context = new SoapContext({ ...base, response: live })
  t.assert.strictEqual(context.signal.aborted, false)
  live.emit('close')
  t.assert.strictEqual(context.signal.aborted, true)
  t.assert.strictEqual((context.signal.reason as { code: string }).code, 'SOAP_ERR_CLIENT_GONE')
})
