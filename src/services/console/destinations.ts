/**
 * Callback destinations as the console manages them: the same DestinationsService as the CLI
 * (`tijori destination set`), plus the audit entry, written inside the change's own transaction
 * through the service's change hook (both commit or neither does). The signing secret is answered once (first
 * configuration, rotation) and never audited.
 */
import type { Db } from '../../store/db.js';
import type { DestinationResult, DestinationsService } from '../callbacks/destinations.js';
import { type Actor, recordAudit } from './audit.js';

export class ConsoleDestinations {
  constructor(private readonly deps: { db: Db; destinations: DestinationsService }) {}

  list(orgId: string) {
    return this.deps.destinations.list(orgId);
  }

  /** `events` (optional) is the subscription; its change is audited by the service. */
  async set(orgId: string, kind: string, url: string, actor: Actor, events?: readonly string[]): Promise<DestinationResult> {
    const r = await this.deps.destinations.set({ orgId, kind, url, events, actor }, async (tx, c) => {
      if (c.previousUrl === c.url) return; // the same URL again changes nothing
      await recordAudit(tx, actor, {
        orgId,
        action: c.created ? 'destination.created' : 'destination.url_changed',
        targetType: 'destination',
        targetId: c.kind,
        before: c.previousUrl === null ? null : { url: c.previousUrl },
        after: { url: c.url },
      });
    });
    return { kind: r.kind, url: r.url, signing_secret: r.signing_secret, events: r.events };
  }

  async rotate(orgId: string, kind: string, actor: Actor): Promise<DestinationResult> {
    return this.deps.destinations.rotateSecret(orgId, kind, (tx, k) => recordAudit(tx, actor, { orgId, action: 'destination.secret_rotated', targetType: 'destination', targetId: k }));
  }
}
