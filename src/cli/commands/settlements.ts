/**
 * `tijori settlements sync|list`, `tijori recon breaks`, `tijori sandbox settle` (contract §9),
 * through the admin API; each prints exactly §9's answer with --json.
 */
import { optionalString, requireString } from '../args.js';
import type { CliCommand } from '../command.js';
import { UsageError } from '../errors.js';
import type { SettlementView } from '../../services/settlements/merchant-settlements.js';

const ORG_FLAG = { type: 'string', required: true, value: 'ORG', help: "the organization's id" } as const;

interface SyncCounts {
  settlements_new: number;
  lines_new: number;
  matched: number;
  breaks: number;
}

export const settlementsSync: CliCommand = {
  name: 'settlements sync',
  summary: "Fetches the organization's settlements from its collections accounts now, stores the new ones and reconciles their lines.",
  flags: {
    org: ORG_FLAG,
    'provider-account': { type: 'string', value: 'ID', help: 'only this provider account (default: every collections account)' },
  },
  async run({ admin, flags }) {
    const org = requireString(flags, 'org');
    const account = optionalString(flags, 'provider-account');
    const r = await admin.request<SyncCounts>('POST', '/admin/settlements/sync', { org, ...(account ? { provider_account_id: account } : {}) });
    const json = { settlements_new: r.settlements_new, lines_new: r.lines_new, matched: r.matched, breaks: r.breaks };
    return { json, text: `${json.settlements_new} new settlements, ${json.lines_new} lines: ${json.matched} matched, ${json.breaks} breaks` };
  },
};

export const settlementsList: CliCommand = {
  name: 'settlements list',
  summary: "Lists the organization's settlements, newest first, with their totals and counts of lines and breaks.",
  flags: { org: ORG_FLAG },
  async run({ admin, flags }) {
    const org = requireString(flags, 'org');
    // GET /admin/settlements answers the settlement as the merchant API shows it (one view, merchant-settlements.ts).
    const rows = await admin.request<SettlementView[]>('GET', `/admin/settlements?org=${encodeURIComponent(org)}`);
    const json = rows.map((s) => ({
      settlement_id: s.settlement_id,
      provider_account_id: s.provider_account_id,
      provider_settlement_id: s.provider_settlement_id,
      utr: s.utr,
      gross_paise: s.gross_paise,
      fees_paise: s.fees_paise,
      tax_paise: s.tax_paise,
      refunds_paise: s.refunds_paise,
      adjustments_paise: s.adjustments_paise,
      net_paise: s.net_paise,
      settled_at: s.settled_at,
      lines: s.lines,
      breaks: s.breaks,
    }));
    const text = rows.length === 0 ? `no settlements in ${org}` : rows.map((s) => `${s.settled_at}  ${s.provider_settlement_id}  UTR ${s.utr ?? '-'}  net ${s.net_paise}  ${s.lines} lines, ${s.breaks} breaks`).join('\n');
    return { json, text };
  },
};

interface BreakRow {
  break_id: string;
  payout_id?: string | null;
  provider_ref?: string | null;
  kind: string;
  settlement_id: string | null;
  order_id: string | null;
  refund_id: string | null;
  expected_paise: number | null;
  reported_paise: number | null;
  detected_at: string;
  status: string;
}

export const reconBreaks: CliCommand = {
  name: 'recon breaks',
  summary: 'Lists where Tijori and a provider disagree (reconciliation breaks), newest first; resolved ones stay listed.',
  flags: { org: ORG_FLAG, status: { type: 'string', value: 'open|resolved', help: 'only breaks in this status' } },
  async run({ admin, flags }) {
    const org = requireString(flags, 'org');
    const status = optionalString(flags, 'status');
    if (status !== undefined && status !== 'open' && status !== 'resolved') throw new UsageError(`recon breaks: --status must be open or resolved, not "${status}"`, 'usage: tijori recon breaks --help');
    const rows = await admin.request<BreakRow[]>('GET', `/admin/recon/breaks?org=${encodeURIComponent(org)}${status ? `&status=${status}` : ''}`);
    const json = rows.map((b) => ({
      break_id: b.break_id,
      kind: b.kind,
      settlement_id: b.settlement_id,
      order_id: b.order_id,
      refund_id: b.refund_id,
      expected_paise: b.expected_paise,
      reported_paise: b.reported_paise,
      detected_at: b.detected_at,
      status: b.status,
    }));
    const text = rows.length === 0 ? `no breaks in ${org}` : rows.map((b) => `${b.detected_at}  ${b.kind.padEnd(18)} ${b.status.padEnd(8)} ${b.order_id ?? b.refund_id ?? b.payout_id ?? b.provider_ref ?? '-'}  expected ${b.expected_paise ?? '-'} reported ${b.reported_paise ?? '-'}`).join('\n');
    return { json, text };
  },
};

export const sandboxSettle: CliCommand = {
  name: 'sandbox settle',
  summary: 'The sandbox PSP settles now every paid collection and completed refund not yet settled (2 % fee, 18 % GST, refunds deducted).',
  flags: { org: { type: 'string', value: 'ORG', help: "only this organization's collections (default: every organization's)" } },
  async run({ admin, flags }) {
    const org = optionalString(flags, 'org');
    const r = await admin.request<{ settlements: Array<{ provider_settlement_id: string; utr: string; lines: number; net_paise: number }> }>('POST', '/admin/sandbox/settle', org ? { org } : {});
    const json = { settlements: r.settlements.map((s) => ({ provider_settlement_id: s.provider_settlement_id, utr: s.utr, lines: s.lines, net_paise: s.net_paise })) };
    const text = json.settlements.length === 0 ? 'nothing to settle' : json.settlements.map((s) => `settled ${s.provider_settlement_id} UTR ${s.utr}: ${s.lines} lines, net ${s.net_paise} paise`).join('\n');
    return { json, text };
  },
};

export const reconPayoutCheck: CliCommand = {
  name: 'recon payout-check',
  summary: "Checks the organization's payout accounts' statements against its payouts now (where the provider publishes one: RazorpayX); new breaks join `recon breaks`.",
  flags: { org: ORG_FLAG },
  async run({ admin, flags }) {
    const org = requireString(flags, 'org');
    const r = await admin.request<{ accounts: number; lines: number; matched: number; breaks_new: number }>('POST', '/admin/recon/payout-check', { org });
    const json = { accounts: r.accounts, lines: r.lines, matched: r.matched, breaks_new: r.breaks_new };
    return { json, text: `${json.accounts} payout accounts, ${json.lines} statement lines: ${json.matched} payouts matched, ${json.breaks_new} new breaks` };
  },
};
