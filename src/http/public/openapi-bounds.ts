/**
 * Size bounds the routes' schemas imply but do not spell, written out in the OpenAPI document so
 * that generators and linters (Spectral's OWASP ruleset, .spectral.yaml) see them. Only the
 * document changes: the service keeps validating with the route's own schema, so a value's error
 * (`issue` words included) is what it was.
 */
type Json = Record<string, unknown>;

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/**
 * The longest string an anchored pattern accepts, for the simple patterns the schemas use (literal
 * characters, escapes, classes, groups with `|`, the quantifiers `?` and `{n}` / `{n,m}`);
 * undefined when unbounded (`*`, `+`, `{n,}`), not anchored at both ends, or not understood.
 */
export function maxLengthOfPattern(pattern: string): number | undefined {
  if (!pattern.startsWith('^') || !pattern.endsWith('$') || pattern.endsWith('\\$')) return undefined;
  const src = pattern.slice(1, -1);
  let i = 0;
  // Parses an alternation up to `)` or the end; returns its longest length.
  const alternation = (): number => {
    let best = 0;
    let current = 0;
    while (i < src.length && src[i] !== ')') {
      if (src[i] === '|') {
        best = Math.max(best, current);
        current = 0;
        i += 1;
        continue;
      }
      current += quantified(atom());
    }
    return Math.max(best, current);
  };
  const atom = (): number => {
    const c = src[i];
    if (c === '\\') {
      i += 2;
      return 1;
    }
    if (c === '[') {
      i += 1;
      if (src[i] === ']') i += 1;
      while (i < src.length && src[i] !== ']') i += src[i] === '\\' ? 2 : 1;
      if (i >= src.length) throw new Error('unclosed class');
      i += 1;
      return 1;
    }
    if (c === '(') {
      i += src.startsWith('(?:', i) ? 3 : 1;
      if (src[i] === '?') throw new Error('lookaround');
      const inner = alternation();
      if (src[i] !== ')') throw new Error('unclosed group');
      i += 1;
      return inner;
    }
    if (c === '^' || c === '$') throw new Error('inner anchor');
    i += 1;
    return 1;
  };
  const quantified = (len: number): number => {
    const c = src[i];
    if (c === '*' || c === '+') throw new Error('unbounded');
    if (c === '?') {
      i += 1;
      return len;
    }
    if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(i));
      if (!m) throw new Error('bad quantifier');
      i += m[0].length;
      if (m[2] !== undefined && m[3] === '') throw new Error('unbounded');
      return len * Number(m[3] ?? m[1]);
    }
    return len;
  };
  try {
    const max = alternation();
    return i === src.length ? max : undefined;
  } catch {
    return undefined;
  }
}

const hasType = (o: Json, type: string): boolean => o.type === type || (Array.isArray(o.type) && o.type.includes(type));

/**
 * Walks the document: a string schema bounded only by its pattern gets that bound as `maxLength`;
 * an integer without `format` gets `int32` when its bounds fit in 32 bits, else `int64` (the
 * `*_paise` amounts are marked `int64` before, by name).
 */
export function writeOutBounds(node: unknown): void {
  if (Array.isArray(node)) {
    for (const n of node) writeOutBounds(n);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const o = node as Json;
  if (hasType(o, 'string') && typeof o.pattern === 'string' && o.maxLength === undefined && o.enum === undefined && o.const === undefined) {
    const max = maxLengthOfPattern(o.pattern);
    if (max !== undefined) o.maxLength = max;
  }
  if (hasType(o, 'integer') && o.format === undefined) {
    const min = typeof o.minimum === 'number' ? o.minimum : undefined;
    const max = typeof o.maximum === 'number' ? o.maximum : undefined;
    o.format = min !== undefined && max !== undefined && min >= INT32_MIN && max <= INT32_MAX ? 'int32' : 'int64';
  }
  for (const value of Object.values(o)) writeOutBounds(value);
}
