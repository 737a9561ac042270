/**
 * `npm run bench:micro`, second part: the schema codec's writer alone (a
 * result → the response envelope's text), in MB/s of output, for the List
 * service's EchoListResponse at 400 B to 1 MB, beside JSON.stringify of the
 * same records in the same run. Each measurement is bounded in time.
 */
import { compileElement } from '../../lib/codec/write'
import { versionInfo } from '../../lib/namespaces'
import { usesXsi, shapeOf, type ObjectShape } from '../../lib/codec/shapes'
import { prefixesFor } from '../../lib/codec/prefixes'
import { writeEnvelope } from '../../lib/soap/writer'
import { LIST_NS } from '../fixtures'
import { listService } from '../http/services'
import { measure } from './measure'

const schema = listService.operations.EchoList.output as unknown as Record<string, unknown>
const shape = shapeOf(schema, 'EchoList.output', LIST_NS) as ObjectShape
const write = compileElement(shape, 'EchoListResponse', LIST_NS, prefixesFor(shape, LIST_NS, schema, 'EchoList.output'), usesXsi(shape))
const version = versionInfo('1.2')

function records (count: number): { item: Array<{ id: number, name: string, price: number, tags: string }> } {
  const item = []
  for (let i = 0; i < count; i++) item.push({ id: i, name: `item ${i} & co`, price: i * 1.25, tags: 'a b c' })
  return { item }
}

const sizes: Array<[string, number]> = [['400 B', 2], ['1 KB', 8], ['10 KB', 95], ['100 KB', 960], ['1 MB', 9800]]

console.log('\n| size | fastify-soap serialize MB/s | JSON.stringify MB/s | serialize / JSON.stringify | ns per output byte |')
console.log('|---|---|---|---|---|')
const perByte: number[] = []
for (const [name, count] of sizes) {
  const value = records(count)
  const out = writeEnvelope(version, write(value))
  const bytes = Buffer.byteLength(out)
  const ours = measure(() => { Buffer.from(writeEnvelope(version, write(value))) }, bytes)
  const json = JSON.stringify(value)
  const jsonMBs = measure(() => { Buffer.from(JSON.stringify(value)) }, Buffer.byteLength(json))
  perByte.push(1000 / ours)
  console.log(`| ${name} (${bytes} B) | ${ours.toFixed(1)} | ${jsonMBs.toFixed(1)} | ${(ours / jsonMBs).toFixed(2)}× | ${(1000 / ours).toFixed(2)} |`)
}
const fromOneK = perByte.slice(1)
console.log(`\nserialize cost per byte, 1 KB to 1 MB: max/min = ${(Math.max(...fromOneK) / Math.min(...fromOneK)).toFixed(2)} (flat is 1.00)`)
