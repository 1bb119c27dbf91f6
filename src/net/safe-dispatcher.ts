/**
 * Outbound HTTP for merchant callbacks: an undici Agent that only connects to public addresses,
 * and postCallback(), which makes one delivery attempt and reports it without ever throwing.
 *
 * The address check runs inside the connection's own DNS lookup, so the address judged is the
 * address connected to. Checking the URL's hostname beforehand would not do: a hostile DNS server
 * can answer a public address to the check and 127.0.0.1 to the connect (DNS rebinding).
 *
 * Trust: without `ca`, TLS uses Node's default store, which is the bundled Mozilla roots plus
 * the certificates in NODE_EXTRA_CA_CERTS (read once at process start). That is how production and
 * `CALLBACK_ALLOW_PRIVATE_NETWORKS=true` test setups trust a receiver's private CA (contract §1).
 * The `ca` option exists because tests cannot set NODE_EXTRA_CA_CERTS after start-up.
 *
 * Plain http:// is refused (`https_required`) unless `allowLocalHttp` (CALLBACK_ALLOW_PRIVATE_NETWORKS
 * outside production), and even then every address it connects to must be non-public: the inverse
 * of the https rule, so a developer's local receiver works without a certificate while nothing
 * travels to the internet in clear.
 */
import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupAllOptions } from 'node:dns';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import type { LookupFunction } from 'node:net';
import { createSecureContext, rootCertificates } from 'node:tls';
import { performance } from 'node:perf_hooks';
import { Agent, buildConnector, request } from 'undici';
import type { Dispatcher } from 'undici';
import { isPublicAddress } from './address-policy.js';

/** Raised (inside the connector) for an http:// destination when plain http is not allowed. */
export class HttpsRequiredError extends Error {
  readonly code = 'ERR_HTTPS_REQUIRED';
  constructor(readonly host: string) {
    super(`callback destination ${host} is not https:// and plain http is not allowed`);
    this.name = 'HttpsRequiredError';
  }
}

/** Raised (inside the connector) when a destination resolves to an address it may not reach. */
export class AddressNotAllowedError extends Error {
  readonly code = 'ERR_ADDRESS_NOT_ALLOWED';
  constructor(readonly host: string) {
    super(`callback destination ${host} resolves to an address that is not public`);
    this.name = 'AddressNotAllowedError';
  }
}

export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export interface CallbackDispatcherOptions {
  /** true only for development and tests (CALLBACK_ALLOW_PRIVATE_NETWORKS). */
  allowPrivateNetworks: boolean;
  /** http:// to loopback/private addresses only (config.callbackAllowLocalHttp). Default false. */
  allowLocalHttp?: boolean;
  /** TCP + TLS handshake limit. Default 5000 ms. */
  connectTimeoutMs?: number;
  /** Extra trusted CA certificate(s), added to the default store (mainly for tests; see top). */
  ca?: string | Buffer | Array<string | Buffer>;
  /** Replaces the system resolver (tests: make a name resolve to chosen addresses). */
  resolve?: Resolver;
}

const systemResolve: Resolver = (hostname) =>
  new Promise((resolve, reject) => {
    const options: LookupAllOptions = { all: true, order: 'verbatim' };
    dnsLookup(hostname, options, (err, addresses) => (err ? reject(err) : resolve(addresses)));
  });

/**
 * A net/tls `lookup` that resolves every address of the name and, when `allowed` is given, refuses
 * the connection unless all of them pass it. "All", not "the one we pick": with happy-eyeballs
 * Node may try any of them.
 */
