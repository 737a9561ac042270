#!/usr/bin/env node
/**
 * The `fastify-soap` command: `types` (lib/contract/cli.ts) and `mock`
 * (lib/cli/mock.ts).
 */
import { main as contractMain } from '../contract/cli'
import { MOCK_USAGE, mockOptions, startMock } from './mock'

/** Runs a command that ends (`types`); `mock` resolves once its server listens and keeps the process alive. */
export async function main (
  args: readonly string[],
  out: (text: string) => void,
  err: (text: string) => void
): Promise<number> {
  if (args[0] !== 'mock') {
    const status = await contractMain(args, out, err)
    if (status === 2 || args[0] === '--help' || args[0] === '-h') {
      (status === 0 ? out : err)(`\n${MOCK_USAGE}${status === 0 ? '\n' : ''}`)
    }
    return status
  }
  const rest = args.slice(1)
  if (rest.includes('--help') || rest.includes('-h')) {
    out(MOCK_USAGE + '\n')
    return 0
  }
  const options = mockOptions(rest)
  if (typeof options === 'string') {
    err(`fastify-soap: ${options}\n${MOCK_USAGE}`)
    return 2
  }
  try {
    const app = await startMock(options, out)
    const close = (): void => { app.close().then(() => undefined, () => undefined) }
    process.once('SIGINT', close)
    process.once('SIGTERM', close)
  } catch (e) {
    err((e as Error).message)
    return 1
  }
  return 0
}

/* c8 ignore next 9 -- the process's own entry; test/mock-cli.test.ts runs it as a process */
if (require.main === module) {
  main(process.argv.slice(2), (text) => process.stdout.write(text), (text) => process.stderr.write(text + '\n')).then(
    (status) => { process.exitCode = status },
    (e) => {
      process.stderr.write(`fastify-soap: ${String(e)}\n`)
      process.exitCode = 1
    }
  )
}
