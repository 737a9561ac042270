/**
 * A typed client generated from the WSDL compiles: wsdl-tsclient (node-soap's
 * WSDL parser, ts-morph) is run on each demo service's `?wsdl`, fetched over
 * HTTP, and the TypeScript it writes is type-checked, strictly, together with
 * a small program that uses it the way an application would.
 *
 * The program also holds lines that must not compile, each marked
 * `// @ts-expect-error`: tsc reports an unused marker as an error, so the
 * check fails if the generated types were `any` and accepted everything.
 *
 * The compile runs in a temporary folder whose `node_modules` is a link to the
 * repository's: the generated client imports `soap` and its declarations need
 * `@types/node`, and the link lets tsc resolve them the way it would in a
 * project that installed soap, with no `baseUrl`, `paths` or `typeRoots`.
 *
 * Numbers and dates are left out of the type assertions: wsdl-tsclient 1.7.1
 * types an element whose simple type is a restriction (`xs:long`, `xs:double`
 * or `xs:date` with facets) as `string`, where node-soap's describe() gives
 * `xs:long|minInclusive,maxInclusive` and its table of primitive types has no
 * such key (so `client.AddAsync({ a: 2, b: 3 })` does not compile today).
 * The program is written so that it compiles whatever they map to, and the
 * types generated are printed as diagnostics.
 */
import { test, type TestContext } from 'node:test'
import { spawn } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, symlink, unlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, sep } from 'node:path'
import { parseAndGenerate } from 'wsdl-tsclient'
import { startDemo } from './interop'

/** The repository's TypeScript compiler, run with the current node. */
const TSC = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc')
/** The repository's node_modules, where `soap` and `@types/node` are. */
const NODE_MODULES = dirname(dirname(require.resolve('soap/package.json')))

/** A temporary folder that resolves packages from the repository's node_modules; removed when the test ends. */
async function workspace (t: TestContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'fastify-soap-wsdl-tsclient-'))
  const link = join(dir, 'node_modules')
  t.after(async () => {
    // The link first, on its own, so that nothing could ever walk into the repository's node_modules.
    await unlink(link).catch(() => {})
    await rm(dir, { recursive: true, force: true })
  })
  await symlink(NODE_MODULES, link, 'junction')
  return dir
}

/** Fetches `<url>/<service>?wsdl` into `<dir>/<service>.wsdl` and runs wsdl-tsclient on it (at most 10 s); its files land in `<dir>/<service>/`. */
async function generate (t: TestContext, url: string, service: string, dir: string): Promise<void> {
  const response = await fetch(`${url}/${service}?wsdl`)
  t.assert.strictEqual(response.status, 200, `GET /${service}?wsdl`)
  const wsdl = join(dir, `${service}.wsdl`)
  await writeFile(wsdl, await response.text())
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`wsdl-tsclient did not finish ${service}.wsdl in 10 s`)), 10_000)
  })
  try {
    await Promise.race([parseAndGenerate(wsdl, dir, { quiet: true, colors: false }), timeout])
  } finally {
    clearTimeout(timer)
  }
}

/** Type-checks the generated folder and the program with the repository's tsc (at most 30 s). */
async function typeCheck (dir: string, generated: string, program: string): Promise<{ code: number | null, output: string }> {
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      strict: true,
      noEmit: true,
      module: 'commonjs',
      target: 'es2022',
      lib: ['es2023'],
      types: ['node'],
      esModuleInterop: true,
      forceConsistentCasingInFileNames: true,
      noFallthroughCasesInSwitch: true,
      noImplicitReturns: true,
      // Only packages' declarations are skipped (soap 1.13's own do not pass: its wsdl/index.d.ts imports 'sax', which has
      // no types). The generated files and the program are .ts files, checked in full.
      skipLibCheck: true,
      pretty: false
    },
    include: [`${generated}/**/*.ts`, program]
  }, null, 2))
  return await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSC, '-p', dir], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 })
    let output = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { output += chunk })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { output += chunk })
    child.on('error', reject)
    child.on('close', (code, signal) => resolve({ code, output: signal === null ? output : `${output}\n(tsc ended by ${signal})` }))
  })
}

/** The type of a property in a generated interface, or undefined when it has none. */
function fieldType (source: string, name: string): string | undefined {
  return new RegExp(`^\\s*${name}\\??: (.+);$`, 'm').exec(source)?.[1]
}

