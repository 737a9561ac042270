/**
 * Description, part 2: the WSDL 1.1 document of a declared service, and the
 * `GET <path>?wsdl` / `?xsd=<name>` route that serves it (docs/protocol.md "GET").
 *
 * Document/literal throughout (WS-I Basic Profile 1.1): one message part per
 * Body, naming the operation's element; a SOAP 1.1 and a SOAP 1.2 binding
 * whose soapAction is the action dispatch accepts; a port for each whose
 * address is the live endpoint's. The documents are built on the first
 * request, then kept; only the address changes from one request to the next.
 */
import { createHash } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Field, ObjectShape } from '../codec/shapes'
import type { ElementDescription, OperationDescription, ServiceDescription } from '../service/description'
import type { SoapWsdlOptions } from '../types'
import { acceptsHtml, buildPage, pageAsset, sendPage, type ServicePage } from './service-page'
import { Prefixes, node, render, type XmlNode } from './xml-nodes'
import { SchemaSet } from './xsd-write'
import {
  ADDRESS, SOAP_HTTP_TRANSPORT, WSAM_NS, WSDL_NS, WSDL_SOAP11_NS, WSDL_SOAP12_NS, WSOMA_NS, WSP_NS, WSU_NS, XSD_NS,
  qnameKey
} from '../namespaces'

/** A rendered document, cut where the endpoint's address goes. */
type Template = readonly string[]

/** The documents served of a service: its WSDL and its schemas by name. */
export interface Documents {
  readonly wsdl: Template
  readonly xsd: ReadonlyMap<string, Template>
}

function cut (text: string): Template {
  return text.split(ADDRESS)
}

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'

function messages (service: ServiceDescription, schemas: SchemaSet, faultMessage: FaultMessages): XmlNode[] {
  const out: XmlNode[] = []
  const written = new Set<string>()
  const part = (name: string, element: string): XmlNode => node('wsdl:part', { name, element })
  for (const op of service.operations) {
    const { input, output, headers, outputHeaders } = op
    const where = `${service.name}.${op.name}`
    const top = (element: ElementDescription, key: string): XmlNode =>
      part('parameters', schemas.topElement(element.name, element.namespace, element.shape, element.schema,
        `${where}.${key}`))
    out.push(node('wsdl:message', { name: `${op.name}Request` }, input === undefined ? [] : [top(input, 'input')]))
    // An output with no Body element (only header blocks) is a message with no part: an empty Body.
    if (!op.oneWay) {
      const parts = output === undefined ? [] : [top(output, 'output')]
      out.push(node('wsdl:message', { name: `${op.name}Response` }, parts))
    }
    const blocks = (
      of: { readonly shape: ObjectShape, readonly schema: Readonly<Record<string, unknown>> }, name: string, key: string
    ): void => {
      const properties = of.schema.properties as Record<string, Readonly<Record<string, unknown>>>
      const parts = of.shape.elements.map((field) =>
        part(
          headerPart(of.shape, field),
          schemas.topField(field, properties[field.property], of.schema, `${where}.${key}/properties/${field.property}`)
        ))
      out.push(node('wsdl:message', { name }, parts))
    }
    if (headers !== undefined) blocks(headers, `${op.name}Headers`, 'headers')
    // "ResponseHeader": no other message name ends so, whatever the operations are named.
    if (outputHeaders !== undefined && outputHeaders.shape.elements.length > 0) {
      blocks(outputHeaders, `${op.name}ResponseHeader`, 'outputHeaders')
    }
    for (const [name, fault] of faultsOf(op)) {
      const element = schemas.topElement(
        fault.name, fault.namespace, fault.shape, fault.schema, `${where}.faults.${name}`
      )
      const message = faultMessage(op, name)
      if (written.has(message)) continue
      written.add(message)
      out.push(node('wsdl:message', { name: message }, [part('detail', element)]))
    }
  }
  return out
}

/**
 * The name of a fault's message: `<Fault>Fault`, or `<Op><Fault>Fault` when operations give one fault name
 * different elements.
 */
type FaultMessages = (op: OperationDescription, fault: string) => string

