/** Request schemas of the organization's settings pages: API clients, destinations, users, audit log (../api.ts). */
import { RATE_LIMIT_BOUNDS } from '../../../../domain/rate-limit.js';
import { SCOPES } from '../../../../domain/scopes.js';
import { Type } from '@sinclair/typebox';
import { consoleOperation as op, ISO_TIME, LimitText, strict } from './common.js';
import * as A from './answers.js';

export const ClientBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 200 })),
    scopes: Type.Array(Type.String({ maxLength: 40 }), { minItems: 1, maxItems: SCOPES.length }),
    allowed_ips: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100 })),
    rate_limit_per_minute: Type.Optional(Type.Integer(RATE_LIMIT_BOUNDS)),
  },
  strict,
);
export const ClientParams = Type.Object({ client_id: Type.String({ maxLength: 100 }) });
export const ClientRequestParams = Type.Object({ request_id: Type.String({ maxLength: 64 }) });
export const IpBody = Type.Object({ ip: Type.String({ maxLength: 64 }) }, strict);
export const UserBody = Type.Object({ email: Type.String({ maxLength: 254 }), role: Type.String({ maxLength: 20 }) }, strict);
export const UserParams = Type.Object({ user_id: Type.String({ maxLength: 64 }) });
export const RoleBody = Type.Object({ role: Type.String({ maxLength: 20 }) }, strict);
export const KindParams = Type.Object({ kind: Type.String({ maxLength: 10 }) });
export const DestinationBody = Type.Object(
  {
    url: Type.String({ maxLength: 2048 }),
    events: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 20 })),
    scheme: Type.Optional(Type.Union([Type.Literal('tijori-v1'), Type.Literal('standard-webhooks')], { description: 'the signing scheme (contract §11); unchanged when omitted' })),
  },
  strict,
);
export const AuditQuery = Type.Object(
  {
    action: Type.Optional(Type.String({ maxLength: 64 })),
    actor: Type.Optional(Type.String({ maxLength: 254 })),
    from: Type.Optional(Type.String({ maxLength: 40, pattern: ISO_TIME })),
    to: Type.Optional(Type.String({ maxLength: 40, pattern: ISO_TIME })),
    cursor: Type.Optional(Type.String({ maxLength: 64 })),
    limit: Type.Optional(LimitText),
  },
  strict,
);

/** The OpenAPI part of each route's schema (tag `console`); the permission each needs is in contract §5. */
export const SETTINGS_OPS = {
  listClients: op({ data: A.List(A.ApiClient), operationId: 'consoleListApiClients', summary: "The organization's API clients", access: 'read', description: '`data`: the API clients (never a secret).' }),
  createClient: op({ data: A.CreatedClient, operationId: 'consoleCreateApiClient', summary: 'Create an API client', access: 'change', status: 201, description: '`data`: the client with its `client_secret`, shown once; with payouts:write, `{approval_required: true, request}` instead (a second admin approves, the requester collects).' }),
  listClientRequests: op({ data: A.List(A.ClientRequest), operationId: 'consoleListApiClientRequests', summary: 'Requests for a payouts:write credential (a second admin decides)', access: 'read', description: '`data`: the newest 100 requests (never a secret).' }),
  approveClientRequest: op({ data: A.DecidedRequest, operationId: 'consoleApproveApiClientRequest', summary: 'Approve a request for a payouts:write credential (an admin other than the requester)', access: 'change', description: '`data`: the request (APPROVED; a change of scopes is applied at once and answers the client); 403 SELF_APPROVAL_DENIED for the requester or the same person by credentials; 409 once decided.' }),
  rejectClientRequest: op({ data: A.DecidedRequest, operationId: 'consoleRejectApiClientRequest', summary: 'Reject a request for a payouts:write credential', access: 'change', description: '`data`: the request, REJECTED.' }),
  collectClientRequest: op({ data: A.CollectedClient, operationId: 'consoleCollectApiClientRequest', summary: 'Collect an approved new client or new secret (the requester, once)', access: 'change', description: '`data`: the client with its `client_secret` (or `{client_id, client_secret}`), shown once.' }),
  rotateClientSecret: op({ data: A.RotatedSecret, operationId: 'consoleRotateApiClientSecret', summary: 'Give an API client a new secret', access: 'change', description: '`data`: `{client_id, client_secret}`; the secret is shown once. A client with payouts:write: `{approval_required: true, request}` instead.' }),
  revokeClient: op({ data: A.RevokedClient, operationId: 'consoleRevokeApiClient', summary: 'Revoke an API client', access: 'change', description: '`data`: `{client_id, status: "revoked"}`.' }),
  allowClientIp: op({ data: A.AllowedIps, operationId: 'consoleAllowApiClientIp', summary: "Add an address to an API client's allow list", access: 'change', description: '`data`: `{client_id, allowed_ips}`.' }),
  listDestinations: op({ data: A.List(A.Destination), operationId: 'consoleListDestinations', summary: 'The callback destinations', access: 'read', description: '`data`: the destinations (never a signing secret).' }),
  setDestination: op({ data: A.DestinationSet, operationId: 'consoleSetDestination', summary: 'Set the callback URL of a kind', access: 'change', description: '`data`: the destination; its signing secret when it is new, shown once.' }),
  rotateDestinationSecret: op({
    data: A.DestinationRotated, operationId: 'consoleRotateDestinationSecret',
    summary: 'Give a destination a new signing secret',
    access: 'change',
    description: '`data`: `{kind, url, signing_secret, active_from}`, the new secret shown once. Deliveries stay signed with the old secret until "activate" or `active_from` (72 h).',
  }),
  activateDestinationSecret: op({
    data: A.DestinationActivated, operationId: 'consoleActivateDestinationSecret',
    summary: "Switch a destination's signing to its new secret",
    access: 'change',
    description: '`data`: `{kind, url, activated_at}`. From now on only the new secret signs (replays included); 409 INVALID_STATE when no new secret waits.',
  }),
  listUsers: op({ data: A.List(A.ConsoleUser), operationId: 'consoleListUsers', summary: "The organization's console users", access: 'read', description: '`data`: the users with role and status.' }),
  createUser: op({ data: A.LinkAnswer, operationId: 'consoleCreateUser', summary: 'Invite a console user', access: 'change', status: 201, description: '`data`: `{user, setup_url}`; with SMTP_URL set, `{user, mailed_to}`: the link went to the user by mail and is never shown (409 INVALID_STATE when the mail server refuses it: nothing is saved).' }),
  changeRole: op({ data: A.ConsoleUser, operationId: 'consoleChangeUserRole', summary: "Change a user's role", access: 'change', description: '`data`: the user.' }),
  disableUser: op({ data: A.ConsoleUser, operationId: 'consoleDisableUser', summary: 'Disable a user (ends their sessions)', access: 'change', description: '`data`: the user.' }),
  newSetupLink: op({ data: A.LinkAnswer, operationId: 'consoleNewSetupLink', summary: 'Make a new set-up link for an invited user', access: 'change', description: '`data`: `{user, setup_url}`; with SMTP_URL set, `{user, mailed_to}` (the link is mailed, never shown; 409 INVALID_STATE when the mail server refuses it, and the earlier link keeps working).' }),
  auditLog: op({ data: A.List(A.AuditEntry), operationId: 'consoleListAuditLog', summary: 'The audit log, newest first', access: 'read', description: '`data`: one page of audit entries; `next_cursor` for the next, older page.' }),
};
