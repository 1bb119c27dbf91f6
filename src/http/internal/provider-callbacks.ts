/**
 * Provider callback intake (internal listener): POST /provider/:provider/callbacks, where
 * `:provider` is `sandbox` (the built-in sandbox) or a provider account id (contract §8). The raw body is
 * verified by the provider adapter, stored (duplicates absorbed) and acknowledged at once; a worker
 * processes it. 401 when the signature does not verify.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { BODY_LIMIT_BYTES } from '../base-app.js';
import { ProviderParams } from './schemas/callbacks.js';

export async function registerProviderCallbackRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<TypeBoxTypeProvider>();
    // Signatures cover the exact bytes: keep the body as received (no parse and re-serialise).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(/^application\/json(\s*;.*)?$/i, { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES }, (_req, body, done) => done(null, body));
    // Only the path has a schema: a body schema would judge the provider's text before its signature is checked.
    scope.post('/provider/:provider/callbacks', { schema: { params: ProviderParams } }, async (request, reply) => {
      const { provider } = request.params;
      const raw = typeof request.body === 'string' ? request.body : '';
      const result = await ctx.providerIntake.accept(provider, raw, request.headers);
      return reply.code(200).send({ received: true, duplicate: result === 'duplicate' });
    });
  });
}
