import { createServer } from 'node:net'
import { test, type TestContext } from 'node:test'
import Fastify from 'fastify'
import soap, { textContent } from '../lib/index'
import { MEDIA, SOAP11_ENV, SOAP12_ENV, assertEmpty, buildApp, decodedOf, echoRoutes, envelope, listen, post } from './helper'

const CALL = '<m:Echo xmlns:m="urn:example:calc"><m:text>hi</m:text></m:Echo>'
/** Ten distinct attributes. */
const MANY = Array.from({ length: 10 }, (_, i) => `a${i}="${i}"`).join(' ')

test('docs/protocol.md "Decoding": attributes unique by raw name and by namespace are accepted, few or many on one element', async (t: TestContext) => {
  const app = await buildApp(t)
  // The same local name in two namespaces, and in none; a prefixed name that equals an unprefixed one's text.
  const distinct = 'xmlns:p="urn:p" xmlns:q="urn:q" a="0" p:a="1" q:a="2"'
  for (const attributes of [distinct, `${distinct} ${MANY}`]) {
    const response = await post(app, '1.2', envelope('1.2', `<m:Echo xmlns:m="urn:example:calc" ${attributes}><m:text>hi</m:text></m:Echo>`))
    t.assert.strictEqual(response.statusCode, 200)
  }
})

test('docs/protocol.md "Decoding": a well-formed envelope in each version → 200 with request.soap', async (t: TestContext) => {
  const app = await buildApp(t)
  for (const version of ['1.1', '1.2'] as const) {
    const response = await post(app, version, envelope(version, CALL))
    t.assert.strictEqual(response.statusCode, 200)
    t.assert.deepStrictEqual(decodedOf(response.body), { version, action: null, payload: '{urn:example:calc}Echo', headers: [] })
  }
})

test('docs/protocol.md "Decoding": a POST with an empty body → 400 empty', async (t: TestContext) => {
  const app = await buildApp(t)
  assertEmpty(t, await post(app, '1.2', ''), 400)
  assertEmpty(t, await app.inject({ method: 'POST', url: '/echo' }), 400)
  assertEmpty(t, await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'text/xml', 'content-length': '0' } }), 400)
  for (const bom of [[0xef, 0xbb, 0xbf], [0xff, 0xfe], [0xfe, 0xff]]) {
    assertEmpty(t, await post(app, '1.1', Buffer.from(bom), { contentType: 'text/xml' }), 400)
  }
})

/** `xml`'s UTF-8 bytes with `bad` in place of its first '#'. */
function withBytes (xml: string, bad: Buffer): Buffer {
  const at = xml.indexOf('#')
  return Buffer.concat([Buffer.from(xml.slice(0, at)), bad, Buffer.from(xml.slice(at + 1))])
}

test('docs/protocol.md "Decoding": bytes invalid in the charset (BP R1012) → 400 empty, never U+FFFD', async (t: TestContext) => {
  const app = await buildApp(t)
  const xml = envelope('1.2', '<m:Echo xmlns:m="urn:x"><m:text>#</m:text></m:Echo>')
  const cases: Array<[string, Buffer]> = [
    ['a lone continuation byte', Buffer.from([0x80])],
    ['an overlong encoding', Buffer.from([0xc0, 0xaf])],
    ['a truncated sequence', Buffer.from([0xe2, 0x82])],
    ['an encoded surrogate', Buffer.from([0xed, 0xa0, 0x80])],
    ['a byte that is never UTF-8', Buffer.from([0xff])],
    ['Latin-1 é', Buffer.from([0xe9])]
  ]
  for (const [name, bad] of cases) {
    const response = await post(app, '1.2', withBytes(xml, bad))
    t.assert.strictEqual(response.statusCode, 400, name)
    assertEmpty(t, response, 400)
  }
})

