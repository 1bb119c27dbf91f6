/**
 * A decision on one item waiting for a person (review items, refunds, console payouts, bulk payout
 * files): a note and one button per outcome, with the contract's names ("Confirm payment",
 * "Approve", "Reject"); and the state every such page keeps around it (busy, the error line, the
 * notice of what was done). An action that needs the note is not sent without one.
 */
import { type FormEvent, useState } from 'react';
import { describe } from '../api.js';
import { ErrorLine } from '../components.js';

export interface DecisionAction {
  label: string;
  danger?: boolean;
  /** Whether the note must be written first (default true; e.g. a payout is approved without one). */
  needsNote?: boolean;
  run: (note: string) => void;
}

export function DecisionForm({
  hint,
  actions,
  busy,
  noteLabel = 'Note',
  noteMax = 2000,
}: {
  hint: string;
  actions: ReadonlyArray<DecisionAction>;
  busy: boolean;
  noteLabel?: string;
  noteMax?: number;
}) {
  const [note, setNote] = useState('');
  const [missing, setMissing] = useState(false);
  const submit = (e: FormEvent) => e.preventDefault();
  return (
    <form onSubmit={submit} className="decision">
      <label htmlFor="decision-note">{noteLabel}</label>
      <textarea id="decision-note" rows={3} maxLength={noteMax} value={note} aria-describedby="decision-hint" aria-invalid={missing} onChange={(e) => {
          setNote(e.target.value);
          if (e.target.value.trim() !== '') setMissing(false);
        }} />
      <p id="decision-hint" className="hint">
        {missing ? <span role="alert">Write a note first. </span> : null}
        {hint}
      </p>
      <div className="row">
        {actions.map((a) => (
          <button
            key={a.label}
            type="button"
            className={a.danger ? 'danger' : undefined}
            disabled={busy}
            onClick={() => {
              if (a.needsNote !== false && note.trim() === '') return setMissing(true);
              setMissing(false);
              a.run(note.trim());
            }}
          >
            {a.label}
          </button>
        ))}
      </div>
    </form>
  );
}

/** A checker's Approve (no note needed) or Reject (with its reason) of a console payout or a bulk file. */
export function ApproveOrReject({ hint, busy, decide }: { hint: string; busy: boolean; decide: (action: 'approve' | 'reject', note: string) => void }) {
  return (
    <DecisionForm
      busy={busy}
      noteLabel="Note (required to reject)"
      noteMax={500}
      hint={hint}
      actions={[
        { label: 'Approve', needsNote: false, run: (note) => decide('approve', note) },
        { label: 'Reject', danger: true, run: (note) => decide('reject', note) },
      ]}
    />
  );
}

/**
 * The state around decisions: `decide(act, explain)` clears the lines, runs `act` (which answers
 * the notice of what was done) and puts a failure on the error line (`explain`, default
 * `describe`); it never throws, so the page reloads its list after it.
 */
export function useDecision() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  async function decide(act: () => Promise<string>, explain: (e: unknown) => string | Promise<string> = describe): Promise<void> {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      setDone(await act());
    } catch (e) {
      setError(await explain(e));
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, setError, done, setDone, decide };
}

/** The error line and the notice of what was done, as every decision page shows them. */
export function DecisionOutcome({ error, done }: { error: string | null; done: string | null }) {
  return (
    <>
      <ErrorLine error={error} />
      {done ? (
        <p className="notice" role="status">
          {done}
        </p>
      ) : null}
    </>
  );
}
