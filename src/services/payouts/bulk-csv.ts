/**
 * Reading a bulk payout file (contract §6): CSV with the header
 * `name,account_number,ifsc,mobile,amount_paise,mode,remarks,client_reference`, parsed by
 * csv-parse as a stream (records are checked one by one as they are read; a UTF-8 BOM, CRLF line
 * ends and quoted fields with commas or line breaks are CSV, not errors). Every row is checked by
 * the rules of a single payout (payout-input.ts checkConsoleInstruction, as the console's form) and every
 * problem is reported with its line number; values are never echoed back in a message.
 */
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type { PayoutMode } from '../../domain/payout.js';
import { checkConsoleInstruction } from './payout-input.js';

export const BULK_HEADER = ['name', 'account_number', 'ifsc', 'mobile', 'amount_paise', 'mode', 'remarks', 'client_reference'] as const;
export const BULK_MAX_ROWS = 10_000;

export interface BulkRowIssue {
  line: number;
  field: string;
  issue: string;
}

export interface CheckedRow {
  line: number;
  name: string;
  accountNumber: string;
  ifsc: string;
  mobile: string;
  amountPaise: number;
  mode: PayoutMode;
  remarks: string | null;
  clientReference: string | null;
}

const FIELD_NAMES: Record<string, string> = {
  'beneficiary.name': 'name',
  'beneficiary.account_number': 'account_number',
  'beneficiary.ifsc': 'ifsc',
  'beneficiary.mobile': 'mobile',
};

export async function readBulkCsv(content: Buffer): Promise<{ rows: CheckedRow[]; issues: BulkRowIssue[] }> {
  const rows: CheckedRow[] = [];
  const issues: BulkRowIssue[] = [];
  const parser = Readable.from([content]).pipe(parse({ bom: true, info: true, relax_column_count: true, skip_empty_lines: true }));
  let header = true;
  let records = 0;
  let malformed = false;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const line = info.lines;
      if (header) {
        header = false;
        const got = record.map((h) => h.trim().toLowerCase());
        if (got.join(',') !== BULK_HEADER.join(',')) issues.push({ line, field: 'header', issue: `must be exactly ${BULK_HEADER.join(',')}` });
        continue;
      }
      records++;
      if (records > BULK_MAX_ROWS) {
        issues.push({ line, field: 'file', issue: `has more than ${BULK_MAX_ROWS} rows; split it into several files` });
        break;
      }
      if (record.length !== BULK_HEADER.length) {
        issues.push({ line, field: 'row', issue: `has ${record.length} columns, expected ${BULK_HEADER.length}` });
        continue;
      }
      const [name, account, ifsc, mobile, amount, mode, remarks, reference] = record.map((v) => v.trim()) as string[] as [string, string, string, string, string, string, string, string];
      const amountPaise = /^[0-9]{1,15}$/.test(amount) ? Number(amount) : Number.NaN;
      const { issues: found } = checkConsoleInstruction({
        beneficiary: { name, account_number: account, ifsc, mobile },
        amount_paise: amountPaise,
        mode: mode.toUpperCase() as PayoutMode,
        remarks: remarks === '' ? undefined : remarks,
        client_reference: reference === '' ? undefined : reference,
      });
      for (const f of found) issues.push({ line, field: FIELD_NAMES[f.field] ?? f.field, issue: f.issue });
      if (found.length === 0) {
        rows.push({
          line, name, accountNumber: account, ifsc: ifsc.toUpperCase(), mobile, amountPaise, mode: mode.toUpperCase() as PayoutMode,
          remarks: remarks === '' ? null : remarks, clientReference: reference === '' ? null : reference,
        });
      }
    }
  } catch (err) {
    // Malformed CSV (an unclosed quote, a stray quote): where, and which rule; never the text.
    malformed = true;
    const e = err as { code?: string; lines?: number };
    issues.push({ line: e.lines ?? 0, field: 'file', issue: `is not valid CSV here (${e.code ?? 'parse error'}); quote fields that contain commas, quotes or line breaks` });
  }
  if (header && !malformed) issues.push({ line: 1, field: 'header', issue: `the file is empty; the first line must be ${BULK_HEADER.join(',')}` });
  else if (records === 0 && issues.length === 0) issues.push({ line: 2, field: 'file', issue: 'has no payout rows' });
  return { rows, issues };
}
