/**
 * The merchant's callback endpoint for the delivery scenario, in its own process (so its CPU is
 * not the service's or the runner's): test/support/https-receiver.ts on 127.0.0.1 with a fresh
 * self-signed certificate, verifying every signature with the reference verifier.
 *
 * Prints {"event":"listening","url":...,"ca_file":...}, then takes commands on stdin, one per line:
 *   secret <signing secret>          verify requests to /payin with it; answer {"ok":true}
 *   wait <count> <timeoutMs> <file>  once <count> verified requests arrived (or on time-out), write
 *                                    [[order_id, receivedAt], ...] to <file>; answer {"count":n}
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startHttpsReceiver } from '../test/support/https-receiver.js';

const secrets: Record<string, string> = {};
const rx = await startHttpsReceiver({ secretsByPath: secrets });
const caFile = join(mkdtempSync(join(tmpdir(), 'tijori-bench-rx-')), 'ca.pem');
writeFileSync(caFile, rx.ca);
process.stdout.write(`${JSON.stringify({ event: 'listening', url: rx.url('/payin'), ca_file: caFile })}\n`);

const verified = () => rx.received.filter((r) => r.verification?.ok && !r.duplicate);

for await (const line of createInterface({ input: process.stdin })) {
  const [cmd, a, b, c] = line.trim().split(' ');
  if (cmd === 'secret') {
    secrets['/payin'] = a as string;
    process.stdout.write('{"ok":true}\n');
  }
  if (cmd === 'wait') {
    const deadline = Date.now() + Number(b);
    while (verified().length < Number(a) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const got = verified().map((r) => [JSON.parse(r.rawBody.toString('utf8')).data.order_id as string, r.receivedAt]);
    writeFileSync(c as string, JSON.stringify(got));
    process.stdout.write(`${JSON.stringify({ count: got.length, unverified: rx.received.length - got.length })}\n`);
  }
}
await rx.stop();
