/** API clients: the list, create (secret shown once), edit (scopes, IP allow list, rate limit), rotate, revoke. */
import { type FormEvent, useState } from 'react';
import { api } from '../api.js';
import { ErrorLine, SecretOnce, Time } from '../components.js';
import { ClientEditForm } from './ClientEditForm.js';
import { Loadable } from '../data.js';
import { type Column, RowsTable } from './columns.js';
import { DangerButton } from './DangerButton.js';
import { ScopesFieldset } from './ScopesFieldset.js';
import { useListActions } from './useListActions.js';
import type { Answer, RowOf } from '../wire.js';
import { RATE_LIMIT_PER_MINUTE } from '../generated/server.js';

type ApiClient = RowOf<'consoleListApiClients'>;

type ClientRequest = RowOf<'consoleListApiClientRequests'>;

/** A change that hands out a payouts:write credential answers this instead (a second admin approves it). */
type ApprovalRequired = Extract<Answer<'consoleCreateApiClient'>, { approval_required: true }>;

const WAITS = 'This gives a credential that can move money (payouts:write): it waits for a second admin\'s approval under "Waiting for a second admin" below; once approved, you collect the secret there.';


const KIND: Record<ClientRequest['kind'], string> = { create: 'new client', update: 'add payouts:write', rotate: 'new secret' };

const COLUMNS: Column<ApiClient>[] = [
  { title: 'Client id', cell: (c) => <code>{c.client_id}</code> },
  { title: 'Name', cell: (c) => c.name ?? '—' },
  { title: 'Scopes', cell: (c) => c.scopes.join(', ') },
  { title: 'IP allow list', cell: (c) => (c.allowed_ips.length ? c.allowed_ips.join(', ') : 'any') },
  { title: 'Rate limit', cell: (c) => `${c.rate_limit_per_minute.toLocaleString('en-IN')}/min` },
  { title: 'Status', cell: (c) => c.status },
  { title: 'Created', cell: (c) => <Time iso={c.created_at} /> },
  { title: 'Last used', cell: (c) => (c.last_used_at ? <Time iso={c.last_used_at} /> : 'Never') },
];

