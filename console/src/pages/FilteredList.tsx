/**
 * A filtered list read in keyset pages (the event log, the audit log): the filter form ("Filter",
 * one labelled control per field, applied on submit); its rows are read by `usePagedList` (data.tsx).
 */
import { useState } from 'react';

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
