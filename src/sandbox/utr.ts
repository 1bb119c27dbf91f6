/** The sandbox's one UTR maker, for its PSP (a UPI collection's RRN) and its bank (a transfer's UTR). */
import { randomInt } from 'node:crypto';

function digits(n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += String(randomInt(10));
  return s;
}

/**
 * A random UTR in the shape of contract §3 for `rail` (UPI, or a payout mode): UPI and IMPS 12
 * digits (an RRN; the first one not zero), NEFT 16 characters, RTGS 22.
 */
export function sandboxUtr(rail: string): string {
  if (rail === 'NEFT') return `SBXSN${digits(11)}`;
  if (rail === 'RTGS') return `SBXSR${digits(17)}`;
  return `${randomInt(1, 10)}${digits(11)}`;
}
