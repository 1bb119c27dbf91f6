/**
 * 405 METHOD_NOT_ALLOWED with `Allow` for a known path asked with another method. Fastify answers
 * such a request through the not-found handler; this keeps a second router (find-my-way, the one
 * Fastify itself uses, with the same options) holding every registered route, so the not-found
 * handler can ask which methods the path does have.
 */
import type { FastifyInstance } from 'fastify';
import Router from 'find-my-way';

type Method = Router.HTTPMethod;

export interface AllowedMethods {
  /** The methods the path answers, in a stable order; empty when the path is unknown. */
  of(url: string): string[];
}

const noop = () => undefined;

export function trackAllowedMethods(app: FastifyInstance, options: { ignoreTrailingSlash: boolean; maxParamLength: number }): AllowedMethods {
  const router = Router({ ...options, defaultRoute: noop });
  const methods = new Set<Method>();
  const add = (method: Method, url: string) => {
    if (router.hasRoute(method, url)) return;
    router.on(method, url, noop);
    methods.add(method);
  };
  app.addHook('onRoute', (route) => {
    for (const m of [route.method].flat()) {
      add(m as Method, route.url);
      // Fastify answers HEAD for every GET route (exposeHeadRoutes).
      if (m === 'GET') add('HEAD', route.url);
    }
  });
  return {
    of(url: string): string[] {
      const q = url.indexOf('?');
      const path = q < 0 ? url : url.slice(0, q);
      const out: string[] = [];
      for (const m of methods) if (router.find(m, path) !== null) out.push(m);
      return out.sort();
    },
  };
}
