/** A document's markup, recognised again in the next documents (the decoder's shapes, soap/shapes.ts). */
import { NextOf } from './chars'

/**
 * A document's markup: everything but its character data, as the pieces
 * between its text runs. Documents repeat their markup: a client sends the
 * same tags, attributes and declarations each time, and only values change.
 * A document that holds the same pieces in the same order, with text runs
 * between them that stand as written, is read by `XmlReader` exactly as the
 * first one was, but for those runs' characters: the reader's every decision
 * about markup rests on the markup's own characters. Whether its characters
 * are all allowed is not checked here (`disallowedAt`).
 */
export class Markup {
  // The next '&', CR and "]]>" of the document being matched, each part of it searched once.
  readonly #amp = new NextOf('&')
  readonly #cr = new NextOf('\r')
  readonly #cdataEnd = new NextOf(']]>')
  readonly #pieces: readonly string[]

  private constructor (pieces: readonly string[]) {
    this.#pieces = pieces
  }

  /** The markup of `source`, read with its character data at `runs` (`XmlReader.plainRuns`). */
  static of (source: string, runs: readonly number[]): Markup {
    const pieces: string[] = []
    let at = 0
    for (let k = 0; k < runs.length; k += 2) {
      pieces.push(source.slice(at, runs[k]))
      at = runs[k + 1]
    }
    pieces.push(source.slice(at))
    return new Markup(pieces)
  }

  /**
   * Whether `s` is this markup around text runs that stand as written, as
   * the reader's `#text` tests them (no '&', CR or "]]>"), none empty (each
   * a run ends at the next '<'). If so, their [from, to) pairs are in `runs`.
   */
  match (s: string, runs: number[]): boolean {
    const pieces = this.#pieces
    const last = pieces.length - 1
    const amp = this.#amp
    const cr = this.#cr
    const cdataEnd = this.#cdataEnd
    amp.reset()
    cr.reset()
    cdataEnd.reset()
    let at = 0
    for (let k = 0; k < last; k++) {
      // (A slice compared with `===` is several times faster than `startsWith`, which reads a character at a time.)
      const from = at + pieces[k].length
      if (s.slice(at, from) !== pieces[k]) return false
      const to = s.indexOf('<', from)
      if (to <= from || amp.from(s, from) < to || cr.from(s, from) < to || cdataEnd.from(s, from) < to) return false
      runs[2 * k] = from
      runs[2 * k + 1] = to
      at = to
    }
    return s.slice(at) === pieces[last]
  }
}