export function ApiClientsPage({ canManage, canApprove }: { canManage: boolean; canApprove: boolean }) {
  const { rows: clients, error, busy, load, act } = useListActions<ApiClient>('/api-clients');
  const [secret, setSecret] = useState<{ clientId: string; value: string } | null>(null);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(['collections:write', 'collections:read']);
  const [ips, setIps] = useState('');
  const [rate, setRate] = useState(String(RATE_LIMIT_PER_MINUTE.default));
  const [editing, setEditing] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const requests = useListActions<ClientRequest>('/api-client-requests');
  const waiting = (requests.rows ?? []).filter((r) => r.status === 'PENDING' || r.status === 'APPROVED');

  function create(e: FormEvent) {
    e.preventDefault();
    void act(async () => {
      const allowed = ips.split(/[\s,]+/).map((s) => s.trim()).filter(Boolean);
      const r = await api<{ client: ApiClient; client_secret: string } | ApprovalRequired>('POST', '/api-clients', {
        ...(name.trim() ? { name: name.trim() } : {}),
        scopes,
        ...(allowed.length ? { allowed_ips: allowed } : {}),
        rate_limit_per_minute: Number(rate),
      });
      if ('approval_required' in r) {
        setNotice(WAITS);
        requests.load();
      } else setSecret({ clientId: r.client.client_id, value: r.client_secret });
      setName('');
      setIps('');
    });
  }

  const actions: Column<ApiClient> = {
    title: 'Actions',
    actions: true,
    cell: (c) =>
      c.status === 'active' ? (
        <>
          <button type="button" className="secondary" disabled={busy} aria-label={`Edit ${c.client_id}`} onClick={() => setEditing(c.client_id)}>
            Edit
          </button>
          <button
            type="button"
            className="secondary"
            disabled={busy}
            aria-label={`Rotate secret of ${c.client_id}`}
            onClick={() =>
              void act(async () => {
                const r = await api<{ client_id: string; client_secret: string } | ApprovalRequired>('POST', `/api-clients/${encodeURIComponent(c.client_id)}/rotate-secret`);
                if ('approval_required' in r) {
                  setNotice(WAITS);
                  requests.load();
                } else setSecret({ clientId: r.client_id, value: r.client_secret });
              })
            }
          >
            Rotate secret
          </button>
          <DangerButton
            label="Revoke"
            name={`Revoke ${c.client_id}`}
            question={`Revoke ${c.client_id}? Requests with its credentials will fail.`}
            busy={busy}
            onConfirmed={() => void act(async () => void (await api('POST', `/api-clients/${encodeURIComponent(c.client_id)}/revoke`)))}
          />
        </>
      ) : (
        '—'
      ),
  };

  const requestColumns: Column<ClientRequest>[] = [
    { title: 'Asked', cell: (r) => <Time iso={r.created_at} /> },
    { title: 'By', cell: (r) => r.requested_by },
    {
      title: 'What',
      cell: (r) => (
        <>
          {KIND[r.kind]} {r.client_id ? <code>{r.client_id}</code> : (r.change.name ?? '')} {r.change.scopes ? `(${r.change.scopes.join(', ')})` : ''}
        </>
      ),
    },
    { title: 'Status', cell: (r) => (r.status === 'PENDING' ? 'waiting for approval' : 'approved: the requester collects it') },
    {
      title: 'Actions',
      actions: true,
      cell: (r) => (
        <>
          {canApprove && r.status === 'PENDING' ? (
            <>
              <button type="button" disabled={requests.busy} aria-label={`Approve request ${r.request_id}`} onClick={() => void requests.act(async () => void (await api('POST', `/api-client-requests/${r.request_id}/approve`)))}>
                Approve
              </button>
              <button type="button" className="secondary" disabled={requests.busy} aria-label={`Reject request ${r.request_id}`} onClick={() => void requests.act(async () => void (await api('POST', `/api-client-requests/${r.request_id}/reject`)))}>
                Reject
              </button>
            </>
          ) : null}
          {canManage && r.status === 'APPROVED' ? (
            <button
              type="button"
              disabled={requests.busy}
              aria-label={`Collect request ${r.request_id}`}
              onClick={() =>
                void requests.act(async () => {
                  const got = await api<{ client?: ApiClient; client_id?: string; client_secret: string }>('POST', `/api-client-requests/${r.request_id}/collect`);
                  setNotice(null);
                  setSecret({ clientId: got.client?.client_id ?? got.client_id ?? '', value: got.client_secret });
                  load();
                })
              }
            >
              Collect
            </button>
          ) : null}
        </>
      ),
    },
  ];

  return (
    <>
      <h1>API clients</h1>
      <p>Credentials your servers use to call the merchant API (X-Service-Client-Id and a Bearer secret).</p>
      <ErrorLine error={error ?? requests.error} />
      {notice ? <p role="status">{notice}</p> : null}
      {secret ? (
        <>
          <p role="status">
            New secret for <code>{secret.clientId}</code>.
          </p>
          <SecretOnce label="Client secret" value={secret.value} onDone={() => setSecret(null)} />
        </>
      ) : null}
      {canManage && editing ? (
        <ClientEditForm
          key={editing}
          client={clients?.find((c) => c.client_id === editing) ?? { client_id: editing, name: null, scopes: [], allowed_ips: [], rate_limit_per_minute: RATE_LIMIT_PER_MINUTE.default }}
          onCancel={() => setEditing(null)}
          onSaved={(waits) => {
            setEditing(null);
            if (waits) {
              setNotice(WAITS);
              requests.load();
            }
            load();
          }}
        />
      ) : null}
      {canManage ? (
        <form className="panel" onSubmit={create} aria-labelledby="new-client">
          <h2 id="new-client">New API client</h2>
          <label htmlFor="client-name">Name</label>
          <input id="client-name" value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />
          <ScopesFieldset chosen={scopes} onChange={setScopes} />
          <label htmlFor="client-ips">IP allow list</label>
          <input id="client-ips" value={ips} placeholder="203.0.113.7, 2001:db8::1" onChange={(e) => setIps(e.target.value)} aria-describedby="ips-hint" />
          <p id="ips-hint" className="hint">Addresses or CIDR ranges separated by commas; empty allows any address.</p>
          <label htmlFor="client-rate">Rate limit (requests per minute)</label>
          <input id="client-rate" type="number" min={RATE_LIMIT_PER_MINUTE.min} max={RATE_LIMIT_PER_MINUTE.max} required value={rate} onChange={(e) => setRate(e.target.value)} />
          <button type="submit" disabled={busy || scopes.length === 0}>
            Create API client
          </button>
        </form>
      ) : (
        <p className="hint">Your role can see API clients but not change them.</p>
      )}
      {waiting.length > 0 ? (
        <>
          <h2>Waiting for a second admin</h2>
          <div className="table-wrap">
            <RowsTable columns={requestColumns} rows={waiting} rowKey={(r) => r.request_id} />
          </div>
        </>
      ) : null}
      <h2>Clients</h2>
      <Loadable data={clients} error={error} showError={false}>
        {(clients) =>
          clients.length === 0 ? (
            <p>No API clients yet.</p>
          ) : (
            <div className="table-wrap">
              <RowsTable columns={canManage ? [...COLUMNS, actions] : COLUMNS} rows={clients} rowKey={(c) => c.client_id} />
            </div>
          )
        }
      </Loadable>
    </>
  );
}
