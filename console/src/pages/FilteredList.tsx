/**
 * A filtered list read in keyset pages (the event log, the audit log): the filter form ("Filter",
 * one labelled control per field, applied on submit) and the rows with "load older" paging.
 */
import { useEffect, useState } from 'react';
import { apiPage, describe } from '../api.js';

interface FieldBase {
  /** The key of the field's value in what `onApply` gets. */
  name: string;
  id: string;
  label: string;
}

export type FilterField =
  | (FieldBase & { kind: 'text'; placeholder?: string; search?: boolean })
  | (FieldBase & { kind: 'select'; options: ReadonlyArray<{ value: string; label: string }> })
  | (FieldBase & { kind: 'datetime' });

/** The filters; `onApply` gets every field's value (trimmed; '' when empty) when the form is submitted. */
export function FilterForm({ label, fields, onApply }: { label: string; fields: ReadonlyArray<FilterField>; onApply: (values: Record<string, string>) => void }) {
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(fields.map((f) => [f.name, ''])));
  const set = (name: string, value: string) => setValues((v) => ({ ...v, [name]: value }));
  return (
    <form
      className="filters"
      role="search"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        onApply(Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.trim()])));
      }}
    >
      {fields.map((f) => (
        <div key={f.name}>
          <label htmlFor={f.id}>{f.label}</label>
          {f.kind === 'select' ? (
            <select id={f.id} value={values[f.name] ?? ''} onChange={(e) => set(f.name, e.target.value)}>
              {f.options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          ) : (
            <input
              id={f.id}
              type={f.kind === 'datetime' ? 'datetime-local' : f.search ? 'search' : 'text'}
              value={values[f.name] ?? ''}
              placeholder={f.kind === 'text' ? f.placeholder : undefined}
              onChange={(e) => set(f.name, e.target.value)}
            />
          )}
        </div>
      ))}
      <button type="submit">Filter</button>
    </form>
  );
}

/**
 * The rows of `query(null)`, read again whenever `query` (the filter) or `reload` changes; `more`
 * appends the next, older page.
 */
export function usePagedList<T>(query: (cursor: string | null) => string, reload = 0) {
  const [rows, setRows] = useState<T[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setRows(null);
    setError(null);
    apiPage<T>(query(null)).then(
      (p) => {
        setRows(p.rows);
        setNext(p.next);
      },
      (e) => setError(describe(e)),
    );
  }, [query, reload]);

  async function more() {
    try {
      const p = await apiPage<T>(query(next));
      setRows((r) => [...(r ?? []), ...p.rows]);
      setNext(p.next);
    } catch (e) {
      setError(describe(e));
    }
  }

  return { rows, next, error, more };
}
