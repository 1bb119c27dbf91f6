/**
 * The OpenAPI 3.1 document of the merchant API, made by @fastify/swagger from the routes' own
 * schemas (schemas/*.ts): named components (one per `$id`), operations, responses with their
 * headers, and the `webhooks` section. The console's JSON API is in it too, tagged `console`
 * (console/schemas/*.ts; its paths carry their own `servers`, as they are not under /api/v1).
 * Served at /api/v1/openapi.json; `openApiDocument()` makes the same document without a database
 * (scripts/openapi.ts writes it to a file for linters; the SDK's types take `merchantDocument()`).
 */
import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { AJV_OPTIONS } from '../base-app.js';
import { registerConsoleApi } from './console/api.js';
import { writeOutBounds } from './openapi-bounds.js';
import { CONSOLE_SECURITY_SCHEMES } from './console/schemas/common.js';
import { registerPublicRoutes } from './routes.js';
import { API_COMPONENTS } from './schemas/index.js';
import { webhooksSection } from './schemas/webhooks.js';

export const API_PREFIX = '/api/v1';
export const CONSOLE_API_PREFIX = '/console/api';
const CONSOLE_TAG = 'console';

/** `Idempotency-Key` as API §5 spells it (Fastify keeps header schemas in lower case). */
const headerName = (name: string) => name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());

/**
 * Finishing touches @fastify/swagger cannot be told through a route schema: header parameters
 * spelled as the API document does, and `x-required` on a response header's schema
 * (schemas/common.ts) made that header's `required`.
 */
type Json = Record<string, unknown>;
const objectsIn = (value: unknown): Json[] => (value && typeof value === 'object' ? (Object.values(value) as Json[]) : []);

/**
 * `format: int64` on every `*_paise` integer (contract §11), wherever it is (components, bodies,
 * nullable unions): rupee amounts above ₹2.14 crore overflow a 32-bit integer in generated clients.
 */
function markPaise(node: unknown, paise = false): void {
  if (Array.isArray(node)) {
    for (const n of node) markPaise(n, paise);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const o = node as Json;
  if (paise && o.type === 'integer') o.format = 'int64';
  for (const [key, value] of Object.entries(o)) {
    if (key === 'properties' && value && typeof value === 'object') {
      for (const [name, prop] of Object.entries(value as Json)) markPaise(prop, name.endsWith('_paise'));
    } else if (key === 'anyOf' || key === 'oneOf' || key === 'allOf') markPaise(value, paise);
    else markPaise(value, false);
  }
}

/**
 * Query parameters arrive as text, so the route's schema of `limit` is a pattern (1–100); the
 * document says what a generator should send: an integer from 1 to 100.
 */
function typeLimit(parameter: Json): void {
  if (parameter.in !== 'query' || parameter.name !== 'limit') return;
  const schema = parameter.schema as Json | undefined;
  parameter.schema = { type: 'integer', minimum: 1, maximum: 100, default: 20, ...(schema?.description ? { description: schema.description } : {}) };
}

/** Contract §11: the client's per-minute quota, on every answer once the client is authenticated. */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': {
    description: "The client's per-minute limit (draft-ietf-httpapi-ratelimit-headers): `\"per-minute\";q=LIMIT;w=60`.",
    schema: { type: 'string', pattern: '^"per-minute";q=[0-9]+;w=60$', maxLength: 40, example: '"per-minute";q=600;w=60' },
  },
  RateLimit: {
    description: 'What is left of it: `"per-minute";r=REMAINING;t=SECONDS` (seconds until the whole quota is back).',
    schema: { type: 'string', pattern: '^"per-minute";r=[0-9]+;t=[0-9]+$', maxLength: 40, example: '"per-minute";r=599;t=1' },
  },
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * The two request rules a generator loses when they are `if/then` or an `allOf` of `oneOf`s
 * (INTENT needs the customer; exactly one of beneficiary_id and beneficiary) stated again as a
 * `oneOf` of whole request types, so openapi-typescript makes a union that enforces them (each payout
 * branch names the other's field with the `false` schema, which openapi-typescript makes `?: never`,
 * so a body with both does not compile either). Only the
 * document changes: the service validates with the route's own schema (same rules, same words).
 */
