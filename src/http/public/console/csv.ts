/**
 * CSV answers of the console (csv-stringify): streamed row by row with backpressure, and safe to
 * open in a spreadsheet: a cell that starts with = + - @ (or a tab or carriage return) would be run
 * as a formula there (CSV injection), so it gets a leading apostrophe.
 */
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';

const FORMULA_START = /^[=+\-@\t\r]/;

export function safeCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** Paise as rupees with two decimals, in integers (no floating point on money). */
export function rupeesOf(paise: number): string {
  const p = Math.trunc(paise);
  return `${Math.trunc(p / 100)}.${String(p % 100).padStart(2, '0')}`;
}

export function csvStream<T>(rows: AsyncIterable<T>, columns: Array<{ header: string; value: (row: T) => string | number | boolean | null }>): Readable {
  const out = stringify({
    header: true,
    columns: columns.map((c) => c.header),
    cast: { string: safeCell, boolean: (b) => (b ? 'true' : 'false') },
  });
  const source = Readable.from(
    (async function* () {
      for await (const row of rows) yield columns.map((c) => c.value(row) ?? '');
    })(),
  );
  source.on('error', (err) => out.destroy(err));
  return source.pipe(out);
}
