/**
 * Delivery of merchant callbacks from the outbox (API §6, contract §4): claim due deliveries, make
 * one signed attempt each, record every attempt and decide what comes next. Also the operator's
 * view of an event's deliveries (replay is event-log.ts).
 *
 * Signing happens here, at send time, over the byte-identical stored body, so every attempt has a
 * fresh timestamp (a retry hours later still passes the receiver's five-minute tolerance).
 */
import { randomUUID } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { deliveryOutcome, isFailedDelivery } from '../../callbacks/outcome.js';
import { signedHeaders } from '../../callbacks/signature.js';
import { AppError } from '../../domain/errors.js';
import { isUuid } from '../../domain/text.js';
import { postCallback, type PostCallbackResult } from '../../net/safe-dispatcher.js';
import type { Logger } from '../../observability/logger.js';
import type { Metrics } from '../../observability/metrics.js';
import type { Vault } from '../../security/vault.js';
import type { Db } from '../../store/db.js';
import { listen, type Subscription } from '../../store/notify.js';
import * as repo from '../../store/repos/callbacks-repo.js';
import { onDeliveriesCommitted } from './delivery-signal.js';
import { destinationSecretContext } from './destinations.js';

/** A claim outlives the longest attempt (10 s) with room to record it; then another worker may retry. */
export const CLAIM_LEASE_SECONDS = 60;

export interface DeliveriesDeps {
  db: Db;
  vault: Vault;
  log: Logger;
  metrics: Metrics;
  retryScale: number;
  random?: () => number;
}

export class DeliveriesService {
  private readonly attemptsTotal;
  private readonly attemptSeconds;
  private readonly lagSeconds;

  constructor(private readonly deps: DeliveriesDeps) {
    this.attemptsTotal = deps.metrics.counter('tijori_callback_attempts_total', 'Callback delivery attempts, by result', ['result']);
    this.attemptSeconds = deps.metrics.histogram('tijori_callback_attempt_seconds', 'Callback attempt latency (request to response)', [], [
      0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
    ]);
    this.lagSeconds = deps.metrics.histogram('tijori_callback_first_attempt_lag_seconds', 'Event creation to the start of its first attempt', [], [
      0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5, 30,
    ]);
  }

  /**
   * Calls `wake` whenever new deliveries were committed: by this instance (in-process, see
   * delivery-signal.ts) or by another one (PostgreSQL NOTIFY). `close()` stops both.
   */
  onNewDeliveries(wake: () => void): Subscription {
    const unsubscribeLocal = onDeliveriesCommitted(wake);
    const remote = listen(this.deps.db, repo.DELIVERIES_CHANNEL, wake, this.deps.log);
    return {
      close: async () => {
        unsubscribeLocal();
        await remote.close();
      },
    };
  }

  /** Claims up to `limit` due deliveries for one worker. */
  claim(limit: number): Promise<repo.ClaimedDelivery[]> {
    return repo.claimDueDeliveries(this.deps.db, { limit, leaseSeconds: CLAIM_LEASE_SECONDS, claimToken: randomUUID() });
  }

  /** One attempt of a claimed delivery, recorded. Never throws. */
  async attempt(d: repo.ClaimedDelivery, dispatcher: Dispatcher): Promise<void> {
    const url = d.url ?? '';
    try {
      if (d.attempts === 0) this.observeLag(d.body);
      const result = await this.send(d, dispatcher);
      const next = deliveryOutcome({
        ok: result.ok,
        statusCode: result.status,
        scheduleStep: d.schedule_step + 1,
        retryScale: this.deps.retryScale,
        random: this.deps.random ?? Math.random,
      });
      this.attemptsTotal.inc({ result: result.ok ? 'delivered' : (result.error ?? 'failed').split(':')[0]! });
      this.attemptSeconds.observe(result.latencyMs / 1000);
      // Results of attempts that finish together are recorded in one statement.
      await repo.recordAttempt(this.deps.db, {
        deliveryId: d.id,
        claimToken: d.claim_token,
        attemptNo: d.attempts + 1,
        url,
        statusCode: result.status,
        latencyMs: result.latencyMs,
        error: result.error,
        // PostgreSQL text cannot hold NUL; a merchant's response may contain anything.
        responseSnippet: result.responseSnippet?.replaceAll('\u0000', '\uFFFD') ?? null,
        next,
      });
      if (isFailedDelivery(next.status)) {
        this.deps.log.warn({ delivery: d.id, event: d.event_id, target: d.target, status: next.status, error: result.error }, 'callback delivery stopped');
      }
    } catch (err) {
      // The claim expires and another attempt follows: at least once, never lost.
      this.deps.log.warn({ delivery: d.id, event: d.event_id, err: (err as Error).message }, 'callback attempt could not be recorded');
    }
  }

  private async send(d: repo.ClaimedDelivery, dispatcher: Dispatcher): Promise<PostCallbackResult> {
    if (d.url === null || d.secret_enc === null) return { ok: false, status: null, latencyMs: 0, error: 'destination_missing', responseSnippet: null };
    let secret: string;
    try {
      const context = d.secret_context ?? destinationSecretContext(d.org_id, d.target as repo.DestinationKind);
      secret = this.deps.vault.decrypt(d.secret_enc, context);
    } catch {
      return { ok: false, status: null, latencyMs: 0, error: 'secret_unreadable', responseSnippet: null };
    }
    let headers: Record<string, string>;
    try {
      headers = signedHeaders(d.scheme ?? 'tijori-v1', { eventId: d.event_id, secret, rawBody: d.body });
    } catch {
      return { ok: false, status: null, latencyMs: 0, error: 'secret_unusable_for_scheme', responseSnippet: null };
    }
    return postCallback({ dispatcher, url: d.url, headers, body: d.body });
  }

  private observeLag(body: string): void {
    const createdAt = /"created_at":"([^"]+)"/.exec(body)?.[1];
    const ms = createdAt ? Date.now() - Date.parse(createdAt) : NaN;
    if (Number.isFinite(ms)) this.lagSeconds.observe(Math.max(ms, 0) / 1000);
  }

  /** The deliveries of one event and all their attempts, for operators. */
  async show(eventId: string): Promise<{ event_id: string; deliveries: Array<Record<string, unknown>> }> {
    const event = isUuid(eventId) ? await repo.findEvent(this.deps.db, eventId) : null;
    if (!event) throw new AppError('NOT_FOUND', 'No such event.');
    const { deliveries, attempts } = await repo.deliveriesOfEvent(this.deps.db, eventId);
    return {
      event_id: eventId,
      deliveries: deliveries.map((d) => ({
        id: d.id,
        target: d.target,
        status: d.status,
        attempts: d.attempts,
        next_attempt_at: d.status === 'pending' ? d.next_attempt_at.toISOString() : null,
        delivered_at: d.delivered_at?.toISOString() ?? null,
        last_status_code: d.last_status_code,
        last_error: d.last_error,
        attempt_log: attempts
          .filter((a) => a.delivery_id === d.id)
          .map((a) => ({
            attempt: a.attempt_no,
            at: a.attempted_at.toISOString(),
            url: a.url,
            status_code: a.status_code,
            latency_ms: a.latency_ms,
            error: a.error,
            response_snippet: a.response_snippet,
          })),
      })),
    };
  }
}
