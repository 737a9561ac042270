/**
 * The service page, part 2: the HTML a browser gets at `GET <path>` when the
 * plugin's `servicePage` option is on (docs/service-page.md): the service,
 * its documentation, an index of its operations, then one section each with
 * its action, its messages as trees, sample envelopes and a "try it" form.
 * Every text from the service or its WSDL is escaped; the page runs no
 * inline script (its script and style are resources of their own).
 */
import { escapeAttribute, escapeXml } from '../xml/escape'
import type { ElementDescription, OperationDescription, ServiceDescription } from '../service/description'
import type { ObjectShape } from '../codec/shapes'
import type { SoapVersion } from '../namespaces'
import { outline, type OutlineRow } from './outline'

/** What the WSDL says of the service and its operations (`wsdl:documentation`); empty for a generated one. */
export interface Documentation {
  readonly service: readonly string[]
  readonly operations: ReadonlyMap<string, readonly string[]>
}

export interface PageContent {
  readonly service: ServiceDescription
  readonly documentation: Documentation
  /** The names `?xsd=` serves. */
  readonly schemas: readonly string[]
  /** An operation's sample request envelope in a version. */
  readonly sample: (op: OperationDescription, version: SoapVersion) => string
}

function text (value: string): string {
  return escapeXml(value)
}

function attribute (value: string): string {
  return escapeAttribute(value)
}

/** An operation's section id: its name is an NCName, which may hold `.`, `-` and `_`, never a space. */
function sectionId (op: OperationDescription): string {
  return `op-${op.name}`
}

function docs (paragraphs: readonly string[] | undefined): string {
  return (paragraphs ?? []).map((p) => `<p class="doc">${text(p)}</p>\n`).join('')
}

/** Values of an enumeration shown, at most: the WSDL states them all. */
const MAX_VALUES = 20

/** Tables of this many rows or more are written once: where one comes again, a link to the first stands for it. */
const SHARED_ROWS = 8

const HEAD = '<thead><tr><th>Name</th><th>Type</th><th>Occurs</th><th>Values</th><th>Notes</th></tr></thead>'

type Message = { readonly shape: ObjectShape, readonly schema: Readonly<Record<string, unknown>> }

function row (item: OutlineRow, parent: string | undefined): string {
  // A row's namespace is said where it differs from its parent's (its title, shown on hover).
  const title = item.namespace === '' || item.namespace === parent ? '' : ` title="${attribute(`{${item.namespace}}`)}"`
  const more = item.values.length > MAX_VALUES ? ` and ${item.values.length - MAX_VALUES} more` : ''
  const values = item.values.slice(0, MAX_VALUES).map((v) => `<code>${text(v)}</code>`).join('') + more
  return `<tr><td class="name d${Math.min(item.depth, 8)}"><code${title}>${text(item.name)}</code></td>` +
    `<td>${text(item.type)}</td><td>${text(item.occurs)}</td><td class="values">${values}</td>` +
    `<td>${text(item.notes.join('; '))}</td></tr>`
}

/** The message tables written so far, by their HTML: a large contract's header blocks and types come again. */
class Tables {
  private readonly written = new Map<string, { readonly id: string, readonly label: string }>()

  /** The table of a message of an operation (`part` names it), or a link to the same table written before. */
  table (message: Message, op: OperationDescription, part: string): string {
    const rows = outline(message.shape, message.schema)
    if (rows.length === 0) return '<p>Empty.</p>\n'
    const parents: string[] = []
    const body = rows.map((item) => {
      parents[item.depth] = item.namespace
      return row(item, parents[item.depth - 1])
    }).join('\n')
    const html = `${HEAD}\n<tbody>\n${body}\n</tbody></table>\n`
    const first = this.written.get(html)
    if (first !== undefined) {
      const link = `<a href="#${attribute(first.id)}">${text(first.label)}</a>`
      return `<p class="same">The same as ${link} (${rows.length} rows).</p>\n`
    }
    if (rows.length < SHARED_ROWS) return `<table>${html}`
    const id = `${sectionId(op)}-${part}`
    this.written.set(html, { id, label: `${op.name}, ${part.replaceAll('-', ' ')}` })
    return `<table id="${attribute(id)}">${html}`
  }
}

