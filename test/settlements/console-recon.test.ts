/**
 * The console's reconciliation API (contract §9): every role reads the organization's breaks; only
 * a reviewer (or admin) resolves one, with a note; the console's audit log records it in the same
 * transaction; another organization's break is not found. The sandbox's settlement list pages by
 * its cursor.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceWithClient } from '../support/service.js';
import { signedInUser } from '../support/console.js';
import { paid, q, settle, sync } from './helpers.js';

const w = serviceWithClient({ rateLimit: 100_000 });

test('a reviewer resolves a break in the console with a note, audited; a viewer cannot; another organization cannot see it', async () => {
  const { t, client } = w;
  await paid(t, client, 20_091); // settled 100 paise short: an AMOUNT_MISMATCH
  await settle(t, client.orgId);
  assert.equal((await sync(t, client.orgId)).breaks, 1);

  const viewer = await signedInUser(t, client.orgId, 'viewer@example.com', 'viewer');
  const listed = await viewer.call('GET', '/recon/breaks?status=open');
  assert.equal(listed.status, 200, listed.text);
  assert.equal(listed.body.data.length, 1);
  const id: string = listed.body.data[0].break_id;
  assert.equal((await viewer.call('POST', `/recon/breaks/${id}/resolve`, { note: 'looked' })).status, 403);

  const other = await t.createClient({});
  const stranger = await signedInUser(t, other.orgId, 'rev2@example.com', 'reviewer');
  assert.equal((await stranger.call('POST', `/recon/breaks/${id}/resolve`, { note: 'not mine' })).status, 404);
  assert.deepEqual((await stranger.call('GET', '/recon/breaks')).body.data, []);

  const reviewer = await signedInUser(t, client.orgId, 'reviewer@example.com', 'reviewer');
  assert.equal((await reviewer.call('POST', `/recon/breaks/${id}/resolve`, {})).status, 422, 'a note is required');
  const done = await reviewer.call('POST', `/recon/breaks/${id}/resolve`, { note: 'PSP confirmed the short payment; credit note 7' });
  assert.equal(done.status, 200, done.text);
  assert.deepEqual([done.body.data.status, done.body.data.resolved_by, done.body.data.resolution_note], ['resolved', 'reviewer@example.com', 'PSP confirmed the short payment; credit note 7']);
  assert.equal((await reviewer.call('POST', `/recon/breaks/${id}/resolve`, { note: 'again' })).status, 409);
  const audit = (await q(t, "SELECT action, target_type, after FROM console_audit_log WHERE target_id = $1", [id])).rows;
  assert.deepEqual(audit.map((a: any) => [a.action, a.target_type, a.after.status]), [['recon_break.resolved', 'recon_break', 'resolved']]);
  assert.equal((await viewer.call('GET', '/recon/breaks?status=resolved')).body.data.length, 1, 'a resolved break stays listed');
});

test("the sandbox's settlement list pages by its cursor; an unknown settlement is 404", async () => {
  const { t } = w;
  const c = await t.createClient({});
  for (const amount of [1_000, 2_000, 3_000]) {
    await paid(t, c, amount);
    await settle(t, c.orgId);
  }
  const base = (t.svc as unknown as { sandboxUrl: string }).sandboxUrl;
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 5; i++) {
    const r = await fetch(`${base}/psp/settlements?merchant=${c.orgId}&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
    const page = (await r.json()) as { data: Array<{ settlement_id: string; lines: unknown[] }>; next_cursor: string | null };
    seen.push(...page.data.map((s) => s.settlement_id));
    cursor = page.next_cursor;
    if (!cursor) break;
  }
  assert.equal(seen.length, 3);
  assert.equal(new Set(seen).size, 3);
  assert.equal((await fetch(`${base}/psp/settlements/SBXSETNOPE`)).status, 404);
  assert.equal((await fetch(`${base}/psp/settlements?limit=0`)).status, 400);
  // The service reads them the same way: three settlements, three lines.
  assert.deepEqual(await sync(t, c.orgId), { settlements_new: 3, lines_new: 3, matched: 3, breaks: 0 });
});