function faultMessages (service: ServiceDescription): FaultMessages {
  const elements = new Map<string, Set<string>>()
  for (const op of service.operations) {
    for (const [name, fault] of faultsOf(op)) {
      const set = elements.get(name) ?? new Set<string>()
      set.add(qnameKey(fault.namespace, fault.name))
      elements.set(name, set)
    }
  }
  return (op, fault) => (elements.get(fault) as Set<string>).size === 1 ? `${fault}Fault` : `${op.name}${fault}Fault`
}

/** A header block's part name: its element's local name (an NCName), numbered when two blocks share one. */
function headerPart (shape: ObjectShape, field: Field): string {
  const same = shape.elements.filter((f) => f.name === field.name)
  return same.length === 1 ? field.name : `${field.name}${same.indexOf(field) + 1}`
}

/** Faults of an operation as WSDL can state them: a one-way operation has none (WSDL 1.1 §2.4.1). */
function faultsOf (op: OperationDescription): ReadonlyMap<string, ElementDescription> {
  return op.oneWay ? NO_FAULTS : op.faults
}

const NO_FAULTS: ReadonlyMap<string, ElementDescription> = new Map()

function portType (service: ServiceDescription, faultMessage: FaultMessages): XmlNode {
  // WS-Addressing 1.0 Metadata §4.4.1: each message's action, stated.
  const action = (value: string): string | undefined => service.statesActions ? value : undefined
  return node('wsdl:portType', { name: service.name }, service.operations.map((op) => node('wsdl:operation', {
    name: op.name
  }, [
    node('wsdl:input', { message: `tns:${op.name}Request`, 'wsam:Action': action(op.action) }),
    ...(op.oneWay
      ? []
      : [node('wsdl:output', { message: `tns:${op.name}Response`, 'wsam:Action': action(op.outputAction) })]),
    ...[...faultsOf(op).keys()].map((name) => node('wsdl:fault', {
      name, message: `tns:${faultMessage(op, name)}`, 'wsam:Action': action(op.faultActions.get(name) as string)
    }))
  ])))
}

function binding (service: ServiceDescription, soap: 'soap' | 'soap12'): XmlNode {
  const name = `${service.name}${soap === 'soap' ? 'Soap11' : 'Soap12'}`
  const body = node(`${soap}:body`, { use: 'literal' })
  const operation = (op: OperationDescription): XmlNode => {
    const header = (shape: ObjectShape | undefined, message: string): XmlNode[] => shape?.elements.map((field) =>
      node(`${soap}:header`, { message: `tns:${message}`, part: headerPart(shape, field), use: 'literal' })) ?? []
    const headers = header(op.headers?.shape, `${op.name}Headers`)
    return node('wsdl:operation', { name: op.name }, [
      node(`${soap}:operation`, {
        soapAction: op.action, soapActionRequired: soap === 'soap12' ? 'false' : undefined, style: 'document'
      }),
      node('wsdl:input', {}, [...reference(service, service.inputPolicies, 'Input'), body, ...headers]),
      ...(op.oneWay
        ? []
        : [node('wsdl:output', {}, [
            ...reference(service, service.outputPolicies, 'Output'),
            body,
            ...header(op.outputHeaders?.shape, `${op.name}ResponseHeader`)
          ])]),
      ...[...faultsOf(op).keys()].map((fault) =>
        node('wsdl:fault', { name: fault }, [node(`${soap}:fault`, { name: fault, use: 'literal' })]))
    ])
  }
  return node('wsdl:binding', { name, type: `tns:${service.name}` }, [
    ...reference(service, service.policies, ''),
    node(`${soap}:binding`, { style: 'document', transport: SOAP_HTTP_TRANSPORT }),
    ...service.operations.map(operation)
  ])
}

/** A reference to the service's policy `{name}{kind}Policy` when it has assertions. */
function reference (service: ServiceDescription, assertions: readonly string[], kind: PolicyKind): XmlNode[] {
  return assertions.length === 0 ? [] : [node('wsp:PolicyReference', { URI: `#${service.name}${kind}Policy` })]
}

type PolicyKind = '' | 'Input' | 'Output'

