/**
 * The provider checks of an order's or a payout's page (the provider checks log, migration 0029):
 * each status call the service made, oldest first, with what it asked, what came back and what it
 * did with the answer. Loaded apart from the page's own data, so a slow list never holds the page.
 */
import type { ReactNode } from 'react';
import { Time } from '../../components.js';
import { formatPaise } from '../../format.js';
import { dash, TableScroll } from './links.js';
import { useDetail } from './useDetail.js';

interface Check {
  checked_at: string;
  reason: string;
  provider: string;
  asked: string;
  answer: string;
  outcome: string;
  duration_ms: number;
  error: string | null;
  failure_reason: string | null;
  utr: string | null;
  // orders
  provider_status?: string | null;
  amount_paise?: number | null;
  provider_reference?: string | null;
  // payouts
  attempt_no?: number | null;
  mapped_status?: string | null;
  bank_reference?: string | null;
}

const REASONS: Record<string, string> = { live_check: 'live check', expiry_check: 'final check before expiry', inquiry: 'status inquiry' };

/** What the provider answered, in one cell: its status words and, for a failure or no answer, why. */
function answerText(c: Check): string {
  const words = c.provider_status && c.provider_status !== c.answer ? ` (${c.provider_status})` : '';
  const why = c.error ?? c.failure_reason;
  return `${c.answer}${words}${why ? `: ${why}` : ''}`;
}

function Shell({ title, id, note, children }: { title: string; id: string; note: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <p className="hint">{note}</p>
      {children}
    </section>
  );
}

/** A payment order's status checks (live checks and the final check before expiry). */
export function OrderProviderChecks({ orderRef }: { orderRef: string }) {
  const { data, error } = useDetail<{ checks: Check[]; truncated: boolean }>(`/payment-orders/${encodeURIComponent(orderRef)}/provider-checks`);
  return (
    <Shell title="Provider checks" id="checks-title" note="Each time the service asked the provider for this order's status: what it asked, the answer, and what it did with it.">
      {error ? <p role="alert">{error}</p> : data === null ? <p>Loading…</p> : data.checks.length === 0 ? <p>The provider was not asked about this order.</p> : null}
      {data && data.checks.length > 0 ? (
        <>
          {data.truncated ? <p>Only the newest {data.checks.length} checks are shown.</p> : null}
          <TableScroll label="Provider checks">
            <table>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Why</th>
                  <th scope="col">Asked</th>
                  <th scope="col">Answer</th>
                  <th scope="col">UTR</th>
                  <th scope="col">Amount reported</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Time taken</th>
                </tr>
              </thead>
              <tbody>
                {data.checks.map((c, i) => (
                  <tr key={i}>
                    <td>
                      <Time iso={c.checked_at} />
                    </td>
                    <td>{REASONS[c.reason] ?? c.reason}</td>
                    <td>
                      {c.provider}: status of <code>{c.asked}</code>
                    </td>
                    <td>{answerText(c)}</td>
                    <td>{dash(c.utr)}</td>
                    <td>{typeof c.amount_paise === 'number' ? formatPaise(c.amount_paise) : '—'}</td>
                    <td>{c.outcome}</td>
                    <td>{c.duration_ms} ms</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </>
      ) : null}
    </Shell>
  );
}

/** A payout's status inquiries, attempt by attempt. */
export function PayoutInquiries({ payoutRef }: { payoutRef: string }) {
  const { data, error } = useDetail<{ checks: Check[]; truncated: boolean }>(`/payouts/${encodeURIComponent(payoutRef)}/inquiries`);
  return (
    <Shell title="Inquiries" id="inquiries-title" note="Each status inquiry the service made with the bank, for every attempt: the answer, the status it maps to, and what the service did.">
      {error ? <p role="alert">{error}</p> : data === null ? <p>Loading…</p> : data.checks.length === 0 ? <p>No inquiry was needed: the bank's answers and callbacks settled it.</p> : null}
      {data && data.checks.length > 0 ? (
        <>
          {data.truncated ? <p>Only the newest {data.checks.length} inquiries are shown.</p> : null}
          <TableScroll label="Inquiries">
            <table>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Attempt</th>
                  <th scope="col">Answer</th>
                  <th scope="col">Maps to</th>
                  <th scope="col">Bank reference</th>
                  <th scope="col">UTR</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Time taken</th>
                </tr>
              </thead>
              <tbody>
                {data.checks.map((c, i) => (
                  <tr key={i}>
                    <td>
                      <Time iso={c.checked_at} />
                    </td>
                    <td>{c.attempt_no ?? '—'}</td>
                    <td>{answerText(c)}</td>
                    <td>{dash(c.mapped_status)}</td>
                    <td>{dash(c.bank_reference)}</td>
                    <td>{dash(c.utr)}</td>
                    <td>{c.outcome}</td>
                    <td>{c.duration_ms} ms</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </>
      ) : null}
    </Shell>
  );
}
