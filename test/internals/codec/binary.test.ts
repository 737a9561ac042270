/**
 * docs/binary.md "Values", property: a base64 text's verdict (its bytes, or
 * what is wrong with it) is XML Schema's (Part 2 §3.2.16), whichever way the
 * codec reaches it: the text on one line decoded and encoded again, or the
 * scan for any other text.
 */
import { test, type TestContext } from 'node:test'
import fc from 'fast-check'
import { bytesOf } from '../../../lib/codec/binary'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** XML Schema's base64Binary, stated plainly: white space aside, groups of 4, padding at the end, unused bits zero. */
function valid (text: string): boolean {
  const compact = text.replace(/[ \t\r\n]/g, '')
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 !== 0) return false
  const padding = compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0
  if (padding === 0 || compact.length === padding) return true
  const last = ALPHABET.indexOf(compact[compact.length - padding - 1])
  return (last & (padding === 2 ? 0x0f : 0x03)) === 0
}

test('docs/binary.md "Values", property: base64 text, on one line or not, near-valid or broken (a url-safe character, a space, "=" inside, bits left set), is read as bytes exactly when XML Schema\'s base64Binary admits it, and to the bytes it encodes (1,000 texts)', (t: TestContext) => {
  let admitted = 0
  const near = fc.tuple(fc.uint8Array({ maxLength: 40 }), fc.nat(), fc.constantFrom('', '-', '_', ' ', '\n', '=', 'A', '!', 'é'), fc.boolean())
    .map(([bytes, at, insert, replace]) => {
      const text = Buffer.from(bytes).toString('base64')
      const i = text.length === 0 ? 0 : at % (text.length + 1)
      return text.slice(0, i) + insert + text.slice(replace ? i + 1 : i)
    })
  fc.assert(fc.property(fc.oneof(near, fc.string({ unit: fc.constantFrom(...'AQgw+/=- \n'), maxLength: 12 })), (text) => {
    const read = bytesOf('base64', text)
    t.assert.strictEqual(typeof read !== 'string', valid(text), JSON.stringify(text))
    if (typeof read !== 'string') {
      admitted++
      t.assert.deepStrictEqual(read, Buffer.from(text.replace(/[ \t\r\n]/g, ''), 'base64'))
    }
  }), { numRuns: 1000 })
  t.assert.ok(admitted > 100 && admitted < 900, `${admitted} of 1000 admitted`)
})
