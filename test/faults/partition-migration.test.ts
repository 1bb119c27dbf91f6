/**
 * The move of today's high-volume tables to time partitions (migrations 0150-0154, docs/scaling.md
 * "Partitions and retention") is online: on a database seeded with callback deliveries (200,000 in
 * `npm test`; 10,000,000 with FAULTS_FULL=1, `npm run test:faults`) and the other four tables,
 * writers keep inserting deliveries, attempts and provider events and changing deliveries' status
 * while the migrations run, and
 *  - no write waits longer than MAX_STALL_MS (each write is timed; the longest is asserted),
 *  - no write fails, and none is lost: every row written before or during the migration is there
 *    afterwards, each status change too;
 *  - the five tables end partitioned, today's rows in the legacy partition, new ones in weekly ones.
 * The measured times (per migration, the longest stall) are printed for docs/scaling.md.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, test } from 'node:test';
import pg from 'pg';
import { migrate } from '../../src/store/migrate.js';
import { ensurePartitionsAhead } from '../../src/store/partitions.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

const FULL = process.env.FAULTS_FULL === '1';
const DELIVERIES = Number(process.env.PARTITION_TEST_DELIVERIES ?? (FULL ? 10_000_000 : 200_000));
const MAX_STALL_MS = 2_000;
const WRITERS = 4;
const ORG = '00000000-0000-7000-8000-0000000000aa';

let t: TestDatabase | undefined;
after(async () => {
  await t?.drop();
});

/** A uuid made of a one-digit prefix and a number: seeded ids are known without reading them. */
const seededId = (prefix: number, n: number) => {
  const hex = `${prefix}${n.toString(16).padStart(31, '0')}`;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

async function seed(url: string, deliveries: number): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const events = deliveries / 2;
    const chunk = 500_000;
    // Spread over the last 100 days; two deliveries (payin, payout) per event.
    const when = `now() - (g % 100) * interval '1 day' - (g % 86400) * interval '1 second'`;
    for (let from = 1; from <= events; from += chunk) {
      const to = Math.min(events, from + chunk - 1);
      await c.query(
        `INSERT INTO events (id, org_id, kind, aggregate_type, aggregate_id, body, created_at)
         SELECT ('1' || lpad(to_hex(g), 31, '0'))::uuid, $3, 'payment_order.paid', 'payment_order', ('4' || lpad(to_hex(g), 31, '0'))::uuid, '{"seeded":true}', ${when}
           FROM generate_series($1::int, $2::int) g`,
        [from, to, ORG],
      );
      await c.query(
        `INSERT INTO callback_deliveries (id, event_id, org_id, target, status, attempts, next_attempt_at, delivered_at, created_at, updated_at)
         SELECT ((CASE t WHEN 'payin' THEN '2' ELSE '3' END) || lpad(to_hex(g), 31, '0'))::uuid, ('1' || lpad(to_hex(g), 31, '0'))::uuid, $3, t,
                CASE WHEN g % 50 = 0 THEN 'pending' ELSE 'delivered' END, 1, now() + interval '1 day',
                CASE WHEN g % 50 = 0 THEN NULL ELSE ${when} END, ${when}, ${when}
           FROM generate_series($1::int, $2::int) g, unnest(ARRAY['payin', 'payout']) t`,
        [from, to, ORG],
      );
    }
    const small = Math.max(1_000, Math.floor(deliveries / 100));
    await c.query(
      `INSERT INTO callback_delivery_attempts (delivery_id, attempt_no, url, status_code, latency_ms, attempted_at)
       SELECT ('2' || lpad(to_hex(g), 31, '0'))::uuid, 1, 'https://example.test/hook', 200, 12, now() - (g % 100) * interval '1 day'
         FROM generate_series(1, $1::int) g`,
      [small],
    );
    await c.query(
      `INSERT INTO provider_events (id, provider, event_id, kind, reference, payload, raw_body, state, received_at, processed_at)
       SELECT ('5' || lpad(to_hex(g), 31, '0'))::uuid, 'sandbox', 'seeded-' || g, 'collection', 'ref-' || g, '{}', '{}', 'processed',
              now() - (g % 100) * interval '1 day', now() - (g % 100) * interval '1 day'
         FROM generate_series(1, $1::int) g`,
      [small],
    );
    await c.query(
      `INSERT INTO provider_checks (id, org_id, subject_type, subject_id, reason, provider, reference, answer, outcome, duration_ms, checked_at)
       SELECT ('6' || lpad(to_hex(g), 31, '0'))::uuid, $2, 'payment_order', ('4' || lpad(to_hex(g), 31, '0'))::uuid, 'live_check', 'sandbox', 'ref-' || g,
              'PENDING', 'unchanged', 20, now() - (g % 100) * interval '1 day'
         FROM generate_series(1, $1::int) g`,
      [small, ORG],
    );
    await c.query('VACUUM ANALYZE events, callback_deliveries, callback_delivery_attempts, provider_events, provider_checks');
  } finally {
    await c.end();
  }
}

