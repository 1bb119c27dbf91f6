/**
 * Callback delivery, end to end in one process: N events recorded by 16 concurrent transactions,
 * delivered over HTTPS to a verifying receiver. Prints throughput and record→receipt latency.
 * Everything (load, service, receiver) shares the CPU here, so it understates a real deployment.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --import tsx bench/callbacks-delivery.ts [N]
 */
import { randomUUID } from 'node:crypto';
import { recordEvent } from '../src/services/callbacks/events.js';
import { payoutSuccessData, setDestination, startTrustedReceiver } from '../test/callbacks/helpers.js';
import { startTestService } from '../test/support/service.js';
import { percentile } from './support.js';

const N = Number(process.argv[2] ?? 5000);
const r = await startTrustedReceiver();
const ts = await startTestService({ ...r.env, LOG_LEVEL: 'warn' });
try {
  const org = await ts.createOrg();
  r.secrets['/b'] = (await setDestination(ts, org, 'payout', r.rx.url('/b'))).body.data.signing_secret;
  const committedAt = new Map<string, number>();
  const t0 = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < N) {
        next++;
        const e = await ts.svc.ctx.db.tx((tx) =>
          recordEvent(tx, { orgId: org, kind: 'payout.success', aggregateType: 'payout', aggregateId: randomUUID(), data: payoutSuccessData() }),
        );
        committedAt.set(e.id, Date.now());
      }
    }),
  );
  const recordedMs = Date.now() - t0;
  await r.rx.waitForRequests(N, 120_000);
  const totalMs = Date.now() - t0;
  const lags = r.rx.received.map((q) => q.receivedAt - committedAt.get(String(q.headers['x-service-event-id']))!).sort((a, b) => a - b);
  const pct = (p: number) => percentile(lags, p);
  console.log(
    JSON.stringify({
      events: N,
      recorded_per_s: Math.round(N / (recordedMs / 1000)),
      delivered_per_s: Math.round(N / (totalMs / 1000)),
      lag_ms: { p50: pct(0.5), p95: pct(0.95), p99: pct(0.99), max: lags.at(-1) },
      verified: r.rx.received.filter((q) => q.verification?.ok).length,
    }),
  );
} finally {
  await ts.stop();
  await r.close();
}