test('docs/protocol.md "Decoding": bytes invalid in the charset (BP R1012) amid characters beyond U+00FF → 400 empty', async (t: TestContext) => {
  const app = await buildApp(t)
  // Text of 2-, 3- and 4-byte characters around the bad bytes, and a valid U+FFFD sent as itself.
  const xml = envelope('1.2', '<m:Echo xmlns:m="urn:x"><m:text>Grüße — 日本 😀 \uFFFD #𝄞</m:text></m:Echo>')
  const cases: Array<[string, Buffer]> = [
    ['a lone continuation byte', Buffer.from([0x80])],
    ['an overlong encoding', Buffer.from([0xe0, 0x80, 0xaf])],
    ['a truncated 4-byte sequence', Buffer.from([0xf0, 0x9f, 0x98])],
    ['an encoded surrogate', Buffer.from([0xed, 0xb0, 0x80])],
    ['a code point over U+10FFFF', Buffer.from([0xf4, 0x90, 0x80, 0x80])],
    ['Latin-1 é', Buffer.from([0xe9])]
  ]
  for (const [, bad] of cases) {
    assertEmpty(t, await post(app, '1.2', withBytes(xml, bad)), 400)
    // The same bytes ending the body, after its last character.
    assertEmpty(t, await post(app, '1.2', Buffer.concat([Buffer.from(xml.replace('#', '')), bad])), 400)
  }
})

test('docs/protocol.md "Decoding": UTF-8 of 1-, 2-, 3- and 4-byte characters is read exactly, with or without a BOM', async (t: TestContext) => {
  const app = await buildApp(t, {
    routes: async (scope) => {
      scope.post('/echo', async (request, reply) => {
        const text = request.soap?.body.map((e) => textContent(e)).join('') ?? ''
        return reply.soap(`<t:Codes xmlns:t="urn:test">${[...text].map((c) => c.codePointAt(0)?.toString(16)).join(' ')}</t:Codes>`)
      })
    }
  })
  const codes = (text: string): string => [...text].map((c) => c.codePointAt(0)?.toString(16)).join(' ')
  const texts = [
    'plain ASCII only',
    'Latin-1 range only: Grüße, ÿ, é, \u00A0, ©',
    'beyond: — € 日本語 \uFFFD \uFFFC',
    'four bytes: 😀 𝄞 \u{10FFFF} \u{10000}',
    `long: ${'Grüße — 😀 '.repeat(2000)}`
  ]
  for (const text of texts) {
    const xml = envelope('1.2', `<m:Echo xmlns:m="urn:x">${text}</m:Echo>`)
    for (const body of [Buffer.from(xml), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(xml)])]) {
      const response = await post(app, '1.2', body)
      t.assert.strictEqual(response.statusCode, 200)
      t.assert.strictEqual(/<t:Codes xmlns:t="urn:test">(.*)<\/t:Codes>/.exec(response.body)?.[1], codes(text), text.slice(0, 20))
    }
  }
})

test('docs/protocol.md "Decoding": UTF-16 with a BOM (BP R4001) is decoded, both byte orders, 1.1 and 1.2', async (t: TestContext) => {
  const app = await buildApp(t)
  for (const version of ['1.1', '1.2'] as const) {
    const xml = envelope(version, '<m:Echo xmlns:m="urn:example:calc"><m:text>héllo ✓ 𝄞</m:text></m:Echo>').replace('utf-8', 'UTF-16')
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')])
    const be = Buffer.from(le).swap16()
    for (const [body, charset] of [[le, 'utf-16'], [be, 'utf-16'], [le, undefined], [be, 'UTF-16']] as const) {
      const type = version === '1.1' ? 'text/xml' : 'application/soap+xml'
      const response = await post(app, version, body, { contentType: charset === undefined ? type : `${type}; charset=${charset}` })
      t.assert.strictEqual(response.statusCode, 200, `${version} ${charset}`)
      t.assert.strictEqual(decodedOf(response.body).payload, '{urn:example:calc}Echo')
    }
  }
})

test('docs/protocol.md "Decoding": UTF-16 without a BOM is read by its first character or its declared order', async (t: TestContext) => {
  const app = await buildApp(t)
  const xml = envelope('1.2', CALL).replace('utf-8', 'utf-16')
  const le = Buffer.from(xml, 'utf16le')
  for (const [body, charset] of [[le, 'utf-16le'], [Buffer.from(le).swap16(), 'utf-16be'], [le, 'utf-16'], [Buffer.from(le).swap16(), 'utf-16'], [le, undefined]] as const) {
    const contentType = charset === undefined ? 'application/soap+xml' : `application/soap+xml; charset=${charset}`
    t.assert.strictEqual((await post(app, '1.2', body, { contentType })).statusCode, 200, String(charset))
  }
})

