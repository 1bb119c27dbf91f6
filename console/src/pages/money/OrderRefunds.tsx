/**
 * The refunds of one payment order (contract §6), as the merchant API lists them: amount in rupees,
 * status, reason, when requested and completed, the provider's reference. Reviewing them happens
 * on the Refunds page, linked from here.
 */
import { Time } from '../../components.js';
import { formatPaise } from '../../format.js';
import { AppLink, dash, TableScroll } from './links.js';

export interface OrderRefund {
  id: string;
  refund_id: string;
  amount_paise: number;
  reason: string | null;
  status: string;
  provider_reference: string | null;
  created_at: string;
  completed_at: string | null;
  reviewed_by: string | null;
  failure_reason: string | null;
}

export function OrderRefunds({ refunds }: { refunds: OrderRefund[] }) {
  return (
    <section aria-labelledby="refunds-title">
      <h2 id="refunds-title">Refunds</h2>
      {refunds.length === 0 ? (
        <p>No refunds were requested for this order.</p>
      ) : (
        <TableScroll label="Refunds of this order">
          <table>
            <thead>
              <tr>
                <th scope="col">Refund</th>
                <th scope="col">Amount</th>
                <th scope="col">Status</th>
                <th scope="col">Reason</th>
                <th scope="col">Requested</th>
                <th scope="col">Completed</th>
                <th scope="col">Provider reference</th>
              </tr>
            </thead>
            <tbody>
              {refunds.map((r) => (
                <tr key={r.id}>
                  <td>
                    <code title={r.id}>{r.refund_id}</code>
                  </td>
                  <td className="num">{formatPaise(r.amount_paise)}</td>
                  <td>
                    <span className={`status status-${r.status.toLowerCase()}`}>{r.status}</span>
                    {r.reviewed_by ? ` (reviewed by ${r.reviewed_by})` : ''}
                    {r.failure_reason ? ` — ${r.failure_reason}` : ''}
                  </td>
                  <td>{dash(r.reason)}</td>
                  <td>
                    <Time iso={r.created_at} />
                  </td>
                  <td>{r.completed_at ? <Time iso={r.completed_at} /> : '—'}</td>
                  <td>{r.provider_reference ? <code>{r.provider_reference}</code> : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <p>
        <AppLink to="/refunds">Review refunds on the Refunds page</AppLink>
      </p>
    </section>
  );
}
