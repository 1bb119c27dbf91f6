/** Runs the real `tijori` binary against a test service. */
import { execFile } from 'node:child_process';
import type { TestService } from './service.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runTijori(ts: TestService, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/tijori.js', ...args],
      { env: { ...process.env, ADMIN_URL: ts.svc.internalUrl, ADMIN_TOKEN: ts.config.adminToken, ...env }, timeout: 30_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** With --json, standard output is exactly one JSON object. */
export function parseJsonOutput(r: CliResult): any {
  const lines = r.stdout.trim().split('\n');
  if (lines.length !== 1) throw new Error(`expected one line of JSON, got: ${r.stdout} (stderr: ${r.stderr})`);
  return JSON.parse(lines[0] as string);
}