test('docs/protocol.md "Decoding": invalid UTF-16 (lone surrogate, odd length, BOM against the charset) → 400 empty', async (t: TestContext) => {
  const app = await buildApp(t)
  const xml = envelope('1.2', '<m:Echo xmlns:m="urn:x"><m:text>#</m:text></m:Echo>').replace('utf-8', 'utf-16')
  const parts = xml.split('#')
  const lone = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(parts[0], 'utf16le'), Buffer.from([0x00, 0xd8]), Buffer.from(parts[1], 'utf16le')])
  assertEmpty(t, await post(app, '1.2', lone, { contentType: 'application/soap+xml; charset=utf-16' }), 400)
  const odd = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le'), Buffer.from([0x20])])
  assertEmpty(t, await post(app, '1.2', odd, { contentType: 'application/soap+xml; charset=utf-16' }), 400)
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')])
  assertEmpty(t, await post(app, '1.2', utf16, { contentType: 'application/soap+xml; charset=utf-8' }), 400)
  const utf8bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(envelope('1.2', CALL))])
  assertEmpty(t, await post(app, '1.2', utf8bom, { contentType: 'application/soap+xml; charset=utf-16' }), 400)
  const wrongOrder = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(xml, 'utf16le').swap16()])
  assertEmpty(t, await post(app, '1.2', wrongOrder, { contentType: 'application/soap+xml; charset=utf-16le' }), 400)
})

test('docs/protocol.md "Decoding": a UTF-8 BOM before the XML declaration is accepted and stripped', async (t: TestContext) => {
  const app = await buildApp(t)
  const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(envelope('1.1', CALL))])
  const response = await post(app, '1.1', body)
  t.assert.strictEqual(response.statusCode, 200)
  t.assert.strictEqual(decodedOf(response.body).payload, '{urn:example:calc}Echo')
})

test('docs/protocol.md "Decoding": without a charset parameter, an XML declaration that contradicts the bytes, or any XML 1.1 declaration → 400 empty', async (t: TestContext) => {
  const app = await buildApp(t)
  const body = envelope('1.2', CALL)
  const contentType = 'application/soap+xml'
  assertEmpty(t, await post(app, '1.2', body.replace('encoding="utf-8"', 'encoding="ISO-8859-1"'), { contentType }), 400)
  assertEmpty(t, await post(app, '1.2', body.replace('encoding="utf-8"', 'encoding="UTF-16"'), { contentType }), 400)
  assertEmpty(t, await post(app, '1.2', body.replace('version="1.0"', 'version="1.1"')), 400)
  assertEmpty(t, await post(app, '1.2', body.replace('version="1.0"', 'version="1.1"'), { contentType }), 400)
  t.assert.strictEqual((await post(app, '1.2', body.replace('encoding="utf-8"', 'encoding="UTF8" standalone="yes"'), { contentType })).statusCode, 200)
  t.assert.strictEqual((await post(app, '1.2', body.replace('encoding="utf-8"', 'encoding="US-ASCII"'), { contentType })).statusCode, 200)
  t.assert.strictEqual((await post(app, '1.2', body.replace('<?xml version="1.0" encoding="utf-8"?>', ''))).statusCode, 200)
})

test('docs/protocol.md "Decoding": a charset parameter outranks the XML declaration (RFC 7303 §3.2); each request\'s declaration is checked against its own', async (t: TestContext) => {
  const app = await buildApp(t)
  const body = envelope('1.2', CALL).replace('encoding="utf-8"', 'encoding="ISO-8859-1"')
  t.assert.strictEqual((await post(app, '1.2', body, { contentType: 'application/soap+xml; charset=utf-8' })).statusCode, 200)
  // The same declaration again, now with nothing to outrank it: the decoder must not go by the last request's verdict.
  assertEmpty(t, await post(app, '1.2', body, { contentType: 'application/soap+xml' }), 400)
  t.assert.strictEqual((await post(app, '1.2', body, { contentType: 'application/soap+xml; charset=utf-8' })).statusCode, 200)
})

