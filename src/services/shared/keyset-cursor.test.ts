import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeCursor, encodeCursor } from './keyset-cursor.js';

const ID = '0190f3c4-5b6a-7c8d-9e0f-1a2b3c4d5e6f';
const US = /^[0-9]{1,17}$/;
const TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

test('a cursor round-trips for both kinds of position, and is the merchant lists\' format byte for byte', () => {
  const merchant = encodeCursor({ position: '1763964000123456', id: ID });
  assert.equal(merchant, Buffer.from(`1763964000123456.${ID}`).toString('base64url'));
  assert.deepEqual(decodeCursor(merchant, US), { position: '1763964000123456', id: ID });
  const consoleList = encodeCursor({ position: '2026-11-24T06:00:00.123456Z', id: ID });
  assert.deepEqual(decodeCursor(consoleList, TS), { position: '2026-11-24T06:00:00.123456Z', id: ID });
});

test('only a cursor this service issued decodes', () => {
  const b64 = (text: string) => Buffer.from(text).toString('base64url');
  // Another list's position, an id that is not a lowercase UUID, junk, padding, or another spelling of the same bytes.
  assert.equal(decodeCursor(encodeCursor({ position: '2026-11-24T06:00:00.123456Z', id: ID }), US), null);
  assert.equal(decodeCursor(encodeCursor({ position: '1763964000123456', id: ID }), TS), null);
  assert.equal(decodeCursor(b64(`1.${ID.toUpperCase()}`), US), null);
  assert.equal(decodeCursor(b64(`1.${ID}x`), US), null);
  assert.equal(decodeCursor(b64(`.${ID}`), US), null);
  for (const bad of ['', 'not a cursor!', 'not-a-cursor', `${b64(`1.${ID}`)}=`, 'A'.repeat(97)]) assert.equal(decodeCursor(bad, US), null, bad);
});
