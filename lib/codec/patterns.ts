/**
 * Patterns in linear time (docs/protocol.md "Limits", linear cost): the `pattern`
 * of a schema, an ECMAScript regular expression (with the `u` flag Ajv
 * gives), runs on RE2 (re2js), which matches in time proportional to the
 * text, never backtracking. The pattern is written again in RE2's syntax,
 * keeping ECMAScript's meaning where the two differ: `.` and `\s` (whose
 * line ends and spaces are Unicode's in ECMAScript), `[]` and `[^]`,
 * escapes of code points. A lookahead at the start of a pattern anchored by
 * `^` is a conjunction, run as a pattern of its own; other lookarounds and
 * backreferences have no linear-time form and are refused.
 */
import { RE2JS } from 're2js'

const TIME_ZONE = '(Z|[+-][0-9]{2}:[0-9]{2})?'
// A year of four digits or more, no leading zero past four, and not 0000; a month; a day; a day of its month.
const YEAR = '-?([1-9][0-9]{3,}|0([1-9][0-9]{2}|0([1-9][0-9]|0[1-9])))'
const MONTH = '(0[1-9]|1[0-2])'
const DAY = '(0[1-9]|[12][0-9]|3[01])'
const DAY_30 = '(0[1-9]|[12][0-9]|30)'
const MONTH_DAY = `(0(2-(0[1-9]|[12][0-9])|[469]-${DAY_30}|[13578]-${DAY})|1(1-${DAY_30}|[02]-${DAY}))`
// xs:duration's items, each a number and its designator, in order: the next character says which comes. Seconds
// may be written 1.5, 1. or .5 (as xmllint reads them, and XML Schema 1.1 writes).
const SECONDS = '(\\.[0-9]*)?S'
const FRACTION = '\\.[0-9]+S'
const AFTER_MINUTES = `([0-9]+${SECONDS}|${FRACTION})?`
const AFTER_HOURS = `([0-9]+(M${AFTER_MINUTES}|${SECONDS})|${FRACTION})?`
const DURATION_TIME = `T([0-9]+(H${AFTER_HOURS}|M${AFTER_MINUTES}|${SECONDS})|${FRACTION})`
const DURATION_DATE = '(Y([0-9]+(M([0-9]+D)?|D))?|M([0-9]+D)?|D)'

/**
 * The lexical forms of XML Schema's xs:decimal, xs:date, xs:dateTime and
 * xs:time, and of xs:duration and the Gregorian types (XML Schema 1.0 Part
 * 2 §3.2.6, §3.2.9-3.2.13), which the contract reader gives those types.
 * They run on V8's engine, linear for them: each is anchored at both ends
 * and deterministic (the next character alone says which branch or
 * repetition goes on: a repeated class is followed by a character it does
 * not hold, or by a count of its own), so a match is tried once, from the
 * start, and never split again. On a value of a few characters V8 takes
 * about 30 ns, RE2 (re2js) about 600.
 */
export const LEXICAL_PATTERNS: Readonly<Record<string, string>> = {
  decimal: '^[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)$',
  date: `^-?[0-9]{4,}-[0-9]{2}-[0-9]{2}${TIME_ZONE}$`,
  dateTime: `^-?[0-9]{4,}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?${TIME_ZONE}$`,
  time: `^[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?${TIME_ZONE}$`,
  // At least one item; T only before a time item.
  duration: `^-?P([0-9]+${DURATION_DATE}(${DURATION_TIME})?|${DURATION_TIME})$`,
  gYear: `^${YEAR}${TIME_ZONE}$`,
  gYearMonth: `^${YEAR}-${MONTH}${TIME_ZONE}$`,
  gMonth: `^--${MONTH}${TIME_ZONE}$`,
  gMonthDay: `^--${MONTH_DAY}${TIME_ZONE}$`,
  gDay: `^---${DAY}${TIME_ZONE}$`
}
const LEXICAL: ReadonlySet<string> = new Set(Object.values(LEXICAL_PATTERNS))

// ajv-formats' `url` (a backtracking RegExp, `iu` flags: quadratic in a value of many `:`), as a pattern of the same
// language that runs on RE2: `\S+(?::\S*)?@` is `\S+@`; the private IPv4 ranges its lookaheads leave out are left out
// of the octets; the `i` flag is [a-zA-Z] (its other letters are within \u00a1-\uffff).
const OCTET = '(?:1?\\d{1,2}|2[0-4]\\d|25[0-5])'
const FIRST_OCTET = '(?:[1-9]|1[1-9]|[2-9]\\d|1[01]\\d|12[0-689]|1[3-5]\\d|16[0-8]|17[013-9]|18\\d|19[013-9]' +
  '|2[01]\\d|22[0-3])'
