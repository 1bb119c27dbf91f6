import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { ipAllowed, normalizeAllowEntry, normalizeIp } from './ip.js';
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

test('allow-list entries: addresses and CIDR ranges (IPv4 and IPv6), host bits refused with the meant range', () => {
  assert.deepEqual(normalizeAllowEntry(' 10.0.0.0/8 '), { value: '10.0.0.0/8' });
  assert.deepEqual(normalizeAllowEntry('2001:DB8::/32'), { value: '2001:db8::/32' });
  assert.deepEqual(normalizeAllowEntry('203.0.113.9/32'), { value: '203.0.113.9' });
  assert.deepEqual(normalizeAllowEntry('::ffff:203.0.113.9'), { value: '203.0.113.9' });
  assert.deepEqual(normalizeAllowEntry('10.1.2.3/8'), { issue: '"10.1.2.3/8" has host bits set: the range is 10.0.0.0/8' });
  assert.deepEqual(normalizeAllowEntry('2001:db8::1/32'), { issue: '"2001:db8::1/32" has host bits set: the range is 2001:db8::/32' });
  assert.deepEqual(normalizeAllowEntry('10.0.0.0/33'), { issue: '"10.0.0.0/33": the prefix length must be 0 to 32' });
  assert.ok('issue' in normalizeAllowEntry('10.0.0.0/'));
  assert.ok('issue' in normalizeAllowEntry('10/8'));
  assert.ok('issue' in normalizeAllowEntry('example.com'));
  assert.equal(ipAllowed('10.200.3.4', ['10.0.0.0/8']), true);
  assert.equal(ipAllowed('::ffff:10.200.3.4', ['10.0.0.0/8']), true);
  assert.equal(ipAllowed('11.0.0.1', ['10.0.0.0/8']), false);
  assert.equal(ipAllowed('2001:db8:1::5', ['10.0.0.0/8', '2001:db8::/32']), true);
  assert.equal(ipAllowed('2001:db9::5', ['2001:db8::/32']), false);
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
