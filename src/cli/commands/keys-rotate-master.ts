/**
 * `tijori keys rotate-master [--batch N]`: re-encrypts every encrypted column under the current
 * MASTER_KEY of the running service (which must run with MASTER_KEY_PREVIOUS set), one page per
 * admin API call, then verifies. Stopped anywhere (Ctrl-C, a lost connection), it is resumed by
 * running it again: values already under the new key are skipped. docs/operations.md.
 */
import { optionalInt } from '../args.js';
import type { CliCommand } from '../command.js';
import { UsageError } from '../errors.js';

interface Cursor {
  column: number;
  after: string[] | null;
}
interface Step {
  rotated: number;
  already_current: number;
  unreadable: Array<{ table: string; column: string; key: string[] }>;
  next: Cursor | null;
}
interface ColumnCount {
  table: string;
  column: string;
  current: number;
  previous: number;
  unreadable: number;
}

export const keysRotateMaster: CliCommand = {
  name: 'keys rotate-master',
  summary: 'Re-encrypts every secret and account number under the new MASTER_KEY (the service runs with MASTER_KEY_PREVIOUS set); resumable, audited.',
  flags: { batch: { type: 'string', value: 'N', help: 'rows per admin API call (1–5000, default 500)' } },
  async run({ admin, flags }) {
    const batch = optionalInt(flags, 'batch') ?? 500;
    if (batch < 1 || batch > 5000) throw new UsageError('--batch must be an integer from 1 to 5000');
    let cursor: Cursor | null = null;
    let rotated = 0;
    let alreadyCurrent = 0;
    const unreadable: Step['unreadable'] = [];
    for (let first = true; first || cursor !== null; first = false) {
      const step: Step = await admin.request<Step>('POST', '/admin/keys/rotate-master', { ...(cursor ? { cursor } : {}), limit: batch });
      rotated += step.rotated;
      alreadyCurrent += step.already_current;
      unreadable.push(...step.unreadable);
      cursor = step.next;
    }
    const verified = await admin.request<{ complete: boolean; columns: ColumnCount[] }>('POST', '/admin/keys/rotate-master/verify');
    const lines = verified.columns.map((c) => `  ${`${c.table}.${c.column}`.padEnd(42)} current ${c.current}, previous ${c.previous}, unreadable ${c.unreadable}`);
    return {
      json: { rotated, already_current: alreadyCurrent, unreadable, complete: verified.complete, columns: verified.columns },
      text: [
        `re-encrypted ${rotated} value(s); ${alreadyCurrent} already under the new key; ${unreadable.length} unreadable under either key`,
        ...lines,
        verified.complete
          ? 'Complete: every value is under the new MASTER_KEY. Remove MASTER_KEY_PREVIOUS (keep LOOKUP_KEY) and restart the instances.'
          : 'NOT complete: keep MASTER_KEY_PREVIOUS and run this again; unreadable values need a look (docs/operations.md).',
      ].join('\n'),
    };
  },
};
