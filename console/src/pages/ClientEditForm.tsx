/**
 * Editing an API client's name ("Client name"; blank removes it), scopes, IP allow list (one address or CIDR range a line; the API's
 * per-entry errors are shown against their line) and rate limit. Shown only to roles holding
 * clients.manage; the API refuses everyone else (403) all the same.
 */
import { type FormEvent, useState } from 'react';
import { api, ApiError, describe } from '../api.js';
import { ErrorLine } from '../components.js';
import { ScopesFieldset } from './ScopesFieldset.js';
import type { RowOf } from '../wire.js';
import { RATE_LIMIT_PER_MINUTE } from '../generated/server.js';

export type EditableClient = Pick<RowOf<'consoleListApiClients'>, 'client_id' | 'scopes' | 'allowed_ips' | 'rate_limit_per_minute'> & { name?: string | null };

/** The non-blank lines with their 1-based line numbers, so the API's `allowed_ips[i]` maps back to a line. */
function entries(text: string): Array<{ line: number; value: string }> {
  return text
    .split('\n')
    .map((v, i) => ({ line: i + 1, value: v.trim() }))
    .filter((e) => e.value !== '');
}

export function ClientEditForm({ client, onSaved, onCancel }: { client: EditableClient; onSaved: (waitsForApproval: boolean) => void; onCancel: () => void }) {
  const [name, setName] = useState(client.name ?? '');
  const [scopes, setScopes] = useState<string[]>(client.scopes);
  const [ips, setIps] = useState(client.allowed_ips.join('\n'));
  const [rate, setRate] = useState(String(client.rate_limit_per_minute));
  const [lineErrors, setLineErrors] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = (k: string) => `edit-${k}`;

  async function save(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setLineErrors([]);
    const list = entries(ips);
    setBusy(true);
    try {
      const r = await api<{ approval_required?: boolean }>('PATCH', `/api-clients/${encodeURIComponent(client.client_id)}`, { name: name.trim(), scopes, allowed_ips: list.map((x) => x.value), rate_limit_per_minute: Number(rate) });
      // Adding payouts:write waits for a second admin (the change is a request until then).
      onSaved(r.approval_required === true);
    } catch (err) {
      if (err instanceof ApiError && err.details.length > 0) {
        const perLine: string[] = [];
        const other: string[] = [];
        for (const d of err.details) {
          const m = /^allowed_ips\[(\d+)\]$/.exec(d.field);
          const entry = m ? list[Number(m[1])] : undefined;
          if (entry) perLine.push(`Line ${entry.line}: ${d.issue}`);
          else other.push(`${d.field} ${d.issue}`);
        }
        setLineErrors(perLine);
        setError(other.length > 0 ? `${err.message} (${other.join('; ')})` : perLine.length > 0 ? 'Fix the IP allow list: nothing was changed.' : err.message);
      } else {
        setError(describe(err));
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="panel" onSubmit={(e) => void save(e)} aria-labelledby={id('title')}>
      <h2 id={id('title')}>
        Edit <code>{client.client_id}</code>
      </h2>
      <ErrorLine error={error} />
      <label htmlFor={id('name')}>Client name</label>
      <input id={id('name')} value={name} maxLength={200} onChange={(e) => setName(e.target.value)} aria-describedby={id('name-hint')} />
      <p id={id('name-hint')} className="hint">
        A label for people (e.g. the server that uses it); leave it empty for none.
      </p>
      <ScopesFieldset chosen={scopes} onChange={setScopes} />
      <label htmlFor={id('ips')}>IP allow list</label>
      <textarea
        id={id('ips')}
        rows={4}
        value={ips}
        spellCheck={false}
        placeholder={'203.0.113.0/24\n2001:db8::/32'}
        aria-invalid={lineErrors.length > 0 ? true : undefined}
        aria-describedby={lineErrors.length > 0 ? `${id('ips-hint')} ${id('ips-errors')}` : id('ips-hint')}
        onChange={(e) => setIps(e.target.value)}
      />
      <p id={id('ips-hint')} className="hint">
        One IPv4 or IPv6 address or CIDR range per line (10.0.0.0/8, 2001:db8::/32); empty allows any address.
      </p>
      {lineErrors.length > 0 ? (
        <div id={id('ips-errors')} role="alert">
          <ul className="error">
            {lineErrors.map((l) => (
              <li key={l}>{l}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <label htmlFor={id('rate')}>Rate limit (requests per minute)</label>
      <input id={id('rate')} type="number" min={RATE_LIMIT_PER_MINUTE.min} max={RATE_LIMIT_PER_MINUTE.max} step={1} required value={rate} onChange={(e) => setRate(e.target.value)} />
      <div>
        <button type="submit" disabled={busy || scopes.length === 0}>
          Save changes
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
