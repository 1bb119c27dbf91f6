/** `tijori collections use --org ORG --provider-account ID` (contract §8): the account of the organization's new payment orders. */
import { requireString } from '../args.js';
import type { CliCommand } from '../command.js';

export const collectionsUse: CliCommand = {
  name: 'collections use',
  summary: "Sets the provider account used for an organization's new payment orders (existing orders keep theirs).",
  flags: {
    org: { type: 'string', required: true, value: 'ORG', help: 'the organization (id)' },
    'provider-account': { type: 'string', required: true, value: 'ID', help: 'a sandbox or cashfree account of the organization (`tijori provider list`)' },
  },
  async run({ admin, flags }) {
    const org = requireString(flags, 'org');
    const a = await admin.request<{ provider_account_id: string; provider: string; name: string; livemode: boolean }>('PUT', `/admin/orgs/${encodeURIComponent(org)}/collections`, {
      provider_account_id: requireString(flags, 'provider-account'),
    });
    return {
      json: { org_id: org, provider_account_id: a.provider_account_id, provider: a.provider, livemode: a.livemode },
      text: `new payment orders of ${org} now go through ${a.provider} account ${a.provider_account_id} (${a.name})${a.livemode ? ' — LIVE: real money' : ''}`,
    };
  },
};
