/**
 * What every console operation declares for the OpenAPI document (tag `console`, docs/console.md
 * "The console in the OpenAPI document"): its operationId and summary, how it is authenticated
 * (the session cookie; a change also the X-CSRF-Token header) and its answers. The console API
 * lives at /console/api on the service origin, not under /api/v1 (openapi.ts gives its paths their
 * own `servers`); the merchant SDK leaves it out (scripts/sdk-types.ts).
 */
import { type TSchema, Type } from '@sinclair/typebox';
import { Nullable, refTo } from '../../schemas/common.js';
import { ErrorEnvelope } from '../../schemas/errors.js';

export const ISO_TIME = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,6})?)?(Z|[+-]\\d{2}:\\d{2})$';
export const strict = { additionalProperties: false } as const;
export { LimitText } from '../../../../contract/console.js';

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
 * The success envelope of the console API around one operation's `data` schema. The schema is the
 * route's answer type (the type provider checks the handler against it), the OpenAPI document's
 * answer and, through scripts/console-types.ts, the console app's types. It is not the serialiser:
 * the console API answers with JSON.stringify (api.ts), so a field the schema forgot is never
 * silently dropped; the tests check every console answer against the document
 * (test/support/console.ts).
 */
export function ConsoleOk<T extends TSchema>(data: T) {
  return Type.Object({
    success: Type.Literal(true),
    data,
    next_cursor: Type.Optional(Nullable(Type.String({ description: 'lists with keyset pages: the cursor of the next page, null on the last' }))),
    request_id: Type.String(),
  });
}

/** A value kept as the JSON it was stored as (an audit entry's before/after, a provider's words). */
export const AnyJson = (description: string) => Type.Unsafe<unknown>({ description });

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

interface ConsoleAnswer<S extends 200 | 201, D extends TSchema> extends ConsoleOperation<S> {
  /** The schema of `data`. */
  data: D;
}

/**
 * The documentation part of a console route's schema; the route adds its params/querystring/body.
 * The success status is a type parameter so that the type provider knows the handler's answer.
 */
export function consoleOperation<D extends TSchema, S extends 200 | 201 = 200>(op: ConsoleAnswer<S, D>) {
  const ok = { ...ConsoleOk(op.data), description: op.summary };
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
