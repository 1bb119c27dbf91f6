import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { Vault } from '../../security/vault.js';
import { checkoutTokenFor, idForOrderId, orderIdFor, orderPkForCheckoutToken, orderRefFor } from './payment-order-view.js';

test('order_id: PO + 26 Crockford base32 characters, a valid UPI tr, deterministic and distinct', () => {
  fc.assert(
    fc.property(fc.uuid(), fc.uuid(), (a, b) => {
      const ida = orderIdFor(a);
      assert.match(ida, /^PO[0-9A-HJKMNP-TV-Z]{26}$/);
      assert.ok(ida.length <= 35);
      assert.equal(orderIdFor(a), ida);
      if (a.toLowerCase() !== b.toLowerCase()) assert.notEqual(orderIdFor(b), ida);
    }),
  );
});

test('order_id decodes back to exactly its id (so look-ups use the primary key); nothing else decodes', () => {
  fc.assert(
    fc.property(fc.uuid(), (id) => {
      const orderId = orderIdFor(id);
      assert.equal(idForOrderId(orderId), id.toLowerCase());
      assert.deepEqual(orderRefFor(orderId.toLowerCase()), { id: id.toLowerCase(), orderId });
    }),
  );
  const sample = orderIdFor(randomUUID());
  assert.equal(idForOrderId(`${sample.slice(0, -1)}${sample.endsWith('1') ? '2' : '1'}`), null, 'non-zero padding bits');
  for (const bad of ['', 'PO', 'SEED1', `${sample}0`, sample.slice(0, -1), sample.replace('PO', 'PX'), `PO${'I'.repeat(26)}`]) {
    assert.equal(idForOrderId(bad), null, bad);
  }
  assert.equal(orderRefFor('not-an-order'), null);
  const id = randomUUID();
  assert.deepEqual(orderRefFor(id.toUpperCase()), { id });
});

test('checkout token: 43 URL-safe characters, bound to the order and to the master key, 128-bit MAC', () => {
  const v1 = new Vault(Buffer.alloc(32, 1));
  const v2 = new Vault(Buffer.alloc(32, 2));
  const id = randomUUID();
  const t1 = checkoutTokenFor(v1, id);
  assert.match(t1, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(Buffer.from(t1, 'base64url').length, 32);
  assert.equal(checkoutTokenFor(v1, id), t1);
  assert.notEqual(checkoutTokenFor(v2, id), t1);
  assert.notEqual(checkoutTokenFor(v1, randomUUID()), t1);
  assert.equal(orderPkForCheckoutToken(v1, t1), id);
  assert.equal(orderPkForCheckoutToken(v2, t1), null, 'another master key');
});

test('checkout token: any change to id or MAC is rejected', () => {
  const v = new Vault(Buffer.alloc(32, 3));
  const id = randomUUID();
  const raw = Buffer.from(checkoutTokenFor(v, id), 'base64url');
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 31 }), fc.integer({ min: 1, max: 255 }), (at, flip) => {
      const forged = Buffer.from(raw);
      forged[at] = (forged[at] as number) ^ flip;
      assert.equal(orderPkForCheckoutToken(v, forged.toString('base64url')), null);
    }),
  );
  // Another order's id with this order's MAC, and truncated or padded tokens.
  const other = Buffer.from(randomUUID().replace(/-/g, ''), 'hex');
  assert.equal(orderPkForCheckoutToken(v, Buffer.concat([other, raw.subarray(16)]).toString('base64url')), null);
  for (const bad of ['', 'x'.repeat(43), raw.toString('base64url').slice(0, 42), `${raw.toString('base64url')}A`, raw.toString('base64')]) {
    assert.equal(orderPkForCheckoutToken(v, bad), null, bad);
  }
});
