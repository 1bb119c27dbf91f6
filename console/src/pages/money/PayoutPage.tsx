/** One payout: its facts, each attempt (bank reference, UTR, inquiries), each inquiry, its state moves and callbacks. */
import { ErrorLine, Time } from '../../components.js';
import { formatPaise } from '../../format.js';
import { type Delivery, Callbacks } from './Callbacks.js';
import { AppLink, dash, TableScroll } from './links.js';
import { PayoutInquiries } from './ProviderChecks.js';
import { useDetail } from './useDetail.js';
import { ProviderAnomalies } from '../ProviderAnomalies.js';

interface PayoutDetail {
  payout: {
    id: string;
    transaction_id: string;
    client_reference: string | null;
    amount_paise: number;
    mode: string;
    status: string;
    beneficiary: { name: string; account_number_last4: string; ifsc: string; bank_name: string };
    bank_reference: string | null;
    utr: string | null;
    processed_at: string | null;
    failure_reason: string | null;
    livemode: boolean;
    created_at: string;
  };
  attempts: Array<{ attempt_no: number; status: string; bank_reference: string | null; utr: string | null; failure_reason: string | null; inquiries: number; submitted_at: string | null }>;
  history: Array<{ entity: string; from_status: string | null; to_status: string; cause: string; detail: string | null; at: string }>;
  callbacks: Delivery[];
}

export function PayoutPage({ id }: { id: string }) {
  const { data, error } = useDetail<PayoutDetail>(`/payouts/${encodeURIComponent(id)}`);
  const p = data?.payout;
  return (
    <>
      <p>
        <AppLink to="/payouts">← Payouts</AppLink>
      </p>
      <h1>Payout {p ? <code>{p.transaction_id}</code> : null}</h1>
      <ErrorLine error={error} />
      {data === null || !p ? (
        error ? null : <p>Loading…</p>
      ) : (
        <>
          <dl className="facts">
            <dt>Amount</dt>
            <dd>{formatPaise(p.amount_paise)}</dd>
            <dt>Status</dt>
            <dd>
              <span className={`status status-${p.status.toLowerCase()}`}>{p.status}</span>
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
          <section aria-labelledby="attempts-title">
            <h2 id="attempts-title">Attempts</h2>
            <TableScroll label="Attempts">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Attempt</th>
                    <th scope="col">Status</th>
                    <th scope="col">Bank reference</th>
                    <th scope="col">UTR</th>
                    <th scope="col">Inquiries</th>
                    <th scope="col">Submitted</th>
                    <th scope="col">Failure</th>
                  </tr>
                </thead>
                <tbody>
                  {data.attempts.map((a) => (
                    <tr key={a.attempt_no}>
                      <td>{a.attempt_no}</td>
                      <td>{a.status}</td>
                      <td>{dash(a.bank_reference)}</td>
                      <td>{dash(a.utr)}</td>
                      <td>{a.inquiries}</td>
                      <td>{a.submitted_at ? <Time iso={a.submitted_at} /> : '—'}</td>
                      <td>{dash(a.failure_reason)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          </section>
          <PayoutInquiries payoutRef={p.id} />
          <section aria-labelledby="moves-title">
            <h2 id="moves-title">State moves</h2>
            <TableScroll label="State moves">
              <table>
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Of</th>
                    <th scope="col">From</th>
                    <th scope="col">To</th>
                    <th scope="col">Cause</th>
                  </tr>
                </thead>
                <tbody>
                  {data.history.map((h, i) => (
                    <tr key={i}>
                      <td>
                        <Time iso={h.at} />
                      </td>
                      <td>{h.entity}</td>
                      <td>{dash(h.from_status)}</td>
                      <td>{h.to_status}</td>
                      <td>
                        {h.cause}
                        {h.detail ? `: ${h.detail}` : ''}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          </section>
          <ProviderAnomalies id="payout" query={`payout=${encodeURIComponent(p.transaction_id)}`} title="Provider anomalies" />
          <Callbacks deliveries={data.callbacks} />
        </>
      )}
    </>
  );
}
