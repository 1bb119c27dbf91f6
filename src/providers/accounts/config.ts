/**
 * Provider account config files (contract §8): their validation, the production addresses that
 * decide `livemode`, and the defaults. Pure: no I/O. A config is checked whole, so a typo in a key
 * name is refused instead of silently ignored.
 */
import { isIP } from 'node:net';
import { type FieldIssue, validationError } from '../../domain/errors.js';
import { parseRazorpayXConfig, RazorpayXConfigError } from '../razorpayx/config.js';

export const PROVIDER_KINDS = ['sandbox', 'cashfree', 'razorpayx'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

export function isProviderKind(v: string): v is ProviderKind {
  return (PROVIDER_KINDS as readonly string[]).includes(v);
}

/** Production addresses: an account on one of these moves real money. */
export const CASHFREE_PRODUCTION_URL = 'https://api.cashfree.com/pg';
export const CASHFREE_SANDBOX_URL = 'https://sandbox.cashfree.com/pg';
export const RAZORPAYX_PRODUCTION_URL = 'https://api.razorpay.com';
/** The API version we built and tested the Cashfree connector against (x-api-version). */
export const CASHFREE_DEFAULT_API_VERSION = '2025-01-01';

export interface SandboxConfig {
  provider: 'sandbox';
}
export interface CashfreeConfig {
  provider: 'cashfree';
  base_url: string;
  client_id: string;
  client_secret: string;
  api_version: string;
}
export interface RazorpayxConfig {
  provider: 'razorpayx';
  base_url: string;
  key_id: string;
  key_secret: string;
  account_number: string;
  webhook_secret: string;
  /** Secret rotation (docs/providers.md "RazorpayX Payouts"): the old secret, accepted until this ISO time. */
  previous_webhook_secret?: string;
  previous_webhook_secret_until?: string;
}
export type ProviderAccountConfig = SandboxConfig | CashfreeConfig | RazorpayxConfig;

/** Each provider's own API addresses: the only ones a merchant admin may name in the console. */
export const OFFICIAL_BASE_URLS: Readonly<Record<Exclude<ProviderKind, 'sandbox'>, readonly string[]>> = {
  cashfree: [CASHFREE_PRODUCTION_URL, CASHFREE_SANDBOX_URL],
  razorpayx: [RAZORPAYX_PRODUCTION_URL],
};

/**
 * The base_url rule of an account added in the console (not by the operator): the provider's own
 * address. The service calls that address with the account's credentials and shows what the calls
 * answered (provider checks, anomalies), so another address would let a merchant admin probe hosts
 * the service can reach. An operator who allowed private networks (CALLBACK_ALLOW_PRIVATE_NETWORKS:
 * a demo or test set-up with simulators) may let the console name any address; operators can always
 * add one with `tijori provider add`.
 */
export function consoleBaseUrlIssue(cfg: ProviderAccountConfig, opts: { allowPrivateNetworks: boolean }): string | null {
  if (cfg.provider === 'sandbox' || opts.allowPrivateNetworks) return null;
  const official = OFFICIAL_BASE_URLS[cfg.provider];
  if (official.includes(cfg.base_url)) return null;
  return `must be the provider's own address (${official.join(' or ')}); an operator can add an account at another address with tijori provider add`;
}

const FIELDS: Record<ProviderKind, { required: string[]; optional: string[] }> = {
  sandbox: { required: [], optional: [] },
  cashfree: { required: ['client_id', 'client_secret'], optional: ['base_url', 'api_version'] },
  razorpayx: { required: ['key_id', 'key_secret', 'account_number', 'webhook_secret'], optional: ['base_url', 'previous_webhook_secret', 'previous_webhook_secret_until'] },
};

function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '');
  if (h === 'localhost') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1';
  return false;
}

/** base_url rules: https, or http:// to a loopback address outside production; no credentials, query or fragment. */
export function baseUrlIssue(raw: string, production: boolean): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (u.username || u.password) return 'must not carry credentials';
  if (u.search || u.hash) return 'must not have a query or fragment';
  if (u.protocol === 'https:') return null;
  if (u.protocol === 'http:') {
    if (production) return 'must use https:// in production';
    if (!isLoopbackHost(u.hostname)) return 'plain http:// is allowed only to a loopback address (127.0.0.0/8, ::1, localhost)';
    return null;
  }
  return 'must be an https:// URL';
}

function normaliseBaseUrl(raw: string): string {
  return raw.replace(/\/+$/, '');
}

