/** `tijori destination set --org ORG --kind payin|payout --url HTTPS_URL [--events e1,e2,...] [--scheme tijori-v1|standard-webhooks]` (contract §2, §7, §11). */
import { list, requireString } from '../args.js';
import type { CliCommand } from '../command.js';

export const destinationSet: CliCommand = {
  name: 'destination set',
  summary: "Sets an organization's PayIn or PayOut callback destination. Its signing secret is shown once, on first configuration.",
  flags: {
    org: { type: 'string', required: true, value: 'ORG', help: 'the organization (id)' },
    kind: { type: 'string', required: true, value: 'payin|payout', help: 'which callbacks go there' },
    url: { type: 'string', required: true, value: 'HTTPS_URL', help: 'where the signed callbacks are posted' },
    events: {
      type: 'string',
      list: true,
      multiple: true,
      value: 'e1,e2,...',
      help: "the event types it receives (default on creation: the API document's types of its kind; unchanged when omitted later)",
    },
    scheme: {
      type: 'string',
      value: 'tijori-v1|standard-webhooks',
      help: "how deliveries are signed: the API document's X-Service-* headers (tijori-v1, the default) or Standard Webhooks (webhook-* headers); unchanged when omitted",
    },
  },
  async run({ admin, flags }) {
    const org = requireString(flags, 'org');
    const kind = requireString(flags, 'kind');
    const events = list(flags, 'events');
    const scheme = typeof flags.scheme === 'string' ? flags.scheme : undefined;
    const d = await admin.request<{ kind: string; url: string; signing_secret: string | null; events: string[]; scheme: string }>(
      'PUT',
      `/admin/orgs/${encodeURIComponent(org)}/destinations/${encodeURIComponent(kind)}`,
      { url: requireString(flags, 'url'), ...(events.length > 0 ? { events } : {}), ...(scheme === undefined ? {} : { scheme }) },
    );
    const subscribed = `events: ${d.events.join(', ')}\nscheme: ${d.scheme}`;
    const text =
      d.signing_secret === null
        ? `${d.kind} destination of ${org} now ${d.url}\n${subscribed}\nIts signing secret is unchanged (it was shown when the destination was first configured).`
        : `${d.kind} destination of ${org}: ${d.url}\n${subscribed}\nsigning_secret: ${d.signing_secret}\nThe secret is shown only now: store it where the receiver can read it.`;
    // Exactly {kind, url, signing_secret} as contract §2 prints it; `events` too when they were chosen here.
    const json = { kind: d.kind, url: d.url, signing_secret: d.signing_secret, ...(events.length > 0 ? { events: d.events } : {}), ...(scheme === undefined ? {} : { scheme: d.scheme }) };
    return { json, text };
  },
};
