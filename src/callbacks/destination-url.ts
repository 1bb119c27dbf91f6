/**
 * Checks a callback destination URL when it is configured, so an operator or merchant hears about
 * an obvious mistake at once instead of from a failed delivery later. The authoritative address
 * check is the dispatcher's, at connection time (src/net/safe-dispatcher.ts): a host name can
 * resolve to anything later, so this check only catches what the URL itself already says.
 * Also usable for a payment order's own callback_url.
 */
import { isIP } from 'node:net';
import { isHttpsUrl } from '../domain/text.js';
import { isPublicAddress } from '../net/address-policy.js';

export const MAX_DESTINATION_URL_LENGTH = 2048;

/** An issue text for `error.details`, or null when the URL is acceptable. */
export function destinationUrlIssue(url: string, opts: { allowPrivateNetworks: boolean }): string | null {
  if (url.length > MAX_DESTINATION_URL_LENGTH) return `must be at most ${MAX_DESTINATION_URL_LENGTH} characters`;
  if (!isHttpsUrl(url)) return 'must be an absolute https:// URL without credentials';
  if (opts.allowPrivateNetworks) return null;
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  const isLocalName = host === 'localhost' || host.endsWith('.localhost');
  if (isLocalName || (isIP(host) !== 0 && !isPublicAddress(host))) {
    return 'must reach a public address: loopback, private, link-local and other non-public addresses are refused (CALLBACK_ALLOW_PRIVATE_NETWORKS is false)';
  }
  if (isIP(host) === 0 && /^[0-9.]+$/.test(host)) return 'must not be a numeric host that is not a plain IPv4 address';
  return null;
}
