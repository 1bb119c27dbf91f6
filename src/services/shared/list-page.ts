/**
 * Keyset pages of the merchant API lists (contract §7): newest first by (created_at, id), the
 * cursor naming the last row of the previous page. A row added while a client pages through sorts
 * before the first page (it is newer), so no row that existed when paging began is skipped or
 * shown twice — unlike OFFSET, which shifts under inserts.
 *
 * The cursor (keyset-cursor.ts) is opaque: base64url of `<created_at in µs since the epoch>.<id>`,
 * the exact timestamptz (JavaScript Dates hold only milliseconds). Anything else is 422 VALIDATION_FAILED.
 */
import type { ListQuery } from '../../contract/lists.js';
import { AppError } from '../../domain/errors.js';
import { decodeCursor, encodeCursor as encodeKeysetCursor } from './keyset-cursor.js';
import type { ListFilter, ListKey } from '../../store/repos/list-keyset.js';

export type { ListFilter } from '../../store/repos/list-keyset.js';

export const LIST_LIMIT_DEFAULT = 20;
export const LIST_LIMIT_MAX = 100;

/** The position of a merchant list's cursor: the row's created_at in µs since the epoch. */
const CREATED_US = /^[0-9]{1,17}$/;

/** A merchant list's cursor for the row at `key`. */
export function encodeCursor(key: ListKey): string {
  return encodeKeysetCursor({ position: key.createdUs, id: key.id });
}

/** The filter of a checked query; a cursor we did not issue, or created_from after created_to, is 422. */
export function listFilterOf(clientPk: string, q: ListQuery): ListFilter {
  const decoded = q.cursor === undefined ? undefined : decodeCursor(q.cursor, CREATED_US);
  if (decoded === null) {
    throw new AppError('VALIDATION_FAILED', 'The cursor is not one this API issued.', { details: [{ field: 'cursor', issue: 'is not a next_cursor of this list' }] });
  }
  const after = decoded === undefined ? undefined : { createdUs: decoded.position, id: decoded.id };
  const createdFrom = q.created_from === undefined ? undefined : new Date(q.created_from);
  const createdTo = q.created_to === undefined ? undefined : new Date(q.created_to);
  for (const [field, d] of [['created_from', createdFrom], ['created_to', createdTo]] as const) {
    if (d !== undefined && Number.isNaN(d.getTime())) {
      throw new AppError('VALIDATION_FAILED', 'A date filter is not a valid ISO 8601 time.', { details: [{ field, issue: 'has an invalid format' }] });
    }
  }
  if (createdFrom !== undefined && createdTo !== undefined && createdFrom > createdTo) {
    throw new AppError('VALIDATION_FAILED', 'created_from is after created_to.', { details: [{ field: 'created_from', issue: 'must not be after created_to' }] });
  }
  return {
    clientPk,
    ...(q.status !== undefined ? { status: q.status } : {}),
    ...(createdFrom !== undefined ? { createdFrom } : {}),
    ...(createdTo !== undefined ? { createdTo } : {}),
    ...(after !== undefined ? { after } : {}),
    limit: q.limit === undefined ? LIST_LIMIT_DEFAULT : Number(q.limit),
  };
}

/** A console list's page: its rows and the cursor of the next one (null on the last page). */
export interface Page<T> {
  rows: T[];
  next_cursor: string | null;
}

/**
 * A console list's page from the limit + 1 rows its query read (newest first): the first `limit`
 * shown, and, when there was one more, `cursorOf` the last one shown as the next page's cursor.
 */
export function rowsPage<R, V>(rows: R[], limit: number, view: (r: R) => V, cursorOf: (last: R) => string): Page<V> {
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  return { rows: shown.map(view), next_cursor: rows.length > limit && last !== undefined ? cursorOf(last) : null };
}

/** The page and its next_cursor from limit + 1 rows. */
export function pageOf<R extends { id: string; list_key_us: string }, V>(rows: R[], limit: number, view: (r: R) => V): { data: V[]; next_cursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { data: page.map(view), next_cursor: rows.length > limit && last !== undefined ? encodeCursor({ createdUs: last.list_key_us, id: last.id }) : null };
}
