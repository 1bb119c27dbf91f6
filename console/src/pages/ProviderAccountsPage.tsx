/**
 * "Provider accounts" (contract §8, admins only): the organization's accounts at the sandbox,
 * Cashfree PG and RazorpayX, each with what it serves and the intake address to paste into the
 * provider's dashboard; add an account (the config of `tijori provider add`, validated by the same
 * service); choose the account of new payment orders (`tijori collections use`). Credentials go in
 * once and are never shown again, not even masked. Below each account: what its provider sent that
 * could not be used.
 */
import { type FormEvent, useState } from 'react';
import { api } from '../api.js';
import { ErrorLine, Time } from '../components.js';
import { Loadable } from '../data.js';
import { type Column, RowsTable } from './columns.js';
import { dash, TableScroll } from './money/links.js';
import { ProviderAnomalies } from './ProviderAnomalies.js';
import { useListActions } from './useListActions.js';
import type { Answer } from '../wire.js';

type ProviderAccount = Answer<'consoleListProviderAccounts'>['accounts'][number];

const COLLECTIONS = new Set(['sandbox', 'cashfree']);
/** What each provider's config file holds (contract §8); the page shows it as a starting point, never a stored value. */
const TEMPLATES: Record<string, string> = {
  sandbox: '{}',
  cashfree: '{\n  "base_url": "https://api.cashfree.com/pg",\n  "client_id": "",\n  "client_secret": "",\n  "api_version": "2025-01-01"\n}',
  razorpayx: '{\n  "base_url": "https://api.razorpay.com",\n  "key_id": "",\n  "key_secret": "",\n  "account_number": "",\n  "webhook_secret": ""\n}',
};


export function ProviderAccountsPage() {
  const { rows: accounts, error, setError, busy, act } = useListActions<ProviderAccount, { accounts: ProviderAccount[] }>('/provider-accounts', (d) => d.accounts);
  const [provider, setProvider] = useState('cashfree');
  const [name, setName] = useState('');
  const [config, setConfig] = useState(TEMPLATES.cashfree!);
  const [added, setAdded] = useState<{ name: string; callback_url: string } | null>(null);

  function add(e: FormEvent) {
    e.preventDefault();
    let parsed: unknown;
    try {
      parsed = JSON.parse(config);
    } catch {
      setError('The config is not JSON: paste the config file of contract §8.');
      return;
    }
    void act(async () => {
      const r = await api<{ name: string; callback_url: string }>('POST', '/provider-accounts', { provider, config: parsed, ...(name.trim() ? { name: name.trim() } : {}) });
      setAdded({ name: r.name, callback_url: r.callback_url });
      // The credentials leave the page's memory at once.
      setConfig(TEMPLATES[provider] ?? '{}');
      setName('');
    });
  }

  const current = accounts?.find((a) => a.serves_collections);
  const columns: Column<ProviderAccount>[] = [
    {
      title: 'Name',
      cell: (a) => (
        <>
          {a.name}
          <br />
          <code>{a.provider_account_id}</code>
        </>
      ),
    },
    { title: 'Provider', cell: (a) => a.provider },
    { title: 'Mode', cell: (a) => (a.livemode ? 'live' : 'test') },
    {
      title: 'Collections',
      cell: (a) =>
        a.serves_collections ? (
          'In use'
        ) : COLLECTIONS.has(a.provider) ? (
          <button
            type="button"
            className="secondary"
            disabled={busy}
            aria-label={`Use for collections: ${a.name}`}
            onClick={() =>
              void act(async () => {
                await api('PUT', '/collections-account', { provider_account_id: a.provider_account_id });
              })
            }
          >
            Use for collections
          </button>
        ) : (
          '—'
        ),
    },
    { title: 'Payout routes', cell: (a) => (a.payout_routes.length === 0 ? '—' : a.payout_routes.map((r) => `${r.name}${r.active ? '' : ' (inactive)'}`).join(', ')) },
    { title: 'Intake address (webhook URL)', cell: (a) => <code className="change">{dash(a.callback_url)}</code> },
    { title: 'Created', cell: (a) => <Time iso={a.created_at} /> },
  ];
  return (
    <>
      <h1>Provider accounts</h1>
      <p className="hint">
        The organization's accounts at payment providers. Payment orders use the collections account; each payout route sends through the account it was created with.
        Credentials are stored encrypted and never shown again.
      </p>
      <ErrorLine error={error} />
      {added ? (
        <section className="secret" aria-labelledby="added-title">
          <h2 id="added-title">Account {added.name} added</h2>
          <p>Register this intake address as the webhook URL in the provider's dashboard.</p>
          <label htmlFor="added-url">Intake address</label>
          <input id="added-url" readOnly value={added.callback_url} spellCheck={false} onFocus={(e) => e.currentTarget.select()} />
          <button type="button" className="secondary" onClick={() => setAdded(null)}>
            Done
          </button>
        </section>
      ) : null}
      <p>
        New payment orders use: <strong>{accounts === null ? '…' : current ? `${current.name} (${current.provider})` : 'the built-in sandbox'}</strong>
      </p>
      <p className="hint">An account is chosen for collections by an admin other than the one who added it (payments would be collected into it).</p>
      <Loadable data={accounts} error={error} showError={false}>
        {(accounts) =>
          accounts.length === 0 ? (
            <p>No provider accounts yet: collections and payouts go through the built-in sandbox.</p>
          ) : (
            <TableScroll label="Provider accounts">
              <RowsTable columns={columns} rows={accounts} rowKey={(a) => a.provider_account_id} />
            </TableScroll>
          )
        }
      </Loadable>
      <form className="panel" onSubmit={add} aria-labelledby="add-title">
        <h2 id="add-title">Add a provider account</h2>
        <label htmlFor="add-provider">Provider</label>
        <select
          id="add-provider"
          value={provider}
          onChange={(e) => {
            setProvider(e.target.value);
            setConfig(TEMPLATES[e.target.value] ?? '{}');
          }}
        >
          <option value="cashfree">cashfree (UPI collections)</option>
          <option value="razorpayx">razorpayx (payouts)</option>
          <option value="sandbox">sandbox</option>
        </select>
        <label htmlFor="add-name">Account name</label>
        <input id="add-name" value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />
        <label htmlFor="add-config">Config (JSON)</label>
        <textarea id="add-config" rows={8} spellCheck={false} autoComplete="off" value={config} onChange={(e) => setConfig(e.target.value)} />
        <button type="submit" disabled={busy}>
          Add provider account
        </button>
      </form>
      {accounts?.map((a) => (
        <ProviderAnomalies key={a.provider_account_id} id={a.provider_account_id} query={`provider_account_id=${a.provider_account_id}`} title={`Provider anomalies: ${a.name}`} />
      ))}
    </>
  );
}
