/**
 * The console's Beneficiaries and Payout routes pages (issue #19): an organization's saved
 * beneficiaries (masked: the last four digits only; the bank's name as the IFSC data gave it when
 * the beneficiary was saved) with the API client that saved each, and its bank connections (the
 * merchant API's bank connections). Reads only, scoped to the organization.
 */
import { validationError } from '../../domain/errors.js';
import { IFSC_PATTERN } from '../../domain/ifsc.js';
import { isUuid } from '../../domain/text.js';
import type { Db } from '../../store/db.js';
import * as repo from '../../store/repos/console-payout-setup-repo.js';
import { decodeCursor, keysetCursorOf } from './money.js';
import { type Page, rowsPage } from '../shared/list-page.js';

export interface BeneficiaryView {
  id: string;
  name: string;
  /** "XXXX1234": never more than the last four digits. */
  account_number_masked: string;
  account_number_last4: string;
  ifsc: string;
  bank_name: string;
  status: 'active' | 'inactive';
  saved_by: { client_id: string; name: string | null } | null;
  created_at: string;
}

export interface BankConnectionView {
  id: string;
  name: string;
  modes: string[];
  provider: string;
  status: 'active' | 'inactive';
  is_default: boolean;
  created_at: string;
}

/**
 * "Search" on beneficiaries: a beneficiary id, the account's last four digits, an IFSC (exact,
 * any case), or part of the name (case-insensitive, within the organization's rows only).
 */
export function beneficiarySearch(text: string): NonNullable<repo.BeneficiaryFilter['search']> {
  const t = text.trim();
  if (isUuid(t)) return { id: t.toLowerCase() };
  if (/^\d{4}$/.test(t)) return { last4: t };
  if (IFSC_PATTERN.test(t.toUpperCase())) return { ifsc: t.toUpperCase(), name: t };
  return { name: t };
}

function beneficiaryView(r: repo.BeneficiaryListRow): BeneficiaryView {
  return {
    id: r.id,
    name: r.name,
    account_number_masked: `XXXX${r.account_number_last4}`,
    account_number_last4: r.account_number_last4,
    ifsc: r.ifsc,
    bank_name: r.bank_name,
    status: r.active ? 'active' : 'inactive',
    saved_by: r.client_id ? { client_id: r.client_id, name: r.client_name } : null,
    created_at: r.created_at.toISOString(),
  };
}

export class ConsolePayoutSetup {
  constructor(private readonly db: Db) {}

  async beneficiaries(q: { orgId: string; search?: string | undefined; cursor?: string | undefined; limit: number }): Promise<Page<BeneficiaryView>> {
    const text = q.search?.trim();
    if (text !== undefined && text.length > 160) throw validationError([{ field: 'search', issue: 'must be at most 160 characters' }]);
    const rows = await repo.listBeneficiaries(this.db, {
      orgId: q.orgId,
      ...(text ? { search: beneficiarySearch(text) } : {}),
      ...(q.cursor !== undefined ? { after: decodeCursor(q.cursor) } : {}),
      limit: q.limit + 1,
    });
    return rowsPage(rows, q.limit, beneficiaryView, keysetCursorOf);
  }

  async bankConnections(orgId: string): Promise<BankConnectionView[]> {
    return (await repo.listBankConnections(this.db, orgId)).map((r) => ({
      id: r.id,
      name: r.name,
      modes: r.modes,
      provider: r.provider,
      status: r.active ? 'active' : 'inactive',
      is_default: r.is_default,
      created_at: r.created_at.toISOString(),
    }));
  }
}
