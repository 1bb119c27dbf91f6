/**
 * Issue #29's attacks in the security suite (`npm run test:faults`, FAULTS_FULL=1), so they stay
 * fixed: each file reproduces one attack through the real HTTP routes on real PostgreSQL.
 * - test/console/signin-races.test.ts: a burst of wrong passwords evaluates at most the allowance;
 *   wrong TOTP codes count across challenges; weak passwords; polls are not use.
 * - test/providers/tenant-webhooks.test.ts: another tenant's webhook cannot silence this one's.
 * - test/approvals/dual-control.test.ts: puppet checkers, hijacked set-up links, puppet makers.
 * - test/console/credential-approvals.test.ts: a payouts:write credential needs a second admin.
 * - test/refunds/client-refund-dual-control.test.ts: an admin's own collections:write client asks
 *   for a refund and the admin approves it (refused, by lineage too); refund review cannot be turned
 *   off from the console.
 * - test/console/collections-dual-control.test.ts: an admin adds a provider account and chooses it
 *   for collections alone (new payments collected into it): refused, by lineage too.
 * - test/console/mail-account-api.test.ts: with SMTP the invitation / reset link is mailed, never in
 *   the admin's answer (a refused mail leaves nothing); "Forgot password?" tells no email apart; a
 *   stolen session's guesses of the current password count towards the lock.
 * (RazorpayX replay and staleness: test/payout/razorpayx-service.test.ts; the console security
 * matrix covers the new routes.) Under plain `npm test` the files run on their own, so this one
 * only says so.
 */
import { test } from 'node:test';

if (process.env.FAULTS_FULL === '1') {
  await import('../console/signin-races.test.js');
  await import('../providers/tenant-webhooks.test.js');
  await import('../approvals/dual-control.test.js');
  await import('../console/credential-approvals.test.js');
  await import('../refunds/client-refund-dual-control.test.js');
  await import('../console/mail-account-api.test.js');
  await import('../console/collections-dual-control.test.js');
} else {
  test('issue #29 attacks: run by npm run test:faults (the files themselves run under npm test)', () => {});
}
