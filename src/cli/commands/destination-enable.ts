/** `tijori destination enable --org ORG --kind payin|payout`: re-enables a disabled destination (docs/callbacks.md). */
import { requireString } from '../args.js';
import type { CliCommand } from '../command.js';

export const destinationEnable: CliCommand = {
  name: 'destination enable',
  summary: 'Re-enables a callback destination disabled after failing for 3 days; its parked deliveries are sent again.',
  flags: {
    org: { type: 'string', required: true, value: 'ORG', help: 'the organization (id)' },
    kind: { type: 'string', required: true, value: 'payin|payout', help: 'which destination' },
  },
  async run({ admin, flags }) {
    const org = requireString(flags, 'org');
    const kind = requireString(flags, 'kind');
    const r = await admin.request<{ kind: string; status: string; resumed: number }>(
      'POST',
      `/admin/orgs/${encodeURIComponent(org)}/destinations/${encodeURIComponent(kind)}/enable`,
    );
    return { json: { kind: r.kind, status: r.status, resumed: r.resumed }, text: `${r.kind} destination of ${org} enabled; ${r.resumed} parked delivery(ies) resumed` };
  },
};
