/**
 * A RazorpayX Payouts simulator: a real HTTP server on 127.0.0.1 that behaves as Razorpay's public
 * documents say the API does, for testing the connector (src/providers/razorpayx) over HTTP.
 *
 * Sources (razorpay/markdown-docs, Razorpay's official docs mirrored as markdown; and
 * /work/shared/design/providers.md §2.6, §3):
 * - api/x/payout-composite/create/bank-account.md — `POST /v1/payouts` composite body (account_number,
 *   amount in paise ≥ 100, currency INR, mode UPPERCASE, purpose, fund_account{account_type,
 *   bank_account{name 4–120, ifsc 11, account_number 5–35}, contact{name 3–50, type?, ...}},
 *   queue_if_low_balance, reference_id ≤ 40, narration ≤ 30 of [A-Za-z0-9 ]) and the payout entity answered.
 * - api/x/payout-idempotency/make-request.md — `X-Payout-Idempotency` mandatory (4–36 of
 *   [A-Za-z0-9 _-]); missing → 400 with exactly the error body shown there; "A different payload
 *   will be rejected as a BAD_REQUEST"; api/x/payout-idempotency.md — a retry under the same key
 *   answers the payout's latest state. The message text of a mismatch is the one seen in the wild
 *   (providers.md §3.2 [CODE]); the documents give none.
 * - api/x/payouts/fetch-all.md, fetch-with-id.md — `GET /v1/payouts?account_number=...&reference_id=...`
 *   (account_number mandatory) answering `{"entity":"collection","count","items"}`; `GET /v1/payouts/{id}`.
 * - api/x/payouts/cancel.md — `POST /v1/payouts/{id}/cancel`, only from `queued`.
 * - x/payouts/states-life-cycle.md — statuses and which moves exist (processing → processed |
 *   reversed | failed; processed → reversed; queued → processing | cancelled; ...).
 * - webhooks/payouts.md — event names (`payout.initiated` for processing, `payout.processed`,
 *   `payout.reversed`, `payout.failed`, `payout.rejected`, `payout.queued`, `payout.pending`,
 *   `payout.updated`) and the envelope `{"entity":"event","account_id","event","contains":["payout"],
 *   "payload":{"payout":{"entity":{...}}},"created_at"}`.
 * - webhooks/validate-test.md — `X-Razorpay-Signature` = hex HMAC-SHA256(webhook secret, raw body);
 *   `x-razorpay-event-id` unique per event, the same on a retry; retries of events sent before a
 *   secret change stay signed with the old secret; order not guaranteed.
 * - Error shape `{"error":{"code","description","source","step","reason","metadata","field"}}`
 *   (make-request.md); Basic auth `key_id:key_secret` (rzp-node lib/api.js). The 401 body and the
 *   500 text are [INF]: the documents show no sample of either.
 *
 * - api/x/account-validation/balance-fetch.md — `GET /v1/banking_balances`: `{"entity": "collection",
 *   "items": [{"entity": "banking_balance", "account_number", "currency", "amount", "available_amount", "refreshed_at"}]}`.
 * - api/x/transactions/entity.md, fetch-all.md, webhooks/transactions.md — `GET /v1/transactions?account_number=
 *   &from=&to=&count (≤ 100, default 10)&skip`: a payout's line debits amount + fees (the fees include
 *   the tax, as in the transaction.created sample: amount 100, fees 118, tax 18, debit 218); a
 *   reversal's line credits the amount back with source entity `reversal` and its `payout_id` ([INF]).
 *
 * Faults on demand (`sim.fault`): `5xx` (nothing created), `lost_answer` (the payout IS created,
 * then the connection is destroyed without an answer), `hang` (the answer is held past the
 * client's timeout; `created` says whether the payout exists meanwhile).
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Json = Record<string, unknown>;

export type SimPayoutStatus = 'pending' | 'queued' | 'scheduled' | 'processing' | 'processed' | 'reversed' | 'failed' | 'rejected' | 'cancelled';

export type Fault = { kind: '5xx' } | { kind: 'lost_answer' } | { kind: 'hang'; created: boolean; ms: number };

export interface SimOptions {
  keyId?: string;
  keySecret?: string;
  accountNumber?: string;
  webhookSecret?: string;
  /** The account's opening balance in paise (default ₹10,00,000). */
  balancePaise?: number;
  /** Status of a new payout (documents: `processing` when there is balance and no approval flow). */
  initialStatus?: (body: Json) => { status: SimPayoutStatus; reason?: string };
}

