/** Small shared pieces: a time with UTC on hover, an error line, a secret shown once with a copy button. */
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { localTime, words } from './format.js';
import { useTimeZone } from './timezone.js';

export function Time({ iso }: { iso: string }) {
  const t = localTime(iso, useTimeZone());
  return (
    <time dateTime={iso} title={t.utc}>
      {t.text}
    </time>
  );
}

/**
 * A message brought to where the eye is (issue #32 item 2): scrolled into view when it appears or
 * changes, so an answer to a button low on a page is never shown off-screen at the top.
 */
function useInView<T extends HTMLElement>(key: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (key) ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [key]);
  return ref;
}

/**
 * The one "Loading…" of the console (a read not answered yet): a line of its own, a whole page's
 * (`page`: the frame waiting for the session or a page's code), or words inside a sentence (`inline`).
 */
export function Loading({ page = false, inline = false }: { page?: boolean; inline?: boolean }) {
  return inline ? <span>Loading…</span> : <p className={page ? 'loading' : undefined}>Loading…</p>;
}

/** An error, announced (role alert) and scrolled into view. */
export function ErrorLine({ error }: { error: string | null }) {
  const ref = useInView<HTMLParagraphElement>(error);
  return error ? (
    <p className="error" role="alert" ref={ref}>
      {error}
    </p>
  ) : null;
}

/** A success message, announced (role status) and scrolled into view. */
export function Notice({ message, children }: { message: string | null; children?: ReactNode }) {
  const ref = useInView<HTMLParagraphElement>(message);
  return message ? (
    <p className="notice" role="status" ref={ref}>
      {message}
      {children}
    </p>
  ) : null;
}

/**
 * A secret shown once: it lives only in this component's memory (never stored, never fetched
 * again), so a reload shows it no more. `label` is the contract's name ("Client secret", "Signing secret").
 */
export function SecretOnce({ label, value, onDone }: { label: string; value: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const id = `secret-${label.toLowerCase().replace(/\s+/g, '-')}`;
  // Shown where the eye is, whichever button made it (a rotate low in a table).
  const ref = useInView<HTMLElement>(value);
  return (
    <section className="secret" aria-labelledby={`${id}-title`} ref={ref}>
      <h3 id={`${id}-title`}>Copy the secret now</h3>
      <p>It is shown only this once. Store it where your server can read it; if it is lost, rotate it.</p>
      <label htmlFor={id}>{label}</label>
      <div className="row">
        <input id={id} readOnly value={value} spellCheck={false} onFocus={(e) => e.currentTarget.select()} />
        <button
          type="button"
          aria-label="Copy the secret"
          onClick={() => {
            void navigator.clipboard?.writeText(value).then(() => setCopied(true), () => setCopied(false));
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <button type="button" className="secondary" onClick={onDone}>
        I have stored it
      </button>
    </section>
  );
}

/** A status in words ("Pending review"); the API's name (PENDING_REVIEW) on hover, for developers. */
export function Status({ status }: { status: string }) {
  return (
    <span className={`status status-${status.toLowerCase()}`} title={status}>
      {words(status)}
    </span>
  );
}
