/**
 * Contract first, part 3: a WSDL 1.1 read into a service declaration
 * (docs/contract-first.md). The binding chosen gives the operations, their
 * elements (document/literal, wrapped or bare) or parts (rpc/literal), header
 * blocks, faults and actions; their schemas come from lib/contract/xsd-read.ts.
 * The user's handlers are bound to the contract in lib/contract/bind.ts.
 */
import type { Element as DomElement } from '@xmldom/xmldom'
import { checkCatalog, ContractDocuments, type ContractCatalog, type ContractResolver } from './documents'
import { attr, childElements } from './dom'
import { SchemaModel, type QName } from './xsd-read'
import { required } from './checks'
import { shareDefs } from './defs'
import { asText } from './content'
import { SOAP_ERR_CONTRACT_INVALID, SOAP_ERR_CONTRACT_UNSUPPORTED } from '../errors'
import type { JsonSchema } from '../service/declaration'
import { WSDL_NS, WSDL_SOAP11_NS, WSDL_SOAP12_NS, qnameKey } from '../namespaces'
import { defaultAction } from '../service/declaration'
import { addressingOf, mtomOf, operationSecurity, statedAction, type OperationSubjects } from './policy-read'
import type { PolicySubject } from '../ws/ws-policy'
import type { OperationSecurityPolicy } from '../ws/security/security-policy'
import { checkName, checkSignatures } from './signatures'
import { wildcardExamples } from './wildcard-examples'

type Schema = Record<string, unknown>

/** One operation of a contract: the schemas a code-first operation would declare. */
export interface ContractOperation {
  readonly input?: JsonSchema
  readonly output?: JsonSchema
  readonly headers?: JsonSchema
  /**
   * The reply's header blocks (`soap:header` parts of the output), given by
   * `call.replyHeaders()`. Present, maybe with no properties, when the output
   * message has no Body part: the reply is then an empty Body.
   */
  readonly outputHeaders?: JsonSchema
  readonly faults?: Readonly<Record<string, JsonSchema>>
  readonly action: string
  /** The output's and the faults' actions, as the WSDL states them or WS-Addressing's default pattern gives them. */
  readonly outputAction?: string
  readonly faultActions?: Readonly<Record<string, string>>
}

export interface Contract {
  /** The service's name: the wsdl:service's, or the binding's when there is none. */
  readonly name: string
  readonly namespace: string
  /** The bindings served, `{namespace}localName`, and their SOAP versions. */
  readonly bindings: ReadonlyArray<{ readonly name: string, readonly version: '1.1' | '1.2' }>
  readonly operations: Readonly<Record<string, ContractOperation>>
  /** WS-Addressing, when the binding declares it (wsam:Addressing or wsaw:UsingAddressing). */
  readonly addressing?: { readonly required: boolean }
  /** What the binding's MTOM policy assertion asks: `'request'` when optional, `'always'` when required. */
  readonly mtom?: 'request' | 'always'
  /** The WSDL and the documents it imports, as served: the address left as lib/namespaces.ts's ADDRESS. */
  readonly wsdl: { readonly document: string, readonly schemas: Readonly<Record<string, string>> }
  /**
   * What the WS-Policy attached anywhere to an operation (service, ports,
   * bindings, portType, operations, messages) says of WS-Security, by
   * operation (docs/contract-first.md "WS-Security").
   */
  readonly security?: Readonly<Record<string, OperationSecurityPolicy>>
}

/** Where the contract comes from, and which part of it to serve. */
export interface ContractSource {
  /** The WSDL's file: a path, or a `file:` URL. */
  readonly wsdl?: string | URL
  /** The WSDL itself, instead of `wsdl`. */
  readonly document?: string | Uint8Array
  /** With `document`: the directory its relative imports are read from. */
  readonly base?: string
  /** Gives documents named by absolute URL; without it, such an import is an error. */
  readonly resolver?: ContractResolver
  /**
   * Maps locations (as written, or the absolute URL they resolve to) to local
   * files or other URLs, consulted first; or an XML catalog file.
   */
  readonly catalog?: ContractCatalog
  /** The folder the contract's files are read from (relative to the root WSDL's folder): that folder by default. */
  readonly root?: string | URL
  /** The wsdl:service to serve, when the WSDL has several. */
  readonly service?: string
  /** The wsdl:binding to serve (a WSDL with no service, or a service whose ports bind different portTypes). */
  readonly binding?: string
}

