/** "Change password" on Your account (issue #32 item 8): the current password, then the new one twice. */
import { type FormEvent, useState } from 'react';
import { api, describe } from '../api.js';
import { ErrorLine, Notice } from '../components.js';

export function ChangePasswordForm() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setDone(null);
    // Checked here too so a typo costs none of the account's attempts.
    if (next !== confirm) return setError('The new password and its confirmation differ.');
    setBusy(true);
    try {
      const r = await api<{ other_sessions_ended: number }>('POST', '/me/password', { current_password: current, new_password: next });
      setCurrent('');
      setNext('');
      setConfirm('');
      const n = r.other_sessions_ended;
      setDone(`Password changed. ${n === 0 ? 'You had no other sessions.' : `${n} other session${n === 1 ? '' : 's'} ended.`}`);
    } catch (err) {
      setError(describe(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="panel" onSubmit={(e) => void submit(e)} aria-labelledby="change-password-title">
      <h2 id="change-password-title">Password</h2>
      <label htmlFor="pw-current">Current password</label>
      <input id="pw-current" type="password" autoComplete="current-password" required value={current} onChange={(e) => setCurrent(e.target.value)} />
      <label htmlFor="pw-new">New password</label>
      <input id="pw-new" type="password" autoComplete="new-password" required minLength={12} value={next} onChange={(e) => setNext(e.target.value)} aria-describedby="pw-new-hint" />
      <p id="pw-new-hint" className="hint">
        At least 12 characters and hard to guess (a few unrelated words work well). Your other sessions end.
      </p>
      <label htmlFor="pw-confirm">Confirm new password</label>
      <input id="pw-confirm" type="password" autoComplete="new-password" required value={confirm} onChange={(e) => setConfirm(e.target.value)} />
      <ErrorLine error={error} />
      <div>
        <button type="submit" disabled={busy}>
          Change password
        </button>
      </div>
      <Notice message={done} />
    </form>
  );
}
