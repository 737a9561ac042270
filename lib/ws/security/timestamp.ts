/**
 * Freshness (WSS 1.1 SOAP Message Security §10): xs:dateTime values read
 * strictly, the wsu:Timestamp checked against the clock with its skew, and
 * the Timestamp a reply may carry.
 */
import { WSSE_NS, WSU_NS } from '../../namespaces'
import type { XmlElement } from '../../xml/element'
import { trimXmlSpace } from '../../xml/chars'
import { securityFault, type SecurityFaultName } from './faults'
import { childElements, textOf } from './elements'

/**
 * xs:dateTime with a zone (Z or ±hh:mm): WSS §10 wants UTC; a zoned time names one instant, a time with no
 * zone does not.
 */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-](\d{2}):(\d{2}))$/

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

/**
 * The instant an xs:dateTime names, in milliseconds since 1970; undefined when it is not a valid, zoned
 * xs:dateTime.
 */
export function parseDateTime (raw: string): number | undefined {
  const m = DATE_TIME.exec(trimXmlSpace(raw))
  if (m === null) return undefined
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i]))
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
  if (month < 1 || month > 12 || day < 1 || day > (month === 2 && !leap ? 28 : DAYS[month - 1])) return undefined
  const fraction = m[7] === undefined ? 0 : Number(`0.${m[7]}`)
  // 24:00:00 is the first instant of the next day (XML Schema 1.0 §3.2.7); nothing else past 23:59:59.
  if (hour === 24 ? minute !== 0 || second !== 0 || fraction !== 0 : hour > 23 || minute > 59 || second > 59) {
    return undefined
  }
  let offset = 0
  if (m[8] !== 'Z') {
    const hours = Number(m[9])
    const minutes = Number(m[10])
    if (hours > 14 || minutes > 59 || (hours === 14 && minutes !== 0)) return undefined
    offset = (hours * 60 + minutes) * (m[8].startsWith('-') ? -1 : 1)
  }
  return Date.UTC(year, month - 1, day, hour, minute - offset, second) + Math.floor(fraction * 1000)
}

export interface Freshness {
  /** How old a Created may be, in milliseconds. */
  readonly maxAge: number
  /** How far ahead of this clock a Created may be, and behind it an Expires. */
  readonly clockSkew: number
}

/** A Created checked against the clock: not older than maxAge, not further ahead than the skew. */
export function checkCreated (created: number, now: number, freshness: Freshness): void {
  if (created < now - freshness.maxAge || created > now + freshness.clockSkew) throw securityFault('MessageExpired')
}

/** The instant of the one child named `localName` in wsu, or undefined; a second one, or a bad value, is `fault`. */
function instantOf (element: XmlElement, localName: string, fault: SecurityFaultName): number | undefined {
  const found = childElements(element, fault).filter((c) => c.localName === localName)
  if (found.length === 0) return undefined
  if (found.length > 1) throw securityFault(fault)
  const value = parseDateTime(textOf(found[0], fault))
  if (value === undefined) throw securityFault(fault)
  return value
}

/**
 * A wsu:Timestamp (WSS §10): exactly one Created, at most one Expires after
 * it, nothing else; Created not older than maxAge nor ahead of the clock by
 * more than the skew, Expires not passed by more than the skew.
 */
export function checkTimestamp (timestamp: XmlElement, now: number, freshness: Freshness): void {
  for (const child of childElements(timestamp, 'InvalidSecurity')) {
    if (child.namespace !== WSU_NS || (child.localName !== 'Created' && child.localName !== 'Expires')) {
      throw securityFault('InvalidSecurity')
    }
  }
  const created = instantOf(timestamp, 'Created', 'InvalidSecurity')
  const expires = instantOf(timestamp, 'Expires', 'InvalidSecurity')
  if (created === undefined) throw securityFault('InvalidSecurity')
  if (expires !== undefined && expires <= created) throw securityFault('InvalidSecurity')
  checkCreated(created, now, freshness)
  if (expires !== undefined && expires < now - freshness.clockSkew) throw securityFault('MessageExpired')
}

/** The Security header block of a reply: a Timestamp from now, expiring after maxAge. */
export function replyTimestamp (now: number, maxAge: number): string {
  return `<wsse:Security xmlns:wsse="${WSSE_NS}" xmlns:wsu="${WSU_NS}">${timestampElement(now, maxAge)}</wsse:Security>`
}

/** A wsu:Timestamp created `now`, expiring `maxAge` milliseconds later, with a wsu:Id when given (`wsu` bound). */
export function timestampElement (now: number, maxAge: number, id?: string): string {
  return `<wsu:Timestamp${id === undefined ? '' : ` wsu:Id="${id}"`}>` +
    `<wsu:Created>${new Date(now).toISOString()}</wsu:Created>` +
    `<wsu:Expires>${new Date(now + maxAge).toISOString()}</wsu:Expires></wsu:Timestamp>`
}
