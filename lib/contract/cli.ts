/**
 * `fastify-soap types <contract.wsdl>`: writes the TypeScript of a contract's
 * handlers (docs/contract-first.md, "Types"). The file holds the operations'
 * schemas, exactly as the server reads them, `as const`, and the handler
 * types inferred from them by the same `Infer` code-first services use.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { basename, dirname } from 'node:path'
import { readContract } from './read'

const USAGE = `usage: fastify-soap types <contract.wsdl> [--service <name>] [--binding <name>]
         [--catalog <catalog.xml> | --catalog <location>=<file>...] [--root <folder>] [--stubs] [--out <file.ts>]

Writes the TypeScript types of the contract's handlers, for
app.soap.contract<Operations>({ ... }). With --stubs, also an \`operations\`
object with a handler for every operation, each throwing a SoapFault that
says it is not implemented, to fill in. --catalog names an XML catalog file
(OASIS XML Catalogs: system, uri, rewriteSystem, rewriteURI, systemSuffix,
uriSuffix), or maps a location the contract's documents name to a file
(relative to the WSDL's folder) or URL, as the catalog option does. --root
names the folder the contract's files must be in (relative to the WSDL's
folder; by default the WSDL's folder). Without --out, to standard output;
--out creates the file's folder.`

/**
 * A TypeScript identifier made of an operation's name: letters and digits
 * kept, the first letter upper case.
 */
export function typeName (operation: string): string {
  const words = operation.split(/[^A-Za-z0-9]+/).filter((w) => w !== '')
  const name = words.map((w) => w[0].toUpperCase() + w.slice(1)).join('')
  return /^[0-9]/.test(name) || name === '' ? `Op${name}` : name
}

/** What a schema's `$defs` is while the module is written: the shared `defs`. */
const SHARED = '\u0000defs'

/** A method name of an object literal: the operation's name, quoted unless it is an identifier. */
function methodName (operation: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(operation) ? operation : JSON.stringify(operation)
}

/**
 * The reason the SoapFault of a generated handler skeleton (`--stubs`) gives,
 * as the text of a single-quoted string:
 * backslashes, quotes and line breaks written as \u escapes.
 */