function discriminateRequests(schemas: Json | undefined): void {
  const po = schemas?.CreatePaymentOrderRequest as Json | undefined;
  if (schemas && po && Array.isArray(po.allOf) && !po.oneOf) {
    const rules = po.allOf as Json[];
    const intent = rules.find((r) => (r.if as Json | undefined)?.properties && ((r.if as Json).properties as Json).response_mode);
    const others = rules.filter((r) => r !== intent);
    const props = po.properties as Json;
    const common = { type: 'object', additionalProperties: false, ...(others.length > 0 ? { allOf: others } : {}) };
    schemas.CheckoutPaymentOrderRequest = {
      ...common,
      description: 'A payment order paid on the hosted checkout (`response_mode` CHECKOUT, or absent).',
      properties: { ...props, response_mode: { type: 'string', enum: ['CHECKOUT'] } },
      required: po.required,
    };
    schemas.IntentPaymentOrderRequest = {
      ...common,
      description: 'A payment order answered with a UPI intent: the customer fields and consent are required.',
      properties: { ...props, response_mode: { type: 'string', enum: ['INTENT'] }, customer_consent: { ...(props.customer_consent as Json), enum: [true] } },
      required: [...new Set([...(po.required as string[]), 'response_mode', ...((((intent?.then as Json | undefined)?.required as string[] | undefined) ?? []))])],
    };
    schemas.CreatePaymentOrderRequest = { description: po.description, oneOf: [ref('CheckoutPaymentOrderRequest'), ref('IntentPaymentOrderRequest')] };
  }
  const payout = schemas?.CreatePayoutRequest as Json | undefined;
  if (schemas && payout && Array.isArray(payout.allOf) && !payout.oneOf) {
    const others = (payout.allOf as Json[]).filter((r) => !r.oneOf);
    const { beneficiary_id: byId, beneficiary: inline, ...rest } = payout.properties as Json;
    const common = { type: 'object', additionalProperties: false, ...(others.length > 0 ? { allOf: others } : {}) };
    schemas.PayoutToSavedBeneficiaryRequest = {
      ...common,
      description: 'A payout to a beneficiary saved before (`beneficiary_id`; `beneficiary` must be absent).',
      properties: { ...rest, beneficiary_id: byId, beneficiary: false },
      required: [...(payout.required as string[]), 'beneficiary_id'],
    };
    schemas.PayoutToNewBeneficiaryRequest = {
      ...common,
      description: 'A payout to a beneficiary given in full (`beneficiary`; `beneficiary_id` must be absent), saved for later.',
      properties: { ...rest, beneficiary: inline, beneficiary_id: false },
      required: [...(payout.required as string[]), 'beneficiary'],
    };
    schemas.CreatePayoutRequest = { description: payout.description, oneOf: [ref('PayoutToSavedBeneficiaryRequest'), ref('PayoutToNewBeneficiaryRequest')] };
  }
}

