/**
 * Small predicates the request validators share. Each answers one yes/no question; which field
 * failed and why is the validator's business.
 */

/**
 * Limits such as "3 to 255 characters" are about what a person typed, so an emoji or a Devanagari
 * conjunct part counts once per code point, not twice as UTF-16 would.
 */
export function charLength(value: string): number {
  let count = 0;
  for (const _codePoint of value) count += 1;
  return count;
}

/**
 * Text that can be stored, signed and put into a URI as it is. A lone surrogate cannot be encoded
 * as UTF-8 (JSON.parse accepts "\ud800"), and PostgreSQL text and jsonb cannot hold U+0000
 * (JSON.parse accepts "\u0000"): such input is refused, never passed on to fail in the database.
 */
// eslint-disable-next-line no-control-regex -- U+0000 is what this looks for
const LONE_SURROGATE_OR_NUL = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\u0000/;

export function isStorableText(value: string): boolean {
  return !LONE_SURROGATE_OR_NUL.test(value);
}

/**
 * Where in a parsed JSON value (keys included) the first unstorable string is, as a field path
 * ("beneficiary.name", "items[2]"); null when every string is storable.
 */
export function unstorableTextPath(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return isStorableText(value) ? null : path || 'body';
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unstorableTextPath(value[i], `${path}[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  for (const [key, v] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (!isStorableText(key)) return path || 'body';
    const found = unstorableTextPath(v, at);
    if (found !== null) return found;
  }
  return null;
}

/**
 * The WHATWG form-validation shape plus a mandatory dot in the domain: a payment receipt address
 * needs a real domain, and anything stricter rejects addresses real people use.
 */
export const EMAIL_PATTERN =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export function isEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value);
}

/**
 * The literal `https://` prefix (any case) and no forbidden character: the part of isHttpsUrl a
 * JSON Schema `pattern` can state (the merchant API's schemas use this string as it is).
 * Control characters are the point. A backslash is not legal in a URI (RFC 3986), and parsers
 * disagree about it (WHATWG reads it as `/`), which is how host checks get bypassed.
 */
export const HTTPS_URL_SHAPE = '^[Hh][Tt][Tt][Pp][Ss]://[^\\s\\u0000-\\u001f\\u007f\\\\]+$';
/** What isWebUrl refuses anywhere in a URL: the characters of HTTPS_URL_SHAPE's negated class. */
// eslint-disable-next-line no-control-regex
const FORBIDDEN_IN_URL = /[\s\u0000-\u001f\u007f\\]/;

/**
 * Callback and return URLs. The literal `https://` prefix rules out forms the URL parser would
 * quietly repair (`https:host`, leading spaces); credentials (any `@` in the authority, even an empty
 * `https://:@host`) are refused: they would be stored and logged in clear, and `user@host` is a
 * classic way to make one host look like another.
 */
export function isHttpsUrl(value: string): boolean {
  return isWebUrl(value, 'https');
}

/**
 * The same rules for a plain `http://` URL: only callback destinations on a developer's own network
 * may use one (src/callbacks/destination-url.ts says when).
 */
export function isPlainHttpUrl(value: string): boolean {
  return isWebUrl(value, 'http');
}

function isWebUrl(value: string, scheme: 'http' | 'https'): boolean {
  const prefix = `${scheme}://`;
  if (value.slice(0, prefix.length).toLowerCase() !== prefix || FORBIDDEN_IN_URL.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  const authority = value.slice(prefix.length).split(/[/?#]/, 1)[0] ?? '';
  return url.protocol === `${scheme}:` && url.hostname !== '' && !authority.includes('@');
}

/** Idempotency keys: version nibble 4 and RFC 4122 variant (8, 9, a or b), either case. */
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export function isUuidV4(value: string): boolean {
  return UUID_V4.test(value);
}

/** Any RFC 4122 UUID, for path parameters and ids we issued (not necessarily v4). */
const UUID_ANY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID_ANY.test(value);
}