export interface SimWebhook {
  rawBody: string;
  headers: Record<string, string>;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function rzpId(prefix: string): string {
  const bytes = randomBytes(14);
  return `${prefix}_${[...bytes].map((b) => ALNUM[b % ALNUM.length]).join('')}`;
}

const WEBHOOK_EVENT: Record<SimPayoutStatus, string> = {
  pending: 'payout.pending',
  queued: 'payout.queued',
  scheduled: 'payout.updated',
  processing: 'payout.initiated',
  processed: 'payout.processed',
  reversed: 'payout.reversed',
  failed: 'payout.failed',
  rejected: 'payout.rejected',
  cancelled: 'payout.updated',
};

function rzpError(code: string, description: string, field: string | null = null, source = 'business'): Json {
  return { error: { code, description, source, step: null, reason: null, metadata: {}, field } };
}

export class RazorpayXSimulator {
  readonly keyId: string;
  readonly keySecret: string;
  readonly accountNumber: string;
  webhookSecret: string;
  readonly payouts = new Map<string, Json>();
  /** Idempotency key → the body's hash and the payout it created. */
  private readonly keys = new Map<string, { bodyHash: string; payoutId: string }>();
  /** Every request received, for assertions ("no second create"). */
  readonly requests: Array<{ method: string; path: string; idempotencyKey: string | undefined; status: number }> = [];
  /** Faults applied to the next creates, in order. */
  readonly faults: Fault[] = [];
  private readonly server: Server;
  private readonly held = new Set<ServerResponse>();
  private readonly initialStatus: NonNullable<SimOptions['initialStatus']>;
  /** The account statement, oldest first, and the balance after its last line. */
  readonly transactions: Json[] = [];
  balancePaise: number;
  url = '';

  constructor(opts: SimOptions = {}) {
    this.keyId = opts.keyId ?? 'rzp_test_SIM00000000001';
    this.keySecret = opts.keySecret ?? 'sim-key-secret';
    this.accountNumber = opts.accountNumber ?? '7878780080316316';
    this.webhookSecret = opts.webhookSecret ?? 'sim-webhook-secret';
    this.initialStatus = opts.initialStatus ?? (() => ({ status: 'processing' }));
    this.balancePaise = opts.balancePaise ?? 100_000_000;
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const res of this.held) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The config file of contract §8 for an account on this simulator. */
  config(overrides: Record<string, unknown> = {}): Record<string, unknown> {
    return { base_url: this.url, key_id: this.keyId, key_secret: this.keySecret, account_number: this.accountNumber, webhook_secret: this.webhookSecret, ...overrides };
  }

  /** How many create requests reached us per reference_id, and how many payouts exist per reference_id. */
  payoutsFor(referenceId: string): Json[] {
    return [...this.payouts.values()].filter((p) => p.reference_id === referenceId);
  }

  creates(): number {
    return this.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payouts').length;
  }

  /** Appends a line to the statement, as the account moves. */
  private post(debit: number, credit: number, source: Json): Json {
    this.balancePaise += credit - debit;
    const line: Json = {
      id: rzpId('txn'), entity: 'transaction', account_number: this.accountNumber, amount: debit || credit, currency: 'INR',
      credit, debit, balance: this.balancePaise, source, created_at: Math.floor(Date.now() / 1000),
    };
    this.transactions.push(line);
    return line;
  }

  private debitPayout(p: Json): void {
    if (this.transactions.some((t) => (t.source as Json).id === p.id)) return;
    const { _account, ...source } = p;
    void _account;
    this.post((p.amount as number) + (p.fees as number), 0, { ...source });
  }

  /** A payout made outside Tijori (the Dashboard): a debit no Tijori payout explains. */
  externalDebit(amountPaise: number): Json {
    return this.post(amountPaise, 0, { id: rzpId('pout'), entity: 'payout', amount: amountPaise, fees: 0, tax: 0, status: 'processed', utr: 'EXT' + Date.now(), reference_id: null });
  }

  /** The bank's statement loses a payout's debit (what reconciliation must notice). */
  dropDebitOf(payoutId: string): void {
    const i = this.transactions.findIndex((t) => (t.source as Json).id === payoutId);
    if (i >= 0) this.transactions.splice(i, 1);
  }

