/**
 * `npm run bench:micro`: the decoder alone (bytes → request.soap's data), in MB/s,
 * at 400 B, 10 KB, 100 KB and 1 MB, beside @xmldom/xmldom's DOMParser and
 * saxes (no-op handlers: well-formedness alone) on the same text in the same
 * run. Each measurement is bounded in time.
 */
import { DOMParser } from '@xmldom/xmldom'
import { SaxesParser } from 'saxes'
import { decodeText } from '../../lib/soap/charset'
import { EnvelopeDecoder } from '../../lib/soap/envelope'
import { normalizeOptions } from '../../lib/options'
import { ADDENDS, addEnvelope, listEnvelope, SOAP12 } from '../fixtures'
import { measure } from './measure'

const limits = normalizeOptions({ bodyLimit: 16 * 1024 * 1024, maxElements: 1_000_000 }).limits
// Each message read as if it were the first of its shape: the reader's own speed.
const decoder = new EnvelopeDecoder(limits, { shapes: false })
const sizes: Array<[string, string]> = [
  ['400 B', addEnvelope()],
  ['1 KB', listEnvelope(1024)],
  ['10 KB', listEnvelope(10 * 1024)],
  ['100 KB', listEnvelope(100 * 1024)],
  ['1 MB', listEnvelope(1024 * 1024)]
]

console.log('| size | fastify-soap decode MB/s | xmldom parse MB/s | saxes, no-op handlers, MB/s | decode / xmldom | decode / saxes | ns per byte |')
console.log('|---|---|---|---|---|---|---|')
const perByte: number[] = []
for (const [name, xml] of sizes) {
  const bytes = Buffer.from(xml)
  const ours = measure(() => {
    const { text, encoding } = decodeText(bytes, 'utf-8')
    decoder.decode(text, SOAP12, encoding)
  }, bytes.length)
  const parser = new DOMParser()
  const xmldom = measure(() => { parser.parseFromString(bytes.toString('utf8'), 'text/xml') }, bytes.length)
  const saxes = measure(() => {
    const sax = new SaxesParser({ xmlns: true, position: false })
    sax.on('opentag', () => {})
    sax.write(bytes.toString('utf8')).close()
  }, bytes.length)
  perByte.push(1000 / ours)
  console.log(`| ${name} (${bytes.length} B) | ${ours.toFixed(1)} | ${xmldom.toFixed(1)} | ${saxes.toFixed(1)} | ${(ours / xmldom).toFixed(2)}× | ${(ours / saxes).toFixed(2)}× | ${(1000 / ours).toFixed(2)} |`)
}
const fromOneK = perByte.slice(1)
console.log(`\ndecode cost per byte, 1 KB to 1 MB: max/min = ${(Math.max(...fromOneK) / Math.min(...fromOneK)).toFixed(2)} (flat is 1.00)`)

// A message with the last one's markup is decoded from that one's tree (shapes,
// lib/soap/envelope.ts): the Add of a client that sends it again with other values.
const shaped = new EnvelopeDecoder(limits)
const adds = ADDENDS.map(([a, b]) => Buffer.from(addEnvelope(a, b)))
let next = 0
const first = measure(() => {
  const { text, encoding } = decodeText(adds[next++ % adds.length], 'utf-8')
  decoder.decode(text, SOAP12, encoding)
}, adds[0].length)
const again = measure(() => {
  const { text, encoding } = decodeText(adds[next++ % adds.length], 'utf-8')
  shaped.decode(text, SOAP12, encoding)
}, adds[0].length)
console.log(`400 B Add with other values each time: read anew ${first.toFixed(1)} MB/s, decoded again from its shape ${again.toFixed(1)} MB/s (${(again / first).toFixed(2)}×)`)
