/** `tijori destination set --org ORG --kind payin|payout --url HTTPS_URL` (contract §2). */
import type { CliCommand } from '../registry.js';
import { CliError } from '../admin-client.js';
import { requireString } from '../args.js';

export const destinationCommand: CliCommand = {
  group: 'destination',
  usage: 'destination set --org ORG --kind payin|payout --url HTTPS_URL',
  async run({ admin, sub, flags }) {
    if (sub !== 'set') throw new CliError(`usage: tijori ${this.usage} [--json]`);
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
