/**
 * The panel a decision page opens above its queue (review queue, refunds, payout approvals, bulk
 * payouts) for the row chosen with "Open": the row's heading, what the page shows of it (its facts,
 * the decision form) and "Close", which hands the row back to the queue.
 */
import type { ReactNode } from 'react';

export function DetailPanel({ titleId, title, onClose, children }: { titleId: string; title: ReactNode; onClose: () => void; children: ReactNode }) {
  return (
    <section className="panel" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      {children}
      <button type="button" className="secondary" onClick={onClose}>
        Close
      </button>
    </section>
  );
}
