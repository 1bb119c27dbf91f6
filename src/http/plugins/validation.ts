/** Turns Ajv validation errors into the `{field, issue}` details of a VALIDATION_FAILED error. */
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import type { FieldIssue } from '../../domain/errors.js';

function fieldOf(e: FastifySchemaValidationError): string {
  const path = (e.instancePath || '').replace(/^\//, '').replace(/\//g, '.');
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'required' && typeof params.missingProperty === 'string') return path ? `${path}.${params.missingProperty}` : params.missingProperty;
  if (e.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    return path ? `${path}.${params.additionalProperty}` : params.additionalProperty;
  }
  return path || '(body)';
}

function issueOf(e: FastifySchemaValidationError): string {
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
  for (const e of errors) {
    const field = fieldOf(e);
    const fullField = context && context !== 'body' ? `${context}.${field}` : field;
    if (seen.has(fullField)) continue;
    seen.add(fullField);
    out.push({ field: fullField, issue: issueOf(e) });
    if (out.length >= 20) break;
  }
  return out;
}
