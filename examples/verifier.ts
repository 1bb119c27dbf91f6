/**
 * Reference verifier for Tijori callbacks (docs/callbacks.md, "Verifying: the rules"), for merchants' receivers.
 *
 * Self-contained on purpose: it imports only `node:` modules so a merchant can copy this one file
 * into their project. A complete receiver using it: example-receiver.ts, docs/callbacks.md.
 *
 * Usage with plain node:http (with Express/Fastify, give it the *raw* body bytes, never
 * `JSON.stringify(req.body)`: re-serialized JSON is not what was signed):
 *
 *   const replayStore = new MemoryReplayStore();
 *   http.createServer(async (req, res) => {
 *     const result = await verifyNodeRequest(req, process.env.TIJORI_CALLBACK_SECRET!, { replayStore });
 *     res.statusCode = result.status;       // 401 when the delivery must be rejected
 *     res.end();
 *     if (result.ok) queueForProcessing(result.event);   // answer 2xx promptly (rule 7)
 *   });
 *
 * Before fulfilling, retrieve the payment order from the API (rule 8): a callback says "look",
 * the API says what is true.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const DEFAULT_TOLERANCE_SECONDS = 300;

export type VerifyFailureReason =
  | 'missing_header'
  | 'bad_timestamp'
  | 'timestamp_out_of_tolerance'
  | 'bad_signature'
  | 'bad_json'
  // The body's `event_id` differs from X-Service-Event-Id. The header is not signed, so a mismatch
  // means someone changed it (for instance to slip a captured delivery past the replay store).
  | 'event_id_mismatch'
  | 'replayed'
  // Only from verifyNodeRequest: the body exceeded maxBodyBytes and was not read.
  | 'body_too_large';

export type VerifyResult =
  | { ok: true; eventId: string; timestamp: number; event: Record<string, unknown> }
  | { ok: false; reason: VerifyFailureReason };

/**
 * Where processed event ids are kept to reject replays (rule 6). `seen` and `remember` may be
 * synchronous (in-memory) or asynchronous (Redis `SET NX EX`, a database table, ...).
 */
export interface ReplayStore {
  seen(eventId: string): boolean | Promise<boolean>;
  remember(eventId: string, expiresAtSeconds: number): void | Promise<void>;
}

/**
 * In-memory replay store for a single process. Entries expire, so memory stays bounded by the
 * number of deliveries within the tolerance window. With several receiver processes, use a shared
 * store instead (Redis, the database).
 */
export class MemoryReplayStore implements ReplayStore {
  private readonly expiries = new Map<string, number>();
  private readonly now: () => number;
  private lastSweep = 0;

  constructor(options: { nowSeconds?: () => number } = {}) {
    this.now = options.nowSeconds ?? (() => Math.floor(Date.now() / 1000));
  }

  seen(eventId: string): boolean {
    const expiresAt = this.expiries.get(eventId);
    if (expiresAt === undefined) return false;
    if (expiresAt <= this.now()) {
      this.expiries.delete(eventId);
      return false;
    }
    return true;
  }

  remember(eventId: string, expiresAtSeconds: number): void {
    this.sweep();
    this.expiries.set(eventId, Math.max(expiresAtSeconds, this.expiries.get(eventId) ?? 0));
  }

  get size(): number {
    return this.expiries.size;
  }

  /** Drops expired ids, at most once a second, so remember() stays O(1) amortised. */
  private sweep(): void {
    const now = this.now();
    if (now === this.lastSweep) return;
    this.lastSweep = now;
    for (const [id, expiresAt] of this.expiries) if (expiresAt <= now) this.expiries.delete(id);
  }
}

/** Node's IncomingHttpHeaders, a Fetch `Headers`, or any plain object of header values. */
export type HeaderSource =
  | { get(name: string): string | null }
  | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** The exact bytes received (a string is taken as its UTF-8 encoding). */
  rawBody: string | Uint8Array;
  headers: HeaderSource;
  /** One secret, or several during rotation (the new and the old one): any of them may match. */
  secret: string | readonly string[];
  /** Current Unix time in seconds; defaults to the clock. */
  nowSeconds?: number;
  /** Maximum |now - timestamp|, in seconds. Default 300 (rule 4). */
  toleranceSeconds?: number;
  /** Without one there is no replay protection beyond the timestamp window. */
  replayStore?: ReplayStore;
}

function headerValue(headers: HeaderSource, name: string): string | undefined {
  if (typeof headers.get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() !== wanted) continue;
    // A repeated header is ambiguous: which copy was meant? Treat it as absent.
    if (Array.isArray(value)) return value.length === 1 ? value[0] : undefined;
    return value;
  }
  return undefined;
}