const NOT_WELL_FORMED: Array<[string, string]> = [
  ['an unclosed tag', envelope('1.2', '<m:A xmlns:m="urn:x">').replace('</s:Body></s:Envelope>', '')],
  ['a mismatched end tag', envelope('1.2', '<m:A xmlns:m="urn:x"></m:B>')],
  ['a name starting with a digit', envelope('1.2', '<1a/>')],
  ['an undefined entity', envelope('1.2', '<m:A xmlns:m="urn:x">&nbsp;</m:A>')],
  ['an entity named after Object.prototype', envelope('1.2', '<m:A xmlns:m="urn:x">&constructor;</m:A>')],
  ['&__proto__;', envelope('1.2', '<m:A xmlns:m="urn:x">&__proto__;</m:A>')],
  ['a bad character reference', envelope('1.2', '<m:A xmlns:m="urn:x">&#xZZ;</m:A>')],
  ['a character reference to NUL', envelope('1.2', '<m:A xmlns:m="urn:x">&#0;</m:A>')],
  ['a character reference to a surrogate', envelope('1.2', '<m:A xmlns:m="urn:x">&#xD800;</m:A>')],
  ['a NUL character', envelope('1.2', '<m:A xmlns:m="urn:x">\u0000</m:A>')],
  ['a control character', envelope('1.2', '<m:A xmlns:m="urn:x">\u0001</m:A>')],
  ['U+FFFF', envelope('1.2', '<m:A xmlns:m="urn:x">\uFFFF</m:A>')],
  ['an unquoted attribute', envelope('1.2', '<m:A xmlns:m="urn:x" a=1/>')],
  ['a duplicate attribute', envelope('1.2', '<m:A xmlns:m="urn:x" a="1" a="2"/>')],
  ['a duplicate expanded attribute name', envelope('1.2', '<m:A xmlns:m="urn:x" xmlns:n="urn:x" m:a="1" n:a="2"/>')],
  // Past 8 attributes on one element, uniqueness is checked another way (lib/xml/reader.ts #unique).
  ['a duplicate attribute among many', envelope('1.2', `<m:A xmlns:m="urn:x" ${MANY} a3="again"/>`)],
  ['a duplicate expanded attribute name among many', envelope('1.2', `<m:A xmlns:m="urn:x" xmlns:n="urn:x" ${MANY} m:a="1" n:a="2"/>`)],
  ['an unbound element prefix', envelope('1.2', '<m:A/>')],
  ['an unbound attribute prefix', envelope('1.2', '<A n:a="1"/>')],
  ['a prefix named constructor, unbound', envelope('1.2', '<constructor:A/>')],
  ['text after the root', envelope('1.2', CALL) + 'junk'],
  ['a second root element', envelope('1.2', CALL) + '<s:Envelope xmlns:s="' + SOAP12_ENV + '"/>'],
  ['text before the root', 'junk' + envelope('1.2', CALL).replace('<?xml version="1.0" encoding="utf-8"?>', '')],
  ['an XML declaration not at the start', ' ' + envelope('1.2', CALL)],
  ['"<" in an attribute value', envelope('1.2', '<m:A xmlns:m="urn:x" a="<"/>')],
  ['"]]>" in text', envelope('1.2', '<m:A xmlns:m="urn:x">]]></m:A>')],
  ['a malformed comment', envelope('1.2', '<m:A xmlns:m="urn:x"><!-- a -- b --></m:A>')],
  ['an unterminated CDATA section', envelope('1.2', '<m:A xmlns:m="urn:x"><![CDATA[x</m:A>')],
  ['the xml prefix bound elsewhere', envelope('1.2', '<m:A xmlns:m="urn:x" xmlns:xml="urn:y"/>')],
  ['an empty prefixed namespace (XML 1.0 forbids undeclaring)', envelope('1.2', '<m:A xmlns:m="urn:x"><m:B xmlns:m=""/></m:A>')],
  ['only whitespace', '   \n '],
  ['an element local part starting with a digit', envelope('1.2', '<m:1E xmlns:m="urn:x"/>')],
  ['an element local part starting with "-"', envelope('1.2', '<m:-E xmlns:m="urn:x"/>')],
  ['an element local part starting with "."', envelope('1.2', '<m:.E xmlns:m="urn:x"/>')],
  ['an element local part starting with a combining mark', envelope('1.2', '<m:\u0300E xmlns:m="urn:x"/>')],
  ['an attribute local part starting with a digit', envelope('1.2', '<m:E xmlns:m="urn:x" m:1a="x"/>')],
  ['a declared prefix starting with a digit', envelope('1.2', '<E xmlns:1p="urn:x"/>')],
  ['a namespace name with a trailing newline (saxes would trim it, other parsers not)', envelope('1.2', CALL).replace(`xmlns:s="${SOAP12_ENV}"`, `xmlns:s="${SOAP12_ENV}\n"`)],
  ['a namespace name with a leading space', envelope('1.2', '<m:A xmlns:m=" urn:x"/>')]
]

