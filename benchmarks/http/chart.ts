/**
 * benchmarks/results/chart.svg: per workload, a group of horizontal bars, one
 * per contender, at its median req/s with min–max whiskers, labelled with the
 * value and the median of its per-round ratios to the reference. Each group has
 * its own scale (the large workload's req/s are far lower). Plain SVG text.
 */
import { summarize, type BenchRecord, type Summary, type WorkloadRecord } from './aggregate'
import { failureText, ratio, renderLoad } from './report'

const WIDTH = 800
const LABEL_RIGHT = 150
const BAR_LEFT = 160
const BAR_WIDTH = 400
const ROW = 30
const BAR_HEIGHT = 18
const FONT = 'font-family="Helvetica, Arial, sans-serif"'
/** A white outline under a label, so that grid lines do not run through it. */
const HALO = 'paint-order="stroke" stroke="#ffffff" stroke-width="4" stroke-linejoin="round"'

const COLOURS: Record<string, string> = { json: '#8b96a3', 'json-schema': '#616e7c', 'xml-echo': '#b8c0c9', soap: '#2563eb', 'soap-baseline': '#93b4f5', 'node-soap': '#e07b39', 'strong-soap': '#9c4dcc' }

function esc (text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

const whole = (x: number): string => Math.round(x).toLocaleString('en-US')

/** A round axis end and step for values up to `max`: about 4 to 8 ticks. */
function axis (max: number): { end: number, step: number } {
  if (!(max > 0)) return { end: 1, step: 1 }
  const raw = max / 5
  const power = 10 ** Math.floor(Math.log10(raw))
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power
  return { end: Math.ceil(max / step) * step, step }
}

function text (x: number, y: number, content: string, attrs = ''): string {
  return `<text x="${x}" y="${y}" ${attrs}>${esc(content)}</text>`
}

function bar (s: Summary, y: number, scale: (v: number) => number, referenceName: string): string[] {
  const label = text(LABEL_RIGHT, y + BAR_HEIGHT / 2 + 4, s.name, 'text-anchor="end" font-size="13" fill="#1f2933"')
  if (s.rps === undefined) {
    const why = s.failure === undefined ? 'not measured' : failureText(s.failure.stage, s.failure.reason)
    const short = why.length > 95 ? `${why.slice(0, 94)}…` : why
    return [label, text(BAR_LEFT + 4, y + BAR_HEIGHT / 2 + 4, short, `font-size="12" font-style="italic" fill="#7b8794" ${HALO}`)]
  }
  const { median, min, max } = s.rps
  const colour = COLOURS[s.kind] ?? '#52606d'
  const mid = y + BAR_HEIGHT / 2
  const versus = s.reference ? 'reference' : `${ratio(s.rpsRatio)} × ${referenceName}`
  const rounds = s.failure === undefined ? '' : ` (${s.rounds} round${s.rounds === 1 ? '' : 's'})`
  return [
    label,
    `<rect x="${BAR_LEFT}" y="${y}" width="${Math.max(1, scale(median) - BAR_LEFT).toFixed(1)}" height="${BAR_HEIGHT}" rx="2" fill="${colour}"/>`,
    `<g stroke="#1f2933" stroke-width="1.2"><line x1="${scale(min).toFixed(1)}" y1="${mid}" x2="${scale(max).toFixed(1)}" y2="${mid}"/>` +
      `<line x1="${scale(min).toFixed(1)}" y1="${mid - 5}" x2="${scale(min).toFixed(1)}" y2="${mid + 5}"/>` +
      `<line x1="${scale(max).toFixed(1)}" y1="${mid - 5}" x2="${scale(max).toFixed(1)}" y2="${mid + 5}"/></g>`,
    text(Math.max(scale(max), scale(median)) + 8, mid + 4, `${whole(median)} req/s · ${versus}${rounds}`, `font-size="12" fill="#1f2933" ${HALO}`)
  ]
}

/** One workload's group, from `top`; returns its markup and height. */
function group (workload: WorkloadRecord, top: number): { svg: string[], height: number } {
  const summaries = summarize(workload)
  const referenceName = summaries.find((s) => s.reference)?.name ?? 'reference'
  const { end, step } = axis(Math.max(0, ...summaries.map((s) => s.rps?.max ?? 0)))
  const scale = (v: number): number => BAR_LEFT + (v / end) * BAR_WIDTH
  const barsTop = top + 14
  const barsBottom = barsTop + summaries.length * ROW - (ROW - BAR_HEIGHT)
  const svg = [text(16, top, workload.title, 'font-size="15" font-weight="bold" fill="#1f2933"')]
  for (let v = 0; v <= end + step / 2; v += step) {
    const x = scale(v).toFixed(1)
    svg.push(`<line x1="${x}" y1="${barsTop - 4}" x2="${x}" y2="${barsBottom + 4}" stroke="${v === 0 ? '#9aa5b1' : '#e4e7eb'}"/>`)
    svg.push(text(scale(v), barsBottom + 18, whole(v), 'text-anchor="middle" font-size="11" fill="#616e7c"'))
  }
  summaries.forEach((s, i) => svg.push(...bar(s, barsTop + i * ROW, scale, referenceName)))
  return { svg, height: barsBottom + 18 - top }
}

export function renderChart (record: BenchRecord): string {
  const { rounds, seconds, warmup, connections, pipelining } = record.settings
  const plural = rounds === 1 ? '' : 's'
  const timed = record.workloads.some((w) => w.id !== 'upload') ? [`${connections} connections, pipelining ${pipelining}, ${seconds} s after ${warmup} s warm-up`] : []
  const counted = record.workloads.some((w) => w.id === 'upload') ? [`the upload: ${record.settings.uploads} requests one at a time`] : []
  const body: string[] = [
    text(16, 28, `HTTP req/s per contender: median of ${rounds} round${plural}, whiskers min–max`, 'font-size="16" font-weight="bold" fill="#1f2933"'),
    text(16, 48, `Label: median req/s · median of the per-round ratios to the reference. Node ${record.node} · ${record.cpu} × ${record.cores} cores · ${record.date.slice(0, 10)}`, 'font-size="11" fill="#616e7c"'),
    text(16, 64, `${[...timed, ...counted].join('; ')}, contenders interleaved and rotated per round, each server in its own process`, 'font-size="11" fill="#616e7c"'),
    text(16, 80, renderLoad(record), 'font-size="11" fill="#616e7c"')
  ]
  let y = 116
  for (const workload of record.workloads) {
    const { svg, height } = group(workload, y)
    body.push(...svg)
    y += height + 40
  }
  const height = y - 16
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" ${FONT}>\n` +
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>\n${body.join('\n')}\n</svg>\n`
}
