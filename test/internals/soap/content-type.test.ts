import { test, type TestContext } from 'node:test'
import { MediaTypes, MEDIA_TYPES, parseContentType, requestAction, requestMediaType } from '../../../lib/soap/content-type'

test('parseContentType: media type lowercased, parameters as tokens or quoted strings, first one wins', (t: TestContext) => {
  const parsed = parseContentType('Application/SOAP+XML ; Charset="UTF-8"; action="urn:a;b\\"c"; charset=utf-16; junk; x=y')
  t.assert.strictEqual(parsed.mediaType, 'application/soap+xml')
  t.assert.deepStrictEqual([...parsed.params], [['charset', 'UTF-8'], ['action', 'urn:a;b"c'], ['x', 'y']])
  t.assert.deepStrictEqual([...parseContentType('text/xml').params], [])
  t.assert.deepStrictEqual([...parseContentType('text/xml;').params], [])
  t.assert.deepStrictEqual([...parseContentType('text/xml; a b=c').params], [])
  t.assert.deepStrictEqual([...parseContentType('text/xml; a="unterminated').params], [['a', 'unterminated']])
})

test('requestMediaType: versions, charsets and the 1.2 action parameter', (t: TestContext) => {
  t.assert.strictEqual(requestMediaType('text/xml').version.version, '1.1')
  t.assert.strictEqual(requestMediaType('text/xml; action="urn:ignored"').action, undefined, 'the action parameter belongs to 1.2')
  t.assert.strictEqual(requestMediaType('application/soap+xml; action=urn:x').action, 'urn:x')
  t.assert.strictEqual(requestMediaType('application/soap+xml; action=""').action, undefined)
  t.assert.strictEqual(requestMediaType('application/soap+xml; charset=UTF8').charset, 'utf-8')
  t.assert.strictEqual(requestMediaType('application/soap+xml; charset=utf-16LE').charset, 'utf-16le')
  t.assert.throws(() => requestMediaType(undefined), { code: 'SOAP_ERR_CT_MEDIA_TYPE', statusCode: 415 })
  t.assert.throws(() => requestMediaType('application/xml'), { code: 'SOAP_ERR_CT_MEDIA_TYPE' })
  t.assert.throws(() => requestMediaType('text/xml; charset=latin1'), { code: 'SOAP_ERR_CT_CHARSET', statusCode: 415 })
  t.assert.throws(() => requestMediaType('text/xml; charset=__proto__'), { code: 'SOAP_ERR_CT_CHARSET' })
  t.assert.throws(() => requestMediaType('text/xml; charset=constructor'), { code: 'SOAP_ERR_CT_CHARSET' })
})

test('requestAction: the parameter first, then SOAPAction quoted or not, empty means none', (t: TestContext) => {
  t.assert.strictEqual(requestAction('urn:p', { soapaction: 'urn:h' }), 'urn:p')
  t.assert.strictEqual(requestAction(undefined, { soapaction: ' "urn:h" ' }), 'urn:h')
  t.assert.strictEqual(requestAction(undefined, { soapaction: 'urn:h' }), 'urn:h')
  t.assert.strictEqual(requestAction(undefined, { soapaction: '"' }), '"')
  t.assert.strictEqual(requestAction(undefined, { soapaction: '""' }), undefined)
  t.assert.strictEqual(requestAction(undefined, {}), undefined)
})

test('MediaTypes: answers are remembered, and stay right past the cache bound', (t: TestContext) => {
  const types = new MediaTypes()
  const first = types.read('application/soap+xml; charset=utf-8')
  t.assert.strictEqual(types.read('application/soap+xml; charset=utf-8'), first)
  t.assert.ok(Object.isFrozen(first))
  for (let i = 0; i < 4 * MEDIA_TYPES; i++) {
    const media = types.read(`text/xml; x=${i}; charset=${i % 2 === 0 ? 'utf-8' : 'utf-16'}`)
    t.assert.strictEqual(media.charset, i % 2 === 0 ? 'utf-8' : 'utf-16')
  }
  t.assert.strictEqual(types.read('application/soap+xml; charset=utf-8').version.version, '1.2')
  t.assert.throws(() => types.read('text/plain'), { code: 'SOAP_ERR_CT_MEDIA_TYPE' })
  t.assert.throws(() => types.read('text/plain'), { code: 'SOAP_ERR_CT_MEDIA_TYPE' }, 'errors are not remembered as answers')
})
