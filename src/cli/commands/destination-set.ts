/** `tijori destination set --org ORG --kind payin|payout --url HTTPS_URL` (contract §2). */
import { requireString } from '../args.js';
import type { CliCommand } from '../command.js';

export const destinationSet: CliCommand = {
  name: 'destination set',
  summary: "Sets an organization's PayIn or PayOut callback destination. Its signing secret is shown once, on first configuration.",
  flags: {
    org: { type: 'string', required: true, value: 'ORG', help: 'the organization (id)' },
    kind: { type: 'string', required: true, value: 'payin|payout', help: 'which callbacks go there' },
    url: { type: 'string', required: true, value: 'HTTPS_URL', help: 'where the signed callbacks are posted' },
  },
  async run({ admin, flags }) {
    const org = requireString(flags, 'org');
    const kind = requireString(flags, 'kind');
    const d = await admin.request<{ kind: string; url: string; signing_secret: string | null }>(
      'PUT',
      `/admin/orgs/${encodeURIComponent(org)}/destinations/${encodeURIComponent(kind)}`,
      { url: requireString(flags, 'url') },
    );
    const text =
      d.signing_secret === null
        ? `${d.kind} destination of ${org} now ${d.url}\nIts signing secret is unchanged (it was shown when the destination was first configured).`
        : `${d.kind} destination of ${org}: ${d.url}\nsigning_secret: ${d.signing_secret}\nThe secret is shown only now: store it where the receiver can read it.`;
    return { json: { kind: d.kind, url: d.url, signing_secret: d.signing_secret }, text };
  },
};
