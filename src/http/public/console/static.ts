/**
 * Serves the console's single-page app (built by scripts/build.mjs into dist/console) at
 * /console/: index.html for every page path, hashed assets with a year's cache, a strict CSP
 * (same-origin scripts, styles and connections only; no inline script, no CDN, no online fonts).
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
  const assets = new Map<string, Buffer>();
  if (built && existsSync(join(CONSOLE_DIST, 'assets'))) {
    for (const f of readdirSync(join(CONSOLE_DIST, 'assets'))) assets.set(f, readFileSync(join(CONSOLE_DIST, 'assets', f)));
  }

  const page = async (_request: unknown, reply: FastifyReply) => {
    securityHeaders(reply);
    if (!index) return reply.code(503).type('text/plain; charset=utf-8').send('The console is not built: run `npm run build`.\n');
    return reply.type('text/html; charset=utf-8').send(index);
  };

  app.get('/console', { schema: { hide: true } }, page);
  app.withTypeProvider<TypeBoxTypeProvider>().get('/console/*', { schema: { hide: true, params: WildcardParams } }, async (request, reply) => {
    const rest = request.params['*'];
    if (rest.startsWith('api/')) throw new AppError('NOT_FOUND', 'No such resource or path.');
    if (rest.startsWith('assets/')) {
      const name = rest.slice('assets/'.length);
      const body = assets.get(name);
      if (!body) throw new AppError('NOT_FOUND', 'No such resource or path.');
      const type = TYPES[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream';
      return securityHeaders(reply).header('cache-control', 'public, max-age=31536000, immutable').type(type).send(body);
    }
    return page(request, reply);
  });
}