/**
 * The service's policies (WS-Policy 1.5 §4.1, normal form): its assertions,
 * from every WS-* protocol it turns on, in one alternative, which each
 * binding references (WS-Policy Attachment 1.5 §4.1: an endpoint policy
 * subject); and those of its messages, which each operation's input, or
 * output, references (a message policy subject).
 */
function policy (service: ServiceDescription): XmlNode[] {
  const kinds: Array<[PolicyKind, readonly string[]]> =
    [['', service.policies], ['Input', service.inputPolicies], ['Output', service.outputPolicies]]
  return kinds.filter(([, assertions]) => assertions.length !== 0).map(([kind, assertions]) => {
    const all = node('wsp:All', {}, assertions.map((markup) => ({ name: '', attributes: [], children: [], markup })))
    return node('wsp:Policy', { 'wsu:Id': `${service.name}${kind}Policy` }, [node('wsp:ExactlyOne', {}, [all])])
  })
}

/**
 * The service's policies with MTOM's assertion (docs/wsdl.md "MTOM"): the
 * submission's `wsoma:OptimizedMimeSerialization`, which WCF, JAX-WS and CXF
 * read, optional where a reply is MTOM only when its request is; stated when
 * every reply is MTOM, or some may be and a message holds a base64 value.
 */
function withMtomPolicy (service: ServiceDescription, base64: boolean): ServiceDescription {
  const { mtom } = service
  if (mtom === undefined || (mtom === 'optional' && !base64)) return service
  const optional = mtom === 'optional' ? ' wsp:Optional="true"' : ''
  const assertion = `<wsoma:OptimizedMimeSerialization xmlns:wsoma="${WSOMA_NS}"${optional}/>`
  return { ...service, policies: [...service.policies, assertion] }
}

/**
 * Builds the WSDL and its schemas from a compiled service. Throws SOAP_ERR_WSDL_CONFLICT for what XSD cannot
 * express.
 */
export function describeService (described: ServiceDescription, splitSchemas: boolean): Documents {
  const prefixes = new Prefixes(described.namespace)
  const schemas = new SchemaSet(described.name, described.namespace, prefixes)
  const faultMessage = faultMessages(described)
  const messageNodes = messages(described, schemas, faultMessage)
  const service = withMtomPolicy(described, schemas.base64)
  const policies = policy(service)
  const location = (namespace: string): string => `${ADDRESS}?xsd=${prefixes.of(namespace)}`
  const xsd = new Map<string, Template>()
  for (const schema of schemas.schemas(location)) xsd.set(schema.name, cut(XML_DECLARATION + render(schema.node)))
  const types = splitSchemas
    ? [node('xs:schema', { 'xmlns:xs': XSD_NS }, schemas.schemas().map((s) =>
        node('xs:import', { namespace: s.namespace, schemaLocation: location(s.namespace) })))]
    : schemas.schemas().map((s) => s.node)
  const definitions = node('wsdl:definitions', {
    'xmlns:wsdl': WSDL_NS,
    'xmlns:soap': WSDL_SOAP11_NS,
    'xmlns:soap12': WSDL_SOAP12_NS,
    'xmlns:xs': XSD_NS,
    ...(service.statesActions ? { 'xmlns:wsam': WSAM_NS } : {}),
    ...prefixes.declarations(),
    ...(policies.length === 0 ? {} : { 'xmlns:wsp': WSP_NS, 'xmlns:wsu': WSU_NS }),
    name: service.name,
    targetNamespace: service.namespace
  }, [
    ...policies,
    node('wsdl:types', {}, types),
    ...messageNodes,
    portType(service, faultMessage),
    binding(service, 'soap'),
    binding(service, 'soap12'),
    node('wsdl:service', { name: service.name }, [
      node('wsdl:port', { name: `${service.name}Soap11`, binding: `tns:${service.name}Soap11` }, [
        node('soap:address', { location: ADDRESS })
      ]),
      node('wsdl:port', { name: `${service.name}Soap12`, binding: `tns:${service.name}Soap12` }, [
        node('soap12:address', { location: ADDRESS })
      ])
    ])
  ])
  return { wsdl: cut(XML_DECLARATION + render(definitions)), xsd }
}

