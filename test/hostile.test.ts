/**
 * Hostile input, over real loopback TCP: every case is raw request bytes sent
 * to a live server, its answer checked against docs/protocol.md, and after every
 * case a healthy SOAP 1.2 request on a new connection must still get 200.
 */
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib'
import { before, test, type TestContext } from 'node:test'
import {
  MEDIA,
  SOAP11_ENV,
  SOAP12_ENV,
  buildApp,
  decodedOf,
  envNs,
  envelope,
  listen,
  rawExchange,
  assertValidEnvelope,
  type Decoded,
  type RawResponse
} from './helper'
import type { SoapVersion } from '../lib/index'
import { BOUNDARY, MONO_BOUNDARY, XOP, monoHead, monoMessage, multipartBody, mtomType, partHead, rootHead, uploadEnvelope } from './mtom-message'

type FaultName = 'Sender' | 'Client' | 'Receiver' | 'Server' | 'VersionMismatch' | 'MustUnderstand'

interface Expect {
  status: number
  /** Content-Length 0, no body, no Content-Type. */
  empty?: true
  fault?: FaultName
  /** The Allow header of a 405. */
  allow?: string
  /** For a 200: what request.soap held, as echoRoutes reports it. */
  decoded?: Partial<Decoded>
}

interface Case {
  rule: string
  name: string
  bytes: Buffer | string
  expect: Expect
  /** The server with small limits (LIMITS) instead of the default one. */
  server?: 'limits'
}

const LIMITS = {
  bodyLimit: 4096,
  maxDepth: 20,
  maxElements: 200,
  maxAttributes: 50,
  maxAttributeLength: 256,
  maxTextLength: 1024,
  maxNameLength: 64,
  maxNamespaceLength: 128,
  maxNamespaceDeclarations: 20,
  maxCompressionRatio: 10
}

const E11 = SOAP11_ENV
const E12 = SOAP12_ENV
const DECL = '<?xml version="1.0" encoding="utf-8"?>'
const CALL = '<m:Echo xmlns:m="urn:example:calc"><m:text>hi</m:text></m:Echo>'
const ECHO = '{urn:example:calc}Echo'
const XI = 'http://www.w3.org/2001/XInclude'

// ------------------------------------------------------------ request builders

/** One HTTP/1.1 request; Content-Length is added for a POST or a body unless framing is given. */
function http (method: string, path: string, headers: Record<string, string | number>, body: Buffer | string = ''): Buffer {
  const payload = Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8')
  const all: Record<string, string | number> = { Host: '127.0.0.1', ...headers }
  const names = Object.keys(all).map((name) => name.toLowerCase())
  if (!names.includes('content-length') && !names.includes('transfer-encoding') && (method === 'POST' || payload.length > 0)) {
    all['Content-Length'] = payload.length
  }
  const head = [`${method} ${path} HTTP/1.1`, ...Object.entries(all).map(([name, value]) => `${name}: ${value}`)].join('\r\n')
  return Buffer.concat([Buffer.from(head + '\r\n\r\n', 'latin1'), payload])
}

function postAs (contentType: string, body: Buffer | string, headers: Record<string, string | number> = {}): Buffer {
  return http('POST', '/echo', { 'Content-Type': contentType, ...headers }, body)
}

const post12 = (body: Buffer | string, headers: Record<string, string | number> = {}): Buffer => postAs(MEDIA['1.2'], body, headers)
const post11 = (body: Buffer | string, headers: Record<string, string | number> = {}): Buffer => postAs(MEDIA['1.1'], body, { SOAPAction: '""', ...headers })

/** A body sent with Transfer-Encoding: chunked, in chunks of `size` bytes. */
function chunked (contentType: string, body: string, size: number): Buffer {
  let out = ''
  for (let i = 0; i < body.length; i += size) {
    const part = body.slice(i, i + size)
    out += `${Buffer.byteLength(part).toString(16)}\r\n${part}\r\n`
  }
  return http('POST', '/echo', { 'Content-Type': contentType, 'Transfer-Encoding': 'chunked' }, out + '0\r\n\r\n')
}

// ---------------------------------------------------------------- body builders

/** An envelope without the XML declaration (for a DOCTYPE or PI in front). */
function bare (version: SoapVersion, body = '', header?: string, attributes = ''): string {
  return envelope(version, body, header, attributes).slice(DECL.length)
}

/** A 1.2 envelope whose payload is `<m:A xmlns:m="urn:x">inner</m:A>`. */
function inA (inner: string, attributes = ''): string {
  return envelope('1.2', `<m:A xmlns:m="urn:x"${attributes}>${inner}</m:A>`)
}

/** A 1.2 envelope with raw bytes in place of the '#' in `payload`. */
function spliced (bytes: number[], payload = '<m:A xmlns:m="urn:x">#</m:A>'): Buffer {
  const xml = envelope('1.2', payload)
  const at = xml.indexOf('#')
  return Buffer.concat([Buffer.from(xml.slice(0, at)), Buffer.from(bytes), Buffer.from(xml.slice(at + 1))])
}

/** UTF-16LE with a BOM, with raw code units in place of '#'. */
function utf16 (units: number[], tail: number[] = []): Buffer {
  const xml = envelope('1.2', '<m:A xmlns:m="urn:x">#</m:A>').replace('utf-8', 'utf-16')
  const [before, after] = xml.split('#')
  const raw = Buffer.alloc(units.length * 2)
  units.forEach((unit, i) => raw.writeUInt16LE(unit, i * 2))
  return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(before, 'utf16le'), raw, Buffer.from(after, 'utf16le'), Buffer.from(tail)])
}

/** Payload nested so that the whole message is `depth` elements deep (Envelope 1, Body 2). */
function deep (depth: number): string {
  const inner = depth - 3
  return envelope('1.2', '<p xmlns="urn:p">' + '<a>'.repeat(inner) + '</a>'.repeat(inner) + '</p>')
}

/** `total` elements in the message: Envelope, Body, p and siblings. */
function siblings (total: number): string {
  return envelope('1.2', '<p xmlns="urn:p">' + '<a/>'.repeat(total - 3) + '</p>')
}

/** `count` attributes on p, none of them a namespace declaration (p's namespace is declared on the Envelope). */
function attributes (count: number): string {
  let list = ''
  for (let i = 0; i < count; i++) list += ` a${i}=""`
  return envelope('1.2', `<p${list}/>`, undefined, ' xmlns="urn:p"')
}

/** `total` namespace declarations in the message: the Envelope's, p's and one per child. */
function declarations (total: number): string {
  let children = ''
  for (let i = 0; i < total - 2; i++) children += `<a xmlns:n${i}="urn:n"/>`
  return envelope('1.2', `<p xmlns="urn:p">${children}</p>`)
}

/** A 1.2 envelope padded with a comment to exactly `size` bytes. */
function sized (size: number): string {
  const xml = envelope('1.2', CALL)
  const pad = size - Buffer.byteLength(xml) - '<!---->'.length
  return xml.replace('</s:Envelope>', `<!--${'x'.repeat(pad)}--></s:Envelope>`)
}

const HEALTHY = post12(envelope('1.2', '<h:Ping xmlns:h="urn:health"/>'))
const EMPTY400: Expect = { status: 400, empty: true }
const EMPTY413: Expect = { status: 413, empty: true }
const EMPTY415: Expect = { status: 415, empty: true }
const OK: Expect = { status: 200, decoded: { payload: ECHO } }
const OK11: Expect = { status: 200, decoded: { version: '1.1', payload: ECHO } }
/** A 200 whose payload is the `p` element in urn:p that the limit builders write. */
const OKP: Expect = { status: 200, decoded: { payload: '{urn:p}p' } }

const CASES: Case[] = []

function add (rule: string, expect: Expect, list: Array<[string, Buffer | string]>, server?: 'limits'): void {
  for (const [name, bytes] of list) CASES.push({ rule, name, bytes, expect, server })
}

// -------------------------------------------------------- malformed XML 1.0

add('docs/protocol.md "Decoding": not well-formed (unclosed and mismatched tags)', EMPTY400, [
  ['an unclosed payload element', post12(envelope('1.2', '<m:A xmlns:m="urn:x">').replace('</s:Body></s:Envelope>', ''))],
  ['an unclosed Envelope', post12(`<s:Envelope xmlns:s="${E12}"><s:Body>${CALL}</s:Body>`)],
  ['a start tag cut off at the end', post12(`<s:Envelope xmlns:s="${E12}"><s:Body><m:A xmlns:m="urn:x"`)],
  ['a mismatched end tag', post12(inA('<m:B></m:C>'))],
  ['an end tag with another prefix for the same namespace', post12(envelope('1.2', '<m:A xmlns:m="urn:x" xmlns:n="urn:x"></n:A>'))],
  ['an end tag without a start tag', post12(envelope('1.2', '</m:A>'))],
  ['a bare "<" in text', post12(inA('a < b'))],
  ['an empty tag "<>"', post12(inA('<>'))],
  ['whitespace after "<"', post12(inA('< m:B/>'))],
  ['mismatched attribute quotes', post12(inA('', ' a="1\''))],
  ['no whitespace between attributes', post12(inA('', ' a="1"b="2"'))],
  ['"<" in an attribute value', post12(inA('', ' a="<"'))],
  ['"]]>" in text', post12(inA(']]>'))],
  ['"--" in a comment', post12(inA('<!-- a -- b -->'))],
  ['an unterminated comment', post12(inA('<!-- a'))],
  ['an unterminated CDATA section', post12(inA('<![CDATA[x'))],
  ['only whitespace', post12('  \r\n\t ')],
  ['a lone "<"', post12('<')]
])

