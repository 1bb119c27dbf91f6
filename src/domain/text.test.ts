import { test } from 'node:test';
import assert from 'node:assert/strict';
import { charLength, isEmail, isHttpsUrl, isPlainHttpUrl, isStorableText, isUuid, isUuidV4, unstorableTextPath } from './text.js';
import { isIndianMobile } from './phone.js';

test('charLength counts code points, not UTF-16 units', () => {
  assert.equal(charLength(''), 0);
  assert.equal(charLength('abc'), 3);
  assert.equal(charLength('₹'), 1);
  assert.equal(charLength('😀😀'), 2);
  assert.equal('😀😀'.length, 4);
  assert.equal(charLength('नमस्ते'), 6);
});

test('isStorableText spots lone surrogates and U+0000', () => {
  assert.equal(isStorableText('ab\u0000c'), false);
  assert.equal(isStorableText('\u0000'), false);
  assert.equal(isStorableText('ab\u0001c'), true);
  assert.equal(isStorableText('ok 😀'), true);
  assert.equal(isStorableText('\ud83d'), false);
  assert.equal(isStorableText('x\ude00y'), false);
  assert.equal(isStorableText('\ude00\ud83d'), false);
});

test('isEmail accepts ordinary addresses and rejects broken ones', () => {
  for (const ok of ['a@b.co', 'first.last+tag@example.co.in', "o'brien@mail-host.example.com", 'X_Y@SUB.EXAMPLE.ORG']) {
    assert.equal(isEmail(ok), true, ok);
  }
  const bad = ['', 'plain', '@example.com', 'a@', 'a@localhost', 'a b@example.com', 'a@exa mple.com',
    'a@-example.com', 'a@example-.com', 'a@example..com', 'a@@example.com', 'ज@example.com',
    `${'a'.repeat(65)}@example.com`, 'a@example.com\n'];
  for (const value of bad) assert.equal(isEmail(value), false, JSON.stringify(value));
});

test('isHttpsUrl demands https, a host and no credentials', () => {
  for (const ok of ['https://example.com', 'https://example.com/hook?x=1#f', 'HTTPS://Example.com:8443/a', 'https://127.0.0.1/cb', 'https://[::1]:9443/']) {
    assert.equal(isHttpsUrl(ok), true, ok);
  }
  const bad = ['', 'http://example.com', 'ftp://example.com', 'https://', 'https:example.com', 'https:/example.com',
    ' https://example.com', 'https://example.com ', 'https://exa mple.com', 'https://user:pass@example.com',
    'https://user@example.com', 'https://:@example.com', 'https://good.com\\@evil.com', 'https://a.com/\n',
    'javascript:alert(1)', '//example.com'];
  for (const value of bad) assert.equal(isHttpsUrl(value), false, JSON.stringify(value));
});

test('isPlainHttpUrl demands http, a host and no credentials', () => {
  for (const ok of ['http://127.0.0.1:3000/tijori/payin', 'HTTP://localhost/x', 'http://[::1]:3000/', 'http://receiver.internal/cb']) {
    assert.equal(isPlainHttpUrl(ok), true, ok);
  }
  for (const value of ['https://127.0.0.1/', 'http://', 'http:127.0.0.1', 'http://user@127.0.0.1/', 'http://a.com\\@b.com', ' http://127.0.0.1/']) {
    assert.equal(isPlainHttpUrl(value), false, JSON.stringify(value));
  }
});

test('isUuidV4 checks version and variant, in either case', () => {
  assert.equal(isUuidV4('0b6f1b5e-3c1a-4e5f-9a2b-1c2d3e4f5a6b'), true);
  assert.equal(isUuidV4('0B6F1B5E-3C1A-4E5F-BA2B-1C2D3E4F5A6B'), true);
  assert.equal(isUuidV4(crypto.randomUUID()), true);
  for (const bad of ['0b6f1b5e-3c1a-1e5f-9a2b-1c2d3e4f5a6b', '0b6f1b5e-3c1a-4e5f-7a2b-1c2d3e4f5a6b',
    '0b6f1b5e-3c1a-4e5f-ca2b-1c2d3e4f5a6b', '0b6f1b5e3c1a4e5f9a2b1c2d3e4f5a6b', '{0b6f1b5e-3c1a-4e5f-9a2b-1c2d3e4f5a6b}',
    '0b6f1b5e-3c1a-4e5f-9a2b-1c2d3e4f5a6g', '0b6f1b5e-3c1a-4e5f-9a2b-1c2d3e4f5a6b\n', '']) {
    assert.equal(isUuidV4(bad), false, bad);
  }
  assert.equal(isUuid('0b6f1b5e-3c1a-1e5f-9a2b-1c2d3e4f5a6b'), true);
  assert.equal(isUuid('not-a-uuid'), false);
});

test('isIndianMobile takes the bare 10 digits starting 6 to 9', () => {
  for (const ok of ['9876543210', '6000000000', '7123456789', '8999999999']) assert.equal(isIndianMobile(ok), true, ok);
  for (const bad of ['5876543210', '0987654321', '987654321', '98765432101', '+919876543210', '919876543210',
    '98765 43210', '98765-43210', '９８７６５４３２１０', '٩٨٧٦٥٤٣٢١٠', '9876543210\n', '']) {
    assert.equal(isIndianMobile(bad), false, bad);
  }
});

test('unstorableTextPath names the first field holding U+0000 or a lone surrogate', () => {
  assert.equal(unstorableTextPath({ a: 'ok', b: [1, 'fine 😀'], c: { d: null } }), null);
  assert.equal(unstorableTextPath({ purpose: 'ab\u0000c' }), 'purpose');
  assert.equal(unstorableTextPath({ beneficiary: { name: 'x\ud800' } }), 'beneficiary.name');
  assert.equal(unstorableTextPath({ list: ['ok', '\udc00'] }), 'list[1]');
  assert.equal(unstorableTextPath({ 'k\u0000': 1 }), 'body');
  assert.equal(unstorableTextPath('\u0000'), 'body');
});
