/** The console's committed generated types and constants are what the server gives now (else: npm run console:types). */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CONSOLE_CONSTANTS_FILE, CONSOLE_TYPES_FILE, consoleConstants, consoleTypes } from '../../scripts/console-types.js';

test('console/src/generated/openapi.ts is current (else: npm run console:types)', async () => {
  assert.equal(readFileSync(CONSOLE_TYPES_FILE, 'utf8'), await consoleTypes(), 'regenerate with npm run console:types');
});

test('console/src/generated/server.ts is current (else: npm run console:types)', () => {
  assert.equal(readFileSync(CONSOLE_CONSTANTS_FILE, 'utf8'), consoleConstants(), 'regenerate with npm run console:types');
});
