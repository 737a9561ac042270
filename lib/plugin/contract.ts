/**
 * A contract's routes: the WSDL read and bound to the user's handlers
 * (contract/read.ts), then served as a declared service is.
 */
import type { FastifyInstance } from 'fastify'
import { bindContract, checkDefinition, readContract, unimplementedOf, type ContractDefinition } from '../contract/read'
import { endpoint } from './endpoint'
import { describePolicy } from '../ws/security/policy'

export interface ContractEndpointOptions {
  readonly definition: ContractDefinition
}

/** The encapsulated plugin of a contract: read, bound, then served as a declared service is, with the nearest registration's options. */
export async function contractEndpoint (instance: FastifyInstance, { definition }: ContractEndpointOptions): Promise<void> {
  checkDefinition(definition)
  const contract = await readContract(definition)
  if (contract.security !== undefined) {
    instance.log.info({ contract: contract.name, security: contract.security }, `fastify-soap: contract ${contract.name}: ${describePolicy(contract.security)}`)
  }
  const service = bindContract(contract, definition)
  const unimplemented = unimplementedOf(contract, definition)
  if (unimplemented.length > 0) instance.log.info({ service: contract.name, path: definition.path, unimplemented }, `fastify-soap: contract ${contract.name}: ${unimplemented.join(', ')} not implemented, answered with a Receiver fault`)
  await endpoint(instance, { service })
}
