/** Turns Ajv validation errors into the `{field, issue}` details of a VALIDATION_FAILED error. */
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import type { FieldIssue } from '../../domain/errors.js';

type AjvError = FastifySchemaValidationError & { parentSchema?: Record<string, unknown> };

/**
 * Rules that the schemas state with combinators (schemas/*.ts) answer once, in their own words:
 * `if` reports only that its `then` failed (the `then` errors say what), and the branches of a
 * `oneOf` report what each branch missed (the `oneOf` error itself carries `x-issue`).
 */
function isEchoOfAnotherError(e: FastifySchemaValidationError): boolean {
  return e.keyword === 'if' || /\/oneOf\/\d+\//.test(e.schemaPath);
}

function fieldOf(e: AjvError): string {
  const override = e.parentSchema?.['x-field'];
  if (typeof override === 'string') return override;
  const path = (e.instancePath || '').replace(/^\//, '').replace(/\//g, '.');
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'required' && typeof params.missingProperty === 'string') return path ? `${path}.${params.missingProperty}` : params.missingProperty;
  if (e.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    return path ? `${path}.${params.additionalProperty}` : params.additionalProperty;
  }
  return path || '(body)';
}

/** Keywords whose default words say enough; any other keyword of a schema with `x-issue` uses it. */
const OWN_WORDS = new Set(['type', 'minLength', 'maxLength', 'additionalProperties']);

function issueOf(e: AjvError): string {
  const own = e.parentSchema?.['x-issue'];
  if (typeof own === 'string' && !OWN_WORDS.has(e.keyword)) return own;
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a known field';
    case 'type':
      return `must be of type ${String(p.type)}`;
    case 'minimum':
      return `must be at least ${String(p.limit)}`;
    case 'maximum':
      return `must be at most ${String(p.limit)}`;
    case 'minLength':
      return `must be at least ${String(p.limit)} characters`;
    case 'maxLength':
      return `must be at most ${String(p.limit)} characters`;
    case 'enum':
      return `must be one of ${(p.allowedValues as unknown[]).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)}`;
    case 'pattern':
    case 'format':
      return 'has an invalid format';
    default:
      return e.message ?? 'is invalid';
  }
}

export function validationDetails(errors: FastifySchemaValidationError[], context?: string): FieldIssue[] {
  const seen = new Set<string>();
  const out: FieldIssue[] = [];
  for (const e of errors as AjvError[]) {
    if (isEchoOfAnotherError(e)) continue;
    const field = fieldOf(e);
    // A body field, a query parameter and a path parameter are each named as the document names
    // them (`created_from`, not `querystring.created_from`): one form for one parameter everywhere.
    const fullField = context && context !== 'body' && context !== 'querystring' && context !== 'params' ? `${context}.${field}` : field;
    if (seen.has(fullField)) continue;
    seen.add(fullField);
    out.push({ field: fullField, issue: issueOf(e) });
    if (out.length >= 20) break;
  }
  return out;
}
