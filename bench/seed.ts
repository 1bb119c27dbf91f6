/**
 * Fills the bench database with `n` existing payment orders (with their history rows and
 * idempotency keys, as real creates leave them) for Tijori, and `n` orders for the floor (unless
 * `floor: false`, for a database without the floor's schema), to measure how the cost grows with
 * table size.
 */
import pg from 'pg';

export async function seedOrders(dbUrl: string, n: number, opts: { floor?: boolean } = {}): Promise<{ orders: number; seconds: number }> {
  const started = Date.now();
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    const client = (await c.query('SELECT id, org_id FROM api_clients ORDER BY created_at LIMIT 1')).rows[0];
    const batch = 250_000;
    for (let from = 1; from <= n; from += batch) {
      const to = Math.min(n, from + batch - 1);
      await c.query(
        // Ids as the service makes them (UUIDv7, src/store/row-id.ts), stamped with each order's
        // created_at: the seeded orders are spread over the 30 days before the run.
        `WITH t0 AS (SELECT g, now() - interval '30 days' + (g - 1) * (interval '30 days' / $5::int) AS created_at FROM generate_series($3::int, $4::int) g),
              s AS (SELECT g, created_at, encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
                      PLACING substring(int8send(floor(extract(epoch FROM created_at) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid AS id
                      FROM t0),
              o AS (INSERT INTO payment_orders (id, order_id, org_id, client_pk, amount_paise, purpose, response_mode, status, provider,
                      provider_status, expires_in_minutes, created_at)
                    SELECT id, 'SEED' || g, $1, $2, 10000 + g % 1000, 'seeded order', 'CHECKOUT', 'EXPIRED', 'sandbox', 'NOT_INITIATED', 30, created_at
                      FROM s RETURNING id),
              t AS (INSERT INTO payment_order_transitions (order_pk, from_status, to_status, trigger)
                    SELECT id, NULL, 'EXPIRED', 'created' FROM o)
         INSERT INTO idempotency_keys (client_pk, key, fingerprint, state, response_status, response_body, resource_type, resource_id, completed_at)
         SELECT $2, gen_random_uuid(), 'seed', 'completed', 201, '{}', 'payment_order', id, now() FROM o`,
        [client.org_id, client.id, from, to, n],
      );
      if (opts.floor !== false) await c.query(
        `INSERT INTO floor.orders (id, org_id, client_id, amount_paise, purpose, status, checkout_token)
         SELECT gen_random_uuid(), gen_random_uuid(), 'seed', 10000, 'seeded', 'EXPIRED', 'seed' || g FROM generate_series($1::int, $2::int) g`,
        [from, to],
      );
    }
    // As pgbench -i does: vacuum what was loaded and write it out, so the measured runs that follow
    // meet a table of this size, not autovacuum and checkpoint writes of the load itself.
    await c.query('VACUUM (ANALYZE)');
    await c.query('CHECKPOINT');
  } finally {
    await c.end();
  }
  return { orders: n, seconds: Math.round((Date.now() - started) / 1000) };
}
