/** `tijori sandbox stats` (contract §2). */
import type { CliCommand } from '../command.js';

export const sandboxStats: CliCommand = {
  name: 'sandbox stats',
  summary: 'What the sandbox was asked: status checks per order, executions per payout transaction.',
  async run({ admin }) {
    const s = await admin.request<{ payin_status_checks: Record<string, number>; payout_executions: Record<string, number> }>('GET', '/admin/sandbox/stats');
    const json = { payin_status_checks: s.payin_status_checks ?? {}, payout_executions: s.payout_executions ?? {} };
    return { json, text: JSON.stringify(json, null, 2) };
  },
};