function key (name: QName): string {
  return qnameKey(name[0], name[1])
}

function children (node: DomElement, namespace: string, localName: string): DomElement[] {
  return childElements(node).filter((c) => c.namespaceURI === namespace && c.localName === localName)
}

interface BindingInfo {
  readonly node: DomElement
  readonly name: QName
  readonly version: '1.1' | '1.2'
  readonly soap: string
  readonly style: string
  readonly portType: QName
}

/** The named WSDL components of every definitions element a contract loads. */
class WsdlModel {
  readonly messages = new Map<string, DomElement>()
  readonly portTypes = new Map<string, DomElement>()
  readonly bindings = new Map<string, DomElement>()
  readonly services = new Map<string, DomElement>()

  constructor (readonly schemas: SchemaModel, definitions: readonly DomElement[]) {
    for (const d of definitions) {
      const tns = attr(d, 'targetNamespace') ?? ''
      for (const child of childElements(d)) {
        if (child.namespaceURI !== WSDL_NS) continue
        const map = child.localName === 'message'
          ? this.messages
          : child.localName === 'portType'
            ? this.portTypes
            : child.localName === 'binding' ? this.bindings : child.localName === 'service' ? this.services : undefined
        map?.set(qnameKey(tns, attr(child, 'name') as string), child)
      }
    }
  }

  get (map: Map<string, DomElement>, what: string, name: QName, where: string): DomElement {
    const found = map.get(key(name))
    if (found === undefined) throw new SOAP_ERR_CONTRACT_INVALID(where, `the ${what} ${key(name)} is not defined`)
    return found
  }

  /** A binding's SOAP extension, or undefined for another binding (HTTP GET/POST, MIME). */
  soapBinding (node: DomElement, name: QName): BindingInfo | undefined {
    for (const [soap, version] of [[WSDL_SOAP11_NS, '1.1'], [WSDL_SOAP12_NS, '1.2']] as const) {
      const ext = children(node, soap, 'binding')[0]
      if (ext === undefined) continue
      const style = attr(ext, 'style') ?? 'document'
      return { node, name, version, soap, style, portType: this.schemas.qnameOf(node, 'type') }
    }
    return undefined
  }
}

/** Finds a component by local name or `{namespace}localName`. */
function byName (map: Map<string, DomElement>, name: string): Array<[string, DomElement]> {
  return [...map].filter(([k]) => k === name || k.endsWith(`}${name}`))
}

