/**
 * Duplicate keys in a JSON object ("a": 1, "a": 2) are refused: JSON.parse keeps the last, other
 * parsers (a proxy, a WAF, the merchant's own logging) may keep the first, and then two programs
 * read two different requests from one body.
 *
 * The check costs one pass over the text and one over the parsed value, no allocation: the text's
 * count of member names (every string followed by a colon — in JSON that parsed, only a member
 * name can be) is compared with the count of own keys in the parsed value. They differ exactly
 * when some object named a key twice, at any depth.
 */

const BACKSLASH = 0x5c;
const COLON = 0x3a;

/** Member names written in `text`, which must be JSON that JSON.parse accepted. */
function memberNamesInText(text: string): number {
  let count = 0;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const i0 = text.indexOf('"', i);
    if (i0 < 0) break;
    // Skip to the string's closing quote (a quote preceded by an even run of backslashes).
    let j = i0 + 1;
    for (;;) {
      j = text.indexOf('"', j);
      let backslashes = 0;
      for (let k = j - 1; text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
      if (backslashes % 2 === 0) break;
      j++;
    }
    // Whitespace between a name and its colon is one of four characters, all below '!'.
    let k = j + 1;
    while (k < n && text.charCodeAt(k) <= 0x20) k++;
    if (text.charCodeAt(k) === COLON) count++;
    i = j + 1;
  }
  return count;
}

function keysInValue(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  if (Array.isArray(value)) {
    let c = 0;
    for (const v of value) c += keysInValue(v);
    return c;
  }
  let c = 0;
  for (const k in value as Record<string, unknown>) {
    c += 1 + keysInValue((value as Record<string, unknown>)[k]);
  }
  return c;
}

/** True when `text` (already parsed into `parsed` by JSON.parse) names a key twice in one object. */
export function hasDuplicateKeys(text: string, parsed: unknown): boolean {
  if (parsed === null || typeof parsed !== 'object') return false;
  return memberNamesInText(text) !== keysInValue(parsed);
}

/** JSON.parse that also refuses duplicate keys (throws SyntaxError, as JSON.parse does). */
export function parseJsonStrict(text: string, reviver?: (key: string, value: unknown) => unknown): unknown {
  const parsed: unknown = reviver ? JSON.parse(text, reviver) : JSON.parse(text);
  if (hasDuplicateKeys(text, parsed)) throw new SyntaxError('duplicate key in a JSON object');
  return parsed;
}
