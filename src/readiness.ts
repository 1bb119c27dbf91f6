/**
 * What of an instance is ready to serve (issue #28 item 3): `/healthz` answers 200 and the
 * start-up line is written only once every part is, so a create right after them never meets a
 * sandbox that is not listening or workers that have not started; `/readyz` names what is not.
 * The database is also checked live by `/readyz` (it can go away after start-up).
 */
export type ReadyPart = 'database' | 'sandbox' | 'workers';

export class Readiness {
  private readonly pending = new Set<ReadyPart>(['database', 'sandbox', 'workers']);

  ready(part: ReadyPart): void {
    this.pending.delete(part);
  }

  /** The parts not ready yet, in a fixed order. */
  notReady(): ReadyPart[] {
    return (['database', 'sandbox', 'workers'] as const).filter((p) => this.pending.has(p));
  }

  get started(): boolean {
    return this.pending.size === 0;
  }
}