function resolvingLookup(resolve: Resolver, allowed?: (address: string) => boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (all) => {
        const wanted = options.family === 4 || options.family === 6 ? all.filter((a) => a.family === options.family) : all;
        if (wanted.length === 0) {
          callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
        } else if (allowed && !wanted.every((a) => allowed(a.address))) {
          callback(new AddressNotAllowedError(hostname), '', 0);
        } else if (options.all) {
          callback(null, wanted);
        } else {
          callback(null, wanted[0]!.address, wanted[0]!.family);
        }
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}

/** Default roots + NODE_EXTRA_CA_CERTS + `ca`: giving tls a `ca` replaces the default store. */
function trustWith(ca: NonNullable<CallbackDispatcherOptions['ca']>): Array<string | Buffer> {
  const extraFile = process.env.NODE_EXTRA_CA_CERTS;
  let extra: string[] = [];
  if (extraFile) {
    try {
      extra = [readFileSync(extraFile, 'utf8')];
    } catch {
      // Node itself only warns about an unreadable NODE_EXTRA_CA_CERTS; do the same (nothing added).
    }
  }
  return [...rootCertificates, ...extra, ...(Array.isArray(ca) ? ca : [ca])];
}

/**
 * Connections kept to one merchant origin at most. Attempts beyond it wait for a free connection
 * (inside their own timeout) instead of opening more: without a cap every attempt in flight
 * (CALLBACK_CONCURRENCY, 128) could mean a TLS handshake of its own whenever a burst starts after
 * the connections went idle, which both sides pay for in CPU exactly when load rises (measured in
 * docs/performance.md). 32 connections carry thousands of deliveries per second to a receiver
 * answering within ~10 ms.
 */
export const CONNECTIONS_PER_ORIGIN = 32;

const isPrivateAddress = (address: string) => !isPublicAddress(address);

export function createCallbackDispatcher(options: CallbackDispatcherOptions): Agent {
  const lookup = options.allowPrivateNetworks
    ? options.resolve && resolvingLookup(options.resolve)
    : resolvingLookup(options.resolve ?? systemResolve, isPublicAddress);
  const timeout = options.connectTimeoutMs ?? 5000;
  const inner = buildConnector({
    timeout,
    ...(lookup ? { lookup } : {}),
    // One secure context for the dispatcher: passing `ca` instead would make tls parse the ~150
    // root certificates again for every new connection (it dominated CPU under load).
    ...(options.ca === undefined ? {} : { secureContext: createSecureContext({ ca: trustWith(options.ca) }) }),
  });
  const plain = options.allowLocalHttp
    ? buildConnector({ timeout, lookup: resolvingLookup(options.resolve ?? systemResolve, isPrivateAddress) })
    : undefined;
  const connect: buildConnector.connector = (opts, callback) => {
    if (opts.protocol === 'http:') {
      if (!plain) callback(new HttpsRequiredError(opts.hostname), null);
      // Node's net skips `lookup` for IP literals, so judge those here.
      else if (isIP(opts.hostname) !== 0 && isPublicAddress(opts.hostname)) callback(new AddressNotAllowedError(opts.hostname), null);
      else plain(opts, callback);
      return;
    }
    // Node's net skips `lookup` for IP literals (https://10.0.0.1/), so judge those here.
    if (!options.allowPrivateNetworks && isIP(opts.hostname) !== 0 && !isPublicAddress(opts.hostname)) {
      callback(new AddressNotAllowedError(opts.hostname), null);
      return;
    }
    inner(opts, callback);
  };
  return new Agent({ connect, connections: CONNECTIONS_PER_ORIGIN });
}

export const RESPONSE_SNIPPET_BYTES = 4096;
export const DEFAULT_CALLBACK_TIMEOUT_MS = 10_000;

export interface PostCallbackResult {
  /** true only for a 2xx answer. */
  ok: boolean;
  /** HTTP status, or null when no response arrived. */
  status: number | null;
  latencyMs: number;
  /**
   * null when ok. Otherwise short and safe to store/show: 'https_required', 'invalid_url',
   * 'address_not_allowed', 'dns_not_found', 'dns_error', 'connection_refused', 'connection_reset',
   * 'host_unreachable', 'connect_timeout', 'timeout', 'tls_error: <CODE>', 'redirect_not_followed',
   * 'http_<status>', 'network_error: <CODE>'.
   */
  error: string | null;
  /** First 4 KiB of the response body (UTF-8, lossy), or null when there was no response. */
  responseSnippet: string | null;
}

export interface PostCallbackArgs {
  dispatcher: Dispatcher;
  url: string;
  headers: Record<string, string>;
  /** The exact bytes that were signed. */
  body: string | Buffer;
  /** Whole attempt: connect, send, response headers and snippet. Default 10 s (contract §4). */
  timeoutMs?: number;
}

function errorCodes(err: unknown): string[] {
  const codes: string[] = [];
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, name } = e as { code?: unknown; name?: unknown };
    if (typeof code === 'string') codes.push(code);
    if (typeof name === 'string') codes.push(name);
    e = (e as { cause?: unknown }).cause;
  }
  return codes;
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|ERR_OSSL_)/;

