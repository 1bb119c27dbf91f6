/**
 * `tijori keys rotate-master` (docs/operations.md, "Rotating the master key"): re-encrypts every
 * column of ENCRYPTED_COLUMNS under the current MASTER_KEY, online and resumably. Every instance
 * runs with MASTER_KEY=new and MASTER_KEY_PREVIOUS=old meanwhile (reads either, writes new); the
 * rotation walks each column in key order, a page at a time, and replaces a value read under the
 * previous key by compare-and-set (a value the service rewrote meanwhile is left alone). A value
 * already under the new key is skipped, so a rotation stopped anywhere is resumed by running it
 * again. `verify` then counts, per column, the values under each key; the rotation is complete
 * (MASTER_KEY_PREVIOUS may be removed) when no value needs the previous key. Both are audited
 * (operator_audit_log).
 */
import { AppError } from '../../domain/errors.js';
import type { Vault } from '../../security/vault.js';
import type { Db } from '../../store/db.js';
import * as repo from '../../store/repos/key-rotation-repo.js';
import { newRowId } from '../../store/row-id.js';
import { ENCRYPTED_COLUMNS, type EncryptedColumn } from './encrypted-columns.js';

export interface RotationCursor {
  /** Index into ENCRYPTED_COLUMNS. */
  column: number;
  /** Key values (as text) of the last row done in that column; null: from its start. */
  after: string[] | null;
}

export interface RotationStep {
  rotated: number;
  already_current: number;
  /** Rows whose value opens under neither key (reported, left alone). */
  unreadable: Array<{ table: string; column: string; key: string[] }>;
  next: RotationCursor | null;
}

export interface ColumnCount {
  table: string;
  column: string;
  current: number;
  previous: number;
  unreadable: number;
}

export interface Actor {
  label: string;
  ip: string | null;
}

const DEFAULT_PAGE = 500;
const MAX_PAGE = 5_000;

export class MasterKeyRotation {
  constructor(
    private readonly deps: { db: Db; vault: Vault },
    private readonly columns: readonly EncryptedColumn[] = ENCRYPTED_COLUMNS,
  ) {}

  private async audit(actor: Actor, action: string, detail: Record<string, unknown>): Promise<void> {
    await repo.insertOperatorAudit(this.deps.db, { id: newRowId(), actor: actor.label, action, detail, ip: actor.ip });
  }

  /** One page of the rotation from `cursor` (null: the start, audited as a rotation started). */
  async step(cursor: RotationCursor | null, limit: number = DEFAULT_PAGE, actor: Actor): Promise<RotationStep> {
    if (!this.deps.vault.hasPreviousKey) {
      throw new AppError('INVALID_STATE', 'MASTER_KEY_PREVIOUS is not set: restart every instance with MASTER_KEY=<new key> and MASTER_KEY_PREVIOUS=<old key> first.');
    }
    const pageSize = Math.min(Math.max(1, Math.floor(limit)), MAX_PAGE);
    if (cursor === null) await this.audit(actor, 'master_key.rotation_started', { columns: this.columns.map((c) => `${c.table}.${c.column}`) });
    const out: RotationStep = { rotated: 0, already_current: 0, unreadable: [], next: null };
    let at: RotationCursor = cursor ?? { column: 0, after: null };
    while (at.column < this.columns.length) {
      const col = this.columns[at.column] as EncryptedColumn;
      if (!(await repo.tableExists(this.deps.db, col.table))) {
        at = { column: at.column + 1, after: null };
        continue;
      }
      const rows = await repo.pageOfEncrypted(this.deps.db, col, at.after, pageSize);
      for (const row of rows) {
        const context = col.context(row.fields);
        let opened: { plaintext: string; current: boolean };
        try {
          opened = this.deps.vault.open(row.value, context);
        } catch {
          out.unreadable.push({ table: col.table, column: col.column, key: row.key });
          continue;
        }
        if (opened.current) {
          out.already_current += 1;
          continue;
        }
        const replaced = await repo.replaceEncrypted(this.deps.db, col, row.key, row.value, this.deps.vault.encrypt(opened.plaintext, context));
        // Not replaced: the service wrote the row meanwhile, under the current key.
        if (replaced) out.rotated += 1;
        else out.already_current += 1;
      }
      const last = rows[rows.length - 1];
      out.next = rows.length < pageSize || !last ? (at.column + 1 < this.columns.length ? { column: at.column + 1, after: null } : null) : { column: at.column, after: last.key };
      return out;
    }
    return out;
  }

  /** Counts every column's values by the key they open under; audited. */
  async verify(actor: Actor): Promise<{ complete: boolean; columns: ColumnCount[] }> {
    const columns: ColumnCount[] = [];
    for (const col of this.columns) {
      const count: ColumnCount = { table: col.table, column: col.column, current: 0, previous: 0, unreadable: 0 };
      columns.push(count);
      if (!(await repo.tableExists(this.deps.db, col.table))) continue;
      let after: string[] | null = null;
      for (;;) {
        const rows = await repo.pageOfEncrypted(this.deps.db, col, after, MAX_PAGE);
        for (const row of rows) {
          try {
            if (this.deps.vault.open(row.value, col.context(row.fields)).current) count.current += 1;
            else count.previous += 1;
          } catch {
            count.unreadable += 1;
          }
        }
        const last = rows[rows.length - 1];
        if (rows.length < MAX_PAGE || !last) break;
        after = last.key;
      }
    }
    const complete = columns.every((c) => c.previous === 0 && c.unreadable === 0);
    await this.audit(actor, 'master_key.rotation_verified', { complete, columns, lookup_fingerprint: this.deps.vault.lookupFingerprint() });
    return { complete, columns };
  }
}

/**
 * Null when this instance's look-up key is the one the database's keyed look-ups were made with (or
 * no rotation recorded one); else the message of a refused start. A start after a rotation without
 * LOOKUP_KEY would otherwise break every checkout link already sent and duplicate beneficiaries.
 */
export async function lookupKeyMismatch(db: Db, vault: Vault): Promise<string | null> {
  const recorded = await repo.recordedLookupFingerprint(db);
  if (recorded === null || recorded === vault.lookupFingerprint()) return null;
  return (
    `the look-up key does not match the one this database's keyed look-ups were made with (fingerprint ${recorded}, ` +
    `recorded by the last \`tijori keys rotate-master\`): set LOOKUP_KEY to the master key in use before the first rotation (docs/operations.md, "The master key")`
  );
}
