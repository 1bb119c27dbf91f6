/**
 * CSV answers of the console (csv-stringify): streamed row by row with backpressure, and safe to
 * open in a spreadsheet: a cell that starts with = + - @ (or a tab or carriage return) would be run
 * as a formula there (CSV injection), so it gets a leading apostrophe. A spreadsheet may also split
 * a cell at a separator of its own locale (`;`, tab): every cell holding `;`, a tab, a comma, a
 * quote or a line break is quoted, and a formula character right after any separator inside a cell
 * gets its apostrophe too (issue #29 item 5).
 */
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';

const FORMULA_START = /^[=+\-@\t\r]/;
/** A separator some spreadsheet splits on, spaces, then a formula character. */
const FORMULA_AFTER_SEPARATOR = /([;,\t\r\n|]\s*)([=+\-@])/g;
/** Cells csv-stringify must quote beyond its own rule (comma, quote, line break). */
const QUOTE_ALSO = /[;\t]/;

export function safeCell(value: string): string {
  const inner = value.replace(FORMULA_AFTER_SEPARATOR, "$1'$2");
  return FORMULA_START.test(inner) ? `'${inner}` : inner;
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
    quoted_match: QUOTE_ALSO,
  });
  const source = Readable.from(
    (async function* () {
      for await (const row of rows) yield columns.map((c) => c.value(row) ?? '');
    })(),
  );
  source.on('error', (err) => out.destroy(err));
  return source.pipe(out);
}
