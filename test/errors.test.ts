import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test, type TestContext } from 'node:test'
import { errorCodes } from '../lib/index'

const docs = readFileSync(join(__dirname, '..', '..', 'docs', 'errors.md'), 'utf8')
const rows = new Map<string, number>()
for (const match of docs.matchAll(/^\| <a id="(SOAP_ERR_[A-Z_]+)"><\/a>`\1` \| (\d{3}) \|/gm)) rows.set(match[1], Number(match[2]))

test('errors: docs/errors.md has a row for every code, with its status, and no other', (t: TestContext) => {
  t.assert.deepStrictEqual([...rows.keys()].sort(), Object.keys(errorCodes).sort())
  for (const [code, Constructor] of Object.entries(errorCodes)) {
    const err = new (Constructor as unknown as new (...args: unknown[]) => Error & { code: string, statusCode: number })('a', 1)
    t.assert.strictEqual(err.code, code, 'key === code')
    t.assert.strictEqual(err.statusCode, rows.get(code), `${code} status`)
    t.assert.ok(err instanceof Constructor)
    t.assert.ok(err.message.startsWith('fastify-soap: '))
    t.assert.ok(docs.includes(`(#${code})`), `${code} in the table of contents`)
  }
})

test('errors: every decoding code answers 400; the content type codes 415, but a duplicated Content-Type 400', (t: TestContext) => {
  const decoding = Object.keys(errorCodes).filter((c) => c.startsWith('SOAP_ERR_DECODE_'))
  t.assert.strictEqual(decoding.length, 7)
  for (const code of decoding) t.assert.strictEqual(rows.get(code), 400, code)
  t.assert.strictEqual(rows.get('SOAP_ERR_CT_MEDIA_TYPE'), 415)
  t.assert.strictEqual(rows.get('SOAP_ERR_CT_CHARSET'), 415)
  t.assert.strictEqual(rows.get('SOAP_ERR_CT_ENCODING'), 415)
  t.assert.strictEqual(rows.get('SOAP_ERR_CT_DUPLICATE'), 400)
})
