/**
 * What every console operation declares for the OpenAPI document (tag `console`, docs/console.md
 * "The console in the OpenAPI document"): its operationId and summary, how it is authenticated
 * (the session cookie; a change also the X-CSRF-Token header) and its answers. The console API
 * lives at /console/api on the service origin, not under /api/v1 (openapi.ts gives its paths their
 * own `servers`); the merchant SDK leaves it out (scripts/sdk-types.ts).
 */
import { type TSchema, Type } from '@sinclair/typebox';
import { refTo } from '../../schemas/common.js';
import { ErrorEnvelope } from '../../schemas/errors.js';

export const ISO_TIME = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,6})?)?(Z|[+-]\\d{2}:\\d{2})$';
export const strict = { additionalProperties: false } as const;
/** `limit` of a console list: digits (query strings are not coerced); the route clamps the number. */
export const LimitText = Type.String({ pattern: '^[0-9]{1,3}$' });

/** The security schemes of the console (openapi.ts declares them under components.securitySchemes). */
export const CONSOLE_SECURITY_SCHEMES = {
  consoleSession: {
    type: 'apiKey',
    in: 'cookie',
    name: '__Host-tijori_console',
    description:
      'The console session cookie set by a sign-in (HttpOnly, SameSite=Strict). Named `__Host-tijori_console` when PUBLIC_BASE_URL is https, ' +
      '`tijori_console` (Path=/console) on plain http.',
  },
  consoleCsrf: {
    type: 'apiKey',
    in: 'header',
    name: 'X-CSRF-Token',
    description: 'Every change (any method but GET/HEAD/OPTIONS) sends the `csrf_token` of the session answer in this header; without it 403 API_SCOPE_DENIED.',
  },
} as const;

/**
 * How an operation is authenticated: 'public' (sign-in and set-up: no session), 'read' (the session
 * cookie), 'change' (the cookie and the CSRF header).
 */
export type ConsoleAccess = 'public' | 'read' | 'change';
const SECURITY: Record<ConsoleAccess, Record<string, string[]>[]> = {
  public: [],
  read: [{ consoleSession: [] }],
  change: [{ consoleSession: [], consoleCsrf: [] }],
};

/**
 * The success envelope of the console API. `data` is left open on purpose: the console's answers
 * are the services' views, shaped for the app, and a schema here would also be their serialiser
 * (dropping or coercing fields). The operation's description says what `data` holds.
 */
export const ConsoleOk = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Unknown({ description: 'the answer; see the operation\'s description' }),
    next_cursor: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], description: 'lists with keyset pages: the cursor of the next page, null on the last' })),
    request_id: Type.String(),
  },
  { additionalProperties: true },
);

const ERRORS = {
  '4xx': { ...refTo(ErrorEnvelope), description: 'Not signed in (401), no permission or no CSRF token (403), not found (404), a rule broken (422, `error.details`), too many attempts (429)...' },
  500: { ...refTo(ErrorEnvelope), description: 'An unexpected failure; nothing is guaranteed to have changed (quote `request_id`).' },
  '5xx': { ...refTo(ErrorEnvelope), description: 'The service could not answer; nothing is guaranteed to have changed.' },
};
/** Every operation behind the session answers 401 without one (declared on its own: OWASP API8). */
const SESSION_ERRORS = { 401: { ...refTo(ErrorEnvelope), description: 'Not signed in, or the session has ended: sign in again.' } };

interface ConsoleOperation<S extends 200 | 201> {
  operationId: string;
  summary: string;
  access: ConsoleAccess;
  /** What `data` holds, and anything else a reader needs. */
  description: string;
  /** 201 for a create; 200 when left out. */
  status?: S;
}

/**
 * The documentation part of a console route's schema; the route adds its params/querystring/body.
 * The success status is a type parameter so that the type provider knows the handler's answer.
 */
export function consoleOperation<S extends 200 | 201 = 200>(op: ConsoleOperation<S>) {
  const ok = { ...ConsoleOk, description: op.summary };
  const success = { [op.status ?? 200]: ok } as Record<S, typeof ok>;
  return {
    tags: ['console'],
    operationId: op.operationId,
    summary: op.summary,
    description: op.description,
    security: SECURITY[op.access],
    response: { ...success, ...(op.access === 'public' ? {} : SESSION_ERRORS), ...ERRORS },
  };
}

/** A CSV download (the lists' export): the body is the file, streamed. */
export function consoleCsvOperation(op: Omit<ConsoleOperation<200>, 'status' | 'access'>) {
  const csv: TSchema = Type.String({ description: 'RFC 4180 CSV with a header row' });
  return {
    tags: ['console'],
    operationId: op.operationId,
    summary: op.summary,
    description: op.description,
    security: SECURITY.read,
    response: { 200: { description: op.summary, content: { 'text/csv': { schema: csv } } }, ...ERRORS },
  };
}
