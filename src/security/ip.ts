/** Normalisation of client addresses and CIDR ranges for the per-client IP allow list. */
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

/**
 * An allow-list entry: an address (as normalizeIp) or a CIDR range written canonically
 * ("10.0.0.0/8", "2001:db8::/32"). A range with host bits set ("10.1.2.3/8") is refused with the
 * range it probably meant, rather than silently widened or narrowed. A /32 (IPv4) or /128 (IPv6)
 * is stored as the plain address, so it compares equal to the same address added without a prefix.
 */
export function normalizeAllowEntry(raw: string): { value: string } | { issue: string } {
  const text = raw.trim();
  const slash = text.indexOf('/');
  if (slash < 0) {
    const ip = normalizeIp(text);
    return ip === null ? { issue: `"${text}" is not an IPv4 or IPv6 address or CIDR range` } : { value: ip };
  }
  const base = normalizeIp(text.slice(0, slash));
  const prefixText = text.slice(slash + 1);
  if (base === null || !/^\d{1,3}$/.test(prefixText)) return { issue: `"${text}" is not an IPv4 or IPv6 CIDR range` };
  const addr = ipaddr.parse(base);
  const max = addr.kind() === 'ipv4' ? 32 : 128;
  const prefix = Number(prefixText);
  if (prefix > max) return { issue: `"${text}": the prefix length must be 0 to ${max}` };
  if (prefix === max) return { value: base };
  const network = (addr.kind() === 'ipv4' ? ipaddr.IPv4.networkAddressFromCIDR(`${base}/${prefix}`) : ipaddr.IPv6.networkAddressFromCIDR(`${base}/${prefix}`)).toString();
  if (network !== base) return { issue: `"${text}" has host bits set: the range is ${network}/${prefix}` };
  return { value: `${base}/${prefix}` };
}

function matches(ip: ipaddr.IPv4 | ipaddr.IPv6, entry: string): boolean {
  const slash = entry.indexOf('/');
  if (slash < 0) return ip.toString() === entry;
  const range = ipaddr.parseCIDR(entry);
  return ip.kind() === range[0].kind() && ip.match(range);
}

export function ipAllowed(clientIp: string, allowList: readonly string[]): boolean {
  if (allowList.length === 0) return true;
  const n = normalizeIp(clientIp);
  if (n === null) return false;
  const ip = ipaddr.parse(n);
  return allowList.some((entry) => matches(ip, entry));
}
