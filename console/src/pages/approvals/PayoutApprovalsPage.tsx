/**
 * "Payout approvals" (contract §6): payouts made in the console wait here, oldest first. A checker
 * other than the maker opens one and approves it (it is submitted to the bank) or rejects it with a
 * note (no money moves). The service refuses a maker's own payout whatever this page shows.
 */
import { useState } from 'react';
import { api, ApiError, describe } from '../../api.js';
import { Time } from '../../components.js';
import { useResource } from '../../data.js';
import { ApproveOrReject, DecisionOutcome, useDecision } from '../DecisionForm.js';
import { formatPaise } from '../../format.js';
import type { Column } from '../columns.js';
import { DetailPanel } from '../DetailPanel.js';
import { QueueTable } from '../QueueTable.js';
import type { RowOf } from '../../wire.js';

type Pending = RowOf<'consoleListPayoutApprovals'>;

const COLUMNS: Column<Pending>[] = [
  { title: 'Made', cell: (r) => <Time iso={r.created_at} /> },
  { title: 'Transaction', cell: (r) => <code>{r.transaction_id}</code> },
  { title: 'Beneficiary', cell: (r) => `${r.beneficiary.name} (${r.beneficiary.bank_name})` },
  { title: 'Amount', cell: (r) => formatPaise(r.amount_paise), numeric: true },
  { title: 'Mode', cell: (r) => r.mode },
  { title: 'Made by', cell: (r) => r.maker ?? '—' },
];

export function PayoutApprovalsPage({ canCheck, self }: { canCheck: boolean; self: string }) {
  const { data: rows, error: loadError } = useResource<Pending[]>('/payout-approvals');
  const [selected, setSelected] = useState<string | null>(null);
  // A decision reads the queue again, and any payout on screen.
  const { busy, error, done, decide: run } = useDecision('/payout-approvals', '/payouts');

  const row = rows?.find((r) => r.id === selected) ?? null;

  async function decide(action: 'approve' | 'reject', p: Pending, note: string) {
    await run(
      async () => {
        const r = await api<{ status: string }>('POST', `/payouts/${p.id}/${action}`, action === 'reject' ? { note } : undefined);
        setSelected(null);
        return action === 'approve' ? `Payout ${p.transaction_id} approved: it was sent to the bank (${r.status}).` : `Payout ${p.transaction_id} rejected; no money moves.`;
      },
      (e) => (e instanceof ApiError && e.status === 409 ? `${e.message} Nothing was changed.` : describe(e)),
    );
  }

  return (
    <>
      <h1>Payout approvals</h1>
      <p className="hint">Payouts made in the console wait for a checker who is not their maker.</p>
      <DecisionOutcome error={error ?? loadError} done={done} />
      {row ? (
        <DetailPanel titleId="approval-title" title={`Payout ${row.transaction_id}`} onClose={() => setSelected(null)}>
          <dl className="facts">
            <dt>Amount</dt>
            <dd>
              {formatPaise(row.amount_paise)} by {row.mode}
            </dd>
            <dt>Beneficiary</dt>
            <dd>
              {row.beneficiary.name}, {row.beneficiary.bank_name} ({row.beneficiary.ifsc}), account ending {row.beneficiary.account_number_last4}
            </dd>
            <dt>Remarks</dt>
            <dd>{row.remarks ?? '—'}</dd>
            <dt>Made by</dt>
            <dd>{row.maker ?? row.maker_user_id}</dd>
          </dl>
          {row.maker_user_id === self ? (
            <p>You made this payout, so another checker must approve or reject it.</p>
          ) : !canCheck ? (
            <p>Your role cannot approve payouts; a checker or an admin can.</p>
          ) : (
            <ApproveOrReject key={row.id} busy={busy} what={`the payout ${row.transaction_id} to ${row.beneficiary.name} (${row.beneficiary.bank_name}, account ending ${row.beneficiary.account_number_last4}, ${row.mode})`} amount={formatPaise(row.amount_paise)} hint="Approving sends the payout to the bank; rejecting moves no money." decide={(action, note) => void decide(action, row, note)} />
          )}
        </DetailPanel>
      ) : null}
      <QueueTable rows={rows} error={loadError} empty="No payouts are waiting for approval." columns={COLUMNS} openLabel={(r) => `Open payout ${r.transaction_id}`} onOpen={setSelected} />
    </>
  );
}
