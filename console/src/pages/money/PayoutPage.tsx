/** One payout: its facts, each attempt (bank reference, UTR, inquiries), each inquiry, its state moves and callbacks. */
import { Status, Time } from '../../components.js';
import { formatPaise } from '../../format.js';
import { Callbacks } from './Callbacks.js';
import { AppLink, dash } from './links.js';
import { PayoutInquiries } from './ProviderChecks.js';
import { TableSection } from './TableSection.js';
import { Loadable, useResource } from '../../data.js';
import type { Column } from '../columns.js';
import { ProviderAnomalies } from '../ProviderAnomalies.js';
import type { Answer } from '../../wire.js';

type PayoutDetail = Answer<'consoleGetPayout'>;

type Attempt = PayoutDetail['attempts'][number];

type StateMove = PayoutDetail['history'][number];

const ATTEMPT_COLUMNS: Column<Attempt>[] = [
  { title: 'Attempt', cell: (a) => a.attempt_no },
  { title: 'Status', cell: (a) => a.status },
  { title: 'Bank reference', cell: (a) => dash(a.bank_reference) },
  { title: 'UTR', cell: (a) => dash(a.utr) },
  { title: 'Inquiries', cell: (a) => a.inquiries },
  { title: 'Submitted', cell: (a) => (a.submitted_at ? <Time iso={a.submitted_at} /> : '—') },
  { title: 'Failure', cell: (a) => dash(a.failure_reason) },
];

const MOVE_COLUMNS: Column<StateMove>[] = [
  { title: 'When', cell: (h) => <Time iso={h.at} /> },
  { title: 'Of', cell: (h) => h.entity },
  { title: 'From', cell: (h) => dash(h.from_status) },
  { title: 'To', cell: (h) => h.to_status },
  { title: 'Cause', cell: (h) => `${h.cause}${h.detail ? `: ${h.detail}` : ''}` },
];

export function PayoutPage({ id }: { id: string }) {
  const { data, error } = useResource<PayoutDetail>(`/payouts/${encodeURIComponent(id)}`);
  return (
    <>
      <p>
        <AppLink to="/payouts">← Payouts</AppLink>
      </p>
      <h1>Payout {data ? <code>{data.payout.transaction_id}</code> : null}</h1>
      <Loadable data={data} error={error}>
        {(data) => {
          const p = data.payout;
          return (
            <>
              <dl className="facts">
                <dt>Amount</dt>
                <dd>{formatPaise(p.amount_paise)}</dd>
                <dt>Status</dt>
                <dd>
                  <Status status={p.status} />
                  {p.failure_reason ? ` (${p.failure_reason})` : ''}
                </dd>
                <dt>Beneficiary</dt>
                <dd>
                  {p.beneficiary.name}, account ••{p.beneficiary.account_number_last4}, {p.beneficiary.ifsc} ({p.beneficiary.bank_name})
                </dd>
                <dt>Mode</dt>
                <dd>
                  {p.mode}
                  {p.livemode ? '' : ' (sandbox)'}
                </dd>
                <dt>Your reference</dt>
                <dd>{dash(p.client_reference)}</dd>
                <dt>Bank reference</dt>
                <dd>{dash(p.bank_reference)}</dd>
                <dt>UTR</dt>
                <dd>{dash(p.utr)}</dd>
                <dt>Created</dt>
                <dd>
                  <Time iso={p.created_at} />
                </dd>
                <dt>Processed</dt>
                <dd>{p.processed_at ? <Time iso={p.processed_at} /> : '—'}</dd>
              </dl>
              <TableSection id="attempts-title" title="Attempts" columns={ATTEMPT_COLUMNS} rows={data.attempts} rowKey={(a) => a.attempt_no} />
              <PayoutInquiries payoutRef={p.id} />
              {/* A state move has no id; the history never reorders, so its place keys it. */}
              <TableSection id="moves-title" title="State moves" columns={MOVE_COLUMNS} rows={data.history} rowKey={(_, i) => i} />
              <ProviderAnomalies id="payout" query={`payout=${encodeURIComponent(p.transaction_id)}`} title="Provider anomalies" />
              <Callbacks deliveries={data.callbacks} />
            </>
          );
        }}
      </Loadable>
    </>
  );
}
