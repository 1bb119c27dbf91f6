/**
 * The JavaScript a browser must download before the console's first page can run (issue #19 item
 * 6: ≤ 300 KB compressed; issue #32: under 100 KB): the module scripts index.html names (and any modulepreload), plus
 * everything they import statically, transitively. Chunks loaded by a dynamic import() (a page
 * opened later) are not counted. Sizes are gzip at level 6 (gzip's default; the service sends the
 * files uncompressed and leaves compression to the proxy in front of it).
 *
 * Used by the bench over HTTP (what the service really serves) and by
 * test/console/bundle-size.test.ts on a fresh build.
 */
import { gzipSync } from 'node:zlib';

export const FIRST_LOAD_JS_LIMIT_GZ = 100_000;

export interface FirstLoad {
  files: Array<{ path: string; bytes: number; gzip_bytes: number }>;
  bytes: number;
  gzip_bytes: number;
}

/** src of module scripts and href of modulepreload links in the page. */
function entryScripts(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/<script\b[^>]*\btype=["']module["'][^>]*\bsrc=["']([^"']+)["']|<script\b[^>]*\bsrc=["']([^"']+)["'][^>]*\btype=["']module["']/g)) out.push((m[1] ?? m[2]) as string);
  for (const m of html.matchAll(/<link\b[^>]*\brel=["']modulepreload["'][^>]*\bhref=["']([^"']+)["']/g)) out.push(m[1] as string);
  return out;
}

/**
 * Specifiers of the static imports and re-exports of an ES module as esbuild writes them
 * (`import{a as b}from"./chunk-X.js";`, `import"./x.js";`, `export*from"./y.js"`); `import("...")`
 * is dynamic and not matched (a parenthesis cannot follow the keyword in this pattern).
 */
export function staticImports(code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(/(?:^|[;\s}])(?:import|export)\s*(?:[\w$*{}\s,]*?\bfrom\s*)?["']([^"']+)["']/g)) out.push(m[1] as string);
  return out;
}

/** `read(path)` answers the file at a URL path of the site (e.g. /console/assets/app-X.js). */
export async function firstLoadJs(html: string, read: (path: string) => Promise<Buffer>): Promise<FirstLoad> {
  const seen = new Set<string>();
  const queue = entryScripts(html).map((src) => new URL(src, 'http://console.invalid/console/').pathname);
  const files: FirstLoad['files'] = [];
  for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
    if (seen.has(path)) continue;
    seen.add(path);
    const body = await read(path);
    files.push({ path, bytes: body.length, gzip_bytes: gzipSync(body, { level: 6 }).length });
    for (const spec of staticImports(body.toString('utf8'))) queue.push(new URL(spec, `http://console.invalid${path}`).pathname);
  }
  return { files, bytes: files.reduce((s, f) => s + f.bytes, 0), gzip_bytes: files.reduce((s, f) => s + f.gzip_bytes, 0) };
}

/** The same, fetched from a running service at `base` (its public listener). */
export async function firstLoadJsOver(base: string): Promise<FirstLoad> {
  const get = async (path: string) => {
    const res = await fetch(`${base}${path}`);
    if (!res.ok) throw new Error(`${path}: ${res.status}`);
    return Buffer.from(await res.arrayBuffer());
  };
  return firstLoadJs((await get('/console/')).toString('utf8'), get);
}
