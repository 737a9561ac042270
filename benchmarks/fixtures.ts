/** Representative envelopes, built the same way every run. */
export const SOAP12 = 'http://www.w3.org/2003/05/soap-envelope'

/** The Calculator's Add, as a client sends it: about 400 bytes. */
export function addEnvelope (a = 2, b = 3): string {
  return '<?xml version="1.0" encoding="utf-8"?>' +
    `<soap:Envelope xmlns:soap="${SOAP12}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">` +
    '<soap:Header/><soap:Body><calc:Add xmlns:calc="urn:example:calc">' +
    `<calc:a>${a}</calc:a><calc:b>${b}</calc:b>` +
    '</calc:Add></soap:Body></soap:Envelope>'
}

/**
 * Operands for the Add, sent in turn: values of other lengths in the same
 * markup, as a client sends them, and each pair's sum 5 (the answer checked).
 */
export const ADDENDS: ReadonlyArray<readonly [number, number]> = [[2, 3], [17, -12], [250, -245], [-1, 6], [4096, -4091], [0, 5], [73, -68], [-512, 517]]

export const LIST_NS = 'urn:example:list'

/** A list of records, about `bytes` long: the shape of a large SOAP payload. */
export function listEnvelope (bytes: number): string {
  const head = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP12}"><soap:Body><l:EchoList xmlns:l="${LIST_NS}">`
  const tail = '</l:EchoList></soap:Body></soap:Envelope>'
  let items = ''
  for (let i = 0; head.length + items.length + tail.length < bytes; i++) {
    items += `<l:item id="${i}"><l:name>item ${i} &amp; co</l:name><l:price>${(i * 1.25).toFixed(2)}</l:price><l:tags>a b c</l:tags></l:item>`
  }
  return head + items + tail
}

/** A list of exactly `count` records (1,000: about 107 KB), the large workload of `npm run bench`. */
export function listEnvelopeOf (count: number): string {
  let items = ''
  for (let i = 0; i < count; i++) items += `<l:item id="${i}"><l:name>item ${i} &amp; co</l:name><l:price>${(i * 1.25).toFixed(2)}</l:price><l:tags>a b c</l:tags></l:item>`
  return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP12}"><soap:Body><l:EchoList xmlns:l="${LIST_NS}">${items}</l:EchoList></soap:Body></soap:Envelope>`
}

/** The same records as JSON, for the JSON baseline: `count` of them. */
export function listJson (count: number): string {
  const item = []
  for (let i = 0; i < count; i++) item.push({ id: i, name: `item ${i} & co`, price: Number((i * 1.25).toFixed(2)), tags: 'a b c' })
  return JSON.stringify({ item })
}

/** How many records listEnvelope(bytes) holds. */
export function listCount (envelope: string): number {
  return envelope.split('<l:item ').length - 1
}

export const UPLOAD_NS = 'urn:example:upload'
/** The upload workload's attachment: 10 MiB. */
export const UPLOAD_BYTES = 10 * 1024 * 1024
const XOP = 'http://www.w3.org/2004/08/xop/include'
const UPLOAD_BOUNDARY = 'uuid:3e1c5a7d-upload-bench'

/** The Upload request's envelope, its one `Data` element holding `data`: base64 text, or an xop:Include. */
function uploadEnvelope (data: string): string {
  return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP12}"><soap:Body>` +
    `<u:Upload xmlns:u="${UPLOAD_NS}"><u:Data>${data}</u:Data></u:Upload></soap:Body></soap:Envelope>`
}

/** The upload with its bytes inline: base64 on one line in the `Data` element, a SOAP 1.2 envelope. */
export function uploadBase64 (bytes: Buffer): { contentType: string, body: Buffer } {
  return { contentType: 'application/soap+xml; charset=utf-8; action="urn:example:upload/Upload"', body: Buffer.from(uploadEnvelope(bytes.toString('base64')), 'latin1') }
}

/** The same upload as MTOM: multipart/related, the envelope its root part, the bytes a raw part the `Data` element includes. */
export function uploadMtom (bytes: Buffer): { contentType: string, body: Buffer } {
  const root = uploadEnvelope(`<xop:Include xmlns:xop="${XOP}" href="cid:data@example.org"/>`)
  const head = `--${UPLOAD_BOUNDARY}\r\nContent-Type: application/xop+xml; charset=UTF-8; type="application/soap+xml"\r\n` +
    `Content-Transfer-Encoding: binary\r\nContent-ID: <root@example.org>\r\n\r\n${root}\r\n--${UPLOAD_BOUNDARY}\r\n` +
    'Content-Type: application/octet-stream\r\nContent-Transfer-Encoding: binary\r\nContent-ID: <data@example.org>\r\n\r\n'
  return {
    contentType: `multipart/related; type="application/xop+xml"; boundary="${UPLOAD_BOUNDARY}"; start="<root@example.org>"; ` +
      'start-info="application/soap+xml"; action="urn:example:upload/Upload"',
    body: Buffer.concat([Buffer.from(head, 'latin1'), bytes, Buffer.from(`\r\n--${UPLOAD_BOUNDARY}--\r\n`, 'latin1')])
  }
}

/**
 * The text workload's sentence: `&` (written `&amp;` in XML), `<` and `>`,
 * and characters of two, three and four UTF-8 bytes, in one line of 99 bytes.
 */
const SENTENCE = 'Grüße aus Köln & Zürich <naïve café> — 東京 & Αθήνα, 🌍 "quotes" & \'apostrophes\'. '

/** The text the text workloads echo: SENTENCE repeated until it is `bytes` long in UTF-8 (within 50 bytes), with a count at the end. */
export function echoText (bytes: number): string {
  const one = Buffer.byteLength(SENTENCE)
  const times = Math.max(1, Math.round(bytes / one))
  return SENTENCE.repeat(times) + `(${times} sentences)`
}

/** `text` as XML character data: `&`, `<` and `>` as entity references, everything else as is. */
export function xmlText (text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/** The Calculator's Echo of `text`, a SOAP 1.2 envelope. */
export function echoEnvelope (text: string): string {
  return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP12}"><soap:Body>` +
    `<calc:Echo xmlns:calc="urn:example:calc"><calc:text>${xmlText(text)}</calc:text></calc:Echo></soap:Body></soap:Envelope>`
}

/**
 * Character data with its references resolved: the five predefined entities
 * and numeric character references (a peer may write any character so).
 * Undefined when it holds an `&` that is none of these.
 */
export function unescapeXml (data: string): string | undefined {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: '\'' }
  let bad = false
  const out = data.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);|&/g, (whole, ref: string | undefined) => {
    if (ref === undefined) { bad = true; return whole }
    if (ref.startsWith('#x')) return String.fromCodePoint(parseInt(ref.slice(2), 16))
    if (ref.startsWith('#')) return String.fromCodePoint(parseInt(ref.slice(1), 10))
    if (named[ref] === undefined) bad = true
    return named[ref] ?? whole
  })
  return bad ? undefined : out
}

/** The text of an Echo's answer, its `text` element (with any prefix) resolved; undefined when there is none. */
export function echoedText (body: string): string | undefined {
  const match = /<(?:[\w.-]+:)?text(?:\s[^>]*)?>([^<]*)<\/(?:[\w.-]+:)?text>/.exec(body)
  return match === null ? undefined : unescapeXml(match[1])
}
