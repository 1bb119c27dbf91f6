/**
 * A decision on one item waiting for a person (review items, refunds, console payouts, bulk payout
 * files): a note and one button per outcome, with the contract's names ("Confirm payment",
 * "Approve", "Reject"); and the state every such page keeps around it (busy, the error line, the
 * notice of what was done). An action that needs the note is not sent without one.
 */
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { describe } from '../api.js';
import { ErrorLine, Notice } from '../components.js';
import { useInvalidate } from '../data.js';
import { TEXT_LIMITS } from '../generated/server.js';

export interface DecisionAction {
  label: string;
  danger?: boolean;
  /** Whether the note must be written first (default true; e.g. a payout is approved without one). */
  needsNote?: boolean;
  /**
   * Asked before the action runs (issue #32 item 5): the question names the amount ("Approve the
   * payout of ₹3,210.00 to Asha?") and `yes` is the button that goes ahead ("Yes, approve ₹3,210.00").
   */
  confirm?: { question: string; yes: string };
  run: (note: string) => void;
}

/** The confirmation step of an action: the question, focused and announced, "Yes, …" and "Cancel". */
function ConfirmStep({ question, yes, onYes, onCancel }: { question: string; yes: string; onYes: () => void; onCancel: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
    ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, []);
  return (
    <div className="confirm" role="alertdialog" aria-modal="false" aria-labelledby="confirm-question" tabIndex={-1} ref={ref}>
      <p id="confirm-question">{question}</p>
      <div className="row">
        <button type="button" onClick={onYes}>
          {yes}
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
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
  const [asking, setAsking] = useState<DecisionAction | null>(null);
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
      {asking?.confirm ? (
        <ConfirmStep
          question={asking.confirm.question}
          yes={asking.confirm.yes}
          onCancel={() => setAsking(null)}
          onYes={() => {
            setAsking(null);
            asking.run(note.trim());
          }}
        />
      ) : null}
      <div className="row" hidden={asking !== null}>
        {actions.map((a) => (
          <button
            key={a.label}
            type="button"
            className={a.danger ? 'danger' : undefined}
            disabled={busy}
            onClick={() => {
              if (a.needsNote !== false && note.trim() === '') return setMissing(true);
              setMissing(false);
              if (a.confirm) setAsking(a);
              else a.run(note.trim());
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
export function ApproveOrReject({
  hint,
  busy,
  decide,
  what,
  amount,
}: {
  hint: string;
  busy: boolean;
  decide: (action: 'approve' | 'reject', note: string) => void;
  /** What is approved, for the confirmation ("the payout TJP… to Asha", "the bulk file rent.csv (12 payouts)"). */
  what: string;
  /** Its amount, formatted ("₹3,210.00"). */
  amount: string;
}) {
  return (
    <DecisionForm
      busy={busy}
      noteLabel="Note (required to reject)"
      noteMax={TEXT_LIMITS.decisionNote}
      hint={hint}
      actions={[
        { label: 'Approve', needsNote: false, confirm: { question: `Approve ${what}: ${amount} leaves your account?`, yes: `Yes, approve ${amount}` }, run: (note) => decide('approve', note) },
        { label: 'Reject', danger: true, run: (note) => decide('reject', note) },
      ]}
    />
  );
}

/**
 * The state around decisions: `decide(act, explain)` clears the lines, runs `act` (which answers
 * the notice of what was done) and puts a failure on the error line (`explain`, default
 * `describe`); it never throws. After it, done or refused, the page's `resources` are read again
 * (data.tsx), so the queue shows what the service now holds.
 */
export function useDecision(...resources: string[]) {
  const invalidate = useInvalidate();
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
      if (resources.length) void invalidate(...resources);
    }
  }
  return { busy, error, setError, done, setDone, decide };
}

/** The error line and the notice of what was done, as every decision page shows them. */
export function DecisionOutcome({ error, done }: { error: string | null; done: string | null }) {
  return (
    <>
      <ErrorLine error={error} />
      <Notice message={done} />
    </>
  );
}
