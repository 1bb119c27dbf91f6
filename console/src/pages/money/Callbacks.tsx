/** The callbacks of an order or payout: each delivery with every attempt's answer and time, and its "Replay". */
import { Time } from '../../components.js';
import { ReplayButton } from '../ReplayButton.js';
import { dash, TableScroll } from './links.js';
import type { Answer } from '../../wire.js';

export type Delivery = Answer<'consoleGetPaymentOrder'>['callbacks'][number];

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
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Attempt</th>
                      <th scope="col">When</th>
                      <th scope="col">Answer</th>
                      <th scope="col">Time taken</th>
                      <th scope="col">Excerpt</th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.attempts.map((a) => (
                      <tr key={a.attempt_no}>
                        <td>{a.attempt_no}</td>
                        <td>
                          <Time iso={a.attempted_at} />
                        </td>
                        <td>{a.status_code ?? dash(a.error)}</td>
                        <td>{a.latency_ms} ms</td>
                        <td className="change">{dash(a.response_snippet)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            )}
          </div>
        ))
      )}
    </section>
  );
}