interface WriterLog {
  ops: number;
  maxMs: number;
  maxOp: string;
  errors: string[];
  insertedDeliveries: string[];
  delivered: string[];
  attempts: number;
  providerEvents: string[];
}

/** One connection writing as the running service does, each write timed, until `stop()`. */
function writer(url: string, seededEvents: number, log: WriterLog): { stop: () => Promise<void> } {
  let running = true;
  const done = (async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    let i = 0;
    try {
      while (running) {
        i++;
        const op = i % 4;
        const started = performance.now();
        const name = ['insert event + delivery', 'status change', 'attempt', 'provider event'][op]!;
        try {
          if (op === 0) {
            const eventId = randomUUID();
            const deliveryId = randomUUID();
            await c.query('BEGIN');
            await c.query(`INSERT INTO events (id, org_id, kind, aggregate_type, aggregate_id, body) VALUES ($1, $2, 'payment_order.paid', 'payment_order', $1, '{}')`, [eventId, ORG]);
            await c.query(
              `INSERT INTO callback_deliveries (id, event_id, org_id, target, next_attempt_at, created_at)
               SELECT $1, $2, $3, 'payin', now() + interval '1 day', e.created_at FROM events e WHERE e.id = $2`,
              [deliveryId, eventId, ORG],
            );
            await c.query('COMMIT');
            log.insertedDeliveries.push(deliveryId);
          } else if (op === 1) {
            const id = seededId(2, 1 + Math.floor(Math.random() * seededEvents));
            const r = await c.query(
              `UPDATE callback_deliveries SET status = 'delivered', attempts = attempts + 1, delivered_at = now(), updated_at = now(), last_status_code = 299
                WHERE id = $1`,
              [id],
            );
            assert.equal(r.rowCount, 1, `delivery ${id} updated`);
            log.delivered.push(id);
          } else if (op === 2) {
            const id = seededId(3, 1 + Math.floor(Math.random() * seededEvents));
            await c.query(`INSERT INTO callback_delivery_attempts (delivery_id, attempt_no, url, status_code, latency_ms) VALUES ($1, 2, 'https://example.test/hook', 200, 9)`, [id]);
            log.attempts++;
          } else {
            const eventId = `during-${randomUUID()}`;
            await c.query(
              `INSERT INTO provider_events (id, provider, event_id, kind, reference, payload, raw_body) VALUES ($1, 'sandbox', $2, 'collection', 'ref', '{}', '{}')`,
              [randomUUID(), eventId],
            );
            log.providerEvents.push(eventId);
          }
        } catch (err) {
          log.errors.push(`${name}: ${(err as Error).message}`);
          await c.query('ROLLBACK').catch(() => undefined);
        }
        const ms = performance.now() - started;
        log.ops++;
        if (ms > log.maxMs) {
          log.maxMs = ms;
          log.maxOp = name;
        }
      }
    } finally {
      await c.end();
    }
  })();
  return {
    stop: async () => {
      running = false;
      await done;
    },
  };
}

