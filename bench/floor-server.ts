/**
 * The floor: the least any payment-order API must do per request, with nothing of Tijori in it —
 * a cached client look-up, JSON-schema validation, an idempotency unique key and one transaction
 * inserting the order and its outbox event (one statement: a single round trip). Tijori is
 * measured against it, alternately, in the same run (bench/run.ts).
 *
 * env: DATABASE_URL, PORT (0 = any). Prints {"event":"listening","url":...}.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DB_POOL_SIZE ?? 20), application_name: 'floor' });

await pool.query(`
  CREATE SCHEMA IF NOT EXISTS floor;
  CREATE TABLE IF NOT EXISTS floor.clients (client_id text PRIMARY KEY, secret_hash bytea NOT NULL, org_id uuid NOT NULL);
  CREATE TABLE IF NOT EXISTS floor.idempotency (client_id text NOT NULL, key uuid NOT NULL, order_id uuid NOT NULL, PRIMARY KEY (client_id, key));
  CREATE TABLE IF NOT EXISTS floor.orders (id uuid PRIMARY KEY, org_id uuid NOT NULL, client_id text NOT NULL, amount_paise bigint NOT NULL,
    purpose text NOT NULL, status text NOT NULL, checkout_token text NOT NULL UNIQUE, created_at timestamptz NOT NULL DEFAULT now());
  CREATE TABLE IF NOT EXISTS floor.events (id uuid PRIMARY KEY, aggregate_id uuid NOT NULL, kind text NOT NULL, body text NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
`);

const clients = new Map<string, { hash: Buffer; orgId: string }>();
async function client(id: string) {
  const hit = clients.get(id);
  if (hit) return hit;
  const r = await pool.query('SELECT secret_hash, org_id FROM floor.clients WHERE client_id = $1', [id]);
  if (!r.rows[0]) return null;
  const c = { hash: r.rows[0].secret_hash as Buffer, orgId: r.rows[0].org_id as string };
  clients.set(id, c);
  return c;
}

const app = Fastify({ logger: false, bodyLimit: 64 * 1024, ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: true } } });

app.addHook('onRequest', async (req, reply) => {
  if (req.url.startsWith('/admin')) return;
  const id = req.headers['x-service-client-id'] as string | undefined;
  const secret = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
  const c = id && secret ? await client(id) : null;
  if (!c || !createHash('sha256').update(secret as string).digest().equals(c.hash)) return reply.code(401).send({ success: false });
  (req as unknown as { orgId: string }).orgId = c.orgId;
});

app.post('/admin/clients', async () => {
  const id = `floor_${randomBytes(8).toString('hex')}`;
  const secret = randomBytes(32).toString('base64url');
  await pool.query('INSERT INTO floor.clients VALUES ($1, $2, $3)', [id, createHash('sha256').update(secret).digest(), randomUUID()]);
  return { client_id: id, client_secret: secret };
});

const createSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['amount_paise', 'purpose'],
  properties: {
    amount_paise: { type: 'integer', minimum: 100, maximum: 10_000_000_000 },
    purpose: { type: 'string', minLength: 3, maxLength: 255 },
    merchant_order_reference: { type: 'string', maxLength: 120 },
    response_mode: { type: 'string', enum: ['CHECKOUT', 'INTENT'] },
  },
};

app.post('/api/v1/merchant/payment-orders', { schema: { body: createSchema } }, async (req, reply) => {
  const key = req.headers['idempotency-key'] as string;
  const body = req.body as { amount_paise: number; purpose: string };
  const orgId = (req as unknown as { orgId: string }).orgId;
  const clientId = req.headers['x-service-client-id'] as string;
  const id = randomUUID();
  const r = await pool.query(
    `WITH k AS (INSERT INTO floor.idempotency VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING order_id),
          o AS (INSERT INTO floor.orders (id, org_id, client_id, amount_paise, purpose, status, checkout_token)
                SELECT $3, $4, $1, $5, $6, 'AWAITING_CUSTOMER', $7 FROM k RETURNING id, created_at),
          e AS (INSERT INTO floor.events (id, aggregate_id, kind, body) SELECT $8, id, 'order.created', '{}' FROM o)
     SELECT id, created_at FROM o`,
    [clientId, key, id, orgId, body.amount_paise, body.purpose, randomBytes(24).toString('base64url'), randomUUID()],
  );
  if (!r.rows[0]) {
    const prev = await pool.query('SELECT order_id FROM floor.idempotency WHERE client_id = $1 AND key = $2', [clientId, key]);
    return reply.code(200).send({ success: true, data: { id: prev.rows[0]?.order_id }, request_id: req.id });
  }
  return reply.code(201).send({ success: true, data: { id, status: 'AWAITING_CUSTOMER', amount_paise: body.amount_paise }, request_id: req.id });
});

app.get('/api/v1/merchant/payment-orders/:id', async (req, reply) => {
  const { id } = req.params as { id: string };
  const r = await pool.query('SELECT id, amount_paise, status, purpose, created_at FROM floor.orders WHERE id = $1 AND client_id = $2', [
    id,
    req.headers['x-service-client-id'],
  ]);
  if (!r.rows[0]) return reply.code(404).send({ success: false });
  return { success: true, data: r.rows[0], request_id: req.id };
});

await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
const addr = app.server.address();
process.stdout.write(`${JSON.stringify({ event: 'listening', url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}` })}\n`);
process.on('SIGTERM', () => {
  app.close().then(() => pool.end()).then(() => process.exit(0));
});
