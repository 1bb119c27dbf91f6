/** The callbacks of an order or payout: each delivery with every attempt's answer and time, and its "Replay". */
import { Time } from '../../components.js';
import { type Column, RowsTable } from '../columns.js';
import { ReplayButton } from '../ReplayButton.js';
import { dash, TableScroll } from './links.js';
import type { Answer } from '../../wire.js';

export type Delivery = Answer<'consoleGetPaymentOrder'>['callbacks'][number];

const ATTEMPT_COLUMNS: Column<Delivery['attempts'][number]>[] = [
  { title: 'Attempt', cell: (a) => a.attempt_no },
  { title: 'When', cell: (a) => <Time iso={a.attempted_at} /> },
  { title: 'Answer', cell: (a) => a.status_code ?? dash(a.error) },
  { title: 'Time taken', cell: (a) => `${a.latency_ms} ms` },
  { title: 'Excerpt', cell: (a) => dash(a.response_snippet), wrap: true },
];

function targetName(target: string): string {
  return target === 'order' ? "order's callback_url" : `${target} destination`;
}

export function Callbacks({ deliveries, onReplayed }: { deliveries: Delivery[]; onReplayed?: () => void }) {
  return (
    <section aria-labelledby="callbacks-title">
      <h2 id="callbacks-title">Callbacks</h2>
      {deliveries.length === 0 ? (
        <p>No callbacks were sent for it.</p>
      ) : (
        deliveries.map((d) => (
          <div key={d.delivery_id} className="delivery">
            <h3>
              <code>{d.event}</code> to the {targetName(d.target)}: {d.status}
            </h3>
            <ReplayButton eventId={d.event_id} target={d.target} label={`Replay ${d.event} to the ${targetName(d.target)}`} {...(onReplayed ? { onDone: onReplayed } : {})} />
            {d.attempts.length === 0 ? (
              <p>Not attempted yet.</p>
            ) : (
              <TableScroll label={`Attempts of ${d.event}`}>
                <RowsTable columns={ATTEMPT_COLUMNS} rows={d.attempts} rowKey={(a) => a.attempt_no} />
              </TableScroll>
            )}
          </div>
        ))
      )}
    </section>
  );
}
