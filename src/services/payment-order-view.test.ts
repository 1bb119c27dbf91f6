import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { Vault } from '../security/vault.js';
import { checkoutTokenFor, checkoutTokenHash, orderIdFor } from './payment-order-view.js';

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

test('checkout token: 256-bit, URL-safe, bound to the order and to the master key', () => {
  const v1 = new Vault(Buffer.alloc(32, 1));
  const v2 = new Vault(Buffer.alloc(32, 2));
  const id = randomUUID();
  const t1 = checkoutTokenFor(v1, id);
  assert.match(t1, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(Buffer.from(t1, 'base64url').length, 32);
  assert.equal(checkoutTokenFor(v1, id), t1);
  assert.notEqual(checkoutTokenFor(v2, id), t1);
  assert.notEqual(checkoutTokenFor(v1, randomUUID()), t1);
  assert.equal(checkoutTokenHash(t1).length, 32);
});