function finishDocument(doc: Json): Json {
  discriminateRequests((doc.components as Json | undefined)?.schemas as Json | undefined);
  markPaise(doc.components);
  markPaise(doc.paths);
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    if (path.startsWith(`${CONSOLE_API_PREFIX}/`)) continue;
    for (const op of objectsIn(item)) {
      for (const [status, response] of Object.entries((op.responses ?? {}) as Record<string, Json>)) {
        if (status !== '401') response.headers = { ...(response.headers as Json | undefined), ...RATE_LIMIT_HEADERS };
      }
    }
  }
  // The console's paths are absolute on the service origin; the document's server is /api/v1.
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    if (path.startsWith(`${CONSOLE_API_PREFIX}/`)) item.servers = [{ url: '/', description: 'the service origin: the console API is not under /api/v1' }];
  }
  for (const item of objectsIn(doc.paths)) {
    for (const op of objectsIn(item)) {
      for (const p of (op.parameters ?? []) as Json[]) {
        if (p.in === 'header') p.name = headerName(String(p.name));
        typeLimit(p);
      }
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
  writeOutBounds([doc.components, doc.paths, doc.webhooks]);
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
    // Each deployment is one server: production (live clients) and sandbox (sandbox clients) share
    // it, `livemode` tells them apart. Public: `x-internal: false` (OWASP API9, inventory).
    servers: [{ url: API_PREFIX, description: 'relative to the service origin: your deployment, production and sandbox alike (`livemode` says which)', ...{ 'x-internal': false } }],
    tags: [
      { name: 'payment orders', description: 'INR collections: hosted checkout or UPI intent (API §4.1, §4.2)' },
      { name: 'payouts', description: 'Direct bank payouts (API §4.3, §4.4)' },
      { name: 'refunds', description: 'Refunds of paid payment orders (contract §6)' },
      { name: 'settlements', description: "What each provider settled into the merchant's bank, with its fees, taxes and lines (contract §9; scope settlements:read)" },
      {
        name: CONSOLE_TAG,
        description:
          'The merchant console\'s own JSON API at /console/api (docs/console.md): session cookie authentication, `X-CSRF-Token` on every change. ' +
          'Not for server-to-server use: the merchant SDK leaves it out.',
      },
    ],
    components: {
      securitySchemes: {
        clientId: { type: 'apiKey', in: 'header', name: 'X-Service-Client-Id', description: 'the API client id' },
        clientSecret: { type: 'http', scheme: 'bearer', description: '`Authorization: Bearer <CLIENT_SECRET>`; server-side only' },
        ...CONSOLE_SECURITY_SCHEMES,
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
 * called, so they get no context (handlers are the only users of it). The console's routes read
 * a few members of the context when registered (to keep in closures): each reads as undefined.
 */
export async function openApiDocument(): Promise<Record<string, unknown>> {
  const app = Fastify({ logger: false, ajv: AJV_OPTIONS });
  const noContext = new Proxy({}, { get: () => undefined }) as AppContext;
  await registerOpenApi(app);
  await app.register((api) => registerConsoleApi(api, noContext), { prefix: CONSOLE_API_PREFIX });
  await app.register((api) => registerPublicRoutes(api, noContext), { prefix: API_PREFIX });
  await app.ready();
  const doc = app.swagger() as unknown as Record<string, unknown>;
  await app.close();
  return doc;
}

/**
 * The merchant part of the document: without the console's operations, tag and security schemes.
 * What the SDK's types are made from (scripts/sdk-types.ts): a merchant integration never calls
 * the console API.
 */
export function merchantDocument(doc: Record<string, unknown>): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(doc)) as Json;
  for (const [path, item] of Object.entries(copy.paths as Record<string, Json>)) {
    if (path.startsWith(`${CONSOLE_API_PREFIX}/`)) delete (copy.paths as Json)[path];
    else for (const [method, op] of Object.entries(item)) if (((op as Json).tags as string[] | undefined)?.includes(CONSOLE_TAG)) delete item[method];
  }
  copy.tags = (copy.tags as Json[]).filter((t) => t.name !== CONSOLE_TAG);
  const schemes = (copy.components as Json).securitySchemes as Json;
  for (const name of Object.keys(CONSOLE_SECURITY_SCHEMES)) delete schemes[name];
  return copy;
}

/**
 * The console part of the document: only the console's operations (tag `console`), with every
 * component (their answers refer to some of the merchant API's, such as PaymentOrder). What the
 * console app's types are made from (scripts/console-types.ts).
 */
export function consoleDocument(doc: Record<string, unknown>): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(doc)) as Json;
  for (const [path, item] of Object.entries(copy.paths as Record<string, Json>)) {
    for (const [method, op] of Object.entries(item)) {
      if (typeof op === 'object' && op !== null && 'responses' in op && !((op as Json).tags as string[] | undefined)?.includes(CONSOLE_TAG)) delete item[method];
    }
    if (!Object.values(item).some((op) => typeof op === 'object' && op !== null && 'responses' in op)) delete (copy.paths as Json)[path];
  }
  delete copy.webhooks;
  return copy;
}
