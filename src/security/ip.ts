/** Normalisation of client addresses for the per-client IP allow list. */
import ipaddr from 'ipaddr.js';

/**
 * Canonical text of an address: IPv4-mapped IPv6 (::ffff:1.2.3.4) becomes the IPv4 address and
 * IPv6 is written in its compressed lowercase form, so one address always compares equal to itself.
 * Returns null for anything that is not an IP address.
 */
export function normalizeIp(raw: string): string | null {
  const trimmed = raw.trim().replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(trimmed)) return null;
  // isValid accepts legacy IPv4 forms like "10" or "0x7f.1"; only dotted quads are addresses here.
  if (!trimmed.includes(':') && !ipaddr.IPv4.isValidFourPartDecimal(trimmed)) return null;
  return ipaddr.process(trimmed).toString();
}

export function ipAllowed(clientIp: string, allowList: readonly string[]): boolean {
  if (allowList.length === 0) return true;
  const ip = normalizeIp(clientIp);
  return ip !== null && allowList.includes(ip);
}
