/**
 * Admin API of key rotation (`tijori keys rotate-master`, docs/operations.md): one page of the
 * master key rotation per call (the CLI loops, so a stopped rotation is resumed by running it
 * again), and the verification that counts which key every value is under. The admin token's
 * overlap (ADMIN_TOKEN_PREVIOUS) is in admin-auth.ts.
 */
import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { validationError } from '../../domain/errors.js';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { okEnvelope } from '../plugins/envelope.js';

const RotateBody = Type.Object(
  {
    cursor: Type.Optional(
      Type.Object(
        { column: Type.Integer({ minimum: 0, maximum: 1000 }), after: Type.Union([Type.Null(), Type.Array(Type.String({ maxLength: 200 }), { maxItems: 8 })]) },
        { additionalProperties: false },
      ),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000 })),
  },
  { additionalProperties: false },
);

export async function registerAdminKeyRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const admin = app;
  const rotation = ctx.keyRotation;

  admin.post('/keys/rotate-master', async (request) => {
    // The body is optional (a bare POST starts from the beginning), so it is checked here rather than by a route schema.
    const b: unknown = request.body ?? {};
    if (!Value.Check(RotateBody, b)) throw validationError([{ field: 'body', issue: 'must be {"cursor"?: {"column", "after"}, "limit"?: 1 to 5000}' }]);
    const step = await rotation.step(b.cursor ?? null, b.limit, { label: 'operator', ip: request.ip });
    return okEnvelope(request, step);
  });

  admin.post('/keys/rotate-master/verify', async (request) => {
    return okEnvelope(request, await rotation.verify({ label: 'operator', ip: request.ip }));
  });
}
