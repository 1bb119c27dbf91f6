import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { ipAllowed, normalizeIp } from './ip.js';
import { hashSecret, newClientSecret, safeEqualStrings, secretMatches } from './secrets.js';
import { Vault } from './vault.js';

test('client secrets carry 32 random bytes and match only themselves', () => {
  const s = newClientSecret();
  assert.match(s, /^tj_secret_[A-Za-z0-9_-]{43}$/);
  assert.equal(Buffer.from(s.slice('tj_secret_'.length), 'base64url').length, 32);
  const h = hashSecret(s);
  assert.equal(secretMatches(s, h), true);
  assert.equal(secretMatches(`${s}x`, h), false);
  assert.equal(secretMatches(newClientSecret(), h), false);
  assert.equal(safeEqualStrings('abc', 'abc'), true);
  assert.equal(safeEqualStrings('abc', 'abd'), false);
});

test('IP addresses are normalised: IPv4-mapped IPv6 is the IPv4 address', () => {
  assert.equal(normalizeIp('::ffff:10.1.2.3'), '10.1.2.3');
  assert.equal(normalizeIp('2001:DB8:0:0:0:0:0:1'), '2001:db8::1');
  assert.equal(normalizeIp('[::1]'), '::1');
  assert.equal(normalizeIp('10'), null);
  assert.equal(normalizeIp('0x7f.1'), null);
  assert.equal(normalizeIp('not-an-ip'), null);
  assert.equal(ipAllowed('::ffff:203.0.113.9', ['203.0.113.9']), true);
  assert.equal(ipAllowed('203.0.113.10', ['203.0.113.9']), false);
  assert.equal(ipAllowed('anything', []), true);
});

test('vault round-trips, binds context, and detects tampering', () => {
  const v = new Vault(randomBytes(32));
  const blob = v.encrypt('123456789012', 'beneficiary:1');
  assert.equal(v.decrypt(blob, 'beneficiary:1'), '123456789012');
  assert.ok(!blob.toString('latin1').includes('123456789012'));
  assert.throws(() => v.decrypt(blob, 'beneficiary:2'));
  const tampered = Buffer.from(blob);
  tampered[tampered.length - 1] = (tampered[tampered.length - 1] as number) ^ 1;
  assert.throws(() => v.decrypt(tampered, 'beneficiary:1'));
  assert.deepEqual(v.lookupHash('x', 's'), v.lookupHash('x', 's'));
  assert.notDeepEqual(v.lookupHash('x', 's'), v.lookupHash('x', 't'));
  assert.notDeepEqual(new Vault(randomBytes(32)).lookupHash('x', 's'), v.lookupHash('x', 's'));
});
