/**
 * A settlement longer than one answer (issue #33 item 7): the sandbox lists its first 1,000 lines
 * and a cursor, the rest comes from its lines route 5,000 at a time, and the import streams every
 * page through the staging table; matching by joins keeps the break kinds, DUPLICATE across pages
 * included. The settlement is written into the sandbox's own tables (its settle makes one line per
 * paid collection; 12,000 of them would take minutes here); the import goes through HTTP as always.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceWithClient } from '../support/service.js';
import { paid, q, sync } from './helpers.js';

const w = serviceWithClient({ rateLimit: 100_000 });
const N = 12_000;

test('a 12,000-line settlement is fetched page by page and matched: the last page read, DUPLICATE across pages, stored once', async () => {
  const { t, client } = w;
  const a = await paid(t, client, 49_900);
  const b = await paid(t, client, 20_000);
  const sid = 'SBXSETLONG0000000001';
  // Line 1: a; line N-1: b; line N: a again (a DUPLICATE two pages after its first line); the rest
  // reference no order of ours (UNKNOWN_ORDER). Fee 2 %, GST 18 % of it, as the sandbox's rules.
  await q(
    t,
    `WITH l AS (
       SELECT n, CASE WHEN n IN (1, $3) THEN $4 WHEN n = $3 - 1 THEN $5 ELSE 'PONOSUCHORDER' || n END AS ref,
              CASE WHEN n IN (1, $3) THEN 49900 WHEN n = $3 - 1 THEN 20000 ELSE 10000 END AS amount
         FROM generate_series(1, $3::int) n),
     f AS (SELECT n, ref, amount, round(amount * 0.02)::bigint AS fee FROM l),
     g AS (SELECT n, ref, amount, fee, round(fee * 0.18)::bigint AS tax FROM f),
     s AS (INSERT INTO sandbox_settlements (id, merchant, utr, gross_paise, fees_paise, tax_paise, refunds_paise, net_paise)
           SELECT $1, $2, 'LONGUTR000000001', sum(amount), sum(fee), sum(tax), 0, sum(amount) - sum(fee) - sum(tax) FROM g RETURNING id)
     INSERT INTO sandbox_settlement_lines (id, settlement_id, type, collection_reference, provider_reference, amount_paise, fee_paise, tax_paise)
     SELECT s.id || '-' || lpad(n::text, 6, '0'), s.id, 'PAYMENT', ref, 'LONGPAY' || n, amount, fee, tax FROM g, s`,
    [sid, client.orgId, N, a.order_id, b.order_id],
  );

  assert.deepEqual(await sync(t, client.orgId), { settlements_new: 1, lines_new: N, matched: 2, breaks: N - 2 });
  assert.deepEqual(await sync(t, client.orgId), { settlements_new: 0, lines_new: 0, matched: 0, breaks: 0 }, 'stored once');

  const s = (await q(t, 'SELECT id, gross_paise, net_paise FROM settlements WHERE provider_settlement_id = $1', [sid])).rows[0];
  assert.equal(Number(s.gross_paise), 49_900 * 2 + 20_000 + 10_000 * (N - 3));
  const byMatch = (await q(t, 'SELECT match, count(*)::int AS n FROM settlement_lines WHERE settlement_id = $1 GROUP BY match ORDER BY match', [s.id])).rows;
  assert.deepEqual(byMatch, [{ match: 'DUPLICATE', n: 1 }, { match: 'MATCHED', n: 2 }, { match: 'UNKNOWN_ORDER', n: N - 3 }]);
  const last = (await q(t, `SELECT l.match, b.kind, b.expected_paise FROM settlement_lines l LEFT JOIN recon_breaks b ON b.line_id = l.id WHERE l.settlement_id = $1 AND l.provider_line_id = $2`, [s.id, `${sid}-${String(N).padStart(6, '0')}`])).rows;
  assert.deepEqual(last, [{ match: 'DUPLICATE', kind: 'DUPLICATE', expected_paise: 49_900 }]);
  const lastButOne = (await q(t, 'SELECT match, order_pk FROM settlement_lines WHERE settlement_id = $1 AND provider_line_id = $2', [s.id, `${sid}-${String(N - 1).padStart(6, '0')}`])).rows;
  assert.deepEqual(lastButOne, [{ match: 'MATCHED', order_pk: b.id }]);
  assert.equal((await q(t, 'SELECT count(*)::int AS n FROM recon_breaks WHERE settlement_id = $1', [s.id])).rows[0].n, N - 2);
  assert.equal((await q(t, 'SELECT count(*)::int AS n FROM settlement_line_staging')).rows[0].n, 0, 'nothing left in staging');
});
