/** POST /merchant/payment-orders: every rule of API §4.1 / §8, both modes, idempotency, security. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { fingerprint } from '../../src/services/shared/idempotency.js';
import { parseUpiIntent } from '../../src/domain/upi-intent.js';
import { callbackSecretContext } from '../../src/services/payin/payment-orders.js';
import { startTestService, type TestClient, type TestService } from '../support/service.js';
import { checkoutBody, intentBody, key, tokenOf } from './helpers.js';

let t: TestService;
let client: TestClient;
before(async () => {
  t = await startTestService({ PUBLIC_BASE_URL: 'https://pay.example.in' });
  client = await t.createClient({});
});
after(() => t.stop());

const create = (body: unknown, opts: { k?: string; c?: TestClient } = {}) =>
  t.api('POST', '/merchant/payment-orders', { client: opts.c ?? client, body, idempotencyKey: opts.k ?? key() });

async function rejected(body: unknown, field: string, code = 'VALIDATION_FAILED', status = 422) {
  const r = await create(body);
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.error.code, code, r.text);
  if (field) assert.ok(r.body.error.details.some((d: { field: string }) => d.field === field), `${field} not in ${r.text}`);
}

describe('CHECKOUT create', () => {
  test('201, AWAITING_CUSTOMER, hosted checkout next_action, exact field set', async () => {
    const r = await create(checkoutBody({ merchant_order_reference: 'INV-77' }));
    assert.equal(r.status, 201);
    assert.equal(r.body.success, true);
    assert.equal(typeof r.body.request_id, 'string');
    const d = r.body.data;
    assert.deepEqual(Object.keys(d).sort(), [
      'amount_paise', 'checkout_url', 'created_at', 'currency', 'expires_at', 'id', 'livemode', 'merchant_order_reference', 'next_action', 'order_id',
      'provider_status', 'purpose', 'response_mode', 'settlement', 'status', 'verification_mode',
    ]);
    assert.equal(d.livemode, false, 'a sandbox order is a test-mode order (contract §7)');
    assert.equal(d.settlement, null, 'no settlement covers a new order (contract §9)');
    assert.equal(d.status, 'AWAITING_CUSTOMER');
    assert.equal(d.response_mode, 'CHECKOUT');
    assert.equal(d.currency, 'INR');
    assert.equal(d.amount_paise, 49_900);
    assert.equal(d.merchant_order_reference, 'INV-77');
    assert.equal(d.verification_mode, 'PROVIDER_PAYIN_STATUS_API');
    assert.equal(d.expires_at, null, 'the window starts when payer details are given');
    assert.match(d.order_id, /^[A-Z0-9]{1,35}$/);
    assert.match(d.checkout_url, /^https:\/\/pay\.example\.in\/checkout\/[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(d.next_action, { type: 'HOSTED_CHECKOUT', url: d.checkout_url });
    assert.equal(d.upi_intent, undefined);
  });

  test('response_mode defaults to CHECKOUT; the checkout token is not stored and opens only its own order', async () => {
    const r = await create(checkoutBody());
    const token = tokenOf(r.body.data);
    const row = await t.database.db.query('SELECT expires_in_minutes FROM payment_orders WHERE id = $1', [r.body.data.id]);
    assert.equal(Buffer.from(token, 'base64url').subarray(0, 16).toString('hex'), r.body.data.id.replace(/-/g, ''));
    assert.equal(row.rows[0]!.expires_in_minutes, 30, 'default expiry is 30 minutes');
    const dump = await t.database.db.query('SELECT row_to_json(p)::text AS j FROM payment_orders p WHERE id = $1', [r.body.data.id]);
    assert.ok(!dump.rows[0]!.j.includes(token));
  });

  test('history starts with the creation row', async () => {
    const r = await create(checkoutBody());
    const h = await t.database.db.query('SELECT from_status, to_status, trigger FROM payment_order_transitions WHERE order_pk = $1', [r.body.data.id]);
    assert.deepEqual(h.rows, [{ from_status: null, to_status: 'AWAITING_CUSTOMER', trigger: 'created' }]);
  });

  test('callback_secret is stored encrypted and can be decrypted for signing', async () => {
    const secret = 's'.repeat(40);
    const r = await create(checkoutBody({ callback_url: 'https://merchant.example.in/hook', callback_secret: secret }));
    assert.equal(r.status, 201, r.text);
    const row = (await t.database.db.query('SELECT callback_url, callback_secret_enc FROM payment_orders WHERE id = $1', [r.body.data.id])).rows[0]!;
    assert.equal(row.callback_url, 'https://merchant.example.in/hook');
    assert.ok(!row.callback_secret_enc.toString('latin1').includes(secret));
    assert.equal(t.svc.ctx.vault.decrypt(row.callback_secret_enc, callbackSecretContext(r.body.data.id)), secret);
    assert.ok(!r.text.includes(secret));
    assert.ok(!t.logs.some((l) => l.includes(secret)));
  });
});

describe('INTENT create', () => {
  test('201, PENDING_PAYMENT, UPI intent per NPCI rules, stored byte for byte', async () => {
    const r = await create(intentBody({ amount_paise: 100_005, purpose: 'Rent & deposit for flat 4B, April 2025 — thank you!', expires_in_minutes: 15 }));
    assert.equal(r.status, 201, r.text);
    const d = r.body.data;
    assert.equal(d.status, 'PENDING_PAYMENT');
    assert.equal(d.provider_status, 'PENDING');
    assert.equal(d.next_action.type, 'UPI_INTENT');
    assert.equal(d.next_action.upi_uri, d.upi_intent);
    assert.equal(d.next_action.qr_payload, d.upi_intent);
    assert.equal(d.next_action.expires_at, d.expires_at);
    const minutes = (Date.parse(d.expires_at) - Date.parse(d.created_at)) / 60_000;
    assert.ok(minutes > 14.9 && minutes < 15.1, `window starts at creation (${minutes})`);
    assert.ok(d.checkout_url.startsWith('https://pay.example.in/checkout/'));
    assert.match(d.upi_intent, /^upi:\/\/pay\?pa=[^&]+&pn=[^&]+&am=1000\.05&cu=INR&tr=[A-Z0-9]+&tn=[^&]+$/);
    assert.ok(!/[ #&]/.test(d.upi_intent.slice('upi://pay?'.length).replace(/&(?=[a-z]{2}=)/g, '')), 'values are percent-encoded');
    const p = parseUpiIntent(d.upi_intent);
    assert.equal(p.am, '1000.05');
    assert.equal(p.cu, 'INR');
    assert.equal(p.tr, d.order_id);
    assert.equal(p.tn, 'Rent & deposit for flat 4B, April 2025 — thank you!'.slice(0, 50));
    assert.equal(p.mc, undefined, 'the sandbox route has no merchant category code');
    const stored = await t.database.db.query('SELECT upi_uri FROM payment_orders WHERE id = $1', [d.id]);
    const issued = await t.database.db.query('SELECT upi_uri FROM sandbox_collections WHERE reference = $1', [d.order_id]);
    assert.equal(stored.rows[0]!.upi_uri, issued.rows[0]!.upi_uri);
    assert.equal(stored.rows[0]!.upi_uri, d.upi_intent);
  });

  test('amount is exact at the bounds (₹1.00 and ₹10,00,00,000.00)', async () => {
    for (const [paise, am] of [[100, '1.00'], [10_000_000_000, '100000000.00'], [199, '1.99']] as const) {
      const r = await create(intentBody({ amount_paise: paise }));
      assert.equal(r.status, 201, r.text);
      assert.equal(parseUpiIntent(r.body.data.upi_intent).am, am);
    }
  });

  test('INTENT requires customer name, email, Indian mobile and consent true', async () => {
    for (const f of ['customer_name', 'customer_email', 'customer_phone', 'customer_consent']) {
      const b: Record<string, unknown> = intentBody();
      delete b[f];
      await rejected(b, f);
    }
    await rejected(intentBody({ customer_consent: false }), 'customer_consent');
    await rejected(intentBody({ customer_phone: '5876543210' }), 'customer_phone');
    await rejected(intentBody({ customer_phone: '+919876543210' }), 'customer_phone');
    await rejected(intentBody({ customer_phone: '987654321' }), 'customer_phone');
    await rejected(intentBody({ customer_email: 'not-an-email' }), 'customer_email');
    await rejected(intentBody({ customer_email: `${'a'.repeat(180)}@example.in` }), 'customer_email');
    await rejected(intentBody({ customer_name: 'x'.repeat(121) }), 'customer_name');
    await rejected(intentBody({ customer_name: '   ' }), 'customer_name');
  });

  test('a provider outage is 503 and releases the key; the retry asks the provider for the same reference', async () => {
    const provider = t.svc.ctx.providers.sandbox as any;
    const original = provider.createCollection;
    const { ProviderError } = await import('../../src/providers/provider.js');
    const references: string[] = [];
    provider.createCollection = async (req: { reference: string }) => {
      references.push(req.reference);
      throw new ProviderError('down', true);
    };
    const k = key();
    try {
      const r = await create(intentBody(), { k });
      assert.equal(r.status, 503);
      assert.equal(r.body.error.code, 'SERVICE_UNAVAILABLE');
    } finally {
      provider.createCollection = async (req: { reference: string }) => {
        references.push(req.reference);
        return original.call(provider, req);
      };
    }
    try {
      const again = await create(intentBody(), { k });
      assert.equal(again.status, 201, 'the same key succeeds once the provider is back');
      // The provider may have made the collection before the first answer was lost: the retry
      // must name the same reference, so the provider deduplicates instead of making a second one.
      assert.equal(references.length, 2);
      assert.equal(references[1], references[0]);
    } finally {
      provider.createCollection = original;
    }
  });
});

describe('field rules', () => {
  test('amount_paise bounds and type', async () => {
    await rejected(checkoutBody({ amount_paise: 99 }), 'amount_paise');
    await rejected(checkoutBody({ amount_paise: 10_000_000_001 }), 'amount_paise');
    await rejected(checkoutBody({ amount_paise: 100.5 }), 'amount_paise');
    await rejected(checkoutBody({ amount_paise: '49900' }), 'amount_paise');
    await rejected({ purpose: 'abc' }, 'amount_paise');
    assert.equal((await create(checkoutBody({ amount_paise: 100 }))).status, 201);
    assert.equal((await create(checkoutBody({ amount_paise: 10_000_000_000 }))).status, 201);
  });

  test('purpose 3 to 255 characters (code points)', async () => {
    await rejected(checkoutBody({ purpose: 'ab' }), 'purpose');
    await rejected(checkoutBody({ purpose: 'x'.repeat(256) }), 'purpose');
    await rejected({ amount_paise: 100 }, 'purpose');
    await rejected(checkoutBody({ purpose: '   ' }), 'purpose');
    assert.equal((await create(checkoutBody({ purpose: 'abc' }))).status, 201);
    assert.equal((await create(checkoutBody({ purpose: 'x'.repeat(255) }))).status, 201);
    assert.equal((await create(checkoutBody({ purpose: '🙏'.repeat(255) }))).status, 201);
  });

  test('merchant_order_reference max 120', async () => {
    await rejected(checkoutBody({ merchant_order_reference: 'r'.repeat(121) }), 'merchant_order_reference');
    assert.equal((await create(checkoutBody({ merchant_order_reference: 'r'.repeat(120) }))).status, 201);
  });

  test('response_mode enum', async () => {
    await rejected(checkoutBody({ response_mode: 'QR' }), 'response_mode');
  });

  test('expires_in_minutes 5 to 1440', async () => {
    await rejected(checkoutBody({ expires_in_minutes: 4 }), 'expires_in_minutes');
    await rejected(checkoutBody({ expires_in_minutes: 1441 }), 'expires_in_minutes');
    await rejected(checkoutBody({ expires_in_minutes: 10.5 }), 'expires_in_minutes');
    assert.equal((await create(checkoutBody({ expires_in_minutes: 5 }))).status, 201);
    assert.equal((await create(checkoutBody({ expires_in_minutes: 1440 }))).status, 201);
  });

  test('callback_url and return_url must be HTTPS; callback_url and callback_secret together; secret 32 to 500', async () => {
    const secret = 'k'.repeat(32);
    await rejected(checkoutBody({ callback_url: 'http://merchant.example.in/hook', callback_secret: secret }), 'callback_url');
    await rejected(checkoutBody({ callback_url: 'https://user:pw@merchant.example.in/hook', callback_secret: secret }), 'callback_url');
    await rejected(checkoutBody({ return_url: 'http://merchant.example.in/done' }), 'return_url');
    await rejected(checkoutBody({ return_url: 'javascript:alert(1)' }), 'return_url');
    await rejected(checkoutBody({ callback_url: 'https://merchant.example.in/hook' }), 'callback_secret');
    await rejected(checkoutBody({ callback_secret: secret }), 'callback_url');
    await rejected(checkoutBody({ callback_url: 'https://merchant.example.in/hook', callback_secret: 'k'.repeat(31) }), 'callback_secret');
    await rejected(checkoutBody({ callback_url: 'https://merchant.example.in/hook', callback_secret: 'k'.repeat(501) }), 'callback_secret');
    assert.equal((await create(checkoutBody({ callback_url: 'https://merchant.example.in/hook', callback_secret: 'k'.repeat(500), return_url: 'https://merchant.example.in/done' }))).status, 201);
  });

  test('unknown fields are rejected', async () => {
    await rejected(checkoutBody({ colour: 'blue' }), 'colour');
  });

  test('card number, UPI PIN and OTP fields are rejected as sensitive', async () => {
    for (const f of ['card_number', 'upi_pin', 'otp']) {
      await rejected(checkoutBody({ [f]: '1234' }), f, 'SENSITIVE_DATA_REJECTED');
    }
  });

  test('Idempotency-Key is required and must be a UUID v4', async () => {
    const none = await t.api('POST', '/merchant/payment-orders', { client, body: checkoutBody() });
    assert.equal(none.status, 400);
    assert.equal(none.body.error.code, 'IDEMPOTENCY_KEY_REQUIRED');
    const bad = await t.api('POST', '/merchant/payment-orders', { client, body: checkoutBody(), idempotencyKey: 'abc' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'IDEMPOTENCY_KEY_INVALID');
  });

  test('scope collections:write is required; authentication is required', async () => {
    const reader = await t.createClient({ scopes: ['collections:read'] });
    const r = await create(checkoutBody(), { c: reader });
    assert.equal(r.status, 403);
    assert.equal(r.body.error.code, 'API_SCOPE_DENIED');
    const anon = await t.api('POST', '/merchant/payment-orders', { body: checkoutBody(), idempotencyKey: key() });
    assert.equal(anon.status, 401);
  });
});

describe('idempotency', () => {
  test('same key + same body replays the original; different body is 422', async () => {
    const k = key();
    const first = await create(checkoutBody(), { k });
    const again = await create(checkoutBody(), { k });
    assert.equal(again.status, 201);
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    const other = await create(checkoutBody({ amount_paise: 50_000 }), { k });
    assert.equal(other.status, 422);
    assert.equal(other.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
  });

  for (const mode of ['CHECKOUT', 'INTENT'] as const) {
    test(`50 concurrent ${mode} creates with one key make exactly one order`, async () => {
      const c = await t.createClient({ rateLimit: 10_000 });
      const k = key();
      const body = mode === 'CHECKOUT' ? checkoutBody({ purpose: `concurrent ${mode}` }) : intentBody({ purpose: `concurrent ${mode}` });
      const results = await Promise.all(Array.from({ length: 50 }, () => create(body, { k, c })));
      const ok = results.filter((r) => r.status === 201);
      const busy = results.filter((r) => r.status === 409);
      // Under load the sandbox may not answer within the provider timeout: that create answers a
      // retryable 503 and releases the key (the contract: retry a 5xx with the same key).
      const unavailable = results.filter((r) => r.status === 503);
      assert.equal(ok.length + busy.length + unavailable.length, 50, results.map((r) => `${r.status}`).join(','));
      for (const r of busy) assert.equal(r.body.error.code, 'IDEMPOTENCY_KEY_IN_PROGRESS');
      for (const r of unavailable) assert.equal(r.body.error.code, 'SERVICE_UNAVAILABLE');
      if (mode === 'CHECKOUT') assert.equal(unavailable.length, 0, 'no provider call on a CHECKOUT create');
      // A later retry with the same key resolves to the one order.
      let later = await create(body, { k, c });
      for (let i = 0; i < 20 && later.status !== 201; i++) {
        await new Promise((res) => setTimeout(res, 250));
        later = await create(body, { k, c });
      }
      assert.equal(later.status, 201);
      const ids = new Set([...ok, later].map((r) => r.body.data.id));
      assert.equal(ids.size, 1);
      assert.ok(new Set([...ok, later].map((r) => r.text)).size === 1, 'identical replays');
      const count = await t.database.db.query('SELECT count(*)::int AS n FROM payment_orders WHERE purpose = $1', [`concurrent ${mode}`]);
      assert.equal(count.rows[0]!.n, 1);
      if (mode === 'INTENT') {
        const collections = await t.database.db.query('SELECT count(*)::int AS n FROM sandbox_collections WHERE note = $1', [`concurrent ${mode}`]);
        assert.equal(collections.rows[0]!.n, 1);
      }
    });
  }
});

test('CHECKOUT: a key left in progress by a create that died is taken over: one order, with the id the key holds', async () => {
  const k = key();
  const body = checkoutBody({ merchant_order_reference: 'TAKEOVER-1' });
  const resourceId = randomUUID();
  const db = t.database.db;
  const pk = (await db.query<{ id: string }>('SELECT id FROM api_clients WHERE client_id = $1', [client.clientId])).rows[0]!.id;
  const fp = fingerprint({ clientPk: pk, key: k, method: 'POST', path: '/api/v1/merchant/payment-orders', body });
  await db.query(
    `INSERT INTO idempotency_keys (client_pk, key, fingerprint, state, locked_until, resource_id) VALUES ($1, $2, $3, 'in_progress', now() - interval '1 second', $4)`,
    [pk, k, fp, resourceId],
  );
  const r = await create(body, { k });
  assert.equal(r.status, 201, r.text);
  assert.equal(r.body.data.id, resourceId);
  assert.equal(r.headers.get('idempotent-replayed'), null);
  const again = await create(body, { k });
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  assert.equal(again.text, r.text);
  const rows = await db.query(`SELECT 1 FROM payment_orders WHERE id = $1`, [resourceId]);
  assert.equal(rows.rowCount, 1);
  const history = await db.query(`SELECT 1 FROM payment_order_transitions WHERE order_pk = $1 AND trigger = 'created'`, [resourceId]);
  assert.equal(history.rowCount, 1);
});
