/**
 * `npm run bench:micro`, third part: fastify-soap's stages one by one, for
 * the records (EchoList) and the text (Echo) of `npm run bench`'s large
 * workloads, at 1 KB, 100 KB and 1 MB, beside JSON.parse and JSON.stringify
 * of the same data and @rgrove/parse-xml (a pure-JavaScript XML parser: the
 * parsing reference) reading the same envelope, in the same process.
 *   decode        the request's bytes → the decoded tree (envelope decoder, shapes off)
 *   codec read    the tree → the operation's input object (its input schema's compiled reader, as the server reads it)
 *   validate      the input object, by its schema's ajv validator
 *   codec write   the result (the same object) → the response envelope's UTF-8 bytes
 * Each in MB/s of its message: the request envelope's bytes for decode, read
 * and validate, the response envelope's for write, the JSON text's for
 * JSON.parse and JSON.stringify (their output's bytes). The second table
 * gives the same as µs per message (the text's codec read and validation
 * take a string from the tree and check its type: their MB/s are huge, their
 * µs tiny). Every case is first run for 300 ms; then each measurement runs
 * BENCH_MS (1500) ms after a warm-up: 42 of them, about 70 s.
 */
import { parseXml } from '@rgrove/parse-xml'
import { decodeText } from '../../lib/soap/charset'
import { EnvelopeDecoder } from '../../lib/soap/envelope'
import { normalizeOptions } from '../../lib/options'
import { readCompiled } from '../../lib/codec/read-compiled'
import { compile, createAjv } from '../../lib/codec/validation'
import { compileElement } from '../../lib/codec/write'
import { prefixesFor } from '../../lib/codec/prefixes'
import { shapeOf, usesXsi, type ObjectShape } from '../../lib/codec/shapes'
import { versionInfo } from '../../lib/namespaces'
import { writeEnvelope } from '../../lib/soap/writer'
import { CALC_NS, calculator } from '../../test/demo/app'
import { echoEnvelope, echoText, LIST_NS, listCount, listEnvelope, listJson, SOAP12 } from '../fixtures'
import { listService } from '../http/services'
import { measure } from './measure'

const limits = normalizeOptions({ bodyLimit: 16 * 1024 * 1024, maxElements: 1_000_000 }).limits
const decoder = new EnvelopeDecoder(limits, { shapes: false })
const ajv = createAjv()
const version = versionInfo('1.2')

interface Operation { name: string, namespace: string, input?: unknown, output?: unknown }

/** What the server compiles for an operation: its input's reader and validator, its output's writer. */
function compiled ({ name, namespace, input, output }: Operation): { read: ObjectShape, validate: (value: unknown) => boolean, write: (value: unknown) => string } {
  const inShape = shapeOf(input, `${name}.input`, namespace) as ObjectShape
  const outShape = shapeOf(output, `${name}.output`, namespace) as ObjectShape
  const write = compileElement(outShape, `${name}Response`, namespace, prefixesFor(outShape, namespace, output as Record<string, unknown>, `${name}.output`), usesXsi(outShape))
  const validate = compile(ajv, input as object, `${name}.input`)
  return { read: inShape, validate: (value) => validate(value) as boolean, write }
}

const list = compiled({ name: 'EchoList', namespace: LIST_NS, ...listService.operations.EchoList })
const echo = compiled({ name: 'Echo', namespace: CALC_NS, ...calculator.operations.Echo })

interface Case { payload: string, size: string, envelope: Buffer, json: string, op: typeof list }

const KB = 1024
const cases: Case[] = []
for (const [size, bytes] of [['1 KB', KB], ['100 KB', 100 * KB], ['1 MB', 1024 * KB]] as const) {
  const records = listEnvelope(bytes)
  cases.push({ payload: 'records', size, envelope: Buffer.from(records), json: listJson(listCount(records)), op: list })
}
for (const [size, bytes] of [['1 KB', KB], ['100 KB', 100 * KB], ['1 MB', 1024 * KB]] as const) {
  const text = echoText(bytes - 200)
  cases.push({ payload: 'text', size, envelope: Buffer.from(echoEnvelope(text)), json: JSON.stringify({ text }), op: echo })
}

