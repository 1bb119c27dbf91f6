/** Sign-in: email and password, then (second factor on) the authenticator code or a recovery code. */
import { type FormEvent, useState } from 'react';
import { api, describe, type SessionInfo } from '../api.js';
import { ErrorLine } from '../components.js';
import { ForgotPassword } from './ForgotPassword.js';

export function SignInPage({ onSignedIn, notice }: { onSignedIn: (s: SessionInfo) => void; notice: string | null }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [challenge, setChallenge] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [forgot, setForgot] = useState(false);

  async function run(fn: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(describe(err));
    } finally {
      setBusy(false);
    }
  }

  function signIn(e: FormEvent) {
    e.preventDefault();
    void run(async () => {
      const r = await api<SessionInfo | { totp_required: true; challenge: string }>('POST', '/session', { email, password });
      if ('csrf_token' in r) onSignedIn(r);
      else {
        setPassword('');
        setChallenge(r.challenge);
      }
    });
  }

  function verify(e: FormEvent) {
    e.preventDefault();
    void run(async () => onSignedIn(await api<SessionInfo>('POST', '/session/totp', { challenge, code })));
  }

  return (
    <main className="auth">
      <h1>Sign in to Tijori</h1>
      {notice ? <p role="status">{notice}</p> : null}
      {forgot ? (
        <ForgotPassword onBack={() => setForgot(false)} />
      ) : challenge === null ? (
        <form onSubmit={signIn}>
          <label htmlFor="email">Email</label>
          <input id="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
          <label htmlFor="password">Password</label>
          <input id="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
          <ErrorLine error={error} />
          <button type="submit" disabled={busy}>
            Sign in
          </button>
          <button type="button" className="link" onClick={() => (setError(null), setForgot(true))}>
            Forgot password?
          </button>
        </form>
      ) : (
        <form onSubmit={verify}>
          <p>Enter the 6-digit code from your authenticator app, or one of your recovery codes.</p>
          <label htmlFor="code">Authentication code</label>
          <input id="code" inputMode="numeric" autoComplete="one-time-code" required value={code} onChange={(e) => setCode(e.target.value)} />
          <ErrorLine error={error} />
          <button type="submit" disabled={busy}>
            Verify
          </button>
        </form>
      )}
    </main>
  );
}
