/**
 * Checks a callback destination URL when it is configured, so an operator or merchant hears about
 * an obvious mistake at once instead of from a failed delivery later. The authoritative address
 * check is the dispatcher's, at connection time (src/net/safe-dispatcher.ts): a host name can
 * resolve to anything later, so this check only catches what the URL itself already says.
 * Also usable for a payment order's own callback_url.
 *
 * Plain `http://` is accepted only with `allowLocalHttp` (CALLBACK_ALLOW_PRIVATE_NETWORKS outside
 * production) and only towards a host the URL itself shows to be local: a loopback or private IP
 * address, or `localhost`. A receiver on the developer's machine or network is then reached without
 * a certificate, while a callback to the internet always travels over TLS. (A host name could
 * resolve anywhere; the dispatcher judges the resolved address again at connect time.)
 */
import { isIP } from 'node:net';
import { isHttpsUrl, isPlainHttpUrl } from '../domain/text.js';
import { isPublicAddress } from '../net/address-policy.js';

export const MAX_DESTINATION_URL_LENGTH = 2048;

export interface DestinationUrlPolicy {
  /** CALLBACK_ALLOW_PRIVATE_NETWORKS: loopback/private hosts may be named. */
  allowPrivateNetworks: boolean;
  /** http:// to loopback/private hosts (config.callbackAllowLocalHttp; never in production). */
  allowLocalHttp?: boolean;
}

const HTTP_HINT =
  'http:// is accepted only for localhost or a loopback/private IP address, with CALLBACK_ALLOW_PRIVATE_NETWORKS=true and outside production';

function hostOf(url: string): string {
  return new URL(url).hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
}

function isLocalName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost');
}

/** An issue text for `error.details`, or null when the URL is acceptable. */
export function destinationUrlIssue(url: string, opts: DestinationUrlPolicy): string | null {
  if (url.length > MAX_DESTINATION_URL_LENGTH) return `must be at most ${MAX_DESTINATION_URL_LENGTH} characters`;
  if (isPlainHttpUrl(url)) {
    if (!opts.allowLocalHttp) return `must be an absolute https:// URL without credentials (${HTTP_HINT})`;
    const host = hostOf(url);
    const local = isLocalName(host) || (isIP(host) !== 0 && !isPublicAddress(host));
    return local ? null : `must be https:// for this host: ${HTTP_HINT}`;
  }
  if (!isHttpsUrl(url)) return 'must be an absolute https:// URL without credentials';
  if (opts.allowPrivateNetworks) return null;
  const host = hostOf(url);
  if (isLocalName(host) || (isIP(host) !== 0 && !isPublicAddress(host))) {
    return 'must reach a public address: loopback, private, link-local and other non-public addresses are refused (CALLBACK_ALLOW_PRIVATE_NETWORKS is false)';
  }
  if (isIP(host) === 0 && /^[0-9.]+$/.test(host)) return 'must not be a numeric host that is not a plain IPv4 address';
  return null;
}
