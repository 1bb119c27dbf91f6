/**
 * Environment → typed configuration (contract §1). Everything is optional in development; in
 * production (NODE_ENV=production) MASTER_KEY and DATABASE_URL must be given explicitly.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { boolFrom, type Env, intFrom, retentionDaysFrom, scaleFrom, smtpFrom } from './config-values.js';

export interface Config {
  production: boolean;
  host: string;
  port: number;
  internalHost: string;
  internalPort: number;
  sandboxPort: number;
  /** An external sandbox (`tijori sandbox serve`); unset: the sandbox runs inside this process. */
  sandboxUrl: string | undefined;
  databaseUrl: string | undefined;
  /** DATABASE_DIRECT_URL: the primary itself, when DATABASE_URL is a transaction-mode pooler (docs/scaling.md). */
  databaseDirectUrl: string | undefined;
  /** DATABASE_REPLICA_URL: a streaming standby for list reads while its lag is within replicaMaxLagMs (REPLICA_MAX_LAG_MS). */
  databaseReplicaUrl: string | undefined;
  replicaMaxLagMs: number;
  /** RETENTION_DAYS: how long the time-partitioned tables keep rows (default 90, at least 7; docs/scaling.md). */
  retentionDays: number;
  dataDir: string;
  publicBaseUrl: string | undefined;
  /**
   * PROVIDER_CALLBACK_BASE_URL: the origin providers reach the internal listener's
   * /provider/{account}/callbacks at (the `callback_url` of `tijori provider add`); default the
   * internal listener's own address.
   */
  providerCallbackBaseUrl: string | undefined;
  adminToken: string;
  /** ADMIN_TOKEN_PREVIOUS: still accepted by the admin API while a token rotation overlaps (docs/operations.md). */
  adminTokenPrevious: string | undefined;
  masterKey: Buffer;
  /** MASTER_KEY_PREVIOUS: still accepted for decryption while `tijori keys rotate-master` runs. */
  masterKeyPrevious: Buffer | undefined;
  /** LOOKUP_KEY: pins the key of keyed look-ups across master key rotations (src/security/vault.ts). */
  lookupKey: Buffer | undefined;
  /** The development secrets (master.key, admin-token) this load generated into DATA_DIR: a start that fails removes them again. */
  generatedSecretFiles: string[];
  provider: string;
  /**
   * SANDBOX_IN_PRODUCTION=true: the operator's explicit consent to run the sandbox provider (no
   * real money, "Simulate payment" on checkout pages) with NODE_ENV=production. Without it such a
   * start is refused (see refuseTestProviderInProduction in service.ts).
   */
  sandboxInProduction: boolean;
  redisUrl: string | undefined;
  callbackAllowPrivateNetworks: boolean;
  /**
   * Plain http:// callback destinations on loopback/private addresses (a receiver on the developer's
   * machine, no certificate needed): on with CALLBACK_ALLOW_PRIVATE_NETWORKS, never in production,
   * where a callback always travels over TLS.
   */
  callbackAllowLocalHttp: boolean;
  /** PEM file of CA certificates trusted for callbacks in addition to the system store and NODE_EXTRA_CA_CERTS. */
  callbackExtraCaFile: string | undefined;
  /** Deliveries in flight at once per instance. */
  callbackConcurrency: number;
  /** Multiplies callback retry delays. Testing only: 1 in production. */
  callbackRetryScale: number;
  trustProxy: string[];
  /** Failed authentications per source address per minute before 429 (contract §4: 30). */
  authFailureLimitPerMinute: number;
  /** Requests to /checkout/* per source address per minute (docs/operations.md, "Abuse limits"). */
  checkoutRateLimitPerMinute: number;
  logLevel: string;
  /** Pool size of the PostgreSQL connection pool of one instance. */
  dbPoolSize: number;
  /** Whether this instance runs the background workers (several instances may). */
  runWorkers: boolean;
  /** Bound of every provider call; a payout submit past it is an UNKNOWN outcome. */
  providerTimeoutMs: number;
  /** How often the settlement worker fetches and imports the providers' settlements (contract §9). */
  settlementSyncIntervalMs: number;
  payout: PayoutSettings;
  /**
   * Development/test only (ignored in production): `after_persist` or `after_submit` makes the
   * process SIGKILL itself at that point of a payout create; `refund_after_persist` and
   * `refund_after_submit` at that point of a refund's submission, to prove crash recovery.
   */
  testCrashPoint: 'after_persist' | 'after_submit' | 'refund_after_persist' | 'refund_after_submit' | 'bulk_mid' | undefined;
  /**
   * Test/demo only (refused in production): fault injection of the sandbox bank's submit endpoint,
   * SANDBOX_FAULTS="timeout=0.3,error=0.1" (probabilities per submit call).
   */
  sandboxFaults: SandboxFaults;
  /** Console sessions (CONSOLE_IDLE_TIMEOUT_S, CONSOLE_ABSOLUTE_TIMEOUT_S). */
  console: { idleSeconds: number; absoluteSeconds: number };
  /**
   * SMTP_URL (smtp:// or smtps://, credentials in the URL) and SMTP_FROM: with them, console
   * invitations and set-up / reset links are mailed and never shown to the admin (docs/console.md).
   * Unset: links are shown to the admin who made them, as before.
   */
  smtp: { url: string; from: string } | undefined;
}

