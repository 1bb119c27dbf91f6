#!/usr/bin/env node
// The `tijori` CLI. Runs the TypeScript sources through tsx, like `npm start`.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli/main.ts');
process.exitCode = await runCli(process.argv.slice(2));
