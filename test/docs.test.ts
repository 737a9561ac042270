/**
 * The documents the tests cite exist: a test title names the rule it checks
 * as `docs/protocol.md "Dispatch"` (or `README "Tests"`, several sections as
 * `docs/protocol.md "Decoding", "Limits"`), and each such section is a
 * heading of that document. The links of docs/ and README.md resolve: the
 * file, and its #anchor to a heading (GitHub's anchor of it) or an
 * `<a id>`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { test, type TestContext } from 'node:test'

const ROOT = join(__dirname, '..', '..')
const DOCUMENTS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]

interface Document { headings: string[], anchors: Set<string>, links: Array<{ target: string, line: number }> }

/** GitHub's anchor of a heading: lower case, markup and punctuation dropped but - and _, each space a -. */
export function anchorOf (heading: string): string {
  return heading.toLowerCase().replace(/<[^>]*>/g, '').replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')
}

/** A markdown document's headings (as text), its anchors (repeated headings get -1, -2...) and its links outside code. */
function read (file: string): Document {
  const headings: string[] = []
  const anchors = new Set<string>()
  const links: Document['links'] = []
  const seen = new Map<string, number>()
  let fenced = false
  readFileSync(join(ROOT, file), 'utf8').split('\n').forEach((line, index) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced
    if (fenced) return
    for (const match of line.matchAll(/<a (?:id|name)="([^"]+)"/g)) anchors.add(match[1])
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (heading !== null) {
      const text = heading[1].replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      headings.push(text)
      const base = anchorOf(text)
      const count = seen.get(base) ?? 0
      seen.set(base, count + 1)
      anchors.add(count === 0 ? base : `${base}-${count}`)
    }
    // Links outside inline code.
    for (const match of line.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) links.push({ target: match[1], line: index + 1 })
  })
  return { headings, anchors, links }
}

/** Every file of test/ with test titles. */
function testSources (dir = join(ROOT, 'test')): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === 'fixtures' ? [] : testSources(path)
    return /\.(ts|mts|mjs|js)$/.test(name) ? [path] : []
  })
}

/** The sections cited by the titles of test(), t.test(), it(), describe() and suite() calls in `source`. */
export function citations (source: string): Array<{ document: string, section: string }> {
  const out: Array<{ document: string, section: string }> = []
  for (const call of source.matchAll(/\b(?:test|t\.test|it|describe|suite)\(\s*(['"`])((?:\\[\s\S]|(?!\1)[^\\])*)\1/g)) {
    const title = call[2].replace(/\\(.)/g, '$1')
    for (const cite of title.matchAll(/\b(docs\/[\w-]+\.md|README(?:\.md)?) ("[^"]+"(?:, "[^"]+")*)/g)) {
      const document = cite[1].startsWith('README') ? 'README.md' : cite[1]
      for (const section of cite[2].matchAll(/"([^"]+)"/g)) out.push({ document, section: section[1] })
    }
  }
  return out
}

test('docs/ and README.md: every section a test title cites (docs/protocol.md "Dispatch", README "Tests") is a heading of that document', (t: TestContext) => {
  const documents = new Map(DOCUMENTS.map((file) => [file, read(file)]))
  const cited = new Map<string, string[]>()
  for (const file of testSources()) {
    for (const { document, section } of citations(readFileSync(file, 'utf8'))) {
      const key = `${document} "${section}"`
      cited.set(key, [...(cited.get(key) ?? []), relative(ROOT, file)])
    }
  }
  t.assert.ok(cited.size >= 40, `${cited.size} sections cited`)
  const missing = [...cited].filter(([key]) => {
    const [, document, section] = /^(\S+) "(.*)"$/.exec(key) ?? []
    return documents.get(document)?.headings.includes(section) !== true
  }).map(([key, files]) => `${key}, cited in ${[...new Set(files)].join(', ')}`)
  t.assert.deepStrictEqual(missing, [], 'sections cited by test titles and not found')
})

test('docs/ and README.md: every relative link resolves: its file, and its #anchor to a heading or an <a id> of that file', (t: TestContext) => {
  const documents = new Map(DOCUMENTS.map((file) => [file, read(file)]))
  const broken: string[] = []
  let anchored = 0
  for (const [file, { links }] of documents) {
    for (const { target, line } of links) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue // https:, mailto:
      const [path, anchor] = target.split('#') as [string, string | undefined]
      const resolved = path === '' ? file : relative(ROOT, join(ROOT, dirname(file), decodeURIComponent(path)))
      if (!existsSync(join(ROOT, resolved))) { broken.push(`${file}:${line}: ${target} (no ${resolved})`); continue }
      if (anchor === undefined || anchor === '') continue
      anchored++
      const linked = documents.get(resolved) ?? (resolved.endsWith('.md') ? read(resolved) : undefined)
      if (linked === undefined || !linked.anchors.has(decodeURIComponent(anchor))) broken.push(`${file}:${line}: ${target} (no #${anchor} in ${resolved})`)
    }
  }
  t.assert.ok(anchored >= 100, `${anchored} links with an anchor`)
  t.assert.deepStrictEqual(broken, [], 'links that do not resolve')
})

test('docs/ and README.md: a link\'s #anchor is GitHub\'s anchor of a heading; a title cites sections by a document\'s path, then each heading in double quotes', (t: TestContext) => {
  t.assert.strictEqual(anchorOf('request.soap and hooks'), 'requestsoap-and-hooks')
  t.assert.strictEqual(anchorOf('What is refused'), 'what-is-refused')
  t.assert.strictEqual(anchorOf('WS-Security: per client'), 'ws-security-per-client')
  t.assert.strictEqual(anchorOf('defineOperation and defineService'), 'defineoperation-and-defineservice')
  t.assert.deepStrictEqual(citations('test(\'docs/protocol.md "Decoding", "Limits": x\', () => {})\nt.test(`README "Tests" and docs/services.md "Header blocks"`)'), [
    { document: 'docs/protocol.md', section: 'Decoding' },
    { document: 'docs/protocol.md', section: 'Limits' },
    { document: 'README.md', section: 'Tests' },
    { document: 'docs/services.md', section: 'Header blocks' }
  ])
})
