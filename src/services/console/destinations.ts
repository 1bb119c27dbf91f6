/**
 * Callback destinations as the console manages them: the same DestinationsService as the CLI
 * (`tijori destination set`), plus the audit entry, written inside the change's own transaction
 * through the service's change hook (both commit or neither does). The signing secret is answered once (first
 * configuration, rotation) and never audited.
 */
import type { Db } from '../../store/db.js';
import type { DestinationKind, DestinationResult, DestinationsService, RotationResult } from '../callbacks/destinations.js';
import { type Actor, recordAudit } from './audit.js';

export class ConsoleDestinations {
  constructor(private readonly deps: { db: Db; destinations: DestinationsService }) {}

  list(orgId: string) {
    return this.deps.destinations.list(orgId);
  }

  /** `events` (optional) is the subscription; its change is audited by the service. */
  async set(orgId: string, kind: string, url: string, actor: Actor, events?: readonly string[], scheme?: string): Promise<DestinationResult> {
    const r = await this.deps.destinations.set({ orgId, kind, url, events, scheme, actor }, async (tx, c) => {
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
    return { kind: r.kind, url: r.url, signing_secret: r.signing_secret, events: r.events, scheme: r.scheme };
  }

  /** A new secret beside the old one (contract §11); the old one keeps signing until activate or 72 h. */
  async rotate(orgId: string, kind: string, actor: Actor): Promise<RotationResult> {
    return this.deps.destinations.rotateSecret(orgId, kind, (tx, k) =>
      recordAudit(tx, actor, { orgId, action: 'destination.secret_rotated', targetType: 'destination', targetId: k }),
    );
  }

  /** "Activate new secret": only the new secret signs from now on. */
  async activate(orgId: string, kind: string, actor: Actor): Promise<{ kind: DestinationKind; url: string; activated_at: string }> {
    return this.deps.destinations.activateSecret(orgId, kind, (tx, k) =>
      recordAudit(tx, actor, { orgId, action: 'destination.secret_activated', targetType: 'destination', targetId: k, after: { by: 'hand' } }),
    );
  }
}