for (const [name, body] of NOT_WELL_FORMED) {
  test(`docs/protocol.md "Decoding": not well-formed XML (${name}) → 400 empty`, async (t: TestContext) => {
    const app = await buildApp(t)
    assertEmpty(t, await post(app, '1.2', body), 400)
  })
}

test('docs/protocol.md "Decoding": a DTD (SOAP 1.2 Part 1 §5, BP R1008) → 400 empty, nothing expanded or fetched', async (t: TestContext) => {
  const app = await buildApp(t)
  const laughs = '<!DOCTYPE s:Envelope [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>'
  const doctypes = [
    laughs + envelope('1.2', '<m:A xmlns:m="urn:x">&c;</m:A>').replace('<?xml version="1.0" encoding="utf-8"?>', ''),
    '<!DOCTYPE s:Envelope SYSTEM "http://127.0.0.1:9/evil.dtd">' + envelope('1.2', CALL).replace('<?xml version="1.0" encoding="utf-8"?>', ''),
    '<!DOCTYPE s:Envelope [<!ENTITY x SYSTEM "file:///etc/passwd">]>' + envelope('1.2', '<m:A xmlns:m="urn:x">&x;</m:A>').replace('<?xml version="1.0" encoding="utf-8"?>', ''),
    '<!DOCTYPE s:Envelope [<!ENTITY % p "x">]>' + envelope('1.2', CALL).replace('<?xml version="1.0" encoding="utf-8"?>', ''),
    '<?xml version="1.0"?><!DOCTYPE s:Envelope>' + envelope('1.2', CALL).replace('<?xml version="1.0" encoding="utf-8"?>', '')
  ]
  for (const body of doctypes) {
    const response = await post(app, '1.2', body)
    assertEmpty(t, response, 400)
    t.assert.ok(!response.body.includes('aaaa'))
  }
})

test('docs/protocol.md "Decoding": a processing instruction (BP R1009) → 400 empty; the XML declaration is not one', async (t: TestContext) => {
  const app = await buildApp(t)
  assertEmpty(t, await post(app, '1.2', envelope('1.2', '<m:A xmlns:m="urn:x"><?php echo 1 ?></m:A>')), 400)
  assertEmpty(t, await post(app, '1.2', '<?xml-stylesheet href="a.xsl"?>' + envelope('1.2', CALL).replace('<?xml version="1.0" encoding="utf-8"?>', '')), 400)
  assertEmpty(t, await post(app, '1.2', envelope('1.2', CALL) + '<?pi after?>'), 400)
  assertEmpty(t, await post(app, '1.2', envelope('1.2', CALL, '<?pi in-header?>')), 400)
})

test('docs/protocol.md "Decoding": XInclude is not processed: an xi:include element is ordinary payload', async (t: TestContext) => {
  const app = await buildApp(t)
  const body = '<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="file:///etc/passwd" parse="text"/>'
  const response = await post(app, '1.2', envelope('1.2', body))
  t.assert.strictEqual(response.statusCode, 200)
  t.assert.strictEqual(decodedOf(response.body).payload, '{http://www.w3.org/2001/XInclude}include')
  t.assert.ok(!response.body.includes('root:'))
})

