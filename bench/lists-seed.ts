/**
 * Seeds the tables of the lists scenario (bench/lists-scenario.ts) with set-based SQL: `orders`
 * payment orders and `payouts` payouts (one attempt each), spread over several organizations and
 * clients with the weights given, over the `days` before now with a daily rhythm (busy afternoons,
 * quiet nights), in final states with realistic shares, ids time-ordered as the service makes them
 * (UUIDv7 stamped with created_at, src/store/row-id.ts) and order_ids derived from the ids exactly as
 * orderIdFor does (so look-ups by order_id work on seeded rows). Rows are inserted oldest first in
 * batches, as traffic would have added them.
 *
 * The secondary indexes are dropped for the load and built again after it (their definitions
 * read from the catalog, so they are exactly the migrations'): inserting 10,000,000 rows one index
 * entry at a time ran at ~3,500 rows/s on the shared 2-core VM, 47 minutes. The rebuilt indexes are denser than grown ones: the list indexes are (.., created_at
 * DESC, id DESC), so time-ordered inserts always land on the leftmost leaf of their range, whose
 * splits leave the right half at 50 % (a grown index measured ~100 bytes per 48-byte entry). A
 * list page reads the same one or two leaf pages either way; the grown index needs ~2× the memory.
 *
 * Not seeded: history rows, idempotency keys and events (no list or search reads them; the
 * table-size scenario of seed.ts has them). No seeded order is open and no seeded payout is in
 * flight, so the expiry and payout workers have nothing to do with them during the measurements.
 */
import pg from 'pg';

export interface Tenant {
  orgId: string;
  clientPk: string;
  /** Share of the rows (any positive number; normalised over the tenants). */
  weight: number;
}

export interface ListSeedSpec {
  orders: number;
  payouts: number;
  tenants: Tenant[];
  days: number;
}

export interface ListSeedResult {
  orders: number;
  payouts: number;
  seconds: number;
  /** Seconds until every row was in (orders and payouts loaded at once on `parallel` connections). */
  load_seconds: number;
  payouts_load_seconds: number;
  /** Table + index sizes after seeding (pg_total_relation_size), MB. */
  orders_mb: number;
  payouts_mb: number;
  /** Seconds each secondary index took to build over the loaded rows. */
  index_build_seconds: Record<string, number>;
}

const BATCH = 250_000;
/** How peaked the day is: density 1 / (1 + A cos 2πu) over the day's fraction u, 5.7× from night to peak. */
const DAILY_A = 0.7;

/** Final order states and their shares (open orders are left to the run itself). */
const ORDER_STATUSES: Array<[string, number]> = [
  ['PAID', 0.66],
  ['EXPIRED', 0.23],
  ['FAILED', 0.06],
  ['CANCELLED', 0.025],
  ['REFUNDED', 0.015],
  ['MANUALLY_CONFIRMED', 0.01],
];
const PAYOUT_STATUSES: Array<[string, number]> = [
  ['SUCCESS', 0.93],
  ['FAILED', 0.07],
];
const PAYOUT_MODES: Array<[string, number]> = [
  ['IMPS', 0.75],
  ['NEFT', 0.2],
  ['RTGS', 0.05],
];
const BENEFICIARIES_PER_CLIENT = 500;

