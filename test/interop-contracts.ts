/**
 * Two contracts of the corpus (docs/contract-first.md "The corpus") served by
 * `app.soap.contract()` on a loopback port, for the JAX-WS and WCF clients
 * (test/interop-jaxws-contracts.test.ts, test/interop-wcf-contracts.test.ts):
 * OCPP 1.6's central system (SOAP 1.2, WS-Addressing by wsaw:UsingAddressing,
 * the chargeBoxIdentity header block on every operation) and Microsoft
 * Advertising's Reporting API v13, a WSDL that WCF wrote (SOAP 1.1, message
 * contract header blocks, declared faults). Every handler records what it got.
 */
import { join } from 'node:path'
import type { TestContext } from 'node:test'
import Fastify, { type FastifyInstance } from 'fastify'
import soap, { SoapFault, type SoapHandlerCall } from '../lib/index'
import { sharedFixture } from './helper'
import { recordExchanges, type Exchange } from './interop'

export const OCPP_WSDL = ['ocpp16', 'OCPP_CentralSystemService_1.6.wsdl']
export const BING_WSDL = ['bingads-reporting', 'reporting_service.wsdl']
const TRANSPORT_BINDING_2005 = '{http://schemas.xmlsoap.org/ws/2005/07/securitypolicy}TransportBinding'

/** The charge box the central system knows; Authorize from any other is a Sender fault. */
export const CHARGE_BOX = 'CB-0001'
export const UNKNOWN_BOX = 'CB-9999'
export const CENTRAL = 'urn:example:central-system'
export const UNKNOWN_BOX_REASON = `unknown charge box ${UNKNOWN_BOX}`

export const BOOTED = { status: 'Accepted', currentTime: '2030-01-15T09:30:00Z', interval: 300 }
export const HEARTBEAT = { currentTime: '2030-01-15T09:30:05Z' }
export const ID_TAG_INFO = { status: 'Accepted', expiryDate: '2030-01-15T10:00:00Z', parentIdTag: 'PARENT-1' }

export const BING_HEADERS = { AuthenticationToken: 'token-1', CustomerId: '42', DeveloperToken: 'dev-1' }
export const REPORT_URL = 'https://example.org/reports/rq-9.csv'
export const AD_API_FAULT = { TrackingId: 'trk-7', Errors: { AdApiError: [{ Code: 105, ErrorCode: 'InvalidCredentials', Message: 'Authentication failed.' }] } }
export const AD_API_REASON = 'Invalid client data. Check the SOAP fault details for more information.'

export interface Call { readonly operation: string, readonly input: unknown, readonly headers: unknown }

export interface Served {
  /** The server's URL; OCPP at /ocpp, Reporting at /bing, and each again under /wcf with faultStatus: 500. */
  readonly url: string
  readonly exchanges: Exchange[]
  readonly calls: Call[]
}

function ocppOperations (calls: Call[]): Record<string, (input: unknown, call: SoapHandlerCall) => unknown> {
  const record = (operation: string, input: unknown, call: SoapHandlerCall): void => { calls.push({ operation, input, headers: call.headers }) }
  return {
    BootNotification: (input, call) => { record('BootNotification', input, call); return BOOTED },
    Heartbeat: (input, call) => { record('Heartbeat', input, call); return HEARTBEAT },
    Authorize: (input, call) => {
      record('Authorize', input, call)
      const box = (call.headers as { chargeBoxIdentity?: string }).chargeBoxIdentity
      if (box !== CHARGE_BOX) {
        throw new SoapFault({
          code: 'Sender',
          subcodes: [{ namespace: CENTRAL, localName: 'UnknownChargeBox' }],
          reason: `unknown charge box ${String(box)}`,
          detail: `<c:unknownChargeBox xmlns:c="${CENTRAL}"><c:chargeBoxIdentity>${String(box)}</c:chargeBoxIdentity></c:unknownChargeBox>`
        })
      }
      return { idTagInfo: ID_TAG_INFO }
    }
  }
}

function bingOperations (calls: Call[]): Record<string, (input: unknown, call: SoapHandlerCall) => unknown> {
  return {
    SubmitGenerateReport: (input, call) => {
      calls.push({ operation: 'SubmitGenerateReport', input, headers: call.headers })
      call.replyHeaders({ TrackingId: 'trk-1' })
      return { ReportRequestId: 'rq-9' }
    },
    PollGenerateReport: (input, call) => {
      calls.push({ operation: 'PollGenerateReport', input, headers: call.headers })
      call.replyHeaders({ TrackingId: 'trk-2' })
      if ((input as { ReportRequestId?: string }).ReportRequestId !== 'rq-9') {
        throw call.fault('AdApiFaultDetailFault', AD_API_FAULT, { code: 'Sender', reason: AD_API_REASON })
      }
      return { ReportRequestStatus: { ReportDownloadUrl: REPORT_URL, Status: 'Success' } }
    }
  }
}

/** The corpus folders of the two contracts; undefined (the test skipped, failed under CI) without the corpus. */
export function contractFolders (t: TestContext): { ocpp: string, bing: string } | undefined {
  const ocpp = sharedFixture(t, 'wsdl', OCPP_WSDL[0])
  const bing = ocpp === undefined ? undefined : sharedFixture(t, 'wsdl', BING_WSDL[0])
  return ocpp === undefined || bing === undefined ? undefined : { ocpp, bing }
}

/** The two contracts served with their handlers, on 127.0.0.1; the caller closes `app`. */
export async function serveContracts ({ ocpp, bing }: { ocpp: string, bing: string }): Promise<{ served: Served, app: FastifyInstance }> {
  const app = Fastify({ logger: false })
  await app.register(soap)
  const exchanges = recordExchanges(app)
  const calls: Call[] = []
  for (const prefix of ['', '/wcf']) {
    const faultStatus = prefix === '' ? undefined : 500
    app.soap.contract({ path: `${prefix}/ocpp`, wsdl: join(ocpp, OCPP_WSDL[1]), operations: ocppOperations(calls), unimplemented: 'fault', faultStatus })
    app.soap.contract({
      path: `${prefix}/bing`,
      wsdl: join(bing, BING_WSDL[1]),
      operations: bingOperations(calls),
      ignorePolicyAssertions: [TRANSPORT_BINDING_2005],
      faultStatus
    })
  }
  const url = await app.listen({ host: '127.0.0.1', port: 0 })
  return { served: { url, exchanges, calls }, app }
}
