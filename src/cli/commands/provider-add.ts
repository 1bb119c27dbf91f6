/**
 * `tijori provider add --org ORG --provider sandbox|cashfree|razorpayx --config-file FILE [--name N]`
 * (contract §8). The config file (JSON, with credentials) is read here and sent once to the admin
 * API, which stores it encrypted; nothing of it is printed.
 */
import { readFile } from 'node:fs/promises';
import { optionalString, requireString } from '../args.js';
import type { CliCommand } from '../command.js';
import { UsageError } from '../errors.js';

export const providerAdd: CliCommand = {
  name: 'provider add',
  summary: 'Adds a provider account to an organization; prints the callback URL to register at the provider.',
  flags: {
    org: { type: 'string', required: true, value: 'ORG', help: 'the organization (id)' },
    provider: { type: 'string', required: true, value: 'sandbox|cashfree|razorpayx', help: 'which provider the account is at' },
    'config-file': { type: 'string', required: true, value: 'FILE', help: "the account's JSON config (docs/providers.md); its credentials are stored encrypted" },
    name: { type: 'string', value: 'N', help: 'a name to recognise the account by' },
  },
  async run({ admin, flags }) {
    const file = requireString(flags, 'config-file');
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read --config-file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    let config: unknown;
    try {
      config = JSON.parse(text);
    } catch {
      throw new UsageError(`--config-file ${file} is not valid JSON`);
    }
    const name = optionalString(flags, 'name');
    const a = await admin.request<{ provider_account_id: string; provider: string; name: string; livemode: boolean; callback_url: string }>('POST', '/admin/provider-accounts', {
      org: requireString(flags, 'org'),
      provider: requireString(flags, 'provider'),
      config,
      ...(name ? { name } : {}),
    });
    return {
      json: { provider_account_id: a.provider_account_id, provider: a.provider, callback_url: a.callback_url },
      text: `${a.provider} account ${a.provider_account_id} (${a.name})${a.livemode ? ' — LIVE: real money' : ' — test mode'}\ncallback_url: ${a.callback_url}\nRegister this address as the webhook endpoint at the provider.`,
    };
  },
};