/** Asserts a field is generated with a type that is neither any nor unknown, and returns it. */
function typed (t: TestContext, source: string, file: string, name: string): string {
  const type = fieldType(source, name)
  t.assert.ok(type !== undefined, `${file} has the field ${name}:\n${source}`)
  t.assert.ok(type !== 'any' && type !== 'unknown', `${file}: ${name} has a real type, not ${type}`)
  return type
}

/** Both programs compare types exactly with this. */
const EQUAL = 'type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends (<T>() => T extends Y ? 1 : 2) ? true : false\n'

const CALCULATOR_PROGRAM = `import { createClientAsync, type Add, type AddResponse, type CalculatorClient, type Divide, type DivideResponse, type Echo, type EchoResponse } from './calculator'

${EQUAL}
export const echoTextIsAString: Equal<Echo['text'], string | undefined> = true
export const echoedTextIsAString: Equal<EchoResponse['text'], string | undefined> = true
export const addTakesAdd: Equal<Parameters<CalculatorClient['AddAsync']>[0], Add> = true
export const addAnswersAddResponse: Equal<Awaited<ReturnType<CalculatorClient['AddAsync']>>[0], AddResponse> = true
export const divideTakesDivide: Equal<Parameters<CalculatorClient['DivideAsync']>[0], Divide> = true

export async function echo (url: string, text: string): Promise<string | undefined> {
  const client: CalculatorClient = await createClientAsync(url)
  const input: Echo = { text }
  const [output]: [EchoResponse, ...unknown[]] = await client.EchoAsync(input)
  return output.text
}

// a, b and result in whatever type the generator gives them.
export async function add (url: string, a: NonNullable<Add['a']>, b: NonNullable<Add['b']>): Promise<AddResponse['result']> {
  const client = await createClientAsync(url)
  const input: Add = { a, b }
  const [output] = await client.AddAsync(input)
  const result: AddResponse['result'] = output.result
  const [quotient]: [DivideResponse, ...unknown[]] = await client.DivideAsync({ a, b })
  return quotient.result === undefined ? undefined : result
}

export async function mistakes (client: CalculatorClient): Promise<void> {
  // @ts-expect-error Echo's text is a string, not a number
  await client.EchoAsync({ text: 42 })
  // @ts-expect-error Add's a is a scalar, not a boolean
  await client.AddAsync({ a: true, b: true })
  // @ts-expect-error Add has no field c
  await client.AddAsync({ c: 3 })
  // Not caught: soap's Client, which the generated client extends, has an index signature, so client.PowAsync is any.
  const [output] = await client.AddAsync({})
  // @ts-expect-error AddResponse has no field sum
  console.log(output.sum)
}
`