export interface SandboxFaults {
  /** Share of submits that never answer (the bank may or may not have executed). */
  timeout: number;
  /** Share of submits answered 503 (the bank may or may not have executed). */
  error: number;
}

export interface PayoutSettings {
  /** How often the payout worker looks for due attempts. */
  workerIntervalMs: number;
  /** First status inquiry delay; doubles per inquiry up to inquiryMaxMs. */
  inquiryBaseMs: number;
  inquiryMaxMs: number;
  /**
   * A NOT_FOUND inquiry proves "not executed" only this long after the last submit: a request
   * still in flight towards the bank is not yet found.
   */
  notFoundGraceMs: number;
  /** Lease of a submitting/inquiring instance on an attempt; a crashed holder's work resumes after it. */
  leaseMs: number;
  /** Submissions per payout (new attempts only after a proven non-execution) before it FAILS. */
  maxAttempts: number;
}

/** A development secret is generated once into DATA_DIR so restarts keep it; `generated` collects the files made now. */
function fileSecret(dataDir: string, file: string, make: () => string, generated: string[]): string {
  const path = join(dataDir, file);
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const value = make();
  writeFileSync(path, `${value}\n`, { mode: 0o600 });
  generated.push(path);
  return value;
}

/**
 * Removes the development secrets a load generated, after a start that failed: left behind, a
 * later CLI call would read an admin-token no running service knows (issue #28).
 */
export function removeGeneratedSecrets(config: Pick<Config, 'generatedSecretFiles'>): void {
  for (const path of config.generatedSecretFiles) rmSync(path, { force: true });
}

function parseMasterKey(b64: string, name = 'MASTER_KEY'): Buffer {
  const key = Buffer.from(b64, 'base64');
  if (key.length !== 32) throw new Error(`${name} must be 32 bytes, base64-encoded`);
  return key;
}

function crashPointFrom(raw: string | undefined): Config['testCrashPoint'] {
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'after_persist' || raw === 'after_submit' || raw === 'refund_after_persist' || raw === 'refund_after_submit' || raw === 'bulk_mid') return raw;
  throw new Error(`TIJORI_TEST_CRASH_POINT must be after_persist, after_submit, refund_after_persist, refund_after_submit or bulk_mid, got "${raw}"`);
}

export function sandboxFaultsFrom(raw: string | undefined): SandboxFaults {
  const faults: SandboxFaults = { timeout: 0, error: 0 };
  if (raw === undefined || raw.trim() === '') return faults;
  for (const part of raw.split(',')) {
    const [name, value] = part.split('=').map((x) => x.trim());
    const n = Number(value);
    if ((name !== 'timeout' && name !== 'error') || value === undefined || value === '' || !Number.isFinite(n) || n < 0 || n > 1) {
      throw new Error(`SANDBOX_FAULTS must look like "timeout=0.3,error=0.1", got "${raw}"`);
    }
    faults[name] = n;
  }
  if (faults.timeout + faults.error > 1) throw new Error('SANDBOX_FAULTS probabilities add up to more than 1');
  return faults;
}

export function loadConfig(env: Env = process.env): Config {
  const generated: string[] = [];
  try {
    return { ...readConfig(env, generated), generatedSecretFiles: generated };
  } catch (err) {
    removeGeneratedSecrets({ generatedSecretFiles: generated });
    throw err;
  }
}

