/**
 * A reviewer's decision (review items, refunds): a required note ("Note") and one button per
 * outcome. The buttons carry the contract's names ("Confirm payment", "Approve", "Reject").
 */
import { type FormEvent, useState } from 'react';

export function DecisionForm({
  hint,
  actions,
  busy,
}: {
  hint: string;
  actions: ReadonlyArray<{ label: string; danger?: boolean; run: (note: string) => void }>;
  busy: boolean;
}) {
  const [note, setNote] = useState('');
  const [missing, setMissing] = useState(false);
  const submit = (e: FormEvent) => e.preventDefault();
  return (
    <form onSubmit={submit} className="decision">
      <label htmlFor="decision-note">Note</label>
      <textarea id="decision-note" rows={3} maxLength={2000} value={note} aria-describedby="decision-hint" aria-invalid={missing} onChange={(e) => {
          setNote(e.target.value);
          if (e.target.value.trim() !== '') setMissing(false);
        }} />
      <p id="decision-hint" className="hint">
        {missing ? 'Write a note first. ' : ''}
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
              if (note.trim() === '') return setMissing(true);
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
