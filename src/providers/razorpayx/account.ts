/**
 * A RazorpayX account's balance and statement (issue #33 item 6):
 * - `GET /v1/banking_balances` (rzp-docs api/x/account-validation/balance-fetch.md): one item per
 *   account the keys can see; ours is the one whose `account_number` is the config's.
 * - `GET /v1/transactions?account_number=&from=&to=&count=&skip=` (api/x/transactions/fetch-all.md):
 *   pages of at most 100, paged by `skip`; `from`/`to` in Unix seconds. A payout's line has source
 *   entity `payout` (its `pout_` id), `debit` and the payout's `fees` and `tax`.
 * Traps (docs/providers.md): paging by skip over a window that still grows can shift items between
 * pages, so the window's end is fixed by the caller and lines are de-duplicated by id; whether the
 * debit includes the fees depends on the account's fee model (the documents show both), so a
 * payout's debit matches when it is the amount or the amount plus the fees.
 */
import type { PayoutAccountBalance, PayoutAccountReader, StatementLine } from '../provider.js';
import { ProviderError } from '../provider.js';
import type { HttpAnswer } from '../http.js';
import { decoded, parsedJson, str } from '../decode.js';
import { BankingBalance, Collection, Transaction } from './schemas.js';

/** Razorpay's page bound (fetch-all.md: "Maximum value is 100"). */
const PAGE = 100;
/** A statement larger than this in one window is refused rather than read for minutes. */
const MAX_PAGES = 1000;

type Get = (path: string) => Promise<HttpAnswer>;

export class RazorpayXAccount implements PayoutAccountReader {
  constructor(
    private readonly get: Get,
    private readonly accountNumber: string,
  ) {}

  private async collection(path: string, what: string): Promise<unknown[]> {
    let res: HttpAnswer;
    try {
      res = await this.get(path);
    } catch (err) {
      throw new ProviderError(`RazorpayX ${what} failed: ${(err as Error).message}`, false);
    }
    const items = res.ok ? decoded(Collection, parsedJson(res.text))?.items : undefined;
    if (!items) throw new ProviderError(`RazorpayX ${what} answered HTTP ${res.status} without a collection`, false);
    return items;
  }

  async balance(): Promise<PayoutAccountBalance> {
    const items = await this.collection('/v1/banking_balances', 'balance');
    const ours = items.map((i) => decoded(BankingBalance, i)).find((b) => b?.account_number === this.accountNumber);
    if (!ours) throw new ProviderError(`RazorpayX published no balance for account ${this.accountNumber}`, false);
    if (ours.currency !== 'INR') throw new ProviderError(`RazorpayX balance in ${ours.currency}, not INR`, false);
    return {
      balancePaise: ours.amount,
      availablePaise: ours.available_amount ?? ours.amount,
      refreshedAt: ours.refreshed_at === undefined ? null : new Date(ours.refreshed_at * 1000),
    };
  }

  async statement(from: Date, to: Date): Promise<StatementLine[]> {
    const lines = new Map<string, StatementLine>();
    const fromS = Math.floor(from.getTime() / 1000);
    const toS = Math.floor(to.getTime() / 1000);
    for (let page = 0; page < MAX_PAGES; page++) {
      const q = new URLSearchParams({ account_number: this.accountNumber, from: String(fromS), to: String(toS), count: String(PAGE), skip: String(page * PAGE) });
      const items = await this.collection(`/v1/transactions?${q.toString()}`, 'statement');
      for (const item of items) {
        const t = decoded(Transaction, item);
        if (!t) throw new ProviderError('RazorpayX statement: a transaction that does not fit its documented entity', false);
        if (t.account_number !== this.accountNumber) throw new ProviderError('RazorpayX statement: a transaction of another account', false);
        if (t.currency !== 'INR') throw new ProviderError(`RazorpayX statement: a transaction in ${t.currency}`, false);
        lines.set(t.id, lineOf(t));
      }
      if (items.length < PAGE) return [...lines.values()].sort((a, b) => a.at.getTime() - b.at.getTime() || a.lineId.localeCompare(b.lineId));
    }
    throw new ProviderError(`RazorpayX statement longer than ${MAX_PAGES * PAGE} lines in one window: ask for a shorter one`, false);
  }
}

function lineOf(t: Transaction): StatementLine {
  const source = t.source ?? null;
  const kind = source?.entity === 'payout' ? 'PAYOUT' : source?.entity === 'reversal' ? 'REVERSAL' : 'OTHER';
  const providerPayoutId = kind === 'PAYOUT' ? source!.id : kind === 'REVERSAL' ? str(source!.payout_id) : null;
  return {
    lineId: t.id,
    kind,
    providerPayoutId,
    debitPaise: t.debit,
    creditPaise: t.credit,
    feesPaise: kind === 'PAYOUT' ? (source!.fees ?? 0) : 0,
    taxPaise: kind === 'PAYOUT' ? (source!.tax ?? 0) : 0,
    at: new Date(t.created_at * 1000),
  };
}
