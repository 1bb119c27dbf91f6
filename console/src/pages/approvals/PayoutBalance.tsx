/**
 * The balance of the account the default payout route sends through, where its provider publishes
 * it (RazorpayX), and a warning when the amount being typed is larger than what is available
 * (issue #33 item 6). Advice only: the bank decides, so nothing is blocked.
 */
import { useResource } from '../../data.js';
import { formatPaise, localTime } from '../../format.js';
import type { Answer } from '../../wire.js';

type Balance = Answer<'consolePayoutBalance'>;

export function PayoutBalance({ amountPaise }: { amountPaise: number | null }) {
  const read = useResource<Balance>('/payout-balance');
  const balance: Balance | null = read.error ? { published: false, provider: null, reason: 'The balance could not be loaded.' } : read.data;
  if (!balance) return null;
  if (!balance.published) return <p className="hint" id="payout-balance">Account balance: not available ({balance.reason})</p>;
  const asOf = balance.refreshed_at ? ` as of ${localTime(balance.refreshed_at).text}` : '';
  const over = amountPaise !== null && amountPaise > balance.available_paise;
  return (
    <>
      <p className="hint" id="payout-balance">
        Available balance at {balance.provider}: {formatPaise(balance.available_paise)}
        {asOf}
      </p>
      {over ? (
        <p className="warning" role="alert">
          This payout ({formatPaise(amountPaise)}) is larger than the available balance ({formatPaise(balance.available_paise)}): the bank will refuse it unless the
          account is topped up first.
        </p>
      ) : null}
    </>
  );
}
