/** Set-up from the one-time link: the user chooses a password (first time, or after an admin's reset). */
import { type FormEvent, useState } from 'react';
import { api, describe, type SessionInfo } from '../api.js';
import { ErrorLine } from '../components.js';
import { useLookup } from '../data.js';
import { navigate } from '../router.js';

export function SetupPage({ onSignedIn }: { onSignedIn: (s: SessionInfo) => void }) {
  const [token] = useState(() => new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '');
  // The link's email, asked once through the data layer (the token in a POST body, never in an address).
  const link = useLookup<{ email: string }>(token ? `/setup/inspect#${token}` : null, () => api<{ email: string }>('POST', '/setup/inspect', { token }));
  const email = link.data?.email ?? null;
  const [submitError, setError] = useState<string | null>(null);
  const error = submitError ?? (token ? link.error : 'This page needs the set-up link you were sent. Ask an admin for a new one.');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (password !== confirm) {
      setError('The two passwords are not the same.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const r = await api<SessionInfo | { totp_required: true }>('POST', '/setup', { token, password });
      // The token is spent: keep it out of the address bar and history.
      window.history.replaceState(null, '', '/console/setup');
      if ('csrf_token' in r) {
        onSignedIn(r);
        navigate('/');
      } else navigate('/sign-in');
    } catch (err) {
      setError(describe(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="auth">
      <h1>Set your password</h1>
      <form onSubmit={submit}>
        <label htmlFor="email">Email</label>
        <input id="email" type="email" value={email ?? ''} readOnly autoComplete="username" />
        <label htmlFor="password">Password</label>
        <input id="password" type="password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.target.value)} aria-describedby="password-rule" />
        <p id="password-rule" className="hint">At least 12 characters; common passwords are refused.</p>
        <label htmlFor="confirm">Confirm password</label>
        <input id="confirm" type="password" autoComplete="new-password" required value={confirm} onChange={(e) => setConfirm(e.target.value)} />
        <ErrorLine error={error} />
        <button type="submit" disabled={busy || email === null}>
          Set password
        </button>
      </form>
    </main>
  );
}
