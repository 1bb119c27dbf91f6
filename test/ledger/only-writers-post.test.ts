/**
 * Entries are posted only by the single writers, in the transaction of their state change
 * (docs/accounting.md): no other module of src/ imports the posting function or the entry insert.
 * A new writer (the settlement import) is added to this list on purpose, not by accident.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const WRITERS = [
  'src/services/payin/payment-order-transitions.ts',
  'src/services/refunds/refund-writer.ts',
  'src/services/payouts/payout-writer.ts',
  'src/services/settlements/settlement-import.ts',
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

test('only the single writers import postLedgerEntry; only post.ts imports the entry insert', () => {
  const posting = sources('src').filter((f) => /from '[./]*\/ledger\/post\.js'|from '\.\/post\.js'/.test(readFileSync(f, 'utf8')));
  assert.deepEqual(posting.sort(), [...WRITERS].sort());
  const inserting = sources('src').filter((f) => /insertEntry\b/.test(readFileSync(f, 'utf8')) && !f.endsWith('ledger-repo.ts'));
  assert.deepEqual(inserting, ['src/services/ledger/post.ts']);
});
