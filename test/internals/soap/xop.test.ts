/**
 * docs/protocol.md "MTOM/XOP": each xop:Include stands for its part's bytes
 * in the element that holds it, the place the codec reads a binary value's
 * bytes from (resolveIncludes, lib/soap/xop.ts).
 */
import { test, type TestContext } from 'node:test'
import { normalizeOptions } from '../../../lib/options'
import { SOAP12_ENV } from '../../../lib/namespaces'
import { EnvelopeDecoder } from '../../../lib/soap/envelope'
import { resolveIncludes } from '../../../lib/soap/xop'
import { envelope } from '../../helper'
import { XOP } from '../../mtom-message'

const decoder = new EnvelopeDecoder(normalizeOptions().limits)

test('docs/protocol.md "MTOM/XOP": each Include gives its part\'s bytes to the element it is the only child of, as views', (t: TestContext) => {
  const body = Buffer.from('....first....second')
  const parts = new Map([['a@x', body.subarray(4, 9)], ['b@x', body.subarray(13)], ['unused@x', body.subarray(0, 1)]])
  const xml = envelope('1.2',
    `<m:Up xmlns:m="urn:m" xmlns:xop="${XOP}"><m:One><xop:Include href="cid:a%40x"/></m:One><m:Two><m:In><xop:Include href="cid:b@x"/></m:In></m:Two></m:Up>`,
    `<h:H xmlns:h="urn:h" xmlns:xop="${XOP}"><h:Plain>text</h:Plain></h:H>`)
  const decoded = decoder.decode(xml, SOAP12_ENV, 'utf-8')
  const { included, fault } = resolveIncludes(decoded.tree, [...decoded.headerNodes, ...decoded.bodyNodes], parts)
  t.assert.strictEqual(fault, undefined)
  const found = [...included].map(([p, bytes]) => [decoded.tree.name(p).name, bytes.toString()])
  t.assert.deepStrictEqual(found, [['m:One', 'first'], ['m:In', 'second']])
  for (const bytes of included.values()) t.assert.strictEqual(bytes.buffer, body.buffer, 'a view of the body, not a copy')
})

test('docs/protocol.md "MTOM/XOP": a message that names XOP\'s namespace nowhere is not walked', (t: TestContext) => {
  const decoded = decoder.decode(envelope('1.2', '<m:Up xmlns:m="urn:m"><m:One>x</m:One></m:Up>'), SOAP12_ENV, 'utf-8')
  const { included, fault } = resolveIncludes(decoded.tree, decoded.bodyNodes, new Map([['a', Buffer.from('x')]]))
  t.assert.strictEqual(fault, undefined)
  t.assert.strictEqual(included.size, 0)
})
