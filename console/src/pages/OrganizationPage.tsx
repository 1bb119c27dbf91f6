/**
 * The organization's settings (contract §5: admins change them, every role reads them): its name,
 * which payers see as the payee, and whether refunds wait for a reviewer (contract §6); and its
 * members with their roles, managed on the Users page.
 */
import { useState } from 'react';
import { api } from '../api.js';
import { Loadable, useChange, useResource } from '../data.js';
import { ErrorLine, Notice, Time } from '../components.js';
import { type Column, RowsTable } from './columns.js';
import { AppLink, TableScroll } from './money/links.js';
import type { Answer, RowOf } from '../wire.js';

type OrgSettings = Answer<'consoleGetOrganization'>;

type Member = RowOf<'consoleListUsers'>;

const MEMBER_COLUMNS: Column<Member>[] = [
  { title: 'Email', cell: (m) => m.email },
  { title: 'Role', cell: (m) => m.role },
  { title: 'Status', cell: (m) => m.status },
];

const REVIEW_TEXT: Record<OrgSettings['refund_review'], string> = {
  required: 'Required: a reviewer approves each refund before it goes to the provider',
  none: 'None: refunds go to the provider at once',
};

/** The admin's form: its fields start from the settings as read, and keep what is typed. */
function SettingsForm({ org, busy, saved, onSave }: { org: OrgSettings; busy: boolean; saved: string | null; onSave: (name: string, review: OrgSettings['refund_review']) => void }) {
  const [name, setName] = useState(org.name);
  const [review, setReview] = useState<OrgSettings['refund_review']>(org.refund_review);
  return (
    <form
      className="panel"
      onSubmit={(e) => {
        e.preventDefault();
        setName(name.trim());
        onSave(name, review);
      }}
      aria-labelledby="org-settings-title"
    >
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
  );
}

export function OrganizationPage({ canManage, onRenamed }: { canManage: boolean; onRenamed: () => void }) {
  const { data: org, error: orgError } = useResource<OrgSettings>('/organization');
  const { data: members, error: membersError } = useResource<Member[]>('/users');
  const [saved, setSaved] = useState<string | null>(null);
  const change = useChange();
  const error = change.error ?? orgError ?? membersError;

  async function save(name: string, review: OrgSettings['refund_review']) {
    if (!org) return;
    setSaved(null);
    const next = await change.run(() => api<OrgSettings>('PATCH', '/organization', { name: name.trim(), refund_review: review }), ['/organization']);
    if (!next) return;
    setSaved('Settings saved.');
    if (next.name !== org.name) onRenamed();
  }

  return (
    <>
      <h1>Organization</h1>
      <ErrorLine error={error} />
      {org === null ? (
        <Loadable data={org} error={error} showError={false}>
          {() => null}
        </Loadable>
      ) : canManage ? (
        <SettingsForm org={org} busy={change.busy} saved={saved} onSave={(name, review) => void save(name, review)} />
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
          <TableScroll label="Members">
            <RowsTable columns={MEMBER_COLUMNS} rows={members} rowKey={(m) => m.user_id} />
          </TableScroll>
        )}
      </section>
    </>
  );
}