function readConfig(env: Env, generated: string[]): Omit<Config, 'generatedSecretFiles'> {
  const production = env.NODE_ENV === 'production';
  const dataDir = resolve(env.DATA_DIR || './data');
  const host = env.HOST || '127.0.0.1';
  const port = intFrom(env, 'PORT', 8080);
  if (production && !env.MASTER_KEY) throw new Error('MASTER_KEY is required in production');
  if (production && !env.DATABASE_URL) throw new Error('DATABASE_URL is required in production');
  if (production && env.SANDBOX_FAULTS) throw new Error('SANDBOX_FAULTS is for tests and demos only and must not be set in production');
  if (production && scaleFrom(env, 'CALLBACK_RETRY_SCALE') !== 1) throw new Error('CALLBACK_RETRY_SCALE is for tests only and must not be set in production');
  const masterKey = parseMasterKey(env.MASTER_KEY || fileSecret(dataDir, 'master.key', () => randomBytes(32).toString('base64'), generated));
  const providerTimeoutMs = intFrom(env, 'PROVIDER_TIMEOUT_MS', 3_000);
  const adminToken = env.ADMIN_TOKEN || fileSecret(dataDir, 'admin-token', () => randomBytes(32).toString('base64url'), generated);
  const callbackAllowPrivateNetworks = boolFrom(env, 'CALLBACK_ALLOW_PRIVATE_NETWORKS', false);
  const retentionDays = retentionDaysFrom(env);
  return {
    production,
    host,
    port,
    internalHost: env.INTERNAL_HOST || '127.0.0.1',
    internalPort: intFrom(env, 'INTERNAL_PORT', 8081),
    sandboxPort: intFrom(env, 'SANDBOX_PORT', 8082),
    sandboxUrl: env.SANDBOX_URL ? env.SANDBOX_URL.replace(/\/+$/, '') : undefined,
    databaseUrl: env.DATABASE_URL || undefined,
    databaseDirectUrl: env.DATABASE_URL ? env.DATABASE_DIRECT_URL || undefined : undefined,
    databaseReplicaUrl: env.DATABASE_URL ? env.DATABASE_REPLICA_URL || undefined : undefined,
    replicaMaxLagMs: intFrom(env, 'REPLICA_MAX_LAG_MS', 5_000),
    retentionDays,
    dataDir,
    publicBaseUrl: env.PUBLIC_BASE_URL ? env.PUBLIC_BASE_URL.replace(/\/+$/, '') : undefined,
    providerCallbackBaseUrl: env.PROVIDER_CALLBACK_BASE_URL ? env.PROVIDER_CALLBACK_BASE_URL.replace(/\/+$/, '') : undefined,
    adminToken,
    adminTokenPrevious: env.ADMIN_TOKEN_PREVIOUS || undefined,
    masterKey,
    masterKeyPrevious: env.MASTER_KEY_PREVIOUS ? parseMasterKey(env.MASTER_KEY_PREVIOUS, 'MASTER_KEY_PREVIOUS') : undefined,
    lookupKey: env.LOOKUP_KEY ? parseMasterKey(env.LOOKUP_KEY, 'LOOKUP_KEY') : undefined,
    provider: env.PROVIDER || 'sandbox',
    sandboxInProduction: boolFrom(env, 'SANDBOX_IN_PRODUCTION', false),
    redisUrl: env.REDIS_URL || undefined,
    callbackAllowPrivateNetworks,
    callbackAllowLocalHttp: callbackAllowPrivateNetworks && !production,
    callbackExtraCaFile: env.CALLBACK_EXTRA_CA_FILE || undefined,
    callbackConcurrency: Math.max(1, intFrom(env, 'CALLBACK_CONCURRENCY', 128)),
    callbackRetryScale: scaleFrom(env, 'CALLBACK_RETRY_SCALE'),
    trustProxy: (env.TRUST_PROXY || '').split(',').map((s) => s.trim()).filter(Boolean),
    authFailureLimitPerMinute: Math.max(1, intFrom(env, 'AUTH_FAILURE_LIMIT_PER_MINUTE', 30)),
    checkoutRateLimitPerMinute: Math.max(1, intFrom(env, 'CHECKOUT_RATE_LIMIT_PER_MINUTE', 600)),
    logLevel: env.LOG_LEVEL || 'info',
    dbPoolSize: intFrom(env, 'DB_POOL_SIZE', 20),
    runWorkers: boolFrom(env, 'RUN_WORKERS', true),
    providerTimeoutMs,
    settlementSyncIntervalMs: intFrom(env, 'SETTLEMENT_SYNC_INTERVAL_MS', 3_600_000),
    payout: {
      workerIntervalMs: intFrom(env, 'PAYOUT_WORKER_INTERVAL_MS', 1_000),
      inquiryBaseMs: intFrom(env, 'PAYOUT_INQUIRY_BASE_MS', 2_000),
      inquiryMaxMs: intFrom(env, 'PAYOUT_INQUIRY_MAX_MS', 300_000),
      notFoundGraceMs: intFrom(env, 'PAYOUT_NOT_FOUND_GRACE_MS', 60_000),
      // The lease must outlive a provider call, or a second instance could inquire mid-call.
      leaseMs: Math.max(intFrom(env, 'PAYOUT_LEASE_MS', 10_000), providerTimeoutMs + 1_000),
      maxAttempts: Math.max(1, intFrom(env, 'PAYOUT_MAX_ATTEMPTS', 3)),
    },
    testCrashPoint: production ? undefined : crashPointFrom(env.TIJORI_TEST_CRASH_POINT),
    sandboxFaults: sandboxFaultsFrom(env.SANDBOX_FAULTS),
    console: {
      idleSeconds: Math.max(1, intFrom(env, 'CONSOLE_IDLE_TIMEOUT_S', 30 * 60)),
      absoluteSeconds: Math.max(1, intFrom(env, 'CONSOLE_ABSOLUTE_TIMEOUT_S', 12 * 60 * 60)),
    },
    smtp: smtpFrom(env),
  };
}