/**
 * Validates a parsed config file of `provider`; throws VALIDATION_FAILED with every issue found.
 * Defaults: base_url the provider's production address; cashfree api_version CASHFREE_DEFAULT_API_VERSION.
 */
export function validateProviderConfig(provider: string, raw: unknown, opts: { production: boolean }): ProviderAccountConfig {
  if (!isProviderKind(provider)) throw validationError([{ field: 'provider', issue: `must be one of ${PROVIDER_KINDS.join(', ')}` }]);
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw validationError([{ field: 'config', issue: 'must be a JSON object' }]);
  const cfg = raw as Record<string, unknown>;
  const spec = FIELDS[provider];
  const issues: FieldIssue[] = [];
  for (const key of Object.keys(cfg)) {
    if (!spec.required.includes(key) && !spec.optional.includes(key)) issues.push({ field: `config.${key}`, issue: `is not a ${provider} setting (allowed: ${[...spec.required, ...spec.optional].join(', ') || 'none'})` });
  }
  const str = (key: string, required: boolean, pattern?: RegExp, what?: string): string | undefined => {
    const v = cfg[key];
    if (v === undefined) {
      if (required) issues.push({ field: `config.${key}`, issue: 'is required' });
      return undefined;
    }
    if (typeof v !== 'string' || v.trim() !== v || v.length < 1 || v.length > 500) {
      issues.push({ field: `config.${key}`, issue: 'must be a non-empty string of at most 500 characters without surrounding spaces' });
      return undefined;
    }
    if (pattern && !pattern.test(v)) {
      issues.push({ field: `config.${key}`, issue: `must be ${what}` });
      return undefined;
    }
    return v;
  };
  const baseUrl = (fallback: string): string => {
    const v = str('base_url', false);
    if (v === undefined) return fallback;
    const issue = baseUrlIssue(v, opts.production);
    if (issue) issues.push({ field: 'config.base_url', issue });
    return normaliseBaseUrl(v);
  };
  let out: ProviderAccountConfig;
  switch (provider) {
    case 'sandbox':
      out = { provider };
      break;
    case 'cashfree':
      out = {
        provider,
        base_url: baseUrl(CASHFREE_PRODUCTION_URL),
        client_id: str('client_id', true) ?? '',
        client_secret: str('client_secret', true) ?? '',
        api_version: str('api_version', false, /^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD (the x-api-version)') ?? CASHFREE_DEFAULT_API_VERSION,
      };
      break;
    case 'razorpayx': {
      out = {
        provider,
        base_url: baseUrl(RAZORPAYX_PRODUCTION_URL),
        key_id: str('key_id', true) ?? '',
        key_secret: str('key_secret', true) ?? '',
        account_number: str('account_number', true, /^[0-9A-Za-z]{6,30}$/, 'the RazorpayX account number (6 to 30 letters or digits)') ?? '',
        webhook_secret: str('webhook_secret', true) ?? '',
      };
      // Secret rotation (docs/providers.md "RazorpayX Payouts"): kept, so the connector accepts the old secret until then.
      const previous = str('previous_webhook_secret', false);
      const until = str('previous_webhook_secret_until', false);
      if (previous !== undefined) out.previous_webhook_secret = previous;
      if (until !== undefined) out.previous_webhook_secret_until = until;
      // The connector's own parser has the last word (a bare host, the rotation pair): an account it
      // would refuse is refused here, not at its first payout.
      if (issues.length === 0) {
        try {
          parseRazorpayXConfig(out, { production: opts.production });
        } catch (err) {
          if (!(err instanceof RazorpayXConfigError)) throw err;
          issues.push({ field: 'config', issue: err.message });
        }
      }
      break;
    }
  }
  if (issues.length > 0) throw validationError(issues);
  return out;
}

/**
 * Whether an account with this config moves real money. RazorpayX serves test and live keys on
 * one host, so its test keys (`rzp_test_…`) are never live even on the production address.
 */
export function livemodeOfConfig(cfg: ProviderAccountConfig): boolean {
  switch (cfg.provider) {
    case 'sandbox':
      return false;
    case 'cashfree':
      return cfg.base_url === CASHFREE_PRODUCTION_URL;
    case 'razorpayx':
      return cfg.base_url === RAZORPAYX_PRODUCTION_URL && !cfg.key_id.startsWith('rzp_test_');
  }
}

/** Which providers may carry an organization's collections, and which may carry bank connections. */
export const COLLECTION_PROVIDERS: readonly ProviderKind[] = ['sandbox', 'cashfree'];
export const PAYOUT_PROVIDERS: readonly ProviderKind[] = ['sandbox', 'razorpayx'];