function message (
  tables: Tables, op: OperationDescription, part: string, title: string,
  element: ElementDescription | undefined, none: string
): string {
  if (element === undefined) return `<h4>${title}</h4>\n<p>${none}</p>\n`
  const namespace = attribute(`{${element.namespace}}`)
  const heading = `<h4>${title}: <code title="${namespace}">${text(element.name)}</code></h4>\n`
  return heading + tables.table(element, op, part)
}

/** The "try it" form: a sample envelope per version, the 1.2 one hidden until chosen. */
function tryIt (op: OperationDescription, content: PageContent): string {
  let out = `<h3>Try it</h3>\n<form class="try" data-action="${attribute(op.action)}">\n<fieldset>`
  for (const version of ['1.1', '1.2'] as const) {
    const checked = version === '1.1' ? ' checked' : ''
    out += `<label><input type="radio" name="version" value="${version}"${checked}> SOAP ${version}</label> `
  }
  out += '</fieldset>\n'
  for (const version of ['1.1', '1.2'] as const) {
    const sample = content.sample(op, version)
    // As many rows as the sample has lines, from 4 to 24.
    const rows = Math.min(24, Math.max(4, sample.split('\n').length + 1))
    const label = `SOAP ${version} request to ${op.name}`
    const hidden = version === '1.2' ? ' hidden' : ''
    out += `<textarea data-version="${version}" rows="${rows}" aria-label="${attribute(label)}"` +
      ` spellcheck="false"${hidden}>` +
      `${text(sample)}</textarea>\n`
  }
  return out + '<p><button type="submit">Send</button> <output class="status"></output></p>\n' +
    '<pre class="reply"></pre>\n</form>\n'
}

function section (op: OperationDescription, content: PageContent, tables: Tables): string {
  const { input, output, headers, outputHeaders, faults } = op
  let out = `<section id="${attribute(sectionId(op))}" class="operation">\n<h2>${text(op.name)}</h2>\n`
  out += docs(content.documentation.operations.get(op.name))
  out += `<p>SOAP action: <code class="action">${text(op.action)}</code></p>\n`
  out += '<h3>Request</h3>\n'
  if (headers !== undefined) out += `<h4>Header blocks</h4>\n${tables.table(headers, op, 'request-headers')}`
  out += message(tables, op, 'request', 'Body', input, 'An empty Body: the action names the operation.')
  out += '<h3>Response</h3>\n'
  if (op.oneWay) {
    out += '<p>None: one-way, answered <code>202 Accepted</code> with no body.</p>\n'
  } else {
    if (outputHeaders !== undefined && outputHeaders.shape.elements.length > 0) {
      out += `<h4>Header blocks</h4>\n${tables.table(outputHeaders, op, 'response-headers')}`
    }
    out += message(tables, op, 'response', 'Body', output, 'An empty Body.')
  }
  if (faults.size > 0 && !op.oneWay) {
    out += '<h3>Faults</h3>\n'
    for (const [fault, detail] of faults) {
      out += message(tables, op, `fault-${fault}`, `<span class="fault">${text(fault)}</span>, detail`, detail, '')
    }
  }
  return out + tryIt(op, content) + '</section>\n'
}

/** The whole page. */
export function renderPage (content: PageContent): string {
  const { service } = content
  const name = text(service.name)
  const schemas = content.schemas
    .map((s) => ` · <a href="?xsd=${attribute(encodeURIComponent(s))}">schema ${text(s)}</a>`).join('')
  const tables = new Tables()
  const index = service.operations
    .map((op) => `<li><a href="#${attribute(sectionId(op))}">${text(op.name)}</a></li>`)
  return '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    `<title>${name}: SOAP service</title>\n<link rel="stylesheet" href="?page.css">\n` +
    '<script src="?page.js" defer></script>\n</head>\n<body>\n' +
    `<header>\n<h1>${name}</h1>\n<p class="namespace">Target namespace <code>${text(service.namespace)}</code></p>\n` +
    docs(content.documentation.service) +
    `<p class="links">Description: <a href="?wsdl">WSDL</a>${schemas}. ` +
    'SOAP 1.1 (<code>text/xml</code>) and 1.2 (<code>application/soap+xml</code>) on this URL.</p>\n</header>\n' +
    `<nav>\n<h2>Operations (${service.operations.length})</h2>\n<ol>\n${index.join('\n')}\n</ol>\n</nav>\n` +
    service.operations.map((op) => section(op, content, tables)).join('') +
    '</body>\n</html>\n'
}
