/**
 * The one cursor of every keyset list (the merchant API's lists, the console's): opaque to clients,
 * base64url of `<position>.<id>`, where the position is what the list sorts by besides the id (a
 * count of µs since the epoch, or a UTC time with µs: a JavaScript Date would lose them and a page
 * would skip rows). Only a cursor this service issued decodes: the text must be the position the
 * list expects and a lowercase UUID, and encode back to the very same cursor.
 */

const CURSOR_CHARS = /^[A-Za-z0-9_-]{1,96}$/;
const TEXT = /^(.+)\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

export interface CursorKey {
  position: string;
  id: string;
}

export function encodeCursor(key: CursorKey): string {
  return Buffer.from(`${key.position}.${key.id}`).toString('base64url');
}

/** The key of a cursor whose position matches `position` (a whole-text pattern); null for anything else. */
export function decodeCursor(cursor: string, position: RegExp): CursorKey | null {
  if (!CURSOR_CHARS.test(cursor)) return null;
  const m = TEXT.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (m === null || !position.test(m[1] as string)) return null;
  const key = { position: m[1] as string, id: m[2] as string };
  return encodeCursor(key) === cursor ? key : null;
}