/** The bindings to serve: the option's, or the SOAP ports of the one service. */
function chooseBindings (
  model: WsdlModel, source: ContractSource, where: string
): { bindings: BindingInfo[], service: DomElement | undefined } {
  const soapOf = (k: string, node: DomElement): BindingInfo | undefined =>
    model.soapBinding(node, [k.slice(1, k.indexOf('}')), k.slice(k.indexOf('}') + 1)])
  if (source.binding !== undefined) {
    const found = byName(model.bindings, source.binding)
    if (found.length !== 1) {
      const there = [...model.bindings.keys()].join(', ')
      throw new SOAP_ERR_CONTRACT_INVALID(
        where,
        `${found.length === 0 ? 'no' : 'more than one'} wsdl:binding is named ${source.binding} (there are ${there})`
      )
    }
    const info = soapOf(...found[0])
    if (info === undefined) {
      throw new SOAP_ERR_CONTRACT_INVALID(where, `the binding ${found[0][0]} is no SOAP 1.1 or 1.2 binding`)
    }
    const service = [...model.services.values()]
      .find((s) => children(s, WSDL_NS, 'port').some((p) => key(model.schemas.qnameOf(p, 'binding')) === found[0][0]))
    return { bindings: [info], service }
  }
  let services = [...model.services]
  if (source.service !== undefined) {
    services = byName(model.services, source.service)
    if (services.length !== 1) {
      const there = [...model.services.keys()].join(', ') || 'none'
      throw new SOAP_ERR_CONTRACT_INVALID(
        where,
        `${services.length === 0 ? 'no' : 'more than one'} wsdl:service is named ${source.service} (there are ${there})`
      )
    }
  }
  if (services.length === 0) {
    const soap = [...model.bindings].map(([k, node]) => soapOf(k, node)).filter((b) => b !== undefined)
    if (soap.length === 1) return { bindings: soap, service: undefined }
    throw new SOAP_ERR_CONTRACT_INVALID(
      where,
      `the WSDL has no wsdl:service and ${soap.length === 0 ? 'no' : 'several'} SOAP bindings: ` +
        `choose one with "binding" (${[...model.bindings.keys()].join(', ')})`
    )
  }
  if (services.length > 1) {
    throw new SOAP_ERR_CONTRACT_INVALID(
      where, `the WSDL has several services: choose one with "service" (${services.map(([k]) => k).join(', ')})`
    )
  }
  const service = services[0][1]
  const bindings: BindingInfo[] = []
  for (const port of children(service, WSDL_NS, 'port')) {
    const name = model.schemas.qnameOf(port, 'binding')
    const info = soapOf(key(name), model.get(model.bindings, 'binding', name, where))
    if (info !== undefined && !bindings.some((b) => key(b.name) === key(info.name))) bindings.push(info)
  }
  if (bindings.length === 0) {
    throw new SOAP_ERR_CONTRACT_INVALID(where, `the service ${services[0][0]} has no SOAP port`)
  }
  const portTypes = new Set(bindings.map((b) => key(b.portType)))
  if (portTypes.size > 1) {
    throw new SOAP_ERR_CONTRACT_INVALID(
      where,
      `the ports of ${services[0][0]} bind several portTypes (${[...portTypes].join(', ')}): ` +
        `choose one binding with "binding" (${bindings.map((b) => key(b.name)).join(', ')})`
    )
  }
  return { bindings, service }
}

/** The parts of a message, by name. */
function partsOf (model: WsdlModel, message: QName, where: string): Map<string, DomElement> {
  const node = model.get(model.messages, 'message', message, where)
  const parts = children(node, WSDL_NS, 'part')
  const bare = parts.find((p) => attr(p, 'element') === undefined && attr(p, 'type') === undefined)
  if (bare !== undefined) {
    throw new SOAP_ERR_CONTRACT_INVALID(
      where,
      `the part ${attr(bare, 'name') ?? '(no name)'} of message ${key(message)} names neither an element nor a type`
    )
  }
  return new Map(parts.map((p) => [attr(p, 'name') as string, p]))
}

/** The one extension element of a binding's wsdl:input or wsdl:output. */
function bodyOf (io: DomElement | undefined, soap: string): DomElement | undefined {
  return io === undefined ? undefined : children(io, soap, 'body')[0]
}

function checkLiteral (node: DomElement | undefined, what: string, where: string): void {
  if (node !== undefined && attr(node, 'use') === 'encoded') {
    throw new SOAP_ERR_CONTRACT_UNSUPPORTED(`SOAP encoding (use="encoded" on ${what})`, where)
  }
}

interface Direction {
  readonly schema: Schema | undefined
  readonly headers: Map<string, Schema>
}

