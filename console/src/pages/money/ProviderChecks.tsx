/**
 * The provider checks of an order's or a payout's page (the provider checks log, migration 0029):
 * each status call the service made, oldest first, with what it asked, what came back and what it
 * did with the answer. Loaded apart from the page's own data, so a slow list never holds the page.
 */
import { Time } from '../../components.js';
import { formatPaise } from '../../format.js';
import { type Column, RowsTable } from '../columns.js';
import { dash, TableScroll } from './links.js';
import { Loadable, useResource } from '../../data.js';
import type { Answer } from '../../wire.js';

type OrderCheck = Answer<'consoleListOrderProviderChecks'>['checks'][number];
type Inquiry = Answer<'consoleListPayoutInquiries'>['checks'][number];
/** An order's check or a payout's inquiry: the fields of the other kind are absent. */
type Check = (OrderCheck | Inquiry) & Partial<OrderCheck & Inquiry>;

const REASONS: Record<string, string> = { live_check: 'live check', expiry_check: 'final check before expiry', inquiry: 'status inquiry' };

/** What the provider answered, in one cell: its status words and, for a failure or no answer, why. */
function answerText(c: Check): string {
  const words = c.provider_status && c.provider_status !== c.answer ? ` (${c.provider_status})` : '';
  const why = c.error ?? c.failure_reason;
  return `${c.answer}${words}${why ? `: ${why}` : ''}`;
}

const WHEN: Column<Check> = { title: 'When', cell: (c) => <Time iso={c.checked_at} /> };
const OUTCOME: Column<Check> = { title: 'Outcome', cell: (c) => c.outcome };
const TAKEN: Column<Check> = { title: 'Time taken', cell: (c) => `${c.duration_ms} ms` };

/**
 * What an order's checks and a payout's inquiries share: the section, the loading, error or
 * nothing-yet line, the truncation notice and the table, which begins with when the check was made
 * and ends with what the service did and how long the call took; `columns` are those between.
 */
function CheckLog({ path, title, id, note, none, noun, columns }: { path: string; title: string; id: string; note: string; none: string; noun: string; columns: Column<Check>[] }) {
  const { data, error } = useResource<{ checks: Check[]; truncated: boolean }>(path);
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <p className="hint">{note}</p>
      <Loadable data={data} error={error}>
        {(data) =>
          data.checks.length === 0 ? (
            <p>{none}</p>
          ) : (
        <>
          {data.truncated ? <p>{`Only the newest ${data.checks.length} ${noun} are shown.`}</p> : null}
          <TableScroll label={title}>
            <RowsTable columns={[WHEN, ...columns, OUTCOME, TAKEN]} rows={data.checks} rowKey={(_, i) => i} />
          </TableScroll>
        </>
          )
        }
      </Loadable>
    </section>
  );
}

const ORDER_COLUMNS: Column<Check>[] = [
  { title: 'Why', cell: (c) => REASONS[c.reason] ?? c.reason },
  {
    title: 'Asked',
    cell: (c) => (
      <>
        {c.provider}: status of <code>{c.asked}</code>
      </>
    ),
  },
  { title: 'Answer', cell: answerText },
  { title: 'UTR', cell: (c) => dash(c.utr) },
  { title: 'Amount reported', cell: (c) => (typeof c.amount_paise === 'number' ? formatPaise(c.amount_paise) : '—') },
];

/** A payment order's status checks (live checks and the final check before expiry). */
export function OrderProviderChecks({ orderRef }: { orderRef: string }) {
  return (
    <CheckLog
      path={`/payment-orders/${encodeURIComponent(orderRef)}/provider-checks`}
      title="Provider checks"
      id="checks-title"
      note="Each time the service asked the provider for this order's status: what it asked, the answer, and what it did with it."
      none="The provider was not asked about this order."
      noun="checks"
      columns={ORDER_COLUMNS}
    />
  );
}

const INQUIRY_COLUMNS: Column<Check>[] = [
  { title: 'Attempt', cell: (c) => c.attempt_no ?? '—' },
  { title: 'Answer', cell: answerText },
  { title: 'Maps to', cell: (c) => dash(c.mapped_status) },
  { title: 'Bank reference', cell: (c) => dash(c.bank_reference) },
  { title: 'UTR', cell: (c) => dash(c.utr) },
];

/** A payout's status inquiries, attempt by attempt. */
export function PayoutInquiries({ payoutRef }: { payoutRef: string }) {
  return (
    <CheckLog
      path={`/payouts/${encodeURIComponent(payoutRef)}/inquiries`}
      title="Inquiries"
      id="inquiries-title"
      note="Each status inquiry the service made with the bank, for every attempt: the answer, the status it maps to, and what the service did."
      none="No inquiry was needed: the bank's answers and callbacks settled it."
      noun="inquiries"
      columns={INQUIRY_COLUMNS}
    />
  );
}