test(`the move to partitions is online: ${DELIVERIES.toLocaleString('en')} deliveries, writes never blocked over ${MAX_STALL_MS} ms, nothing lost`, { timeout: FULL ? 3 * 60 * 60_000 : 10 * 60_000 }, async () => {
  t = await createTestDatabase({ migrated: false });
  await migrate(t.db, { before: '0150' });
  const seedStarted = performance.now();
  await seed(t.url, DELIVERIES);
  const seedMs = performance.now() - seedStarted;
  const before = Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM callback_deliveries')).rows[0]!.n);
  assert.equal(before, DELIVERIES);

  const log: WriterLog = { ops: 0, maxMs: 0, maxOp: '', errors: [], insertedDeliveries: [], delivered: [], attempts: 0, providerEvents: [] };
  const writers = Array.from({ length: WRITERS }, () => writer(t!.url, DELIVERIES / 2, log));
  await new Promise((r) => setTimeout(r, 500));
  const opsBefore = log.ops;
  const steps: Array<{ file: string; ms: number }> = [];
  let applied: string[];
  let migrationMs: number;
  let aheadMs: number;
  let opsDuring: number;
  try {
    const started = performance.now();
    applied = await migrate(t.db, { onApplied: (file, ms) => steps.push({ file, ms }) });
    migrationMs = performance.now() - started;
    // What the service does next at start: the weekly partitions ahead, one short transaction each.
    const aheadStarted = performance.now();
    await ensurePartitionsAhead(t.db, { now: new Date() });
    aheadMs = performance.now() - aheadStarted;
    opsDuring = log.ops - opsBefore;
    await new Promise((r) => setTimeout(r, 500));
  } finally {
    await Promise.all(writers.map((w) => w.stop()));
  }

  console.log(
    `# partition migration: ${DELIVERIES} deliveries seeded in ${(seedMs / 1000).toFixed(1)} s; migration ${(migrationMs / 1000).toFixed(1)} s ` +
      `(${steps.map((s) => `${s.file} ${(s.ms / 1000).toFixed(2)} s`).join(', ')}), then partitions ahead ${(aheadMs / 1000).toFixed(2)} s; ${log.ops} writes by ${WRITERS} writers, ${opsDuring} during the migration; ` +
      `longest write ${log.maxMs.toFixed(0)} ms (${log.maxOp})`,
  );
  // The partition steps first; later migrations (0155 on) run after them, under the same writers.
  assert.deepEqual(applied.slice(0, 5), ['0150_partitions_prepare.sql', '0151_partitions_validate.sql', '0152_provider_event_keys_fill.sql', '0153_partition_keys_concurrently.sql', '0154_partitions_attach.sql']);
  assert.deepEqual(log.errors, [], 'no write failed');
  assert.ok(log.maxMs < MAX_STALL_MS, `the longest write took ${log.maxMs.toFixed(0)} ms (${log.maxOp}), over ${MAX_STALL_MS} ms`);
  assert.ok(opsDuring > 20, `writes went on while the migration ran (${opsDuring})`);

  // Nothing lost.
  const q = <R extends pg.QueryResultRow>(sql: string, values?: unknown[]) => t!.db.query<R>(sql, values);
  const total = Number((await q<{ n: string }>('SELECT count(*) AS n FROM callback_deliveries')).rows[0]!.n);
  assert.equal(total, DELIVERIES + log.insertedDeliveries.length, 'every delivery, seeded or written during the migration');
  const found = await q<{ n: string }>('SELECT count(*) AS n FROM callback_deliveries WHERE id = ANY($1::uuid[])', [log.insertedDeliveries]);
  assert.equal(Number(found.rows[0]!.n), log.insertedDeliveries.length);
  const changed = await q<{ n: string }>("SELECT count(DISTINCT id) AS n FROM callback_deliveries WHERE id = ANY($1::uuid[]) AND status = 'delivered' AND last_status_code = 299", [log.delivered]);
  assert.equal(Number(changed.rows[0]!.n), new Set(log.delivered).size, 'every status change kept');
  const pe = await q<{ n: string; k: string }>(
    `SELECT (SELECT count(*) FROM provider_events WHERE provider = 'sandbox' AND event_id = ANY($1::text[])) AS n,
            (SELECT count(*) FROM provider_event_keys WHERE provider = 'sandbox' AND event_id = ANY($1::text[])) AS k`,
    [log.providerEvents],
  );
  assert.equal(Number(pe.rows[0]!.n), log.providerEvents.length, 'every provider event written meanwhile');
  assert.equal(Number(pe.rows[0]!.k), log.providerEvents.length, 'and its de-duplication key');
  const keys = await q<{ n: string }>("SELECT count(*) AS n FROM provider_event_keys WHERE event_id LIKE 'seeded-%'");
  assert.equal(Number(keys.rows[0]!.n), Math.max(1_000, Math.floor(DELIVERIES / 100)), 'the keys of the provider events stored before');
  const attempts = await q<{ n: string }>("SELECT count(*) AS n FROM callback_delivery_attempts WHERE attempt_no = 2");
  assert.equal(Number(attempts.rows[0]!.n), log.attempts);

  // Partitioned, the old rows in the legacy partition, nothing left invalid.
  const kinds = await q<{ relname: string; relkind: string }>(
    "SELECT relname, relkind::text FROM pg_class WHERE relname IN ('callback_deliveries', 'callback_delivery_attempts', 'provider_events', 'provider_checks', 'console_sessions') AND relnamespace = 'public'::regnamespace ORDER BY relname",
  );
  assert.deepEqual(kinds.rows.map((r) => r.relkind), ['p', 'p', 'p', 'p', 'p']);
  const legacy = await q<{ n: string }>('SELECT count(*) AS n FROM callback_deliveries_legacy');
  assert.equal(Number(legacy.rows[0]!.n), total, 'until the cutover, new rows go to the legacy partition too');
  const invalid = await q<{ n: string }>('SELECT count(*) AS n FROM pg_index WHERE NOT indisvalid');
  assert.equal(Number(invalid.rows[0]!.n), 0);

  // A row past the cutover goes to its weekly partition.
  const cutover = (await q<{ legacy_upto: Date }>("SELECT legacy_upto FROM partitioned_tables WHERE table_name = 'callback_deliveries'")).rows[0]!.legacy_upto;
  const laterEvent = randomUUID();
  await q(`INSERT INTO events (id, org_id, kind, aggregate_type, aggregate_id, body, created_at) VALUES ($1, $2, 'payment_order.paid', 'payment_order', $1, '{}', $3::timestamptz + interval '1 day')`, [laterEvent, ORG, cutover]);
  await q(`INSERT INTO callback_deliveries (id, event_id, org_id, target, created_at) SELECT $2, id, org_id, 'payin', created_at FROM events WHERE id = $1`, [laterEvent, randomUUID()]);
  const where = await q<{ part: string }>('SELECT tableoid::regclass::text AS part FROM callback_deliveries WHERE event_id = $1', [laterEvent]);
  assert.match(where.rows[0]!.part, /^callback_deliveries_p\d{8}$/);

  // A duplicate provider event is refused across partitions, through the key table.
  const dup = await q<{ id: string }>(
    `INSERT INTO provider_events (id, provider, event_id, kind, reference, payload, raw_body) VALUES ($1, 'sandbox', 'seeded-7', 'collection', 'ref', '{}', '{}') RETURNING id`,
    [randomUUID()],
  );
  assert.equal(dup.rowCount, 0, 'an event stored before the migration is still a duplicate');
});
