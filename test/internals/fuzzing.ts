import fc from 'fast-check'
import type { Encoding } from '../../lib/soap/charset'
import type { EnvelopeDecoder, DecodedEnvelope } from '../../lib/soap/envelope'
import { elementsAt } from '../../lib/xml/tree'

/** Documents made by a few random edits (cut, and insert pieces of `alphabet`) of one of `seeds`. */
export function mutations (seeds: readonly string[], alphabet: readonly string[], maxEdits = 3): fc.Arbitrary<string> {
  return fc.record({
    seed: fc.constantFrom(...seeds),
    edits: fc.array(fc.record({ at: fc.nat(), remove: fc.nat({ max: 4 }), insert: fc.array(fc.constantFrom(...alphabet), { maxLength: 3 }) }), { minLength: 1, maxLength: maxEdits })
  }).map(({ seed, edits }) => {
    let text = seed
    for (const edit of edits) {
      const at = edit.at % (text.length + 1)
      text = text.slice(0, at) + edit.insert.join('') + text.slice(at + edit.remove)
    }
    return text
  })
}

/**
 * The least CPU time (user and system, in microseconds) of `runs` runs of
 * `fn`: a bound on its cost less the machine's noise. CPU time rather than
 * wall time, so that other processes busy on the machine do not count.
 */
export function fastest (runs: number, fn: () => void): number {
  let best = Infinity
  for (let i = 0; i < runs; i++) {
    const started = process.cpuUsage()
    fn()
    const used = process.cpuUsage(started)
    best = Math.min(best, used.user + used.system)
  }
  return best
}

/** How a message is decoded: the Envelope namespace expected, the charset, and whether the Content-Type named it. */
export interface DecodeSetting { envelope: string, encoding: Encoding, charsetDeclared: boolean }

/**
 * What `decoder` makes of `text`, in a form to compare: the decoded envelope
 * (its tree's names, header blocks and payload as plain data), or the
 * error's code and message. Any error but the decoder's own is thrown.
 */
export function decodeOutcome (decoder: EnvelopeDecoder, text: string, setting: DecodeSetting): unknown {
  let decoded: DecodedEnvelope
  try {
    decoded = decoder.decode(text, setting.envelope, setting.encoding, setting.charsetDeclared)
  } catch (err) {
    const { code, message } = err as { code?: unknown, message: string }
    if (typeof code !== 'string' || !code.startsWith('SOAP_ERR_')) throw err
    return { code, message }
  }
  const { namespace, mismatch, hasHeader, senderFault, elements, tree, headerNodes, bodyNodes } = decoded
  const [headers, body] = [elementsAt(tree, headerNodes), elementsAt(tree, bodyNodes)]
  return { namespace, mismatch, hasHeader, senderFault, elements, names: tree.names, headers, body }
}