/** Lower bounds of the buckets of width_bucket(random(), bounds): [0, w1, w1+w2, ...] of normalised weights. */
function bounds(weights: number[]): number[] {
  const total = weights.reduce((a, b) => a + b, 0);
  const out: number[] = [];
  let acc = 0;
  for (const w of weights) {
    out.push(acc / total);
    acc += w;
  }
  return out;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * SQL of orderIdFor(id) (src/services/payin/payment-order-view.ts): `PO` + the id's 128 bits, padded to
 * 130, in 26 Crockford base32 digits. `bits` is the column holding the id as bit(130).
 */
function orderIdSql(bits: string): string {
  const digits = Array.from({ length: 26 }, (_x, k) => `substr('${CROCKFORD}', substring(${bits} FROM ${k * 5 + 1} FOR 5)::bit(5)::int + 1, 1)`);
  return `'PO' || ${digits.join(' || ')}`;
}

/** A UUIDv7 stamped with `ts` (milliseconds), random elsewhere: what newRowId() makes at that moment. */
const uuidV7Sql = (ts: string) =>
  `encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) PLACING substring(int8send(floor(extract(epoch FROM ${ts}) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid`;

/**
 * Rows from..to of n, in time order: created_at over `days` days ending now, each day's fraction
 * u mapped to u + A/2π sin 2πu (monotone, so ids stay time-ordered). Columns: g, created_at and
 * five independent random() draws r1..r5.
 */
const timeline = `
  SELECT g, $start::timestamptz + make_interval(days => floor(p)::int) + (p - floor(p) + ${DAILY_A} / (2 * pi()) * sin(2 * pi() * (p - floor(p)))) * interval '1 day' AS created_at,
         random() AS r1, random() AS r2, random() AS r3, random() AS r4, random() AS r5
    FROM (SELECT g, (g - 1)::float8 * $days / $n AS p FROM generate_series($from::bigint, $to::bigint) g) x`;

/** Replaces $name placeholders with positional ones for pg. */
function named(sql: string, values: Record<string, unknown>): { text: string; params: unknown[] } {
  const names = Object.keys(values);
  const text = sql.replace(/\$([a-z][a-zA-Z]*)/g, (_m, name: string) => {
    const i = names.indexOf(name);
    if (i < 0) throw new Error(`no value for $${name}`);
    return `$${i + 1}`;
  });
  return { text, params: names.map((n) => values[n]) };
}

const ORDERS_SQL = `
  WITH t AS (${timeline}),
       s AS (SELECT t.*, ${uuidV7Sql('created_at')} AS id, width_bucket(r1, $tenantBounds::float8[]) AS ti,
                    ($orderStatuses::text[])[width_bucket(r2, $orderStatusBounds::float8[])] AS status,
                    CASE WHEN r3 < 0.7 THEN 'INTENT' ELSE 'CHECKOUT' END AS mode
               FROM t),
       b AS (SELECT s.*, (('x' || encode(uuid_send(id), 'hex'))::bit(128) || B'00') AS bits FROM s)
  INSERT INTO payment_orders (id, order_id, org_id, client_pk, merchant_order_reference, amount_paise, purpose, response_mode, status,
                              provider, provider_status, provider_reference, upi_uri, customer_name, customer_email, customer_phone,
                              customer_consent_at, expires_in_minutes, expires_at, bank_transaction_id, confirmed_at, failure_reason,
                              created_at, updated_at)
  SELECT id, oid, ($orgs::uuid[])[ti], ($clients::uuid[])[ti],
         CASE WHEN r4 < 0.9 THEN 'INV-' || ti || '-' || g END,
         least(10000000000, 100 + floor(exp(6 + r5 * 9)))::bigint,
         'Order payment', mode, status, 'sandbox',
         CASE status WHEN 'PAID' THEN 'SUCCESS' WHEN 'REFUNDED' THEN 'SUCCESS' WHEN 'FAILED' THEN 'FAILED' WHEN 'EXPIRED' THEN 'PENDING' ELSE 'PENDING' END,
         'SBX' || g,
         CASE WHEN mode = 'INTENT' THEN 'upi://pay?pa=tijori.sandbox@upi&pn=Tijori&tr=' || oid || '&cu=INR' END,
         CASE WHEN mode = 'INTENT' THEN 'Customer ' || (g % 9973) END,
         CASE WHEN mode = 'INTENT' THEN 'customer' || (g % 9973) || '@example.com' END,
         CASE WHEN mode = 'INTENT' THEN '98' || lpad((g % 100000000)::text, 8, '0') END,
         CASE WHEN mode = 'INTENT' THEN created_at END,
         30, created_at + interval '30 minutes',
         CASE WHEN status IN ('PAID', 'REFUNDED', 'MANUALLY_CONFIRMED') THEN lpad((300000000000 + g)::text, 12, '0') END,
         CASE WHEN status IN ('PAID', 'REFUNDED', 'MANUALLY_CONFIRMED') THEN created_at + interval '47 seconds' END,
         CASE WHEN status = 'FAILED' THEN 'Declined by the payer''s bank' END,
         created_at, created_at + interval '30 minutes'
    FROM (SELECT b.*, ${orderIdSql('bits')} AS oid FROM b) o`;

const PAYOUTS_SQL = `
  WITH t AS (${timeline}),
       s AS (SELECT t.*, ${uuidV7Sql('created_at')} AS id, width_bucket(r1, $tenantBounds::float8[]) AS ti,
                    ($payoutStatuses::text[])[width_bucket(r2, $payoutStatusBounds::float8[])] AS status,
                    ($payoutModes::text[])[width_bucket(r3, $payoutModeBounds::float8[])] AS mode,
                    floor(r4 * ${BENEFICIARIES_PER_CLIENT})::int AS k
               FROM t),
       p AS (INSERT INTO payouts (id, transaction_id, org_id, client_pk, bank_connection_id, beneficiary_id, beneficiary_name, beneficiary_last4,
                                  beneficiary_ifsc, beneficiary_bank_name, amount_paise, mode, client_reference, remarks, status, failure_reason,
                                  bank_reference, utr, processed_at, created_at, updated_at)
             SELECT s.id, 'TJP' || upper(substr(md5(s.id::text), 1, 20)), ($orgs::uuid[])[s.ti], ($clients::uuid[])[s.ti], ($connections::uuid[])[s.ti],
                    b.id, b.name, b.account_number_last4, b.ifsc, b.bank_name,
                    CASE WHEN s.mode = 'RTGS' THEN 20000000 + floor(r5 * 500000000) ELSE least(20000000, 100 + floor(exp(8 + r5 * 8))) END::bigint,
                    s.mode, CASE WHEN r5 < 0.85 THEN 'VND-' || s.ti || '-' || g END, 'Vendor payment', s.status,
                    CASE WHEN s.status = 'FAILED' THEN 'Beneficiary account closed' END,
                    'SBXB' || g,
                    CASE WHEN s.status = 'SUCCESS' THEN
                      CASE s.mode WHEN 'IMPS' THEN lpad((500000000000 + g)::text, 12, '0') WHEN 'NEFT' THEN 'SBINN' || lpad(g::text, 11, '0') ELSE 'SBINR' || lpad(g::text, 17, '0') END
                    END,
                    created_at + interval '9 seconds', created_at, created_at + interval '9 seconds'
               FROM s JOIN bench_seed_beneficiaries b ON b.ti = s.ti AND b.k = s.k
             RETURNING id, status, bank_reference, utr, failure_reason, created_at)
  INSERT INTO payout_attempts (id, payout_id, attempt_no, status, bank_reference, utr, failure_reason, submitted_at, next_check_at, created_at, updated_at)
  SELECT ${uuidV7Sql('created_at')}, id, 1, status, bank_reference, utr, failure_reason, created_at + interval '1 second', created_at + interval '9 seconds',
         created_at, created_at + interval '9 seconds'
    FROM p`;

/** BENEFICIARIES_PER_CLIENT beneficiaries of each tenant's client, numbered (ti, k) for the payouts' join. */
async function seedBeneficiaries(c: pg.Client, tenants: Tenant[]): Promise<void> {
  await c.query(`CREATE TEMP TABLE bench_seed_beneficiaries (ti int, k int, id uuid, name text, account_number_last4 text, ifsc text, bank_name text, PRIMARY KEY (ti, k))`);
  const { text, params } = named(
    `WITH n AS (SELECT ti, k, gen_random_uuid() AS id FROM generate_series(1, cardinality($orgs::uuid[])) ti, generate_series(0, ${BENEFICIARIES_PER_CLIENT - 1}) k),
          b AS (INSERT INTO beneficiaries (id, org_id, client_pk, name, account_number_enc, account_number_last4, account_lookup, ifsc, bank_name, mobile)
                SELECT id, ($orgs::uuid[])[ti], ($clients::uuid[])[ti], 'Vendor ' || ti || '-' || k, uuid_send(gen_random_uuid()),
                       lpad(((ti * 7919 + k) % 10000)::text, 4, '0'), uuid_send(id), 'HDFC0' || lpad(k::text, 6, '0'), 'HDFC Bank', '9876543210'
                  FROM n RETURNING id, name, account_number_last4, ifsc, bank_name)
     INSERT INTO bench_seed_beneficiaries SELECT n.ti, n.k, b.id, b.name, b.account_number_last4, b.ifsc, b.bank_name FROM n JOIN b USING (id)`,
    { orgs: tenants.map((t) => t.orgId), clients: tenants.map((t) => t.clientPk) },
  );
  await c.query(text, params);
}

/** Secondary indexes of the seeded tables that no constraint owns: dropped for the load, rebuilt after it. */
async function droppableIndexes(c: pg.Client): Promise<Array<{ name: string; def: string }>> {
  const r = await c.query<{ name: string; def: string }>(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def
       FROM pg_index i LEFT JOIN pg_constraint k ON k.conindid = i.indexrelid
      WHERE i.indrelid = ANY(ARRAY['payment_orders', 'payouts', 'payout_attempts']::regclass[]) AND k.oid IS NULL
      ORDER BY 1`,
  );
  return r.rows;
}

/** Rows from..to in BATCH-row statements on one connection. */
async function inBatches(c: pg.Client, sql: string, n: number, range: [number, number], values: Record<string, unknown>): Promise<void> {
  for (let from = range[0]; from <= range[1]; from += BATCH) {
    const { text, params } = named(sql, { ...values, n, from, to: Math.min(range[1], from + BATCH - 1) });
    await c.query(text, params);
  }
}

/** `parts` contiguous ranges covering 1..n. */
function split(n: number, parts: number): Array<[number, number]> {
  const size = Math.ceil(n / parts);
  const out: Array<[number, number]> = [];
  for (let from = 1; from <= n; from += size) out.push([from, Math.min(n, from + size - 1)]);
  return out;
}

async function connect(dbUrl: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: dbUrl, application_name: 'bench-seed' });
  await c.connect();
  // Each batch is one statement and the database is thrown away after the run: no need to wait for each commit's flush.
  await c.query('SET synchronous_commit = off');
  await c.query(`SET maintenance_work_mem = '256MB'`);
  return c;
}

/**
 * Seeds the tables; no service may be using the database meanwhile (its workers would scan the
 * tables while their indexes are missing). `parallel` connections load and build at once.
 */
export async function seedLists(dbUrl: string, spec: ListSeedSpec, parallel = 3): Promise<ListSeedResult> {
  const started = Date.now();
  const cs = await Promise.all(Array.from({ length: parallel }, () => connect(dbUrl)));
  const c = cs[0] as pg.Client;
  try {
    const { tenants } = spec;
    const orgs = tenants.map((t) => t.orgId);
    const connections = (
      await c.query<{ org_id: string; id: string }>('SELECT DISTINCT ON (org_id) org_id, id FROM bank_connections WHERE org_id = ANY($1::uuid[]) ORDER BY org_id, created_at', [orgs])
    ).rows;
    const indexes = await droppableIndexes(c);
    for (const i of indexes) await c.query(`DROP INDEX ${i.name}`);
    const common = {
      orgs,
      clients: tenants.map((t) => t.clientPk),
      tenantBounds: bounds(tenants.map((t) => t.weight)),
      start: new Date(Date.now() - spec.days * 86_400_000),
      days: spec.days,
    };
    const orderValues = { ...common, orderStatuses: ORDER_STATUSES.map(([s]) => s), orderStatusBounds: bounds(ORDER_STATUSES.map(([, w]) => w)) };
    const payoutValues = {
      ...common,
      // A payout names its bank connection; an organization without one gets a made-up id (no foreign key, never read by a list).
      connections: orgs.map((o) => connections.find((x) => x.org_id === o)?.id ?? crypto.randomUUID()),
      payoutStatuses: PAYOUT_STATUSES.map(([s]) => s),
      payoutStatusBounds: bounds(PAYOUT_STATUSES.map(([, w]) => w)),
      payoutModes: PAYOUT_MODES.map(([s]) => s),
      payoutModeBounds: bounds(PAYOUT_MODES.map(([, w]) => w)),
    };
    // The payouts go on the last connection (their beneficiaries are a temporary table of that
    // session), the orders' ranges on all of them: the connections finish at about the same time.
    const last = cs[cs.length - 1] as pg.Client;
    let ordersDone = 0;
    let payoutsDone = 0;
    const payoutShare = spec.payouts > 0 ? 1 : 0;
    const orderRanges = split(spec.orders, Math.max(1, cs.length - payoutShare));
    await Promise.all([
      ...orderRanges.map((range, k) => inBatches(cs[k] as pg.Client, ORDERS_SQL, spec.orders, range, orderValues)),
      (async () => {
        if (spec.payouts === 0) return;
        await seedBeneficiaries(last, tenants);
        await inBatches(last, PAYOUTS_SQL, spec.payouts, [1, spec.payouts], payoutValues);
        payoutsDone = Date.now();
      })(),
    ]).then(() => {
      ordersDone = Date.now();
    });
    const index_build_seconds: Record<string, number> = {};
    const queue = [...indexes];
    await Promise.all(
      cs.map(async (conn) => {
        for (let i = queue.shift(); i; i = queue.shift()) {
          const t0 = Date.now();
          await conn.query(i.def);
          index_build_seconds[i.name] = Math.round((Date.now() - t0) / 100) / 10;
        }
      }),
    );
    // As pgbench -i does: vacuum (visibility map, statistics) and write out what was loaded, so the
    // measurements meet a table of this size, not autovacuum and checkpoint writes of the load.
    await c.query('VACUUM (ANALYZE) payment_orders, payouts, payout_attempts, beneficiaries');
    await c.query('CHECKPOINT');
    const sizes = (
      await c.query<{ o: string; p: string }>(
        `SELECT pg_total_relation_size('payment_orders')::text AS o, (pg_total_relation_size('payouts') + pg_total_relation_size('payout_attempts'))::text AS p`,
      )
    ).rows[0] as { o: string; p: string };
    return {
      orders: spec.orders,
      payouts: spec.payouts,
      seconds: Math.round((Date.now() - started) / 1000),
      load_seconds: Math.round((ordersDone - started) / 1000),
      payouts_load_seconds: payoutsDone ? Math.round((payoutsDone - started) / 1000) : 0,
      orders_mb: Math.round(Number(sizes.o) / 2 ** 20),
      payouts_mb: Math.round(Number(sizes.p) / 2 ** 20),
      index_build_seconds,
    };
  } finally {
    await Promise.all(cs.map((x) => x.end()));
  }
}
