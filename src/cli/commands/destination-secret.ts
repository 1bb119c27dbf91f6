/**
 * Secret rotation without downtime (contract §11):
 *   tijori destination rotate-secret   --org ORG --kind payin|payout
 *   tijori destination activate-secret --org ORG --kind payin|payout
 * rotate-secret answers `{"signing_secret": NEW, "active_from": ISO_TIME}`: the new secret, shown
 * once; deliveries stay signed with the old one until activate-secret or `active_from` (72 h on).
 */
import { requireString } from '../args.js';
import type { CliCommand } from '../command.js';

const flags = {
  org: { type: 'string', required: true, value: 'ORG', help: 'the organization (id)' },
  kind: { type: 'string', required: true, value: 'payin|payout', help: 'which destination' },
} as const;

const path = (org: string, kind: string, action: string) => `/admin/orgs/${encodeURIComponent(org)}/destinations/${encodeURIComponent(kind)}/${action}`;

export const destinationRotateSecret: CliCommand = {
  name: 'destination rotate-secret',
  summary: "Gives a destination a new signing secret, shown once; the old one keeps signing until activate-secret or 72 hours.",
  flags,
  async run({ admin, flags: f }) {
    const org = requireString(f, 'org');
    const kind = requireString(f, 'kind');
    const r = await admin.request<{ kind: string; signing_secret: string; active_from: string }>('POST', path(org, kind, 'rotate-secret'));
    return {
      json: { signing_secret: r.signing_secret, active_from: r.active_from },
      text:
        `signing_secret: ${r.signing_secret}\nactive_from: ${r.active_from}\n` +
        `The secret is shown only now. Give it to the receiver beside the old one (verify with either), then run\n` +
        `  tijori destination activate-secret --org ${org} --kind ${r.kind}\n` +
        `or wait until ${r.active_from}: until then deliveries stay signed with the old secret.`,
    };
  },
};

export const destinationActivateSecret: CliCommand = {
  name: 'destination activate-secret',
  summary: 'Switches a destination to its rotated secret now: only the new secret signs from here on (replays included).',
  flags,
  async run({ admin, flags: f }) {
    const org = requireString(f, 'org');
    const kind = requireString(f, 'kind');
    const r = await admin.request<{ kind: string; activated_at: string }>('POST', path(org, kind, 'activate-secret'));
    return {
      json: { kind: r.kind, activated_at: r.activated_at },
      text: `${r.kind} destination of ${org} signs with its new secret from ${r.activated_at}; the old one is gone (the receiver may drop it).`,
    };
  },
};
