/** Console answers: events, maker-checker, bulk payouts, provider accounts and the organization (answers.ts). */
import { Type } from '@sinclair/typebox';
import { Nullable, StringEnum } from '../../schemas/common.js';
import { AnyJson } from './common.js';
import { Bool, Int, List, NStr, NullableTime, Str, Time } from './answers-common.js';
import { DestinationKind } from './answers-account.js';
import { DeliveryAttempt, PayoutFields } from './answers-money.js';

// ---- events ----
export const EventRow = Type.Object({
  event_id: Str(),
  type: Str(),
  aggregate_type: Str(),
  aggregate_id: Str(),
  created_at: Str(),
  delivery_state: StringEnum(['failed', 'pending', 'delivered', 'none']),
  deliveries: Int(),
  reference: NStr(),
});
export const EventDetail = Type.Object({
  event_id: Str(),
  type: Str(),
  body: AnyJson('the event as delivered'),
  deliveries: List(Type.Object({ delivery_id: Str(), event_id: Str(), event: Str(), target: Str(), status: Str(), attempts: List(DeliveryAttempt) })),
});
export const Replayed = Type.Object({ event_id: Str(), requeued: Int() });
export const ReplayedFailed = Type.Object({ events: Int(), deliveries: Int() });
export const LogRow = Type.Object({ delivery_id: Str(), event_id: Str(), event: Str(), status: Str(), created_at: Str(), attempts: List(DeliveryAttempt) });
export const TestEvent = Type.Object({ event_id: Str(), type: Str() });
export const Notices = Type.Object({ disabled_destinations: List(Type.Object({ kind: DestinationKind, url: Str(), disabled_at: NStr() })) });

// ---- payouts: maker-checker, bulk ----
export const Ifsc = Type.Object({ ifsc: Str(), bank_name: Str() });
export const SavedBeneficiary = Type.Object({ id: Str(), name: Str(), account_number_last4: Str(), ifsc: Str(), bank_name: Str() });
export const PayoutBalance = Type.Union([
  Type.Object({ published: Type.Literal(false), provider: NStr(), reason: Str() }),
  Type.Object({ published: Type.Literal(true), provider: Str(), balance_paise: Int(), available_paise: Int(), refreshed_at: NStr() }),
]);
export const PendingPayout = Type.Object({ ...PayoutFields, approval_required: Type.Literal(true), maker_user_id: Str(), maker: NStr() });
export const ModeTotals = Type.Record(Type.String(), Type.Object({ count: Int(), total_paise: Int() }));
export const BulkFile = Type.Object({
  id: Str(),
  file_name: Str(),
  status: StringEnum(['PENDING_APPROVAL', 'APPROVED', 'REJECTED', 'COMPLETED']),
  row_count: Int(),
  total_paise: Int(),
  totals_by_mode: ModeTotals,
  uploaded_by: Str(),
  uploader: NStr(),
  decided_by: NStr(),
  decider: NStr(),
  decided_at: NStr(),
  decision_note: NStr(),
  created_at: Str(),
  completed_at: NStr(),
  progress: Type.Object({ created: Int(), not_created: Int(), succeeded: Int(), failed: Int() }),
});
export const BulkRow = Type.Object({
  line: Int(),
  name: Str(),
  account_number_last4: Str(),
  ifsc: Str(),
  bank_name: Str(),
  amount_paise: Int(),
  mode: Str(),
  remarks: NStr(),
  transaction_id: NStr(),
  status: NStr(),
  error: NStr(),
});

// ---- provider accounts, organization ----
export const ProviderName = StringEnum(['sandbox', 'cashfree', 'razorpayx']);
export const ProviderAccount = Type.Object({ provider_account_id: Str(), provider: Str(), name: Str(), livemode: Bool() });
export const ProviderAccountRow = Type.Object({
  provider_account_id: Str(),
  provider: Str(),
  name: Str(),
  livemode: Bool(),
  callback_url: Str(),
  serves_collections: Bool(),
  payout_routes: List(Type.Object({ bank_connection_id: Str(), name: Str(), active: Bool() })),
  created_at: Str(),
});
export const ProviderAccounts = Type.Object({ collections_provider_account_id: NStr(), accounts: List(ProviderAccountRow) });
export const AddedProviderAccount = Type.Object({ provider_account_id: Str(), provider: Str(), name: Str(), livemode: Bool(), callback_url: Str() });
export const Anomaly = Type.Object({
  id: Str(),
  provider_account_id: Str(),
  provider: Str(),
  kind: Str(),
  operation: NStr(),
  resource: Nullable(Type.Object({ type: Str(), ref: Str() })),
  excerpt: Str(),
  created_at: Str(),
});
export const OrgSettings = Type.Object({ id: Str(), name: Str(), refund_review: StringEnum(['none', 'required']), created_at: Str() });

export { List, NullableTime, Time };