function expectedSignature(secret: string, timestamp: string, body: Buffer): Buffer {
  const hmac = createHmac('sha256', secret);
  hmac.update(`${timestamp}.`, 'utf8');
  hmac.update(body);
  return Buffer.from(`v1=${hmac.digest('hex')}`, 'utf8');
}

/** Constant-time comparison; a length difference is a mismatch, not an exception. */
function signatureMatches(received: Buffer, expected: Buffer): boolean {
  return received.length === expected.length && timingSafeEqual(received, expected);
}

export async function verifyCallback(options: VerifyOptions): Promise<VerifyResult> {
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const secrets = typeof options.secret === 'string' ? [options.secret] : options.secret;

  const eventId = headerValue(options.headers, 'X-Service-Event-Id');
  const timestampText = headerValue(options.headers, 'X-Service-Timestamp');
  const signature = headerValue(options.headers, 'X-Service-Signature');
  if (!eventId || !timestampText || !signature) return { ok: false, reason: 'missing_header' };

  // All digits (rule 4): no sign, no spaces, no exponent. 15 digits keep it a safe integer.
  if (!/^[0-9]{1,15}$/.test(timestampText)) return { ok: false, reason: 'bad_timestamp' };
  const timestamp = Number(timestampText);
  if (Math.abs(now - timestamp) > tolerance) return { ok: false, reason: 'timestamp_out_of_tolerance' };

  const body = typeof options.rawBody === 'string' ? Buffer.from(options.rawBody, 'utf8') : Buffer.from(options.rawBody);
  const received = Buffer.from(signature, 'utf8');
  let matched = false;
  // Every secret is tried (no early exit), so timing does not reveal which one matched.
  for (const secret of secrets) {
    if (secret.length > 0 && signatureMatches(received, expectedSignature(secret, timestampText, body))) matched = true;
  }
  if (!matched) return { ok: false, reason: 'bad_signature' };

  let event: unknown;
  try {
    event = JSON.parse(body.toString('utf8'));
  } catch {
    return { ok: false, reason: 'bad_json' };
  }
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return { ok: false, reason: 'bad_json' };
  const envelope = event as Record<string, unknown>;
  if (envelope.event_id !== undefined && envelope.event_id !== eventId) return { ok: false, reason: 'event_id_mismatch' };

  // Only a verified delivery is remembered: otherwise anyone could burn event ids with junk.
  if (options.replayStore) {
    const store = options.replayStore;
    // A synchronous store is checked and updated without an await in between, so two concurrent
    // copies of one delivery cannot both pass.
    const seen = store.seen(eventId);
    if (typeof seen === 'boolean' ? seen : await seen) return { ok: false, reason: 'replayed' };
    // After this moment the timestamp check rejects the delivery anyway; +1 because the bound is inclusive.
    await store.remember(eventId, Math.max(now, timestamp) + tolerance + 1);
  }
  return { ok: true, eventId, timestamp, event: envelope };
}

export interface NodeVerifyOptions extends Omit<VerifyOptions, 'rawBody' | 'headers' | 'secret'> {
  /** Bodies above this are not read. Default 1 MiB (Tijori events are a few KiB). */
  maxBodyBytes?: number;
}

/**
 * Status to answer: 200 when verified, and also for a replay (the event was already accepted:
 * a 2xx stops the sender retrying it); 401 for everything else (rule 4; 413 for an oversized body).
 */
export type NodeVerifyResult = VerifyResult & { status: number; rawBody: Buffer };

/** Resolves null (and discards the rest of the stream) once the body passes maxBytes. */
function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer | string): void => {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      size += buf.length;
      if (size > maxBytes) tooLarge();
      else chunks.push(buf);
    };
    const tooLarge = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.resume(); // keep the socket readable so the caller can still answer 413
      resolve(null);
    };
    const onEnd = (): void => resolve(Buffer.concat(chunks));
    req.once('error', reject);
    if (Number.isFinite(declared) && declared > maxBytes) return tooLarge();
    req.on('data', onData);
    req.once('end', onEnd);
  });
}

/**
 * Reads the raw body of a Node request and verifies it. Framework-agnostic: works wherever the
 * request stream has not been consumed yet (disable JSON body parsing for the callback route).
 */
export async function verifyNodeRequest(
  req: IncomingMessage,
  secret: string | readonly string[],
  options: NodeVerifyOptions = {},
): Promise<NodeVerifyResult> {
  const rawBody = await readBody(req, options.maxBodyBytes ?? 1024 * 1024);
  if (rawBody === null) {
    return { ok: false, reason: 'body_too_large', status: 413, rawBody: Buffer.alloc(0) };
  }
  const result = await verifyCallback({ ...options, rawBody, headers: req.headers, secret });
  const status = result.ok || result.reason === 'replayed' ? 200 : 401;
  return { ...result, status, rawBody };
}