function notImplemented (operation: string): string {
  return `The operation ${operation} is not implemented`
    .replace(/[\\'\r\n]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** The module `types` writes for a contract; with `stubs`, a handler skeleton too. */
export async function contractTypes (options: {
  wsdl: string
  service?: string
  binding?: string
  catalog?: Record<string, string> | string
  root?: string
  stubs?: boolean
}): Promise<string> {
  const { stubs = false, ...source } = options
  const contract = await readContract(source)
  // The named schemas are written once, and each schema that uses them refers
  // to them all: a contract of many operations over one set of types
  // (Exchange's) is not written out again for each.
  const defs: Record<string, unknown> = {}
  const shared = (schema: unknown): unknown => {
    const named = (schema as { $defs?: Record<string, unknown> } | undefined)?.$defs
    if (named === undefined) return schema
    Object.assign(defs, named)
    return { ...(schema as object), $defs: SHARED }
  }
  const sharedAll = (all: object): Record<string, unknown> =>
    Object.fromEntries(Object.entries(all).map(([key, schema]) => [key, shared(schema)]))
  const operations = Object.fromEntries(Object.entries(contract.operations).map(([name, op]) => {
    const { action, outputAction, faultActions, faults, ...schemas } = op
    const own = sharedAll(schemas)
    return [name, faults === undefined ? own : { ...own, faults: sharedAll(faults) }]
  }))
  const written = JSON.stringify(operations, null, 2)
    .replaceAll(`"$defs": ${JSON.stringify(SHARED)}`, '"$defs": defs')
  const wsdlName = basename(options.wsdl).replace(/[\r\n]/g, ' ')
  const bindings = contract.bindings.map((b) => `${b.name} (SOAP ${b.version})`).join(', ')
  const lines = [
    `// Written by \`fastify-soap types\` from ${wsdlName}: the ${contract.name} service,`,
    `// binding${contract.bindings.length > 1 ? 's' : ''} ${bindings}. ` +
      'Written again when the contract changes; not edited.',
    stubs
      ? "import { SoapFault, type ContractOperations, type Infer } from 'fastify-soap'"
      : "import type { ContractOperations, Infer } from 'fastify-soap'",
    '',
    ...Object.keys(defs).length === 0
      ? []
      : [
          '/** The named schemas (`$defs`) of the contract, which the schemas below share. */',
          `const defs = ${JSON.stringify(defs, null, 2)} as const`,
          ''
        ],
    '/** The schemas each operation is read and written by. */',
    `export const schemas = ${written} as const`,
    '',
    '/** The handlers of `app.soap.contract<Operations>({ operations })`. */',
    'export type Operations = ContractOperations<typeof schemas>',
    ''
  ]
  const taken = new Set<string>(['Operations'])
  for (const [name, op] of Object.entries(contract.operations)) {
    let base = typeName(name)
    while (taken.has(base)) base += '_'
    taken.add(base)
    const ref = `typeof schemas[${JSON.stringify(name)}]`
    if (op.input !== undefined) lines.push(`export type ${base}Input = Infer<${ref}['input']>`)
    if (op.output !== undefined) lines.push(`export type ${base}Output = Infer<${ref}['output']>`)
    if (op.headers !== undefined) lines.push(`export type ${base}Headers = Infer<${ref}['headers']>`)
    if (op.outputHeaders !== undefined) lines.push(`export type ${base}OutputHeaders = Infer<${ref}['outputHeaders']>`)
  }
  if (stubs) {
    lines.push(
      '',
      '/**',
      ' * A handler for every operation, each answering that it is not implemented:',
      ' * a skeleton to fill in (copy it out of this file, which is written again',
      ' * when the contract changes), for app.soap.contract<Operations>({ operations }).',
      ' */',
      'export const operations = {'
    )
    const names = Object.keys(contract.operations)
    names.forEach((name, i) => {
      lines.push(
        `  async ${methodName(name)} (_input, _call) {`,
        `    throw new SoapFault({ code: 'Receiver', reason: '${notImplemented(name)}' })`,
        `  }${i === names.length - 1 ? '' : ','}`
      )
    })
    lines.push('} satisfies Operations')
  }
  return lines.join('\n') + '\n'
}

/** Runs the command with its arguments; resolves to the exit status. */
export async function main (
  args: readonly string[],
  out: (text: string) => void,
  err: (text: string) => void
): Promise<number> {
  const [command, ...rest] = args
  const help = rest.includes('--help') || rest.includes('-h')
  if (command === '--help' || command === '-h' || (command === 'types' && help)) {
    out(USAGE + '\n')
    return 0
  }
  if (command !== 'types') {
    err(USAGE)
    return 2
  }
  const options: {
    wsdl?: string
    service?: string
    binding?: string
    out?: string
    root?: string
    stubs?: boolean
    catalog?: Record<string, string> | string
  } = {}
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]
    const flag = /^--(service|binding|out|root)$/.exec(arg)
    if (arg === '--stubs') {
      options.stubs = true
    } else if (arg === '--catalog') {
      const value = rest[++i] ?? ''
      const entry = /^([^=]+)=(.+)$/.exec(value)
      // One catalog file, or entries: a file is not merged with entries.
      const refused = value.includes('=')
        ? entry === null || typeof options.catalog === 'string'
        : value === '' || options.catalog !== undefined
      if (refused) {
        err(`fastify-soap: --catalog takes one catalog file, or <location>=<file or URL> entries\n${USAGE}`)
        return 2
      }
      options.catalog = entry === null
        ? value
        : { ...options.catalog as Record<string, string> | undefined, [entry[1]]: entry[2] }
    } else if (flag !== null && rest[i + 1] !== undefined) {
      options[flag[1] as 'service' | 'binding' | 'out' | 'root'] = rest[++i]
    } else if (!arg.startsWith('-') && options.wsdl === undefined) {
      options.wsdl = arg
    } else {
      err(`fastify-soap: unexpected argument ${arg}\n${USAGE}`)
      return 2
    }
  }
  if (options.wsdl === undefined) {
    err(USAGE)
    return 2
  }
  let text: string
  try {
    const { wsdl, service, binding, catalog, root, stubs } = options
    text = await contractTypes({ wsdl, service, binding, catalog, root, stubs })
  } catch (e) {
    err((e as Error).message)
    return 1
  }
  if (options.out === undefined) {
    out(text)
  } else {
    await mkdir(dirname(options.out), { recursive: true })
    await writeFile(options.out, text)
  }
  return 0
}
