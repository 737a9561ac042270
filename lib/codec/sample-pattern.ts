/**
 * Strings that match a pattern (the ECMAScript regular expression of a
 * schema's `pattern`, `u` flag), for samples (lib/codec/sample.ts): the
 * pattern read into alternatives, groups, quantified atoms; an atom (a
 * character, a class, an escape such as `\d` or `\p{L}`) made a character by
 * trying candidates against the atom itself. Lookarounds, anchors and word
 * boundaries produce nothing; the caller checks the whole string against the
 * whole pattern and asks again with other choices when it fails
 * (docs/mock.md "Sample values").
 */

/** A source of choices: the same seed gives the same strings. */
export type Random = () => number

/** mulberry32: a small seeded generator of numbers in [0, 1). */
export function random (seed: number): Random {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6D2B79F5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

type Node =
  | { readonly kind: 'alt', readonly branches: ReadonlyArray<readonly Term[]> }
  | { readonly kind: 'atom', readonly test: RegExp }
  | { readonly kind: 'empty' }

interface Term { readonly node: Node, readonly min: number, readonly max: number }

/**
 * Characters tried for an atom, in this order (rotated by the random source): printable ASCII first, then a few
 * others.
 */
const CANDIDATES = [...'aZ0bY1cX2dW3eV4fU5gT6hS7iR8jQ9kPlOmNnMoLpKqJrIsHtGuFvEwDxCyBzA',
  ...'-_.:/@+ ,;=!#$%&*()[]{}<>?|~^\'"`\\', 'é', 'ß', 'Ω', 'Ж', '中', '\u00a0', '\t', '\n', '٣', '①']

class Parser {
  private i = 0
  constructor (private readonly source: string) {}

  parse (): Node {
    const node = this.alternatives()
    return node
  }

  private alternatives (): Node {
    const branches: Term[][] = [[]]
    while (this.i < this.source.length) {
      const c = this.source[this.i]
      if (c === ')') break
      if (c === '|') {
        this.i++
        branches.push([])
        continue
      }
      const node = this.atom()
      const [min, max] = this.quantifier()
      branches[branches.length - 1].push({ node, min, max })
    }
    return { kind: 'alt', branches }
  }

  private atom (): Node {
    const s = this.source
    const c = s[this.i]
    if (c === '(') {
      this.i++
      let skip = false
      if (s.startsWith('?:', this.i)) this.i += 2
      else if (/^\?<?[=!]/.test(s.slice(this.i, this.i + 3))) {
        // A lookahead (?= ?!) or lookbehind (?<= ?<!): matched, not produced.
        this.i += s[this.i + 1] === '<' ? 3 : 2
        skip = true
      } else if (s.startsWith('?<', this.i)) this.i = s.indexOf('>', this.i) + 1
      const inner = this.alternatives()
      this.i++
      return skip ? { kind: 'empty' } : inner
    }
    if (c === '^' || c === '$') {
      this.i++
      return { kind: 'empty' }
    }
    const start = this.i
    if (c === '[') {
      this.i++
      if (s[this.i] === '^') this.i++
      if (s[this.i] === ']') this.i++
      while (this.i < s.length && s[this.i] !== ']') this.i += s[this.i] === '\\' ? 2 : 1
      this.i++
    } else if (c === '\\') {
      const next = s[this.i + 1]
      if (next === 'b' || next === 'B' || /[1-9]/.test(next)) {
        this.i += 2
        return { kind: 'empty' }
      }
      this.i += 2
      const braced = next === 'p' || next === 'P' || next === 'u' || next === 'x'
      if (braced && s[this.i] === '{') this.i = s.indexOf('}', this.i) + 1
      else if (next === 'u') this.i += 4
      else if (next === 'x') this.i += 2
      else if (next === 'c') this.i += 1
    } else {
      this.i += (s.codePointAt(this.i) as number) > 0xFFFF ? 2 : 1
    }
    return { kind: 'atom', test: new RegExp(`^(?:${s.slice(start, this.i)})$`, 'u') }
  }

  private quantifier (): [number, number] {
    const s = this.source
    const c = s[this.i]
    let out: [number, number] = [1, 1]
    if (c === '*') out = [0, Infinity]
    else if (c === '+') out = [1, Infinity]
    else if (c === '?') out = [0, 1]
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(s.slice(this.i))
      if (m === null) return out
      this.i += m[0].length - 1
      out = [Number(m[1]), m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3])]
    } else {
      return out
    }
    this.i++
    if (s[this.i] === '?') this.i++
    return out
  }
}

/** The pattern read once; undefined when it is beyond this reader (the caller then has no string to offer). */
export function readPattern (pattern: string): Node | undefined {
  try {
    return new Parser(pattern).parse()
  } catch {
    return undefined
  }
}

/**
 * One string the pattern's structure gives, choices made by `rng`: `spread`
 * is how many repetitions beyond the least a quantifier may add (more for a
 * later try, so that a length can be reached).
 */
export function generate (node: Node, rng: Random, spread: number, budget = { left: 10_000 }): string {
  if (budget.left-- <= 0) return ''
  if (node.kind === 'empty') return ''
  if (node.kind === 'atom') {
    const offset = Math.floor(rng() * CANDIDATES.length)
    for (let k = 0; k < CANDIDATES.length; k++) {
      const c = CANDIDATES[(k + offset) % CANDIDATES.length]
      if (node.test.test(c)) return c
    }
    return ''
  }
  const branch = node.branches[Math.floor(rng() * node.branches.length)]
  let out = ''
  for (const term of branch) {
    const most = Math.min(term.max, term.min + spread)
    const count = term.min + Math.floor(rng() * (most - term.min + 1))
    for (let k = 0; k < count; k++) out += generate(term.node, rng, spread, budget)
  }
  return out
}