const E12 = SOAP12_ENV
const STRUCTURE: Array<[string, string]> = [
  ['a document element other than Envelope', `<s:Body xmlns:s="${E12}"/>`],
  ['an unqualified element named Envelope... in no namespace is a version question, so: a root named Envelope2', `<s:Envelope2 xmlns:s="${E12}"><s:Body/></s:Envelope2>`],
  ['no Body', `<s:Envelope xmlns:s="${E12}"/>`],
  ['a Header but no Body', `<s:Envelope xmlns:s="${E12}"><s:Header/></s:Envelope>`],
  ['two Bodies', `<s:Envelope xmlns:s="${E12}"><s:Body/><s:Body/></s:Envelope>`],
  ['two Headers', `<s:Envelope xmlns:s="${E12}"><s:Header/><s:Header/><s:Body/></s:Envelope>`],
  ['Header after Body', `<s:Envelope xmlns:s="${E12}"><s:Body/><s:Header/></s:Envelope>`],
  ['an element after Body (BP R1011)', `<s:Envelope xmlns:s="${E12}"><s:Body/><x:Trailer xmlns:x="urn:x"/></s:Envelope>`],
  ['an element before Body', `<s:Envelope xmlns:s="${E12}"><x:Pre xmlns:x="urn:x"/><s:Body/></s:Envelope>`],
  ['text after Body', `<s:Envelope xmlns:s="${E12}"><s:Body/>junk</s:Envelope>`],
  ['CDATA text after Body', `<s:Envelope xmlns:s="${E12}"><s:Body/><![CDATA[junk]]></s:Envelope>`],
  ['text in the Envelope before Body', `<s:Envelope xmlns:s="${E12}">junk<s:Body/></s:Envelope>`],
  ['text directly in Body', `<s:Envelope xmlns:s="${E12}"><s:Body>junk</s:Body></s:Envelope>`],
  ['text directly in Header', `<s:Envelope xmlns:s="${E12}"><s:Header>junk</s:Header><s:Body/></s:Envelope>`],
  ['a Body in another namespace', `<s:Envelope xmlns:s="${E12}"><b:Body xmlns:b="urn:other"/></s:Envelope>`],
  ['a Header in another namespace', `<s:Envelope xmlns:s="${E12}"><b:Header xmlns:b="urn:other"/><s:Body/></s:Envelope>`],
  ['an unqualified Body', `<s:Envelope xmlns:s="${E12}"><Body/></s:Envelope>`]
]

for (const [name, body] of STRUCTURE) {
  test(`docs/protocol.md "Decoding": not a SOAP envelope (${name}) → 400 empty`, async (t: TestContext) => {
    const app = await buildApp(t)
    assertEmpty(t, await post(app, '1.2', body), 400)
  })
}

// A message with the last message's markup is decoded from the last one's tree
// (lib/soap/envelope.ts, shapes): what its text holds is still checked.
for (const [name, body] of NOT_WELL_FORMED) {
  const run = /<m:A xmlns:m="urn:x">([^<]*)<\/m:A>/.exec(body)
  if (run === null) continue
  test(`docs/protocol.md "Decoding": not well-formed XML (${name}) after a well-formed message with the same markup → 400 empty`, async (t: TestContext) => {
    const app = await buildApp(t)
    t.assert.strictEqual((await post(app, '1.2', body.replace(run[0], '<m:A xmlns:m="urn:x">ok</m:A>'))).statusCode, 200)
    assertEmpty(t, await post(app, '1.2', body), 400)
  })
}

test('docs/protocol.md "Decoding", "Limits": a message with the last one\'s markup: text between Body\'s children and text over maxTextLength → 400 empty; its own values are read', async (t: TestContext) => {
  const app = await buildApp(t, {
    maxTextLength: 8,
    routes: async (scope) => {
      scope.post('/echo', async (request, reply) => reply.soap(`<t:Texts xmlns:t="urn:test">${request.soap?.body.map((e) => textContent(e)).join('|') ?? ''}</t:Texts>`))
    }
  })
  const message = (space: string, text: string): string => envelope('1.2', `${space}<m:A xmlns:m="urn:x">${text}</m:A>${space}`)
  const texts = async (body: string): Promise<string> => /<t:Texts xmlns:t="urn:test">(.*)<\/t:Texts>/.exec((await post(app, '1.2', body)).body)?.[1] ?? 'no answer'
  t.assert.strictEqual(await texts(message('\n  ', 'one')), 'one')
  t.assert.strictEqual(await texts(message('\n  ', 'two')), 'two')
  t.assert.strictEqual(await texts(message('\t', '12345678')), '12345678')
  assertEmpty(t, await post(app, '1.2', message('\n  ', '123456789')), 400)
  assertEmpty(t, await post(app, '1.2', message('\n  ', 'three').replace('\n  <m:A', 'x<m:A')), 400)
  assertEmpty(t, await post(app, '1.2', message('x', 'three')), 400)
  t.assert.strictEqual(await texts(message('\n  ', 'four')), 'four')
})

test('docs/protocol.md "Decoding": whitespace and comments around Header and Body are fine', async (t: TestContext) => {
  const app = await buildApp(t)
  const body = `<!-- c --><s:Envelope xmlns:s="${SOAP11_ENV}">\n  <!-- c -->\n  <s:Header>\n  </s:Header>\n  <s:Body>\n    ${CALL}\n  </s:Body>\n  <!-- c -->\n</s:Envelope>\n<!-- c -->\n`
  const response = await post(app, '1.1', body)
  t.assert.strictEqual(response.statusCode, 200)
  t.assert.strictEqual(decodedOf(response.body).payload, '{urn:example:calc}Echo')
})

