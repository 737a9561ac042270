/**
 * Contract first: what serving the operations read needs of their names and
 * signatures, checked when the contract is read, so that `readContract()`,
 * `fastify-soap types` and `ready()` refuse the same contracts with the same
 * codes (docs/contract-first.md "What is refused").
 */
import { SOAP_ERR_CONTRACT_INVALID, SOAP_ERR_CONTRACT_UNSUPPORTED } from '../errors'
import { qnameKey } from '../namespaces'
import { isNCName } from '../xml/chars'

/** The name a WSDL gives a service, an operation or a fault: an XML NCName (WSDL 1.1 §2.4, §2.7). */
export function checkName (name: string, what: string, where: string): void {
  if (!isNCName(name)) throw new SOAP_ERR_CONTRACT_INVALID(where, `the ${what} name "${name}" is not an XML NCName`)
}

/**
 * WS-I Basic Profile 1.1 R2710: the operations of a binding have distinct
 * signatures. Operations may share an input element when their actions tell
 * them apart, and an action when their input elements do; two with the same
 * element and action, or with the same action and no Body element, cannot
 * be told apart.
 */
export function checkSignatures (operations: Readonly<Record<string, { input?: object, action: string }>>): void {
  const seen = new Map<string, string>()
  for (const [name, op] of Object.entries(operations)) {
    const xml = (op.input as { xml?: { name: string, namespace: string } } | undefined)?.xml
    const element = xml === undefined ? undefined : qnameKey(xml.namespace, xml.name)
    const signature = `${element ?? ''} ${op.action}`
    const other = seen.get(signature)
    if (other !== undefined) {
      const input = element === undefined ? 'no Body element' : `the same input element ${element}`
      const what = `the operations ${other} and ${name}, with ${input} and the same action ${op.action} ` +
        '(WS-I BP R2710: operation signatures must be unique)'
      throw new SOAP_ERR_CONTRACT_UNSUPPORTED(what, `operation ${name}`)
    }
    seen.set(signature, name)
  }
}