add('docs/protocol.md "Decoding": not well-formed (names)', EMPTY400, [
  ['an element name starting with a digit', post12(envelope('1.2', '<1a xmlns="urn:x"/>'))],
  ['an element name starting with "-"', post12(envelope('1.2', '<-a xmlns="urn:x"/>'))],
  ['a "×" in an element name', post12(envelope('1.2', '<a\u00D7b xmlns="urn:x"/>'))],
  ['an empty local part "m:"', post12(envelope('1.2', '<m: xmlns:m="urn:x"/>'))],
  ['an empty prefix ":a"', post12(envelope('1.2', '<:a xmlns="urn:x"/>'))],
  ['two colons in a name', post12(envelope('1.2', '<m:a:b xmlns:m="urn:x"/>'))],
  ['a prefixed element whose local part starts with a digit', post12(envelope('1.2', '<m:1E xmlns:m="urn:x"/>'))],
  ['a prefixed element whose local part starts with "."', post12(envelope('1.2', '<m:.E xmlns:m="urn:x"/>'))],
  ['a prefixed attribute whose local part starts with a digit', post12(inA('', ' m:1a="x"'))],
  ['a declared prefix starting with a digit', post12(envelope('1.2', '<E xmlns="urn:x" xmlns:1p="urn:y"/>'))],
  ['an element with the prefix xmlns', post12(envelope('1.2', '<xmlns:A/>'))]
])

add('docs/protocol.md "Decoding": not well-formed (entity and character references)', EMPTY400, [
  ['an undefined entity &nbsp;', post12(inA('&nbsp;'))],
  ['&lt without a semicolon', post12(inA('&lt x'))],
  ['a bare "&"', post12(inA('a & b'))],
  ['an undefined entity in an attribute', post12(inA('', ' a="&foo;"'))],
  ['&#; (no digits)', post12(inA('&#;'))],
  ['&#x; (no hex digits)', post12(inA('&#x;'))],
  ['&#xZZ;', post12(inA('&#xZZ;'))],
  ['&#12a;', post12(inA('&#12a;'))],
  ['&#-1;', post12(inA('&#-1;'))],
  ['a reference to NUL &#0;', post12(inA('&#0;'))],
  ['a reference to U+0001', post12(inA('&#x1;'))],
  ['a reference to U+001F in an attribute', post12(inA('', ' a="&#x1F;"'))],
  ['a reference to U+FFFE', post12(inA('&#xFFFE;'))],
  ['a reference to U+FFFF', post12(inA('&#xFFFF;'))],
  ['a reference past U+10FFFF', post12(inA('&#x110000;'))],
  ['a reference that overflows', post12(inA('&#xFFFFFFFFFFFFFFFF;'))],
  ['a lone high surrogate &#xD800;', post12(inA('&#xD800;'))],
  ['a lone high surrogate in decimal &#55296;', post12(inA('&#55296;'))],
  ['a lone low surrogate &#xDFFF;', post12(inA('&#xDFFF;'))],
  ['a surrogate pair as two references', post12(inA('&#xD83D;&#xDE00;'))],
  ['a lone surrogate reference in an attribute', post12(inA('', ' a="&#xDC00;"'))]
])

add('docs/protocol.md "Decoding": not well-formed (NUL and control characters)', EMPTY400, [
  ['a NUL in text', post12(inA('\u0000'))],
  ['a NUL in an attribute value', post12(inA('', ' a="\u0000"'))],
  ['a NUL in an element name', post12(envelope('1.2', '<a\u0000b xmlns="urn:x"/>'))],
  ['U+0001 in text', post12(inA('\u0001'))],
  ['U+0008 in text', post12(inA('\u0008'))],
  ['U+000B in text', post12(inA('\u000B'))],
  ['U+000C in a comment', post12(inA('<!-- \u000C -->'))],
  ['U+001F in a CDATA section', post12(inA('<![CDATA[\u001F]]>'))],
  ['U+FFFE in text', post12(inA('\uFFFE'))],
  ['U+FFFF in text', post12(inA('\uFFFF'))]
])

add('docs/protocol.md "Decoding": bytes not valid UTF-8 (BP R1012)', EMPTY400, [
  ['a lone continuation byte', post12(spliced([0x80]))],
  ['an overlong "/" (C0 AF)', post12(spliced([0xc0, 0xaf]))],
  ['an overlong NUL (C0 80)', post12(spliced([0xc0, 0x80]))],
  ['a three-byte overlong (E0 80 AF)', post12(spliced([0xe0, 0x80, 0xaf]))],
  ['a truncated sequence (E2 82)', post12(spliced([0xe2, 0x82]))],
  ['a sequence truncated at the end of the body', post12(Buffer.concat([Buffer.from(envelope('1.2', CALL)), Buffer.from([0xe2, 0x82])]))],
  ['an encoded high surrogate (ED A0 80)', post12(spliced([0xed, 0xa0, 0x80]))],
  ['an encoded surrogate pair (CESU-8)', post12(spliced([0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80]))],
  ['a code point past U+10FFFF (F4 90 80 80)', post12(spliced([0xf4, 0x90, 0x80, 0x80]))],
  ['the byte FF', post12(spliced([0xff]))],
  ['the byte FE in an element name', post12(spliced([0xfe], '<m:A# xmlns:m="urn:x"/>'))],
  ['Latin-1 "é" in an attribute value', post12(spliced([0xe9], '<m:A xmlns:m="urn:x" a="#"/>'))],
  ['an invalid byte with no charset parameter', postAs('application/soap+xml', spliced([0xc3]))]
])

add('docs/protocol.md "Decoding": bytes not valid UTF-16 (BP R1012)', EMPTY400, [
  ['an odd length', postAs('application/soap+xml; charset=utf-16', utf16([0x41], [0x20]))],
  ['a lone high surrogate', postAs('application/soap+xml; charset=utf-16', utf16([0xd800]))],
  ['a lone low surrogate', postAs('application/soap+xml; charset=utf-16', utf16([0xdc00]))],
  ['a high surrogate followed by a letter', postAs('application/soap+xml; charset=utf-16', utf16([0xd83d, 0x41]))],
  ['a lone surrogate, charset detected from the BOM', postAs('application/soap+xml', utf16([0xdbff]))],
  ['a little-endian BOM against charset=utf-16be', postAs('application/soap+xml; charset=utf-16be', utf16([0x41]))],
  ['UTF-16 bytes sent as charset=utf-8', postAs('application/soap+xml; charset=utf-8', utf16([0x41]))]
])

add('docs/protocol.md "Decoding": not well-formed (XML declaration)', EMPTY400, [
  ['an XML 1.1 declaration', post12(envelope('1.2', CALL).replace('version="1.0"', 'version="1.1"'))],
  ['an XML 1.1 declaration in UTF-16', postAs('application/soap+xml; charset=utf-16', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(envelope('1.2', CALL).replace('version="1.0"', 'version="1.1"').replace('utf-8', 'utf-16'), 'utf16le')]))],
  ['version="2.0"', post12(envelope('1.2', CALL).replace('version="1.0"', 'version="2.0"'))],
  ['standalone="maybe"', post12(envelope('1.2', CALL).replace('encoding="utf-8"', 'encoding="utf-8" standalone="maybe"'))],
  ['whitespace before the declaration', post12(' ' + envelope('1.2', CALL))],
  ['a second declaration inside the Body', post12(envelope('1.2', DECL + CALL))]
])

add('docs/protocol.md "Decoding": not well-formed (attributes)', EMPTY400, [
  ['an unquoted attribute', post12(inA('', ' a=1'))],
  ['an attribute without a value', post12(inA('', ' checked'))],
  ['a duplicate attribute', post12(inA('', ' a="1" a="2"'))],
  ['a duplicate expanded attribute name', post12(envelope('1.2', '<m:A xmlns:m="urn:x" xmlns:n="urn:x" m:a="1" n:a="2"/>'))],
  ['a duplicate namespace declaration', post12(envelope('1.2', '<m:A xmlns:m="urn:x" xmlns:m="urn:y"/>'))]
])

add('docs/protocol.md "Decoding": not namespace-well-formed (prefixes)', EMPTY400, [
  ['an unbound element prefix', post12(envelope('1.2', '<m:A/>'))],
  ['an unbound attribute prefix', post12(envelope('1.2', '<A xmlns="urn:x" n:a="1"/>'))],
  ['an unbound prefix on a header block', post12(envelope('1.2', CALL, '<h:T/>'))],
  ['an unbound prefix on the Envelope', post12('<s:Envelope><s:Body/></s:Envelope>')],
  ['a prefix undeclared with xmlns:m="" (XML 1.0)', post12(envelope('1.2', '<m:A xmlns:m="urn:x"><m:B xmlns:m=""/></m:A>'))],
  ['the prefix xml bound elsewhere', post12(inA('', ' xmlns:xml="urn:y"'))],
  ['the prefix xmlns declared', post12(inA('', ' xmlns:xmlns="urn:y"'))],
  ['another prefix bound to the xml namespace', post12(inA('', ' xmlns:p="http://www.w3.org/XML/1998/namespace"'))],
  ['a prefix bound to the xmlns namespace', post12(inA('', ' xmlns:p="http://www.w3.org/2000/xmlns/"'))],
  ['a namespace name with a leading space', post12(envelope('1.2', '<m:A xmlns:m=" urn:x"/>'))]
])