/** The Body content and header blocks of one direction of an operation. */
function direction (
  model: WsdlModel,
  binding: BindingInfo,
  style: string,
  operation: string,
  message: QName,
  io: DomElement | undefined,
  response: boolean,
  where: string
): Direction {
  const parts = partsOf(model, message, where)
  const body = bodyOf(io, binding.soap)
  checkLiteral(body, `${where} ${response ? 'output' : 'input'}`, where)
  const headers = new Map<string, Schema>()
  const headerParts = new Set<string>()
  const bound = new Set<string>()
  for (const header of io === undefined ? [] : children(io, binding.soap, 'header')) {
    checkLiteral(header, `a header of ${where}`, where)
    const headerMessage = model.schemas.qnameOf(header, 'message')
    const partName = attr(header, 'part') as string
    const part = partsOf(model, headerMessage, where).get(partName)
    if (part === undefined) {
      throw new SOAP_ERR_CONTRACT_INVALID(where, `the header part ${partName} is not in message ${key(headerMessage)}`)
    }
    // A part bound twice (Exchange's WSDL does it) is one header block.
    if (bound.has(`${key(headerMessage)} ${partName}`)) continue
    bound.add(`${key(headerMessage)} ${partName}`)
    if (key(headerMessage) === key(message)) headerParts.add(partName)
    const element = attr(part, 'element')
    if (element === undefined) {
      throw new SOAP_ERR_CONTRACT_UNSUPPORTED(
        `the header part ${partName} typed with type= (a header block must be an element)`, where
      )
    }
    const name = model.schemas.qname(part, element)
    let property = name[1]
    for (let n = 2; headers.has(property); n++) property = `${name[1]}${n}`
    headers.set(property, model.schemas.topElement(name, `${where} header ${partName}`).schema)
  }
  const listed = body === undefined ? undefined : attr(body, 'parts')
  const bodyParts = listed !== undefined
    ? listed.split(/\s+/).filter((p) => p !== '').map((p) => {
      const part = parts.get(p)
      if (part === undefined) {
        throw new SOAP_ERR_CONTRACT_INVALID(
          where, `soap:body names the part ${p}, which message ${key(message)} does not have`
        )
      }
      return part
    })
    : [...parts.entries()].filter(([n]) => !headerParts.has(n)).map(([, p]) => p)

  if (style === 'rpc') {
    // rpc/literal: a wrapper named after the operation (its response: + "Response")
    // in soap:body's namespace, one unqualified accessor per part.
    const namespace = body === undefined ? '' : attr(body, 'namespace') ?? ''
    const properties: Schema = {}
    for (const part of bodyParts) {
      const partName = attr(part, 'name') as string
      const type = attr(part, 'type')
      if (type === undefined) {
        throw new SOAP_ERR_CONTRACT_UNSUPPORTED(
          `the rpc part ${partName} given by element= (rpc/literal parts name a type, WS-I BP R2203)`, where
        )
      }
      const typed = model.schemas.namedType(model.schemas.qname(part, type), `${where} part ${partName}`)
      properties[partName] = { ...typed, xml: { ...(typed.xml as object | undefined), namespace: '' } }
    }
    const schema: Schema = {
      type: 'object',
      properties,
      additionalProperties: false,
      xml: { name: response ? `${operation}Response` : operation, namespace }
    }
    // A part carries a value, or xsi:nil: every accessor is written (WS-I BP R2211 lets none be left out).
    if (bodyParts.length > 0) schema.required = bodyParts.map((p) => attr(p, 'name') as string)
    return { schema: model.schemas.withDefs(schema), headers }
  }
  if (bodyParts.length === 0) return { schema: undefined, headers }
  if (bodyParts.length > 1) {
    throw new SOAP_ERR_CONTRACT_UNSUPPORTED(
      `a document/literal message with ${bodyParts.length} Body parts (WS-I BP R2201: at most one)`, where
    )
  }
  const part = bodyParts[0]
  const element = attr(part, 'element')
  if (element === undefined) {
    throw new SOAP_ERR_CONTRACT_UNSUPPORTED(
      `the document part ${attr(part, 'name') as string} typed with type= ` +
        '(document/literal parts name an element, WS-I BP R2204)',
      where
    )
  }
  return { schema: elementObject(model, model.schemas.qname(part, element), 'Body element', where), headers }
}

/**
 * A global element as an object schema: one of simple type is an object whose
 * text is `$value`, as simple content is. A nillable one (WCF marks every
 * fault detail so) is its type: a message or detail is written with a value,
 * never nil, and a request's operation element that is nil is refused.
 */