/** Maps a failure to a short, fixed vocabulary: never a message that could carry internal detail. */
function classify(err: unknown, timedOut: boolean): string {
  if (timedOut) return 'timeout';
  const codes = errorCodes(err);
  const has = (...c: string[]) => codes.some((x) => c.includes(x));
  if (has('ERR_HTTPS_REQUIRED')) return 'https_required';
  if (has('ERR_ADDRESS_NOT_ALLOWED')) return 'address_not_allowed';
  if (has('UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'TimeoutError', 'AbortError')) return 'timeout';
  if (has('UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT')) return 'connect_timeout';
  if (has('ENOTFOUND')) return 'dns_not_found';
  if (has('EAI_AGAIN', 'EAI_FAIL', 'ENODATA')) return 'dns_error';
  if (has('ECONNREFUSED')) return 'connection_refused';
  if (has('EHOSTUNREACH', 'ENETUNREACH')) return 'host_unreachable';
  const tls = codes.find((c) => TLS_CODE.test(c));
  if (tls) return `tls_error: ${tls}`;
  if (has('ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED')) return 'connection_reset';
  const code = codes.find((c) => /^[A-Z][A-Z0-9_]{1,40}$/.test(c));
  return code ? `network_error: ${code}` : 'network_error';
}

/** Reads at most `cap` bytes, then drops the rest (destroying the stream rather than draining it). */
async function readSnippet(body: Dispatcher.ResponseData['body'], cap: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      const buf = chunk as Buffer;
      chunks.push(buf.subarray(0, cap - size));
      size += Math.min(buf.length, cap - size);
      if (size >= cap) break; // leaving the loop destroys the body and its connection
    }
  } catch {
    // A body that fails or times out after the status line does not change the outcome.
  }
  return new TextDecoder('utf-8', { fatal: false }).decode(Buffer.concat(chunks));
}

/** One delivery attempt. Never throws; never follows redirects. */
export async function postCallback(args: PostCallbackArgs): Promise<PostCallbackResult> {
  const started = performance.now();
  const result = (status: number | null, error: string | null, responseSnippet: string | null): PostCallbackResult => ({
    ok: error === null,
    status,
    latencyMs: Math.round(performance.now() - started),
    error,
    responseSnippet,
  });

  let url: URL;
  try {
    url = new URL(args.url);
  } catch {
    return result(null, 'invalid_url', null);
  }
  // http: goes on to the dispatcher, which refuses it unless it allows local plain http.
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return result(null, 'https_required', null);

  const timeoutMs = args.timeoutMs ?? DEFAULT_CALLBACK_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    // undici's request() never follows redirects (that needs its redirect interceptor), so a 3xx
    // arrives here as a 3xx: a failed attempt, as Standard Webhooks requires.
    const res = await request(url, {
      dispatcher: args.dispatcher,
      method: 'POST',
      headers: { 'user-agent': 'Tijori-Callbacks/1', ...args.headers },
      body: args.body,
      signal: controller.signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const snippet = await readSnippet(res.body, RESPONSE_SNIPPET_BYTES);
    const status = res.statusCode;
    if (status >= 200 && status < 300) return result(status, null, snippet);
    if (status >= 300 && status < 400) return result(status, 'redirect_not_followed', snippet);
    return result(status, `http_${status}`, snippet);
  } catch (err) {
    return result(null, classify(err, controller.signal.aborted), null);
  } finally {
    clearTimeout(timer);
  }
}
