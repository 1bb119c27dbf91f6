/**
 * The OpenAPI 3.1 document of the merchant API, made by @fastify/swagger from the routes' own
 * schemas (schemas/*.ts): named components (one per `$id`), operations, responses with their
 * headers, and the `webhooks` section. Served at /api/v1/openapi.json; `openApiDocument()` makes
 * the same document without a database (scripts/openapi.ts writes it to a file for linters and
 * the SDK's generated types).
 */
import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { AJV_OPTIONS } from '../base-app.js';
import { registerPublicRoutes } from './routes.js';
import { API_COMPONENTS } from './schemas/index.js';
import { webhooksSection } from './schemas/webhooks.js';

export const API_PREFIX = '/api/v1';

/** `Idempotency-Key` as API §5 spells it (Fastify keeps header schemas in lower case). */
const headerName = (name: string) => name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());

/**
 * Finishing touches @fastify/swagger cannot be told through a route schema: header parameters
 * spelled as the API document does, and `x-required` on a response header's schema
 * (schemas/common.ts) made that header's `required`.
 */
type Json = Record<string, unknown>;
const objectsIn = (value: unknown): Json[] => (value && typeof value === 'object' ? (Object.values(value) as Json[]) : []);

function finishDocument(doc: Json): Json {
  for (const item of objectsIn(doc.paths)) {
    for (const op of objectsIn(item)) {
      for (const p of (op.parameters ?? []) as Json[]) if (p.in === 'header') p.name = headerName(String(p.name));
      for (const response of objectsIn(op.responses)) {
        for (const header of objectsIn(response.headers)) {
          const schema = header.schema as Json | undefined;
          if (schema?.['x-required'] === true) {
            delete schema['x-required'];
            header.required = true;
          }
        }
      }
    }
  }
  return doc;
}

export const SWAGGER_OPTIONS: FastifyDynamicSwaggerOptions = {
  openapi: {
    openapi: '3.1.0',
    info: {
      title: 'Tijori merchant API',
      version: '1.0.0',
      description:
        'Hosted collections (PayIn), direct payouts (PayOut) and signed callbacks. Amounts are integers in paise. ' +
        'Every answer carries a `request_id`; errors use the envelope `ErrorEnvelope` with a code of `ErrorCode`.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Tijori' },
    },
    servers: [{ url: API_PREFIX, description: 'relative to the service origin' }],
    tags: [
      { name: 'payment orders', description: 'INR collections: hosted checkout or UPI intent (API §4.1, §4.2)' },
      { name: 'payouts', description: 'Direct bank payouts (API §4.3, §4.4)' },
    ],
    components: {
      securitySchemes: {
        clientId: { type: 'apiKey', in: 'header', name: 'X-Service-Client-Id', description: 'the API client id' },
        clientSecret: { type: 'http', scheme: 'bearer', description: '`Authorization: Bearer <CLIENT_SECRET>`; server-side only' },
      },
    },
    security: [{ clientId: [], clientSecret: [] }],
    ...({ webhooks: webhooksSection() } as object),
  },
  refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  transform: ({ schema, url }) => ({ schema, url: url.startsWith(API_PREFIX) ? url.slice(API_PREFIX.length) || '/' : url }),
  transformObject: (documentObject) => finishDocument('openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject),
};

/** Registers @fastify/swagger and every named component on `app` (before any route that refers to them). */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, SWAGGER_OPTIONS);
  for (const schema of API_COMPONENTS) app.addSchema(schema);
}

/**
 * The document, without a running service: the routes are registered on a bare app and never
 * called, so they get no context (handlers are the only users of it).
 */
export async function openApiDocument(): Promise<Record<string, unknown>> {
  const app = Fastify({ logger: false, ajv: AJV_OPTIONS });
  await registerOpenApi(app);
  await app.register((api) => registerPublicRoutes(api, null as unknown as AppContext), { prefix: API_PREFIX });
  await app.ready();
  const doc = app.swagger() as unknown as Record<string, unknown>;
  await app.close();
  return doc;
}
