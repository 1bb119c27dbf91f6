/**
 * Bank connections (called "payout routes" in the console and the CLI): which provider a payout goes through and which modes the
 * organization's account there may use. An organization's first bank connection is its default.
 */
import { randomUUID } from 'node:crypto';
import { AppError, type FieldIssue, validationError } from '../../domain/errors.js';
import { isPayoutMode, PAYOUT_MODES, type PayoutMode } from '../../domain/payout.js';
import { isUuid } from '../../domain/text.js';
import type { Db } from '../../store/db.js';
import * as repo from '../../store/repos/bank-connections-repo.js';

export interface CreateBankConnectionInput {
  orgId: string;
  modes: string[];
  name?: string | undefined;
  provider: string;
  /** The provider account it sends through (checked by the caller to be the organization's); null: the built-in sandbox. */
  providerAccountId?: string | null | undefined;
}

export class BankConnectionsService {
  constructor(private readonly db: Db) {}

  async create(input: CreateBankConnectionInput): Promise<repo.BankConnectionRow> {
    const issues: FieldIssue[] = [];
    if (!isUuid(input.orgId)) issues.push({ field: 'org', issue: 'must be an organization id (UUID)' });
    const modes = [...new Set(input.modes)];
    if (modes.length === 0 || !modes.every(isPayoutMode)) issues.push({ field: 'modes', issue: `must be one or more of ${PAYOUT_MODES.join(', ')}` });
    const name = (input.name ?? `${input.provider} payout route`).trim();
    if (name.length < 1 || name.length > 200) issues.push({ field: 'name', issue: 'must be 1 to 200 characters' });
    if (issues.length > 0) throw validationError(issues);
    return this.db.tx(async (tx) => {
      if (!(await repo.lockOrg(tx, input.orgId))) throw new AppError('NOT_FOUND', 'No such organization.');
      return repo.insertBankConnection(tx, { id: randomUUID(), orgId: input.orgId, name, provider: input.provider, modes: modes as PayoutMode[], providerAccountId: input.providerAccountId ?? null });
    });
  }
}
