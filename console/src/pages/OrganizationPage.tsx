/**
 * The organization's settings (contract §5: admins change them, every role reads them): its name,
 * which payers see as the payee, and whether refunds wait for a reviewer (contract §6); and its
 * members with their roles, managed on the Users page.
 */
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { api, describe } from '../api.js';
import { ErrorLine, Notice, Time } from '../components.js';
import { AppLink } from './money/links.js';
import type { Answer, RowOf } from '../wire.js';

type OrgSettings = Answer<'consoleGetOrganization'>;

type Member = RowOf<'consoleListUsers'>;

const REVIEW_TEXT: Record<OrgSettings['refund_review'], string> = {
  required: 'Required: a reviewer approves each refund before it goes to the provider',
  none: 'None: refunds go to the provider at once',
};

export function OrganizationPage({ canManage, onRenamed }: { canManage: boolean; onRenamed: () => void }) {
  const [org, setOrg] = useState<OrgSettings | null>(null);
  const [members, setMembers] = useState<Member[] | null>(null);
  const [name, setName] = useState('');
  const [review, setReview] = useState<OrgSettings['refund_review']>('required');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    api<OrgSettings>('GET', '/organization').then(
      (o) => {
        setOrg(o);
        setName(o.name);
        setReview(o.refund_review);
      },
      (e) => setError(describe(e)),
    );
    api<Member[]>('GET', '/users').then(setMembers, (e) => setError(describe(e)));
  }, []);
  useEffect(load, [load]);

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!org) return;
    setBusy(true);
    setError(null);
    setSaved(null);
    try {
      const next = await api<OrgSettings>('PATCH', '/organization', { name: name.trim(), refund_review: review });
      setOrg(next);
      setName(next.name);
      setReview(next.refund_review);
      setSaved('Settings saved.');
      if (next.name !== org.name) onRenamed();
    } catch (err) {
      setError(describe(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <h1>Organization</h1>
      <ErrorLine error={error} />
      {org === null ? (
        error ? null : <p>Loading…</p>
      ) : canManage ? (
        <form className="panel" onSubmit={(e) => void save(e)} aria-labelledby="org-settings-title">
          <h2 id="org-settings-title">Settings</h2>
          <label htmlFor="org-name">Organization name</label>
          <input id="org-name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} aria-describedby="org-name-hint" />
          <p id="org-name-hint" className="hint">
            Payers see it as the payee on the checkout page and in their UPI app (new payments).
          </p>
          <label htmlFor="org-refund-review">Refund review</label>
          <select id="org-refund-review" value={review} onChange={(e) => setReview(e.target.value as OrgSettings['refund_review'])} aria-describedby="org-refund-review-hint">
            <option value="required">Required</option>
            {/* Turning review off is the operator's (tijori org set): one person could then refund alone. */}
            <option value="none" disabled={org.refund_review !== 'none'}>
              None
            </option>
          </select>
          <p id="org-refund-review-hint" className="hint">
            {REVIEW_TEXT[review]}.{org.refund_review !== 'none' ? ' Only the operator turns review off (tijori org set).' : ''}
          </p>
          <div>
            <button type="submit" disabled={busy || name.trim() === ''}>
              Save settings
            </button>
          </div>
          <Notice message={saved} />
        </form>
      ) : (
        <dl className="facts">
          <dt>Organization name</dt>
          <dd>{org.name}</dd>
          <dt>Refund review</dt>
          <dd>{REVIEW_TEXT[org.refund_review]}</dd>
        </dl>
      )}
      {org ? (
        <dl className="facts">
          <dt>Organization id</dt>
          <dd>
            <code>{org.id}</code>
          </dd>
          <dt>Created</dt>
          <dd>
            <Time iso={org.created_at} />
          </dd>
        </dl>
      ) : null}
      <section aria-labelledby="members-title">
        <h2 id="members-title">Members</h2>
        <p>
          {canManage ? 'Invite users, change their roles, issue a new set-up link (password reset) or disable them on the ' : 'Admins manage them on the '}
          <AppLink to="/users">Users page</AppLink>.
        </p>
        {members === null ? null : (
          <div className="table-wrap" tabIndex={0} role="region" aria-label="Members">
            <table>
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {members.map((m) => (
                  <tr key={m.user_id}>
                    <td>{m.email}</td>
                    <td>{m.role}</td>
                    <td>{m.status}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
