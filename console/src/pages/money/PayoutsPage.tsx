/** "Payouts": the organization's bank transfers, newest first, searched by any reference. */
import { Status, Time } from '../../components.js';
import { formatPaise } from '../../format.js';
import { AppLink, dash } from './links.js';
import type { Column } from '../columns.js';
import { MoneyList } from './MoneyList.js';
import type { RowOf } from '../../wire.js';
import { PAYOUT_STATUSES } from '../../generated/server.js';

/** The domain's payout states (generated from src/domain/payout.ts; the console API checks the filter against it). */
export { PAYOUT_STATUSES };

type PayoutRow = RowOf<'consoleListPayouts'>;

const columns: Column<PayoutRow>[] = [
  { title: 'Created', cell: (p) => <Time iso={p.created_at} /> },
  { title: 'Transaction', cell: (p) => <AppLink to={`/payouts/${p.id}`}><code>{p.transaction_id}</code></AppLink> },
  { title: 'Your reference', cell: (p) => dash(p.client_reference) },
  { title: 'Beneficiary', cell: (p) => `${p.beneficiary_name} ••${p.account_number_last4}` },
  { title: 'Amount', cell: (p) => formatPaise(p.amount_paise), numeric: true },
  { title: 'Mode', cell: (p) => p.mode },
  { title: 'Status', cell: (p) => <Status status={p.status} /> },
  { title: 'UTR', cell: (p) => dash(p.utr) },
];

export function PayoutsPage() {
  return (
    <MoneyList<PayoutRow>
      title="Payouts"
      endpoint="/payouts"
      noun="payouts"
      statuses={PAYOUT_STATUSES}
      columns={columns}
      searchHint="transaction_id, your reference, UTR"
    />
  );
}
