/**
 * IFSC look-up against Razorpay's open dataset bundled in the npm package `ifsc` (RBI NEFT/RTGS
 * branch lists plus NPCI sub-member data). Offline only: the package's fetchDetails() calls
 * ifsc.razorpay.com, and a payout must never depend on a third-party website being up.
 *
 * The data files are read directly rather than through the package entry point, which would also
 * load the `request` HTTP client it needs only for that online call.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export interface IfscInfo {
  ifsc: string;
  /** The first four characters: the bank that owns the code and routes the transfer. */
  bankCode: string;
  /**
   * The bank holding the account. For a sub-member branch (a co-operative bank using, say, an HDFC
   * code) this is the sub-member, as Razorpay's libraries report it. Falls back to bankCode for
   * the few banks the dataset lists branches for but has no name for (ADBK, GABK, ... in 2.0.50).
   */
  bankName: string;
}

/** Uppercase only: whether to uppercase user input is the caller's decision, not ours. */
export const IFSC_PATTERN = /^[A-Z]{4}0[A-Z0-9]{6}$/;

interface IfscData {
  /** bank code -> branch codes; all-digit branches are stored as numbers (000001 -> 1). */
  branches: Record<string, (string | number)[]>;
  bankNames: Record<string, string>;
  /** exact IFSC -> sub-member bank code (NPCI). */
  sublets: Record<string, string>;
  /** IFSC prefix (4 to 11 characters) -> sub-member bank code or, sometimes, a bank name. */
  customSublets: Record<string, string>;
}

let data: IfscData | undefined;
const branchSets = new Map<string, Set<string | number>>();

/**
 * Measured on the 2-core reference machine (ifsc 2.0.50): reading and parsing the four files takes
 * 13-17 ms (IFSC.json is ~1 MB, ~177,000 branches). Building a Set for every bank up front would
 * add ~35 ms, so each bank's Set is built on its first look-up (2-3 ms for the largest, SBIN and
 * HDFC); after that a look-up takes about 1 µs. Call loadIfscData() at start-up to keep the load
 * off the first payout request.
 */
export function loadIfscData(): void {
  loaded();
}

function loaded(): IfscData {
  data ??= readDataFiles();
  return data;
}

function readDataFiles(): IfscData {
  const require = createRequire(import.meta.url);
  const read = <T>(file: string): T => JSON.parse(readFileSync(require.resolve(`ifsc/src/${file}`), 'utf8')) as T;
  return {
    branches: read<IfscData['branches']>('IFSC.json'),
    bankNames: read<IfscData['bankNames']>('banknames.json'),
    sublets: read<IfscData['sublets']>('sublet.json'),
    customSublets: read<IfscData['customSublets']>('custom-sublets.json'),
  };
}

function own<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

function branchSet(bankCode: string): Set<string | number> | undefined {
  let set = branchSets.get(bankCode);
  if (set === undefined) {
    const list = own(loaded().branches, bankCode);
    if (list === undefined) return undefined;
    set = new Set(list);
    branchSets.set(bankCode, set);
  }
  return set;
}

function isKnownBranch(bankCode: string, branch: string): boolean {
  const set = branchSet(bankCode);
  if (set === undefined) return false;
  return set.has(/^[0-9]+$/.test(branch) ? Number(branch) : branch);
}

/** Longest matching prefix first; the 2.0.50 prefixes do not overlap, but a later release might. */
function customSubletOf(code: string): string | undefined {
  const { customSublets } = loaded();
  for (let length = code.length; length >= 4; length -= 1) {
    const hit = own(customSublets, code.slice(0, length));
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/** Same precedence as Razorpay's libraries: NPCI sub-member list, then manual prefixes, then owner. */
function bankNameOf(code: string, bankCode: string): string {
  const { bankNames, sublets } = loaded();
  const member = own(sublets, code) ?? customSubletOf(code);
  if (member !== undefined) {
    // custom-sublets.json sometimes holds the bank's name itself instead of a bank code.
    const memberName = own(bankNames, member) ?? (member.length > 4 ? member : undefined);
    if (memberName !== undefined) return memberName;
  }
  return own(bankNames, bankCode) ?? bankCode;
}

/** Null for a malformed code, an unknown bank, or an unknown branch of a known bank. */
export function lookupIfsc(code: string): IfscInfo | null {
  if (!IFSC_PATTERN.test(code)) return null;
  const bankCode = code.slice(0, 4);
  if (!isKnownBranch(bankCode, code.slice(5))) return null;
  return { ifsc: code, bankCode, bankName: bankNameOf(code, bankCode) };
}
