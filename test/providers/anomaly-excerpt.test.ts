/** The recorded excerpt of a provider anomaly (src/providers/anomalies.ts): named fields only, short, masked, storable. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { maskValue, safeExcerpt, storableText } from '../../src/providers/anomalies.js';

test('only the named fields enter the excerpt, in a fixed order; a secret or body under another name never does', () => {
  const text = safeExcerpt({ client_secret: 'cfsk_secret', raw_body: '{"a":1}', payment_status: 'SUCCESS_MAYBE', http_status: 200, upi_id: 'asha@okaxis' });
  assert.equal(text, 'http_status=200 payment_status="SUCCESS_MAYBE"');
});

test('a VPA or email keeps two characters before its @; 13 or more digits keep their last four; a 12-digit UTR stays', () => {
  assert.equal(maskValue('asha.rao@okicici'), '"…ao@…"');
  assert.equal(maskValue('pay to x@ybl now'), '"pay to …x@… now"');
  assert.equal(maskValue('50100012345678'), '"…5678"');
  assert.equal(maskValue(4111111111111111), '…1111');
  assert.equal(maskValue('234928698581'), '"234928698581"');
  assert.equal(maskValue(undefined), 'absent');
  assert.equal(maskValue({ nested: 'asha@okaxis' }), '(object)');
});

test('long values are cut at 60 code points, never inside a surrogate pair; unstorable characters replaced', () => {
  const long = maskValue('x'.repeat(100));
  assert.equal([...long].length, 60);
  assert.ok(long.endsWith('…'));
  const emoji = maskValue('😀'.repeat(80));
  const beforeEllipsis = emoji.charCodeAt(emoji.length - 2);
  assert.ok(!(beforeEllipsis >= 0xd800 && beforeEllipsis <= 0xdbff), 'no lone high surrogate before the ellipsis');
  assert.equal([...emoji].length, 60);
  assert.equal(storableText('a\u0000b\nc\ud800d😀'), 'a b c\ufffdd😀');
  assert.ok(safeExcerpt({ reason: 'y'.repeat(5_000), event: 'z'.repeat(5_000) }).length <= 600);
});
