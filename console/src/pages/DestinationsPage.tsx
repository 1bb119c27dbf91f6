/**
 * Callback destinations (PayIn, PayOut): URL, the signing secret shown once (first set-up,
 * rotation); the event types each subscribes to, "Send a test event", its delivery log with replay,
 * and re-enabling one disabled after failing for 3 days (DestinationControls).
 */
import { type FormEvent, useState } from 'react';
import { api, describe } from '../api.js';
import { ErrorLine, Notice, SecretOnce, Time } from '../components.js';
import { Loadable, useInvalidate, useResource } from '../data.js';
import { DestinationControls, type DestinationState } from './DestinationControls.js';

type Destination = DestinationState;

const KINDS = [
  { kind: 'payin', title: 'PayIn', about: 'payment order events' },
  { kind: 'payout', title: 'PayOut', about: 'payout events' },
] as const;

function DestinationForm({ kind, title, current, canManage, onSaved, onError }: {
  kind: string;
  title: string;
  current: Destination | undefined;
  canManage: boolean;
  onSaved: (secret: string | null) => void;
  onError: (e: unknown) => void;
}) {
  // Starts from the saved URL (the page keys the form by it, so a new one starts it again).
  const [url, setUrl] = useState(current?.url ?? '');
  const [busy, setBusy] = useState(false);

  async function run(fn: () => Promise<string | null>) {
    setBusy(true);
    try {
      onSaved(await fn());
    } catch (e) {
      onError(e);
    } finally {
      setBusy(false);
    }
  }

  function save(e: FormEvent) {
    e.preventDefault();
    void run(async () => (await api<{ signing_secret: string | null }>('PUT', `/destinations/${kind}`, { url })).signing_secret);
  }

  return (
    <form className="panel" onSubmit={save} aria-labelledby={`${kind}-title`}>
      <h2 id={`${kind}-title`}>{title} destination</h2>
      {current ? (
        <p className="hint">
          Last changed <Time iso={current.updated_at} />
        </p>
      ) : (
        <p className="hint">Not configured: no {title} callbacks are sent.</p>
      )}
      {current?.scheme === 'standard-webhooks' ? <p className="hint">Signed the Standard Webhooks way (webhook-id, webhook-timestamp, webhook-signature).</p> : null}
      {current?.next_secret_active_from ? (
        <p className="hint" role="status">
          A new signing secret waits: deliveries are still signed with the old one until you activate the new one, or by themselves from{' '}
          <Time iso={current.next_secret_active_from} />.
        </p>
      ) : null}
      <label htmlFor={`${kind}-url`}>{title} URL</label>
      <input id={`${kind}-url`} type="url" required readOnly={!canManage} placeholder="https://merchant.example/callbacks" value={url} onChange={(e) => setUrl(e.target.value)} />
      {canManage ? (
        <>
          <button type="submit" disabled={busy}>
            Save {title} destination
          </button>
          {current ? (
            <button
              type="button"
              className="secondary"
              disabled={busy}
              onClick={() => {
                if (window.confirm(`Rotate the ${title} signing secret? Callbacks stay signed with the old one until you activate the new one (or 72 hours pass): give the new one to your receiver first.`)) {
                  void run(async () => (await api<{ signing_secret: string }>('POST', `/destinations/${kind}/rotate-secret`)).signing_secret);
                }
              }}
            >
              Rotate {title} signing secret
            </button>
          ) : null}
          {current?.next_secret_active_from ? (
            <button
              type="button"
              className="secondary"
              disabled={busy}
              onClick={() => {
                if (window.confirm(`Activate the new ${title} signing secret? From now on only it signs; the old one is gone.`)) {
                  void run(async () => {
                    await api('POST', `/destinations/${kind}/activate-secret`);
                    return null;
                  });
                }
              }}
            >
              Activate new secret
            </button>
          ) : null}
        </>
      ) : null}
    </form>
  );
}

export function DestinationsPage({ canManage }: { canManage: boolean }) {
  const { data: list, error: loadError } = useResource<Destination[]>('/destinations');
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<{ title: string; value: string } | null>(null);
  const invalidate = useInvalidate();
  // A change reads the destinations (and their delivery logs) again.
  const load = () => void invalidate('/destinations');

  return (
    <>
      <h1>Callback destinations</h1>
      <p>Where Tijori sends signed callbacks (HTTPS only). Each destination has its own signing secret.</p>
      {!canManage ? <p className="hint">Your role can see destinations but not change them.</p> : null}
      <ErrorLine error={error ?? loadError} />
      {secret ? (
        <>
          <Notice message={`New signing secret of the ${secret.title} destination.`} />
          <SecretOnce label="Signing secret" value={secret.value} onDone={() => setSecret(null)} />
        </>
      ) : null}
      <Loadable data={list} error={loadError} showError={false}>
        {(list) =>
          KINDS.map((k) => {
            const current = list.find((d) => d.kind === k.kind);
            return (
              <div key={k.kind}>
                <DestinationForm
                  key={current?.url ?? ''}
                  kind={k.kind}
                  title={k.title}
                  current={current}
                  canManage={canManage}
                  onSaved={(s) => {
                    setError(null);
                    if (s) setSecret({ title: k.title, value: s });
                    load();
                  }}
                  onError={(e) => setError(describe(e))}
                />
                {current ? <DestinationControls d={current} title={k.title} canManage={canManage} onChanged={load} /> : null}
              </div>
            );
          })
        }
      </Loadable>
    </>
  );
}