add('docs/protocol.md "Decoding": not well-formed (content outside the document element)', EMPTY400, [
  ['text after the root', post12(envelope('1.2', CALL) + 'junk')],
  ['a second element after the root', post12(envelope('1.2', CALL) + `<s:Envelope xmlns:s="${E12}"><s:Body/></s:Envelope>`)],
  ['a CDATA section after the root', post12(envelope('1.2', CALL) + '<![CDATA[x]]>')],
  ['a character reference after the root', post12(envelope('1.2', CALL) + '&#65;')],
  ['text before the root', post12('junk' + bare('1.2', CALL))],
  ['a BOM in the middle of the body', post12(envelope('1.2', CALL) + '\uFEFF')]
])

add('docs/protocol.md "Decoding": empty body', EMPTY400, [
  ['Content-Length: 0', http('POST', '/echo', { 'Content-Type': MEDIA['1.2'], 'Content-Length': 0 })],
  ['a chunked body of zero length', http('POST', '/echo', { 'Content-Type': MEDIA['1.1'], 'Transfer-Encoding': 'chunked' }, '0\r\n\r\n')],
  ['a UTF-8 BOM only', post12(Buffer.from([0xef, 0xbb, 0xbf]))],
  ['a UTF-16 BOM only', postAs('application/soap+xml; charset=utf-16', Buffer.from([0xff, 0xfe]))]
])

// --------------------------------------------------------------------- DTDs

const LAUGHS = '<!DOCTYPE s:Envelope [<!ENTITY a "lollollollol">' +
  Array.from({ length: 9 }, (_, i) => `<!ENTITY ${String.fromCharCode(98 + i)} "${`&${String.fromCharCode(97 + i)};`.repeat(10)}">`).join('') + ']>'

