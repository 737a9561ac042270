/**
 * Contract first: the EU's VIES checkVat WSDL served as it is, with a handler
 * for each of its two operations. The handlers are typed by src/contract.ts,
 * which `npm run types` (run by `npm run build`) writes from the WSDL with
 * `fastify-soap types`, so that they always match it.
 *
 * The WSDL is not copied here: CONTRACT_WSDL names it (a path, relative to
 * this example's folder), by default the copy in the shared fixtures beside
 * the fastify-soap checkout.
 */
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import soap, { SoapFault } from 'fastify-soap'
import type { CheckVatApproxOutput, Operations } from './contract.js'

/** This example's folder (this file runs as dist/src/app.js). */
const EXAMPLE_DIR = fileURLToPath(new URL('../../', import.meta.url))

/** The WSDL served, as `npm run types` finds it. */
export const WSDL = resolve(EXAMPLE_DIR, process.env.CONTRACT_WSDL ?? '../../../shared/fixtures/wsdl/vies-checkvat/checkVatService.wsdl')

/** The traders this pretend VIES knows, by country code and VAT number. */
const TRADERS = new Map([
  ['DE123456789', { name: 'Muster GmbH', companyType: 'DE-1', street: 'Musterstraße 1', postcode: '10115', city: 'Berlin' }],
  ['FR40303265045', { name: 'SA Exemple', companyType: undefined, street: '1 rue de la Paix', postcode: '75002', city: 'Paris' }]
])

/**
 * The WSDL's documentation: "The countryCode input parameter must follow the
 * pattern [A-Z]{2}; the vatNumber [0-9A-Za-z\+\*\.]{2,12}". Its schema types
 * both as plain strings, so the handlers check them, and answer as VIES does,
 * with the fault string INVALID_INPUT (here a Client fault: the caller's mistake).
 */
function checkInput (countryCode: string, vatNumber: string): void {
  if (!/^[A-Z]{2}$/.test(countryCode) || !/^[0-9A-Za-z+*.]{2,12}$/.test(vatNumber)) {
    throw new SoapFault({ code: 'Sender', reason: 'INVALID_INPUT' })
  }
}

/** Today as an xs:date (UTC). */
function today (): string {
  return new Date().toISOString().slice(0, 10) + 'Z'
}

/** VIES's match codes: 1 VALID, 2 INVALID. */
function match (given: string | undefined, known: string | undefined): '1' | '2' | undefined {
  if (given === undefined) return undefined
  return given.trim().toLowerCase() === known?.toLowerCase() ? '1' : '2'
}

let requests = 0

export async function buildApp (options: FastifyServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({ requestTimeout: 30_000, connectionTimeout: 10_000, ...options })
  await app.register(soap)
  app.soap.contract<Operations>({
    path: '/vies',
    wsdl: WSDL,
    operations: {
      // input: { countryCode: string, vatNumber: string }
      async checkVat ({ countryCode, vatNumber }) {
        checkInput(countryCode, vatNumber)
        const trader = TRADERS.get(countryCode + vatNumber)
        // name and address are nillable: null is written xsi:nil="true"
        return { countryCode, vatNumber, requestDate: today(), valid: trader !== undefined, name: trader?.name ?? null, address: trader === undefined ? null : `${trader.street}\n${trader.postcode} ${trader.city}` }
      },
      async checkVatApprox (input) {
        checkInput(input.countryCode, input.vatNumber)
        const trader = TRADERS.get(input.countryCode + input.vatNumber)
        const answer: CheckVatApproxOutput = {
          countryCode: input.countryCode,
          vatNumber: input.vatNumber,
          requestDate: today(),
          valid: trader !== undefined,
          requestIdentifier: `WAPIAAAA${String(++requests).padStart(8, '0')}`
        }
        if (trader === undefined) return answer
        return {
          ...answer,
          traderName: trader.name,
          traderCompanyType: trader.companyType ?? null,
          traderStreet: trader.street,
          traderPostcode: trader.postcode,
          traderCity: trader.city,
          traderNameMatch: match(input.traderName, trader.name),
          traderCityMatch: match(input.traderCity, trader.city)
        }
      }
    }
  })
  return app
}
