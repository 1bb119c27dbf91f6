/**
 * Dynamic UPI intents (NPCI UPI Linking Specification): the `upi://pay?...` string that a QR code
 * or a UPI app button carries. The issued string is stored and returned byte for byte, so this is
 * the only place that builds one.
 */
import { validationError } from './errors.js';
import type { FieldIssue } from './errors.js';
import { isValidAmountPaise, paiseToRupeeString } from './money.js';
import { isStorableText } from './text.js';

export interface UpiIntentInput {
  payeeVpa: string;
  payeeName: string;
  amountPaise: number;
  /** `tr`: our reference for the order; the PSP reports payments against it. */
  transactionRef: string;
  /** `tn`: shown to the payer; cut to UPI_NOTE_MAX_CHARS; omitted when empty. */
  note?: string;
  /** `mc`: 4-digit merchant category code, expected on person-to-merchant intents. */
  merchantCategoryCode?: string;
}

/** Common PSP limits (references.md, secondary): longer values get rejected or cut by apps. */
export const UPI_NOTE_MAX_CHARS = 50;
export const UPI_TR_MAX_CHARS = 35;

const VPA = /^[A-Za-z0-9.\-_]{2,256}@[A-Za-z]{2,64}$/;
const TRANSACTION_REF = new RegExp(`^[A-Za-z0-9]{1,${UPI_TR_MAX_CHARS}}$`);
const MERCHANT_CATEGORY_CODE = /^[0-9]{4}$/;
const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function isValidVpa(value: string): boolean {
  return VPA.test(value);
}

/** Everything wrong with the input, keyed by UpiIntentInput property names; empty when valid. */
export function upiIntentIssues(input: UpiIntentInput): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const add = (field: string, issue: string): void => {
    issues.push({ field, issue });
  };
  if (!isValidVpa(input.payeeVpa)) add('payeeVpa', 'must look like handle@psp');
  if (input.payeeName.trim() === '') add('payeeName', 'must not be empty');
  else if (!isStorableText(input.payeeName)) add('payeeName', 'must be well-formed Unicode text without U+0000');
  if (!isValidAmountPaise(input.amountPaise)) add('amountPaise', 'must be an integer from 100 to 10000000000');
  if (!TRANSACTION_REF.test(input.transactionRef)) {
    add('transactionRef', `must be 1 to ${UPI_TR_MAX_CHARS} letters or digits`);
  }
  const mc = input.merchantCategoryCode;
  if (mc !== undefined && !MERCHANT_CATEGORY_CODE.test(mc)) add('merchantCategoryCode', 'must be exactly 4 digits');
  return issues;
}

/**
 * Cuts on a code point boundary so an emoji is never split into a lone surrogate, which
 * encodeURIComponent would refuse; lone surrogates already present become U+FFFD for the same
 * reason (a note is cosmetic and must not fail an order).
 */
export function truncateNote(note: string): string {
  const repaired = note.replace(LONE_SURROGATES, '\uFFFD');
  return Array.from(repaired).slice(0, UPI_NOTE_MAX_CHARS).join('');
}

const encode = (value: string): string => encodeURIComponent(value);

/**
 * Parameter order, kept stable because issued strings are compared and stored byte for byte:
 * `pa, pn, [mc], am, cu, tr, [tn]` (the order of the operator contract §3, with `mc` beside the
 * payee it describes). `pa` keeps a literal `@`: it is legal in a URI query and is what NPCI's
 * examples and every UPI app emit; the VPA pattern admits no other character that would need
 * encoding. Other values go through encodeURIComponent (space as `%20`, never `+`).
 *
 * Throws VALIDATION_FAILED with upiIntentIssues() as details when the input is unusable.
 */
export function buildUpiIntent(input: UpiIntentInput): string {
  const issues = upiIntentIssues(input);
  if (issues.length > 0) throw validationError(issues, 'The UPI intent cannot be built.');
  const params: string[] = [`pa=${input.payeeVpa}`, `pn=${encode(input.payeeName)}`];
  if (input.merchantCategoryCode !== undefined) params.push(`mc=${input.merchantCategoryCode}`);
  params.push(`am=${paiseToRupeeString(input.amountPaise)}`, 'cu=INR', `tr=${input.transactionRef}`);
  const note = truncateNote(input.note ?? '');
  if (note !== '') params.push(`tn=${encode(note)}`);
  return `upi://pay?${params.join('&')}`;
}

const INTENT_PREFIX = /^upi:\/\/pay\?/i;

/**
 * Reads any `upi://pay?` URI back into decoded name -> value pairs. Throws on a malformed URI or a
 * repeated parameter, since which of two `am` values an app would honour is anyone's guess.
 */
export function parseUpiIntent(uri: string): Record<string, string> {
  if (!INTENT_PREFIX.test(uri)) throw new Error('not a upi://pay URI');
  const entries: [string, string][] = [];
  const seen = new Set<string>();
  for (const pair of uri.replace(INTENT_PREFIX, '').split('&')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new Error(`malformed UPI parameter "${pair}"`);
    const name = decodeStrict(pair.slice(0, eq));
    if (seen.has(name)) throw new Error(`repeated UPI parameter "${name}"`);
    seen.add(name);
    entries.push([name, decodeStrict(pair.slice(eq + 1))]);
  }
  return Object.fromEntries(entries);
}

function decodeStrict(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch (cause) {
    throw new Error(`bad percent-encoding in UPI parameter "${value}"`, { cause });
  }
}
