/** "Replay" of one event (contract §5): a new delivery of the same bytes with a fresh retry schedule, audited. */
import { useState } from 'react';
import { api, describe } from '../api.js';
import { useCan } from '../permissions.js';

export function ReplayButton({ eventId, label, target, onDone }: { eventId: string; label: string; target?: string; onDone?: () => void }) {
  const can = useCan('events.replay');
  const [state, setState] = useState<{ busy: boolean; message: string | null; error: boolean }>({ busy: false, message: null, error: false });
  if (!can) return null;
  async function replay() {
    setState({ busy: true, message: null, error: false });
    try {
      const r = await api<{ requeued: number }>('POST', `/events/${encodeURIComponent(eventId)}/replay`, target ? { target } : {});
      setState({ busy: false, message: `Replayed: ${r.requeued} delivery(ies) queued.`, error: false });
      onDone?.();
    } catch (e) {
      setState({ busy: false, message: describe(e), error: true });
    }
  }
  return (
    <span className="replay">
      <button type="button" className="secondary" disabled={state.busy} aria-label={label} onClick={() => void replay()}>
        Replay
      </button>
      {state.message ? (
        <span role={state.error ? 'alert' : 'status'} className={state.error ? 'error' : 'notice'}>
          {' '}
          {state.message}
        </span>
      ) : null}
    </span>
  );
}
