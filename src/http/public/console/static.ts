/**
 * Serves the console's single-page app (built by scripts/build.mjs into dist/console) at
 * /console/: index.html for every page path, hashed assets with a year's cache, a strict CSP
 * (same-origin scripts, styles and connections only; no inline script, no CDN, no online fonts).
 * Scripts and stylesheets are sent as the build precompressed them (NAME.br, NAME.gz) when the
 * browser accepts that encoding, with `Vary: Accept-Encoding`.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../../../domain/errors.js';
import { WildcardParams } from './schemas/static.js';

/** src/http/public/console and dist/http/public/console are both four levels below the repository. */
export const CONSOLE_DIST = join(dirname(fileURLToPath(import.meta.url)), '../../../../dist/console');

export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

type Encoding = 'br' | 'gzip';

interface Asset {
  body: Buffer;
  /** The precompressed forms the build made, if any. */
  br?: Buffer;
  gzip?: Buffer;
}

/** The encodings an Accept-Encoding header accepts (q > 0), `*` included. */
export function acceptedEncodings(header: string | undefined): Set<string> {
  const out = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [token, ...params] = part.trim().toLowerCase().split(';');
    if (!token) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) continue;
    out.add(token.trim());
  }
  return out;
}

function pick(asset: Asset, header: string | undefined): Encoding | undefined {
  const ok = acceptedEncodings(header);
  if (asset.br && (ok.has('br') || ok.has('*'))) return 'br';
  if (asset.gzip && (ok.has('gzip') || ok.has('*'))) return 'gzip';
  return undefined;
}

function securityHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', CONSOLE_CSP)
    .header('referrer-policy', 'no-referrer')
    .header('x-frame-options', 'DENY')
    .header('cross-origin-opener-policy', 'same-origin');
}

export async function registerConsoleStatic(app: FastifyInstance): Promise<void> {
  // Read once at start: the build is immutable while the process runs.
  const built = existsSync(join(CONSOLE_DIST, 'index.html'));
  const index = built ? readFileSync(join(CONSOLE_DIST, 'index.html')) : null;
  const assets = new Map<string, Asset>();
  const dir = join(CONSOLE_DIST, 'assets');
  if (built && existsSync(dir)) {
    const names = readdirSync(dir);
    for (const f of names) {
      if (f.endsWith('.br') || f.endsWith('.gz')) continue;
      const read = (suffix: string) => (names.includes(f + suffix) ? readFileSync(join(dir, f + suffix)) : undefined);
      const br = read('.br');
      const gzip = read('.gz');
      assets.set(f, { body: readFileSync(join(dir, f)), ...(br ? { br } : {}), ...(gzip ? { gzip } : {}) });
    }
  }

  const page = async (_request: unknown, reply: FastifyReply) => {
    securityHeaders(reply);
    if (!index) return reply.code(503).type('text/plain; charset=utf-8').send('The console is not built: run `npm run build`.\n');
    // Never kept (it names the hashed assets of the build in place).
    return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(index);
  };

  app.get('/console', { schema: { hide: true } }, page);
  app.withTypeProvider<TypeBoxTypeProvider>().get('/console/*', { schema: { hide: true, params: WildcardParams } }, async (request, reply) => {
    const rest = request.params['*'];
    if (rest.startsWith('api/')) throw new AppError('NOT_FOUND', 'No such resource or path.');
    if (rest.startsWith('assets/')) {
      const name = rest.slice('assets/'.length);
      const asset = assets.get(name);
      if (!asset) throw new AppError('NOT_FOUND', 'No such resource or path.');
      const type = TYPES[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream';
      securityHeaders(reply).header('cache-control', 'public, max-age=31536000, immutable').type(type);
      if (!asset.br && !asset.gzip) return reply.send(asset.body);
      reply.header('vary', 'accept-encoding');
      const encoding = pick(asset, request.headers['accept-encoding']);
      if (!encoding) return reply.send(asset.body);
      return reply.header('content-encoding', encoding).send(asset[encoding]);
    }
    return page(request, reply);
  });
}
