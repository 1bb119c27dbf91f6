/** The committed generated types are what openapi-typescript makes of the current document. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { GENERATED_TYPES_FILE, generatedTypes } from '../../scripts/sdk-types.js';

test('sdk/src/generated/openapi.ts is current (else: npm run sdk:types)', async () => {
  assert.equal(readFileSync(GENERATED_TYPES_FILE, 'utf8'), await generatedTypes(), 'regenerate with npm run sdk:types');
});
