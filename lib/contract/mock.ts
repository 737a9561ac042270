/**
 * A contract served with sample answers (docs/mock.md "Sample answers"):
 * each operation without a handler answers a rich sample of its output
 * (lib/codec/sample.ts), the same for the same seed, written and checked
 * as any reply is; a request naming one of the operation's declared faults in
 * the `x-soap-mock-fault` header gets that fault, its detail a sample too.
 */
import { SoapFault } from '../soap/fault'
import type { SoapSchema } from '../types'
import { sampleValue } from '../codec/sample'

/**
 * What a mock answers an operation from: its schemas, as a contract has them
 * (ContractOperation, lib/contract/read.ts).
 */
interface Mocked {
  readonly output?: SoapSchema
  readonly outputHeaders?: SoapSchema
  readonly faults?: Readonly<Record<string, SoapSchema>>
}

/** The request header naming the declared fault a mock answers with. */
export const MOCK_FAULT_HEADER = 'x-soap-mock-fault'

interface MockCall {
  readonly request: { readonly headers: Readonly<Record<string, string | string[] | undefined>> }
  fault: (name: string, detail: unknown, options: { code: 'Sender' | 'Receiver', reason: string }) => SoapFault
  replyHeaders: (values: unknown) => void
}

/** The handler of an operation answered with samples: its output's, or the fault the request asks for. */
export function sampleHandler (name: string, operation: Mocked, seed: number): (input: never, call: never) => unknown {
  const options = { rich: true, seed }
  return (_input, given) => {
    const call = given as MockCall
    const asked = call.request.headers[MOCK_FAULT_HEADER]
    if (asked !== undefined) {
      const fault = String(asked).trim()
      const declared = Object.keys(operation.faults ?? {})
      if (!declared.includes(fault)) {
        const which = declared.length === 0 ? 'declares none' : `declares ${declared.join(', ')}`
        throw new SoapFault({ code: 'Sender', reason: `The operation ${name} has no fault ${fault} (it ${which})` })
      }
      const detail = sampleValue((operation.faults as Readonly<Record<string, SoapSchema>>)[fault], options)
      const reason = `The fault ${fault} of ${name}, as asked by ${MOCK_FAULT_HEADER}`
      throw call.fault(fault, detail, { code: 'Receiver', reason })
    }
    if (operation.outputHeaders !== undefined) call.replyHeaders(sampleValue(operation.outputHeaders, options))
    return operation.output === undefined ? undefined : sampleValue(operation.output, options)
  }
}