add('docs/protocol.md "Decoding": DTD (SOAP 1.2 Part 1 §5, BP R1008)', EMPTY400, [
  ['an internal entity', post12('<!DOCTYPE s:Envelope [<!ENTITY x "boo">]>' + bare('1.2', '<m:A xmlns:m="urn:x">&x;</m:A>'))],
  ['an external entity (file:///etc/passwd)', post12('<!DOCTYPE s:Envelope [<!ENTITY x SYSTEM "file:///etc/passwd">]>' + bare('1.2', '<m:A xmlns:m="urn:x">&x;</m:A>'))],
  ['an external entity on loopback', post12('<!DOCTYPE s:Envelope [<!ENTITY x SYSTEM "http://127.0.0.1:9/x">]>' + bare('1.2', '<m:A xmlns:m="urn:x">&x;</m:A>'))],
  ['a parameter entity', post12('<!DOCTYPE s:Envelope [<!ENTITY % p "<!ENTITY x \'y\'>"> %p;]>' + bare('1.2', '<m:A xmlns:m="urn:x">&x;</m:A>'))],
  ['an external parameter entity', post12('<!DOCTYPE s:Envelope [<!ENTITY % p SYSTEM "http://127.0.0.1:9/p.dtd"> %p;]>' + bare('1.2', CALL))],
  ['billion laughs (10^9 expansions)', post12(LAUGHS + bare('1.2', '<m:A xmlns:m="urn:x">&j;</m:A>'))],
  ['quadratic blowup', post12(`<!DOCTYPE s:Envelope [<!ENTITY q "${'q'.repeat(2000)}">]>` + bare('1.2', `<m:A xmlns:m="urn:x">${'&q;'.repeat(500)}</m:A>`))],
  ['an external subset (SYSTEM)', post12('<!DOCTYPE s:Envelope SYSTEM "http://127.0.0.1:9/evil.dtd">' + bare('1.2', CALL))],
  ['an external subset (PUBLIC)', post12('<!DOCTYPE s:Envelope PUBLIC "-//X//Y" "http://127.0.0.1:9/evil.dtd">' + bare('1.2', CALL))],
  ['an empty DOCTYPE after the XML declaration', post12(DECL + '<!DOCTYPE s:Envelope>' + bare('1.2', CALL))],
  ['an ATTLIST defaulting mustUnderstand', post12('<!DOCTYPE s:Envelope [<!ATTLIST h:T s:mustUnderstand CDATA "true">]>' + bare('1.2', CALL, '<h:T xmlns:h="urn:h"/>'))],
  ['a DOCTYPE in the Body', post12(envelope('1.2', '<!DOCTYPE x []>' + CALL))],
  ['a DOCTYPE after the root', post12(envelope('1.2', CALL) + '<!DOCTYPE x []>')],
  ['a DOCTYPE in SOAP 1.1', post11('<!DOCTYPE s:Envelope [<!ENTITY x "boo">]>' + bare('1.1', '<m:A xmlns:m="urn:x">&x;</m:A>'))],
  ['a DOCTYPE in UTF-16', postAs('application/soap+xml; charset=utf-16', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<!DOCTYPE s:Envelope [<!ENTITY x "boo">]>' + bare('1.2', '<m:A xmlns:m="urn:x">&x;</m:A>'), 'utf16le')]))],
  ['a DOCTYPE on a mismatched version', post11('<!DOCTYPE s:Envelope []>' + bare('1.2', CALL))],
  ['an entity named __proto__', post12('<!DOCTYPE s:Envelope [<!ENTITY __proto__ "x">]>' + bare('1.2', '<m:A xmlns:m="urn:x">&__proto__;</m:A>'))]
])

// ----------------------------------------------------------- XInclude and PIs

add('docs/protocol.md "Limits": nothing fetched, XInclude not processed', { status: 200, decoded: { payload: `{${XI}}include` } }, [
  ['xi:include of file:///etc/passwd as text', post12(envelope('1.2', `<xi:include xmlns:xi="${XI}" href="file:///etc/passwd" parse="text"/>`))],
  ['xi:include of a loopback URL', post12(envelope('1.2', `<xi:include xmlns:xi="${XI}" href="http://127.0.0.1:9/x.xml"/>`))],
  ['xi:include with a fallback', post12(envelope('1.2', `<xi:include xmlns:xi="${XI}" href="nope.xml"><xi:fallback><m:A xmlns:m="urn:x"/></xi:fallback></xi:include>`))],
  ['xi:include in SOAP 1.1', post11(envelope('1.1', `<xi:include xmlns:xi="${XI}" href="file:///etc/passwd" parse="text"/>`))]
])
add('docs/protocol.md "Limits": nothing fetched, XInclude not processed', { status: 200, decoded: { payload: ECHO } }, [
  ['xi:include nested in the payload', post12(envelope('1.2', `<m:Echo xmlns:m="urn:example:calc"><xi:include xmlns:xi="${XI}" href="file:///etc/passwd"/></m:Echo>`))],
  ['xsi:schemaLocation pointing at loopback', post12(envelope('1.2', '<m:Echo xmlns:m="urn:example:calc" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="urn:example:calc http://127.0.0.1:9/x.xsd"/>'))]
])
add('docs/protocol.md "Limits": nothing fetched, XInclude not processed', { status: 200, decoded: { payload: ECHO, headers: [`{${XI}}include`] } }, [
  ['xi:include as a header block', post12(envelope('1.2', CALL, `<xi:include xmlns:xi="${XI}" href="file:///etc/passwd"/>`))]
])

add('docs/protocol.md "Decoding": processing instruction (BP R1009)', EMPTY400, [
  ['a PI in the Body', post12(envelope('1.2', '<?php echo 1 ?>' + CALL))],
  ['a PI deep in the payload', post12(inA('<m:B><m:C><?x y?></m:C></m:B>'))],
  ['a PI in the Header', post12(envelope('1.2', CALL, '<?pi in-header?>'))],
  ['xml-stylesheet before the root', post12(DECL + '<?xml-stylesheet href="a.xsl"?>' + bare('1.2', CALL))],
  ['a PI after the root', post12(envelope('1.2', CALL) + '<?pi after?>')],
  ['a PI named __proto__', post12(envelope('1.2', '<?__proto__ x?>' + CALL))],
  ['a PI with the reserved target XML', post12(bare('1.2', '<?XML version="1.0"?>' + CALL))],
  ['a PI in SOAP 1.1', post11(envelope('1.1', '<?php echo 1 ?>' + CALL))]
])

// ---------------------------------------------------------------------- limits

add('docs/protocol.md "Other answers": body over the size limit (RFC 9110 §15.5.14)', EMPTY413, [
  ['a 4097-byte body against bodyLimit 4096', post12(sized(4097))],
  ['a chunked body that grows past the limit', chunked(MEDIA['1.2'], sized(5000), 1000)],
  ['a Content-Length far over the limit, body never sent', http('POST', '/echo', { 'Content-Type': MEDIA['1.2'], 'Content-Length': 10_000_000 }, '<s:Envelope')],
  ['a billion-laughs DTD that is also too large', post12(LAUGHS + bare('1.2', `<m:A xmlns:m="urn:x">&j;${' '.repeat(4096)}</m:A>`))]
], 'limits')
add('docs/protocol.md "Other answers": body over the size limit (RFC 9110 §15.5.14)', EMPTY413, [
  ['a Content-Length over the default 1 MiB, body never sent', http('POST', '/echo', { 'Content-Type': MEDIA['1.1'], 'Content-Length': 1024 * 1024 + 1 }, '<s:Envelope')]
])
add('docs/protocol.md "Other answers": body at the size limit', OK, [
  ['a body of exactly bodyLimit (4096) bytes', post12(sized(4096))]
], 'limits')

add('docs/protocol.md "Limits": element depth', OKP, [['depth 20 (maxDepth 20)', post12(deep(20))]], 'limits')
add('docs/protocol.md "Limits": element depth', EMPTY400, [['depth 21 (maxDepth 20)', post12(deep(21))]], 'limits')
add('docs/protocol.md "Limits": element depth', OKP, [['depth 100 (default)', post12(deep(100))]])
add('docs/protocol.md "Limits": element depth', EMPTY400, [
  ['depth 101 (default)', post12(deep(101))],
  ['10,000 unclosed elements (default)', post12(envelope('1.2', '<p xmlns="urn:p">' + '<a>'.repeat(10_000)))]
])

add('docs/protocol.md "Limits": elements in a message', OKP, [['200 elements, many siblings (maxElements 200)', post12(siblings(200))]], 'limits')
add('docs/protocol.md "Limits": elements in a message', EMPTY400, [
  ['201 elements (maxElements 200)', post12(siblings(201))],
  ['201 elements spread over Header and Body', post12(envelope('1.2', '<p xmlns="urn:p">' + '<a/>'.repeat(100) + '</p>', '<h:T xmlns:h="urn:h">' + '<a/>'.repeat(96) + '</h:T>'))]
], 'limits')
add('docs/protocol.md "Limits": elements in a message', OKP, [['50,000 elements, all siblings (default)', post12(siblings(50_000))]])
add('docs/protocol.md "Limits": elements in a message', EMPTY400, [['50,001 elements (default)', post12(siblings(50_001))]])

add('docs/protocol.md "Limits": attributes on one element', OKP, [['50 attributes (maxAttributes 50)', post12(attributes(50))]], 'limits')
add('docs/protocol.md "Limits": attributes on one element', EMPTY400, [['51 attributes (maxAttributes 50)', post12(attributes(51))]], 'limits')
add('docs/protocol.md "Limits": attributes on one element', OKP, [['500 attributes (default)', post12(attributes(500))]])
add('docs/protocol.md "Limits": attributes on one element', EMPTY400, [['501 attributes (default)', post12(attributes(501))]])

add('docs/protocol.md "Limits": namespace declarations in a message', OKP, [['20 declarations (maxNamespaceDeclarations 20)', post12(declarations(20))]], 'limits')
add('docs/protocol.md "Limits": namespace declarations in a message', EMPTY400, [
  ['21 declarations (maxNamespaceDeclarations 20)', post12(declarations(21))],
  ['21 declarations on one element', post12(envelope('1.2', '<p xmlns="urn:p"' + Array.from({ length: 19 }, (_, i) => ` xmlns:n${i}="urn:n"`).join('') + '/>'))]
], 'limits')
add('docs/protocol.md "Limits": namespace declarations in a message', OKP, [['1,000 declarations (default)', post12(declarations(1000))]])
add('docs/protocol.md "Limits": namespace declarations in a message', EMPTY400, [['1,001 declarations (default)', post12(declarations(1001))]])

add('docs/protocol.md "Limits": name length', { status: 200, decoded: { payload: `{urn:p}${'n'.repeat(64)}` } }, [['a 64-character element name (maxNameLength 64)', post12(envelope('1.2', `<${'n'.repeat(64)} xmlns="urn:p"/>`))]], 'limits')
add('docs/protocol.md "Limits": name length', EMPTY400, [
  ['a 65-character element name (maxNameLength 64)', post12(envelope('1.2', `<${'n'.repeat(65)} xmlns="urn:p"/>`))],
  ['a 65-character attribute name (maxNameLength 64)', post12(envelope('1.2', `<p xmlns="urn:p" ${'n'.repeat(65)}="1"/>`))]
], 'limits')
add('docs/protocol.md "Limits": name length', { status: 200, decoded: { payload: `{urn:p}${'n'.repeat(1024)}` } }, [['a 1,024-character element name (default)', post12(envelope('1.2', `<${'n'.repeat(1024)} xmlns="urn:p"/>`))]])
add('docs/protocol.md "Limits": name length', EMPTY400, [['a 1,025-character element name (default)', post12(envelope('1.2', `<${'n'.repeat(1025)} xmlns="urn:p"/>`))]])

add('docs/protocol.md "Limits": attribute value length', OKP, [['a 256-character value (maxAttributeLength 256)', post12(envelope('1.2', `<p xmlns="urn:p" a="${'v'.repeat(256)}"/>`))]], 'limits')
add('docs/protocol.md "Limits": attribute value length', EMPTY400, [['a 257-character value (maxAttributeLength 256)', post12(envelope('1.2', `<p xmlns="urn:p" a="${'v'.repeat(257)}"/>`))]], 'limits')
add('docs/protocol.md "Limits": attribute value length', OKP, [['a 64 KiB value (default)', post12(envelope('1.2', `<p xmlns="urn:p" a="${'v'.repeat(65_536)}"/>`))]])
add('docs/protocol.md "Limits": attribute value length', EMPTY400, [['a 64 KiB + 1 value (default)', post12(envelope('1.2', `<p xmlns="urn:p" a="${'v'.repeat(65_537)}"/>`))]])

add('docs/protocol.md "Limits": text node length', OKP, [['1,024 characters of text (maxTextLength 1024)', post12(envelope('1.2', `<p xmlns="urn:p">${'t'.repeat(1024)}</p>`))]], 'limits')
add('docs/protocol.md "Limits": text node length', EMPTY400, [
  ['1,025 characters of text (maxTextLength 1024)', post12(envelope('1.2', `<p xmlns="urn:p">${'t'.repeat(1025)}</p>`))],
  ['1,025 characters in a CDATA section (maxTextLength 1024)', post12(envelope('1.2', `<p xmlns="urn:p"><![CDATA[${'t'.repeat(1025)}]]></p>`))]
], 'limits')

add('docs/protocol.md "Limits": namespace URI length', { status: 200, decoded: { payload: `{urn:${'u'.repeat(124)}}p` } }, [['a 128-character namespace (maxNamespaceLength 128)', post12(envelope('1.2', `<p xmlns="urn:${'u'.repeat(124)}"/>`))]], 'limits')
add('docs/protocol.md "Limits": namespace URI length', EMPTY400, [['a 129-character namespace (maxNamespaceLength 128)', post12(envelope('1.2', `<p xmlns="urn:${'u'.repeat(125)}"/>`))]], 'limits')
add('docs/protocol.md "Limits": namespace URI length', { status: 200, decoded: { payload: `{urn:${'u'.repeat(4092)}}p` } }, [['a 4,096-character namespace (default)', post12(envelope('1.2', `<p xmlns="urn:${'u'.repeat(4092)}"/>`))]])
add('docs/protocol.md "Limits": namespace URI length', EMPTY400, [['a 4,097-character namespace (default)', post12(envelope('1.2', `<p xmlns="urn:${'u'.repeat(4093)}"/>`))]])

// ---------------------------------------------------------- SOAP structure

add('docs/protocol.md "Decoding": not a SOAP envelope (BP R1011)', EMPTY400, [
  ['a document element other than Envelope', post12(`<s:Body xmlns:s="${E12}"/>`)],
  ['no Body', post12(`<s:Envelope xmlns:s="${E12}"/>`)],
  ['a Header but no Body', post12(`<s:Envelope xmlns:s="${E12}"><s:Header/></s:Envelope>`)],
  ['two Bodies', post12(`<s:Envelope xmlns:s="${E12}"><s:Body/><s:Body/></s:Envelope>`)],
  ['two Headers', post12(`<s:Envelope xmlns:s="${E12}"><s:Header/><s:Header/><s:Body/></s:Envelope>`)],
  ['Header after Body', post12(`<s:Envelope xmlns:s="${E12}"><s:Body/><s:Header/></s:Envelope>`)],
  ['an element after Body', post12(`<s:Envelope xmlns:s="${E12}"><s:Body/><x:Trailer xmlns:x="urn:x"/></s:Envelope>`)],
  ['an element before Body', post12(`<s:Envelope xmlns:s="${E12}"><x:Pre xmlns:x="urn:x"/><s:Body/></s:Envelope>`)],
  ['text directly in Body', post12(`<s:Envelope xmlns:s="${E12}"><s:Body>junk${CALL}</s:Body></s:Envelope>`)],
  ['text directly in Header', post12(`<s:Envelope xmlns:s="${E12}"><s:Header>junk</s:Header><s:Body/></s:Envelope>`)],
  ['text after Body', post12(`<s:Envelope xmlns:s="${E12}"><s:Body/>junk</s:Envelope>`)],
  ['a Body in another namespace', post12(`<s:Envelope xmlns:s="${E12}"><b:Body xmlns:b="urn:other"/></s:Envelope>`)],
  ['an unqualified Body', post12(`<s:Envelope xmlns:s="${E12}"><Body/></s:Envelope>`)],
  ['two Bodies in SOAP 1.1', post11(`<s:Envelope xmlns:s="${E11}"><s:Body/><s:Body/></s:Envelope>`)],
  ['an element after Body in SOAP 1.1', post11(`<s:Envelope xmlns:s="${E11}"><s:Body/><x:T xmlns:x="urn:x"/></s:Envelope>`)],
  ['no Body in SOAP 1.1', post11(`<s:Envelope xmlns:s="${E11}"><s:Header/></s:Envelope>`)]
])

add('docs/protocol.md "Faults": Sender, unqualified header block (Part 1 §5.2.1)', { status: 400, fault: 'Sender' }, [
  ['an unqualified header block', post12(envelope('1.2', CALL, '<Token>x</Token>'))],
  ['a header block in no namespace by xmlns=""', post12(`<s:Envelope xmlns:s="${E12}" xmlns="urn:d"><s:Header><T xmlns=""/></s:Header><s:Body>${CALL}</s:Body></s:Envelope>`)]
])
add('docs/protocol.md "Faults": Client, unqualified header block (Part 1 §5.2.1)', { status: 500, fault: 'Client' }, [
  ['an unqualified header block in SOAP 1.1', post11(envelope('1.1', CALL, '<Token>x</Token>'))]
])

add('docs/protocol.md "Faults": Sender, mustUnderstand value (Part 1 §5.2.3, T23)', { status: 400, fault: 'Sender' }, [
  ['mustUnderstand="yes"', post12(envelope('1.2', CALL, '<h:T xmlns:h="urn:h" s:mustUnderstand="yes"/>'))],
  ['mustUnderstand="TRUE"', post12(envelope('1.2', CALL, '<h:T xmlns:h="urn:h" s:mustUnderstand="TRUE"/>'))],
  ['mustUnderstand=""', post12(envelope('1.2', CALL, '<h:T xmlns:h="urn:h" s:mustUnderstand=""/>'))],
  ['mustUnderstand="2"', post12(envelope('1.2', CALL, '<h:T xmlns:h="urn:h" s:mustUnderstand="2"/>'))],
  ['mustUnderstand="__proto__"', post12(envelope('1.2', CALL, '<h:T xmlns:h="urn:h" s:mustUnderstand="__proto__"/>'))],
  ['mustUnderstand="constructor"', post12(envelope('1.2', CALL, '<h:T xmlns:h="urn:h" s:mustUnderstand="constructor"/>'))]
])
add('docs/protocol.md "Faults": Client, mustUnderstand value (SOAP 1.1 §4.2.3)', { status: 500, fault: 'Client' }, [
  ['mustUnderstand="true" in SOAP 1.1', post11(envelope('1.1', CALL, '<h:T xmlns:h="urn:h" s:mustUnderstand="true"/>'))],
  ['mustUnderstand="false" in SOAP 1.1', post11(envelope('1.1', CALL, '<h:T xmlns:h="urn:h" s:mustUnderstand="false"/>'))],
  ['mustUnderstand="toString" in SOAP 1.1', post11(envelope('1.1', CALL, '<h:T xmlns:h="urn:h" s:mustUnderstand="toString"/>'))]
])

const STYLE = ' s:encodingStyle="http://www.w3.org/2003/05/soap-encoding"'
add('docs/protocol.md "Faults": Sender, env:encodingStyle in SOAP 1.2 (Part 1 §5.1.1, T28, T72)', { status: 400, fault: 'Sender' }, [
  ['env:encodingStyle on the Body', post12(`<s:Envelope xmlns:s="${E12}"><s:Body${STYLE}>${CALL}</s:Body></s:Envelope>`)],
  ['env:encodingStyle on the Envelope', post12(envelope('1.2', CALL, undefined, STYLE))],
  ['env:encodingStyle on the Header', post12(`<s:Envelope xmlns:s="${E12}"><s:Header${STYLE}/><s:Body>${CALL}</s:Body></s:Envelope>`)]
])
add('docs/protocol.md "Be liberal": encodingStyle on a SOAP 1.1 Envelope', OK11, [
  ['SOAP::Lite\'s encodingStyle', post11(envelope('1.1', CALL, undefined, ' s:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"'))]
])

add('docs/protocol.md "Faults": MustUnderstand (Part 1 §5.4.8, BP R1025)', { status: 500, fault: 'MustUnderstand' }, [
  ['an unknown mandatory block', post12(envelope('1.2', CALL, '<h:T xmlns:h="urn:h" s:mustUnderstand="true"/>'))],
  ['an unknown mandatory block for role next', post12(envelope('1.2', CALL, `<h:T xmlns:h="urn:h" s:mustUnderstand="1" s:role="${E12}/role/next"/>`))],
  ['an unknown mandatory block named __proto__', post12(envelope('1.2', CALL, '<h:__proto__ xmlns:h="urn:h" s:mustUnderstand="true"/>'))],
  ['an unknown mandatory block in SOAP 1.1', post11(envelope('1.1', CALL, '<h:T xmlns:h="urn:h" s:mustUnderstand="1"/>'))],
  ['a mandatory xi:include header block', post12(envelope('1.2', CALL, `<xi:include xmlns:xi="${XI}" href="file:///etc/passwd" s:mustUnderstand="1"/>`))]
])
add('docs/protocol.md "Faults": MustUnderstand is not checked for role none (T19, T29)', { status: 200, decoded: { payload: ECHO, headers: ['{urn:h}T'] } }, [
  ['a mandatory block for role none', post12(envelope('1.2', CALL, `<h:T xmlns:h="urn:h" s:mustUnderstand="true" s:role="${E12}/role/none"/>`))],
  ['a mandatory block for a role this node does not play', post12(envelope('1.2', CALL, '<h:T xmlns:h="urn:h" s:mustUnderstand="true" s:role="urn:other"/>'))]
])

// -------------------------------------------------------------- versions

add('docs/protocol.md "Faults": VersionMismatch in the media type\'s version (Part 1 §5.4.7)', { status: 500, fault: 'VersionMismatch' }, [
  ['a 1.1 envelope sent as SOAP 1.2', post12(envelope('1.1', CALL))],
  ['a 1.2 envelope sent as SOAP 1.1', post11(envelope('1.2', CALL))],
  ['an unknown envelope namespace as SOAP 1.2', post12(`<e:Envelope xmlns:e="urn:not-soap"><e:Body>${CALL}</e:Body></e:Envelope>`)],
  ['an unknown envelope namespace as SOAP 1.1', post11(`<e:Envelope xmlns:e="urn:not-soap"><e:Body>${CALL}</e:Body></e:Envelope>`)],
  ['an Envelope in no namespace as SOAP 1.2', post12(`<Envelope><Body>${CALL}</Body></Envelope>`)],
  ['an Envelope in no namespace as SOAP 1.1', post11(`<Envelope><Body>${CALL}</Body></Envelope>`)],
  ['the 1.2 namespace in another case', post12(`<e:Envelope xmlns:e="${E12.toUpperCase()}"><e:Body/></e:Envelope>`)],
  ['the 1.2 namespace with a trailing slash', post12(`<e:Envelope xmlns:e="${E12}/"><e:Body/></e:Envelope>`)],
  ['a 1.2 envelope with two Bodies sent as SOAP 1.1 (version before structure)', post11(`<s:Envelope xmlns:s="${E12}"><s:Body/><s:Body/></s:Envelope>`)],
  ['a 1.1 envelope with text after Body sent as SOAP 1.2', post12(`<s:Envelope xmlns:s="${E11}"><s:Body/>junk</s:Envelope>`)],
  ['an Envelope with the prefix __proto__ in an unknown namespace', post12('<__proto__:Envelope xmlns:__proto__="urn:x"><__proto__:Body/></__proto__:Envelope>')],
  ['a 1.1 envelope sent as application/soap+xml with a SOAPAction', post12(envelope('1.1', CALL), { SOAPAction: '"urn:a"' })]
])

// ------------------------------------------------------------ content types

add('docs/protocol.md "Other answers": media type other than the two SOAP ones (BP R1115)', EMPTY415, [
  ['no Content-Type', http('POST', '/echo', {}, envelope('1.2', CALL))],
  ['Content-Type: garbage', postAs('garbage', envelope('1.2', CALL))],
  ['Content-Type: ;;;', postAs(';;;', envelope('1.2', CALL))],
  ['application/xml', postAs('application/xml; charset=utf-8', envelope('1.2', CALL))],
  ['text/plain', postAs('text/plain', envelope('1.1', CALL))],
  ['application/json', postAs('application/json', '{"__proto__":{"polluted":1}}')],
  ['application/soap+xml2', postAs('application/soap+xml2', envelope('1.2', CALL))],
  ['text/xml-ish', postAs('text/xml-ish', envelope('1.1', CALL))],
  ['*/*', postAs('*/*', envelope('1.2', CALL))],
  ['multipart/mixed', postAs('multipart/mixed; boundary="b"',
    `--b\r\nContent-Type: application/soap+xml\r\n\r\n${envelope('1.2', CALL)}\r\n--b--\r\n`)],
  ['application/xop+xml', postAs('application/xop+xml; type="application/soap+xml"', envelope('1.2', CALL))],
  ['a media type named __proto__', postAs('__proto__/constructor', envelope('1.2', CALL))]
])

add('docs/protocol.md "Other answers": charset other than UTF-8 / UTF-16 (BP R1012, R1115)', EMPTY415, [
  ['charset=iso-8859-1', postAs('application/soap+xml; charset=iso-8859-1', envelope('1.2', CALL))],
  ['charset=us-ascii', postAs('application/soap+xml; charset=us-ascii', envelope('1.2', CALL))],
  ['charset=utf-32', postAs('application/soap+xml; charset=utf-32', envelope('1.2', CALL))],
  ['charset=utf-7', postAs('application/soap+xml; charset=utf-7', envelope('1.2', CALL))],
  ['charset=ibm037 (EBCDIC)', postAs('application/soap+xml; charset=ibm037', envelope('1.2', CALL))],
  ['charset=""', postAs('application/soap+xml; charset=""', envelope('1.2', CALL))],
  ['charset=__proto__', postAs('application/soap+xml; charset=__proto__', envelope('1.2', CALL))],
  ['charset=constructor', postAs('application/soap+xml; charset=constructor', envelope('1.2', CALL))],
  ['charset=toString', postAs('application/soap+xml; charset=toString', envelope('1.2', CALL))],
  ['charset=hasOwnProperty', postAs('application/soap+xml; charset=hasOwnProperty', envelope('1.2', CALL))],
  ['charset=valueOf', postAs('application/soap+xml; charset=valueOf', envelope('1.2', CALL))],
  ['text/xml; charset=shift_jis', postAs('text/xml; charset=shift_jis', envelope('1.1', CALL))],
  ['text/xml; charset=__proto__', postAs('text/xml; charset=__proto__', envelope('1.1', CALL))]
])

/** A 1.2 request whose body is `body` in the content coding `coding`, framed by Content-Length or chunked. */
function coded (coding: string, body: Buffer, framing: 'length' | 'chunked' = 'length'): Buffer {
  if (framing === 'length') return post12(body, { 'Content-Encoding': coding })
  const head = http('POST', '/echo', { 'Content-Type': MEDIA['1.2'], 'Content-Encoding': coding, 'Transfer-Encoding': 'chunked' })
  return Buffer.concat([head, Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')])
}

/** A gzip envelope whose ratio, inflated ÷ compressed, is within [low, high): its texts runs of one letter, under maxTextLength. */
function gzipWithRatio (low: number, high: number): Buffer {
  for (let n = 0; n < 3500; n++) {
    const texts = 'a'.repeat(n).replace(/a{1,1000}/g, (run) => `<m:text>${run}</m:text>`)
    const xml = envelope('1.2', `<m:Echo xmlns:m="urn:example:calc">${texts}</m:Echo>`)
    const gzip = gzipSync(xml)
    if (xml.length / gzip.length >= low && xml.length / gzip.length < high) return gzip
  }
  throw new Error(`no envelope of ratio ${low} to ${high}`)
}

const GZIP12 = gzipSync(envelope('1.2', CALL))

add('docs/protocol.md "Content codings": a coding the plugin does not inflate, or two (RFC 9110 §15.5.16)', EMPTY415, [
  ['Content-Encoding: compress', post12(envelope('1.2', CALL), { 'Content-Encoding': 'compress' })],
  ['Content-Encoding: zstd in SOAP 1.1', post11(envelope('1.1', CALL), { 'Content-Encoding': 'zstd' })],
  ['Content-Encoding: gzip, gzip', coded('gzip, gzip', gzipSync(GZIP12))],
  ['two Content-Encoding lines', http('POST', '/echo', { 'Content-Type': MEDIA['1.2'], 'Content-Encoding': 'gzip', 'content-encoding': 'gzip' }, gzipSync(GZIP12))],
  ['Content-Encoding: __proto__', post12(envelope('1.2', CALL), { 'Content-Encoding': '__proto__' })]
])

add('docs/protocol.md "Content codings": inflated, then decoded', OK, [
  ['Content-Encoding: gzip', coded('gzip', GZIP12)],
  ['Content-Encoding: GZIP, chunked', coded('GZIP', GZIP12, 'chunked')],
  ['Content-Encoding: deflate', coded('deflate', deflateSync(envelope('1.2', CALL)))],
  ['Content-Encoding: deflate, raw', coded('deflate', deflateRawSync(envelope('1.2', CALL)))],
  ['Content-Encoding: br', coded('br', brotliCompressSync(Buffer.from(envelope('1.2', CALL))))]
])

add('docs/protocol.md "Content codings": data that does not inflate', EMPTY400, [
  ['a truncated gzip body', coded('gzip', GZIP12.subarray(0, GZIP12.length - 10))],
  ['a truncated gzip body, chunked', coded('gzip', GZIP12.subarray(0, 12), 'chunked')],
  ['a bad gzip header', coded('gzip', Buffer.concat([Buffer.from([0x1f, 0x8c]), GZIP12.subarray(2)]))],
  ['a plain body labelled gzip', coded('gzip', Buffer.from(envelope('1.2', CALL)))],
  ['a plain body labelled deflate', coded('deflate', Buffer.from(envelope('1.2', CALL)))],
  ['bytes after the gzip member', coded('gzip', Buffer.concat([GZIP12, Buffer.from('<x/>')]))],
  ['an empty chunked body labelled gzip', http('POST', '/echo', { 'Content-Type': MEDIA['1.2'], 'Content-Encoding': 'gzip', 'Transfer-Encoding': 'chunked' }, '0\r\n\r\n')]
])

add('docs/protocol.md "Content codings": over the body limit or the compression ratio as it inflates', EMPTY413, [
  ['a bomb: 1 MiB of spaces from 1 KiB of gzip', coded('gzip', gzipSync(Buffer.alloc(1024 * 1024, 0x20)))],
  ['a bomb, chunked', coded('gzip', gzipSync(Buffer.alloc(1024 * 1024, 0x20)), 'chunked')],
  ['a bomb of br', coded('br', brotliCompressSync(Buffer.alloc(1024 * 1024, 0x20)))],
  ['a ratio just over the cap (10)', coded('gzip', gzipWithRatio(10.05, 10.5))]
], 'limits')

add('docs/protocol.md "Content codings": under the body limit and the compression ratio', OK, [
  ['a ratio just under the cap (10)', coded('gzip', gzipWithRatio(9.5, 9.95))]
], 'limits')

// ------------------------------------------------------------------ methods

const HOSTILE = '<!DOCTYPE s:Envelope [<!ENTITY x "boo">]>' + bare('1.2', '<m:A xmlns:m="urn:x">&x;</m:A>')
add('docs/protocol.md "Other answers": method other than POST (BP R1114, RFC 9110 §15.5.6)', { status: 405, empty: true, allow: 'POST' }, [
  ['GET', http('GET', '/echo', {})],
  ['GET with a query and a body', http('GET', '/echo?x=1', { 'Content-Type': MEDIA['1.2'] }, envelope('1.2', CALL))],
  ['HEAD', http('HEAD', '/echo', {})],
  ['PUT with a well-formed envelope', http('PUT', '/echo', { 'Content-Type': MEDIA['1.2'] }, envelope('1.2', CALL))],
  ['PUT with a DTD', http('PUT', '/echo', { 'Content-Type': MEDIA['1.2'] }, HOSTILE)],
  ['DELETE', http('DELETE', '/echo', {})],
  ['PATCH with a body', http('PATCH', '/echo', { 'Content-Type': MEDIA['1.1'] }, envelope('1.1', CALL))],
  ['OPTIONS', http('OPTIONS', '/echo', {})],
  ['TRACE', http('TRACE', '/echo', {})],
  ['QUERY with a body', http('QUERY', '/echo', { 'Content-Type': MEDIA['1.2'] }, envelope('1.2', CALL))]
])

// ----------------------------------------- names that collide with Object.prototype

const PROTO_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']

for (const name of PROTO_NAMES) {
  add('docs/protocol.md "Decoding": well-formed XML is decoded, whatever its names', { status: 200, decoded: { payload: `{urn:p}${name}` } }, [
    [`a payload element named ${name}`, post12(envelope('1.2', `<m:${name} xmlns:m="urn:p"/>`))]
  ])
  add('docs/protocol.md "Decoding": well-formed XML is decoded, whatever its names', { status: 200, decoded: { payload: '{urn:p}Op' } }, [
    [`a payload prefix named ${name}`, post12(envelope('1.2', `<${name}:Op xmlns:${name}="urn:p"/>`))]
  ])
  add('docs/protocol.md "Decoding": well-formed XML is decoded, whatever its names', { status: 200, decoded: { payload: ECHO, headers: [`{urn:h}${name}`] } }, [
    [`a header block named ${name}`, post12(envelope('1.2', CALL, `<h:${name} xmlns:h="urn:h">x</h:${name}>`))]
  ])
  add('docs/protocol.md "Decoding": not well-formed (entity and character references)', EMPTY400, [
    [`an undefined entity &${name};`, post12(inA(`&${name};`))]
  ])
  add('docs/protocol.md "Decoding": not namespace-well-formed (prefixes)', EMPTY400, [
    [`an unbound prefix named ${name}`, post12(envelope('1.2', `<${name}:Op/>`))]
  ])
}

add('docs/protocol.md "Decoding": well-formed XML is decoded, whatever its names', { status: 200, decoded: { payload: '{urn:p}Op' } }, [
  ['attributes named after Object.prototype', post12(envelope('1.2', '<m:Op xmlns:m="urn:p" __proto__="a" constructor="b" toString="c" m:hasOwnProperty="d" valueOf="e"/>'))],
  ['attributes named __proto__ in two namespaces', post12(envelope('1.2', '<m:Op xmlns:m="urn:p" xmlns:n="urn:q" m:__proto__="a" n:__proto__="b" __proto__="c"/>'))],
  ['unqualified children named __proto__ and constructor', post12(envelope('1.2', '<Op xmlns="urn:p"><__proto__ xmlns=""/><constructor/></Op>'))]
])
add('docs/protocol.md "Be liberal": the envelope under any prefix', { status: 200, decoded: { payload: ECHO } }, [
  ['the Envelope prefix constructor', post12(`<constructor:Envelope xmlns:constructor="${E12}"><constructor:Body>${CALL}</constructor:Body></constructor:Envelope>`)],
  ['the Envelope prefix __proto__', post12(`<__proto__:Envelope xmlns:__proto__="${E12}"><__proto__:Header/><__proto__:Body>${CALL}</__proto__:Body></__proto__:Envelope>`)],
  ['a Body prefix hasOwnProperty bound to the envelope namespace', post12(`<s:Envelope xmlns:s="${E12}"><hasOwnProperty:Body xmlns:hasOwnProperty="${E12}">${CALL}</hasOwnProperty:Body></s:Envelope>`)]
])
add('docs/protocol.md "Be liberal": the envelope under any prefix', OK11, [
  ['the SOAP 1.1 Envelope prefix valueOf', post11(`<valueOf:Envelope xmlns:valueOf="${E11}"><valueOf:Body>${CALL}</valueOf:Body></valueOf:Envelope>`)]
])
add('docs/protocol.md "Dispatch": the action breaks ties, any value', { status: 200, decoded: { payload: ECHO, action: '__proto__' } }, [
  ['an action parameter __proto__', postAs('application/soap+xml; charset=utf-8; action="__proto__"', envelope('1.2', CALL))],
  ['a SOAPAction __proto__ in SOAP 1.1', post11(envelope('1.1', CALL), { SOAPAction: '"__proto__"' })]
])
add('docs/protocol.md "Decoding": not well-formed (attributes)', EMPTY400, [
  ['a duplicate attribute __proto__', post12(envelope('1.2', '<m:Op xmlns:m="urn:p" __proto__="a" __proto__="b"/>'))],
  ['a duplicate expanded attribute n:constructor', post12(envelope('1.2', '<m:Op xmlns:m="urn:p" xmlns:n="urn:p" m:constructor="a" n:constructor="b"/>'))]
])
add('docs/protocol.md "Decoding": not namespace-well-formed (prefixes)', EMPTY400, [
  ['a prefix __proto__ undeclared with xmlns:__proto__=""', post12(envelope('1.2', '<__proto__:Op xmlns:__proto__="urn:p"><__proto__:B xmlns:__proto__=""/></__proto__:Op>'))]
])
add('docs/protocol.md "Faults": Sender, unqualified header block (Part 1 §5.2.1)', { status: 400, fault: 'Sender' }, [
  ['an unqualified header block named __proto__', post12(envelope('1.2', CALL, '<__proto__>x</__proto__>'))]
])

// ---------------------------------------------------------------- MTOM/XOP

const MTOM_TYPE = mtomType('1.2')
const UPLOAD = '{urn:example:files}Upload'
const mtomPost = (body: Buffer, contentType = MTOM_TYPE, headers: Record<string, string | number> = {}): Buffer => postAs(contentType, body, headers)
/** The root part and one attachment `a` holding `data`. */
const withData = (data: Buffer | string, head = partHead('a')): Buffer => multipartBody(BOUNDARY, [
  { head: rootHead('1.2'), content: uploadEnvelope('1.2', ['a']) }, { head, content: data }
])
/** An Upload whose m:Data holds `data`, with the attachment `a`. */
const includeIn = (data: string): Buffer => multipartBody(BOUNDARY, [
  { head: rootHead('1.2'), content: envelope('1.2', `<m:Upload xmlns:m="urn:example:files" xmlns:xop="${XOP}"><m:Data>${data}</m:Data></m:Upload>`) },
  { head: partHead('a'), content: 'bytes' }
])
const good = withData('x').toString('latin1')

add('docs/protocol.md "MTOM/XOP": a delimiter is CRLF -- boundary; the boundary inside part data is data (RFC 2046 §5.1.1)', { status: 200, decoded: { payload: UPLOAD } }, [
  ['the boundary, --boundary and CR/LF runs inside the data', mtomPost(withData(`${BOUNDARY}\r\n\n--${BOUNDARY}\r--${BOUNDARY}\n\r\n-${BOUNDARY}--\r\n\r\n`))],
  ['a part of 100,000 bytes of CR, LF and dashes', mtomPost(withData(Buffer.from('\r\n--\r-\n'.repeat(12_500), 'latin1')))],
  ['a preamble, transport padding and an epilogue', mtomPost(Buffer.from(`preamble --${BOUNDARY}\r\n` + good.replace(/(--[^\r]+)\r\n/g, '$1 \t\r\n') + '\r\nepilogue\r\n', 'latin1'))],
  ['a chunked MTOM body', http('POST', '/echo', { 'Content-Type': MTOM_TYPE, 'Transfer-Encoding': 'chunked' }, `${Buffer.byteLength(good, 'latin1').toString(16)}\r\n${good}\r\n0\r\n\r\n`)]
])
add('docs/protocol.md "MTOM/XOP": the boundary parameter, delimiters and close delimiter (RFC 2046 §5.1.1)', EMPTY400, [
  ['no boundary parameter', mtomPost(withData('x'), 'multipart/related; type="application/xop+xml"')],
  ['a boundary of 71 characters', mtomPost(withData('x'), `multipart/related; boundary="${'b'.repeat(71)}"`)],
  ['a boundary the body does not use', mtomPost(withData('x'), mtomType('1.2', 'other'))],
  ['LF alone instead of CRLF', mtomPost(Buffer.from(good.replace(/\r\n/g, '\n'), 'latin1'))],
  ['CR alone instead of CRLF', mtomPost(Buffer.from(good.replace(/\r\n/g, '\r'), 'latin1'))],
  ['CRLF delimiters, LF header lines', mtomPost(Buffer.from(good.replace(/>\r\n/g, '>\n').replace(/\r\n\r\n/g, '\r\n\n'), 'latin1'))],
  ['CRLF -- boundary inside the data', mtomPost(withData(`a\r\n--${BOUNDARY}b`))],
  ['a body truncated before its close delimiter', mtomPost(Buffer.from(good.slice(0, -10), 'latin1'))],
  ['a body truncated in a header block', mtomPost(Buffer.from(good.slice(0, good.indexOf('Content-ID')), 'latin1'))],
  ['20,000 delimiters and nothing else', mtomPost(Buffer.from(`--${BOUNDARY}\r\n`.repeat(20_000), 'latin1'))]
])
const MONO = monoMessage(uploadEnvelope('1.2', ['a']), [{ id: 'a', bytes: Buffer.from('bytes') }])
/** Mono's body with its own header replaced by `head` (field lines, each ending with CRLF). */
const monoWith = (head: string): Buffer => Buffer.concat([Buffer.from(head + '\r\n', 'latin1'), MONO.body.subarray(MONO.body.indexOf('\r\n\r\n') + 4)])
add('docs/protocol.md "Be liberal": with no boundary parameter, a MIME header at the start of the body names the boundary (Mono\'s WCF)', { status: 200, decoded: { payload: UPLOAD } }, [
  ['Mono\'s framing, the root part of type=""', mtomPost(MONO.body, MONO.contentType)]
])
add('docs/protocol.md "Be liberal": a MIME header at the start of the body is read only when it names multipart/related with a boundary, within the part header bounds', EMPTY400, [
  ['a header without Content-Type', mtomPost(monoWith('MIME-Version: 1.0\r\n'), MONO.contentType)],
  ['a header of another media type', mtomPost(monoWith(`Content-Type: text/xml; boundary="${MONO_BOUNDARY}"\r\n`), MONO.contentType)],
  ['a header naming no boundary', mtomPost(monoWith('Content-Type: multipart/related; type="application/xop+xml"\r\n'), MONO.contentType)],
  ['a header naming another boundary', mtomPost(monoWith(monoHead('other')), MONO.contentType)],
  ['a header of 900,000 bytes that never ends', mtomPost(Buffer.from(`Content-Type: multipart/related; boundary=b; x="${'a'.repeat(900_000)}`, 'latin1'), MONO.contentType)],
  ['a header of 8,193 bytes', mtomPost(monoWith(monoHead() + `X-A: ${'a'.repeat(8188 - monoHead().length)}\r\n`), MONO.contentType)],
  ['33 fields in the header', mtomPost(monoWith('X-A: 1\r\n'.repeat(32) + monoHead()), MONO.contentType)],
  ['a header line that is not a field', mtomPost(monoWith(monoHead() + 'no colon here\r\n'), MONO.contentType)],
  ['two Content-Type fields in the header', mtomPost(monoWith(monoHead() + 'Content-Type: multipart/related; boundary=b\r\n'), MONO.contentType)],
  ['an envelope where the header would be', mtomPost(Buffer.from(envelope('1.2', CALL)), MONO.contentType)]
])
add('docs/protocol.md "MTOM/XOP": the bounds on parts and part headers (multipart option)', EMPTY400, [
  ['51 parts', mtomPost(multipartBody(BOUNDARY, [{ head: rootHead('1.2'), content: envelope('1.2', CALL) }, ...Array.from({ length: 50 }, (_, i) => ({ head: partHead(`p${i}`), content: 'x' }))]))],
  ['20,000 empty parts', mtomPost(Buffer.from(`--${BOUNDARY}\r\n\r\n\r\n`.repeat(20_000) + `--${BOUNDARY}--`, 'latin1'))],
  ['33 header fields in a part', mtomPost(withData('x', 'X-A: 1\r\n'.repeat(33)))],
  ['a header block of 8,193 bytes', mtomPost(withData('x', `X-A: ${'a'.repeat(8188)}\r\n`))],
  ['a header block of 900,000 bytes that never ends', mtomPost(Buffer.from(`--${BOUNDARY}\r\nX-A: ${'a'.repeat(900_000)}`, 'latin1'))],
  ['a header line that is not a field', mtomPost(withData('x', 'Content-ID: <a>\r\nno colon here\r\n'))]
])
add('docs/protocol.md "MTOM/XOP": Content-ID and Content-Transfer-Encoding (RFC 2392 §2, RFC 2045 §6)', EMPTY400, [
  ['a Content-ID without angle brackets', mtomPost(withData('x', 'Content-ID: a\r\n'))],
  ['an empty Content-ID', mtomPost(withData('x', 'Content-ID: <>\r\n'))],
  ['a Content-ID with a space', mtomPost(withData('x', 'Content-ID: <a b>\r\n'))],
  ['a Content-ID named twice', mtomPost(withData('x', 'Content-ID: <a>\r\nContent-ID: <b>\r\n'))],
  ['two parts with one Content-ID', mtomPost(withData('x', 'Content-ID: <root.message@example.org>\r\n'))],
  ['a base64 part', mtomPost(withData('eA==', 'Content-ID: <a>\r\nContent-Transfer-Encoding: base64\r\n'))],
  ['a start naming no part', mtomPost(withData('x'), mtomType('1.2', BOUNDARY, '<nothing@example.org>'))]
])
add('docs/protocol.md "MTOM/XOP": each xop:Include is the only, empty child of its element, href a cid: URL of a part (XOP 1.0 §2.1, §2.2, §3.2)', { status: 400, fault: 'Sender' }, [
  ['an href that is an http: URL', mtomPost(includeIn('<xop:Include href="http://127.0.0.1:9/secret"/>'))],
  ['an href that is a file: URL', mtomPost(includeIn('<xop:Include href="file:///etc/passwd"/>'))],
  ['a cid: URL naming no part', mtomPost(includeIn('<xop:Include href="cid:missing"/>'))],
  ['a cid: URL naming the root part', mtomPost(includeIn('<xop:Include href="cid:root.message@example.org"/>'))],
  ['a cid: URL with a broken escape', mtomPost(includeIn('<xop:Include href="cid:%E0%A4%A"/>'))],
  ['a part named twice', mtomPost(includeIn('<xop:Include href="cid:a"/></m:Data><m:Data><xop:Include href="cid:a"/>'))],
  ['an Include with a child element', mtomPost(includeIn('<xop:Include href="cid:a"><xop:Include href="cid:a"/></xop:Include>'))],
  ['an Include with text', mtomPost(includeIn('<xop:Include href="cid:a">text</xop:Include>'))],
  ['an Include with another attribute', mtomPost(includeIn('<xop:Include href="cid:a" id="x"/>'))],
  ['an Include without href', mtomPost(includeIn('<xop:Include/>'))],
  ['an Include beside text', mtomPost(includeIn('text<xop:Include href="cid:a"/>'))],
  ['an Include beside an element', mtomPost(includeIn('<xop:Include href="cid:a"/><m:More/>'))]
])

// ------------------------------------------------------------------ checks

function requestVersion (bytes: Buffer | string): SoapVersion {
  const raw = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes)
  const head = raw.subarray(0, raw.indexOf('\r\n\r\n')).toString('latin1')
  return /\r\ncontent-type:[ \t]*text\/xml/i.test(head) ? '1.1' : '1.2'
}

function checkEmpty (t: TestContext, answer: RawResponse): void {
  t.assert.strictEqual(answer.headers['content-length'], '0', 'Content-Length: 0')
  t.assert.strictEqual(answer.body.length, 0, `no body, got ${answer.body.toString().slice(0, 200)}`)
  t.assert.strictEqual(answer.headers['content-type'], undefined, 'no Content-Type')
  t.assert.strictEqual(answer.headers['transfer-encoding'], undefined, 'not chunked')
}

async function checkFault (t: TestContext, version: SoapVersion, fault: FaultName, status: number, answer: RawResponse): Promise<void> {
  const body = answer.body.toString('utf8')
  const names11 = ['Client', 'Server', 'VersionMismatch', 'MustUnderstand']
  const names12 = ['Sender', 'Receiver', 'VersionMismatch', 'MustUnderstand']
  t.assert.ok((version === '1.1' ? names11 : names12).includes(fault), `the table names a SOAP ${version} fault code, not ${fault}`)
  t.assert.strictEqual(status, version === '1.2' && fault === 'Sender' ? 400 : 500, 'the table\'s status follows Part 2 Table 20 / BP R1126')
  t.assert.strictEqual(answer.headers['content-type'], MEDIA[version], 'a fault in the media type\'s version')
  t.assert.strictEqual(Number(answer.headers['content-length']), answer.body.length, 'exact Content-Length')
  await assertValidEnvelope(t, body, version, `the fault validates (${body})`)
  const envelopeTag = /^(?:<\?xml[^>]*\?>)?\s*<([A-Za-z_][\w.-]*):Envelope\b[^>]*>/.exec(body)
  t.assert.ok(envelopeTag !== null, `an Envelope: ${body}`)
  const prefix = envelopeTag[1]
  t.assert.ok(envelopeTag[0].includes(`xmlns:${prefix}="${envNs(version)}"`), `the ${version} envelope namespace`)
  if (version === '1.2') {
    t.assert.ok(body.includes(`<${prefix}:Code><${prefix}:Value>${prefix}:${fault}</${prefix}:Value>`), `code ${fault}: ${body}`)
  } else {
    t.assert.ok(body.includes(`<faultcode>${prefix}:${fault}</faultcode>`), `faultcode ${fault}: ${body}`)
  }
  if (fault === 'VersionMismatch') {
    t.assert.match(body, /:Upgrade\b/, 'an Upgrade header block')
    t.assert.ok(body.includes(SOAP11_ENV) && body.includes(SOAP12_ENV), 'both supported envelopes listed')
  }
  if (fault === 'MustUnderstand' && version === '1.2') t.assert.match(body, /:NotUnderstood qname="/, 'a NotUnderstood block')
  t.assert.ok(!/\bat [^\s]+ \(.*:\d+:\d+\)|\.js:\d+/.test(body), 'no stack on the wire')
}

async function check (t: TestContext, c: Case, answer: RawResponse | undefined): Promise<void> {
  t.assert.ok(answer !== undefined, 'an answer')
  const { expect } = c
  t.assert.strictEqual(answer.status, expect.status, `status: ${answer.body.toString().slice(0, 300)}`)
  if (expect.empty === true) checkEmpty(t, answer)
  if (expect.allow !== undefined) t.assert.strictEqual(answer.headers.allow, expect.allow)
  const version = requestVersion(c.bytes)
  if (expect.fault !== undefined) await checkFault(t, version, expect.fault, expect.status, answer)
  if (expect.status === 200) {
    t.assert.strictEqual(answer.headers['content-type'], MEDIA[version])
    const decoded = decodedOf(answer.body.toString('utf8'))
    t.assert.strictEqual(decoded.version, version)
    for (const [key, value] of Object.entries(expect.decoded ?? {})) {
      t.assert.deepStrictEqual(decoded[key as keyof Decoded], value, key)
    }
  }
}

async function healthy (t: TestContext, port: number): Promise<void> {
  const [answer] = await rawExchange(port, HEALTHY, 1, 3000)
  t.assert.strictEqual(answer?.status, 200, 'the server still answers a healthy request')
  t.assert.strictEqual(decodedOf(answer.body.toString('utf8')).payload, '{urn:health}Ping')
}

// ------------------------------------------------------------------- tests

const ports = { main: 0, limits: 0 }

before(async (context) => {
  const t = context as TestContext
  ports.main = await listen(await buildApp(t))
  ports.limits = await listen(await buildApp(t, LIMITS))
})

const seen = new Set<string>()
for (const c of CASES) {
  const title = `${c.rule}: ${c.name}`
  if (seen.has(title)) throw new Error(`duplicate case ${title}`)
  seen.add(title)
  test(title, { timeout: 10_000 }, async (t: TestContext) => {
    const port = c.server === 'limits' ? ports.limits : ports.main
    const [answer] = await rawExchange(port, c.bytes, 1, 5000)
    await check(t, c, answer)
    await healthy(t, port)
  })
}
