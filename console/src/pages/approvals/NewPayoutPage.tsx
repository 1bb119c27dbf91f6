/**
 * "New payout" (contract §5, §6): a maker instructs a payout to a saved beneficiary or to new
 * account details. The IFSC is checked as it is typed and the bank's name is shown, so the maker
 * confirms the account by its bank. The payout then waits for a checker ("Payout approvals").
 */
import { type FormEvent, useRef, useState } from 'react';
import { api, describe, newIdempotencyKey } from '../../api.js';
import { ErrorLine, Notice } from '../../components.js';
import { useInvalidate, useResource } from '../../data.js';
import { formatPaise } from '../../format.js';
import { PayoutBalance } from './PayoutBalance.js';
import type { Answer, RowOf } from '../../wire.js';
import { PAYOUT_MODES, TEXT_LIMITS } from '../../generated/server.js';

type SavedBeneficiary = RowOf<'consoleListPayoutBeneficiaries'>;

type Created = Answer<'consoleCreatePayout'>;

const MODES = PAYOUT_MODES;

/** "1,234.50" → 123450 paise; null when it is not an amount with at most two decimals. */
export function rupeesToPaise(text: string): number | null {
  const t = text.replace(/[,\s₹]/g, '');
  if (!/^[0-9]+(\.[0-9]{1,2})?$/.test(t)) return null;
  const [whole, frac = ''] = t.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}

