/**
 * The protocol modules of a registration of the plugin, in the order their
 * steps run in each stage: WS-Security's check comes before WS-Addressing
 * lets a fault leave for FaultTo.
 */
import type { ProtocolModule } from '../service/protocol'
import type { SoapReplayStore, SoapServiceDefinition } from '../types'
import type { KeyRecord } from '../codec/keys'
import type { SERVICE_KEYS } from '../service/declaration'
import { addressingModule } from './addressing/protocol'
import type { ReplyDesk } from './addressing/queue'
import { securityModule } from './security/protocol'

export function protocolModules (replay: SoapReplayStore, replies: ReplyDesk): readonly ProtocolModule[] {
  // In the order their steps run, by the key each owns: with the keys a service checks itself
  // (SERVICE_KEYS), every key of SoapServiceDefinition.
  const modules = {
    security: securityModule(replay),
    addressing: addressingModule(replies)
  } satisfies KeyRecord<Omit<SoapServiceDefinition, keyof typeof SERVICE_KEYS>, ProtocolModule>
  return Object.values(modules)
}
