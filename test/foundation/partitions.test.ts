/**
 * The time-partitioned tables' upkeep (src/store/partitions.ts, the partition worker; docs/scaling.md
 * "Partitions and retention"): weekly partitions kept ahead, partitions wholly older than
 * RETENTION_DAYS detached and dropped (the legacy one too), by one instance at a time; the provider
 * event de-duplication keys of dropped events deleted; RETENTION_DAYS refused at start when invalid.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { TestClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/observability/logger.js';
import { Metrics } from '../../src/observability/metrics.js';
import { maintainPartitions, partitionsOf } from '../../src/store/partitions.js';
import { insertEvents } from '../../src/store/repos/provider-events-repo.js';
import { PartitionUpkeep } from '../../src/services/shared/partition-upkeep.js';
import { createPartitionWorker } from '../../src/workers/partition-worker.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

const DAY = 86_400_000;
const TABLES = ['callback_deliveries', 'callback_delivery_attempts', 'console_sessions', 'provider_checks', 'provider_events'];
let t: TestDatabase;
let cutover: Date;
before(async () => {
  t = await createTestDatabase();
  cutover = (await t.db.query<{ legacy_upto: Date }>("SELECT legacy_upto FROM partitioned_tables WHERE table_name = 'callback_deliveries'")).rows[0]!.legacy_upto;
});
after(() => t.drop());

const event = (eventId: string) => ({ id: randomUUID(), provider: 'sandbox', eventId, providerAccountId: null, kind: 'collection', reference: 'r', payload: {}, rawBody: '{}' });

test('a new database: the five tables partitioned weekly, a legacy partition before the cutover (a Monday), four weeks ahead', async () => {
  assert.equal(cutover.getUTCDay(), 1);
  assert.equal(cutover.getUTCHours(), 0);
  for (const table of TABLES) {
    const parts = await partitionsOf(t.db, table);
    assert.equal(parts[0]!.name, `${table}_legacy`);
    assert.equal(parts[0]!.from, null);
    for (const [i, p] of parts.slice(1).entries()) {
      assert.equal(p.from!.getTime(), parts[i]!.to.getTime(), `${p.name} follows ${parts[i]!.name}`);
      assert.equal(p.to.getTime() - p.from!.getTime(), 7 * DAY);
    }
    assert.ok(parts.at(-1)!.to.getTime() >= Date.now() + 28 * DAY, `${table}: four weeks ahead`);
  }
});

test('a provider event is stored once, across partitions and concurrent transactions', async () => {
  const id = `dup-${randomUUID()}`;
  assert.deepEqual(await insertEvents(t.db, [event(id), event(id)]), [true, false], 'a repeat within the batch');
  assert.deepEqual(await insertEvents(t.db, [event(id)]), [false], 'a redelivery');
  const other = `race-${randomUUID()}`;
  const results = await Promise.all([0, 1, 2, 3].map(() => t.db.tx((tx) => insertEvents(tx, [event(other)]))));
  assert.equal(results.flat().filter(Boolean).length, 1, 'one of four concurrent inserts stores it');
  const n = await t.db.query<{ n: string }>("SELECT count(*) AS n FROM provider_events WHERE provider = 'sandbox' AND event_id = ANY($1)", [[id, other]]);
  assert.equal(Number(n.rows[0]!.n), 2);
});

test('partitions wholly older than the retention are detached and dropped, the legacy one too; one instance at a time; keys of dropped events go', async () => {
  const old = `old-${randomUUID()}`;
  const oldId = randomUUID();
  await t.db.query(
    `INSERT INTO provider_events (id, provider, event_id, kind, reference, payload, raw_body, received_at) VALUES ($1, 'sandbox', $2, 'collection', 'r', '{}', '{}', $3)`,
    [oldId, old, new Date(cutover.getTime() - 200 * DAY)],
  );
  // Months later (as seen by the worker): the retention (90 days) ends 10 days after the cutover.
  const now = new Date(cutover.getTime() + 100 * DAY);
  const rounds = await Promise.all([maintainPartitions(t.db, { now, retentionDays: 90 }), maintainPartitions(t.db, { now, retentionDays: 90 })]);
  const ran = rounds.filter((r) => r.ran);
  assert.ok(ran.length >= 1);
  const dropped = rounds.flatMap((r) => r.dropped.callback_deliveries ?? []);
  const firstWeek = `callback_deliveries_p${cutover.toISOString().slice(0, 10).replaceAll('-', '')}`;
  assert.deepEqual(dropped.sort(), ['callback_deliveries_legacy', firstWeek].sort(), 'each dropped once: the legacy partition and the first week (ends 7 days after the cutover)');
  for (const table of TABLES) {
    const parts = await partitionsOf(t.db, table);
    assert.equal(parts[0]!.from!.getTime(), cutover.getTime() + 7 * DAY, `${table}: the oldest kept partition starts a week after the cutover`);
    assert.ok(parts.at(-1)!.to.getTime() >= now.getTime() + 28 * DAY, `${table}: four weeks ahead of the worker's now`);
    const gone = await t.db.query("SELECT 1 FROM pg_class WHERE relname = $1", [`${table}_legacy`]);
    assert.equal(gone.rowCount, 0, `${table}_legacy dropped, not just detached`);
  }
  const kept = await t.db.query<{ kept_from: Date }>("SELECT kept_from FROM partitioned_tables WHERE table_name = 'callback_deliveries'");
  assert.equal(kept.rows[0]!.kept_from.getTime(), cutover.getTime() + 7 * DAY);
  const key = await t.db.query("SELECT 1 FROM provider_event_keys WHERE event_id = $1", [old]);
  assert.equal(key.rowCount, 0, 'the key of a dropped event is deleted');
  // Money records and audit logs are not partitioned and untouched.
  const partitioned = await t.db.query<{ relname: string }>("SELECT relname FROM pg_class WHERE relkind = 'p' AND relnamespace = 'public'::regnamespace ORDER BY relname");
  assert.deepEqual(partitioned.rows.map((r) => r.relname), [...TABLES].sort());
  // The next round finds nothing to do.
  const again = await maintainPartitions(t.db, { now, retentionDays: 90 });
  assert.deepEqual(Object.values(again.dropped).flat(), []);
  assert.deepEqual(Object.values(again.created), [0, 0, 0, 0, 0]);
});

test('the worker reads the clock: a week later it drops the next week and counts it on /metrics', async () => {
  const metrics = new Metrics();
  const log = createLogger('silent');
  const partitionUpkeep = new PartitionUpkeep({ db: t.db, log, metrics, config: { retentionDays: 90 } });
  // A week after the round above (as seen by the worker's clock): the second week has aged out.
  const clock = new TestClock(cutover.getTime() + 107 * DAY);
  const worker = createPartitionWorker({ partitionUpkeep, clock, log }, 60_000);
  worker.start();
  try {
    await worker.rounds(1);
    const text = await metrics.registry.metrics();
    assert.ok(text.includes('tijori_partitions_dropped_total{table="callback_deliveries"} 1'), text.split('\n').filter((l) => l.includes('partition')).join('\n'));
    assert.ok(text.includes('tijori_partitions_dropped_total{table="provider_events"} 1'));
    assert.match(text, /tijori_partition_ahead_seconds\{table="console_sessions"\} \d+/);
    // One more round at the same instant drops nothing more; a week on, the next week goes.
    await worker.rounds(1);
    assert.ok((await metrics.registry.metrics()).includes('tijori_partitions_dropped_total{table="callback_deliveries"} 1'));
    clock.advance(7 * DAY);
    await worker.rounds(1);
    assert.ok((await metrics.registry.metrics()).includes('tijori_partitions_dropped_total{table="callback_deliveries"} 2'));
  } finally {
    await worker.stop();
  }
});

test('the start makes the partitions ahead and the first round after it does not make them again; a later round does', async () => {
  const metrics = new Metrics();
  const log = createLogger('silent');
  const upkeep = new PartitionUpkeep({ db: t.db, log, metrics, config: { retentionDays: 90 } });
  // Past every partition so far (the test above went to 114 days on): each table needs new weeks.
  const later = new Date(cutover.getTime() + 160 * DAY);
  await upkeep.ahead(later);
  for (const table of TABLES) assert.ok((await partitionsOf(t.db, table)).at(-1)!.to.getTime() >= later.getTime() + 28 * DAY, `${table}: four weeks ahead of the start`);
  const created = async () => (await metrics.registry.metrics()).split('\n').filter((l) => l.startsWith('tijori_partitions_created_total{')).sort();
  assert.deepEqual(await created(), TABLES.map((table) => `tijori_partitions_created_total{table="${table}"} 0`), 'the start step counts nothing (an instance without the worker reports no partition figures)');
  await upkeep.round(new Date(later.getTime() + 7 * DAY));
  assert.deepEqual(await created(), TABLES.map((table) => `tijori_partitions_created_total{table="${table}"} 0`), 'the first round after the start did not create: a week ahead of the start is still short of its four weeks, and it skipped the creation');
  await upkeep.round(new Date(later.getTime() + 7 * DAY));
  assert.deepEqual(await created(), TABLES.map((table) => `tijori_partitions_created_total{table="${table}"} 1`), 'the next round creates the missing week');
});

test('RETENTION_DAYS: 90 by default; under 7, not a whole number, or shorter than a console session: refused at start', () => {
  const env = { DATA_DIR: '/tmp/tijori-config-probe' };
  assert.equal(loadConfig(env).retentionDays, 90);
  assert.equal(loadConfig({ ...env, RETENTION_DAYS: '7' }).retentionDays, 7);
  for (const bad of ['6', '0', '-1', '30.5', 'ninety']) {
    assert.throws(() => loadConfig({ ...env, RETENTION_DAYS: bad }), new RegExp(`RETENTION_DAYS must be a whole number of days, at least 7, got "${bad}"`));
  }
  assert.throws(() => loadConfig({ ...env, RETENTION_DAYS: '7', CONSOLE_ABSOLUTE_TIMEOUT_S: String(8 * 86_400) }), /RETENTION_DAYS \(7\) must be longer than CONSOLE_ABSOLUTE_TIMEOUT_S/);
});
