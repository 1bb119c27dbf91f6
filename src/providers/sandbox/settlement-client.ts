/**
 * HTTP client of the sandbox PSP's settlement API (src/sandbox/settlement-routes.ts): the
 * settlements of a merchant, a page at a time by the sandbox's cursor, decoded against TypeBox
 * schemas; and the sandbox-only control that makes it settle now (`tijori sandbox settle`).
 */
import { type Static, Type } from '@sinclair/typebox';
import { decodeAnswer } from '../decode-schema.js';
import { exchange } from '../http.js';
import { ProviderError, type ProviderSettlementLine, type SettlementLinePage, type SettlementPage } from '../provider.js';

const Paise = Type.Integer();

const LineJson = Type.Object({
  line_id: Type.String({ minLength: 1 }),
  type: Type.String(),
  reference: Type.String(),
  refund_reference: Type.Union([Type.String(), Type.Null()]),
  provider_reference: Type.String(),
  amount_paise: Paise,
  fee_paise: Paise,
  tax_paise: Paise,
});

const SettlementJson = Type.Object({
  settlement_id: Type.String({ minLength: 1 }),
  utr: Type.String({ minLength: 1 }),
  currency: Type.String(),
  gross_paise: Paise,
  fees_paise: Paise,
  tax_paise: Paise,
  refunds_paise: Paise,
  adjustments_paise: Paise,
  net_paise: Paise,
  settled_at: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}T' }),
  lines: Type.Array(LineJson),
  lines_next_cursor: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});

const LinePageJson = Type.Object({ currency: Type.String(), data: Type.Array(LineJson), next_cursor: Type.Union([Type.String(), Type.Null()]) });

function lineOf(l: Static<typeof LineJson>, currency: string): ProviderSettlementLine {
  return {
    lineId: l.line_id,
    type: l.type,
    orderReference: l.reference,
    refundReference: l.refund_reference,
    providerPaymentId: l.provider_reference,
    amountPaise: l.amount_paise,
    feePaise: l.fee_paise,
    taxPaise: l.tax_paise,
    currency,
  };
}

const ListJson = Type.Object({ data: Type.Array(SettlementJson), next_cursor: Type.Union([Type.String(), Type.Null()]) });

const SettledJson = Type.Object({
  settlements: Type.Array(Type.Object({ settlement_id: Type.String(), merchant: Type.Union([Type.String(), Type.Null()]), utr: Type.String(), lines: Type.Integer(), net_paise: Paise })),
});

export interface SandboxSettled {
  provider_settlement_id: string;
  merchant: string | null;
  utr: string;
  lines: number;
  net_paise: number;
}

async function getJson(url: string, init: { method: 'GET' | 'POST'; body?: string; timeoutMs: number }): Promise<{ status: number; body: unknown }> {
  let text: string;
  let status: number;
  try {
    const res = await exchange(url, { method: init.method, timeoutMs: init.timeoutMs, ...(init.body !== undefined ? { body: init.body, headers: { 'content-type': 'application/json' } } : {}) });
    text = res.text;
    status = res.status;
  } catch (err) {
    throw new ProviderError(`sandbox PSP unreachable or too slow: ${(err as Error).message}`, true);
  }
  try {
    return { status, body: JSON.parse(text) as unknown };
  } catch {
    throw new ProviderError(`sandbox PSP answered HTTP ${status} without JSON`, status >= 500);
  }
}

export function createSandboxSettlementClient(opts: { baseUrl: () => string; timeoutMs: number }) {
  return {
    async fetchSettlements(q: { merchant: string; since: Date | null; cursor: string | null }): Promise<SettlementPage> {
      const params = new URLSearchParams({ merchant: q.merchant, limit: '50' });
      if (q.since) params.set('from', q.since.toISOString());
      if (q.cursor) params.set('cursor', q.cursor);
      const r = await getJson(`${opts.baseUrl()}/psp/settlements?${params.toString()}`, { method: 'GET', timeoutMs: opts.timeoutMs });
      if (r.status !== 200) throw new ProviderError(`sandbox PSP settlement list answered HTTP ${r.status}`, false);
      const page = decodeAnswer(ListJson, r.body, 'the sandbox settlement list');
      return {
        cursor: page.next_cursor,
        settlements: page.data.map((s) => ({
          providerSettlementId: s.settlement_id,
          utr: s.utr,
          settledAt: new Date(s.settled_at),
          currency: s.currency,
          totals: { grossPaise: s.gross_paise, feesPaise: s.fees_paise, taxPaise: s.tax_paise, refundsPaise: s.refunds_paise, adjustmentsPaise: s.adjustments_paise, netPaise: s.net_paise },
          charges: null,
          lines: s.lines.map((l) => lineOf(l, s.currency)),
          linesCursor: s.lines_next_cursor ?? null,
        })),
      };
    },

    /** The rest of a long settlement's lines, 5,000 at a time, in the settlement's currency. */
    async fetchSettlementLines(q: { merchant: string; providerSettlementId: string; cursor: string }): Promise<SettlementLinePage> {
      const params = new URLSearchParams({ cursor: q.cursor, limit: '5000' });
      const r = await getJson(`${opts.baseUrl()}/psp/settlements/${encodeURIComponent(q.providerSettlementId)}/lines?${params.toString()}`, { method: 'GET', timeoutMs: opts.timeoutMs });
      if (r.status !== 200) throw new ProviderError(`sandbox PSP settlement lines answered HTTP ${r.status}`, false);
      const page = decodeAnswer(LinePageJson, r.body, 'the sandbox settlement lines');
      return { lines: page.data.map((l) => lineOf(l, page.currency)), cursor: page.next_cursor };
    },

    /** Sandbox-only: settle now (one merchant's, or every merchant's). */
    async settle(merchant: string | null): Promise<SandboxSettled[]> {
      const r = await getJson(`${opts.baseUrl()}/psp/settlements`, { method: 'POST', body: JSON.stringify(merchant ? { merchant } : {}), timeoutMs: opts.timeoutMs });
      if (r.status !== 201) throw new ProviderError(`sandbox PSP settle answered HTTP ${r.status}`, r.status >= 500);
      return decodeAnswer(SettledJson, r.body, 'the sandbox settle answer').settlements.map((s) => ({ provider_settlement_id: s.settlement_id, merchant: s.merchant, utr: s.utr, lines: s.lines, net_paise: s.net_paise }));
    },
  };
}