const ORDERS_PROGRAM = `import { createClientAsync, type CancelOrder, type Customer, type GetOrder, type GetOrderResponse, type Line, type Order, type OrdersClient, type PlaceOrder, type PlaceOrderResponse, type Tags } from './orders'

${EQUAL}
export const customerIsNested: Equal<PlaceOrder['customer'], Customer | undefined> = true
export const linesAreAnArray: Equal<PlaceOrder['line'], Line[] | undefined> = true
export const tagsAreWrapped: Equal<PlaceOrder['tags'], Tags | undefined> = true
export const tagsAreStrings: Equal<Tags['tags'], string[] | undefined> = true
export const nameIsAString: Equal<Customer['name'], string | undefined> = true
export const vipIsABoolean: Equal<Customer['vip'], boolean | undefined> = true
export const noteIsAString: Equal<Line['note'], string | undefined> = true
export const placeOrderTakesPlaceOrder: Equal<Parameters<OrdersClient['PlaceOrderAsync']>[0], PlaceOrder> = true
export const placeOrderAnswersItsResponse: Equal<Awaited<ReturnType<OrdersClient['PlaceOrderAsync']>>[0], PlaceOrderResponse> = true
export const getOrderAnswersAnOrder: Equal<GetOrderResponse['order'], Order | undefined> = true
export const cancelOrderTakesCancelOrder: Equal<Parameters<OrdersClient['CancelOrderAsync']>[0], CancelOrder> = true

// quantity, unitPrice, deliveryDate and total in whatever type the generator gives them.
export async function roundTrip (
  url: string,
  quantity: NonNullable<Line['quantity']>,
  unitPrice: NonNullable<Line['unitPrice']>,
  deliveryDate: NonNullable<PlaceOrder['deliveryDate']>
): Promise<Array<string | undefined>> {
  const client: OrdersClient = await createClientAsync(url)
  const input: PlaceOrder = {
    customer: { name: 'Ada', email: 'ada@example.com', vip: true },
    line: [{ quantity, unitPrice, note: 'gift wrap' }, { quantity, unitPrice }],
    priority: 'high',
    deliveryDate,
    tags: { tags: ['a', 'b'] },
    giftMessage: 'Happy birthday'
  }
  const [placed] = await client.PlaceOrderAsync(input)
  const status: string | undefined = placed.status
  const total: PlaceOrderResponse['total'] = placed.total
  const query: GetOrder = { orderId: status }
  const [found] = await client.GetOrderAsync(query)
  const order: Order | undefined = found.order
  const customer: string | undefined = order?.customer?.name
  const notes = order?.line?.map((line) => line.note) ?? []
  const tags: string[] = order?.tags?.tag ?? []
  await client.CancelOrderAsync({ orderId: status })
  return [customer, ...notes, ...tags, total === undefined ? undefined : status]
}

export async function mistakes (client: OrdersClient): Promise<void> {
  // @ts-expect-error vip is a boolean, not a string
  await client.PlaceOrderAsync({ customer: { name: 'Ada', vip: 'yes' } })
  // @ts-expect-error the customer is an object, not its name
  await client.PlaceOrderAsync({ customer: 'Ada' })
  // @ts-expect-error line is an array of lines, not one line
  await client.PlaceOrderAsync({ line: { note: 'one' } })
  // @ts-expect-error a line has no field price
  await client.PlaceOrderAsync({ line: [{ price: 1 }] })
  // @ts-expect-error the wrapped tags are an object holding the array, not the array
  await client.PlaceOrderAsync({ tags: ['a'] })
  // @ts-expect-error GetOrder's orderId is a string
  await client.GetOrderAsync({ orderId: 7 })
  const [found] = await client.GetOrderAsync({ orderId: 'x' })
  // @ts-expect-error an order has no field lines (it is line)
  console.log(found.order?.lines)
}
`

/** Every generated .ts file of a service, by its path under the service's folder. */
async function readGenerated (dir: string, service: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {}
  for (const entry of await readdir(join(dir, service), { recursive: true })) {
    if (entry.endsWith('.ts')) files[entry.split(sep).join('/')] = await readFile(join(dir, service, entry), 'utf8')
  }
  return files
}

/**
 * One service: its WSDL fetched and generated, the files inspected by
 * `inspect` (which returns notes printed as diagnostics), then the generated
 * folder and the program type-checked together.
 */
async function check (t: TestContext, service: string, program: string, inspect: (files: Record<string, string>) => string[]): Promise<void> {
  const { url } = await startDemo(t)
  const dir = await workspace(t)
  await generate(t, url, service, dir)
  const files = await readGenerated(dir, service)
  t.assert.ok(files['client.ts'] !== undefined && files['index.ts'] !== undefined, `wsdl-tsclient wrote a client and an index for /${service}: ${Object.keys(files).join(', ')}`)
  for (const note of inspect(files)) t.diagnostic(note)
  await writeFile(join(dir, 'program.ts'), program)
  const { code, output } = await typeCheck(dir, service, 'program.ts')
  t.assert.strictEqual(code, 0, `tsc failed on the client generated for /${service}:\n${output}`)
}

/** A generated file, which must exist. */
function file (t: TestContext, files: Record<string, string>, path: string): string {
  const source = files[path]
  t.assert.ok(source !== undefined, `wsdl-tsclient wrote ${path}: ${Object.keys(files).join(', ')}`)
  return source ?? ''
}