/**
 * A hand-written WSDL and its schemas, served as given. A contract's
 * (lib/contract/read.ts) hold the address placeholder where the live address goes;
 * XML text can hold no U+0000, so a user's document never does.
 */
function given (options: SoapWsdlOptions): Documents {
  const xsd = new Map<string, Template>()
  for (const [name, text] of Object.entries(options.schemas ?? {})) xsd.set(name, cut(text))
  return { wsdl: cut(options.document as string), xsd }
}

// ------------------------------------------------------------------ route ---

/** A host as Host or X-Forwarded-Host may carry it: a name or an IP literal, and an optional port. */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,251}[A-Za-z0-9_])?)(?::[0-9]{1,5})?$/

function addressOf (request: FastifyRequest): string | undefined {
  const { protocol, host } = request
  if ((protocol !== 'http' && protocol !== 'https') || typeof host !== 'string' || !HOST.test(host)) return undefined
  // A parametric path's pattern is no address: the path the client asked for is.
  const route = request.routeOptions.url as string
  const query = request.url.indexOf('?')
  const path = /[:*]/.test(route) ? (query === -1 ? request.url : request.url.slice(0, query)) : route
  return `${protocol}://${host}${path}`
}

/** RFC 9110 §13.1.2: If-None-Match matches when it is `*` or lists the tag (weak comparison). */
function matches (ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim()
    return t === '*' || t === etag || t === `W/${etag}`
  })
}

function empty (reply: FastifyReply, status: number): FastifyReply {
  return reply.code(status).header('content-length', '0').send()
}

/**
 * The handler of `GET <path>`: `?wsdl` (any case) gives the WSDL, `?xsd=<name>`
 * a schema; with `servicePage`, a browser's plain GET the service page and
 * `?page.js`, `?page.css` its resources (lib/wsdl/service-page.ts); anything
 * else is 404. An address that cannot be made from the request (no Host, or
 * one that is not a host) is a 400.
 */
export function describeRoute (described: () => ServiceDescription, servicePage: boolean) {
  let documents: Documents | undefined
  let failed = false
  let page: ServicePage | undefined
  return async function soapDescription (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const service = described()
    const options = service.wsdl as SoapWsdlOptions
    const query = request.query as Record<string, unknown>
    const asset = servicePage ? pageAsset(query) : undefined
    if (asset !== undefined) {
      return reply.header('content-type', asset.type).header('x-content-type-options', 'nosniff').send(asset.body)
    }
    const wantsPage = servicePage && Object.keys(query).length === 0 &&
      acceptsHtml(request.headers.accept)
    const xsdName = Object.hasOwn(query, 'xsd') ? query.xsd : undefined
    const wantsWsdl = xsdName === undefined && Object.keys(query).some((key) => key.toLowerCase() === 'wsdl')
    if (!wantsWsdl && !wantsPage && typeof xsdName !== 'string') return empty(reply, 404)
    if (failed) return empty(reply, 500)
    if (documents === undefined) {
      try {
        documents = options.document === undefined
          ? describeService(service, options.splitSchemas === true)
          : given(options)
      } catch (err) {
        failed = true
        request.log.error({ err }, 'fastify-soap: the WSDL cannot be written')
        return empty(reply, 500)
      }
    }
    if (wantsPage) {
      const wsdl = options.document === undefined ? undefined : documents.wsdl.join('')
      page ??= buildPage(service, wsdl, [...documents.xsd.keys()])
      return sendPage(reply, page)
    }
    const template = wantsWsdl ? documents.wsdl : documents.xsd.get(xsdName as string)
    if (template === undefined) return empty(reply, 404)
    let body = template[0]
    if (template.length > 1) {
      const address = options.address ?? addressOf(request)
      if (address === undefined) return empty(reply, 400)
      body = template.join(address.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`))
    }
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`
    reply.header('etag', etag)
    if (matches(request.headers['if-none-match'], etag)) return reply.code(304).send()
    return reply.header('content-type', 'text/xml; charset=utf-8').send(body)
  }
}