  /**
   * Moves a payout as the bank would and answers the webhook Razorpay would send for it (signed
   * with the current secret unless `secret` is given). The event is not delivered: tests hand it
   * to the connector or post it to the service themselves.
   */
  move(payoutId: string, status: SimPayoutStatus, opts: { utr?: string | null; reason?: string; description?: string } = {}): SimWebhook {
    const p = this.payouts.get(payoutId);
    if (!p) throw new Error(`no payout ${payoutId}`);
    p.status = status;
    if (opts.utr !== undefined) p.utr = opts.utr;
    if (status === 'processing' || status === 'processed') {
      p.fees = 590;
      p.tax = 90;
    }
    p.status_details = opts.reason ? { description: opts.description ?? opts.reason, source: 'beneficiary_bank', reason: opts.reason } : null;
    if (status === 'processing' || status === 'processed') this.debitPayout(p);
    const debited = this.transactions.some((t) => (t.source as Json).id === payoutId);
    const creditedBack = this.transactions.some((t) => (t.source as Json).payout_id === payoutId);
    if ((status === 'reversed' || status === 'failed') && debited && !creditedBack) {
      this.post(0, (p.amount as number) + (p.fees as number), { id: rzpId('rvrsl'), entity: 'reversal', payout_id: payoutId, amount: p.amount });
    }
    return this.webhookFor(payoutId, WEBHOOK_EVENT[status]);
  }

