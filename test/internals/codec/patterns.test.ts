/**
 * Property-based test of lib/codec/patterns.ts (fast-check): a pattern
 * run on RE2 means what ECMAScript (`u` flag) says it means
 * (docs/services.md "The mapping"). Random patterns from the constructs
 * ECMAScript and RE2 read differently (`.`, `\s`, `\S`, `[]`, `[^]`,
 * `[\b]`, code point escapes, punctuation in classes, a leading lookahead)
 * and the others, against random strings of the characters that tell them
 * apart, give the answer V8's RegExp gives.
 */
import { test, type TestContext } from 'node:test'
import fc from 'fast-check'
import { linearRegExp } from '../../../lib/codec/patterns'

const ATOMS = ['a', 'b', '1', ' ', '.', '\\s', '\\S', '\\d', '\\D', '\\w', '\\W', '[ab]', '[^a]', '[\\s1]', '[\\S]', '[^\\s]',
  '[]', '[^]', '[\\b]', '\\u00a0', '\\u{2028}', '\\x41', '[:a]', '[[]', '[\\-a]', '[a-c]', '\\.', '\\/', '\\t', '\\n', '\\p{L}', '\\P{N}']
const CHARS = ['a', 'b', 'c', 'A', '1', '\u0663', ' ', '\t', '\n', '\r', '\u00a0', '\u2028', '\u2029', '\u3000', '\ufeff', '\b', '.', ':', '[', '-', '/', '😀']

const pattern: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...ATOMS),
    fc.tuple(tie('node'), tie('node')).map(([a, b]) => a + b),
    fc.tuple(tie('node'), tie('node')).map(([a, b]) => `(?:${a}|${b})`),
    fc.tuple(tie('node'), fc.constantFrom('*', '+', '?', '{1,2}', '{2}', '*?')).map(([a, q]) => `(?:${a})${q}`),
    fc.tuple(tie('node'), fc.constantFrom('', '^', '$')).map(([a, anchor]) => anchor === '$' ? a + anchor : anchor + a)
  )
})).node

test('docs/services.md "The mapping": a code-first pattern run on RE2 matches what ECMAScript (u flag) matches, a leading lookahead included', (t: TestContext) => {
  fc.assert(fc.property(
    pattern,
    fc.option(fc.tuple(fc.constantFrom('=', '!'), pattern), { nil: undefined }),
    fc.array(fc.string({ unit: fc.constantFrom(...CHARS), maxLength: 6 }), { minLength: 1, maxLength: 8 }),
    (body, lookahead, texts) => {
      const source = lookahead === undefined ? body : `^(?${lookahead[0]}${lookahead[1]})${body}`
      const native = new RegExp(source, 'u')
      const linear = linearRegExp(source)
      for (const text of texts) t.assert.equal(linear.test(text), native.test(text), `${source} on ${JSON.stringify(text)}`)
    }
  ), { numRuns: 2000, seed: 20261126 })
})
