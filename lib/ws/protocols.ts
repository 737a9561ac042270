/**
 * The protocol modules of a registration of the plugin, in the order their
 * steps run in each stage: WS-Security's check comes before WS-Addressing
 * lets a fault leave for FaultTo.
 */
import type { ProtocolModule } from '../service/protocol'
import type { SoapReplayStore } from '../types'
import { addressingModule } from './addressing/protocol'
import type { DeliveryBudget } from './addressing/delivery'
import { securityModule } from './security/protocol'

export function protocolModules (replay: SoapReplayStore, deliveries: DeliveryBudget): readonly ProtocolModule[] {
  return [securityModule(replay), addressingModule(deliveries)]
}
