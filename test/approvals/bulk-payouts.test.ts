/**
 * Bulk payout files (contract §6, issue #21 item 2) against the real service, PostgreSQL and the
 * sandbox bank: the CSV edge cases (BOM, CRLF, quoted commas and quotes, formula cells), every bad
 * row reported with its line before anything is created, the same file refused twice, the preview's
 * totals, the uploader refused as checker, a file approved (every row paid once, results CSV with
 * formula cells neutralised) or rejected (nothing paid), and 10,000 rows in one file.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type ConsoleCaller, signedInUser } from '../support/console.js';
import { type PayoutWorld, startPayoutWorld, waitFor } from '../payout/helpers.js';

let w: PayoutWorld;
let maker: ConsoleCaller & { userId: string };
let checker: ConsoleCaller & { userId: string };
let viewer: ConsoleCaller & { userId: string };

const HEADER = 'name,account_number,ifsc,mobile,amount_paise,mode,remarks,client_reference';

async function upload(c: ConsoleCaller, fileName: string, content: string | Buffer) {
  const res = await fetch(`${w.t.svc.publicUrl}/console/api/bulk-payouts?file_name=${encodeURIComponent(fileName)}`, {
    method: 'POST',
    headers: { 'content-type': 'text/csv', cookie: c.cookie!, 'x-csrf-token': c.csrf! },
    body: content,
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), text };
}

async function count(sql: string, params: unknown[]): Promise<number> {
  return Number((await w.t.database.db.query<{ n: number }>(sql, params)).rows[0]!.n);
}

before(async () => {
  w = await startPayoutWorld();
  maker = await signedInUser(w.t, w.client.orgId, 'bulk-maker@example.com', 'maker');
  checker = await signedInUser(w.t, w.client.orgId, 'bulk-checker@example.com', 'checker');
  viewer = await signedInUser(w.t, w.client.orgId, 'bulk-viewer@example.com', 'viewer');
});
after(() => w?.t.stop());

/** BOM, CRLF, a quoted name with a comma, a quoted remark with quotes, formula-looking cells. */
const GOOD = Buffer.from(
  '\uFEFF' +
    [
      HEADER,
      '"Sharma, Ravi",50100012340001,HDFC0000001,9812345601,150000,IMPS,"invoice ""A-1"", May",BULK-1',
      "\"=cmd|' /C calc'!A0\",50100012340002,hdfc0000001,9812345602,250000,NEFT,+SUM(1+1),@evil",
      'Kiran Rao,50100012340003,HDFC0000001,9812345603,20000000,RTGS,-2+3,BULK-3',
      'Meena Iyer,50100012340004,HDFC0000001,9812345604,99900,imps,,',
    ].join('\r\n') +
    '\r\n',
);

let goodFile: any;

test('a good file: BOM, CRLF, quoted commas and formula cells are read as data; the preview has count, total and totals per mode', async () => {
  const r = await upload(maker, 'vendors-may.csv', GOOD);
  assert.equal(r.status, 201, r.text);
  goodFile = r.body.data;
  assert.equal(goodFile.status, 'PENDING_APPROVAL');
  assert.equal(goodFile.row_count, 4);
  assert.equal(goodFile.total_paise, 150000 + 250000 + 20000000 + 99900);
  assert.deepEqual(goodFile.totals_by_mode, {
    IMPS: { count: 2, total_paise: 249900 },
    NEFT: { count: 1, total_paise: 250000 },
    RTGS: { count: 1, total_paise: 20000000 },
  });
  assert.equal(goodFile.uploader, 'bulk-maker@example.com');
  const rows = await w.t.database.db.query('SELECT line, name, remarks, mode FROM bulk_payout_rows WHERE file_id = $1 ORDER BY line', [goodFile.id]);
  assert.deepEqual(rows.rows.map((x: any) => [x.line, x.name, x.mode]), [[2, 'Sharma, Ravi', 'IMPS'], [3, "=cmd|' /C calc'!A0", 'NEFT'], [4, 'Kiran Rao', 'RTGS'], [5, 'Meena Iyer', 'IMPS']]);
  assert.equal(rows.rows[0]!.remarks, 'invoice "A-1", May');
  assert.equal(await count('SELECT count(*)::int AS n FROM payouts WHERE bulk_file_id = $1', [goodFile.id]), 0, 'nothing is paid before approval');
});

