/** `tijori sandbox stats` (contract §2, §6): what the sandbox executed, per order, payout and refund. */
import type { CliCommand } from '../command.js';

type Counts = Record<string, number>;

export const sandboxStats: CliCommand = {
  name: 'sandbox stats',
  summary: 'What the sandbox was asked: status checks per order, executions per payout transaction and per refund.',
  async run({ admin }) {
    const s = await admin.request<{ payin_status_checks?: Counts; payout_executions?: Counts; refund_executions?: Counts }>('GET', '/admin/sandbox/stats');
    const json = { payin_status_checks: s.payin_status_checks ?? {}, payout_executions: s.payout_executions ?? {}, refund_executions: s.refund_executions ?? {} };
    return { json, text: JSON.stringify(json, null, 2) };
  },
};
