/**
 * The configuration of one RazorpayX account (contract §8): `{base_url, key_id, key_secret,
 * account_number, webhook_secret}`, plus the optional rotation overlap of docs/providers.md
 * ("RazorpayX Payouts"): `previous_webhook_secret` accepted until `previous_webhook_secret_until`.
 * Razorpay signs retries of events sent before a rotation with the secret they were first sent
 * with (rzp-docs webhooks/validate-test.md) and retries for up to 24 hours, so the overlap should
 * cover at least that.
 */
import { isIP } from 'node:net';

export const RAZORPAYX_PRODUCTION_URL = 'https://api.razorpay.com';

export interface RazorpayXConfig {
  /** The bare host (contract §8), no `/v1`. */
  baseUrl: string;
  keyId: string;
  keySecret: string;
  /** Our RazorpayX account number / customer identifier, the account payouts are made from. */
  accountNumber: string;
  webhookSecret: string;
  /** The secret before the last rotation and the end of its overlap window. */
  previousWebhookSecret?: { secret: string; until: Date } | undefined;
}

export class RazorpayXConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RazorpayXConfigError';
  }
}

const filled = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '');
  if (h === 'localhost') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1';
  return false;
}

/**
 * Reads the JSON config file's object. `production` (NODE_ENV=production) forbids plain http://
 * even to loopback; otherwise http:// is allowed to loopback only (a simulator).
 */
export function parseRazorpayXConfig(raw: unknown, opts: { production?: boolean } = {}): RazorpayXConfig {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new RazorpayXConfigError('the razorpayx config must be a JSON object');
  const o = raw as Record<string, unknown>;
  const missing = ['key_id', 'key_secret', 'account_number', 'webhook_secret'].filter((k) => !filled(o[k]));
  if (missing.length) throw new RazorpayXConfigError(`the razorpayx config needs ${missing.join(', ')}`);
  const baseUrl = filled(o.base_url) ?? RAZORPAYX_PRODUCTION_URL;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new RazorpayXConfigError('base_url is not a URL');
  }
  if (url.pathname !== '/' || url.search || url.hash || url.username || url.password) {
    throw new RazorpayXConfigError('base_url is the bare host, e.g. https://api.razorpay.com (no /v1)');
  }
  if (url.protocol === 'http:') {
    if (opts.production || !isLoopbackHost(url.hostname)) throw new RazorpayXConfigError('plain http:// is allowed only to a loopback address outside production');
  } else if (url.protocol !== 'https:') {
    throw new RazorpayXConfigError('base_url must be https://');
  }
  const prev = filled(o.previous_webhook_secret);
  const untilText = filled(o.previous_webhook_secret_until);
  let previousWebhookSecret: RazorpayXConfig['previousWebhookSecret'];
  if (prev || untilText) {
    const until = untilText ? new Date(untilText) : null;
    if (!prev || !until || Number.isNaN(until.getTime())) {
      throw new RazorpayXConfigError('previous_webhook_secret needs previous_webhook_secret_until (an ISO 8601 time), and the other way round');
    }
    previousWebhookSecret = { secret: prev, until };
  }
  return {
    baseUrl: url.origin,
    keyId: filled(o.key_id)!,
    keySecret: filled(o.key_secret)!,
    accountNumber: filled(o.account_number)!,
    webhookSecret: filled(o.webhook_secret)!,
    previousWebhookSecret,
  };
}

/** Real money moves only on Razorpay's production host (test mode there is chosen by a rzp_test_ key). */
export function isLivemode(cfg: RazorpayXConfig): boolean {
  return cfg.baseUrl === RAZORPAYX_PRODUCTION_URL && !cfg.keyId.startsWith('rzp_test_');
}
