/**
 * Every answer the integration tests get from the merchant API is checked against the OpenAPI
 * document the service itself serves (/api/v1/openapi.json): the status must be one the operation
 * documents, the body must match that response's schema, its required headers must be there and
 * every documented header it carries must match its schema.
 * An answer that breaks its schema fails the test that received it (test/support/service.ts calls
 * this on every `api()` answer). The document is compiled once per process with Ajv (JSON Schema
 * 2020-12, the dialect of OpenAPI 3.1); each response schema is compiled on first use.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

type Json = Record<string, any>;

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const DOC_ID = 'openapi.json';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

interface Operation {
  pattern: RegExp;
  method: string;
  pointer: string;
  responses: Json;
}

const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

export class ResponseChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  private readonly operations: Operation[] = [];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(doc: Json) {
    addFormats(this.ajv);
    this.ajv.addSchema(doc, DOC_ID);
    for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
      const pattern = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}/?$`);
      for (const method of METHODS) {
        if (item[method]) this.operations.push({ pattern, method, pointer: `#/paths/${escapePointer(path)}/${method}`, responses: item[method].responses ?? {} });
      }
    }
  }

  private validator(pointer: string): ValidateFunction {
    let v = this.compiled.get(pointer);
    if (!v) {
      v = this.ajv.compile({ $ref: `${DOC_ID}${pointer}` });
      this.compiled.set(pointer, v);
    }
    return v;
  }

  /** What is wrong with one answer ([] when it matches the document). `path` is relative to /api/v1 (a console path: /console/api/...). */
  check(method: string, path: string, status: number, headers: Headers, body: unknown, text: string): string[] {
    const bare = path.split('?')[0] ?? path;
    if (bare === '/openapi.json') return [];
    const m = method.toLowerCase();
    const op = this.operations.find((o) => o.method === m && o.pattern.test(bare));
    const where = `${method} ${path} → ${status}`;
    let pointer: string;
    let response: Json | undefined;
    if (op) {
      const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => op.responses[k] !== undefined);
      if (key === undefined) return [`${where}: status not documented for this operation (documented: ${Object.keys(op.responses).join(', ')})`];
      response = op.responses[key];
      pointer = `${op.pointer}/responses/${key}/content/application~1json/schema`;
    } else {
      // No operation (unknown path or method): only errors are expected, in the envelope.
      if (status < 400) return [];
      pointer = '#/components/schemas/ErrorEnvelope';
    }
    const problems: string[] = [];
    for (const [name, h] of Object.entries<Json>(response?.headers ?? {})) {
      if (h.required === true && !headers.has(name)) problems.push(`${where}: required header ${name} missing`);
      // A header that is there must match its schema (RateLimit syntax, Retry-After digits, ...).
      const value = headers.get(name);
      if (value !== null && h.schema && !this.ajv.validate(h.schema, value)) problems.push(`${where}: header ${name}: ${JSON.stringify(value)} breaks ${JSON.stringify(h.schema)}`);
    }
    if (m === 'head' || (response && !response.content)) return problems;
    // A file download (text/csv): nothing JSON to check.
    if (response?.content && !response.content['application/json']) return problems;
    if (text === '' || typeof body === 'string') return [...problems, `${where}: body is not JSON: ${text.slice(0, 200)}`];
    const validate = this.validator(pointer);
    if (!validate(body)) problems.push(`${where}: body breaks ${pointer}: ${this.ajv.errorsText(validate.errors, { separator: '; ' })}\n${text.slice(0, 2000)}`);
    return problems;
  }
}

const checkers = new Map<string, ResponseChecker>();

/** One checker per document text, so every service of a test process shares one compilation. */
export function responseCheckerFor(docText: string): ResponseChecker {
  let c = checkers.get(docText);
  if (!c) {
    c = new ResponseChecker(JSON.parse(docText) as Json);
    checkers.set(docText, c);
  }
  return c;
}