function elementObject (model: WsdlModel, name: QName, what: string, where: string): Schema {
  const top = model.schemas.topElement(name, where)
  const { nullable, ...schema } = top.schema
  if (Array.isArray(schema.enum)) schema.enum = schema.enum.filter((v) => v !== null)
  if (!top.simple) return model.schemas.withDefs(schema)
  if (schema.type === 'array') throw new SOAP_ERR_CONTRACT_UNSUPPORTED(`the ${what} ${key(name)} of a list type`, where)
  const { name: local, namespace } = schema.xml as Schema
  return {
    type: 'object',
    properties: { $value: asText(schema) },
    required: ['$value'],
    additionalProperties: false,
    xml: { name: local, namespace }
  }
}

/** Whether any input, output or fault of a portType states its action. */
function statesActions (portType: DomElement): boolean {
  return children(portType, WSDL_NS, 'operation')
    .some((op) => childElements(op).some((m) => statedAction(m) !== undefined))
}

/**
 * WS-Addressing 1.0 Metadata §4.4.4, the default action pattern:
 * `[target namespace][delimiter][port type name][delimiter][message name]`,
 * the delimiter ':' for a URN and '/' otherwise, not doubled after a '/'.
 */
function patternAction (tns: string, ...names: string[]): string {
  const delimiter = tns.startsWith('urn:') ? ':' : '/'
  return (tns.endsWith('/') ? tns.slice(0, -1) : tns) + names.map((n) => delimiter + n).join('')
}

function headersSchema (schemas: SchemaModel, headers: Map<string, Schema>, empty = false): JsonSchema | undefined {
  if (headers.size === 0 && !empty) return undefined
  // Header blocks are optional: a contract rarely says a client must send one, and clients leave them out.
  return schemas.withDefs({ type: 'object', properties: Object.fromEntries(headers), additionalProperties: false })
}

/**
 * The policy subjects of an operation (WS-PolicyAttachment §4.1): the
 * endpoint's, then each served binding's operation and the portType's, their
 * inputs and the input message, their outputs and faults and those messages.
 */
function policySubjects (
  model: WsdlModel, endpoint: readonly PolicySubject[], bindings: readonly BindingInfo[],
  op: DomElement, name: string, where: string
): OperationSubjects {
  const operation: PolicySubject[] = [...endpoint, { node: op, name: `portType operation ${name}` }]
  const input: PolicySubject[] = []
  const reply: PolicySubject[] = []
  const fault: PolicySubject[] = []
  const messages = (node: DomElement, what: string): void => {
    for (const m of childElements(node)) {
      if (m.namespaceURI !== WSDL_NS || !['input', 'output', 'fault'].includes(m.localName ?? '')) continue
      const subjects = m.localName === 'input' ? input : m.localName === 'output' ? reply : fault
      const named = m.localName === 'fault' ? ` ${attr(m, 'name') ?? ''}` : ''
      subjects.push({ node: m, name: `${what} ${m.localName}${named}` })
      const message = attr(m, 'message')
      if (message !== undefined) {
        const qname = model.schemas.qname(m, message)
        subjects.push({ node: model.get(model.messages, 'message', qname, where), name: `message ${key(qname)}` })
      }
    }
  }
  messages(op, `portType operation ${name}`)
  for (const b of bindings) {
    const bound = children(b.node, WSDL_NS, 'operation').find((o) => attr(o, 'name') === name)
    if (bound === undefined) continue
    operation.push({ node: bound, name: `binding ${key(b.name)} operation ${name}` })
    messages(bound, `binding ${key(b.name)} operation ${name}`)
  }
  return { operation, input, reply, fault }
}

