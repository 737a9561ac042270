/**
 * A contract's routes: the WSDL read and bound to the user's handlers
 * (contract/read.ts), then served as a declared service is.
 */
import type { FastifyInstance } from 'fastify'
import { bindContract, checkDefinition, unimplementedOf, type ContractDefinition } from '../contract/bind'
import { readContract } from '../contract/read'
import { endpoint } from './endpoint'
import { describeSecurity } from '../ws/security/security-policy'

export interface ContractEndpointOptions {
  readonly definition: ContractDefinition
}

/**
 * The encapsulated plugin of a contract: read, bound, then served as a declared service is, with the nearest
 * registration's options.
 */
export async function contractEndpoint (
  instance: FastifyInstance, { definition }: ContractEndpointOptions
): Promise<void> {
  checkDefinition(definition)
  const contract = await readContract(definition)
  const service = bindContract(contract, definition)
  // One line per contract: what WS-Security each operation requires, its policy and the definition's security read.
  const security = describeSecurity(Object.keys(contract.operations), service.security)
  const ignored = definition.ignorePolicyAssertions ?? []
  const said = Object.entries(security).map(([what, operations]) => `${what} for ${operations.join(', ')}`).join('; ')
  const without = ignored.length === 0 ? '' : `; policy assertions ignored: ${ignored.join(', ')}`
  const line = `fastify-soap: contract ${contract.name}: WS-Security requires ${said}${without}`
  instance.log.info({ contract: contract.name, security, ignored }, line)
  const unimplemented = unimplementedOf(contract, definition)
  const answered = definition.unimplemented === 'sample' ? 'samples' : 'a Receiver fault'
  if (unimplemented.length > 0) {
    instance.log.info(
      { service: contract.name, path: definition.path, unimplemented },
      `fastify-soap: contract ${contract.name}: ${unimplemented.join(', ')} not implemented, ` +
        `answered with ${answered}`
    )
  }
  await endpoint(instance, { service })
}
