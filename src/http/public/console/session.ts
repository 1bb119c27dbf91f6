/**
 * The console's session handling on every /console/api request: the session cookie, the CSRF
 * check on every change, and the role check against the permission a route declares
 * (roles.ts holds the table). Routes declare `config: { console: 'public' | Permission }`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../../context.js';
import { AppError } from '../../../domain/errors.js';
import { safeEqualStrings } from '../../../security/secrets.js';
import type { Actor } from '../../../services/console/audit.js';
import type { CurrentSession } from '../../../services/console/auth.js';
import { type Permission, requirePermission } from '../../../services/console/roles.js';

export const CSRF_HEADER = 'x-csrf-token';

declare module 'fastify' {
  interface FastifyRequest {
    consoleSession: CurrentSession | null;
  }
  interface FastifyContextConfig {
    /** 'public': no session needed (sign-in, set-up); otherwise the permission the route needs. */
    console?: 'public' | Permission;
  }
}

export interface CookieNames {
  name: string;
  secure: boolean;
  path: string;
}

/** `__Host-` cookies (Secure, Path=/, no Domain) when the public origin is https. */
export function cookieSettings(ctx: AppContext): CookieNames {
  const secure = ctx.publicBaseUrl().startsWith('https:');
  return secure ? { name: '__Host-tijori_console', secure, path: '/' } : { name: 'tijori_console', secure, path: '/console' };
}

export function readCookie(request: FastifyRequest, name: string): string | null {
  const header = request.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

export function setSessionCookie(ctx: AppContext, reply: FastifyReply, token: string): void {
  const c = cookieSettings(ctx);
  const attrs = [`${c.name}=${token}`, `Path=${c.path}`, 'HttpOnly', 'SameSite=Strict', `Max-Age=${ctx.config.console.absoluteSeconds}`];
  if (c.secure) attrs.push('Secure');
  reply.header('set-cookie', attrs.join('; '));
}

export function clearSessionCookie(ctx: AppContext, reply: FastifyReply): void {
  const c = cookieSettings(ctx);
  reply.header('set-cookie', [`${c.name}=`, `Path=${c.path}`, 'HttpOnly', 'SameSite=Strict', 'Max-Age=0', ...(c.secure ? ['Secure'] : [])].join('; '));
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Sent by the console app on its automatic refreshes. */
export const POLL_HEADER = 'x-console-poll';

export function consoleGuard(ctx: AppContext) {
  return async (request: FastifyRequest): Promise<void> => {
    const need = request.routeOptions.config.console;
    const token = readCookie(request, cookieSettings(ctx).name);
    // `X-Console-Poll: 1` on a read: the page refreshing itself (bulk progress), not the person — it
    // does not keep an idle session alive. A change always counts as use.
    const poll = SAFE_METHODS.has(request.method) && request.headers[POLL_HEADER] === '1';
    request.consoleSession = token ? await ctx.console.auth.resolve(token, { poll }) : null;
    if (need === 'public') return;
    const s = request.consoleSession;
    if (!s) throw new AppError('API_AUTH_FAILED', 'Not signed in, or the session has ended. Sign in again.');
    if (!SAFE_METHODS.has(request.method)) {
      const sent = request.headers[CSRF_HEADER];
      if (typeof sent !== 'string' || !safeEqualStrings(sent, s.csrfToken)) {
        throw new AppError('API_SCOPE_DENIED', `Missing or wrong ${CSRF_HEADER} header: reload the page and try again.`);
      }
    }
    // A change that names no permission is refused to everyone: forgetting is never an opening.
    if (need === undefined && !SAFE_METHODS.has(request.method)) throw new AppError('API_SCOPE_DENIED', 'This change is not permitted.');
    requirePermission(s.user.role, need ?? 'read');
  };
}

/** The signed-in user of a guarded route (the guard has run). */
export function sessionOf(request: FastifyRequest): CurrentSession {
  const s = request.consoleSession;
  if (!s) throw new AppError('API_AUTH_FAILED', 'Not signed in.');
  return s;
}

export function actorOf(request: FastifyRequest): Actor {
  const s = sessionOf(request);
  return { userId: s.user.id, label: s.user.email, ip: request.ip };
}