test('docs/protocol.md "Decoding": the version check comes before the structure check (VersionMismatch, not 400)', async (t: TestContext) => {
  const app = await buildApp(t)
  // a 1.2 Envelope with a broken structure, sent as SOAP 1.1
  const response = await post(app, '1.1', `<s:Envelope xmlns:s="${E12}"><s:Body/><s:Body/></s:Envelope>`)
  t.assert.strictEqual(response.statusCode, 500)
  t.assert.match(response.body, /<faultcode>soap:VersionMismatch<\/faultcode>/)
  // but it must still be well-formed and within the limits
  assertEmpty(t, await post(app, '1.1', `<s:Envelope xmlns:s="${E12}"><s:Body></s:Envelope>`), 400)
})

test('docs/protocol.md "Decoding": every case above gets the same empty 400 over real loopback HTTP', async (t: TestContext) => {
  const app = await buildApp(t)
  const port = await listen(app)
  for (const [name, body] of [...NOT_WELL_FORMED, ...STRUCTURE]) {
    const response = await fetch(`http://127.0.0.1:${port}/echo`, { method: 'POST', headers: { 'content-type': MEDIA['1.2'] }, body })
    const bytes = Buffer.from(await response.arrayBuffer())
    t.assert.strictEqual(response.status, 400, name)
    t.assert.strictEqual(response.headers.get('content-length'), '0', name)
    t.assert.strictEqual(bytes.length, 0, name)
    t.assert.strictEqual(response.headers.get('content-type'), null, name)
  }
})

test('docs/protocol.md "Decoding": the reason is logged at debug level, never sent', async (t: TestContext) => {
  const lines: string[] = []
  const app = Fastify({ logger: { level: 'debug', stream: { write: (line: string) => { lines.push(line) } } } })
  await app.register(soap, { routes: echoRoutes })
  t.after(() => app.close())
  const response = await post(app, '1.2', '<!DOCTYPE s:Envelope []>' + envelope('1.2', CALL).replace('<?xml version="1.0" encoding="utf-8"?>', ''))
  assertEmpty(t, response, 400)
  const entry = lines.map((line) => JSON.parse(line)).find((e) => e.msg === 'fastify-soap: request not decoded')
  t.assert.ok(entry !== undefined, 'logged')
  t.assert.strictEqual(entry.level, 20)
  t.assert.strictEqual(entry.err.code, 'SOAP_ERR_DECODE_DTD')
  t.assert.ok(!lines.some((line) => JSON.parse(line).level > 30), 'nothing logged above info')
})

test('docs/protocol.md "Limits": nothing is ever fetched: external DTD subsets and entities pointing at a loopback listener never connect', async (t: TestContext) => {
  let connections = 0
  const listener = createServer((socket) => { connections++; socket.destroy() })
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve))
  t.after(() => { listener.close() })
  const address = listener.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  const app = await buildApp(t)
  const url = `http://127.0.0.1:${port}/x`
  const bodies = [
    `<!DOCTYPE s:Envelope SYSTEM "${url}.dtd">` + envelope('1.2', CALL).replace('<?xml version="1.0" encoding="utf-8"?>', ''),
    `<!DOCTYPE s:Envelope [<!ENTITY e SYSTEM "${url}.ent">]>` + envelope('1.2', '<m:A xmlns:m="urn:x">&e;</m:A>').replace('<?xml version="1.0" encoding="utf-8"?>', ''),
    `<!DOCTYPE s:Envelope [<!ENTITY % p SYSTEM "${url}.pe"> %p;]>` + envelope('1.2', CALL).replace('<?xml version="1.0" encoding="utf-8"?>', ''),
    envelope('1.2', `<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="${url}.xml"/>`),
    envelope('1.2', `<m:A xmlns:m="urn:x" xsi:schemaLocation="urn:x ${url}.xsd" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"/>`)
  ]
  for (const body of bodies) await post(app, '1.2', body)
  await new Promise((resolve) => setTimeout(resolve, 100))
  t.assert.strictEqual(connections, 0)
})
