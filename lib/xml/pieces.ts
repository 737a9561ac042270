/**
 * A long text and the flat strings it was joined from, handed from the one
 * who wrote it to the one who encodes it. V8 keeps a text joined piece by
 * piece as pairs of strings, and makes it one string the first time
 * anything reads it whole: encoding it to UTF-8 does. A string of more than
 * 128 KiB is a large object, whose memory is mapped anew, page by page, each
 * time: for a reply of 1 MB, about 260 page faults and half a millisecond
 * (docs/benchmarks.md "Where the time goes", a reply's pieces). Encoded piece by piece, the text
 * is never made one string.
 *
 * One text is recorded at a time, and taken by the next reader, synchronously:
 * the writer records its element, the envelope writer takes it and records the
 * envelope, the reply's last hook takes that. A text that is not the one
 * recorded (another reply, or one a hook wrote) gets undefined, and is
 * encoded whole. Nothing is kept past the next reader.
 */

let recordedText: string | undefined
let recordedPieces: readonly string[] | undefined

/** Records that `text` is `pieces` joined, in order. */
export function recordPieces (text: string, pieces: readonly string[]): void {
  recordedText = text
  recordedPieces = pieces
}

/** The pieces recorded for `text`, if it is the text recorded; nothing is recorded after. */
export function takePieces (text: string | undefined): readonly string[] | undefined {
  const pieces = recordedPieces
  // A string compares with === by value: equal texts have equal pieces.
  const same = text !== undefined && recordedText !== undefined && recordedText === text
  recordedText = undefined
  recordedPieces = undefined
  return same ? pieces : undefined
}
