/** The signed-in person's own account: the password, the TOTP second factor (with recovery codes) and sign out everywhere. */
import { type FormEvent, useState } from 'react';
import { api, describe, type SessionInfo } from '../api.js';
import { ErrorLine } from '../components.js';
import { navigate } from '../router.js';
import { ChangePasswordForm } from './ChangePasswordForm.js';

export function AccountPage({ session, onChanged, canManage }: { session: SessionInfo; onChanged: (s: SessionInfo) => void; canManage: boolean }) {
  const [enrol, setEnrol] = useState<{ secret: string; qr_data_url: string } | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function run(fn: () => Promise<void>) {
    setError(null);
    try {
      await fn();
    } catch (e) {
      setError(describe(e));
    }
  }
  const refresh = async () => onChanged(await api<SessionInfo>('GET', '/session'));

  function confirm(e: FormEvent) {
    e.preventDefault();
    void run(async () => {
      const r = await api<{ recovery_codes: string[] }>('POST', '/me/totp/confirm', { code });
      setCodes(r.recovery_codes);
      setEnrol(null);
      setCode('');
      await refresh();
    });
  }

  function disable(e: FormEvent) {
    e.preventDefault();
    void run(async () => {
      await api('POST', '/me/totp/disable', { password });
      setPassword('');
      await refresh();
    });
  }

  return (
    <>
      <h1>Your account</h1>
      <p>
        {session.user.email}, {session.user.role} of {session.organization.name}.
      </p>
      <ChangePasswordForm />
      <ErrorLine error={error} />
      <h2>Second factor (authenticator app)</h2>
      {!canManage ? (
        <p className="hint">Your role cannot change account settings; ask an admin.</p>
      ) : codes ? (
        <section className="secret" aria-labelledby="codes-title">
          <h3 id="codes-title">Recovery codes</h3>
          <p>Each works once if you lose your device. They are shown only now.</p>
          <ul aria-label="Recovery codes" className="codes">
            {codes.map((c) => (
              <li key={c}>
                <code>{c}</code>
              </li>
            ))}
          </ul>
          <button type="button" className="secondary" onClick={() => setCodes(null)}>
            I have stored them
          </button>
        </section>
      ) : session.user.totp_enabled ? (
        <form onSubmit={disable}>
          <p>The second factor is on.</p>
          <label htmlFor="current-password">Password</label>
          <input id="current-password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
          <button type="submit" className="danger">
            Turn off second factor
          </button>
        </form>
      ) : enrol ? (
        <form onSubmit={confirm}>
          <p>Scan this code with an authenticator app, or enter the key by hand, then type the 6-digit code it shows.</p>
          <img src={enrol.qr_data_url} width={200} height={200} alt="QR code of the authenticator key" />
          <label htmlFor="totp-key">Key</label>
          <input id="totp-key" readOnly value={enrol.secret} />
          <label htmlFor="totp-code">Authentication code</label>
          <input id="totp-code" inputMode="numeric" autoComplete="one-time-code" required value={code} onChange={(e) => setCode(e.target.value)} />
          <button type="submit">Turn on second factor</button>
        </form>
      ) : (
        <button type="button" onClick={() => void run(async () => setEnrol(await api('POST', '/me/totp/begin')))}>
          Set up second factor
        </button>
      )}
      <h2>Sessions</h2>
      <button
        type="button"
        className="secondary"
        onClick={() =>
          void run(async () => {
            await api('POST', '/session/sign-out-everywhere');
            window.location.assign('/console/sign-in');
          })
        }
      >
        Sign out everywhere
      </button>
      <p className="hint">
        Ends every session of yours, on every device, this one included.{' '}
        <a href="/console/" onClick={(e) => (e.preventDefault(), navigate('/'))}>
          Back to the overview
        </a>
      </p>
    </>
  );
}
