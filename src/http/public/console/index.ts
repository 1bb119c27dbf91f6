/** The merchant console on the public listener: its JSON API under /console/api and its app at /console/. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context.js';
import { registerConsoleApi } from './api.js';
import { registerConsoleStatic } from './static.js';

export async function registerConsole(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (api) => registerConsoleApi(api, ctx), { prefix: '/console/api' });
  await registerConsoleStatic(app);
}
