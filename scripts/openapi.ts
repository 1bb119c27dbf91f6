/**
 * Writes the merchant API's OpenAPI document (the one served at /api/v1/openapi.json, made from
 * the routes' schemas without a database) to a file, for linters and the SDK's type generator.
 *   node --import tsx scripts/openapi.ts [out.json]     (default: dist/openapi.json)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { openApiDocument } from '../src/http/public/openapi.js';

const out = process.argv[2] ?? 'dist/openapi.json';
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(await openApiDocument(), null, 2)}\n`);
console.log(`wrote ${out}`);