export function NewPayoutPage({ canMake }: { canMake: boolean }) {
  const savedRead = useResource<SavedBeneficiary[]>('/payout-beneficiaries');
  const saved = savedRead.data ?? [];
  const [savedId, setSavedId] = useState('');
  const [name, setName] = useState('');
  const [account, setAccount] = useState('');
  const [ifsc, setIfsc] = useState('');
  const [mobile, setMobile] = useState('');
  const [amount, setAmount] = useState('');
  const [mode, setMode] = useState<(typeof MODES)[number]>('IMPS');
  const [remarks, setRemarks] = useState('');
  const [formError, setError] = useState<string | null>(null);
  const error = formError ?? savedRead.error;
  const [created, setCreated] = useState<Created | null>(null);
  const [busy, setBusy] = useState(false);
  // One key per payout this form makes: kept through errors and retries of the same form (the
  // server answers a repeat with the first payout), replaced once a payout is created, and when
  // the form was changed since the key was first sent (the server would refuse the key for another
  // body: 422 IDEMPOTENCY_KEY_REUSED).
  const [formKey, setFormKey] = useState(newIdempotencyKey);
  const sentWith = useRef<{ key: string; body: string } | null>(null);

  // The bank's name for an 11-character IFSC, looked up as soon as it is complete.
  const code = ifsc.trim().toUpperCase();
  const lookup = useResource<{ ifsc: string; bank_name: string }>(code.length === 11 ? `/ifsc/${encodeURIComponent(code)}` : null);
  const bank = code.length !== 11 ? null : lookup.data ? { text: `${lookup.data.bank_name} (${lookup.data.ifsc})` } : lookup.error ? { text: 'Unknown IFSC: no such bank branch.' } : null;
  const invalidate = useInvalidate();

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setCreated(null);
    const paise = rupeesToPaise(amount);
    if (paise === null) return setError('Amount (₹): write rupees with at most two decimals, e.g. 1500 or 1500.50.');
    const body = {
      ...(savedId ? { beneficiary_id: savedId } : { beneficiary: { name, account_number: account.trim(), ifsc: ifsc.trim(), mobile: mobile.trim() } }),
      amount_paise: paise,
      mode,
      ...(remarks.trim() ? { remarks: remarks.trim() } : {}),
    };
    const bodyText = JSON.stringify(body);
    let key = formKey;
    if (sentWith.current && sentWith.current.key === key && sentWith.current.body !== bodyText) {
      key = newIdempotencyKey();
      setFormKey(key);
    }
    sentWith.current = { key, body: bodyText };
    setBusy(true);
    try {
      setCreated(await api<Created>('POST', '/payouts', body, undefined, key));
      void invalidate('/payouts', '/payout-approvals');
      setFormKey(newIdempotencyKey());
      // The whole form is cleared: a filled form after success invites paying twice.
      setSavedId('');
      setName('');
      setAccount('');
      setIfsc('');
      setMobile('');
      setAmount('');
      setMode('IMPS');
      setRemarks('');
    } catch (err) {
      setError(describe(err));
    } finally {
      setBusy(false);
    }
  }

  if (!canMake) {
    return (
      <>
        <h1>New payout</h1>
        <p>Your role cannot create payouts; a maker or an admin can.</p>
      </>
    );
  }
  return (
    <>
      <h1>New payout</h1>
      <p className="hint">A payout made here waits for a checker other than you, in Payout approvals, before anything is sent to the bank.</p>
      <ErrorLine error={error} />
      <Notice
        message={
          created
            ? `Payout ${created.transaction_id} of ${formatPaise(created.amount_paise)} to ${created.beneficiary.name} (${created.beneficiary.bank_name}, account ending ${created.beneficiary.account_number_last4}) is ${created.status}: a checker must approve it. The form is cleared for the next payout.`
            : null
        }
      />
      <form className="panel" onSubmit={(e) => void submit(e)} aria-labelledby="new-payout-title">
        <h2 id="new-payout-title">Payout details</h2>
        <label htmlFor="payout-saved">Saved beneficiary</label>
        <select id="payout-saved" value={savedId} onChange={(e) => setSavedId(e.target.value)}>
          <option value="">New beneficiary (enter the details below)</option>
          {saved.map((b) => (
            <option key={b.id} value={b.id}>
              {b.name} · {b.bank_name} · account ending {b.account_number_last4}
            </option>
          ))}
        </select>
        {savedId ? null : (
          <fieldset>
            <legend>New beneficiary</legend>
            <label htmlFor="payout-name">Beneficiary name</label>
            <input id="payout-name" required maxLength={TEXT_LIMITS.beneficiaryName} value={name} onChange={(e) => setName(e.target.value)} />
            <label htmlFor="payout-account">Account number</label>
            <input id="payout-account" required inputMode="numeric" pattern="[0-9]{8,20}" value={account} onChange={(e) => setAccount(e.target.value)} />
            <label htmlFor="payout-ifsc">IFSC</label>
            <input id="payout-ifsc" required maxLength={11} value={ifsc} aria-describedby="payout-bank" onChange={(e) => setIfsc(e.target.value)} />
            <p id="payout-bank" className="hint" aria-live="polite">
              {bank ? `Bank: ${bank.text}` : 'The bank is shown once the 11-character IFSC is complete.'}
            </p>
            <label htmlFor="payout-mobile">Mobile</label>
            <input id="payout-mobile" required inputMode="tel" maxLength={10} value={mobile} onChange={(e) => setMobile(e.target.value)} />
          </fieldset>
        )}
        <label htmlFor="payout-amount">Amount (₹)</label>
        <input id="payout-amount" required inputMode="decimal" value={amount} aria-describedby="payout-balance" onChange={(e) => setAmount(e.target.value)} />
        <PayoutBalance amountPaise={rupeesToPaise(amount)} />
        <label htmlFor="payout-mode">Mode</label>
        <select id="payout-mode" value={mode} onChange={(e) => setMode(e.target.value as (typeof MODES)[number])}>
          {MODES.map((m) => (
            <option key={m}>{m}</option>
          ))}
        </select>
        <label htmlFor="payout-remarks">Remarks (optional)</label>
        <input id="payout-remarks" maxLength={TEXT_LIMITS.remarks} value={remarks} onChange={(e) => setRemarks(e.target.value)} />
        <button type="submit" disabled={busy}>
          Create payout
        </button>
      </form>
    </>
  );
}
