/**
 * Beneficiaries: IFSC-checked, confirmed bank accounts a payout can go to (API §2.4, §4.3).
 * Inline details on a payout become a reusable beneficiary of the API client that sent them, one
 * per client and account (account number + IFSC); other clients, even of the same organization,
 * cannot name it (migration 0010). The account number is encrypted at rest and leaves the service only
 * towards the bank; everything else carries its last four digits.
 */
import { newRowId } from '../../store/row-id.js';
import { AppError } from '../../domain/errors.js';
import type { Vault } from '../../security/vault.js';
import type { Db } from '../../store/db.js';
import * as repo from '../../store/repos/beneficiaries-repo.js';
import type { InlineBeneficiary } from './payout-input.js';

/** A beneficiary ready for a payout, with the full account number for the bank only. */
export interface ResolvedBeneficiary {
  id: string;
  name: string;
  last4: string;
  ifsc: string;
  bankName: string;
  accountNumber: string;
}

/** AES-GCM associated data of a beneficiary's account number (src/services/keys/encrypted-columns.ts lists it). */
export const encryptionContext = (id: string) => `beneficiary:${id}:account_number`;

export class BeneficiariesService {
  private readonly vault: Vault;

  constructor(private readonly deps: { db: Db; vault: Vault }) {
    this.vault = deps.vault;
  }

  /** Encrypts up front so the insert costs no extra time. */
  private prepare(orgId: string, clientPk: string, b: InlineBeneficiary): repo.NewBeneficiary {
    const id = newRowId();
    return {
      id,
      orgId,
      clientPk,
      name: b.name,
      accountNumberEnc: this.vault.encrypt(b.accountNumber, encryptionContext(id)),
      last4: b.accountNumber.slice(-4),
      lookup: this.vault.lookupHash(`${b.ifsc}:${b.accountNumber}`, 'beneficiary-account'),
      ifsc: b.ifsc,
      bankName: b.bankName,
      mobile: b.mobile,
    };
  }

  /**
   * Stores checked inline details (payout-input.ts) as a confirmed beneficiary of the API client,
   * or finds the one with the same account.
   */
  async saveInline(orgId: string, clientPk: string, inline: InlineBeneficiary): Promise<ResolvedBeneficiary> {
    // Inline beneficiaries of creates that arrive together are stored with one statement (src/store/batched.ts).
    const row = await repo.upsertBeneficiaryInBatch(this.deps.db, this.prepare(orgId, clientPk, inline));
    // The payout carries the name the merchant confirmed for it; the stored beneficiary keeps its first one.
    return { id: row.id, name: inline.name, last4: row.account_number_last4, ifsc: row.ifsc, bankName: row.bank_name, accountNumber: inline.accountNumber };
  }

  /** An active, confirmed beneficiary this API client created; BENEFICIARY_INVALID otherwise. */
  async findUsable(orgId: string, clientPk: string, id: string): Promise<ResolvedBeneficiary> {
    const row = await repo.findUsableBeneficiary(this.deps.db, orgId, clientPk, id);
    if (!row) throw new AppError('BENEFICIARY_INVALID', 'beneficiary_id does not name an active, confirmed beneficiary of this API client.');
    return { ...this.fromRow(row), accountNumber: this.accountNumberOf(row) };
  }

  accountNumberOf(row: { id: string; account_number_enc: Buffer }): string {
    return this.vault.decrypt(row.account_number_enc, encryptionContext(row.id));
  }

  private fromRow(row: repo.BeneficiaryRow) {
    return { id: row.id, name: row.name, last4: row.account_number_last4, ifsc: row.ifsc, bankName: row.bank_name };
  }
}