/** Every stage of every case run for WARM_MS first, so that the first case measured is not the one that pays for compiling. */
const WARM_MS = 300
for (const c of cases) {
  const until = Date.now() + WARM_MS
  while (Date.now() < until) {
    const { text, encoding } = decodeText(c.envelope, 'utf-8')
    const decoded = decoder.decode(text, SOAP12, encoding)
    const input = readCompiled(c.op.read, decoded.tree, decoded.bodyNodes[0])
    c.op.validate(input)
    Buffer.from(writeEnvelope(version, c.op.write(input)))
    JSON.stringify(JSON.parse(c.json))
    parseXml(c.envelope.toString('utf8'))
  }
}

const rate = (mbs: number): string => mbs.toFixed(1)
const micros = (mbs: number, bytes: number): string => (bytes / mbs).toFixed(bytes / mbs < 10 ? 2 : 0)

console.log('\n| payload | size (envelope / JSON) | decode MB/s | codec read MB/s | validate MB/s | codec write MB/s | all four MB/s | JSON.parse MB/s | JSON.stringify MB/s | JSON both MB/s | @rgrove/parse-xml MB/s | time: all four ÷ JSON both | decode ÷ parse-xml MB/s |')
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|')
const timings: string[] = []
for (const c of cases) {
  const bytes = c.envelope.length
  const decodeOnce = (): ReturnType<EnvelopeDecoder['decode']> => {
    const { text, encoding } = decodeText(c.envelope, 'utf-8')
    return decoder.decode(text, SOAP12, encoding)
  }
  const decode = measure(() => { decodeOnce() }, bytes)
  // The codec reads the tree of the last decode: this message's.
  const decoded = decodeOnce()
  const input = readCompiled(c.op.read, decoded.tree, decoded.bodyNodes[0])
  const read = measure(() => { readCompiled(c.op.read, decoded.tree, decoded.bodyNodes[0]) }, bytes)
  if (!c.op.validate(input)) throw new Error(`${c.payload} ${c.size}: the input does not validate`)
  const validate = measure(() => { c.op.validate(input) }, bytes)
  const reply = Buffer.from(writeEnvelope(version, c.op.write(input)))
  const write = measure(() => { Buffer.from(writeEnvelope(version, c.op.write(input))) }, reply.length)
  const value: unknown = JSON.parse(c.json)
  const jsonBytes = Buffer.byteLength(c.json)
  const parse = measure(() => { JSON.parse(c.json) }, jsonBytes)
  const stringify = measure(() => { Buffer.from(JSON.stringify(value)) }, jsonBytes)
  const envelopeText = c.envelope.toString('utf8')
  const reference = measure(() => { parseXml(envelopeText) }, bytes)
  // Time per message of each stage, µs: bytes ÷ MB/s.
  const soapUs = bytes / decode + bytes / read + bytes / validate + reply.length / write
  const jsonUs = jsonBytes / parse + jsonBytes / stringify
  const all = bytes / soapUs
  const jsonBoth = jsonBytes / jsonUs
  console.log(`| ${c.payload} | ${c.size} (${bytes} B / ${jsonBytes} B) | ${rate(decode)} | ${rate(read)} | ${rate(validate)} | ${rate(write)} | ${rate(all)} | ` +
    `${rate(parse)} | ${rate(stringify)} | ${rate(jsonBoth)} | ${rate(reference)} | ${(soapUs / jsonUs).toFixed(2)} | ${(decode / reference).toFixed(2)}× |`)
  timings.push(`| ${c.payload} | ${c.size} | ${micros(decode, bytes)} | ${micros(read, bytes)} | ${micros(validate, bytes)} | ${micros(write, reply.length)} | ${soapUs.toFixed(soapUs < 10 ? 2 : 0)} | ` +
    `${micros(parse, jsonBytes)} | ${micros(stringify, jsonBytes)} | ${jsonUs.toFixed(jsonUs < 10 ? 2 : 0)} | ${micros(reference, bytes)} |`)
}
console.log('\n| payload | size | decode µs | codec read µs | validate µs | codec write µs | all four µs | JSON.parse µs | JSON.stringify µs | JSON both µs | @rgrove/parse-xml µs |')
console.log('|---|---|---|---|---|---|---|---|---|---|---|')
for (const line of timings) console.log(line)
