/**
 * Callback destinations as the console manages them: the same DestinationsService as the CLI
 * (`tijori destination set`), plus the audit entry. The signing secret is answered once (first
 * configuration, rotation) and never audited.
 */
import type { Db } from '../../store/db.js';
import type { DestinationResult, DestinationsService } from '../destinations.js';
import { type Actor, recordAudit } from './audit.js';

export class ConsoleDestinations {
  constructor(private readonly deps: { db: Db; destinations: DestinationsService }) {}

  list(orgId: string) {
    return this.deps.destinations.list(orgId);
  }

  /** `events` (optional) is the subscription; its change is audited by the service. */
  async set(orgId: string, kind: string, url: string, actor: Actor, events?: readonly string[]): Promise<DestinationResult> {
    const before = (await this.deps.destinations.list(orgId)).find((d) => d.kind === kind);
    const r = await this.deps.destinations.set({ orgId, kind, url, events, actor });
    if (before?.url !== r.url) {
      await recordAudit(this.deps.db, actor, {
        orgId,
        action: r.created ? 'destination.created' : 'destination.url_changed',
        targetType: 'destination',
        targetId: r.kind,
        before: before ? { url: before.url } : null,
        after: { url: r.url },
      });
    }
    return { kind: r.kind, url: r.url, signing_secret: r.signing_secret, events: r.events };
  }

  async rotate(orgId: string, kind: string, actor: Actor): Promise<DestinationResult> {
    const r = await this.deps.destinations.rotateSecret(orgId, kind);
    await recordAudit(this.deps.db, actor, { orgId, action: 'destination.secret_rotated', targetType: 'destination', targetId: r.kind });
    return r;
  }
}
