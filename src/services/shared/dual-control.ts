/**
 * Dual control (issue #29 item 4): no single person moves money alone. A maker and a checker are
 * two people only when their current console credentials lead back to two people: a user whose
 * password was set with a set-up link shown to someone else (an admin's invitation or reset link)
 * is, for this rule, that someone (console-repo.ts credentialAncestors follows the chain, loops included): two users are
 * two people only when nobody stands behind both. The
 * operator's CLI is not a person of the organization, so the users it sets up stand for themselves.
 * A mailed link (SMTP_URL) is shown to nobody, but goes to the mailbox the user's inviter typed:
 * it counts as the inviter's (users.ts), so mailing it closes the hijack of a real person's reset
 * link, not the puppet an admin invites at an address they read. The one place the rule lives: payout approvals, bulk
 * file approvals and refund approvals (of refunds started in the console) all ask it.
 */
import { AppError } from '../../domain/errors.js';
import type { Queryable } from '../../store/db.js';
import { credentialAncestors } from '../../store/repos/console-repo.js';

/**
 * Whether two console users are, by their credentials, one person: the same user, or someone stands
 * behind both (issued the credentials of one, of the other, or of both, directly or down a chain).
 */
export async function samePerson(q: Queryable, a: string, b: string): Promise<boolean> {
  if (a === b) return true;
  const behind = await credentialAncestors(q, [a, b]);
  const ofA = new Set(behind.get(a) ?? [a]);
  return (behind.get(b) ?? [b]).some((id) => ofA.has(id));
}

/** Refuses (403 SELF_APPROVAL_DENIED) an approval by the maker or by someone who is, by credentials, the maker. */
export async function assertTwoPeople(q: Queryable, makerUserId: string, checkerUserId: string, what: 'payout' | 'file' | 'refund'): Promise<void> {
  const thing = what === 'payout' ? 'made this payout' : what === 'file' ? 'uploaded this file' : 'started this refund';
  if (makerUserId === checkerUserId) throw new AppError('SELF_APPROVAL_DENIED', `You ${thing}; another checker must approve or reject it.`);
  if (await samePerson(q, makerUserId, checkerUserId)) {
    throw new AppError(
      'SELF_APPROVAL_DENIED',
      `The person who ${thing} and you are not two people: your sign-in credentials and theirs were issued by one of you, or by one person to both (a set-up link shown to an admin). Another checker, set up by the operator or by a mailed link, must approve it.`,
    );
  }
}

/**
 * Refuses (403 SELF_APPROVAL_DENIED) the approval of a refund made through the merchant API by
 * someone who holds, by credentials, a secret of the API client that made it (`holders`: the
 * console users shown its secrets; issue #29 item 4: an admin's own collections:write client).
 */
export async function assertNotSecretHolder(q: Queryable, holders: readonly string[], checkerUserId: string): Promise<void> {
  for (const holder of new Set(holders)) {
    if (await samePerson(q, holder, checkerUserId)) {
      throw new AppError(
        'SELF_APPROVAL_DENIED',
        'This refund was asked for with an API client whose secret was shown to you (or to someone who is you by credentials): you could have made it yourself. Another reviewer must approve it.',
      );
    }
  }
}