  /** A webhook for the payout's current state under `event`, as Razorpay shapes and signs it. */
  webhookFor(payoutId: string, event: string, opts: { secret?: string; eventId?: string } = {}): SimWebhook {
    const p = this.payouts.get(payoutId);
    if (!p) throw new Error(`no payout ${payoutId}`);
    const envelope = { entity: 'event', account_id: 'acc_SimAccount0001', event, contains: ['payout'], payload: { payout: { entity: this.view(p) } }, created_at: Math.floor(Date.now() / 1000) };
    // Razorpay's bodies escape "/" (rzp-docs payments/qr-codes/subscribe-to-webhooks.md): the MAC is over these bytes.
    const rawBody = JSON.stringify(envelope).replace(/\//g, '\\/');
    return this.sign(rawBody, opts);
  }

  sign(rawBody: string, opts: { secret?: string; eventId?: string } = {}): SimWebhook {
    const signature = createHmac('sha256', opts.secret ?? this.webhookSecret).update(rawBody).digest('hex');
    return {
      rawBody,
      headers: { 'content-type': 'application/json', 'x-razorpay-signature': signature, 'x-razorpay-event-id': opts.eventId ?? `evt_${rzpId('x').slice(2)}` },
    };
  }

  private send(res: ServerResponse, status: number, body: Json): number {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
    return status;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://sim');
    const key = req.headers['x-payout-idempotency'];
    const entry = { method: req.method ?? 'GET', path: url.pathname, idempotencyKey: Array.isArray(key) ? key[0] : key, status: 0 };
    this.requests.push(entry);
    entry.status = this.route(req, res, url, raw, entry.idempotencyKey);
  }

  private authorised(req: IncomingMessage): boolean {
    const expected = `Basic ${Buffer.from(`${this.keyId}:${this.keySecret}`).toString('base64')}`;
    return req.headers.authorization === expected;
  }

  private route(req: IncomingMessage, res: ServerResponse, url: URL, raw: string, key: string | undefined): number {
    if (!this.authorised(req)) return this.send(res, 401, rzpError('BAD_REQUEST_ERROR', 'The api key provided is invalid'));
    if (req.method === 'POST' && url.pathname === '/v1/payouts') return this.create(res, raw, key);
    if (req.method === 'GET' && url.pathname === '/v1/payouts') return this.list(res, url);
    if (req.method === 'GET' && url.pathname === '/v1/banking_balances') {
      const item = { entity: 'banking_balance', currency: 'INR', account_number: this.accountNumber, account_type: 'current_account', bank_name: 'RBL Bank', bank_code: 'RATN', amount: this.balancePaise, available_amount: this.balancePaise, refreshed_at: Math.floor(Date.now() / 1000) };
      return this.send(res, 200, { entity: 'collection', count: 1, items: [item] });
    }
    if (req.method === 'GET' && url.pathname === '/v1/transactions') return this.statement(res, url);
    const one = /^\/v1\/payouts\/(pout_[A-Za-z0-9]+)(\/cancel)?$/.exec(url.pathname);
    if (one) {
      const p = this.payouts.get(one[1]!);
      if (!p) return this.send(res, 400, rzpError('BAD_REQUEST_ERROR', 'The id provided does not exist', 'id'));
      if (req.method === 'GET' && !one[2]) return this.send(res, 200, p);
      if (req.method === 'POST' && one[2]) {
        if (p.status !== 'queued') return this.send(res, 400, rzpError('BAD_REQUEST_ERROR', 'Only queued payouts can be cancelled'));
        p.status = 'cancelled';
        return this.send(res, 200, p);
      }
    }
    return this.send(res, 400, rzpError('BAD_REQUEST_ERROR', 'The requested URL was not found on the server.'));
  }

  private list(res: ServerResponse, url: URL): number {
    const account = url.searchParams.get('account_number');
    if (!account) return this.send(res, 400, rzpError('BAD_REQUEST_ERROR', 'The account number field is required.', 'account_number'));
    const ref = url.searchParams.get('reference_id');
    const items = [...this.payouts.values()].filter((p) => p._account === account && (ref === null || p.reference_id === ref)).map((p) => this.view(p));
    return this.send(res, 200, { entity: 'collection', count: items.length, items: items.slice(0, 10) });
  }

  /** Newest first, as Razorpay's lists are; `from`/`to` in Unix seconds, inclusive. */
  private statement(res: ServerResponse, url: URL): number {
    if (url.searchParams.get('account_number') !== this.accountNumber) return this.send(res, 400, rzpError('BAD_REQUEST_ERROR', 'The account number is invalid.', 'account_number'));
    const count = Number(url.searchParams.get('count') ?? 10);
    const skip = Number(url.searchParams.get('skip') ?? 0);
    if (!Number.isInteger(count) || count < 1 || count > 100) return this.send(res, 400, rzpError('BAD_REQUEST_ERROR', 'The count must be between 1 and 100.', 'count'));
    const from = Number(url.searchParams.get('from') ?? 0);
    const to = Number(url.searchParams.get('to') ?? Number.MAX_SAFE_INTEGER);
    const items = this.transactions.filter((t) => (t.created_at as number) >= from && (t.created_at as number) <= to).reverse();
    const page = items.slice(skip, skip + count);
    return this.send(res, 200, { entity: 'collection', count: page.length, items: page });
  }

  private view(p: Json): Json {
    const { _account, ...rest } = p;
    void _account;
    return rest;
  }

  /** Field checks of the composite create, in the documents' terms; the first failing one answers. */
  private invalid(b: Json): { description: string; field: string } | null {
    const fa = (b.fund_account ?? {}) as Json;
    const bank = (fa.bank_account ?? {}) as Json;
    const contact = (fa.contact ?? {}) as Json;
    const s = (v: unknown) => (typeof v === 'string' ? v : null);
    if (s(b.account_number) !== this.accountNumber) return { description: 'The account number is invalid.', field: 'account_number' };
    if (!Number.isInteger(b.amount) || (b.amount as number) < 100) return { description: 'The amount must be at least 100.', field: 'amount' };
    if (b.currency !== 'INR') return { description: 'The selected currency is invalid.', field: 'currency' };
    if (!['NEFT', 'RTGS', 'IMPS', 'UPI', 'card'].includes(s(b.mode) ?? '')) return { description: 'The selected mode is invalid.', field: 'mode' };
    if (!s(b.purpose)) return { description: 'The purpose field is required.', field: 'purpose' };
    if (fa.account_type !== 'bank_account') return { description: 'The account type field is required.', field: 'fund_account.account_type' };
    const name = s(bank.name) ?? '';
    if (name.length < 4 || name.length > 120) return { description: 'The name must be between 4 and 120 characters.', field: 'fund_account.bank_account.name' };
    if (!/^[A-Z]{4}0[A-Z0-9]{6}$/.test(s(bank.ifsc) ?? '')) return { description: 'The ifsc must be 11 characters.', field: 'fund_account.bank_account.ifsc' };
    if (!/^[A-Za-z0-9]{5,35}$/.test(s(bank.account_number) ?? '')) return { description: 'The account number format is invalid.', field: 'fund_account.bank_account.account_number' };
    const cname = s(contact.name) ?? '';
    if (cname.length < 3 || cname.length > 50) return { description: 'The name must be between 3 and 50 characters.', field: 'fund_account.contact.name' };
    if (b.reference_id !== undefined && (s(b.reference_id) === null || (b.reference_id as string).length > 40)) return { description: 'The reference id may not be greater than 40 characters.', field: 'reference_id' };
    if (b.narration !== undefined && !/^[A-Za-z0-9 ]{1,30}$/.test(s(b.narration) ?? '')) return { description: 'The narration format is invalid.', field: 'narration' };
    return null;
  }

  private create(res: ServerResponse, raw: string, key: string | undefined): number {
    if (!key) {
      // Exactly the body of api/x/payout-idempotency/make-request.md.
      return this.send(res, 400, {
        error: {
          code: 'BAD_REQUEST_ERROR', description: 'Idempotency key is missing. Include idempotency header and key in the request.',
          source: 'business', step: null, reason: 'null', metadata: {}, field: 'X-Payout-Idempotency',
        },
      });
    }
    if (!/^[A-Za-z0-9 _-]{4,36}$/.test(key)) return this.send(res, 400, rzpError('BAD_REQUEST_ERROR', 'The idempotency key format is invalid.', 'X-Payout-Idempotency'));
    const fault = this.faults.shift();
    if (fault?.kind === '5xx') return this.send(res, 500, rzpError('SERVER_ERROR', 'We are facing some trouble completing your request at the moment. Please try again shortly.', null, 'internal'));
    const bodyHash = createHash('sha256').update(raw).digest('hex');
    const seen = this.keys.get(key);
    if (seen) {
      if (seen.bodyHash !== bodyHash) return this.send(res, 400, rzpError('BAD_REQUEST_ERROR', 'Different request body sent for the same Idempotency Header', 'X-Payout-Idempotency'));
      return this.answer(res, this.view(this.payouts.get(seen.payoutId)!), fault);
    }
    let b: Json;
    try {
      const parsed: unknown = JSON.parse(raw);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      b = parsed as Json;
    } catch {
      return this.send(res, 400, rzpError('BAD_REQUEST_ERROR', 'The request body is not valid JSON.'));
    }
    const bad = this.invalid(b);
    if (bad) return this.send(res, 400, rzpError('BAD_REQUEST_ERROR', bad.description, bad.field));
    if (fault?.kind === 'hang' && !fault.created) return this.hold(res, fault.ms);
    const fa = b.fund_account as Json;
    const initial = this.initialStatus(b);
    const payout: Json = {
      id: rzpId('pout'),
      entity: 'payout',
      fund_account_id: rzpId('fa'),
      fund_account: { entity: 'fund_account', account_type: 'bank_account', bank_account: fa.bank_account, contact: fa.contact },
      amount: b.amount,
      currency: 'INR',
      notes: b.notes ?? [],
      fees: initial.status === 'processing' ? 590 : 0,
      tax: initial.status === 'processing' ? 90 : 0,
      status: initial.status,
      purpose: b.purpose,
      utr: null,
      mode: b.mode,
      reference_id: b.reference_id ?? null,
      narration: b.narration ?? null,
      batch_id: null,
      status_details: initial.reason ? { description: initial.reason, source: 'beneficiary_bank', reason: initial.reason } : null,
      created_at: Math.floor(Date.now() / 1000),
      fee_type: '',
      _account: b.account_number,
    };
    this.payouts.set(payout.id as string, payout);
    this.keys.set(key, { bodyHash, payoutId: payout.id as string });
    if (initial.status === 'processing') this.debitPayout(payout);
    return this.answer(res, this.view(payout), fault);
  }

  private answer(res: ServerResponse, body: Json, fault: Fault | undefined): number {
    if (fault?.kind === 'lost_answer') {
      res.socket?.destroy();
      return 0;
    }
    if (fault?.kind === 'hang') return this.hold(res, fault.ms);
    return this.send(res, 200, body);
  }

  /** Holds the answer (the client gives up first), then drops it. */
  private hold(res: ServerResponse, ms: number): number {
    this.held.add(res);
    setTimeout(() => {
      this.held.delete(res);
      res.destroy();
    }, ms).unref();
    return 0;
  }
}
