/**
 * The scopes of an API client as checkboxes ("Scopes"), as the new-client form and the edit form
 * both ask for them; `chosen` is kept in the order they were ticked, as the API receives it.
 */
import { SCOPES } from '../generated/server.js';
// The service's list (generated from src/domain/scopes.ts); settlements:read is organization-wide (contract §9).

export function ScopesFieldset({ chosen, onChange }: { chosen: string[]; onChange: (scopes: string[]) => void }) {
  return (
    <fieldset>
      <legend>Scopes</legend>
      {SCOPES.map((s) => (
        <label key={s} className="check">
          <input type="checkbox" checked={chosen.includes(s)} onChange={(e) => onChange(e.target.checked ? [...chosen, s] : chosen.filter((x) => x !== s))} /> {s}
        </label>
      ))}
    </fieldset>
  );
}
