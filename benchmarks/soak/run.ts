/**
 * `npm run soak`: the demo server in its own process on 127.0.0.1, driven by
 * autocannon with a fixed mix of valid, faulting and hostile requests for a
 * bounded time (SOAK_SECONDS, 60; SOAK_CONNECTIONS, 100) after a warm-up. It
 * reports the answers by status, client errors, the server's memory after the
 * warm-up and at the end, its event-loop delay, and whether it stayed up; it
 * exits 1 if any check fails. `soak()` is the same run, for the test suite.
 */
import autocannon from 'autocannon'
import { addEnvelope } from '../fixtures'
import { serverStats, startServer } from '../http/process'

const E11 = 'http://schemas.xmlsoap.org/soap/envelope/'
const E12 = 'http://www.w3.org/2003/05/soap-envelope'
const S12 = 'application/soap+xml; charset=utf-8'
const S11 = 'text/xml; charset=utf-8'
const calc = (env: string, op: string, args: string): string =>
  `<s:Envelope xmlns:s="${env}"><s:Body><c:${op} xmlns:c="urn:example:calc">${args}</c:${op}></s:Body></s:Envelope>`

/** Each connection sends these in turn; `expect` is the status each must get. */
export const MIX: Array<{ name: string, expect: number, request: autocannon.Request }> = [
  { name: 'Add (1.2)', expect: 200, request: { method: 'POST', headers: { 'content-type': S12 }, body: addEnvelope() } },
  { name: 'Echo (1.1)', expect: 200, request: { method: 'POST', headers: { 'content-type': S11, soapaction: '"urn:example:calc/Echo"' }, body: calc(E11, 'Echo', '<c:text>héllo ✓ &lt;&amp;&gt; 𝄞</c:text>') } },
  { name: 'Divide by zero (1.2 Sender fault)', expect: 400, request: { method: 'POST', headers: { 'content-type': S12 }, body: calc(E12, 'Divide', '<c:a>7</c:a><c:b>0</c:b>') } },
  { name: 'Divide by zero (1.1 Client fault)', expect: 500, request: { method: 'POST', headers: { 'content-type': S11 }, body: calc(E11, 'Divide', '<c:a>7</c:a><c:b>0</c:b>') } },
  { name: 'not well-formed', expect: 400, request: { method: 'POST', headers: { 'content-type': S12 }, body: calc(E12, 'Add', '<c:a>1</c:b>') } },
  { name: 'billion laughs', expect: 400, request: { method: 'POST', headers: { 'content-type': S12 }, body: '<!DOCTYPE s:Envelope [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>' + calc(E12, 'Echo', '<c:text>&c;</c:text>') } },
  { name: 'deep nesting', expect: 400, request: { method: 'POST', headers: { 'content-type': S12 }, body: calc(E12, 'Echo', '<x>'.repeat(500) + '</x>'.repeat(500)) } },
  { name: 'wrong media type', expect: 415, request: { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' } },
  { name: 'version mismatch', expect: 500, request: { method: 'POST', headers: { 'content-type': S11 }, body: calc(E12, 'Add', '<c:a>1</c:a><c:b>2</c:b>') } },
  { name: 'mustUnderstand not understood', expect: 500, request: { method: 'POST', headers: { 'content-type': S12 }, body: `<s:Envelope xmlns:s="${E12}"><s:Header><h:T xmlns:h="urn:h" s:mustUnderstand="true"/></s:Header><s:Body/></s:Envelope>` } },
  { name: 'wrong method', expect: 405, request: { method: 'PUT', headers: { 'content-type': S12 }, body: addEnvelope() } }
]

export interface SoakReport {
  seconds: number
  connections: number
  requests: number
  statuses: Record<string, number>
  unexpectedStatuses: string[]
  errors: number
  timeouts: number
  rssAfterWarmUp: number
  rssAtEnd: number
  heapAfterWarmUp: number
  heapAtEnd: number
  delayP99: number
  delayMax: number
  crashed: boolean
}

/** The bounds a run must stay within. */
export const BOUNDS = { rssGrowthMiB: 64, delayMaxMs: 1000 }

export function failures (report: SoakReport): string[] {
  const out: string[] = []
  if (report.crashed) out.push('the server exited')
  if (report.errors + report.timeouts > 0) out.push(`${report.errors} errors and ${report.timeouts} timeouts`)
  if (report.unexpectedStatuses.length > 0) out.push(`unexpected statuses ${report.unexpectedStatuses.join(', ')}`)
  // Every connection sends the mix in turn, so each status's count is its share
  // of the total, give or take the round each connection was in when time ran out.
  const tolerance = report.connections * MIX.length
  for (const status of new Set(MIX.map((m) => m.expect))) {
    const share = MIX.filter((m) => m.expect === status).length / MIX.length
    const count = report.statuses[String(status)] ?? 0
    if (Math.abs(count - report.requests * share) > tolerance) out.push(`${count} answers ${status}, expected about ${(report.requests * share).toFixed(0)}`)
  }
  const growth = (report.rssAtEnd - report.rssAfterWarmUp) / 2 ** 20
  if (growth > BOUNDS.rssGrowthMiB) out.push(`RSS grew ${growth.toFixed(1)} MiB after the warm-up (bound ${BOUNDS.rssGrowthMiB})`)
  if (report.delayMax > BOUNDS.delayMaxMs) out.push(`event loop delayed ${report.delayMax.toFixed(0)} ms (bound ${BOUNDS.delayMaxMs})`)
  if (report.requests === 0) out.push('no request was answered')
  return out
}

export async function soak (seconds: number, connections: number, warmUp = Math.max(1, Math.round(seconds / 5))): Promise<SoakReport> {
  const { child, port } = await startServer('soap')
  let crashed = false
  child.once('exit', () => { crashed = true })
  try {
    const options: autocannon.Options = {
      url: `http://127.0.0.1:${port}/calculator`,
      connections,
      pipelining: 1,
      requests: MIX.map((m) => m.request),
      timeout: 10
    }
    await autocannon({ ...options, duration: warmUp })
    const before = await serverStats(child)
    const result = await autocannon({ ...options, duration: seconds })
    const after = await serverStats(child)
    const statuses: Record<string, number> = {}
    for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = count ?? 0
    const expected = new Set(MIX.map((m) => String(m.expect)))
    return {
      seconds,
      connections,
      requests: result.requests.total,
      statuses,
      unexpectedStatuses: Object.keys(statuses).filter((code) => !expected.has(code)),
      errors: result.errors,
      timeouts: result.timeouts,
      rssAfterWarmUp: before.rss,
      rssAtEnd: after.rss,
      heapAfterWarmUp: before.heapUsed,
      heapAtEnd: after.heapUsed,
      delayP99: after.delayP99,
      delayMax: after.delayMax,
      crashed
    }
  } finally {
    child.kill('SIGTERM')
  }
}

async function main (): Promise<void> {
  const seconds = Number(process.env.SOAK_SECONDS ?? 60)
  const connections = Number(process.env.SOAK_CONNECTIONS ?? 100)
  process.stderr.write(`soak: ${seconds} s at ${connections} connections on 127.0.0.1…\n`)
  const report = await soak(seconds, connections)
  const mib = (n: number): string => (n / 2 ** 20).toFixed(1)
  console.log(`requests ${report.requests} in ${seconds} s (${(report.requests / seconds).toFixed(0)}/s), ${connections} connections, Node ${process.version}`)
  console.log(`statuses ${JSON.stringify(report.statuses)}; errors ${report.errors}; timeouts ${report.timeouts}; crashed ${report.crashed}`)
  console.log(`RSS ${mib(report.rssAfterWarmUp)} MiB after warm-up, ${mib(report.rssAtEnd)} MiB at the end; heap ${mib(report.heapAfterWarmUp)} → ${mib(report.heapAtEnd)} MiB`)
  console.log(`event-loop delay p99 ${report.delayP99.toFixed(1)} ms, max ${report.delayMax.toFixed(1)} ms`)
  const failed = failures(report)
  console.log(failed.length === 0 ? 'soak: passed' : `soak: FAILED: ${failed.join('; ')}`)
  process.exitCode = failed.length === 0 ? 0 : 1
}

if (require.main === module) main().catch((err) => { console.error(err); process.exit(1) })
