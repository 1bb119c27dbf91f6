/** Users of the organization: invite (set-up link), change role, new set-up link, disable (admins). */
import { type FormEvent, useState } from 'react';
import { api, type Role } from '../api.js';
import { ErrorLine, Notice, Time } from '../components.js';
import { Loadable } from '../data.js';
import { type Column, RowsTable } from './columns.js';
import { DangerButton } from './DangerButton.js';
import { useListActions } from './useListActions.js';
import type { Answer, RowOf } from '../wire.js';
import { ROLES } from '../generated/server.js';

type User = RowOf<'consoleListUsers'>;

/** An invitation's or new link's answer: the link (no SMTP), or where it was mailed. */
type LinkAnswer = Answer<'consoleCreateUser'>;



export function UsersPage({ canManage, self }: { canManage: boolean; self: string }) {
  const { rows: users, error, busy, act } = useListActions<User>('/users');
  const [link, setLink] = useState<{ email: string; url: string } | null>(null);
  // With SMTP configured the link goes to the user by mail and is never shown here.
  const [mailed, setMailed] = useState<string | null>(null);
  const shown = (r: LinkAnswer, what: string) => {
    setLink('setup_url' in r ? { email: r.user.email, url: r.setup_url } : null);
    setMailed('mailed_to' in r ? `${what} mailed to ${r.mailed_to}. The link is sent to them only; it works once, for 24 hours.` : null);
  };
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');

  function invite(e: FormEvent) {
    e.preventDefault();
    void act(async () => {
      shown(await api<LinkAnswer>('POST', '/users', { email, role }), 'Invitation');
      setEmail('');
    });
  }

  // Neither your own account nor a disabled one can be changed here.
  const changeable = (u: User) => u.user_id !== self && u.status !== 'disabled';
  const columns: Column<User>[] = [
    { title: 'Email', cell: (u) => u.email },
    {
      title: 'Role',
      cell: (u) =>
        canManage && changeable(u) ? (
          <select
            aria-label={`Role of ${u.email}`}
            value={u.role}
            disabled={busy}
            onChange={(e) => void act(async () => void (await api('POST', `/users/${u.user_id}/role`, { role: e.target.value })))}
          >
            {ROLES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        ) : (
          u.role
        ),
    },
    { title: 'Status', cell: (u) => u.status },
    { title: 'Second factor', cell: (u) => (u.totp_enabled ? 'on' : 'off') },
    { title: 'Invited', cell: (u) => <Time iso={u.created_at} /> },
  ];
  const actions: Column<User> = {
    title: 'Actions',
    actions: true,
    cell: (u) =>
      changeable(u) ? (
        <>
          <button
            type="button"
            className="secondary"
            disabled={busy}
            aria-label={`New set-up link for ${u.email}`}
            onClick={() =>
              void act(async () => {
                shown(await api<LinkAnswer>('POST', `/users/${u.user_id}/setup-link`), 'A new set-up link was');
              })
            }
          >
            New set-up link
          </button>
          <DangerButton
            label="Disable"
            name={`Disable ${u.email}`}
            question={`Disable ${u.email}? Their sessions end now.`}
            busy={busy}
            onConfirmed={() => void act(async () => void (await api('POST', `/users/${u.user_id}/disable`)))}
          />
        </>
      ) : (
        '—'
      ),
  };

  return (
    <>
      <h1>Users</h1>
      <ErrorLine error={error} />
      <Notice message={mailed} />
      {link ? (
        <section className="secret" aria-labelledby="link-title">
          <h2 id="link-title">Set-up link for {link.email}</h2>
          <p>Send it to the user: it works once, for 24 hours.</p>
          <label htmlFor="setup-link">Set-up link</label>
          <input id="setup-link" readOnly value={link.url} onFocus={(e) => e.currentTarget.select()} />
          <button type="button" className="secondary" onClick={() => setLink(null)}>
            Done
          </button>
        </section>
      ) : null}
      {canManage ? (
        <form className="panel" onSubmit={invite} aria-labelledby="invite-title">
          <h2 id="invite-title">Invite a user</h2>
          <label htmlFor="invite-email">Email</label>
          <input id="invite-email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          <label htmlFor="invite-role">Role</label>
          <select id="invite-role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
          <button type="submit" disabled={busy}>
            Invite user
          </button>
        </form>
      ) : null}
      <Loadable data={users} error={error} showError={false}>
        {(users) => (
          <div className="table-wrap">
            <RowsTable columns={canManage ? [...columns, actions] : columns} rows={users} rowKey={(u) => u.user_id} />
          </div>
        )}
      </Loadable>
    </>
  );
}