test('wsdl-tsclient: the client generated from /calculator?wsdl type-checks', { timeout: 30_000 }, async (t: TestContext) => {
  await check(t, 'calculator', CALCULATOR_PROGRAM, (files) => {
    const client = file(t, files, 'client.ts')
    for (const op of ['Add', 'Echo', 'Divide']) {
      const method = `${op}Async(${op.toLowerCase()}: ${op}, options?: ISoapExOptions): Promise<[result: ${op}Response, `
      t.assert.ok(client.includes(method), `client.ts declares ${method}...:\n${client}`)
      t.assert.match(file(t, files, 'ports/CalculatorSoap11.ts'), new RegExp(`^\\s*${op}\\(${op.toLowerCase()}: ${op}, callback: `, 'm'))
      t.assert.match(file(t, files, 'ports/CalculatorSoap12.ts'), new RegExp(`^\\s*${op}\\(${op.toLowerCase()}: ${op}, callback: `, 'm'))
    }
    t.assert.strictEqual(typed(t, file(t, files, 'definitions/Echo.ts'), 'Echo.ts', 'text'), 'string')
    t.assert.strictEqual(typed(t, file(t, files, 'definitions/EchoResponse.ts'), 'EchoResponse.ts', 'text'), 'string')
    // Integers: an xs:long restricted to the safe integers (see the note at the top).
    const numbers = [
      ['Add', 'a'], ['Add', 'b'], ['AddResponse', 'result'], ['Divide', 'a'], ['Divide', 'b'], ['DivideResponse', 'result']
    ].map(([definition, name]) => `${definition}.${name}: ${typed(t, file(t, files, `definitions/${definition}.ts`), `${definition}.ts`, name)}`)
    return [`integers generated as ${numbers.join(', ')}`]
  })
})

test('wsdl-tsclient: the client generated from /orders?wsdl type-checks', { timeout: 30_000 }, async (t: TestContext) => {
  await check(t, 'orders', ORDERS_PROGRAM, (files) => {
    const client = file(t, files, 'client.ts')
    for (const [op, output] of [['PlaceOrder', 'PlaceOrderResponse'], ['GetOrder', 'GetOrderResponse'], ['CancelOrder', 'unknown']]) {
      const method = `${op}Async(${op[0].toLowerCase()}${op.slice(1)}: ${op}, options?: ISoapExOptions): Promise<[result: ${output}, `
      t.assert.ok(client.includes(method), `client.ts declares ${method}...:\n${client}`)
    }
    const expect = (definition: string, fields: Record<string, RegExp>): void => {
      const source = file(t, files, `definitions/${definition}.ts`)
      for (const [name, type] of Object.entries(fields)) t.assert.match(typed(t, source, `${definition}.ts`, name), type, `${definition}.${name}`)
    }
    expect('PlaceOrder', { customer: /^Customer$/, line: /^Array<Line>$/, priority: /^string$|^"low" \| "normal" \| "high"$/, tags: /^Tags$/, giftMessage: /^string$/ })
    expect('Customer', { name: /^string$/, email: /^string$/, vip: /^boolean$/ })
    expect('Line', { note: /^string$/ })
    expect('Tags', { tags: /^Array<string>$/ })
    expect('PlaceOrderResponse', { status: /^string$|^"accepted" \| "backordered"$/ })
    expect('GetOrder', { orderId: /^string$/ })
    expect('GetOrderResponse', { order: /^Order$/ })
    expect('Order', { customer: /^Customer\d*$/, line: /^Array<Line\d*>$/, tags: /^Tags\d*$/ })
    expect('CancelOrder', { orderId: /^string$/ })
    // Numbers and dates: restrictions of xs:long, xs:double, xs:date and xs:dateTime (see the note at the top).
    const restricted = [
      ['Line', 'quantity'], ['Line', 'unitPrice'], ['PlaceOrder', 'deliveryDate'], ['PlaceOrderResponse', 'placedAt'],
      ['PlaceOrderResponse', 'total'], ['Order', 'deliveryDate'], ['Order', 'total']
    ].map(([definition, name]) => `${definition}.${name}: ${typed(t, file(t, files, `definitions/${definition}.ts`), `${definition}.ts`, name)}`)
    // Attributes: node-soap's describe() leaves them out, so no generated type has them.
    const attributes = [['Line', 'sku'], ['PlaceOrderResponse', 'orderId'], ['Order', 'id']]
      .map(([definition, name]) => `${definition}.${name}: ${fieldType(file(t, files, `definitions/${definition}.ts`), name) ?? '(absent)'}`)
    return [`numbers and dates generated as ${restricted.join(', ')}`, `attributes generated as ${attributes.join(', ')}`]
  })
})
