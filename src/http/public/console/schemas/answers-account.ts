/** Console answers: the session, the account, API clients, users, destinations and the audit log (answers.ts). */
import { Type } from '@sinclair/typebox';
import { StringEnum } from '../../schemas/common.js';
import { AnyJson } from './common.js';
import { Bool, ConsoleRole, ConsoleUserStatus, Int, List, NStr, Str } from './answers-common.js';

// ---- session, account ----
export const ConsoleUser = Type.Object({ user_id: Str(), email: Str(), role: ConsoleRole, status: ConsoleUserStatus, totp_enabled: Bool(), created_at: Str() });
export const SessionAnswer = Type.Object({
  user: ConsoleUser,
  organization: Type.Object({ id: Str(), name: Str() }),
  permissions: List(Str()),
  csrf_token: Str(),
  idle_timeout_seconds: Int(),
});
export const TotpRequired = Type.Object({ totp_required: Type.Literal(true), challenge: Str() });
export const SignInAnswer = Type.Union([SessionAnswer, TotpRequired]);
export const SetupTarget = Type.Object({ email: Str() });
export const ResetOptions = Type.Object({ by_mail: Bool() });
export const Message = Type.Object({ message: Str() });
export const SignedOut = Type.Object({ signed_out: Type.Literal(true) });
export const SessionsEnded = Type.Object({ sessions_ended: Int() });
export const TotpBegin = Type.Object({ secret: Str(), otpauth_uri: Str(), qr_data_url: Str() });
export const RecoveryCodes = Type.Object({ recovery_codes: List(Str()) });
export const OtherSessionsEnded = Type.Object({ other_sessions_ended: Int() });
export const TotpDisabled = Type.Object({ totp_enabled: Type.Literal(false) });

// ---- API clients, users, destinations, audit ----
export const ApiClientFields = {
  client_id: Str(),
  name: NStr(),
  scopes: List(Str()),
  allowed_ips: List(Str()),
  rate_limit_per_minute: Int(),
  status: StringEnum(['active', 'revoked']),
  created_at: Str(),
  secret_rotated_at: NStr(),
  last_used_at: NStr(),
};
export const ApiClient = Type.Object(ApiClientFields);
export const ClientRequest = Type.Object({
  request_id: Str(),
  kind: StringEnum(['create', 'update', 'rotate']),
  client_id: NStr(),
  change: Type.Object({ name: Type.Optional(NStr()), scopes: Type.Optional(List(Str())) }),
  requested_by: Str(),
  status: StringEnum(['PENDING', 'APPROVED', 'REJECTED', 'COLLECTED']),
  decided_at: NStr(),
  created_at: Str(),
});
/** A decided request; an approved change of scopes answers the client it changed. */
export const DecidedRequest = Type.Union([ClientRequest, Type.Object({ ...ApiClientFields })]);
export const ApprovalRequired = Type.Object({ approval_required: Type.Literal(true), request: ClientRequest });
export const ClientSecret = Type.Object({ client_id: Str(), client_secret: Str() });
export const ClientWithSecret = Type.Object({ client: ApiClient, client_secret: Str() });
export const CreatedClient = Type.Union([ClientWithSecret, ApprovalRequired]);
export const RotatedSecret = Type.Union([ClientSecret, ApprovalRequired]);
export const CollectedClient = Type.Union([ClientWithSecret, ClientSecret]);
export const UpdatedClient = Type.Union([ApiClient, ApprovalRequired]);
export const RevokedClient = Type.Object({ client_id: Str(), status: Type.Literal('revoked') });
export const AllowedIps = Type.Object({ client_id: Str(), allowed_ips: List(Str()) });

export const DestinationKind = StringEnum(['payin', 'payout']);
export const Destination = Type.Object({
  kind: DestinationKind,
  url: Str(),
  events: List(Str()),
  available_events: List(Str()),
  status: StringEnum(['enabled', 'disabled']),
  scheme: StringEnum(['tijori-v1', 'standard-webhooks']),
  next_secret_active_from: NStr(),
  failing_since: NStr(),
  disabled_at: NStr(),
  updated_at: Str(),
});
export const DestinationSet = Type.Object({ kind: DestinationKind, url: Str(), signing_secret: NStr() });
export const DestinationRotated = Type.Object({ kind: DestinationKind, url: Str(), signing_secret: Str(), active_from: Str() });
export const DestinationActivated = Type.Object({ kind: DestinationKind, url: Str(), activated_at: Str() });
export const DestinationEvents = Type.Object({ kind: DestinationKind, events: List(Str()) });
export const DestinationEnabled = Type.Object({ kind: DestinationKind, status: Type.Literal('enabled'), resumed: Int() });

export const LinkAnswer = Type.Union([Type.Object({ user: ConsoleUser, setup_url: Str() }), Type.Object({ user: ConsoleUser, mailed_to: Str() })]);
export const AuditEntry = Type.Object({
  id: Str(),
  at: Str(),
  actor: Str(),
  action: Str(),
  target_type: Str(),
  target_id: NStr(),
  before: AnyJson('the target before the change, as recorded'),
  after: AnyJson('the target after the change, as recorded'),
  ip: NStr(),
});
