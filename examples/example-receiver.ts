/**
 * A complete merchant callback receiver (docs/callbacks.md): plain node:http, no framework.
 * To use it, copy this file and `verifier.ts` (self-contained, only `node:` imports) into your
 * project and run it with tsx, or compile both with tsc. From this repository (README, "Try it"):
 *
 *   TIJORI_PAYIN_SECRET=whsec_... TIJORI_PAYOUT_SECRET=whsec_... \
 *   TIJORI_API_BASE=http://127.0.0.1:8080/api/v1 TIJORI_CLIENT_ID=tj_client_... TIJORI_CLIENT_SECRET=tj_secret_... \
 *   RECEIVER_PORT=3000 node --import tsx examples/example-receiver.ts
 *
 * It takes PayIn events on POST /tijori/payin and PayOut events on POST /tijori/payout. The rules
 * it follows (docs/callbacks.md, "Verifying: the rules"): verify the raw body bytes (never
 * re-serialized JSON), reject stale timestamps and bad signatures with 401, remember processed
 * event ids, answer 2xx promptly and do the work afterwards, and retrieve the payment order from
 * the API before fulfilling.
 */
import { createServer, type Server } from 'node:http';
import { pathToFileURL } from 'node:url';
import { MemoryReplayStore, type ReplayStore, verifyNodeRequest } from './verifier.js';

export interface ReceiverOptions {
  /** Signing secrets printed by `tijori destination set` (shown once: keep them in a secret store). */
  payinSecret: string;
  payoutSecret: string;
  /** Your Tijori base address including /api/v1, and API credentials with collections:read. */
  apiBase: string;
  clientId: string;
  clientSecret: string;
  /** Your business: ship the goods. Called at most once per order by this receiver. */
  fulfilOrder(order: Record<string, unknown>): Promise<void>;
  /** Your business: mark the payout done and keep its UTR. */
  recordPayout(data: Record<string, unknown>): Promise<void>;
  /** Use a shared store (Redis SET NX EX, a database table) when several receiver processes run. */
  replayStore?: ReplayStore;
  log?: (message: string) => void;
}

type Event = { event: string; event_id: string; data: Record<string, unknown> };

export function createCallbackReceiver(o: ReceiverOptions): Server {
  const replayStore = o.replayStore ?? new MemoryReplayStore();
  const log = o.log ?? ((m: string) => console.log(m));

  async function retrieveOrder(orderId: string): Promise<Record<string, unknown> | null> {
    const res = await fetch(`${o.apiBase}/merchant/payment-orders/${encodeURIComponent(orderId)}`, {
      headers: { 'X-Service-Client-Id': o.clientId, Authorization: `Bearer ${o.clientSecret}` },
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok) return null;
    const body = (await res.json()) as { data?: Record<string, unknown> };
    return body.data ?? null;
  }

  async function handleEvent(e: Event): Promise<void> {
    switch (e.event) {
      case 'collection.received': {
        if (e.data.status !== 'PAID') return; // fulfil only when data.status is PAID
        // The callback says "look"; the API says what is true.
        const order = await retrieveOrder(String(e.data.order_id));
        if (order?.status === 'PAID' && order.provider_status === 'SUCCESS' && order.amount_paise === e.data.amount_paise) {
          await o.fulfilOrder(order);
        } else {
          log(`order ${String(e.data.order_id)} not confirmed by the API; not fulfilled`);
        }
        return;
      }
      case 'payout.success': // the only event that means money arrived; retain its UTR
        await o.recordPayout(e.data);
        return;
      default: // payout.created, payout.failed, refund events: update your records
        log(`event ${e.event} ${e.event_id}`);
    }
  }

  return createServer(async (req, res) => {
    const secret = req.method !== 'POST' ? undefined : req.url === '/tijori/payin' ? o.payinSecret : req.url === '/tijori/payout' ? o.payoutSecret : undefined;
    if (!secret) {
      res.writeHead(404).end();
      return;
    }
    // Reads the raw bytes itself: no body parser may touch this route.
    const result = await verifyNodeRequest(req, secret, { replayStore });
    // Answer at once (200 for a verified delivery and for a replay of one already accepted, 401
    // otherwise); the work happens after the answer, so a slow fulfilment never causes a retry.
    res.writeHead(result.status).end();
    if (!result.ok) {
      log(result.reason === 'replayed' ? 'replayed callback ignored' : `rejected callback: ${result.reason}`);
      return;
    }
    const event = result.event as Event;
    log(`verified ${event.event} ${result.eventId}`);
    // In production, write the event to your own durable queue or table *before* answering, so a
    // crash after the 200 cannot lose it (the replay store would refuse the redelivery).
    setImmediate(() => handleEvent(event).catch((err: Error) => log(`processing ${result.eventId} failed: ${err.message}`)));
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const env = (name: string): string => {
    const v = process.env[name];
    if (!v) throw new Error(`${name} is required`);
    return v;
  };
  const server = createCallbackReceiver({
    payinSecret: env('TIJORI_PAYIN_SECRET'),
    payoutSecret: env('TIJORI_PAYOUT_SECRET'),
    apiBase: env('TIJORI_API_BASE'),
    clientId: env('TIJORI_CLIENT_ID'),
    clientSecret: env('TIJORI_CLIENT_SECRET'),
    fulfilOrder: async (order) => console.log(`fulfil ${String(order.order_id)}`),
    recordPayout: async (p) => console.log(`payout ${String(p.transaction_id)} done, UTR ${String(p.utr)}`),
  });
  // In production Tijori only sends HTTPS: terminate TLS in front of this (a reverse proxy or load
  // balancer). Plain http:// reaches it only on your own machine or network, in development
  // (CALLBACK_ALLOW_PRIVATE_NETWORKS=true, docs/callbacks.md).
  const port = Number(process.env.RECEIVER_PORT || 3000);
  server.listen(port, '127.0.0.1', () => console.log(`receiver listening on http://127.0.0.1:${port}`));
}