test('the same file uploaded again is refused (409 DUPLICATE_FILE), under any name', async () => {
  const r = await upload(maker, 'copy.csv', GOOD);
  assert.equal(r.status, 409, r.text);
  assert.equal(r.body.error.code, 'DUPLICATE_FILE');
  // Issue #29 item 5: the same rows in other bytes are the same payroll — a trailing newline more,
  // LF line ends without the BOM, a space after a header comma, another row order.
  const text = GOOD.toString('utf8');
  const lines = text.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
  for (const [what, variant] of [
    ['a trailing newline', `${text}\r\n`],
    ['LF, no BOM', `${lines.join('\n')}\n`],
    ['a space in the header', `${lines[0]!.replace(',ifsc', ', ifsc')}\n${lines.slice(1).join('\n')}\n`],
    ['rows reordered', `${lines[0]}\n${lines.slice(1).reverse().join('\n')}\n`],
  ] as const) {
    const again = await upload(maker, `copy-${what}.csv`, variant);
    assert.equal(again.status, 409, `${what}: ${again.text}`);
    assert.equal(again.body.error.code, 'DUPLICATE_FILE');
  }
});

test('bad rows: every problem with its line number, nothing created, values never echoed', async () => {
  const before = await count('SELECT count(*)::int AS n FROM bulk_payout_files', []);
  const bad = [
    HEADER,
    'Good Row,50100012349999,HDFC0000001,9812345699,10000,IMPS,,',
    "\"=cmd|' /C calc'!A0\",12ab,ABCD0XXXXXX,12345,10000,IMPS,,",
    'Too Big,50100012349998,HDFC0000001,9812345698,60000000,IMPS,,',
    'Small RTGS,50100012349997,HDFC0000001,9812345697,100000,RTGS,,',
    'Bad mode,50100012349996,HDFC0000001,9812345696,10000,UPI,,',
    'Short,row',
    'Money,50100012349995,HDFC0000001,9812345695,12.50,NEFT,,',
  ].join('\n');
  const r = await upload(maker, 'bad.csv', bad);
  assert.equal(r.status, 422, r.text);
  assert.equal(r.body.error.code, 'VALIDATION_FAILED');
  const fields = r.body.error.details.map((d: any) => d.field);
  assert.deepEqual(fields, [
    'line 3: account_number', 'line 3: ifsc', 'line 3: mobile',
    'line 4: amount_paise', 'line 5: amount_paise', 'line 6: mode', 'line 7: row', 'line 8: amount_paise',
  ]);
  assert.match(r.body.error.message, /Nothing was created: 8 problems on 6 lines/);
  assert.doesNotMatch(r.text, /cmd\|/, 'a cell is never echoed back');
  assert.equal(await count('SELECT count(*)::int AS n FROM bulk_payout_files', []), before);

  const header = await upload(maker, 'header.csv', 'name,account,ifsc\nA,1,2\n');
  assert.equal(header.status, 422, header.text);
  assert.equal(header.body.error.details[0].field, 'line 1: header');
  const quote = await upload(maker, 'quote.csv', `${HEADER}\n"Open quote,50100012349994,HDFC0000001,9812345694,10000,IMPS,,\n`);
  assert.equal(quote.status, 422, quote.text);
  assert.match(quote.body.error.details[0].field, /^line \d+: file$/);
  const empty = await upload(maker, 'empty.csv', `${HEADER}\n`);
  assert.equal(empty.status, 422, empty.text);
  assert.equal(empty.body.error.details[0].field, 'line 2: file');
});

