/**
 * CSV answers of the console (csv-stringify): streamed row by row with backpressure, and safe to
 * open in a spreadsheet: a cell that starts with = + - @ (or a tab or carriage return) would be run
 * as a formula there (CSV injection), so it gets a leading apostrophe.
 */
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { stringify as stringifySync } from 'csv-stringify/sync';

const FORMULA_START = /^[=+\-@\t\r]/;

export function safeCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** Paise as rupees with two decimals, in integers (no floating point on money). */
export function rupeesOf(paise: number): string {
  const p = Math.trunc(paise);
  return `${Math.trunc(p / 100)}.${String(p % 100).padStart(2, '0')}`;
}

export interface CsvColumn<T> {
  header: string;
  value: (row: T) => string | number | boolean | null;
}

const CAST = { string: safeCell, boolean: (b: boolean) => (b ? 'true' : 'false') };

/** A CSV answer made row by row (csv-stringify's stream): for small or slowly produced row sets. */
export function csvStream<T>(rows: AsyncIterable<T>, columns: Array<CsvColumn<T>>): Readable {
  const out = stringify({ header: true, columns: columns.map((c) => c.header), cast: CAST });
  const source = Readable.from(
    (async function* () {
      for await (const row of rows) yield columns.map((c) => c.value(row) ?? '');
    })(),
  );
  source.on('error', (err) => out.destroy(err));
  return source.pipe(out);
}

/**
 * A CSV answer made a page at a time: each page of rows becomes one chunk of text (csv-stringify's
 * synchronous form, same quoting and casts as csvStream), so a million-row export costs one
 * stream write per page instead of several stream hand-offs per row. Memory holds one page (and
 * the one the source reads ahead); the stream waits for the client (backpressure) between pages.
 */
export function csvPages<T>(pages: AsyncIterable<T[]>, columns: Array<CsvColumn<T>>): Readable {
  const headers = columns.map((c) => c.header);
  return Readable.from(
    (async function* () {
      yield stringifySync([headers]);
      for await (const page of pages) {
        if (page.length > 0) yield stringifySync(page.map((row) => columns.map((c) => c.value(row) ?? '')), { cast: CAST });
      }
    })(),
    { objectMode: false },
  );
}
