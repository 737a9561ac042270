/**
 * A contract's routes: the WSDL read and bound to the user's handlers
 * (contract/read.ts), then served as a declared service is.
 */
import type Ajv from 'ajv'
import type { FastifyInstance } from 'fastify'
import { bindContract, checkDefinition, readContract, type ContractDefinition } from '../contract/read'
import type { ResolvedOptions } from '../options'
import { endpoint } from './endpoint'

export interface ContractEndpointOptions {
  readonly soap: ResolvedOptions
  readonly definition: ContractDefinition
  readonly ajv: Ajv
}

/** The encapsulated plugin of a contract: read, bound, then served as a declared service is. */
export async function contractEndpoint (instance: FastifyInstance, { soap, definition, ajv }: ContractEndpointOptions): Promise<void> {
  checkDefinition(definition)
  const contract = await readContract(definition)
  await endpoint(instance, { soap, service: { declaration: bindContract(contract, definition), ajv } })
}
