/**
 * A bulk payout file survives a crash mid-submission without paying any row twice (issue #21
 * item 2). The service runs as a child process and SIGKILLs itself (TIJORI_TEST_CRASH_POINT=bulk_mid)
 * right after the third row's payout was committed, before that row reached the bank, while other
 * rows of the batch may be anywhere between commit and bank. A second process on the same database
 * resumes: the bulk worker makes the rows without a payout, the payout worker settles the committed
 * ones (inquiry first). Every row ends with exactly one payout and one execution at the bank.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type Child, childServices, stopChild } from '../support/child-service.js';
import { consoleCaller, GOOD_PASSWORD } from '../support/console.js';
import type { TestService } from '../support/service.js';
import { waitFor } from '../payout/helpers.js';

const children = childServices('tijori-bulk-crash-');
const { admin } = children;

/** A signed-in console user of the child service (invited through the admin API, set up by link). */
async function consoleUser(c: Child, org: string, email: string, role: string) {
  const u = await admin(c, '/users', { org, email, role });
  const token = new URL(u.setup_url as string).hash.replace('#token=', '');
  const caller = consoleCaller({ svc: { publicUrl: c.public } } as unknown as TestService);
  const r = await caller.call('POST', '/setup', { token, password: GOOD_PASSWORD });
  assert.equal(r.status, 200, r.text);
  return caller;
}

const ROWS = 12;

test('kill -9 mid-submission of an approved bulk file: the restart finishes it, every row paid exactly once', async () => {
  const first = await children.start({ TIJORI_TEST_CRASH_POINT: 'bulk_mid' });
  const org = await admin(first, '/orgs', { name: 'bulk crash' });
  await admin(first, '/routes', { org: org.id, modes: ['IMPS', 'NEFT'] });
  const maker = await consoleUser(first, org.id, 'crash-maker@example.com', 'maker');
  const checker = await consoleUser(first, org.id, 'crash-checker@example.com', 'checker');
  const lines = ['name,account_number,ifsc,mobile,amount_paise,mode,remarks,client_reference'];
  for (let i = 0; i < ROWS; i++) lines.push(`Crash Vendor ${i},${70_000_000_000 + i},HDFC0000001,97${String(10_000_000 + i)},${5000 + i * 100},IMPS,row ${i},CRASH-${i}`);
  const up = await fetch(`${first.public}/console/api/bulk-payouts?file_name=crash.csv`, {
    method: 'POST',
    headers: { 'content-type': 'text/csv', cookie: maker.cookie!, 'x-csrf-token': maker.csrf! },
    body: lines.join('\n'),
  });
  const file = ((await up.json()) as any).data;
  assert.equal(up.status, 201, JSON.stringify(file));
  const approved = await checker.call('POST', `/bulk-payouts/${file.id}/approve`, {});
  assert.equal(approved.status, 200, approved.text);
  assert.equal(await first.exited, 'SIGKILL', 'the process killed itself mid-file');

  const q = children.database.db;
  const made = Number((await q.query("SELECT count(*)::int AS n FROM payouts WHERE bulk_file_id = $1", [file.id])).rows[0]!.n);
  // Rows are made side by side and their creates may share one transaction, so all of them may be
  // committed when the third one's commit kills the process; what is certain is that the file was
  // not through: that row (at least) never reached the bank.
  const atBank = Number(
    (await q.query('SELECT count(*)::int AS n FROM payouts p JOIN sandbox_bank_ledger l ON l.reference = p.transaction_id WHERE p.bulk_file_id = $1', [file.id])).rows[0]!.n,
  );
  assert.ok(made >= 3, `at least the third row was committed (${made} of ${ROWS} rows had a payout)`);
  assert.ok(atBank < made, `killed mid-file: ${atBank} of the ${made} committed rows had reached the bank`);

  const second = await children.start({});
  try {
    await waitFor('every row to succeed after restart', async () => {
      const r = await q.query(`SELECT f.status, (SELECT count(*)::int FROM payouts p WHERE p.bulk_file_id = f.id AND p.status = 'SUCCESS') AS ok
                                 FROM bulk_payout_files f WHERE f.id = $1`, [file.id]);
      return r.rows[0]?.status === 'COMPLETED' && r.rows[0]?.ok === ROWS ? true : undefined;
    }, 60_000);
    const perLine = await q.query('SELECT bulk_line, count(*)::int AS n FROM payouts WHERE bulk_file_id = $1 GROUP BY bulk_line ORDER BY bulk_line', [file.id]);
    assert.deepEqual(perLine.rows.map((r) => [r.bulk_line, r.n]), Array.from({ length: ROWS }, (_, i) => [i + 2, 1]), 'one payout per row');
    const ledger = await q.query(
      `SELECT p.bulk_line, count(l.*)::int AS n FROM payouts p LEFT JOIN sandbox_bank_ledger l ON l.reference = p.transaction_id
        WHERE p.bulk_file_id = $1 GROUP BY p.bulk_line ORDER BY p.bulk_line`,
      [file.id],
    );
    assert.deepEqual(ledger.rows.map((r) => r.n), Array.from({ length: ROWS }, () => 1), 'each row executed exactly once at the bank');
    const rowsLinked = await q.query('SELECT count(*)::int AS n FROM bulk_payout_rows WHERE file_id = $1 AND payout_id IS NOT NULL', [file.id]);
    assert.equal(rowsLinked.rows[0]!.n, ROWS);
  } finally {
    await stopChild(second);
  }
});