test('the uploader may not decide the file; a viewer may not upload; a checker approves: every row paid exactly once, progress, results CSV neutralised', async () => {
  const own = await upload(checker, 'checker-own.csv', `${HEADER}\nOwn File,50100012348888,HDFC0000001,9812345688,10000,IMPS,,\n`);
  assert.equal(own.status, 403, own.text); // a checker cannot make
  const self = await maker.call('POST', `/bulk-payouts/${goodFile.id}/approve`, {});
  assert.equal(self.status, 403, self.text);
  assert.equal((await viewer.call('POST', `/bulk-payouts/${goodFile.id}/approve`, {})).status, 403);
  const v = await upload(viewer, 'viewer.csv', `${HEADER}\nViewer,50100012347777,HDFC0000001,9812345677,10000,IMPS,,\n`);
  assert.equal(v.status, 403, v.text);

  const r = await checker.call('POST', `/bulk-payouts/${goodFile.id}/approve`, {});
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.data.status, 'APPROVED');
  const again = await checker.call('POST', `/bulk-payouts/${goodFile.id}/approve`, {});
  assert.ok(again.status === 409, again.text);

  const done = await waitFor('the file to be submitted and settled', async () => {
    const g = await viewer.call('GET', `/bulk-payouts/${goodFile.id}`);
    const d = g.body.data;
    return d.status === 'COMPLETED' && d.progress.succeeded === 4 ? d : undefined;
  }, 30_000);
  assert.deepEqual(done.progress, { created: 4, not_created: 0, succeeded: 4, failed: 0 });
  assert.equal(await count('SELECT count(*)::int AS n FROM payouts WHERE bulk_file_id = $1', [goodFile.id]), 4);
  const executed = await count(
    'SELECT count(*)::int AS n FROM sandbox_bank_ledger l JOIN payouts p ON p.transaction_id = l.reference WHERE p.bulk_file_id = $1',
    [goodFile.id],
  );
  assert.equal(executed, 4, 'one transfer per row');
  const people = await w.t.database.db.query('SELECT DISTINCT maker_user_id, checker_user_id, approval_required FROM payouts WHERE bulk_file_id = $1', [goodFile.id]);
  assert.deepEqual(people.rows, [{ maker_user_id: maker.userId, checker_user_id: checker.userId, approval_required: true }]);

  const res = await fetch(`${w.t.svc.publicUrl}/console/api/bulk-payouts/${goodFile.id}/results.csv`, { headers: { cookie: viewer.cookie! } });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /text\/csv/);
  const csv = await res.text();
  const lines = csv.trim().split('\n');
  assert.equal(lines[0], 'line,name,account_number_last4,ifsc,amount_paise,amount_inr,mode,remarks,client_reference,payout_id,transaction_id,status,utr,failure_reason');
  assert.equal(lines.length, 5);
  assert.ok(lines.every((l) => l.split(',').slice(1).every((cell) => !/^"?[=+\-@]/.test(cell))), csv);
  assert.ok(csv.includes(`"'=cmd|' /C calc'!A0"`) || csv.includes(`'=cmd|' /C calc'!A0`), csv);
  assert.ok(csv.includes("'+SUM(1+1)") && csv.includes("'@evil") && csv.includes("'-2+3"), csv);
  assert.match(csv, /"Sharma, Ravi"/);
  assert.equal((csv.match(/,SUCCESS,/g) ?? []).length, 4);

  const audit = await viewer.call('GET', '/audit-log?limit=200');
  const actions = audit.body.data.filter((e: any) => e.target_id === goodFile.id).map((e: any) => e.action).sort();
  assert.deepEqual(actions, ['bulk_file.approved', 'bulk_file.uploaded']);
});

test('a rejected file pays nothing', async () => {
  const r = await upload(maker, 'reject-me.csv', `${HEADER}\nNo Pay,50100012346666,HDFC0000001,9812345666,10000,IMPS,,\n`);
  assert.equal(r.status, 201, r.text);
  assert.equal((await checker.call('POST', `/bulk-payouts/${r.body.data.id}/reject`, { note: '' })).status, 422);
  const rej = await checker.call('POST', `/bulk-payouts/${r.body.data.id}/reject`, { note: 'wrong month' });
  assert.equal(rej.status, 200, rej.text);
  assert.equal(rej.body.data.status, 'REJECTED');
  assert.equal(rej.body.data.decision_note, 'wrong month');
  // Rounds of the file worker begun after the rejection: a rejected file is never taken.
  await w.t.workerRounds('bulk-payouts');
  assert.equal(await count('SELECT count(*)::int AS n FROM payouts WHERE bulk_file_id = $1', [r.body.data.id]), 0);
  assert.equal((await checker.call('POST', `/bulk-payouts/${r.body.data.id}/approve`, {})).status, 409);
});

test('10,000 rows are accepted in one file', async () => {
  const rows = [HEADER];
  for (let i = 0; i < 10_000; i++) rows.push(`Vendor ${i},${String(60_000_000_000 + i)},HDFC0000001,98${String(10_000_000 + i).padStart(8, '0')},${1000 + i},NEFT,bulk row ${i},TENK-${i}`);
  const t0 = Date.now();
  const r = await upload(maker, 'ten-thousand.csv', rows.join('\n'));
  assert.equal(r.status, 201, r.text.slice(0, 500));
  assert.equal(r.body.data.row_count, 10_000);
  assert.equal(r.body.data.total_paise, 10_000 * 1000 + (9_999 * 10_000) / 2);
  assert.equal(await count('SELECT count(*)::int AS n FROM bulk_payout_rows WHERE file_id = $1', [r.body.data.id]), 10_000);
  console.log(`# 10,000-row upload answered in ${Date.now() - t0} ms`);
  const over = await upload(maker, 'too-many.csv', `${rows.join('\n')}\nOne More,60000099999,HDFC0000001,9899999999,1000,NEFT,,\n`);
  assert.equal(over.status, 422, over.text.slice(0, 500));
  assert.match(over.text, /more than 10000 rows/);
});