/** Reads a WSDL and what it imports into the operations of one service. */
export async function readContract (source: ContractSource): Promise<Contract> {
  const file = source.wsdl instanceof URL ? source.wsdl.href : source.wsdl
  if ((file === undefined) === (source.document === undefined)) {
    throw new SOAP_ERR_CONTRACT_INVALID('(source)', 'give either "wsdl" (a file) or "document" (the WSDL itself)')
  }
  if (source.resolver !== undefined && typeof source.resolver !== 'function') {
    throw new SOAP_ERR_CONTRACT_INVALID(String(file), '"resolver" must be a function')
  }
  const where = file ?? '(document)'
  if (source.catalog !== undefined) checkCatalog(source.catalog, where)
  if (
    source.root !== undefined &&
    !((typeof source.root === 'string' && source.root !== '') || source.root instanceof URL)
  ) {
    throw new SOAP_ERR_CONTRACT_INVALID(where, '"root" must be a folder: a path or a file: URL')
  }
  const schemas = new SchemaModel()
  const documents = new ContractDocuments(schemas, source.resolver, source.catalog)
  // A file: URL is a path with its characters escaped (a space is %20): read back as the path it names.
  await documents.load({ file, text: source.document, base: source.base, root: source.root })
  const model = new WsdlModel(schemas, documents.definitions)
  const { bindings, service } = chooseBindings(model, source, where)
  for (const b of bindings) {
    for (const op of children(b.node, WSDL_NS, 'operation')) {
      const what = `binding ${key(b.name)} operation ${attr(op, 'name') as string}`
      for (const io of childElements(op)) {
        for (const ext of childElements(io)) checkLiteral(ext, what, `binding ${key(b.name)}`)
      }
    }
  }
  const main = bindings[0]
  const tns = attr(documents.definitions[0], 'targetNamespace') ?? ''
  const portType = model.get(model.portTypes, 'portType', main.portType, where)
  const declared = new Set(children(portType, WSDL_NS, 'operation').map((op) => attr(op, 'name')))
  const unknown = children(main.node, WSDL_NS, 'operation').find((op) => !declared.has(attr(op, 'name')))
  if (unknown !== undefined) {
    throw new SOAP_ERR_CONTRACT_INVALID(
      `binding ${key(main.name)}`,
      `it binds the operation ${attr(unknown, 'name') ?? '(no name)'}, ` +
        `which the portType ${key(main.portType)} does not have`
    )
  }
  const served = new Set(bindings.map((b) => key(b.name)))
  const servedPort = (p: DomElement): boolean => served.has(key(schemas.qnameOf(p, 'binding')))
  const ports = service === undefined ? [] : children(service, WSDL_NS, 'port').filter(servedPort)
  const endpoint = [
    ...(service === undefined ? [] : [{ node: service, name: `service ${attr(service, 'name') as string}` }]),
    ...ports.map((p) => ({ node: p, name: `port ${attr(p, 'name') as string}` })),
    ...bindings.map((b) => ({ node: b.node, name: `binding ${key(b.name)}` })),
    { node: portType, name: `portType ${key(main.portType)}` }
  ]
  const operations: Record<string, ContractOperation> = {}
  const security: Record<string, OperationSecurityPolicy> = {}
  for (const op of children(portType, WSDL_NS, 'operation')) {
    const name = attr(op, 'name') as string
    const at = `operation ${name}`
    checkName(name, 'operation', at)
    if (Object.hasOwn(operations, name)) {
      throw new SOAP_ERR_CONTRACT_UNSUPPORTED(`the overloaded operation ${name} (two operations of one name)`, at)
    }
    const input = children(op, WSDL_NS, 'input')[0]
    const output = children(op, WSDL_NS, 'output')[0]
    if (
      input === undefined ||
      (output !== undefined && childElements(op).indexOf(output) < childElements(op).indexOf(input))
    ) {
      throw new SOAP_ERR_CONTRACT_UNSUPPORTED(
        `the ${input === undefined ? 'notification' : 'solicit-response'} operation ${name} ` +
          '(the server would send first)',
        at
      )
    }
    const bound = children(main.node, WSDL_NS, 'operation').find((o) => attr(o, 'name') === name)
    if (bound === undefined) throw new SOAP_ERR_CONTRACT_INVALID(at, `the binding ${key(main.name)} does not bind it`)
    const soapOperation = children(bound, main.soap, 'operation')[0]
    const style = (soapOperation === undefined ? undefined : attr(soapOperation, 'style')) ?? main.style
    const inputs = direction(
      model, main, style, name, schemas.qnameOf(input, 'message'), children(bound, WSDL_NS, 'input')[0], false, at
    )
    const outputs = output === undefined
      ? undefined
      : direction(
        model, main, style, name, schemas.qnameOf(output, 'message'), children(bound, WSDL_NS, 'output')[0], true, at
      )
    const faults: Record<string, JsonSchema> = {}
    const faultActions: Record<string, string> = {}
    for (const fault of children(op, WSDL_NS, 'fault')) {
      const faultName = required(fault, 'name', at)
      checkName(faultName, 'fault', at)
      faultActions[faultName] = statedAction(fault) ?? patternAction(tns, main.portType[1], name, 'Fault', faultName)
      const parts = [...partsOf(model, schemas.qnameOf(fault, 'message'), at).values()]
      const element = parts.length === 1 ? attr(parts[0], 'element') : undefined
      if (element === undefined) {
        throw new SOAP_ERR_CONTRACT_UNSUPPORTED(
          `the fault ${faultName}, whose message is not one part naming an element (WS-I BP R2205)`, at
        )
      }
      faults[faultName] = elementObject(
        model, schemas.qname(parts[0], element), 'fault detail element', `${at} fault ${faultName}`
      )
    }
    // The action: the first binding's that gives one; none gives the code-first default.
    let action: string | undefined
    for (const b of bindings) {
      const o = children(b.node, WSDL_NS, 'operation').find((x) => attr(x, 'name') === name)
      const soapAction = o === undefined
        ? undefined
        : children(o, b.soap, 'operation').map((x) => attr(x, 'soapAction')).find((a) => a !== undefined && a !== '')
      action ??= soapAction
    }
    const subjects = policySubjects(model, endpoint, bindings, op, name, where)
    security[name] = operationSecurity(documents.definitions, subjects)
    operations[name] = {
      input: inputs.schema,
      output: outputs?.schema,
      headers: headersSchema(schemas, inputs.headers),
      // An output with no Body part still answers (an empty Body): its header
      // blocks' schema, with no properties when there are none, says so.
      outputHeaders: outputs === undefined
        ? undefined
        : headersSchema(schemas, outputs.headers) ??
          (outputs.schema === undefined ? headersSchema(schemas, new Map(), true) : undefined),
      faults: Object.keys(faults).length === 0 ? undefined : faults,
      action: action ?? statedAction(input) ?? defaultAction(tns, name),
      outputAction: output === undefined
        ? undefined
        : statedAction(output) ?? patternAction(tns, main.portType[1], attr(output, 'name') ?? `${name}Response`),
      faultActions: Object.keys(faults).length === 0 ? undefined : faultActions
    }
  }

  checkSignatures(operations)
  wildcardExamples(schemas)
  shareDefs(Object.values(operations).flatMap((op) => [
    op.input, op.output, op.headers, op.outputHeaders, ...Object.values(op.faults ?? {})
  ] as Array<Record<string, unknown> | undefined>))
  // The served ports' addresses become the live one.
  const addresses: Array<{ node: DomElement, attribute: string }> = []
  for (const port of service === undefined ? [] : children(service, WSDL_NS, 'port')) {
    const bindingName = key(schemas.qnameOf(port, 'binding'))
    if (!bindings.some((b) => key(b.name) === bindingName)) continue
    for (const address of childElements(port)) {
      if (
        (address.namespaceURI === WSDL_SOAP11_NS || address.namespaceURI === WSDL_SOAP12_NS) &&
        address.localName === 'address'
      ) addresses.push({ node: address, attribute: 'location' })
    }
  }
  const name = service === undefined ? main.name[1] : attr(service, 'name') as string
  checkName(name, 'service', service === undefined ? `binding ${key(main.name)}` : `service ${name}`)
  return {
    name,
    namespace: tns,
    bindings: bindings.map((b) => ({ name: key(b.name), version: b.version })),
    operations,
    // Actions stated on the portType's messages are WS-Addressing's (Metadata
    // §4.4.1): peers of such a WSDL (IHE XDS.b's has them and no policy) send
    // its headers, so addressing is on, optional, unless the binding says more.
    addressing: addressingOf(main.node, documents.definitions) ??
      (statesActions(portType) ? { required: false } : undefined),
    mtom: mtomOf(main.node, documents.definitions),
    wsdl: documents.serve(addresses),
    security
  }
}
