/**
 * Stage 6a: the SOAP hooks. A registry per Fastify encapsulation context,
 * linked to its parent's as Fastify links its own hooks: a hook added in a
 * plugin applies to the services declared in that plugin and its children,
 * never to its parent's or siblings'. Each operation's hook lists are put
 * together once, at `ready()`; a stage with no hook is `null`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import { SOAP_ERR_HOOK_INVALID } from '../errors'
import type { SoapHook, SoapHookFunction, SoapHookName, SoapOperationHooks } from '../types'

export const HOOK_NAMES = [
  'onEnvelope', 'onOperation', 'preValidation', 'preHandler', 'onResult', 'onFault'
] as const satisfies readonly SoapHookName[]

/** One encapsulation context's hooks and understood header blocks. */
export interface SoapScope {
  readonly parent: SoapScope | undefined
  readonly hooks: { [Name in SoapHookName]: Array<SoapHookFunction<Name>> }
  readonly understood: string[]
}

export function createScope (parent: SoapScope | undefined): SoapScope {
  return {
    parent,
    hooks: { onEnvelope: [], onOperation: [], preValidation: [], preHandler: [], onResult: [], onFault: [] },
    understood: []
  }
}

const NAMES: ReadonlySet<string> = new Set(HOOK_NAMES)

/** `where` names the operation whose declaration holds the hook, if any. */
export function checkHook (name: unknown, hook: unknown, where = ''): asserts name is SoapHookName {
  const at = where === '' ? '' : `${where}: `
  if (typeof name !== 'string' || !NAMES.has(name)) {
    throw new SOAP_ERR_HOOK_INVALID(`${at}"${String(name)}" is not a SOAP hook: use one of ${HOOK_NAMES.join(', ')}`)
  }
  if (typeof hook !== 'function') throw new SOAP_ERR_HOOK_INVALID(`${at}the ${name} hook must be a function`)
}

/** The scopes from the root down to `scope`. */
function lineage (scope: SoapScope): SoapScope[] {
  const chain: SoapScope[] = []
  for (let s: SoapScope | undefined = scope; s !== undefined; s = s.parent) chain.unshift(s)
  return chain
}

/** Header blocks the scope and its ancestors declared understood. */
export function understoodIn (scope: SoapScope): string[] {
  return lineage(scope).flatMap((s) => s.understood)
}

/** Per stage, the hooks that run, outer scopes first and the operation's own last; null where there are none. */
export type HookLists = { readonly [Name in SoapHookName]: ReadonlyArray<SoapHookFunction<Name>> | null }

export function hookLists (scope: SoapScope, own: SoapOperationHooks | undefined, where: string): HookLists {
  const chain = lineage(scope)
  const lists: Record<string, unknown> = {}
  for (const name of HOOK_NAMES) {
    const list: Array<SoapHookFunction<typeof name>> =
      chain.flatMap((s) => s.hooks[name] as Array<SoapHookFunction<typeof name>>)
    const mine = (own as Partial<Record<SoapHookName, unknown>> | undefined)?.[name]
    if (mine !== undefined) {
      for (const hook of (Array.isArray(mine) ? mine : [mine]) as unknown[]) {
        checkHook(name, hook, where)
        list.push(hook as SoapHookFunction<typeof name>)
      }
    }
    lists[name] = list.length === 0 ? null : list
  }
  return lists as HookLists
}

/** Runs the hooks of a stage in order; true when one of them answered the request. */
export async function runHooks (
  hooks: readonly SoapHook[], request: FastifyRequest, reply: FastifyReply
): Promise<boolean> {
  for (const hook of hooks) {
    if (answered(await hook(request, reply), reply)) return true
  }
  return false
}

/**
 * Whether a hook or handler answered the request itself. As in Fastify's
 * async hooks, it returns the reply (`return reply.soap(...)`): `reply.sent`
 * alone turns true only once the response has ended, after any onSend hook.
 */
export function answered (returned: unknown, reply: FastifyReply): boolean {
  return returned === reply || reply.sent
}
