/**
 * Which IP addresses a merchant callback may be sent to. A callback URL is chosen by the merchant,
 * so without this anyone could make the service POST into its own network (databases, admin
 * listeners, cloud metadata at 169.254.169.254 / fd00:ec2::254): server-side request forgery.
 *
 * Allow-list, not deny-list: only what ipaddr.js classifies as ordinary unicast is public, and for
 * IPv6 only inside 2000::/3, the sole block IANA allocates as global unicast. Everything else
 * (loopback, private, link-local, unique-local, CGNAT, multicast, broadcast, unspecified,
 * 0.0.0.0/8, 192.0.0.0/24, 198.18.0.0/15, documentation, 6to4, Teredo, ...) is refused.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];
// NAT64 well-known prefix (RFC 6052): on an IPv6-only host with DNS64 every IPv4 destination looks
// like this, so the embedded IPv4 address is what must be judged.
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96') as [ipaddr.IPv6, number];

function isPublicV4(addr: ipaddr.IPv4): boolean {
  return addr.range() === 'unicast';
}

function isPublicV6(addr: ipaddr.IPv6): boolean {
  // ::ffff:a.b.c.d reaches the IPv4 host a.b.c.d: judge that host (::ffff:127.0.0.1 is loopback).
  if (addr.isIPv4MappedAddress()) return isPublicV4(addr.toIPv4Address());
  if (addr.match(NAT64_WELL_KNOWN)) {
    const [a, b] = [addr.parts[6]!, addr.parts[7]!];
    return isPublicV4(new ipaddr.IPv4([a >> 8, a & 0xff, b >> 8, b & 0xff]));
  }
  return addr.range() === 'unicast' && addr.match(GLOBAL_UNICAST_V6);
}

/**
 * True when `ip` is a canonical IPv4/IPv6 literal of a publicly routable host. Anything that is not
 * a plain address (hostnames, CIDRs, "0x7f.1" or other inet_aton spellings) is false: fail closed.
 */
export function isPublicAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 0) return false;
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.parse(ip);
  } catch {
    return false;
  }
  if (addr.kind() === 'ipv4') return isPublicV4(addr as ipaddr.IPv4);
  // A zone id ("fe80::1%eth0") names an interface-local scope: never public.
  if ((addr as ipaddr.IPv6).zoneId) return false;
  return isPublicV6(addr as ipaddr.IPv6);
}