const PUBLIC_IPV4 = `(?:${FIRST_OCTET}(?:\\.${OCTET}){2}|169\\.(?:1?\\d{1,2}|2[0-4]\\d|25[0-35])\\.${OCTET}` +
  `|192\\.(?:\\d{1,2}|1\\d|1[0-57-9]\\d|16[0-79]|2[0-4]\\d|25[0-5])\\.${OCTET}` +
  `|172\\.(?:\\d|0\\d|1[0-5]|3[2-9]|[4-9]\\d|1\\d\\d|2[0-4]\\d|25[0-5])\\.${OCTET})` +
  '\\.(?:[1-9]\\d?|1\\d\\d|2[0-4]\\d|25[0-4])'
const LABEL = '(?:[a-zA-Z0-9\\u{a1}-\\u{ffff}]+-)*[a-zA-Z0-9\\u{a1}-\\u{ffff}]+'
const HOST = `${LABEL}(?:\\.${LABEL})*\\.[a-zA-Z\\u{a1}-\\u{ffff}]{2,}`
export const URL_PATTERN = '^(?:[hH][tT][tT][pP][sS]?|[fF][tT][pP]):\\/\\/(?:\\S+@)?' +
  `(?:${PUBLIC_IPV4}|${HOST})(?::\\d{2,5})?(?:\\/[^\\s]*)?$`

/** What Ajv asks of a regular expression (its `code.regExp` option). */
export interface LinearRegExp {
  test: (text: string) => boolean
  toString: () => string
}

// ECMAScript's white space and line terminators (ECMA-262 WhiteSpace, LineTerminator),
// and the code points that are neither.
const SPACES = '\\x{9}-\\x{d}\\x{20}\\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}' +
  '\\x{202f}\\x{205f}\\x{3000}\\x{feff}'
const NOT_SPACES = '\\x{0}-\\x{8}\\x{e}-\\x{1f}\\x{21}-\\x{9f}\\x{a1}-\\x{167f}\\x{1681}-\\x{1fff}\\x{200b}-\\x{2027}' +
  '\\x{202a}-\\x{202e}\\x{2030}-\\x{205e}\\x{2060}-\\x{2fff}\\x{3001}-\\x{fefe}\\x{ff00}-\\x{10ffff}'
const LINE_ENDS = '\\x{a}\\x{d}\\x{2028}\\x{2029}'
const ANY = '[\\x{0}-\\x{10ffff}]'
const NONE = '[^\\x{0}-\\x{10ffff}]'
const CONTROLS: Readonly<Record<string, number>> = { t: 9, n: 10, v: 11, f: 12, r: 13, 0: 0 }
const PROPERTY_PREFIX = /^(?:gc|General_Category|sc|Script)=/

const hex = (code: number): string => `\\x{${code.toString(16)}}`

/** The escape at `i` (a backslash) in RE2's syntax, and the index after it. */
function escape (source: string, i: number, inClass: boolean): [string, number] {
  const next = source[i + 1]
  if ('dDwW'.includes(next) || (!inClass && 'bB'.includes(next))) return ['\\' + next, i + 2]
  if (next === 'b') return [hex(8), i + 2]
  if (next === 's' || next === 'S') {
    const set = next === 's' ? SPACES : NOT_SPACES
    return [inClass ? set : `[${set}]`, i + 2]
  }
  if (next === 'p' || next === 'P') {
    const end = source.indexOf('}', i)
    const name = source.slice(i + 3, end)
    if (/^(?:scx|Script_Extensions)=/.test(name)) throw new Error(`\\${next}{${name}}: RE2 has no Script_Extensions`)
    return [`\\${next}{${name.replace(PROPERTY_PREFIX, '')}}`, end + 1]
  }
  if (next === 'u' && source[i + 2] === '{') {
    const end = source.indexOf('}', i)
    return [hex(parseInt(source.slice(i + 3, end), 16)), end + 1]
  }
  if (next === 'u') {
    const code = parseInt(source.slice(i + 2, i + 6), 16)
    const low = /^\\u[dD][c-fC-F][0-9a-fA-F]{2}/.test(source.slice(i + 6, i + 12))
      ? parseInt(source.slice(i + 8, i + 12), 16)
      : undefined
    // A surrogate pair, written as two escapes, is one code point with the `u` flag.
    if (code >= 0xd800 && code <= 0xdbff && low !== undefined) {
      return [hex((code - 0xd800) * 0x400 + low - 0xdc00 + 0x10000), i + 12]
    }
    return [hex(code), i + 6]
  }
  if (next === 'x') return [hex(parseInt(source.slice(i + 2, i + 4), 16)), i + 4]
  if (next === 'c') return [hex(source.charCodeAt(i + 2) % 32), i + 3]
  if (next === 'k' || (next >= '1' && next <= '9')) throw new Error('a backreference has no linear-time form')
  if (CONTROLS[next] !== undefined) return [hex(CONTROLS[next]), i + 2]
  // What is left is a syntax character (or `-` in a class), escaped: itself, which RE2 writes so too.
  return ['\\' + next, i + 2]
}

