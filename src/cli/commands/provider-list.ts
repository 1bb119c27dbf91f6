/** `tijori provider list --org ORG` (contract §8): the organization's provider accounts, never a credential. */
import { requireString } from '../args.js';
import type { CliCommand } from '../command.js';

interface AccountRow {
  provider_account_id: string;
  provider: string;
  name: string;
  livemode: boolean;
}

export const providerList: CliCommand = {
  name: 'provider list',
  summary: "Lists an organization's provider accounts (no credentials).",
  flags: { org: { type: 'string', required: true, value: 'ORG', help: "the organization's id" } },
  async run({ admin, flags }) {
    const org = requireString(flags, 'org');
    const rows = await admin.request<AccountRow[]>('GET', `/admin/orgs/${encodeURIComponent(org)}/provider-accounts`);
    const json = rows.map((a) => ({ provider_account_id: a.provider_account_id, provider: a.provider, name: a.name, livemode: a.livemode }));
    const text = rows.length === 0 ? `no provider accounts in ${org} (the built-in sandbox is used)` : rows.map((a) => `${a.provider_account_id}  ${a.provider.padEnd(9)} ${a.livemode ? 'live' : 'test'}  ${a.name}`).join('\n');
    return { json, text };
  },
};
