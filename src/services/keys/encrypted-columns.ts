/**
 * THE list of columns encrypted with the MASTER_KEY (src/security/vault.ts), with how each row's
 * AES-GCM context is made. `tijori keys rotate-master` re-encrypts exactly these, so a column
 * missing here would stay under a retired key: test/ops/encrypted-columns.test.ts fails when the
 * schema has a secret-looking column (bytea, or a name with secret/token/key/password/account
 * number/_enc) that is neither listed here nor in NOT_ENCRYPTED with the reason.
 */
import { destinationSecretContext } from '../callbacks/destinations.js';
import type { DestinationKind } from '../../store/repos/callbacks-repo.js';
import { callbackSecretContext } from '../payin/payment-order-secrets.js';
import { encryptionContext as beneficiaryContext } from '../payouts/beneficiaries.js';
import { rowContext as bulkRowContext } from '../payouts/bulk-payouts.js';
import { totpContext } from '../console/auth.js';
import { providerConfigContext } from '../../providers/registry.js';

export interface EncryptedColumn {
  table: string;
  column: string;
  /** The row's key columns (its primary key), in keyset order. */
  key: readonly string[];
  /** Other columns the context needs. */
  extra?: readonly string[];
  /** The vault context of a row (key and extra columns as read back, as text). */
  context(row: Record<string, string>): string;
}

const r = (row: Record<string, string>, name: string): string => {
  const v = row[name];
  if (v === undefined) throw new Error(`encrypted column context needs ${name}`);
  return v;
};

export const ENCRYPTED_COLUMNS: readonly EncryptedColumn[] = [
  { table: 'callback_destinations', column: 'secret_enc', key: ['org_id', 'kind'], context: (x) => destinationSecretContext(r(x, 'org_id'), r(x, 'kind') as DestinationKind) },
  // A rotation's next secret (migration 0055): the same context as secret_enc, into which "activate" moves it.
  { table: 'callback_destinations', column: 'next_secret_enc', key: ['org_id', 'kind'], context: (x) => destinationSecretContext(r(x, 'org_id'), r(x, 'kind') as DestinationKind) },
  {
    table: 'callback_deliveries', column: 'secret_enc', key: ['id'], extra: ['secret_context', 'org_id', 'target'],
    context: (x) => x.secret_context ?? destinationSecretContext(r(x, 'org_id'), r(x, 'target') as DestinationKind),
  },
  { table: 'payment_orders', column: 'callback_secret_enc', key: ['id'], context: (x) => callbackSecretContext(r(x, 'id')) },
  { table: 'beneficiaries', column: 'account_number_enc', key: ['id'], context: (x) => beneficiaryContext(r(x, 'id')) },
  { table: 'bulk_payout_rows', column: 'account_number_enc', key: ['file_id', 'line'], context: (x) => bulkRowContext(r(x, 'file_id'), Number(r(x, 'line'))) },
  { table: 'provider_accounts', column: 'config_enc', key: ['id'], context: (x) => providerConfigContext(r(x, 'id')) },
  { table: 'console_users', column: 'totp_secret_enc', key: ['id'], context: (x) => totpContext(r(x, 'id')) },
  { table: 'console_users', column: 'totp_pending_enc', key: ['id'], context: (x) => totpContext(r(x, 'id')) },
];

/**
 * Secret-looking columns that are NOT encrypted with the master key, and why (nothing to rotate).
 * `table.column`; a `*.column` entry covers that column name in every table.
 */
export const NOT_ENCRYPTED: Readonly<Record<string, string>> = {
  'api_clients.secret_hash': 'SHA-256 of a 256-bit random secret; never decrypted',
  'partitioned_tables.key_column': 'the name of a partitioned table\'s time column (the partition worker\'s registry), not a key',
  'api_clients.previous_secret_hash': 'SHA-256 of the replaced secret during an overlap',
  'api_clients.secret_rotated_at': 'a time',
  'api_clients.previous_secret_expires_at': 'a time',
  'callback_destinations.next_secret_active_from': 'a time (when a rotated secret takes over)',
  'console_users.credentials_issued_by': 'a user id (who was shown the set-up link), for dual control',
  'api_clients.secret_issued_by': 'a user id (who was shown the current client secret), for dual control',
  'api_clients.previous_secret_issued_by': 'a user id (who was shown the replaced client secret), for dual control',
  'refunds.requested_with_secret_of': 'a user id (who held the secret of the client that asked for the refund), for dual control',
  'console_signin_unknown.email_hash': 'SHA-256 of an unknown sign-in email, for counting attempts; never decrypted',
  'beneficiaries.account_lookup': 'keyed look-up hash (LOOKUP_KEY), not a ciphertext',
  'beneficiaries.account_number_last4': 'last four digits, shown everywhere by design',
  'bulk_payout_files.sha256': 'digest of an uploaded file',
  'callback_deliveries.secret_context': 'the AES-GCM associated data, not a secret',
  'console_setup_tokens.token_hash': 'SHA-256 of a random one-time token',
  'console_sessions.id_hash': 'SHA-256 of a random session id',
  'console_mfa_challenges.token_hash': 'SHA-256 of a random challenge token',
  'console_recovery_codes.code_hash': 'SHA-256 of a recovery code',
  'console_users.password_hash': 'scrypt hash of a password',
  'payment_orders.checkout_token_hash': 'legacy column, hash of a random token',
  'console_sessions.csrf_token': 'CSRF token of a session whose id is stored only as a hash: useless without the session cookie',
  'console_users.totp_last_step': 'a counter (the last TOTP time step used), not a secret',
  'callback_deliveries.claim_token': "a worker's lease id",
  'idempotency_keys.key': "the merchant's idempotency key: an identifier, not a secret",
  'review_items.dedupe_key': 'a de-duplication key made of ids',
  '*.idempotency_key': "the merchant's idempotency key: an identifier, not a secret",
  '*.key_hash': 'hash of an idempotency key',
};