/** A character the pattern names as itself: ASCII punctuation escaped (RE2, not ECMAScript, reads `[:` in a class). */
function literal (c: string): string {
  return /[!-/:-@[-`{-~]/.test(c) ? '\\' + c : c
}

/** An ECMAScript pattern (valid with the `u` flag, holding no lookaround) in RE2's syntax. */
function translate (source: string): string {
  let out = ''
  let inClass = false
  let i = 0
  while (i < source.length) {
    const c = source[i]
    if (c === '\\') {
      const [text, next] = escape(source, i, inClass)
      out += text
      i = next
      continue
    }
    i++
    if (inClass) {
      // A range's `-` and the class's end are syntax; every other character is itself.
      out += c === ']' || c === '-' ? c : literal(c)
      inClass = c !== ']'
    } else if (c === '[') {
      // `[]` matches nothing and `[^]` anything, where RE2 would read a `]` in the class.
      if (source.startsWith(']', i) || source.startsWith('^]', i)) {
        out += source[i] === ']' ? NONE : ANY
        i += source[i] === ']' ? 1 : 2
        continue
      }
      inClass = true
      out += '['
      if (source[i] === '^') { out += '^'; i++ }
    } else if (c === '.') {
      out += `[^${LINE_ENDS}]`
    } else if (c === '(') {
      if (['?=', '?!', '?<=', '?<!'].some((look) => source.startsWith(look, i))) {
        throw new Error('a lookaround other than one at the start of a pattern anchored by ^ has no linear-time form')
      }
      // A named group groups; the name is no part of a test.
      if (source.startsWith('?<', i)) i = source.indexOf('>', i) + 1
      else if (source.startsWith('?:', i)) i += 2
      out += '(?:'
    } else {
      out += ')|*+?{},^$'.includes(c) ? c : literal(c)
    }
  }
  return out
}

/** The index of the `)` closing the group opened at `open`, and whether a `|` stands outside every group from there. */
function closing (source: string, open: number): { close: number, alternation: boolean } {
  let depth = 0
  let inClass = false
  let close = -1
  let alternation = false
  for (let i = open; i < source.length; i++) {
    const c = source[i]
    if (c === '\\') i++
    else if (inClass) inClass = c !== ']'
    else if (c === '[') inClass = true
    else if (c === '(') depth++
    else if (c === ')' && --depth === 0 && close < 0) close = i
    else if (c === '|' && depth === 0) alternation = true
  }
  return { close, alternation }
}

interface Conjunct {
  readonly re: RE2JS
  readonly negated: boolean
}

function re2 (source: string): RE2JS {
  const translated = translate(source)
  try {
    return RE2JS.compile(translated)
  } catch (err) {
    throw new Error(`RE2 cannot run it (${(err as Error).message})`)
  }
}

/** The patterns a text must match (or not match) for the whole to: a leading lookahead is one of them. */
function conjuncts (source: string): Conjunct[] {
  const negated = source.startsWith('^(?!')
  if (!negated && !source.startsWith('^(?=')) return [{ re: re2(source), negated: false }]
  const { close } = closing(source, 1)
  const rest = '^' + source.slice(close + 1)
  // `^(?=A)B|C` is (A and B) or C: no conjunction.
  if (closing(rest, 0).alternation) {
    throw new Error('a lookahead at the start of a pattern whose rest has alternatives has no linear-time form')
  }
  const inner = '^' + source.slice(4, close)
  const head = negated ? [{ re: re2(inner), negated: true }] : conjuncts(inner)
  return [...head, ...conjuncts(rest)]
}

/**
 * An ECMAScript pattern (`u` flag) run in linear time; an Error saying why
 * when it is no valid pattern or has no linear-time form.
 */
export function linearRegExp (source: string): LinearRegExp {
  try {
    // eslint-disable-next-line no-new -- only checked: the pattern's meaning is ECMAScript's
    new RegExp(source, 'u')
  } catch {
    throw new Error('it is no ECMAScript regular expression (with the u flag)')
  }
  const parts = conjuncts(source)
  return {
    test: (text) => parts.every(({ re, negated }) => re.test(text) !== negated),
    toString: () => source
  }
}

/** Ajv's `code.regExp`: every pattern a linear one, each made once per Ajv instance. */
export function linearEngine (): ((source: string) => LinearRegExp) & { code: string } {
  const made = new Map<string, LinearRegExp>()
  const engine = (source: string): LinearRegExp => {
    let regExp = made.get(source)
    if (regExp === undefined) {
      regExp = LEXICAL.has(source) ? new RegExp(source, 'u') : linearRegExp(source)
      made.set(source, regExp)
    }
    return regExp
  }
  return Object.assign(engine, { code: 'linearRegExp' })
}
