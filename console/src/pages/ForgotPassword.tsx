/**
 * "Forgot password?" from the sign-in page (issue #32 item 8). With SMTP configured the service
 * mails a link (its answer is the same whether or not the email is known); without, an admin
 * issues a new set-up link from the Users page, and this says so.
 */
import { type FormEvent, useState } from 'react';
import { api, describe } from '../api.js';
import { ErrorLine, Loading } from '../components.js';
import { useResource } from '../data.js';

export function ForgotPassword({ onBack }: { onBack: () => void }) {
  const mode = useResource<{ by_mail: boolean }>('/password-reset');
  const byMail = mode.data?.by_mail ?? null;
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const [sendError, setError] = useState<string | null>(null);
  const error = sendError ?? mode.error;
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setSent((await api<{ message: string }>('POST', '/password-reset', { email })).message);
    } catch (err) {
      setError(describe(err));
    } finally {
      setBusy(false);
    }
  }

  const back = (
    <button type="button" className="secondary" onClick={onBack}>
      Back to sign in
    </button>
  );
  return (
    <section aria-labelledby="forgot-title">
      <h2 id="forgot-title">Forgot your password?</h2>
      <ErrorLine error={error} />
      {byMail === null ? (
        error ? back : <Loading />
      ) : !byMail ? (
        <>
          <p>Ask an admin of your organization for a new set-up link: on the Users page, "New set-up link" next to your email. The link lets you choose a new password.</p>
          {back}
        </>
      ) : sent ? (
        <>
          <p role="status">{sent}</p>
          {back}
        </>
      ) : (
        <form onSubmit={(e) => void submit(e)}>
          <p>Enter the email you sign in with; we mail you a link to choose a new password.</p>
          <label htmlFor="forgot-email">Email</label>
          <input id="forgot-email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
          <button type="submit" disabled={busy}>
            Email me a link
          </button>
          {back}
        </form>
      )}
    </section>
  );
}
